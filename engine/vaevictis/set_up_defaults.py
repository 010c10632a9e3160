"""[19.4.1] A legal default for a free set-up: the historical one, moved as little as the conditions need.

The historical scenarios start each unit a player places on a suggested hex, so that "set-up done" at once is
legal (19.2). The variant's free set-ups start from the historical hexes, which can break 19.4.1 (the German
reserves and the 269th ID's HQ stand outside their areas, and front-line hexes are then left uncovered). When
a side's set-up opens, its units are moved to a set-up that meets every condition, as few as the search can:
first each unit outside its area goes to the nearest hex of it; then each uncovered front-line hex takes the
nearest unit that can be spared. A move is kept only if it leaves fewer conditions broken. What the search
cannot mend is left to the player, whose prompt lists every condition still broken.
"""

from __future__ import annotations

from engine.hexgrid import Hex
from engine.vaevictis import setup_phase, variant
from engine.vaevictis.data import GameData, Side
from engine.vaevictis.state import GameState, Position
from engine.vaevictis.supply import SupplyNet

STATIC_KINDS = ("strongpoint", "garrison")


def prepare(data: GameData, state: GameState) -> None:
    """Move the units of the side whose free set-up is open now to a legal default (variant games only)."""
    side = setup_phase.setup_side(data, state)
    if side is not None and variant.applies(data, state):
        default_set_up(data, state, side)


def default_set_up(data: GameData, state: GameState, side: Side) -> list[str]:
    """Move ``side``'s placed units towards a set-up that meets every condition; returns the units moved."""
    placeable = setup_phase.placeables(data, state, side)
    moved: list[str] = []
    grid = data.map.grid
    for unit_id in sorted(placeable, key=lambda u: (not data.units[u].is_hq, u)):
        start = state.units[unit_id].hex
        allowed = placeable[unit_id]
        if start in allowed.hexes:
            continue
        candidates = sorted(allowed.hexes, key=lambda h: (grid.distance(start, h) if start else 0, h))
        if _first_better(data, state, side, unit_id, candidates):
            moved.append(unit_id)
    for _ in range(len(data.map.regions.get("front line", ())) + 1):
        uncovered = variant.uncovered_front_line(data, state, side)
        if not uncovered:
            break
        progress = False
        for target in uncovered:
            spare = sorted(
                (
                    u
                    for u in placeable
                    if not data.units[u].is_hq
                    and data.units[u].kind not in STATIC_KINDS
                    and target in placeable[u].hexes
                    and state.units[u].hex is not None
                ),
                key=lambda u: (grid.distance(state.units[u].hex or target, target), u),
            )
            for unit_id in spare:
                if _first_better(data, state, side, unit_id, [target]):
                    moved.append(unit_id)
                    progress = True
                    break
        if not progress:
            break
    return moved


def _first_better(data: GameData, state: GameState, side: Side, unit_id: str, hexes: list[Hex]) -> bool:
    """Put the unit on the first of ``hexes`` where it may stand, fewer conditions are broken and no more of
    the side's units start unsupplied (10.2: a default never strands a unit); say if it moved."""
    unit = state.units[unit_id]
    before, start = len(setup_phase.setup_problems(data, state, side)), unit.hex
    unsupplied = _unsupplied(data, state, side)
    for hex_ in hexes:
        if hex_ == start or setup_phase.place_refusal(data, state, side, unit_id, hex_) is not None:
            continue
        unit.hex = hex_
        if len(setup_phase.setup_problems(data, state, side)) < before and _unsupplied(data, state, side) <= unsupplied:
            unit.arrived, unit.improved_position = True, False
            return True
        unit.hex = start
    return False


def _unsupplied(data: GameData, state: GameState, side: Side) -> int:
    """How many of the side's units on the map trace no line of supply (10.2), static counters aside."""
    net = SupplyNet(Position(data, state), side)
    return sum(
        1
        for u in state.on_map()
        if data.side_of(u.id) == side and data.units[u.id].kind not in STATIC_KINDS and not net.is_supplied(u)
    )
