"""Resolving an attack (combat.py): the die, losses, retreats, advances, breakthroughs, supports after use.

Dice are pinned by choosing the seed (see ``attack`` in combat_setups). Column reminders, mini game:
de-vg (9, q3) against us-b (6, q3) is 2:1; de-big (30, q3) against us-b is 5:1, against us-c (3) 8:1+.
"""

from __future__ import annotations

import pytest

from engine.contract import Action, IllegalActionError, NotYourTurnError
from engine.vaevictis import combat, zoc
from engine.vaevictis.odds import AttackPlan
from engine.vaevictis.state import GameState, Position
from tests.vaevictis.combat_setups import act, attack, mini_game, new_state, verbs

DATA = mini_game()


def plan(target: int, *attackers: str, side: str = "german", **kw: object) -> AttackPlan:
    return AttackPlan(side, kw.pop("kind", "normal"), tuple(attackers), target, **kw)  # type: ignore[arg-type]


def refused(state: GameState, verb: str, **args: object) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        act(DATA, state, verb, **args)
    return caught.value


# --- 7.5 Declaring and rolling ---------------------------------------------------------------------------


def test_7_5_attack_spends_aps_and_logs_the_die_with_every_modifier() -> None:
    state = new_state(DATA, {"de-vg": 403, "de-hansen": 403, "us-b": 303})
    events = attack(DATA, state, plan(303, "de-vg", "de-hansen"), [3])
    assert state.units["de-vg"].action_points == 2 and state.units["de-hansen"].action_points == 2
    roll = next(e for e in events if e.kind == "roll")
    assert roll.data["die"] == 3 and roll.data["total"] == 5
    assert roll.data["modifiers"][0]["rule"] == "7.4" and roll.data["modifiers"][0]["amount"] == 2
    fight = next(e for e in events if e.kind == "combat")
    assert fight.data["column"] == "3:1" and fight.data["result"] == "1/2" and fight.data["die"] == 3
    assert set(fight.data) >= {"attackers", "defenders", "target", "column", "shifts", "drm", "die", "result"}
    assert state.rolls_made == 1


def test_3_4_1_a_prepared_attack_needs_two_aps_per_attacker() -> None:
    state = new_state(DATA, {"de-vg": 403, "us-b": 303})
    state.units["de-vg"].action_points = 1
    before = state.to_json()
    with pytest.raises(IllegalActionError) as caught:
        attack(DATA, state, plan(303, "de-vg", kind="prepared"), [3])
    assert caught.value.rule == "3.4.1"
    state.seed = before["seed"]
    assert state.to_json() == before


def test_7_6_the_defender_decides_first_and_only_the_deciding_seat_may_answer() -> None:
    state = new_state(DATA, {"de-vg": 403, "us-b": 303})
    attack(DATA, state, plan(303, "de-vg"), [6])  # 1/2
    assert combat.pending_prompt(DATA, state).seat == "allied"
    with pytest.raises(NotYourTurnError):
        combat.apply_pending(DATA, state, Action("german", "take_loss", {"unit": "de-vg"}))


def test_7_5_the_defender_adds_supports_after_the_attacker() -> None:
    state = new_state(DATA, {"de-vg": 403, "hq-de-1ss": 503, "us-b": 303, "hq-us-v": 103})
    state.units["hq-de-1ss"].supports = ["nebelwerfer"]
    state.units["hq-us-v"].supports = ["artillery", "tank"]
    state.air_missions = {"allied": 1}
    events = attack(DATA, state, plan(303, "de-vg", supports=(("hq-de-1ss", "nebelwerfer"),)), [4, 1, 3])
    assert not any(e.kind == "roll" for e in events)  # nothing is rolled before the defender has answered
    prompt = combat.pending_prompt(DATA, state)
    assert prompt.seat == "allied" and prompt.rule == "7.5"
    assert {c.verb for c in prompt.choices} == {"support_defence", "air_defence", "supports_done"}
    act(DATA, state, "support_defence", hq="hq-us-v", kind="artillery")
    assert {c.verb for c in combat.pending_prompt(DATA, state).choices} == {"air_defence", "supports_done"}
    events = act(DATA, state, "air_defence")  # normal attack: 1 HQ support, 1 air each (7.3)
    fight = next(e for e in events if e.kind == "combat")
    assert [s["amount"] for s in fight.data["shifts"]] == [2, -1, -1]
    assert state.units["hq-us-v"].supports == ["tank"] and state.air_missions["allied"] == 0


