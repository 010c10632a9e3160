"""[3] Activation, [3.5] fatigue, [9.4] C3I checks, [12] Improved Positions and the sequence of play (2.1, 2.2).

Mini game: US V Corps (HQ, 2nd and 3rd Inf Div, CCA/9) against I SS Pz Korps (HQ, Peiper, Hansen, 12 VG).
"""

from __future__ import annotations

import pytest

from engine.contract import NotYourTurnError
from tests.vaevictis.combat_setups import mini_game, mini_game_with_independents
from tests.vaevictis.gameplay import FRONT, Table
from tests.vaevictis.pinned_dice import seed_rolling
from tests.vaevictis.positions import mini_data, position


def test_3_2_formation_activation_activates_the_hq_for_free() -> None:
    table = Table(placements=FRONT)
    events = table.act("german", "activate_formation", formation="de-1ss")
    assert table.unit("hq-de-1ss").activations == 1
    assert any(e.kind == "join" for e in events)
    assert table.state.activation is not None and table.state.activation.kind == "formation"


def test_3_2_only_units_of_the_activated_formation_act() -> None:
    table = Table(placements=FRONT)
    table.act("german", "activate_formation", formation="de-1ss")
    table.refused("german", "enter_ip", None, "not one of your units", unit="us-2-id")


def test_3_2_a_unit_of_another_formation_of_the_side_is_refused() -> None:
    placements = {"hq-us-v": 101, "us-2-id": 203, "hq-de-1ss": 803, "de-peiper": 703, "hq-de-67": 806, "de-326": 605}
    table = Table(mini_game(), placements)  # LXVII Korps beside I SS
    table.act("german", "activate_formation", formation="de-1ss")
    table.refused("german", "move", "3.2", "the formation activated", units="de-326", to="0505")


def test_8_2_out_of_command_units_act_only_in_a_general_activation() -> None:
    table = Table(placements=FRONT)
    table.set("de-12-vg", out_of_command=True)
    table.act("german", "activate_formation", formation="de-1ss")
    table.refused("german", "move", "8.2", "out of command", units="de-12-vg", to="0504")


def test_9_3_a_german_general_activation_takes_three_units() -> None:
    table = Table(placements={**FRONT, "hq-de-1ss": 806})
    table.act("german", "activate_general")
    for unit in ("de-peiper", "de-hansen", "de-12-vg"):
        table.act(
            "german",
            "enter_ip" if unit == "de-12-vg" else "move",
            **(
                {"unit": unit}
                if unit == "de-12-vg"
                else {"units": unit, "to": "0802" if unit == "de-peiper" else "0805"}
            ),
        )
    table.refused("german", "move", "9.3", "already has its 3 units", units="hq-de-1ss", to="0802")


def test_9_2_an_allied_general_activation_takes_four_units() -> None:
    table = Table(placements=FRONT)
    table.act("german", "pass")
    table.act("allied", "activate_general")
    assert table.state.activation is not None and table.state.activation.limit == 4


def test_9_4_out_of_command_unit_rolls_c3i_in_a_general_activation() -> None:
    table = Table(placements=FRONT)
    table.set("de-12-vg", out_of_command=True)
    table.act("german", "activate_general")
    events = table.act("german", "enter_ip", unit="de-12-vg")
    check = next(e for e in events if e.kind == "roll")
    assert check.data["rule"] == "9.4" and check.data["need_below"] == 4
    expected_ap = 2 if check.data["die"] < 4 else 1
    assert table.unit("de-12-vg").action_points == expected_ap - 1  # the IP cost 1 AP


def test_9_4_a_unit_whose_hq_is_gone_rolls_c3i_too() -> None:
    table = Table(placements=FRONT)
    table.set("hq-de-1ss", eliminated=True)  # destroyed during the turn, after the command check (3.3)
    table.act("german", "activate_general")
    events = table.act("german", "enter_ip", unit="de-12-vg")
    assert any(e.kind == "roll" and e.data["rule"] == "9.4" for e in events)


