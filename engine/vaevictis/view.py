"""[11] What one seat may see: the counters on the map, with the optional fog of war.

Without fog of war every counter is visible to both sides. With it (11.1), an enemy stack shows only the unit
its owner put on top (11.2) and how many counters it holds, unless a unit of the viewer exerts a zone of
control on it or it is engaged in the combat being resolved. ``seat=None`` is the channel's view: only what
both sides may see. The secret seed never appears in a view.
"""

from __future__ import annotations

from typing import Any

from engine.hexgrid import Hex, hex_name
from engine.vaevictis import zoc
from engine.vaevictis.data import SIDES, GameData, Side, other_side
from engine.vaevictis.state import GameState, Position, UnitState


def seat_view(data: GameData, state: GameState, seat: Side | None) -> dict[str, Any]:
    """What one seat may see (``None``: what both may see, for the channel).

    Without fog of war every counter is visible. With it (11.1), an enemy stack shows only the unit its
    owner put on top (11.2) and how many counters it holds, unless a unit of the viewer exerts a zone of
    control on it or it is engaged in the combat being resolved.
    """
    pos = Position(data, state)
    fog = state.options.get("fog_of_war", False)
    seen_by: dict[Side, set[Hex]] = {}
    if fog:
        engaged = engaged_hexes(state)
        for side in SIDES:
            seen_by[side] = set(zoc.enemy_zoc(pos, other_side(side))) | engaged
    stacks = []
    for hex_, units in sorted(pos.occupants.items()):
        owner = pos.side_of(units[0].id)
        ordered = stack_order(state, hex_, units)
        visible = ordered
        if fog and seat != owner:
            enemy = other_side(owner)
            may_see = hex_ in seen_by[enemy] if (seat == enemy or seat is None) else False
            if not may_see:
                visible = ordered[:1]
        stacks.append(
            {
                "hex": hex_,
                "side": owner,
                "count": len(units),
                "units": [unit_view(pos, u) for u in visible],
                "hidden": len(units) - len(visible),
            }
        )
    return {
        "game": state.game,
        "scenario": state.scenario,
        "turn": state.turn,
        "date": data.turns[state.turn - 1].date,
        "weather": data.turns[state.turn - 1].weather or "",
        "phase": state.phase,
        "initiative": state.initiative,
        "active": state.active,
        "fog_of_war": fog,
        "stacks": stacks,
        "markers": [{"kind": m.kind, "hex": m.hex, "side": m.side} for m in state.markers],
        "pools": {army: dict(pool) for army, pool in state.pools.items()},
        "air_missions": dict(state.air_missions),
        "events_left": dict(state.events_left),
        "result": state.result,
    }


def engaged_hexes(state: GameState) -> set[Hex]:
    """[11.1] The hexes of the combat being resolved: its target and its attackers' hexes."""
    hexes: set[Hex] = set()
    for record in state.pending:
        if record.get("kind") == "combat":
            hexes.add(record["target"])
            hexes.update(h for u in record.get("attackers", []) if (h := state.units[u].hex) is not None)
    return hexes


def stack_order(state: GameState, hex_: Hex, units: list[UnitState]) -> list[UnitState]:
    """The units of a stack, the one its owner put on top first (11.2)."""
    top = state.stack_tops.get(hex_name(hex_))
    return sorted(units, key=lambda u: u.id != top)


def unit_view(pos: Position, unit: UnitState) -> dict[str, Any]:
    """A counter as a player sees it."""
    definition = pos.unit_def(unit.id)
    return {
        "id": unit.id,
        "name": definition.name,
        "kind": definition.kind,
        "steps": unit.steps,
        "max_steps": definition.steps,
        "strength": pos.strength(unit),
        "quality": definition.quality,
        "status": [
            flag
            for flag in ("improved_position", "fatigued", "out_of_command", "isolated", "unsupplied")
            if getattr(unit, flag)
        ]
        + (["activated"] if unit.activations else []),
        "supports": list(unit.supports),
    }