# --- 7.6 Losses ------------------------------------------------------------------------------------------------


def test_7_6_red_result_forces_a_step_loss_before_retreat() -> None:
    state = new_state(DATA, {"de-big": 403, "us-b": 303})
    attack(DATA, state, plan(303, "de-big"), [5])  # 5:1, row 5: 1/3, the 3 is red
    assert state.pending[-1]["result"]["defender_red"]
    assert verbs(DATA, state) == {("take_loss", "us-b")}
    error = refused(state, "retreat", to=203)
    assert error.rule == "7.6" and "red" in error.reason
    act(DATA, state, "take_loss", unit="us-b")
    assert ("retreat", "203") in verbs(DATA, state)


def test_7_4_the_unit_whose_quality_was_used_takes_the_first_loss() -> None:
    state = new_state(DATA, {"de-big": 403, "us-b": 303, "us-2-id": 303})
    attack(DATA, state, plan(303, "de-big"), [6])  # 30:18 = 2:1, die 6 - 1 = 5: -/1
    assert state.pending[-1]["assessment"]["defender_quality"] == "us-2-id"
    assert ("take_loss", "us-b") not in verbs(DATA, state)
    error = refused(state, "take_loss", unit="us-b")
    assert error.rule == "7.6" and "quality" in error.reason
    act(DATA, state, "take_loss", unit="us-2-id")
    assert state.units["us-2-id"].steps == 3


def test_7_6_with_armor_on_both_sides_the_second_loss_is_armored() -> None:
    state = new_state(DATA, {"de-big": 403, "de-peiper": 403, "us-b": 303, "us-cca": 303})
    # 38:12 = 3:1; the defender lends the quality of its infantry: 5 - 3 = +2; die 4 -> row 6: -/2.
    attack(DATA, state, plan(303, "de-big", "de-peiper", defender_quality="us-b"), [4])
    assert state.pending[-1]["result"]["text"] == "-/2"
    act(DATA, state, "take_loss", unit="us-b")
    assert verbs(DATA, state) - {v for v in verbs(DATA, state) if v[0] == "retreat"} == {("take_loss", "us-cca")}
    error = refused(state, "take_loss", unit="us-b")
    assert "armored or mechanized" in error.reason
    act(DATA, state, "take_loss", unit="us-cca")
    assert state.units["us-cca"].steps == 1


def test_1_6_1_an_armor_marker_may_be_given_up_as_a_step_loss() -> None:
    state = new_state(DATA, {"de-big": 403, "de-peiper": 403, "us-b": 303, "us-cca": 303, "hq-us-v": 103})
    state.units["hq-us-v"].supports = ["tank"]
    attack(
        DATA,
        state,
        plan(303, "de-big", "de-peiper", defender_quality="us-b", defender_supports=(("hq-us-v", "tank"),)),
        [5],
    )  # +2 - 1: row 6, -/2
    act(DATA, state, "take_loss", unit="us-b")
    assert ("take_loss", "hq-us-v:tank") in verbs(DATA, state)
    events = act(DATA, state, "take_loss", marker="hq-us-v:tank")
    assert any(e.kind == "loss" and e.data.get("given_up") for e in events)
    assert state.units["us-cca"].steps == 2
    assert not state.pending  # both steps taken, the defender holds: no advance
    assert state.returning["us-1st"].get("tank", 0) == 0  # given up for good, not back to the pool


def test_1_6_1_armor_markers_go_back_to_the_pool_after_use() -> None:
    state = new_state(DATA, {"de-vg": 403, "hq-de-1ss": 503, "us-b": 303})
    state.units["hq-de-1ss"].supports = ["tiger"]
    attack(DATA, state, plan(303, "de-vg", supports=(("hq-de-1ss", "tiger"),)), [3])  # row 4: -/1
    act(DATA, state, "take_loss", unit="us-b")
    assert not state.pending
    assert state.returning["de-6pz"] == {"tiger": 1} and state.units["hq-de-1ss"].supports == []


