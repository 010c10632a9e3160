"""The arithmetic of an attack (odds.py): strengths, ratio, column shifts, die modifiers, limits, preview."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.contract import IllegalActionError
from engine.vaevictis.data import GameData
from engine.vaevictis.loader import build_game
from engine.vaevictis.odds import AttackPlan, Contribution, assess, c3i_rating, preview, round_ratio, sum_strengths
from engine.vaevictis.state import GameState, MapMarker
from tests.vaevictis.combat_setups import mini_documents, mini_game, mini_game_with_independents, new_state


def germans_attack(target: int, *attackers: str, **kw: object) -> AttackPlan:
    return AttackPlan("german", kw.pop("kind", "normal"), tuple(attackers), target, **kw)  # type: ignore[arg-type]


def allies_attack(target: int, *attackers: str, **kw: object) -> AttackPlan:
    return AttackPlan("allied", kw.pop("kind", "normal"), tuple(attackers), target, **kw)  # type: ignore[arg-type]


def refusal(data: GameData, state: GameState, plan: AttackPlan) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        assess(data, state, plan)
    return caught.value


def shift_reasons(data: GameData, state: GameState, plan: AttackPlan) -> dict[str, int]:
    return {m.reason: m.amount for m in assess(data, state, plan).shifts}


# --- 7.5 The ratio ---------------------------------------------------------------------------------------


def test_7_5_ratio_149_rounds_to_1_to_1() -> None:
    assert round_ratio(149, 100) == (1, 1)
    assert round_ratio(10, 7) == (1, 1)


def test_7_5_ratio_150_rounds_to_2_to_1() -> None:
    data = mini_game()
    state = new_state(data, {"us-b": 303, "de-vg": 403})
    assessment = assess(data, state, germans_attack(303, "de-vg"))
    assert (assessment.attack_total, assessment.defence_total) == (9, 6)
    assert assessment.ratio == "2:1" and assessment.column_name == "2:1"
    assert round_ratio(150, 100) == (2, 1)


def test_7_5_ratio_below_1_to_1_rounds_in_the_attackers_favour() -> None:
    assert round_ratio(10, 25) == (1, 2)
    assert round_ratio(10, 26) == (1, 3)
    assert round_ratio(10, 15) == (1, 1)


def test_7_5_ratio_beyond_the_table_reads_the_extreme_column() -> None:
    data = mini_game()
    state = new_state(data, {"de-big": 403, "us-b": 303})
    weak = assess(data, state, allies_attack(403, "us-b"))
    assert weak.ratio == "1:5" and weak.base_column_name == "1:4" and weak.column_name == "1:4"
    strong = assess(data, state, germans_attack(303, "de-big"))
    assert strong.ratio == "5:1"


def test_7_5_final_column_is_clamped_after_the_shifts() -> None:
    data = mini_game()
    state = new_state(data, {"de-big": 303, "us-c": 304})  # 30 against 3 in forest: 10:1 reads 8:1+, then -1.
    assessment = assess(data, state, germans_attack(304, "de-big"))
    assert assessment.ratio == "10:1" and assessment.base_column_name == "8:1"
    assert assessment.column_name == "7:1"
    state = new_state(data, {"de-big": 304, "us-c": 303})
    state.units["de-big"].improved_position = True
    low = assess(data, state, allies_attack(304, "us-c"))
    assert low.column_name == "1:4"


def test_7_5_shifts_beyond_the_right_end_of_the_table_read_its_last_column() -> None:
    data = mini_game()
    state = new_state(data, {"de-big": 403, "us-c": 303})  # 30 against 3 in clear: 8:1+, then 2 right
    assessment = assess(data, state, germans_attack(303, "de-big", kind="prepared"))
    assert assessment.base_column_name == "8:1" and assessment.column_name == "8:1"


# --- 0.3, 3.5.1, 10.3, 7.7.1, TEC: strengths --------------------------------------------------------------


def test_0_3_halved_strengths_are_added_before_halving() -> None:
    data = mini_game()
    state = new_state(data, {"de-five1": 403, "de-five2": 403, "us-b": 303})
    state.units["de-five1"].fatigued = state.units["de-five2"].fatigued = True
    assert assess(data, state, germans_attack(303, "de-five1", "de-five2")).attack_total == 5  # (5 + 5) / 2


def test_3_5_1_fatigued_and_10_3_unsupplied_attacker_halved_twice() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 403, "us-b": 303})
    state.units["de-vg"].fatigued = True
    state.units["de-vg"].unsupplied = True
    assessment = assess(data, state, germans_attack(303, "de-vg"))
    assert assessment.attack_total == 3  # 9 / 2 = 5, / 2 = 3
    assert assessment.attackers_detail[0].halvings == ("fatigued (3.5.1)", "unsupplied (10.3)")


def test_10_3_unsupplied_defender_defends_at_half() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 403, "us-b": 303})
    state.units["us-b"].unsupplied = True
    assert assess(data, state, germans_attack(303, "de-vg")).defence_total == 3


def test_7_7_1_unit_that_retreated_into_a_stack_defends_at_half() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 403, "us-b": 303, "us-c": 303})
    state.units["us-c"].retreated_into_stack = True
    assert assess(data, state, germans_attack(303, "de-vg")).defence_total == 6 + 2


def test_0_2_armor_halved_in_a_city_in_defence() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 303, "us-cca": 203, "us-c": 203})
    assessment = assess(data, state, germans_attack(203, "de-vg"))
    assert assessment.defence_total == 3 + 3  # the armored CCA halved, the infantry not


def test_0_2_attacking_across_a_bridge_is_halved() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 503, "us-b": 403})
    assessment = assess(data, state, germans_attack(403, "de-vg"))
    assert assessment.attack_total == 5
    assert "bridge" in assessment.attackers_detail[0].halvings[0]


def test_0_2_only_infantry_attacks_across_an_unbridged_river() -> None:
    data = mini_game()
    state = new_state(data, {"de-hansen": 504, "de-vg": 504, "us-b": 404})
    error = refusal(data, state, germans_attack(404, "de-hansen"))
    assert error.rule == "0.2" and "only infantry" in error.reason
    assert assess(data, state, germans_attack(404, "de-vg")).attack_total == 5


# --- 7.4 Column shifts ---------------------------------------------------------------------------------------


def test_0_2_defender_terrain_shifts_are_cumulative() -> None:
    docs = mini_documents()
    docs["map.toml"]["place"].append({"name": "Charlie", "hex": "0604", "kind": "village"})
    data = build_game(docs)
    state = new_state(data, {"de-vg": 704, "us-b": 604})
    shifts = shift_reasons(data, state, germans_attack(604, "de-vg"))
    assert shifts == {"defender in rough": -1, "defender in the village of Charlie": -1}


def test_0_2_westwall_shifts_only_for_german_defenders() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 803, "us-b": 702})
    assert shift_reasons(data, state, allies_attack(803, "us-b")) == {"German defender in the Westwall": -1}
    state = new_state(data, {"us-b": 803, "de-vg": 702})
    assert shift_reasons(data, state, germans_attack(803, "de-vg")) == {}


def test_12_2_improved_positions_shift_only_if_every_defender_is_in_them() -> None:
    data = mini_game()
    state = new_state(data, {"de-big": 403, "us-b": 303, "us-c": 303})
    state.units["us-b"].improved_position = True
    assert shift_reasons(data, state, germans_attack(303, "de-big")) == {}
    state.units["us-c"].improved_position = True
    assert shift_reasons(data, state, germans_attack(303, "de-big")) == {"every defender in Improved Positions": -1}


def test_7_3_2_prepared_attack_shifts_two_columns_for_germans_one_for_americans() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 403, "us-b": 303})
    assert shift_reasons(data, state, germans_attack(303, "de-vg", kind="prepared")) == {"German prepared attack": 2}
    assert shift_reasons(data, state, allies_attack(403, "us-b", kind="prepared")) == {"Allied prepared attack": 1}


def test_1_6_artillery_supports_shift_toward_their_owner() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 403, "hq-de-1ss": 503, "us-b": 303, "hq-us-v": 103})
    state.units["hq-de-1ss"].supports = ["nebelwerfer"]
    state.units["hq-us-v"].supports = ["artillery"]
    plan = germans_attack(
        303, "de-vg", supports=(("hq-de-1ss", "nebelwerfer"),), defender_supports=(("hq-us-v", "artillery"),)
    )
    assessment = assess(data, state, plan)
    assert [m.amount for m in assessment.shifts] == [2, -1]
    assert assessment.column_name == "3:1"  # 2:1 + 2 - 1


def test_1_6_armor_supports_modify_the_die() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 403, "hq-de-1ss": 503, "us-b": 303, "hq-us-v": 103})
    state.units["hq-de-1ss"].supports = ["tiger"]
    state.units["hq-us-v"].supports = ["tank"]
    assessment = assess(data, state, germans_attack(303, "de-vg", supports=(("hq-de-1ss", "tiger"),)))
    assert assessment.drm_total == 1
    both = germans_attack(303, "de-vg", supports=(("hq-de-1ss", "tiger"),), defender_supports=(("hq-us-v", "tank"),))
    assert assess(data, state, both).drm_total == 0


def test_14_3_air_support_shifts_a_column_each() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 403, "us-b": 303})
    state.air_missions = {"german": 1, "allied": 1}
    assert shift_reasons(data, state, germans_attack(303, "de-vg", air=1)) == {"air support for the attacker": 1}
    assert [m.amount for m in assess(data, state, germans_attack(303, "de-vg", defender_air=1)).shifts] == [-1]


# --- 7.3, 14.3, 1.6 Limits ------------------------------------------------------------------------------------


def test_7_3_normal_attack_takes_one_hq_support_prepared_two() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 403, "hq-de-1ss": 503, "us-b": 303})
    state.units["hq-de-1ss"].supports = ["nebelwerfer", "tiger"]
    two = (("hq-de-1ss", "nebelwerfer"), ("hq-de-1ss", "tiger"))
    error = refusal(data, state, germans_attack(303, "de-vg", supports=two))
    assert error.rule == "7.3" and "at most 1 HQ support" in error.reason
    assert assess(data, state, germans_attack(303, "de-vg", kind="prepared", supports=two)).drm_total == 1


def test_1_6_a_support_must_be_held_by_the_hq() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 403, "hq-de-1ss": 503, "us-b": 303})
    error = refusal(data, state, germans_attack(303, "de-vg", supports=(("hq-de-1ss", "nebelwerfer"),)))
    assert error.rule == "1.6"


def test_1_3_german_hq_supports_only_its_own_formation_in_command_range() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 403, "hq-de-67": 503, "hq-de-1ss": 106, "us-b": 303})
    state.units["hq-de-67"].supports = ["nebelwerfer"]
    state.units["hq-de-1ss"].supports = ["nebelwerfer"]
    error = refusal(data, state, germans_attack(303, "de-vg", supports=(("hq-de-67", "nebelwerfer"),)))
    assert error.rule == "1.3" and "another formation" in error.reason  # the refusal says which condition fails
    state.units["de-vg"].hex = 203  # 6 hexes from the HQ at 0805: beyond the German command range of 4
    state.units["hq-de-1ss"].hex = 805
    error = refusal(data, state, germans_attack(303, "de-vg", supports=(("hq-de-1ss", "nebelwerfer"),)))
    assert error.rule == "1.3" and "out of its command range" in error.reason


def test_16_3_an_independent_may_receive_support_from_any_hq_of_its_side_in_range() -> None:
    """[16.3] A German HQ supports only its own formation (1.3), but an independent takes support from any
    HQ of its side whose command range reaches it."""
    data = mini_game_with_independents()
    state = new_state(data, {"de-ind-4": 403, "de-vg": 404, "hq-de-67": 503, "us-b": 303})
    state.units["hq-de-67"].supports = ["nebelwerfer"]
    supported = germans_attack(303, "de-ind-4", supports=(("hq-de-67", "nebelwerfer"),))
    assert any("nebelwerfer" in m.reason for m in assess(data, state, supported).shifts)
    error = refusal(data, state, germans_attack(303, "de-vg", supports=(("hq-de-67", "nebelwerfer"),)))
    assert error.rule == "1.3" and "another formation" in error.reason


def test_9_5_an_independent_is_rated_a_at_quality_5_and_b_at_quality_4() -> None:
    """[9.5] A unit of a formation takes its HQ's C3I rating; an independent has its own, by its quality."""
    data = mini_game_with_independents()
    assert (c3i_rating(data, "de-ind-5"), c3i_rating(data, "de-ind-4")) == ("A", "B")
    assert (c3i_rating(data, "de-vg"), c3i_rating(data, "de-326")) == ("B", "C")


