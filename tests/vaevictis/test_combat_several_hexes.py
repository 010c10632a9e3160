"""[7.2] One attack on several adjacent enemy hexes: odds, refusals, losses, retreats, advances, breakthrough.

Built on the combat fixtures (tests/vaevictis/combat_setups.py): the mini map, dice pinned by seed.
Around 0403: 0303 and 0404 clear, 0302 rough, 0402 forest; 0403|0503 is a bridged river, 0404|0504 an
unbridged one. de-big (30, q3) at 0403 against us-b (6) at 0303 and us-d (6) at 0404 is 30:12, 3:1: die 1
2/1, 2 1/1, 3-4 -/1, 5 1/2, 6 -/2 in bold.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.contract import IllegalActionError, InvalidActionError
from engine.vaevictis import combat
from engine.vaevictis.odds import AttackPlan, assess, preview
from engine.vaevictis.state import GameState
from tests.vaevictis.combat_setups import act, attack, mini_game, new_state, verbs
from tests.vaevictis.gameplay import Table

DATA = mini_game()

TWO_HEXES = {"de-big": 403, "us-b": 303, "us-d": 404}
"""de-big at 0403 is adjacent to both us-b (0303) and us-d (0404)."""


def plan(targets: tuple[int, ...], *attackers: str, side: str = "german", **kw: Any) -> AttackPlan:
    return AttackPlan(side, kw.pop("kind", "normal"), tuple(attackers), targets, **kw)  # type: ignore[arg-type]


def refusal(state: GameState, attack_plan: AttackPlan) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        assess(DATA, state, attack_plan)
    return caught.value


def retreats(state: GameState) -> set[tuple[str, int]]:
    """The retreat choices as (units, hex)."""
    prompt = combat.pending_prompt(DATA, state)
    return {(str(c.args["units"]), int(str(c.args["to"]))) for c in prompt.choices if c.verb == "retreat"}


def advances(state: GameState) -> set[tuple[str, int]]:
    """The advance choices as (units, hex)."""
    prompt = combat.pending_prompt(DATA, state)
    return {(str(c.args["units"]), int(str(c.args["to"]))) for c in prompt.choices if c.verb == "advance"}


def group_of(state: GameState, unit: str) -> dict[str, Any]:
    groups: list[dict[str, Any]] = state.pending[-1]["defender"]["groups"]
    return next(g for g in groups if unit in g["units"])


# --- 7.2 The odds -------------------------------------------------------------------------------------------


def test_7_2_one_attack_on_two_hexes_sums_both_defences() -> None:
    state = new_state(DATA, TWO_HEXES)
    assessment = assess(DATA, state, plan((303, 404), "de-big"))
    assert assessment.defenders == ("us-b", "us-d")
    assert (assessment.attack_total, assessment.defence_total, assessment.ratio) == (30, 12, "3:1")
    alone = assess(DATA, state, plan((303,), "de-big"))
    assert (alone.defenders, alone.defence_total, alone.ratio) == (("us-b",), 6, "5:1")


def test_7_2_the_preview_shows_the_target_hexes_and_whose_terrain_was_used() -> None:
    state = new_state(DATA, {"de-big": 403, "us-b": 303, "us-d": 402})
    lines = preview(DATA, state, plan((303, 402), "de-big")).lines()
    assert lines[0] == "Normal attack on 0303, 0402"
    assert lines[1].startswith("Terrain of 0402 used")
    assert "us-b at 0303 6" in lines[3] and "us-d at 0402 6" in lines[3]


def test_7_4_the_terrain_most_favourable_to_the_defender_is_used() -> None:
    state = new_state(DATA, {"de-big": 403, "us-b": 303, "us-d": 402})
    for targets in ((303, 402), (402, 303)):
        assessment = assess(DATA, state, plan(targets, "de-big"))
        assert assessment.terrain_hex == 402
        assert {m.reason: m.amount for m in assessment.shifts} == {"defender in forest": -1}
    # Forest (0402) and rough (0302) shift alike: the first declared is named.
    state = new_state(DATA, {"de-big": 403, "us-b": 302, "us-d": 402})
    assert assess(DATA, state, plan((302, 402), "de-big")).terrain_hex == 302
    assert assess(DATA, state, plan((402, 302), "de-big")).terrain_hex == 402


def test_7_4_the_westwall_counts_in_the_hex_whose_terrain_is_used() -> None:
    # 0803 is Westwall, 0804 clear; the Allies attack both from 0703.
    state = new_state(DATA, {"us-2-id": 703, "de-vg": 803, "de-326": 804})
    assessment = assess(DATA, state, plan((804, 803), "us-2-id", side="allied"))
    assert assessment.terrain_hex == 803
    assert {m.reason for m in assessment.shifts} == {"German defender in the Westwall"}


def test_12_2_improved_positions_only_when_every_defender_of_every_hex_is_in_them() -> None:
    state = new_state(DATA, TWO_HEXES)
    state.units["us-b"].improved_position = True
    reasons = {m.reason for m in assess(DATA, state, plan((303, 404), "de-big")).shifts}
    assert "every defender in Improved Positions" not in reasons
    state.units["us-d"].improved_position = True
    reasons = {m.reason for m in assess(DATA, state, plan((303, 404), "de-big")).shifts}
    assert "every defender in Improved Positions" in reasons


def test_0_2_an_attacker_across_a_bridge_from_one_target_is_halved_whole() -> None:
    # de-vg (9) at 0503 attacks 0403 across the bridge and 0404 across no river: halved once, 9 / 2 = 5.
    state = new_state(DATA, {"de-vg": 503, "us-b": 403, "us-c": 404})
    assessment = assess(DATA, state, plan((403, 404), "de-vg"))
    (detail,) = assessment.attackers_detail
    assert detail.halvings == ("attacking across a bridge (0.2)",) and assessment.attack_total == 5


def test_0_2_only_infantry_attacks_a_group_of_hexes_one_of_which_is_across_an_unbridged_river() -> None:
    # 0504 touches 0404 across the unbridged river and 0405 across none.
    state = new_state(DATA, {"de-peiper": 504, "us-b": 404, "us-c": 405})
    assert refusal(state, plan((404, 405), "de-peiper")).rule == "0.2"
    assess(DATA, state, plan((405,), "de-peiper"))  # the tank may attack the other hex alone
    state = new_state(DATA, {"de-vg": 504, "us-b": 404, "us-c": 405})
    assert assess(DATA, state, plan((404, 405), "de-vg")).attackers_detail[0].halvings == (
        "attacking across a river (0.2)",
    )


# --- 7.1, 7.3.1 Refusals ------------------------------------------------------------------------------------


def test_7_1_a_unit_adjacent_to_no_target_hex_is_refused() -> None:
    state = new_state(DATA, {**TWO_HEXES, "de-vg": 603})
    error = refusal(state, plan((303, 404), "de-big", "de-vg", kind="prepared"))
    assert error.rule == "7.1" and "de-vg" in error.reason and "any of the target hexes" in error.reason


def test_7_1_a_target_hex_no_attacker_touches_is_refused() -> None:
    state = new_state(DATA, {"de-big": 403, "us-b": 303, "us-d": 305})
    error = refusal(state, plan((303, 305), "de-big"))
    assert error.rule == "7.1" and "0305" in error.reason


def test_7_1_a_target_hex_without_enemy_units_is_refused() -> None:
    state = new_state(DATA, {"de-big": 403, "us-b": 303})
    error = refusal(state, plan((303, 404), "de-big"))
    assert error.rule == "7.1" and "0404 holds no enemy unit" in error.reason
    state = new_state(DATA, {"de-big": 403, "us-b": 303, "de-vg": 404})
    assert refusal(state, plan((303, 404), "de-big")).rule == "7.1"  # a friendly hex is no target


def test_7_3_1_a_normal_attack_on_several_hexes_is_still_made_from_one_hex() -> None:
    state = new_state(DATA, {**TWO_HEXES, "de-vg": 503})
    assert refusal(state, plan((303, 404), "de-big", "de-vg")).rule == "7.3.1"
    prepared = assess(DATA, state, plan((303, 404), "de-big", "de-vg", kind="prepared"))
    assert prepared.attacker_hexes == (403, 503) and prepared.attack_total == 39


# --- 7.6 Losses -----------------------------------------------------------------------------------------------


def test_7_6_the_defender_spreads_the_losses_over_both_hexes() -> None:
    state = new_state(DATA, TWO_HEXES)
    attack(DATA, state, plan((303, 404), "de-big"), [6])  # -/2
    assert state.pending[-1]["defenders"] == ["us-b", "us-d"]
    losses = {v for v in verbs(DATA, state) if v[0] == "take_loss"}
    assert losses == {("take_loss", "us-b")}  # the unit whose quality was used first (7.4)
    act(DATA, state, "take_loss", unit="us-b")
    losses = {v for v in verbs(DATA, state) if v[0] == "take_loss"}
    assert losses == {("take_loss", "us-b"), ("take_loss", "us-d")}  # then the owner chooses
    act(DATA, state, "take_loss", unit="us-d")
    assert (state.units["us-b"].steps, state.units["us-d"].steps) == (1, 1)
    assert not state.pending  # both hexes held: no advance


def test_7_6_the_quality_unit_may_come_from_either_hex() -> None:
    state = new_state(DATA, TWO_HEXES)
    attack(DATA, state, plan((303, 404), "de-big", defender_quality="us-d"), [3])  # -/1
    assert {v for v in verbs(DATA, state) if v[0] == "take_loss"} == {("take_loss", "us-d")}


def test_7_6_e_eliminates_every_defender_of_every_hex() -> None:
    state = new_state(DATA, {"de-big": 403, "de-hansen": 403, "us-c": 303, "hq-us-v": 404})
    # 37 against 3 + 1 reads 8:1+; quality 5 - 3 = +2; die 6: row 8, -/E.
    attack(DATA, state, plan((303, 404), "de-big", "de-hansen", defender_quality="us-c"), [6])
    assert state.pending[-1]["result"]["text"] == "-/E"
    assert state.units["us-c"].eliminated and state.units["hq-us-v"].eliminated
    assert {h for _, h in advances(state)} == {303, 404}


def test_1_3_an_hq_alone_in_its_target_hex_may_lend_its_quality() -> None:
    state = new_state(DATA, {"de-big": 403, "us-c": 303, "hq-us-v": 404})
    assert assess(DATA, state, plan((303, 404), "de-big")).defender_quality == "hq-us-v"  # 4 beats 3
    state = new_state(DATA, {"de-big": 403, "us-c": 404, "hq-us-v": 404, "us-b": 303})
    assert assess(DATA, state, plan((303, 404), "de-big")).defender_quality != "hq-us-v"
    assert refusal(state, plan((303, 404), "de-big", defender_quality="hq-us-v")).rule == "1.3"


# --- 7.7.1 Retreats -------------------------------------------------------------------------------------------


def test_7_7_1_each_stack_retreats_from_its_own_hex_the_same_number_of_hexes() -> None:
    state = new_state(DATA, TWO_HEXES)
    attack(DATA, state, plan((303, 404), "de-big"), [6])  # -/2
    first = retreats(state)
    assert {units for units, _ in first} == {"us-b", "us-d"}  # one choice list per hex
    b_hex = min(h for units, h in first if units == "us-b")
    act(DATA, state, "retreat", to=b_hex, units="us-b")
    b_next = min(h for units, h in retreats(state) if units == "us-b")
    act(DATA, state, "retreat", to=b_next, units="us-b")
    assert len(group_of(state, "us-b")["path"]) == 3
    assert {units for units, _ in retreats(state)} == {"us-d"}  # us-b is done; us-d owes two hexes too
    assert combat.pending_prompt(DATA, state).seat == "allied"
    for _ in range(2):
        act(DATA, state, "retreat", to=min(h for _, h in retreats(state)), units="us-d")
    assert [len(g["path"]) - 1 for g in state.pending[-1]["defender"]["groups"]] == [2, 2]
    assert state.pending[-1]["defender"]["groups"][0]["path"][0] == 303
    assert state.pending[-1]["defender"]["groups"][1]["path"][0] == 404
    assert combat.pending_prompt(DATA, state).seat == "german"  # the advance


def test_7_7_1_a_retreat_named_without_units_moves_the_stack_that_may_enter_the_hex() -> None:
    state = new_state(DATA, TWO_HEXES)
    attack(DATA, state, plan((303, 404), "de-big"), [3])  # -/1
    only_d = {h for units, h in retreats(state) if units == "us-d"} - {
        h for units, h in retreats(state) if units == "us-b"
    }
    assert only_d
    act(DATA, state, "retreat", to=min(only_d))
    assert state.units["us-d"].hex == min(only_d) and state.units["us-b"].hex == 303


# --- 7.7.2 Advances, 7.8 Breakthrough -----------------------------------------------------------------------


def _both_retreat_one() -> GameState:
    state = new_state(DATA, {"de-big": 403, "de-vg": 403, "us-b": 303, "us-d": 404})
    attack(DATA, state, plan((303, 404), "de-big", "de-vg"), [3])  # 39:12 = 3:1, -/1
    assert state.pending[-1]["result"]["text"] == "-/1"
    act(DATA, state, "retreat", to=min(h for units, h in retreats(state) if units == "us-b"), units="us-b")
    act(DATA, state, "retreat", to=min(h for units, h in retreats(state) if units == "us-d"), units="us-d")
    return state


@pytest.mark.parametrize("into", [303, 404])
def test_7_7_2_the_attacker_may_advance_into_either_vacated_hex(into: int) -> None:
    state = _both_retreat_one()
    assert combat.pending_prompt(DATA, state).seat == "german"
    assert {h for _, h in advances(state)} == {303, 404}
    act(DATA, state, "advance", to=into, units="de-big")
    assert state.units["de-big"].hex == into
    other = 404 if into == 303 else 303
    assert ("de-vg", other) in advances(state)  # de-vg may still take the other hex
    act(DATA, state, "advance", to=other, units="de-vg")
    assert state.units["de-vg"].hex == other and not state.pending


@pytest.mark.parametrize(("into", "stack"), [(303, "us-b"), (404, "us-d")])
def test_7_7_2_the_advance_follows_the_retreat_path_of_the_hex_entered(into: int, stack: str) -> None:
    state = new_state(DATA, TWO_HEXES)
    attack(DATA, state, plan((303, 404), "de-big"), [6])  # -/2
    for unit in ("us-b", "us-b", "us-d", "us-d"):
        act(DATA, state, "retreat", to=min(h for units, h in retreats(state) if units == unit), units=unit)
    path = group_of(state, stack)["path"]
    assert path[0] == into and group_of(state, "us-b")["path"][1] != group_of(state, "us-d")["path"][1]
    act(DATA, state, "advance", to=into)
    assert advances(state) == {("de-big", path[1])}  # the infantry follows that hex's stack, not the other


def test_7_8_a_bold_result_marks_each_target_hex() -> None:
    state = new_state(DATA, TWO_HEXES)
    attack(DATA, state, plan((303, 404), "de-big"), [6])  # -/2 in bold
    assert sorted((m.kind, m.hex) for m in state.markers) == [("breakthrough", 303), ("breakthrough", 404)]


# --- The plan --------------------------------------------------------------------------------------------------


def test_the_plan_round_trips_and_reads_old_one_hex_plans() -> None:
    several = plan((303, 404), "de-big")
    assert AttackPlan.from_json(several.to_json()) == several
    assert several.to_json()["target"] == 303 and several.target == 303
    old = {key: value for key, value in plan((303,), "de-big").to_json().items() if key != "targets"}
    assert AttackPlan.from_json(old).targets == (303,)
    assert AttackPlan("german", "normal", ("de-big",), 303).targets == (303,)  # type: ignore[arg-type]
    assert plan((303, 404, 303), "de-big").targets == (303, 404)


def test_the_attack_command_reads_one_hex_or_a_comma_separated_list() -> None:
    table = Table()
    read = table.game.attack_plan
    assert read(table.state, "german", {"attackers": "de-peiper", "target": "0303"}).targets == (303,)
    assert read(table.state, "german", {"attackers": "de-peiper", "target": "0303, 0404"}).targets == (303, 404)
    with pytest.raises(InvalidActionError):
        read(table.state, "german", {"attackers": "de-peiper", "target": "0303,moon"})


def test_a_single_hex_attack_records_one_target() -> None:
    state = new_state(DATA, {"de-vg": 403, "us-b": 303})
    events = attack(DATA, state, plan((303,), "de-vg"), [4])
    fight = next(e for e in events if e.kind == "combat")
    assert fight.data["target"] == 303 and fight.data["targets"] == [303]
    assert fight.text.startswith("Combat at 0303:")