def test_7_3_2_prepared_attacker_loses_a_step_on_any_adverse_result() -> None:
    state = new_state(DATA, {"de-vg": 403, "us-b": 303})
    attack(DATA, state, plan(303, "de-vg", kind="prepared"), [1])  # 2:1 + 2 = 4:1, row 1: 1/1
    act(DATA, state, "retreat", to=203)
    assert combat.pending_prompt(DATA, state).seat == "german"
    assert verbs(DATA, state) == {("take_loss", "de-vg")}
    assert refused(state, "retreat", to=502).rule == "7.3.2"


def test_7_6_e_eliminates_the_whole_stack() -> None:
    state = new_state(DATA, {"de-big": 403, "de-hansen": 403, "us-c": 303, "hq-us-v": 303})
    state.units["hq-us-v"].supports = ["artillery"]
    attack(DATA, state, plan(303, "de-big", "de-hansen"), [6])  # 37:4 = 8:1+, +1, row 7: 1/E
    act(DATA, state, "supports_done")  # the defender keeps his artillery out of it
    assert state.units["us-c"].eliminated and state.units["hq-us-v"].eliminated
    assert state.returning["us-1st"] == {"artillery": 1}  # 1.3: the destroyed HQ's supports go back


# --- 7.7.1 Retreats --------------------------------------------------------------------------------------------


def test_7_7_1_retreat_priorities_offer_only_the_best_hexes() -> None:
    state = new_state(DATA, {"de-vg": 403, "us-b": 303})
    attack(DATA, state, plan(303, "de-vg"), [4])  # -/1
    assert verbs(DATA, state) == {("take_loss", "us-b"), ("retreat", "203")}
    error = refused(state, "retreat", to=304)
    assert error.rule == "7.7.1" and "priorities" in error.reason
    assert refused(state, "retreat", to=403).rule == "7.7.1"  # enemy-held


def _surrounded() -> dict[str, int]:
    # us-2-id at 0303 attacked from 0403; every hex around it is in German ZoC (de-vg 0202, de-hansen 0205).
    return {"de-big": 403, "de-vg": 202, "de-hansen": 205, "us-2-id": 303}


def test_7_7_1_retreat_through_enemy_zoc_costs_a_step() -> None:
    state = new_state(DATA, _surrounded())
    attack(DATA, state, plan(303, "de-big"), [5])  # 30:12 = 3:1, die 5 - 1 = 4: -/1
    assert ("retreat", "203") in verbs(DATA, state)
    events = act(DATA, state, "retreat", to=203)
    assert any(e.kind == "retreat" and e.data["zoc_loss"] for e in events)
    assert verbs(DATA, state) == {("take_loss", "us-2-id")}
    act(DATA, state, "take_loss", unit="us-2-id")
    assert state.units["us-2-id"].steps == 3 and state.units["us-2-id"].hex == 203


def test_7_7_1_a_friendly_unit_cancels_enemy_zoc_for_the_retreat() -> None:
    state = new_state(DATA, {**_surrounded(), "us-c": 203})
    attack(DATA, state, plan(303, "de-big"), [5])
    act(DATA, state, "retreat", to=203)
    assert state.units["us-2-id"].steps == 4
    assert state.units["us-2-id"].retreated_into_stack  # and so defends at half (7.7.1)


def test_7_7_1_no_open_hex_the_result_is_absorbed_as_losses() -> None:
    placed = {
        "de-big": 403,
        "de-vg": 302,
        "de-hansen": 404,
        "de-five1": 304,
        "us-2-id": 303,
        "us-b": 303,
        "us-c": 203,
        "us-d": 204,
    }
    state = new_state(DATA, placed)
    attack(DATA, state, plan(303, "de-big"), [6])  # 30:18 = 2:1, die 6 - 1 = 5: -/1; 0203, 0204 would overstack
    assert verbs(DATA, state) == {("take_loss", "us-2-id")}


def test_7_7_1_units_of_a_stack_may_split_but_retreat_the_same_distance() -> None:
    state = new_state(DATA, {"de-vg": 403, "us-b": 303, "us-c": 303})
    attack(DATA, state, plan(303, "de-vg", defender_quality="us-b"), [6])  # 9:9 = 1:1, row 6: -/1
    act(DATA, state, "retreat", to=203, units="us-c")
    assert state.units["us-c"].hex == 203 and state.units["us-b"].hex == 303
    assert combat.pending_prompt(DATA, state).seat == "allied"
    assert {v for v in verbs(DATA, state) if v[0] == "retreat"} == {("retreat", "203")}
    act(DATA, state, "retreat", to=203, units="us-b")
    assert combat.pending_prompt(DATA, state).seat == "german"  # the defender's part is done: one hex each
    assert [g["path"] for g in state.pending[-1]["defender"]["groups"]] == [[303, 203], [303, 203]]


