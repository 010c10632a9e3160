"""[17] Victory: the German crossing of the Meuse and the cities held at the end, per scenario.

Each scenario lists its conditions (``ScenarioDef.victory``): a ``cross-meuse`` condition is checked after
every action (``any-time``, The Initial Assault) or at the end of each turn (``end-of-turn``, The Entire
Battle's offensive victory); a ``hold-cities`` condition at the end of the game. A unit counts as supplied
unless its supply check of this turn made it Isolated or Unsupplied (10.3).
"""

from __future__ import annotations

from engine.contract import Event
from engine.vaevictis.data import GameData, Side, VictoryCondition
from engine.vaevictis.geography import beyond_meuse, objective_river
from engine.vaevictis.state import GameState, Position, UnitState


def is_supplied(unit: UnitState) -> bool:
    """Whether the unit's supply status of this turn is normal (10.3)."""
    return not unit.isolated and not unit.unsupplied


def across_the_river(data: GameData, state: GameState, side: Side, river: str | None = None) -> list[UnitState]:
    """The side's supplied units on the far bank of the objective river (the Meuse, or the one named)."""
    area = beyond_meuse(data, river)
    return [u for u in state.on_map() if data.side_of(u.id) == side and u.hex in area and is_supplied(u)]


def _conditions(data: GameData, state: GameState) -> tuple[VictoryCondition, ...]:
    return data.scenarios[state.scenario].victory


def _river_crossing(data: GameData, state: GameState, timings: tuple[str, ...], reason: str) -> list[Event]:
    for condition in _conditions(data, state):
        crossed = condition.kind == "cross-meuse" and condition.when in timings
        if crossed and across_the_river(data, state, condition.side, condition.river or None):
            return declare(state, condition.side, condition.result, reason)
    return []


def after_action(data: GameData, state: GameState) -> list[Event]:
    """[17.1] A crossing of the Meuse that wins at once."""
    river = objective_river(data)
    return _river_crossing(data, state, ("any-time",), f"a supplied German unit has crossed the {river}")


def end_of_turn(data: GameData, state: GameState) -> list[Event]:
    """[17.2] A supplied unit across the Meuse that has held there to the end of the turn."""
    river = objective_river(data)
    return _river_crossing(data, state, ("end-of-turn", "any-time"), f"a supplied German unit is across the {river}")


def end_of_game(data: GameData, state: GameState) -> list[Event]:
    """[17.1, 17.2] The cities held at the end, else the scenario's default result."""
    pos = Position(data, state)
    for condition in _conditions(data, state):
        if condition.kind != "hold-cities":
            continue
        held = [
            city
            for city in condition.cities
            if any(
                pos.side_of(u.id) == condition.side and (is_supplied(u) or not condition.supplied)
                for u in pos.units_at(data.map.place(city).hex)
            )
        ]
        if len(held) >= condition.count:
            return declare(state, condition.side, condition.result, f"holds {', '.join(held)}")
    default = data.scenarios[state.scenario].default_result
    winner: Side = "allied" if default.startswith("allied") else "german"
    return declare(state, winner, default, "the German objectives were not met")


def declare(state: GameState, side: Side, result: str, reason: str) -> list[Event]:
    """End the game with a result."""
    state.result = {"winner": side, "result": result, "reason": reason}
    state.phase = "over"
    state.pending = []
    state.activation = None
    return [Event("victory", f"{result.replace('-', ' ').capitalize()}: {reason}.", dict(state.result))]