def test_17_1_on_turn_1_american_units_receive_support_however_far_their_hq() -> None:
    data = mini_game()
    state = new_state(data, {"us-b": 802, "de-vg": 803, "hq-us-v": 105})
    state.units["hq-us-v"].supports = ["artillery"]
    plan = allies_attack(803, "us-b", supports=(("hq-us-v", "artillery"),))
    state.turn = 2
    assert data.map.grid.distance(105, 802) > 6
    assert refusal(data, state, plan).rule == "1.3"
    state.turn = 1
    assert data.scenarios["test"].special_rules == ()  # the mini scenario has no such rule ...
    docs = mini_documents()
    docs["scenarios.toml"]["scenario"][0]["special_rules"] = ["us-all-in-command-turn-1"]
    data = build_game(docs)
    assert [m.amount for m in assess(data, state, plan).shifts][-1] == 1  # ... the Ardennes scenarios do


def test_14_3_at_most_two_air_supports_in_one_combat() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 403, "us-b": 303})
    state.air_missions = {"german": 2, "allied": 2}
    assert refusal(data, state, germans_attack(303, "de-vg", air=2)).rule == "7.3"
    error = refusal(data, state, germans_attack(303, "de-vg", kind="prepared", air=2, defender_air=1))
    assert error.rule == "14.3"
    state.air_missions = {"german": 0, "allied": 2}
    assert refusal(data, state, germans_attack(303, "de-vg", air=1)).rule == "14.2"