def test_3_5_a_reactivated_unit_becomes_fatigued() -> None:
    table = Table(placements=FRONT)
    table.act("german", "activate_general")
    table.act("german", "move", units="de-hansen", to="0805")
    table.act("german", "end_activation")
    table.act("allied", "pass")
    table.act("german", "activate_general")
    events = table.act("german", "move", units="de-hansen", to="0804")
    assert table.unit("de-hansen").fatigued
    assert any(e.kind == "fatigue" for e in events)
    assert table.unit("de-hansen").activations == 2


def test_3_5_1_fatigue_costs_one_action_point() -> None:
    table = Table(placements=FRONT)
    table.set("de-hansen", fatigued=True)
    table.act("german", "activate_general")
    table.act("german", "enter_ip", unit="de-hansen")
    assert table.unit("de-hansen").action_points == 3 - 1 - 1


def test_3_5_2_a_fatigued_unit_cannot_be_reactivated_before_it_recovers() -> None:
    table = Table(placements=FRONT)
    table.set("de-hansen", fatigued=True, activations=1)
    table.act("german", "activate_general")
    table.refused("german", "enter_ip", "3.5.2", "must recover", unit="de-hansen")


def test_3_5_2_recovery_costs_two_ap_as_the_first_action() -> None:
    table = Table(placements=FRONT)
    table.set("de-hansen", fatigued=True)
    table.act("german", "activate_general")
    table.act("german", "recover", unit="de-hansen")
    assert not table.unit("de-hansen").fatigued
    assert table.unit("de-hansen").action_points == 1  # 3 AP unfatigued, less 2


def test_3_5_2_recovery_must_come_first() -> None:
    table = Table(placements=FRONT)
    table.set("de-hansen", fatigued=True)
    table.act("german", "activate_general")
    table.act("german", "move", units="de-hansen", to="0805")
    table.refused("german", "recover", "3.5.2", "first action", unit="de-hansen")


def test_12_1_improved_position_costs_one_ap_and_is_left_for_free() -> None:
    table = Table(placements=FRONT)
    table.act("german", "activate_general")
    table.act("german", "enter_ip", unit="de-hansen")
    assert table.unit("de-hansen").improved_position and table.unit("de-hansen").action_points == 2
    table.refused("german", "move", "12.1", "Improved Position", units="de-hansen", to="0805")
    table.act("german", "leave_ip", unit="de-hansen")
    assert not table.unit("de-hansen").improved_position and table.unit("de-hansen").action_points == 2


def test_12_1_no_improved_position_in_an_enemy_zone_of_control() -> None:
    table = Table(placements={**FRONT, "de-12-vg": 304})
    table.act("german", "activate_general")
    table.refused("german", "enter_ip", "12.1", "zone of control", unit="de-12-vg")


def test_16_3_independents_never_activate_by_formation() -> None:
    table = Table(placements=FRONT)
    table.refused("german", "activate_formation", "3.2", "not one of your formations", formation="us-v")


def test_16_3_an_independent_formation_is_refused_a_formation_activation_and_acts_in_a_general_one() -> None:
    placements = {"hq-us-v": 101, "us-2-id": 203, "hq-de-1ss": 803, "de-peiper": 703, "de-ind-4": 605}
    table = Table(mini_game_with_independents(), placements)
    table.refused("german", "activate_formation", "16.3", "act only in general activations", formation="de-independent")
    table.act("german", "activate_general")
    table.act("german", "move", units="de-ind-4", to="0606")
    assert table.unit("de-ind-4").hex == 606


def test_1_1_infantry_has_2_aps_mechanized_armored_and_hqs_3() -> None:
    pos = position(mini_data(), {"us-2-id": 203, "de-hansen": 805, "de-peiper": 705, "hq-us-v": 101})
    points = {u: pos.base_action_points(pos.state.units[u]) for u in ("us-2-id", "de-hansen", "de-peiper", "hq-us-v")}
    assert points == {"us-2-id": 2, "de-hansen": 3, "de-peiper": 3, "hq-us-v": 3}