def test_7_7_1_a_unit_retreating_off_the_map_is_eliminated() -> None:
    # us-b retreats two hexes from 0202: the first to 0101 on the map's edge, where no hex is open.
    placed = {"de-big": 302, "us-b": 202, "de-vg": 203, "de-five1": 102, "de-five2": 201}
    state = new_state(DATA, placed)
    attack(DATA, state, plan(202, "de-big"), [3])  # 30:6 = 5:1, row 3: -/2
    assert {v for v in verbs(DATA, state) if v[0] == "retreat"} == {("retreat", "101")}
    act(DATA, state, "retreat", to=101)
    events = act(DATA, state, "take_loss", unit="us-b")  # the enemy ZoC at 0101
    assert state.units["us-b"].eliminated
    assert any(e.kind == "eliminated" and "off the map" in e.text for e in events)


# --- 7.7.2 Advances -------------------------------------------------------------------------------------------


def _defender_retreats_two() -> GameState:
    state = new_state(DATA, {"de-big": 403, "us-b": 303})
    attack(DATA, state, plan(303, "de-big"), [3])  # 5:1, row 3: -/2 (a breakthrough)
    act(DATA, state, "retreat", to=203)
    act(DATA, state, "retreat", to=next(int(h) for v, h in verbs(DATA, state) if v == "retreat"))
    return state


def test_7_7_2_the_advance_enters_the_vacated_hex_then_follows_the_retreat_path() -> None:
    state = _defender_retreats_two()
    assert combat.pending_prompt(DATA, state).seat == "german"
    assert verbs(DATA, state) == {("advance", "303"), ("end_advance", "")}
    assert refused(state, "advance", to=304).rule == "7.7.2"
    act(DATA, state, "advance", to=303)
    assert verbs(DATA, state) == {("advance", "203"), ("end_advance", "")}
    act(DATA, state, "advance", to=203)
    assert not state.pending and state.units["de-big"].hex == 203


def test_7_7_2_armor_may_leave_the_path_after_the_first_hex() -> None:
    state = new_state(DATA, {"de-big": 403, "de-peiper": 403, "us-b": 303})
    attack(DATA, state, plan(303, "de-big", "de-peiper", attacker_quality="de-big"), [3])  # 38:6 = 6:1, row 3: -/2
    act(DATA, state, "retreat", to=203)
    act(DATA, state, "retreat", to=next(int(h) for v, h in verbs(DATA, state) if v == "retreat"))
    act(DATA, state, "advance", to=303)  # both units, into the vacated hex
    options = {h for v, h in verbs(DATA, state) if v == "advance"}
    assert "304" in options and "203" in options  # the tank may leave the path
    assert refused(state, "advance", to=304, units="de-big").rule == "7.7.2"  # the infantry may not
    act(DATA, state, "advance", to=304, units="de-peiper")
    assert state.units["de-peiper"].hex == 304


def test_7_7_2_advance_stops_after_crossing_a_river() -> None:
    state = new_state(DATA, {"de-big": 503, "us-b": 403})
    attack(DATA, state, plan(403, "de-big"), [6])  # 15 (bridge) : 6 = 3:1 (2.5), row 6: -/2
    act(DATA, state, "retreat", to=next(int(h) for v, h in verbs(DATA, state) if v == "retreat"))
    act(DATA, state, "retreat", to=next(int(h) for v, h in verbs(DATA, state) if v == "retreat"))
    events = act(DATA, state, "advance", to=403)
    assert "crossed a river" in events[0].text
    assert not state.pending


def test_7_7_2_advance_stops_on_entering_an_enemy_zoc_except_the_vacated_hex() -> None:
    state = new_state(DATA, {"de-big": 403, "us-b": 303, "us-d": 102})
    attack(DATA, state, plan(303, "de-big"), [2])  # 5:1 row 2: 1/2, no breakthrough
    act(DATA, state, "retreat", to=203)
    act(DATA, state, "retreat", to=next(int(h) for v, h in verbs(DATA, state) if v == "retreat"))
    act(DATA, state, "take_loss", unit="de-big")  # converts the 1 into a loss to advance
    act(DATA, state, "advance", to=303)
    events = act(DATA, state, "advance", to=203)  # 0203 is in the ZoC of us-d at 0102
    assert "enemy zone of control" in events[0].text and not state.pending


