"""[5] Stacking: at most 6 steps in a hex, and what happens to a hex that holds more.

[5] The limit is the tables' ``[stacking] max_steps`` (6). A unit counts the steps it really has left, not
the steps printed on it; an HQ counts one; markers count nothing. The limit applies after each move action
(:func:`engine.vaevictis.movement.apply_move` refuses a move that would break it); friendly units move
through each other freely during a sequence. Units still in violation at the end of the activation sequence
are eliminated, the owner choosing which (:func:`eliminate_excess`, called by the state machine).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.contract import Event, IllegalActionError, InvalidActionError
from engine.hexgrid import Hex, hex_name
from engine.vaevictis.data import GameData, Side
from engine.vaevictis.state import GameState, Position


def stacking_limit(data: GameData) -> int:
    """[5] The most steps a hex may hold (6)."""
    return int(data.tables.raw["stacking"]["max_steps"])


def overstacked_hexes(pos: Position, side: Side) -> dict[Hex, int]:
    """[5] The hexes where ``side`` holds more steps than the limit, each with the excess in steps.

    ``{2615: 2}`` means that 2615 holds 8 steps, 2 more than the limit.
    """
    limit = stacking_limit(pos.data)
    found: dict[Hex, int] = {}
    for hex_, units in pos.occupants.items():
        if pos.side_of(units[0].id) != side:
            continue
        steps = sum(u.steps for u in units)
        if steps > limit:
            found[hex_] = steps - limit
    return found


def eliminate_excess(state: GameState, data: GameData, hex_: Hex, unit_ids: Sequence[str]) -> list[Event]:
    """[5] Eliminate the units the owner chose in an overstacked hex, at the end of the activation sequence.

    The choice must bring the hex within the limit, and name no unit the hex could keep: each unit named
    must be needed (without it, the others named would not be enough). Mutates ``state``: the caller passes
    a copy.

    :raises InvalidActionError: if a unit is unknown or named twice.
    :raises IllegalActionError: (rule 5) if the hex is not overstacked, a unit is not in it, the choice
        leaves the hex overstacked, or it eliminates a unit that could be kept.
    """
    if len(set(unit_ids)) != len(unit_ids):
        raise InvalidActionError("a unit is named twice")
    for unit_id in unit_ids:
        if unit_id not in state.units or unit_id not in data.units:
            raise InvalidActionError(f"there is no unit {unit_id!r}")
    pos = Position(data, state)
    units = pos.units_at(hex_)
    limit = stacking_limit(data)
    total = sum(u.steps for u in units)
    where = hex_name(hex_)
    if total <= limit:
        raise IllegalActionError(f"{where} holds {total} steps, within the limit of {limit}: nothing to eliminate", "5")
    present = {u.id for u in units}
    for unit_id in unit_ids:
        if unit_id not in present:
            raise IllegalActionError(f"{data.units[unit_id].name} is not in {where}", rule="5")
    chosen = [state.units[u] for u in unit_ids]
    removed = sum(u.steps for u in chosen)
    if total - removed > limit:
        raise IllegalActionError(
            f"eliminating {_names(data, unit_ids)} leaves {total - removed} steps in {where}, more than the {limit} "
            "allowed: choose more units",
            rule="5",
        )
    for unit in chosen:
        if total - (removed - unit.steps) <= limit:
            raise IllegalActionError(
                f"{data.units[unit.id].name} need not be eliminated: without it the hex is already within the "
                f"limit of {limit} steps",
                rule="5",
            )
    for unit in chosen:
        unit.eliminated = True
        unit.steps = 0
        unit.hex = None
        unit.must_attack = False
    return [
        Event(
            kind="eliminate",
            text=f"{_names(data, unit_ids)} eliminated: {where} held {total} steps, more than {limit} (5)",
            data={"units": list(unit_ids), "hex": where, "reason": "stacking"},
        )
    ]


def _names(data: GameData, unit_ids: Sequence[str]) -> str:
    return " and ".join(data.units[u].name for u in unit_ids)