def test_1_4_the_status_table_sets_the_aps_and_statuses_add_up() -> None:
    """[1.4] Isolated: 2 APs; unsupplied: 1; fatigued: one less (3.5.1), added to any other status: the
    document's example, a fatigued and unsupplied unit, has none."""
    pos = position(mini_data(), {"de-hansen": 805, "us-2-id": 203})
    hansen, infantry = pos.state.units["de-hansen"], pos.state.units["us-2-id"]
    hansen.isolated = True
    assert pos.base_action_points(hansen) == 2
    hansen.isolated, hansen.unsupplied = False, True
    assert pos.base_action_points(hansen) == 1
    hansen.fatigued = True
    assert pos.base_action_points(hansen) == 0
    infantry.fatigued = True
    assert pos.base_action_points(infantry) == 1


def test_3_1_a_unit_acts_by_joining_the_activation_in_progress() -> None:
    """[3.1] A unit's first action brings it into the activation: it counts as activated and has its APs."""
    table = Table(placements=FRONT)
    table.act("german", "activate_general")
    table.act("german", "enter_ip", unit="de-12-vg")
    unit = table.unit("de-12-vg")
    assert table.state.activation is not None and "de-12-vg" in table.state.activation.units
    assert unit.activations == 1 and unit.action_points == 2 - 1 and unit.improved_position


def test_2_2_the_turn_ends_when_both_sides_pass_in_succession() -> None:
    table = Table(placements=FRONT)
    table.act("german", "pass")
    events = table.act("allied", "pass")
    assert table.state.turn == 2
    assert any(e.kind == "turn" for e in events)


def test_2_2_a_general_activation_that_activates_no_unit_counts_as_a_pass() -> None:
    table = Table(placements=FRONT)
    table.act("german", "activate_general")
    events = table.act("german", "end_activation")
    assert [e.data.get("rule") for e in events if e.kind == "pass"] == ["2.2"]
    assert table.state.active == "allied" and table.state.consecutive_passes == 1
    events = table.act("allied", "pass")
    assert table.state.turn == 2
    assert any(e.kind == "turn" for e in events)


def test_2_2_two_empty_activations_in_succession_end_the_turn() -> None:
    table = Table(placements=FRONT)
    table.act("german", "activate_general")
    table.act("german", "end_activation")
    table.act("allied", "activate_general")
    table.act("allied", "end_activation")
    assert table.state.turn == 2


def test_2_2_a_sequence_that_activated_a_unit_is_not_a_pass() -> None:
    table = Table(placements=FRONT)
    table.act("german", "pass")
    table.act("allied", "activate_general")
    table.act("allied", "move", units="us-cca", to="0103")
    table.act("allied", "end_activation")
    assert table.state.consecutive_passes == 0
    table.act("german", "pass")
    assert table.state.turn == 1 and table.state.active == "allied"
    table.act("allied", "activate_formation", formation="us-v")
    table.act("allied", "end_activation")  # the HQ was activated (3.2): a sequence, not a pass
    assert table.state.consecutive_passes == 0 and table.state.turn == 1


def test_2_1_sides_alternate_activation_sequences() -> None:
    table = Table(placements=FRONT)
    table.act("german", "activate_general")
    table.act("german", "end_activation")
    assert table.state.active == "allied"
    table.refused("german", "pass", None, "not your decision")


def test_a_seat_without_a_decision_is_refused_and_nothing_changes() -> None:
    table = Table(placements=FRONT)
    # The Allies could play Nuts! now (an optional prompt), but the activation decision is the German's.
    assert table.game.prompts(table.state)["allied"].optional
    error = table.refused("allied", "activate_general", "2.1", "the other side is acting; you may only play an event")
    assert isinstance(error, NotYourTurnError)


def test_an_unknown_verb_or_bad_argument_is_refused_clearly() -> None:
    table = Table(placements=FRONT)
    table.refused("german", "teleport", None, "teleport is not an action of the operations phase")
    table.act("german", "activate_general")
    table.refused("german", "move", None, "is not a hex number", units="de-hansen", to="zz")
    table.refused("german", "move", None, "not on the map", units="de-hansen", to="0909")
    table.refused("german", "move", None, "no unit 'ghost'", units="ghost", to="0805")


