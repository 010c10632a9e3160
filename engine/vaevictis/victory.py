"""[17] Victory: the German crossing of the Meuse and the cities held at the end, per scenario.

Each scenario lists its conditions (``ScenarioDef.victory``): a ``cross-meuse`` condition is checked after
every action (``any-time``, The Initial Assault) or at the end of each turn (``end-of-turn``, The Entire
Battle's offensive victory); a ``hold-cities`` condition at the end of the game. A unit counts as supplied
unless its supply check of this turn made it Isolated or Unsupplied (10.3).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.contract import Event
from engine.hexgrid import Hex
from engine.vaevictis.data import GameData, Side, VictoryCondition, other_side
from engine.vaevictis.geography import beyond_meuse, objective_river
from engine.vaevictis.state import GameState, Position, UnitState


def is_supplied(unit: UnitState) -> bool:
    """Whether the unit's supply status of this turn is normal (10.3)."""
    return not unit.isolated and not unit.unsupplied


def counts_for_victory(data: GameData, unit: UnitState) -> bool:
    """[17.1, 17.2] Whether a counter is a "unit" of the victory conditions: a combat unit, never an HQ.

    The rules name HQs beside units wherever both are meant ("each unit or HQ" 3.1, "unit or HQ" 10.3,
    "combat units (not HQ)" 1.1), and the victory conditions say "unit" alone; see docs/rules/ardennes44.md.
    """
    return not data.units[unit.id].is_hq


def across_the_river(data: GameData, state: GameState, side: Side, river: str | None = None) -> list[UnitState]:
    """The side's supplied combat units on the far bank of the objective river (the Meuse, or the one named);
    an HQ alone does not cross for the win."""
    area = beyond_meuse(data, river)
    return [
        u
        for u in state.on_map()
        if data.side_of(u.id) == side and u.hex in area and is_supplied(u) and counts_for_victory(data, u)
    ]


def _conditions(data: GameData, state: GameState) -> tuple[VictoryCondition, ...]:
    return data.scenarios[state.scenario].victory


def _river_crossing(data: GameData, state: GameState, timings: tuple[str, ...], reason: str) -> list[Event]:
    for condition in _conditions(data, state):
        crossed = condition.kind == "cross-meuse" and condition.when in timings
        if crossed and across_the_river(data, state, condition.side, condition.river or None):
            return declare(state, condition.side, condition.result, reason, data.rule("17"), data)
    return []


def after_action(data: GameData, state: GameState) -> list[Event]:
    """[17.1] A crossing of the Meuse that wins at once; [Alsace 19.1] a region reached is noted."""
    note_regions_reached(data, state)
    river = objective_river(data)
    return _river_crossing(data, state, ("any-time",), f"a supplied German unit has crossed the {river}")


def end_of_turn(data: GameData, state: GameState) -> list[Event]:
    """[17.2] A supplied unit across the Meuse that has held there to the end of the turn."""
    river = objective_river(data)
    return _river_crossing(data, state, ("end-of-turn", "any-time"), f"a supplied German unit is across the {river}")


def end_of_game(data: GameData, state: GameState) -> list[Event]:
    """[17.1, 17.2] The objectives held at the end, else the scenario's default result."""
    for condition in _conditions(data, state):
        if condition.kind == "cross-meuse":
            continue
        reason = holds(data, state, condition)
        if reason is not None:
            return declare(state, condition.side, condition.result, reason, data.rule("17"), data)
    default = data.scenarios[state.scenario].default_result
    winner: Side = "allied" if default.startswith("allied") else "german"
    loser = data.side_name(other_side(winner))
    return declare(state, winner, default, f"the {loser} objectives were not met", data.rule("17"), data)


# --- The kinds of condition (a registry: each kind a function of the position) ---------------------------

Check = Callable[[GameData, GameState, VictoryCondition], "str | None"]


def _holders(data: GameData, state: GameState, condition: VictoryCondition) -> Callable[[Hex], bool]:
    """Whether a hex is held by the condition's side (by supplied units, when the condition says so)."""
    pos = Position(data, state)

    def held(hex_: Hex) -> bool:
        return any(
            pos.side_of(u.id) == condition.side
            and (is_supplied(u) or not condition.supplied)
            and counts_for_victory(data, u)
            for u in pos.units_at(hex_)
        )

    return held


def _hold_cities(data: GameData, state: GameState, condition: VictoryCondition) -> str | None:
    """[Ardennes 17] ``count`` of the named cities occupied at the end (a city of several hexes: any of them)."""
    held = _holders(data, state, condition)
    cities = [city for city in condition.cities if any(held(h) for h in data.map.place(city).hexes)]
    return f"holds {', '.join(cities)}" if len(cities) >= condition.count else None


