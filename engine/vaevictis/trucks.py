"""[17] Trucks (Alsace 1944), from the set-up's ``[trucks]`` table.

From turn ``from_turn`` the side has ``count`` Trucks counters a turn. One motorizes an infantry battalion
for the activation in progress: it has ``action_points`` APs (3) and ``movement_allowance`` MPs (6) per
move action, and pays terrain costs, and crosses rivers, as a mechanized unit (``pays_as``; reading: a
trucked battalion crosses only at bridges, docs/rules/alsace44.md). It is given as the unit's first action
of the activation. [18.1] Reinforcements listed as entering by truck use rule 17 for their first activation
without using up a counter, within any cap on their entry-turn APs (the 30th SS: 2 AP, errata).

Motorized units are a per-turn fact: ``state.flags["motorized"]`` maps each to the activation sequence it
rides in (``state.sequences_this_turn``), so the trucks go at the end of that sequence.
"""

from __future__ import annotations

from typing import Any

from engine.contract import Event, IllegalActionError
from engine.vaevictis.data import GameData
from engine.vaevictis.state import GameState, Position, UnitState

MOTORIZED = "motorized"
USED = "trucks_used"


def _table(data: GameData) -> dict[str, Any]:
    return dict(data.extra.get("trucks", {}))


def motorized_units(data: GameData, state: GameState) -> frozenset[str]:
    """The units riding trucks in the activation sequence in progress."""
    riding = state.flags.get(MOTORIZED)
    if not riding:
        return frozenset()
    return frozenset(u for u, sequence in riding.items() if sequence == state.sequences_this_turn)


def allowance(data: GameData, unit_id: str) -> float:
    """[17] The MPs a motorized unit has per move action."""
    return float(_table(data).get("movement_allowance", 6))


def trucks_left(data: GameData, state: GameState) -> int:
    """How many Trucks counters the side may still use this turn."""
    table = _table(data)
    if not table or state.turn < int(table.get("from_turn", 1)):
        return 0
    return int(table.get("count", 0)) - int(state.flags.get(USED, 0))


def use_problem(data: GameData, state: GameState, unit: UnitState) -> IllegalActionError | None:
    """Why the unit may not take the trucks now, or ``None`` if it may."""
    table = _table(data)
    definition = data.units[unit.id]
    if not table or data.side_of(unit.id) != table.get("side"):
        return IllegalActionError(f"{definition.name}'s side has no Trucks counter", "17")
    if state.turn < int(table.get("from_turn", 1)):
        return IllegalActionError(f"the Trucks counter is used from turn {table.get('from_turn')} on", "17")
    if trucks_left(data, state) <= 0:
        return IllegalActionError("the Trucks counter has already been used this turn", "17")
    if definition.kind != "infantry" or definition.size != "II":
        return IllegalActionError(f"trucks carry an infantry battalion; {definition.name} is not one", "17")
    if state.activation is None or unit.id not in state.activation.units:
        return IllegalActionError(f"{definition.name} is not activated", "3.1")
    if unit.id in motorized_units(data, state):
        return IllegalActionError(f"{definition.name} is already in trucks", "17")
    if unit.action_points != Position(data, state).base_action_points(unit) or unit.movement_points:
        return IllegalActionError(f"the trucks must be {definition.name}'s first action of the activation", "17")
    return None


def motorize(data: GameData, state: GameState, unit: UnitState, cap: int | None = None) -> None:
    """Put the unit in trucks for the activation in progress: the trucks' APs, less any status penalty."""
    pos = Position(data, state)
    normal = int(data.tables.raw["status"]["normal"]["action_points"][data.units[unit.id].kind])
    points = int(_table(data).get("action_points", 3)) - max(0, normal - pos.base_action_points(unit))
    if cap is not None:
        points = min(points, cap)
    unit.action_points = max(0, points)
    state.flags.setdefault(MOTORIZED, {})[unit.id] = state.sequences_this_turn


def use(data: GameData, state: GameState, unit: UnitState) -> list[Event]:
    """[17] Give the side's Trucks counter to an activated infantry battalion. Mutates ``state``."""
    problem = use_problem(data, state, unit)
    if problem is not None:
        raise problem
    motorize(data, state, unit)
    state.flags[USED] = int(state.flags.get(USED, 0)) + 1
    return [
        Event(
            "trucks",
            f"{data.units[unit.id].name} rides the trucks: {unit.action_points} AP, "
            f"{allowance(data, unit.id):g} MP a move action (17).",
            {"unit": unit.id, "ap": unit.action_points, "rule": "17"},
        )
    ]