def test_3_1_no_unit_acts_outside_an_activation() -> None:
    table = Table(placements=FRONT)
    table.refused("german", "enter_ip", "3.1", "no activation is in progress", unit="de-hansen")


def test_3_3_an_hq_in_a_general_activation_may_only_move() -> None:
    table = Table(placements=FRONT)
    table.act("german", "activate_general")
    table.refused("german", "enter_ip", "3.3", "may only move", unit="hq-de-1ss")
    table.act("german", "move", units="hq-de-1ss", to="0802")
    assert table.unit("hq-de-1ss").hex == 802


def turn_one_rules(docs: dict) -> None:  # type: ignore[type-arg]
    docs["scenarios.toml"]["scenario"][0]["special_rules"] = ["german-three-formations-turn-1"]


def test_17_1_turn_one_german_formation_activations_run_in_succession() -> None:
    from tests.vaevictis.positions import mini_data

    table = Table(mini_data(turn_one_rules), FRONT)
    table.act("german", "activate_formation", formation="de-1ss")
    table.act("german", "end_activation")
    assert table.state.active == "german"  # the run goes on: the Allies have not acted yet
    table.refused("german", "activate_formation", "17.1", "one from each army", formation="de-1ss")


def test_17_1_a_general_activation_ends_the_german_run() -> None:
    from tests.vaevictis.positions import mini_data

    table = Table(mini_data(turn_one_rules), FRONT)
    table.act("german", "activate_general")
    table.act("german", "end_activation")
    assert table.state.active == "allied"


def test_4_2_the_duty_to_attack_lapses_when_no_enemy_controls_the_hex_any_more() -> None:
    table = Table(placements=FRONT)
    table.act("german", "activate_general")
    table.set("de-12-vg", must_attack=True, action_points=3)  # as if it had just entered the zone of 2nd ID at 0304
    table.state.activation.units.append("de-12-vg")  # type: ignore[union-attr]
    table.set("de-12-vg", hex=304)
    table.refused("german", "end_activation", "4.2", "must attack first")
    table.set("us-2-id", hex=None, eliminated=True)  # the unit that exerted the zone is gone
    table.set("us-3-id", hex=None, eliminated=True)
    table.act("german", "end_activation")


def test_4_2_a_unit_owing_an_attack_may_not_spend_its_last_ap_on_a_hex_that_exerts_no_zone_on_it() -> None:
    """Found by random play of Alsace 1944: the unit attacked an HQ (no zone beyond its hex) with its last AP,
    still owed its attack, and the activation could never end."""
    table = Table(placements={**FRONT, "hq-us-v": 305})
    table.act("german", "activate_general")
    table.state.activation.units.append("de-12-vg")  # type: ignore[union-attr]
    table.set("de-12-vg", hex=304, must_attack=True, action_points=1)  # in the zone of 3rd ID at 0204
    table.refused("german", "attack", "4.2", "must attack a unit exerting", attackers="de-12-vg", target="0305")
    table.act("german", "attack", attackers="de-12-vg", target="0204")  # the duty met


@pytest.mark.parametrize("die", [1, 2, 3, 4, 5, 6])
def test_9_4_the_c3i_check_passes_only_on_a_roll_less_than_the_quality(die: int) -> None:
    table = Table(placements=FRONT)
    table.set("de-12-vg", out_of_command=True)  # quality 4: 1, 2 or 3 passes ("less than", 9.4's example)
    table.act("german", "activate_general")
    table.state.seed = seed_rolling([die], table.state.rolls_made)
    events = table.act("german", "enter_ip", unit="de-12-vg")
    check = next(e for e in events if e.kind == "roll")
    assert check.data["die"] == die and check.data["passed"] is (die in (1, 2, 3))
    assert table.unit("de-12-vg").action_points == {1: 1, 2: 1, 3: 1, 4: 0, 5: 0, 6: 0}[die]  # 2 or 1 AP, less the IP


