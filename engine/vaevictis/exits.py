"""[Alsace 19.2] Leaving the map by its exit hexes, for a strategic victory.

A scenario whose victory conditions count units exited (``exit-units``, with the map ``region`` of the exit
hexes) lets the side of that condition take its activated units off the map from a hex of the region. The
reading (docs/rules/alsace44.md, 19.2): leaving the map is a move action (1 AP) from an exit hex, which the
exit roads reach; the units are out of the game for good, neither eliminated nor on the map, and counted by
the victory check (:mod:`engine.vaevictis.victory`). The exited units are kept in ``state.flags["exited"]``.
"""

from __future__ import annotations

from engine.contract import Choice, Event, IllegalActionError
from engine.hexgrid import Hex, hex_name
from engine.vaevictis.data import GameData, Side
from engine.vaevictis.state import GameState

EXITED = "exited"
RULE = "19.2"
EXIT_COST = 1
"""[3.4.1, 6.1] Leaving the map is a move action."""


def exit_hexes(data: GameData, state: GameState, side: Side) -> frozenset[Hex]:
    """The hexes from which ``side`` may leave the map in this scenario (none when no condition counts it)."""
    from engine.vaevictis.victory import flat

    hexes: set[Hex] = set()
    for condition in flat(data.scenarios[state.scenario].victory):
        if condition.kind == "exit-units" and condition.side == side:
            hexes.update(data.map.regions.get(condition.region, ()))
    return frozenset(hexes)


def choices(data: GameData, state: GameState, side: Side) -> list[Choice]:
    """[19.2] The activated units of ``side`` standing on an exit hex with an AP left, each a choice."""
    activation = state.activation
    if activation is None or activation.side != side or state.pending:
        return []
    exits = exit_hexes(data, state, side)
    found = []
    for unit_id in activation.units:
        unit = state.units[unit_id]
        if unit.on_map and unit.hex in exits and unit.action_points >= EXIT_COST:
            found.append(Choice("exit_map", {"units": unit_id}, f"{data.units[unit_id].name} leaves the map (19.2)"))
    return found


def exit_map(data: GameData, state: GameState, side: Side, unit_ids: list[str]) -> list[Event]:
    """[19.2] Activated units of ``side`` on an exit hex leave the map, each spending a move action.

    :raises IllegalActionError: when the scenario has no exit for the side, a unit is not on an exit hex, is
        not in the activation in progress, or has no AP left; the state is then unchanged.
    """
    exits = exit_hexes(data, state, side)
    if not exits:
        raise IllegalActionError("no unit of yours may leave the map in this scenario", RULE)
    activation = state.activation
    if activation is None or activation.side != side:
        raise IllegalActionError("units leave the map during their activation", "3.1")
    if state.pending:
        raise IllegalActionError("finish the combat in progress first", "7.5")
    for unit_id in unit_ids:
        unit = state.units[unit_id]
        name = data.units[unit_id].name
        if unit_id not in activation.units:
            raise IllegalActionError(f"{name} is not activated in this sequence", "3.1")
        if not unit.on_map or unit.hex not in exits:
            listed = ", ".join(hex_name(h) for h in sorted(exits))
            raise IllegalActionError(f"{name} must stand on an exit hex ({listed}) to leave the map", RULE)
        if unit.action_points < EXIT_COST:
            raise IllegalActionError(f"{name} has no AP left: leaving the map is a move action", "3.4.1")
    events = []
    record: list[str] = state.flags.setdefault(EXITED, [])
    for unit_id in unit_ids:
        unit = state.units[unit_id]
        where = unit.hex
        assert where is not None
        unit.action_points -= EXIT_COST
        unit.hex = None
        unit.improved_position = False
        record.append(unit_id)
        events.append(
            Event(
                "exit",
                f"{data.units[unit_id].name} leaves the map at {hex_name(where)} (19.2).",
                {"unit": unit_id, "hex": where, "rule": RULE},
            )
        )
    return events