def test_1_2_a_unit_that_loses_its_last_step_is_eliminated() -> None:
    state = new_state(DATA, {"de-big": 403, "us-c": 303})
    attack(DATA, state, plan(303, "de-big"), [4])  # 8:1+, row 4: -/3 against a 1-step unit
    act(DATA, state, "take_loss", unit="us-c")
    unit = state.units["us-c"]
    assert unit.eliminated and unit.hex is None and unit.steps == 0


def test_7_7_2_an_unfulfilled_result_becomes_hexes_of_advance() -> None:
    state = new_state(DATA, {"de-big": 403, "us-c": 303})
    attack(DATA, state, plan(303, "de-big"), [4])  # 8:1+, row 4: -/3 against a 1-step unit
    act(DATA, state, "take_loss", unit="us-c")
    assert state.units["us-c"].eliminated
    assert state.pending[-1]["advance"]["allowance"] == 2
    act(DATA, state, "advance", to=303)
    act(DATA, state, "advance", to=304)  # beyond the (empty) path: any hex
    assert not state.pending


def test_7_7_2_shared_result_an_attacker_who_retreats_cannot_advance() -> None:
    state = new_state(DATA, {"de-vg": 403, "us-b": 303})
    attack(DATA, state, plan(303, "de-vg"), [6])  # 1/2
    act(DATA, state, "retreat", to=203)
    act(DATA, state, "retreat", to=next(int(h) for v, h in verbs(DATA, state) if v == "retreat"))
    act(DATA, state, "retreat", to=next(int(h) for v, h in verbs(DATA, state) if v == "retreat"))
    assert not state.pending and state.units["de-vg"].hex != 303


def test_7_7_2_advance_is_optional() -> None:
    state = _defender_retreats_two()
    act(DATA, state, "end_advance")
    assert not state.pending and state.units["de-big"].hex == 403


# --- 7.8 Breakthrough ---------------------------------------------------------------------------------------


def test_7_8_breakthrough_marker_cancels_zoc() -> None:
    state = new_state(DATA, {"de-big": 403, "us-b": 303, "us-d": 202})
    before = zoc.enemy_zoc(Position(DATA, state), "german")
    assert 203 in before and 303 in before
    attack(DATA, state, plan(303, "de-big"), [3])  # -/2 in bold
    assert [(m.kind, m.hex, m.side) for m in state.markers] == [("breakthrough", 303, "german")]
    after = zoc.enemy_zoc(Position(DATA, state), "german")
    assert 203 not in after and 202 in after  # us-d keeps the ZoC of its own hex


# --- 1.6 Supports after use, 9.5 SNAFU, 15.4 Christmas ---------------------------------------------------


def test_1_6_1_nebelwerfer_returns_only_on_a_1() -> None:
    for face, kept in ((1, True), (2, False)):
        state = new_state(DATA, {"de-vg": 403, "hq-de-1ss": 503, "us-b": 303})
        state.units["hq-de-1ss"].supports = ["nebelwerfer"]
        events = attack(DATA, state, plan(303, "de-vg", supports=(("hq-de-1ss", "nebelwerfer"),)), [4, face])
        assert [e.data["die"] for e in events if e.kind == "roll"] == [4, face]
        assert state.returning["de-6pz"].get("nebelwerfer", 0) == (1 if kept else 0)


def test_1_6_2_allied_artillery_leaves_the_game_only_on_a_6() -> None:
    state = new_state(DATA, {"de-vg": 403, "us-b": 303, "hq-us-v": 103})
    state.units["hq-us-v"].supports = ["artillery"]
    attack(DATA, state, plan(303, "de-vg", defender_supports=(("hq-us-v", "artillery"),)), [1, 5])
    assert state.returning["us-1st"] == {"artillery": 1}


