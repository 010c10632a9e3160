"""[15.4] Christmas presents (christmas.py), optional: at the start of turn 5 each player picks one."""

from __future__ import annotations

import pytest

from engine.contract import IllegalActionError
from engine.vaevictis import christmas, detachments
from engine.vaevictis.data import Side
from engine.vaevictis.state import Activation, GameState
from tests.vaevictis.positions import mini_data, position

DATA = detachments.with_detachment_counters(mini_data())


def christmas_turn(placements: dict[str, int], option: bool = True, turn: int = 5, phase: str = "air") -> GameState:
    state = position(DATA, placements).state
    state.options = {"christmas_presents": option}
    state.turn, state.phase = turn, phase
    return state


def refused(state: GameState, side: Side, present: str, unit: str | None = None) -> IllegalActionError:
    before = state.to_json()
    with pytest.raises(IllegalActionError) as caught:
        christmas.choose(DATA, state, side, present, {"unit": unit} if unit else {})
    assert state.to_json() == before
    return caught.value


def test_15_4_presents_only_with_the_optional_rule_at_the_start_of_turn_5() -> None:
    placed = {"us-2-id": 203}
    assert christmas.choices(DATA, christmas_turn(placed, option=False), "allied") == []
    assert christmas.choices(DATA, christmas_turn(placed, turn=4), "allied") == []
    assert christmas.choices(DATA, christmas_turn(placed, phase="operations"), "allied") == []
    error = refused(christmas_turn(placed, option=False), "allied", "reroll-attack-die")
    assert error.rule == "15.4" and "not in play" in error.reason
    error = refused(christmas_turn(placed, phase="operations"), "allied", "reroll-attack-die")
    assert error.rule == "15.4" and "start of turn 5" in error.reason
    presents = {c.args["present"] for c in christmas.choices(DATA, christmas_turn(placed), "allied")}
    assert presents == {"reroll-attack-die", "none"}, "a full-strength unit cannot recover a step"


def test_15_4_recover_one_step_for_a_unit_on_the_map_never_above_its_printed_steps() -> None:
    state = christmas_turn({"us-2-id": 203, "us-3-id": 303, "de-12-vg": 603})
    state.units["us-2-id"].steps = 2
    state.units["de-12-vg"].steps = 1
    offered = [c.args.get("unit") for c in christmas.choices(DATA, state, "allied")]
    assert "us-2-id" in offered and "us-3-id" not in offered and "de-12-vg" not in offered
    error = refused(state, "allied", "recover-step", "us-3-id")
    assert error.rule == "15.4" and "printed steps" in error.reason
    error = refused(state, "allied", "recover-step", "de-12-vg")
    assert error.rule == "15.4" and "not one of your units" in error.reason
    christmas.choose(DATA, state, "allied", "recover-step", {"unit": "us-2-id"})
    assert state.units["us-2-id"].steps == 3


def test_15_4_a_division_with_a_detachment_out_counts_its_steps() -> None:
    state = christmas_turn({"us-2-id": 203}, phase="operations", turn=4)
    state.activation = Activation("allied", "formation", "us-v", ["us-2-id"])
    detachments.detach(DATA, state, "allied", "us-2-id", 2)
    state.turn, state.phase, state.activation = 5, "air", None
    assert christmas.recoverable_units(DATA, state, "allied") == []
    state.units["us-2-id-det-1"].steps = 1
    assert christmas.recoverable_units(DATA, state, "allied") == ["us-2-id", "us-2-id-det-1"]


def test_15_4_each_player_chooses_a_single_present() -> None:
    state = christmas_turn({"us-2-id": 203, "de-12-vg": 603})
    christmas.choose(DATA, state, "allied", "none", {})
    error = refused(state, "allied", "reroll-attack-die")
    assert error.rule == "15.4" and "single" in error.reason
    assert christmas.choices(DATA, state, "allied") == []
    assert christmas.must_choose(DATA, state, "german")


def test_15_4_the_reroll_is_held_until_one_attack_uses_it() -> None:
    state = christmas_turn({"de-12-vg": 603})
    christmas.choose(DATA, state, "german", "reroll-attack-die", {})
    assert christmas.has_reroll(state, "german") and not christmas.has_reroll(state, "allied")
    assert state.flags["christmas_reroll"] == ["german"], "the combat code reads this flag"
    christmas.use_reroll(state, "german")
    assert not christmas.has_reroll(state, "german")
    with pytest.raises(IllegalActionError) as caught:
        christmas.use_reroll(state, "german")
    assert caught.value.rule == "15.4"