def test_9_4_in_command_units_and_hqs_of_a_general_activation_roll_no_c3i_check() -> None:
    table = Table(placements=FRONT)
    table.act("german", "activate_general")
    rolls = table.state.rolls_made
    events = table.act("german", "enter_ip", unit="de-12-vg")
    events += table.act("german", "move", units="hq-de-1ss", to="0802")
    assert table.state.rolls_made == rolls and not [e for e in events if e.kind == "roll"]


@pytest.mark.parametrize("die", [3, 4])
def test_9_4_the_log_gives_the_c3i_roll_its_number_the_quality_and_the_outcome(die: int) -> None:
    table = Table(placements=FRONT)
    table.set("de-12-vg", out_of_command=True)
    table.act("german", "activate_general")
    number = table.state.rolls_made
    table.state.seed = seed_rolling([die], number)
    events = table.act("german", "enter_ip", unit="de-12-vg")
    check, joined = (e for e in events if e.kind in ("roll", "join"))
    outcome = "passed." if die == 3 else "failed, 1 AP only."
    assert (check.text, check.data) == (
        f"C3I check for 12 VG: rolled {die} against quality 4: {outcome}",
        {
            "unit": "de-12-vg",
            "die": die,
            "number": number,
            "sides": 6,
            "need_below": 4,
            "passed": die == 3,
            "rule": "9.4",
        },
    )
    ap = 2 if die == 3 else 1
    assert (joined.text, joined.data) == (f"12 VG is activated with {ap} AP.", {"unit": "de-12-vg", "ap": ap})


def test_3_5_the_log_says_a_reactivated_unit_is_fatigued() -> None:
    table = Table(placements=FRONT)
    table.set("de-hansen", activations=1)
    table.act("german", "activate_general")
    events = table.act("german", "enter_ip", unit="de-hansen")
    fatigue = next(e for e in events if e.kind == "fatigue")
    assert (fatigue.text, fatigue.data) == ("Hansen/1 is reactivated and becomes fatigued.", {"unit": "de-hansen"})


def test_4_2_a_unit_owing_an_attack_is_offered_the_attacks_that_meet_it_in_place_of_end_activation() -> None:
    """Found by play of Alsace 1944 (II/4 RTM): a unit in an enemy zone with its last AP was offered End
    activation, which the duty refuses, and a target whose attack the duty refuses. The prompt offers the
    attacks that meet the duty instead, each accepted, and only those targets are suggested."""
    from engine.contract import Action
    from engine.vaevictis.legal import unit_options

    table = Table(placements={**FRONT, "hq-us-v": 305})
    table.act("german", "activate_general")
    table.state.activation.units.append("de-12-vg")  # type: ignore[union-attr]
    table.set("de-12-vg", hex=304, must_attack=True, action_points=1)  # in the zone of 3rd ID at 0204
    prompt = table.game.prompts(table.state)["german"]
    assert "end_activation" not in [c.verb for c in prompt.choices]
    duty = [c for c in prompt.choices if c.verb == "attack"]
    assert [c.args["target"] for c in duty] == ["0204"] and "must attack" in prompt.text
    for choice in duty:
        table.game.apply(table.state, Action("german", choice.verb, choice.args))
    assert unit_options(table.game, table.state, table.unit("de-12-vg")).targets == (204,)
    table.act("german", "attack", attackers="de-12-vg", target="0204")
    assert not table.unit("de-12-vg").must_attack  # the duty met


def test_4_2_the_last_ap_is_free_again_once_the_duty_lapses() -> None:
    """[4.2] When no enemy unit exerts a zone on the unit any more, its last AP may attack any adjacent enemy."""
    table = Table(placements={**FRONT, "hq-us-v": 305})
    table.act("german", "activate_general")
    table.state.activation.units.append("de-12-vg")  # type: ignore[union-attr]
    table.set("de-12-vg", hex=304, must_attack=True, action_points=1)
    table.set("us-3-id", hex=None, eliminated=True)  # the unit that exerted the zone is gone
    table.set("us-2-id", hex=None, eliminated=True)
    table.act("german", "attack", attackers="de-12-vg", target="0305")