def test_9_5_cancelled_support_returns_without_a_retention_roll() -> None:
    state = new_state(DATA, {"de-vg": 403, "hq-de-1ss": 503, "us-b": 303}, c3i_snafu=True)
    state.units["hq-de-1ss"].supports = ["nebelwerfer"]
    # C3I B: a 3 calls for the SNAFU table; 2 + 2 = 4: artillery cancelled; then the combat die.
    events = attack(DATA, state, plan(303, "de-vg", supports=(("hq-de-1ss", "nebelwerfer"),)), [3, 2, 2, 4])
    assert state.rolls_made == 4  # no retention roll
    assert state.returning["de-6pz"] == {"nebelwerfer": 1}
    assert next(e for e in events if e.kind == "combat").data["column"] == "2:1"


def test_9_5_hesitation_no_advance_no_breakthrough_and_one_ap_less() -> None:
    state = new_state(DATA, {"de-big": 403, "us-b": 303}, c3i_snafu=True)
    attack(DATA, state, plan(303, "de-big"), [5, 1, 2, 3])  # SNAFU 3, then -/2 on 5:1
    assert state.units["de-big"].action_points == 1  # 3 - 1 for the attack - 1 for hesitation
    assert not state.markers
    act(DATA, state, "retreat", to=203)
    act(DATA, state, "retreat", to=next(int(h) for v, h in verbs(DATA, state) if v == "retreat"))
    assert not state.pending and state.units["de-big"].hex == 403


def test_9_5_traffic_jam_the_defender_picks_the_attacker_reduced_to_zero() -> None:
    state = new_state(DATA, {"de-big": 403, "de-vg": 403, "us-b": 303}, c3i_snafu=True)
    attack(DATA, state, plan(303, "de-big", "de-vg"), [3, 5, 6, 4])  # SNAFU 11
    prompt = combat.pending_prompt(DATA, state)
    assert prompt.seat == "allied" and {c.args["unit"] for c in prompt.choices} == {"de-big", "de-vg"}
    events = act(DATA, state, "choose_snafu_unit", unit="de-big")
    fight = next(e for e in events if e.kind == "combat")
    assert fight.data["ratio"] == "2:1"  # only de-vg's 9 against 6


def test_9_5_an_attack_by_several_formations_rolls_on_the_worst_c3i_rating() -> None:
    """[9.5] 12 VG's HQ (I SS) is rated B, 326 VG's (LXVII) C: together they roll on column C, where a 1
    calls for the SNAFU table (on column B a 1 is no SNAFU)."""
    state = new_state(DATA, {"de-vg": 403, "de-326": 403, "us-b": 303}, c3i_snafu=True)
    events = attack(DATA, state, plan(303, "de-vg", "de-326"), [1, 3, 4, 4])  # C3I 1, SNAFU 3 + 4 = 7
    check = next(e for e in events if e.kind == "roll" and e.data["purpose"].startswith("C3I check"))
    assert check.data["purpose"] == "C3I check, rating C"
    assert [e.data["roll"] for e in events if e.kind == "snafu"] == [7]
    state = new_state(DATA, {"de-vg": 403, "us-b": 303}, c3i_snafu=True)
    events = attack(DATA, state, plan(303, "de-vg"), [1, 3])  # alone on column B: the 1 calls for nothing
    assert not [e for e in events if e.kind == "snafu"] and state.rolls_made == 2


def test_15_4_christmas_reroll_the_second_roll_stands() -> None:
    state = new_state(DATA, {"de-vg": 403, "us-b": 303}, christmas_presents=True)
    state.flags["christmas_reroll"] = ["german"]
    attack(DATA, state, plan(303, "de-vg"), [1, 6])
    assert combat.pending_prompt(DATA, state).seat == "german"
    events = act(DATA, state, "reroll")
    assert next(e for e in events if e.kind == "combat").data["result"] == "1/2"
    assert state.flags["christmas_reroll"] == []


def test_7_1_attacking_a_hex_that_exerts_zoc_on_the_unit_meets_its_duty_to_attack() -> None:
    state = new_state(DATA, {"de-vg": 403, "us-b": 303})
    state.units["de-vg"].must_attack = True
    attack(DATA, state, plan(303, "de-vg"), [4])
    assert not state.units["de-vg"].must_attack
    state = new_state(DATA, {"de-vg": 403, "hq-us-v": 303, "us-b": 404})
    state.units["de-vg"].must_attack = True  # in the ZoC of us-b; an HQ exerts none beyond its hex (4.1)
    attack(DATA, state, plan(303, "de-vg"), [4])
    assert state.units["de-vg"].must_attack