def test_7_3_1_normal_attack_is_made_from_a_single_hex() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 403, "de-hansen": 404, "us-b": 303})
    error = refusal(data, state, germans_attack(303, "de-vg", "de-hansen"))
    assert error.rule == "7.3.1" and "single hex" in error.reason
    prepared = assess(data, state, germans_attack(303, "de-vg", "de-hansen", kind="prepared"))
    assert prepared.attack_total == 16 and prepared.attacker_hexes == (403, 404)


def test_10_3_isolated_or_unsupplied_units_cannot_join_a_prepared_attack() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 403, "us-b": 303})
    state.units["de-vg"].isolated = True
    error = refusal(data, state, germans_attack(303, "de-vg", kind="prepared"))
    assert error.rule == "10.3" and "isolated" in error.reason
    assert assess(data, state, germans_attack(303, "de-vg")).attack_total == 9


def test_7_1_attackers_must_be_adjacent_to_an_enemy_held_target() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 503, "us-b": 303, "us-c": 203})
    assert refusal(data, state, germans_attack(303, "de-vg")).rule == "7.1"
    assert refusal(data, state, allies_attack(203, "us-b")).rule == "7.1"  # a friendly hex


def test_7_2_a_units_strength_is_not_divided() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 403, "us-b": 303})
    assert refusal(data, state, germans_attack(303, "de-vg", "de-vg")).rule == "7.2"