def _hold_places(data: GameData, state: GameState, condition: VictoryCondition) -> str | None:
    """[Alsace 19.1, 19.2] ``count`` of the named places held: one hex of each, or all of them."""
    held = _holders(data, state, condition)
    test = all if condition.city_hexes == "all" else any
    places = [p for p in condition.places if test(held(h) for h in data.map.place(p).hexes)]
    return f"holds {', '.join(places)}" if len(places) >= condition.count else None


def _hold_overlay(data: GameData, state: GameState, condition: VictoryCondition) -> str | None:
    """[Alsace 19.2] Every hex of an overlay (all the forts) held."""
    held = _holders(data, state, condition)
    hexes = data.map.overlays.get(condition.overlay, frozenset())
    return f"holds every {condition.overlay}" if hexes and all(held(h) for h in hexes) else None


def _reached_region(data: GameData, state: GameState, condition: VictoryCondition) -> str | None:
    """[Alsace 19.1] A unit of the side has stood in the region at the end of an action at some time."""
    reached = state.flags.get(REACHED_FLAG, [])
    return f"has reached the {condition.region}" if f"{condition.side}:{condition.region}" in reached else None


def _exited_units(data: GameData, state: GameState, condition: VictoryCondition) -> str | None:
    """[Alsace 19.2] The side has taken off the map, by the region's exits, ``hq`` HQs and ``combat_commands``
    whole Combat Commands (all three counters of each) of one formation: "an entire armoured division"."""
    gone = set(state.flags.get("exited", []))
    for formation_id, formation in sorted(data.formations.items()):
        if data.armies[formation.army].side != condition.side:
            continue
        members = [u for u in data.units.values() if u.formation == formation_id]
        hqs = [u for u in members if u.is_hq and u.id in gone]
        commands: dict[str, list[str]] = {}
        for unit in members:
            if unit.combat_command is not None:
                commands.setdefault(unit.combat_command, []).append(unit.id)
        whole = sorted(cc for cc, ids in commands.items() if all(u in gone for u in ids))
        if len(hqs) >= condition.hq and len(whole) >= condition.combat_commands and (hqs or whole):
            return f"{formation.name} has left the map by the {condition.region} ({', '.join(whole)} and its HQ)"
    return None


def _all_of(data: GameData, state: GameState, condition: VictoryCondition) -> str | None:
    reasons = [holds(data, state, part) for part in condition.of]
    return "; ".join(r for r in reasons if r) if all(reasons) else None


CHECKS: dict[str, Check] = {
    "hold-cities": _hold_cities,
    "hold-places": _hold_places,
    "hold-overlay": _hold_overlay,
    "reached-region": _reached_region,
    "exit-units": _exited_units,
    "all": _all_of,
}
"""The condition kinds judged on the position; ``cross-meuse`` is judged by :func:`after_action` and
:func:`end_of_turn`."""

REACHED_FLAG = "reached-regions"


def holds(data: GameData, state: GameState, condition: VictoryCondition) -> str | None:
    """Why the condition is met now, or None."""
    return CHECKS[condition.kind](data, state, condition)


def note_regions_reached(data: GameData, state: GameState) -> None:
    """[Alsace 19.1] Record, after an action, each "reached-region" objective a unit of its side stands in."""
    wanted = [c for c in flat(_conditions(data, state)) if c.kind == "reached-region"]
    if not wanted:
        return
    pos = Position(data, state)
    reached: list[str] = state.flags.setdefault(REACHED_FLAG, [])
    for condition in wanted:
        key = f"{condition.side}:{condition.region}"
        area = data.map.regions.get(condition.region, ())
        if key not in reached and any(pos.side_at(h) == condition.side for h in area):
            reached.append(key)


def flat(conditions: tuple[VictoryCondition, ...]) -> list[VictoryCondition]:
    """The conditions with the parts of every ``all`` condition."""
    return [c for condition in conditions for c in (condition, *flat(condition.of))]


def unsupported(data: GameData, scenario: str) -> list[str]:
    """The condition kinds of a scenario the engine cannot judge yet."""
    kinds = {c.kind for c in flat(data.scenarios[scenario].victory)}
    return [f"the victory condition '{kind}'" for kind in sorted(kinds - set(CHECKS) - {"cross-meuse"})]


def declare(
    state: GameState, side: Side, result: str, reason: str, rule: str, data: GameData | None = None
) -> list[Event]:
    """End the game with a result, citing the game's victory conditions (``rule``)."""
    state.result = {"winner": side, "result": result, "reason": reason}
    state.phase = "over"
    state.pending = []
    state.activation = None
    named = data.result_name(result) if data is not None else result.replace("-", " ").capitalize()
    text = f"{named}: {reason} ({rule})."
    return [Event("victory", text, dict(state.result))]
