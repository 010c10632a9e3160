"""[18] Detachments (detachments.py), on the mini game with the detachment counters added.

Mini game: V Corps (US) has 1 detachment marker; I SS Pz Korps (German) gets 2 here. us-2-id is a 4-step
infantry division (strength 12), us-3-id a 3-step one (9), de-12-vg a 3-step Volksgrenadier division (8);
us-cca is armored, de-hansen mechanized.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from engine.contract import IllegalActionError
from engine.vaevictis import activation as act
from engine.vaevictis import detachments
from engine.vaevictis.data import GameData, Side
from engine.vaevictis.state import Activation, GameState, Position
from tests.vaevictis.positions import mini_data, position


def _german_detachments(docs: dict[str, Any]) -> None:
    docs["counters.toml"]["formation"][1]["detachments"] = 2
    docs["counters.toml"]["detachment"].append({"nationality": "german", "steps": 1, "strength_per_step": 3})


DATA: GameData = detachments.with_detachment_counters(mini_data(_german_detachments))


def activated(placements: dict[str, int], side: Side, units: Sequence[str], kind: str = "formation") -> GameState:
    state = position(DATA, placements).state
    state.phase = "operations"
    state.active = side
    formation = DATA.units[units[0]].formation if kind == "formation" else None
    state.activation = Activation(side, kind, formation, list(units), 0 if kind == "formation" else 4)
    for unit_id in units:
        state.units[unit_id].activations = 1
        state.units[unit_id].action_points = 2
    return state


def refused(state: GameState, call: Any, *args: Any) -> IllegalActionError:
    before = state.to_json()
    with pytest.raises(IllegalActionError) as caught:
        call(DATA, state, *args)
    assert state.to_json() == before, "a refusal leaves the state unchanged"
    return caught.value


def test_18_detachment_counters_exist_for_every_infantry_division_and_corps_marker() -> None:
    counters = detachments.detachment_counters(DATA)
    assert set(counters) == {"us-2-id-det-1", "us-3-id-det-1", "de-12-vg-det-1", "de-12-vg-det-2"}
    us = counters["us-2-id-det-1"]
    assert (us.steps, us.strength, us.quality, us.formation, us.kind) == (2, 6, 4, "us-v", "infantry")
    assert counters["de-12-vg-det-1"].steps == 1


def test_18_a_us_division_detaches_two_steps_for_free_in_its_activation() -> None:
    state = activated({"hq-us-v": 103, "us-2-id": 203}, "allied", ["hq-us-v", "us-2-id"])
    events = detachments.detach(DATA, state, "allied", "us-2-id", 2)
    det = state.units["us-2-id-det-1"]
    assert (det.hex, det.steps, det.parent, det.action_points) == (203, 2, "us-2-id", 2)
    assert state.units["us-2-id"].steps == 2 and state.units["us-2-id"].action_points == 2
    assert state.activation is not None and "us-2-id-det-1" in state.activation.units
    pos = Position(DATA, state)
    assert pos.strength(det) == 6 and pos.strength(state.units["us-2-id"]) == 6
    assert pos.steps_at(203) == 4
    assert events[0].kind == "detach" and state.detachments_used == {"us-v": 1}


def test_18_the_steps_split_never_exceeds_what_the_division_had() -> None:
    # the worked example: a US division with 3 steps left detaches one step: 2 + 1, never 2 + 2
    state = activated({"us-2-id": 203}, "allied", ["us-2-id"])
    state.units["us-2-id"].steps = 3
    error = refused(state, detachments.detach, "allied", "us-2-id", 3)
    assert error.rule == "18" and "1 to 2 step(s)" in error.reason
    state.units["us-2-id"].steps = 2
    error = refused(state, detachments.detach, "allied", "us-2-id", 2)
    assert error.rule == "18" and "must keep at least one" in error.reason
    detachments.detach(DATA, state, "allied", "us-2-id", 1)
    assert state.units["us-2-id"].steps + state.units["us-2-id-det-1"].steps == 2


def test_18_german_detachments_have_one_step() -> None:
    state = activated({"de-12-vg": 603}, "german", ["de-12-vg"])
    error = refused(state, detachments.detach, "german", "de-12-vg", 2)
    assert error.rule == "18" and "1 to 1 step(s)" in error.reason
    detachments.detach(DATA, state, "german", "de-12-vg", None)
    assert state.units["de-12-vg-det-1"].steps == 1 and state.units["de-12-vg"].steps == 2
    assert Position(DATA, state).strength(state.units["de-12-vg-det-1"]) == 3


def test_18_only_infantry_divisions_form_detachments() -> None:
    state = activated({"us-cca": 203, "de-hansen": 603}, "allied", ["us-cca"])
    error = refused(state, detachments.detach, "allied", "us-cca", 1)
    assert error.rule == "18" and "only infantry divisions" in error.reason


def test_18_the_division_must_be_activated() -> None:
    state = activated({"us-2-id": 203, "us-3-id": 303}, "allied", ["us-3-id"])
    error = refused(state, detachments.detach, "allied", "us-2-id", 2)
    assert error.rule == "18" and "must be activated" in error.reason


def test_18_detachment_limit_per_corps_is_absolute() -> None:
    state = activated({"us-2-id": 203, "us-3-id": 303}, "allied", ["us-2-id", "us-3-id"])
    detachments.detach(DATA, state, "allied", "us-2-id", 2)
    error = refused(state, detachments.detach, "allied", "us-3-id", 1)
    assert error.rule == "18" and "the limit is absolute" in error.reason
    detachments.recombine(DATA, state, "allied", "us-2-id-det-1")
    error = refused(state, detachments.detach, "allied", "us-3-id", 1)
    assert error.rule == "18" and "the limit is absolute" in error.reason, "a marker taken back is gone"


def test_18_a_printed_detachment_holds_one_of_its_corps_markers() -> None:
    def printed(docs: dict[str, Any]) -> None:
        docs["counters.toml"]["unit"].append(
            {"id": "us-4-id-det", "name": "Det. 4", "formation": "us-v", "division": "us-4-id", "kind": "infantry",
             "size": "III", "steps": 2, "strength": 6, "quality": 3}
        )  # fmt: skip
        docs["setup.toml"]["setup"].append({"unit": "us-4-id-det", "hex": "0105"})

    data = detachments.with_detachment_counters(mini_data(printed))
    state = position(data, {"us-2-id": 203}).state
    state.activation = Activation("allied", "formation", "us-v", ["us-2-id"])
    assert detachments.markers_left(data, state, "us-v") == 0
    with pytest.raises(IllegalActionError) as caught:
        detachments.detach(data, state, "allied", "us-2-id", 2)
    assert caught.value.rule == "18"


def test_18_a_detachment_is_free_in_a_general_activation_and_a_unit_afterwards() -> None:
    state = activated({"hq-us-v": 103, "us-2-id": 203, "us-3-id": 303}, "allied", ["us-2-id"], kind="general")
    detachments.detach(DATA, state, "allied", "us-2-id", 2)
    assert state.activation is not None and state.activation.limit == 5
    act.check_can_join(state, DATA, state.units["us-3-id"])  # three places are still free
    state.activation = Activation("allied", "general", None, [], 4)
    state.units["us-2-id-det-1"].activations = 0
    act.join(state, DATA, state.units["us-2-id-det-1"], None)
    assert state.activation.units == ["us-2-id-det-1"], "in a later activation it counts as a unit"


def test_18_recombining_needs_both_activated_together_and_stacked() -> None:
    state = activated({"us-2-id": 203}, "allied", ["us-2-id"])
    detachments.detach(DATA, state, "allied", "us-2-id", 2)
    state.units["us-2-id-det-1"].hex = 303
    error = refused(state, detachments.recombine, "allied", "us-2-id-det-1")
    assert error.rule == "18" and "stacked" in error.reason
    state.units["us-2-id-det-1"].hex = 203
    assert state.activation is not None
    state.activation.units.remove("us-2-id")
    error = refused(state, detachments.recombine, "allied", "us-2-id-det-1")
    assert error.rule == "18" and "both be activated" in error.reason


def test_18_recombining_removes_the_marker_and_gives_the_steps_back() -> None:
    state = activated({"us-2-id": 203}, "allied", ["us-2-id"])
    detachments.detach(DATA, state, "allied", "us-2-id", 2)
    state.units["us-2-id-det-1"].steps = 1  # the detachment lost a step meanwhile
    choices = detachments.choices(DATA, state, "allied")
    assert any(c.verb == "recombine" and c.args["detachment"] == "us-2-id-det-1" for c in choices)
    events = detachments.recombine(DATA, state, "allied", "us-2-id-det-1")
    assert state.units["us-2-id"].steps == 3
    assert not state.units["us-2-id-det-1"].on_map and events[0].kind == "recombine"
    assert Position(DATA, state).steps_at(203) == 3