def test_7_2_every_unit_in_the_target_hex_defends() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 403, "us-b": 303, "us-c": 303, "hq-us-v": 303})
    assessment = assess(data, state, germans_attack(303, "de-vg"))
    assert set(assessment.defenders) == {"us-b", "us-c", "hq-us-v"} and assessment.defence_total == 6 + 3 + 1


# --- 7.4 Die modifiers ---------------------------------------------------------------------------------------


def test_1_3_an_hq_does_not_attack_and_alone_has_quality_4() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 403, "hq-us-v": 303, "hq-de-1ss": 402})
    assert refusal(data, state, germans_attack(303, "hq-de-1ss")).rule == "1.3"
    assessment = assess(data, state, germans_attack(303, "de-vg"))
    assert assessment.defence_total == 1 and assessment.drm_total == 3 - 4


def test_7_4_quality_of_one_attacker_less_one_defender_is_the_die_modifier() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 403, "de-hansen": 403, "us-b": 303})
    assert assess(data, state, germans_attack(303, "de-vg", "de-hansen")).drm_total == 5 - 3
    chosen = assess(data, state, germans_attack(303, "de-vg", "de-hansen", attacker_quality="de-vg"))
    assert chosen.drm_total == 0 and chosen.attacker_quality == "de-vg"
    assert refusal(data, state, germans_attack(303, "de-vg", attacker_quality="de-hansen")).rule == "7.4"


