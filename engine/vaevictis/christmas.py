"""[15.4] Christmas presents (optional rule ``christmas_presents``).

Turn 5 (24-25 December) opens, in its air phase (2.1), with each player free to choose one
present:

- ``recover-step``: one unit of his on the map recovers one step, never above its printed steps (and a
  division with detachments out never above its printed steps counting theirs, 18);
- ``reroll-attack-die``: once, when attacking, re-roll the combat die; the second roll stands, the player
  cannot pick the better one. The combat code offers it (``state.flags["christmas_reroll"]``, the sides that
  still hold it: :func:`has_reroll`, :func:`use_reroll`). Like every per-turn fact it lapses at the end of the
  turn if unused;
- ``none``: no present.

The turn and the presents come from ``data.extra["christmas_presents"]`` (setup.toml).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import arguments
from engine.contract import ArgValue, Choice, Event, IllegalActionError, InvalidActionError
from engine.vaevictis.data import GameData, Side
from engine.vaevictis.state import GameState, UnitState

RULE = "15.4"
OPTION = "christmas_presents"
RECOVER_STEP = "recover-step"
REROLL = "reroll-attack-die"
NO_PRESENT = "none"
REROLL_FLAG = "christmas_reroll"
"""``state.flags`` key read by :mod:`engine.vaevictis.combat`: the sides holding the re-roll."""
CHOSEN_FLAG = "christmas_chosen"
_BEFORE_OPERATIONS = ("air", "supply", "support", "initiative")


def present_turn(data: GameData) -> int:
    """The turn of the presents (25 December: turn 5)."""
    config: Mapping[str, Any] = data.extra.get("christmas_presents", {})
    return int(config.get("turn", 5))


def is_enabled(state: GameState) -> bool:
    """Whether the optional rule is in play."""
    return bool(state.options.get(OPTION))


def must_choose(data: GameData, state: GameState, side: Side) -> bool:
    """Whether ``side`` still has a Christmas present to choose now (the state machine prompts for it)."""
    return (
        is_enabled(state)
        and state.result is None
        and state.turn == present_turn(data)
        and state.phase in _BEFORE_OPERATIONS
        and side not in state.flags.get(CHOSEN_FLAG, [])
    )


def _step_room(data: GameData, state: GameState, unit: UnitState) -> bool:
    """Whether the unit may gain a step without going above its printed steps (1.2, 18)."""
    if unit.parent is not None:
        parent = state.units.get(unit.parent)
        if unit.steps >= data.units[unit.id].steps:
            return False
        if parent is None:
            return True
        family = (0 if parent.eliminated else parent.steps) + _detached_steps(state, unit.parent)
        return family < data.units[unit.parent].steps
    return unit.steps + _detached_steps(state, unit.id) < data.units[unit.id].steps


def _detached_steps(state: GameState, division_id: str) -> int:
    return sum(u.steps for u in state.units.values() if u.parent == division_id and u.on_map)


def recoverable_units(data: GameData, state: GameState, side: Side) -> list[str]:
    """[15.4] The units of ``side`` on the map that may recover one step."""
    return sorted(
        u.id for u in state.on_map() if data.side_of(u.id) == side and u.steps > 0 and _step_room(data, state, u)
    )


def choices(data: GameData, state: GameState, side: Side) -> list[Choice]:
    """[15.4] The presents ``side`` may choose now: one step for a unit, the re-roll, or none."""
    if not must_choose(data, state, side):
        return []
    options = [
        Choice(
            "christmas",
            {"present": RECOVER_STEP, "unit": unit_id},
            f"Christmas: {data.units[unit_id].name} recovers a step",
        )
        for unit_id in recoverable_units(data, state, side)
    ]
    options.append(Choice("christmas", {"present": REROLL}, "Christmas: re-roll one attack die"))
    options.append(Choice("christmas", {"present": NO_PRESENT}, "No Christmas present"))
    return options


def choose(data: GameData, state: GameState, side: Side, choice: str, args: Mapping[str, ArgValue]) -> list[Event]:
    """[15.4] Take one Christmas present.

    :raises InvalidActionError: for an unknown present or a missing unit.
    :raises IllegalActionError: (15.4) when the rule is off, it is not the start of turn 5, the side already
        chose, or the unit may not recover a step.
    """
    if not is_enabled(state):
        raise IllegalActionError("the Christmas presents optional rule is not in play", RULE)
    if state.turn != present_turn(data) or state.phase not in _BEFORE_OPERATIONS:
        raise IllegalActionError(f"Christmas presents are chosen at the start of turn {present_turn(data)}", RULE)
    if side in state.flags.get(CHOSEN_FLAG, []):
        raise IllegalActionError("each player chooses a single Christmas present", RULE)
    events: list[Event]
    if choice == RECOVER_STEP:
        unit_id = arguments.text(args, "unit")
        if unit_id not in state.units or unit_id not in data.units:
            raise InvalidActionError(f"there is no unit {unit_id!r}")
        name = data.units[unit_id].name
        unit = state.units[unit_id]
        if data.side_of(unit_id) != side:
            raise IllegalActionError(f"{name} is not one of your units", RULE)
        if not unit.on_map:
            raise IllegalActionError(f"{name} is not on the map", RULE)
        if not _step_room(data, state, unit):
            raise IllegalActionError(f"{name} cannot recover a step: it would exceed its printed steps", RULE)
        unit.steps += 1
        events = [
            Event(
                "christmas",
                f"Christmas present for the {side} player: {name} recovers a step ({unit.steps} now).",
                {"side": side, "present": RECOVER_STEP, "unit": unit_id, "steps": unit.steps, "rule": RULE},
            )
        ]
    elif choice == REROLL:
        state.flags[REROLL_FLAG] = [*state.flags.get(REROLL_FLAG, []), side]
        events = [
            Event(
                "christmas",
                f"Christmas present for the {side} player: one re-roll of an attack die (the second roll stands).",
                {"side": side, "present": REROLL, "rule": RULE},
            )
        ]
    elif choice == NO_PRESENT:
        events = [
            Event("christmas", f"The {side} player takes no Christmas present.", {"side": side, "present": NO_PRESENT})
        ]
    else:
        raise InvalidActionError(f"unknown Christmas present {choice!r}; choose {RECOVER_STEP}, {REROLL} or none")
    state.flags[CHOSEN_FLAG] = [*state.flags.get(CHOSEN_FLAG, []), side]
    return events


def has_reroll(state: GameState, side: Side) -> bool:
    """[15.4] Whether ``side`` still holds the Christmas re-roll."""
    return is_enabled(state) and side in state.flags.get(REROLL_FLAG, [])


def use_reroll(state: GameState, side: Side) -> list[Event]:
    """[15.4] Spend ``side``'s re-roll (the caller then rolls the die again; the new roll stands).

    :raises IllegalActionError: if ``side`` does not hold it.
    """
    if not has_reroll(state, side):
        raise IllegalActionError(f"the {side} player has no Christmas re-roll to use", RULE)
    state.flags[REROLL_FLAG] = [s for s in state.flags.get(REROLL_FLAG, []) if s != side]
    return [Event("christmas", f"The {side} player uses the Christmas re-roll.", {"side": side, "rule": RULE})]
