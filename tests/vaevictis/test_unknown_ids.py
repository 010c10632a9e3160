"""Every verb that names a unit refuses an unknown unit id with a reason (a RulesError), never a crash."""

from __future__ import annotations

from typing import Any

import pytest

from engine.contract import Action, RulesError
from engine.vaevictis.odds import AttackPlan
from tests.vaevictis.combat_setups import mini_game, new_state, seed_for
from tests.vaevictis.gameplay import FRONT, Table

OPERATIONS: list[tuple[str, dict[str, Any]]] = [
    ("move", {"units": "no-such-unit", "to": "0504"}),
    ("move", {"units": "de-peiper,no-such-unit", "to": "0504"}),
    ("enter", {"unit": "no-such-unit", "at": "0803"}),
    ("attack", {"attackers": "no-such-unit", "target": "0604"}),
    ("attack", {"attackers": "de-peiper", "target": "0603", "quality": "no-such-unit"}),
    ("enter_ip", {"unit": "no-such-unit"}),
    ("leave_ip", {"unit": "no-such-unit"}),
    ("recover", {"unit": "no-such-unit"}),
    ("put_on_top", {"unit": "no-such-unit"}),
    ("detach", {"division": "no-such-unit"}),
    ("recombine", {"detachment": "no-such-unit"}),
    ("remove_marker", {"unit": "no-such-unit", "hex": "0504"}),
]


@pytest.mark.parametrize("activation", ["none", "activate_general", "activate_formation"])
@pytest.mark.parametrize(("verb", "args"), OPERATIONS)
def test_3_1_an_unknown_unit_id_is_refused_with_a_reason(activation: str, verb: str, args: dict[str, Any]) -> None:
    table = Table(placements=FRONT)
    if activation == "activate_formation":
        table.act("german", activation, formation="de-1ss")
    elif activation != "none":
        table.act("german", activation)
    with pytest.raises(RulesError):
        table.act("german", verb, **args)


COMBAT: list[tuple[str, dict[str, Any]]] = [
    ("choose_quality", {"unit": "no-such-unit"}),
    ("take_loss", {"unit": "no-such-unit"}),
    ("retreat", {"to": "0203", "units": "no-such-unit"}),
    ("advance", {"to": "0303", "units": "no-such-unit"}),
    ("choose_snafu_unit", {"unit": "no-such-unit"}),
]


@pytest.mark.parametrize(("verb", "args"), COMBAT)
def test_7_6_an_unknown_unit_id_in_a_combat_decision_is_refused_with_a_reason(verb: str, args: dict[str, Any]) -> None:
    from engine.vaevictis import combat

    data = mini_game()
    for stage_faces in ([5], [6]):
        state = new_state(data, {"de-big": 403, "us-b": 303, "us-2-id": 303})
        state.seed = seed_for(stage_faces, state.rolls_made)
        combat.begin_attack(data, state, AttackPlan("german", "normal", ("de-big",), 303))
        seat = combat.pending_prompt(data, state).seat
        with pytest.raises(RulesError):
            combat.apply_pending(data, state, Action(seat, verb, args))


def test_1_6_and_1_3_unknown_hqs_are_refused_with_a_reason() -> None:
    table = Table(placements=FRONT)
    table.state.phase = "support"
    with pytest.raises(RulesError):
        table.act("german", "allot", hq="no-such-unit", marker="artillery")
    table.state.phase = "supply"
    with pytest.raises(RulesError):
        table.act("german", "place_hq", hq="no-such-unit", hex="0803")