def test_7_4_divisional_integrity_is_plus_or_minus_one_at_most() -> None:
    data = mini_game()
    state = new_state(data, {"de-peiper": 403, "de-hansen": 403, "us-cca": 303, "us-ccb": 303})
    reasons = {m.reason: m.amount for m in assess(data, state, germans_attack(303, "de-peiper", "de-hansen")).drm}
    assert reasons["attacker's divisional integrity"] == 1 and reasons["defender's divisional integrity"] == -1


def test_7_4_divisional_integrity_needs_two_units_of_one_division_in_one_stack() -> None:
    data = mini_game()
    # Peiper attacks alone, CCA defends alone: one unit of a division is no integrity on either side.
    state = new_state(data, {"de-peiper": 403, "us-cca": 303})
    reasons = [m.reason for m in assess(data, state, germans_attack(303, "de-peiper")).drm]
    assert not [r for r in reasons if "divisional integrity" in r]


def test_15_3_nuts_adds_one_quality_around_the_marker() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 403, "us-b": 303})
    before = assess(data, state, germans_attack(303, "de-vg")).drm_total
    state.markers.append(MapMarker("nuts", 203, "allied", 1))  # adjacent to 0303
    assert assess(data, state, germans_attack(303, "de-vg")).drm_total == before - 1


# --- 9.5 SNAFU in the arithmetic ------------------------------------------------------------------------------


def test_9_5_poor_coordination_shifts_one_column_left() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 403, "us-b": 303})
    assert assess(data, state, germans_attack(303, "de-vg", snafu="column-left")).column_name == "1:1"


def test_9_5_command_confusion_cancels_supports_and_costs_one_per_stack() -> None:
    data = mini_game()
    state = new_state(data, {"de-peiper": 403, "de-hansen": 403, "de-vg": 404, "hq-de-1ss": 503, "us-b": 303})
    state.units["hq-de-1ss"].supports = ["nebelwerfer"]
    plan = germans_attack(
        303,
        "de-peiper",
        "de-hansen",
        "de-vg",
        kind="prepared",
        supports=(("hq-de-1ss", "nebelwerfer"),),
        snafu="command-confusion",
    )
    assessment = assess(data, state, plan)
    reasons = {m.reason: m.amount for m in assessment.drm}
    assert "attacker's divisional integrity" not in reasons
    assert reasons["SNAFU 12, command confusion (2 stack(s))"] == -2
    assert assessment.cancelled == ("hq-de-1ss:nebelwerfer",)
    assert all("nebelwerfer" not in m.reason for m in assessment.shifts)


# --- 7.5 The preview -----------------------------------------------------------------------------------------


def test_7_5_preview_probabilities_sum_to_one_and_nothing_changes() -> None:
    data = mini_game()
    state = new_state(data, {"de-vg": 403, "de-hansen": 403, "us-b": 303})
    before = state.to_json()
    result = preview(data, state, germans_attack(303, "de-vg", "de-hansen"))
    assert sum(result.probabilities.values()) == 1
    assert state.to_json() == before
    assert [o.row for o in result.outcomes] == [3, 4, 5, 6, 7, 8]  # die + 2, rows 0..8
    assert result.lines()[0] == "Normal attack on 0303"


def test_7_8_preview_gives_the_breakthrough_chance() -> None:
    data = mini_game()
    state = new_state(data, {"de-big": 403, "us-b": 303})  # 30:6 = 5:1, no modifier
    result = preview(data, state, germans_attack(303, "de-big"))
    assert result.assessment.column_name == "5:1"
    # 5:1 rows 1-6: -/1, 1/2, -/2, -/2, 1/3, 1/3: two bold (-/2) faces.
    assert result.breakthrough == Fraction(2, 6)
    assert result.probabilities["-/2"] == Fraction(2, 6)


def test_0_3_a_halved_odd_strength_rounds_up() -> None:
    data = mini_game()
    state = new_state(data, {"de-five1": 403, "us-b": 303})
    state.units["de-five1"].fatigued = True
    assert assess(data, state, germans_attack(303, "de-five1")).attack_total == 3  # "5 divided by 2 becomes 3"
    state = new_state(data, {"de-five1": 403, "de-five2": 403, "de-vg": 403, "us-b": 303})
    for unit_id in ("de-five1", "de-five2", "de-vg"):
        state.units[unit_id].fatigued = True
    assert assess(data, state, germans_attack(303, "de-five1", "de-five2", "de-vg")).attack_total == 10  # 19 / 2


def test_7_5_a_lone_strength_point_against_three_is_1_to_3() -> None:
    assert round_ratio(1, 3) == (1, 3) and round_ratio(2, 5) == (1, 2) and round_ratio(2, 7) == (1, 3)


def test_7_5_no_defence_or_no_attack_reads_an_extreme_column() -> None:
    assert round_ratio(5, 0) == (5, 1) and round_ratio(0, 0) == (1, 1) and round_ratio(0, 5) == (1, 99)


def test_9_5_a_unit_the_traffic_jam_reduces_to_zero_still_lets_the_others_count() -> None:
    zeroed = Contribution("a", "A", 9, (), zeroed=True)
    others = [Contribution("b", "B", 5, ("fatigued (3.5.1)",)), Contribution("c", "C", 4, ())]
    assert sum_strengths([zeroed, *others]) == 3 + 4


def test_1_3_an_hq_named_hq_on_its_counter_is_named_with_hq_once() -> None:
    """[1.3] "HQ XLVII PzK has a combat strength only in defence", never "HQ HQ XLVII PzK": Ardennes 1944 prints
    HQ on the counter, so the refusal adds none."""
    from engine.hexgrid import hex_name
    from engine.vaevictis.game import VaeVictisGame
    from scenarios import load_game
    from tests.bot.doubles import require_ardennes

    require_ardennes()
    game = VaeVictisGame(load_game("ardennes44"))
    state = game.new_game("entire-battle", {}, bytes(32))
    hq = next(u for u in state.on_map() if game.data.units[u.id].is_hq and game.data.side_of(u.id) == "german")
    enemy = next(u for u in state.on_map() if game.data.side_of(u.id) == "allied")
    assert enemy.hex is not None
    state.units[hq.id].hex = next(h for h in game.data.map.grid.neighbours(enemy.hex) if not state.units_at(h))
    plan = AttackPlan(side="german", kind="normal", attackers=(hq.id,), targets=(enemy.hex,))
    refused = refusal(game.data, state, plan)
    name = game.data.units[hq.id].name
    assert name.startswith("HQ") and refused.reason == f"{name} has a combat strength only in defence"
    assert "HQ HQ" not in refused.reason and hex_name(enemy.hex)


def test_7_6_preview_gives_the_expected_step_losses_of_both_sides() -> None:
    """[7.6] Beside each result's chance, the steps each side may expect to lose over the six faces."""
    data = mini_game()
    state = new_state(data, {"de-big": 403, "us-b": 303})  # 5:1: -/1, 1/2, -/2, -/2, 1/3, 1/3
    result = preview(data, state, germans_attack(303, "de-big"))
    assert result.expected_losses == (Fraction(3, 6), Fraction(13, 6))
    assert "Expected step losses (7.6): attacker 0.5, defender 2.2" in result.lines()


def test_7_6_an_elimination_counts_every_step_of_that_side() -> None:
    from engine.vaevictis.odds import expected_steps_lost

    assert expected_steps_lost("E/-", 4, 3) == (4, 0)
    assert expected_steps_lost("1/E", 4, 3) == (1, 3)
    assert expected_steps_lost("-/2", 4, 3) == (0, 2)
