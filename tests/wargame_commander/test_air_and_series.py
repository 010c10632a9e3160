"""1.0 air, 3.0 special rules, 4.0 the phases, 5.1 scoring, and random legal play of whole series."""

from __future__ import annotations

import copy
import json
import os
import random
from typing import Any

import pytest

from engine.contract import IllegalActionError, InvalidActionError, NotYourTurnError
from engine.sealing import verify_receipt
from engine.wargame_commander import air, scoring, series, special
from engine.wargame_commander.board import Board
from engine.wargame_commander.report import ReportError, parse_report
from engine.wargame_commander.state import SeriesState, state_from_json, state_to_json
from tests.wargame_commander.conftest import SEED, act, position
from tests.wargame_commander.play import greedy_basing, play_series

SERIES_SEEDS = int(os.environ.get("UMPIRE_WC_SEEDS", "3"))
"""Whole random series played by the invariant test (raise it for a longer run)."""


def test_1_1_an_airfield_cap_cannot_be_exceeded(fresh: SeriesState, board: Board) -> None:
    plan = air.parse_basing(greedy_basing(board, "allied"))
    plan["366fg"] = {"A97": 3}  # a tac field: 2 squad steps
    with pytest.raises(IllegalActionError, match=r"1.1"):
        air.check_basing(fresh, board, "allied", plan)


def test_1_3_squads_base_all_their_steps_where_their_type_is(fresh: SeriesState, board: Board) -> None:
    plan = air.parse_basing(greedy_basing(board, "allied"))
    air.check_basing(fresh, board, "allied", plan)
    wrong = dict(plan, **{"366fg": {"B58": 3}})
    with pytest.raises(IllegalActionError, match=r"1.3.*holds none of them"):
        air.check_basing(fresh, board, "allied", wrong)
    short = dict(plan, **{"366fg": {"A92": 2}})
    with pytest.raises(IllegalActionError, match=r"1.3.*3 squad step"):
        air.check_basing(fresh, board, "allied", short)


def test_1_4_ops_area_minimums(doc: dict[str, Any], board: Board) -> None:
    strict = copy.deepcopy(doc)
    strict["basing_minimums"][0]["squad_steps"] = 40
    state = series.new_game(strict, SEED)
    with pytest.raises(IllegalActionError, match=r"1.4"):
        act(state, "allied", "basing", plan=greedy_basing(board, "allied"))


def test_1_3_basing_plans_are_sealed_until_both_are_in(fresh: SeriesState, board: Board) -> None:
    state, events = act(fresh, "allied", "basing", plan=greedy_basing(board, "allied"))
    assert state.phase == "basing" and not state.basing
    assert "content" not in series.view(state, "german")["secrets"][0]
    assert "content" in series.view(state, "allied")["secrets"][0]
    with pytest.raises(NotYourTurnError):
        act(state, "allied", "basing", plan=greedy_basing(board, "allied"))
    state, events = act(state, "german", "basing", plan=greedy_basing(board, "german"))
    assert state.phase == "offensive_corps"
    for reveal in (e for e in events if e.kind == "reveal"):
        assert verify_receipt(reveal.data["content"], reveal.data["salt"], reveal.data["receipt"])
    assert set(state.basing) == {"allied", "german"}


def test_1_5a_shot_down_steps_leave_rear_fields_never_the_8th_af(fresh: SeriesState, board: Board) -> None:
    removed = air.remove_steps(fresh, board, "allied", "P-51D", 3, rear_first=True)
    assert removed == 3
    assert fresh.fields["BODNEY"].steps["P-51D"] == 8  # 8th AF excepted
    assert fresh.fields["Y29"].steps["P-51D"] == 1
    removed = air.remove_steps(fresh, board, "allied", "P-47D", 2, rear_first=True)
    assert fresh.fields["A89"].steps["P-47D"] == 4  # a rear field first


def test_1_5b_airfield_damage_by_size_and_level(fresh: SeriesState, board: Board) -> None:
    assert air.damage_losses(fresh, board, "B78", "heavy") == {"Typhoon IB": 2, "Spitfire IX": 1, "Tempest V": 1}
    assert air.damage_losses(fresh, board, "A97", "light") == {}
    assert sum(air.damage_losses(fresh, board, "Y29", "moderate").values()) == 2


def test_1_5c_an_overrun_airfield_sends_its_steps_to_the_force_pool(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "move_german_corps", de_81=1205, de_15=1807)
    state.basing = {"allied": {"122wing": {"B78": 3}}}
    state, _ = act(state, "german", "move", unit="de-81", to="1203")
    assert state.fields["B78"].side == "german" and state.fields["B78"].steps == {}
    assert state.pool["allied"] == {"Typhoon IB": 4, "Spitfire IX": 3, "Tempest V": 3}
    assert "B78" not in state.basing["allied"]["122wing"]
    # 5.1: the Eindhoven depot is in the same hex: captured, 10 points.
    assert state.ledger[-1]["points"] == 10 and state.ledger[-1]["side"] == "german"
    with pytest.raises(IllegalActionError, match=r"1.5c"):
        air.check_redeploy(state, board, "allied", "Typhoon IB", 5, "pool", "B80")
    with pytest.raises(IllegalActionError, match=r"1.3.*at most 4"):
        air.check_redeploy(state, board, "allied", "Typhoon IB", 1, "pool", "A97")  # a full tac field
    state.fields["A97"].steps["P-47D"] = 1  # after damage: room for three (replacing lost steps)
    air.check_redeploy(state, board, "allied", "Typhoon IB", 3, "pool", "A97")
    with pytest.raises(IllegalActionError, match=r"only to a captured field"):
        air.check_redeploy(state, board, "allied", "P-47D", 1, "A92", "A97")


def test_4_2d_the_frame_report_in_csv_and_json_with_every_bad_line(board: Board) -> None:
    text = "kind,a,b,c\nshot_down,german,Bf 109G,3\nairfield,B78,heavy\ndepot,cologne\ncorps,ss-1,heavy\n"
    report = parse_report(text, board)
    assert report["shot_down"] == [{"side": "german", "type": "Bf 109G", "count": 3}]
    as_json = json.dumps(
        {
            "shot_down": [{"side": "german", "type": "Bf 109G", "count": 3}],
            "airfields": [{"airfield": "B78", "damage": "heavy"}],
            "depots": ["cologne"],
            "corps": [{"unit": "ss-1", "damage": "heavy"}],
        }
    )
    assert parse_report(as_json, board) == report
    bad = "shot_down,german,Spitfire IX,2\nairfield,B99,heavy\ncorps,pz-6,damage\nflak,3\npilot,Hans,x,0,0\n"
    with pytest.raises(ReportError) as caught:
        parse_report(bad, board)
    assert len(caught.value.problems) == 5
    assert caught.value.problems[0].startswith("line 1: no german aircraft type 'Spitfire IX'")
    assert "Army HQs cannot be attacked from the air, 1.6a" in caught.value.problems[2]


def test_4_2d_a_disputed_report_is_corrected_then_applied_and_scored(fresh: SeriesState) -> None:
    state = position(fresh, "report", frame=1, us_1=807, us_7=907, de_15=1809, de_81=1707)
    with pytest.raises(NotYourTurnError):
        act(state, "allied", "report", text="depot,cologne")
    state, _ = act(state, "cm", "report", text="depot,cologne\nshot_down,german,Ju 88A,1")
    state, _ = act(state, "german", "dispute", reason="Cologne was never hit")
    state, _ = act(state, "allied", "accept")
    assert state.phase == "dispute"
    state, _ = act(state, "cm", "correct", text="shot_down,german,Ju 88A,1")
    state, _ = act(state, "allied", "accept")
    state, _ = act(state, "german", "accept")
    assert state.phase == "designate" and state.frame == 2
    assert [(line["side"], line["points"], line["rule"]) for line in state.ledger] == [("allied", 4.0, "5.1")]
    assert state.reports[0]["report"]["depots"] == []


def test_3_1_weather_bars_heavies_in_frames_1_to_3() -> None:
    assert "no heavy bombers" in special.weather(3)
    assert "heavy bombers may fly" in special.weather(4)


def test_3_3_bodenplatte_or_the_big_blow_once_in_their_frames(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "declare", frame=3)
    assert special.declarable(state, board) == ["bodenplatte"]
    with pytest.raises(IllegalActionError, match=r"3.3c"):
        special.check_declaration(state, board, "bigblow")
    state.frame = 4
    state.pilots = {
        "A": {"kills": 5, "assists": 0, "losses": 0},
        "B": {"kills": 5, "assists": 1, "losses": 2},
        "C": {"kills": 1, "assists": 0, "losses": 0},
        "D": {"kills": 0, "assists": 9, "losses": 0},
        "E": {"kills": 0, "assists": 9, "losses": 1},
    }
    state, events = act(state, "german", "declare", operation="bigblow")
    assert state.declaration == {"operation": "bigblow", "frame": 4}
    assert special.top_pilots(state) == ["B", "A", "C", "D"]
    assert "B, A, C, D" in events[0].text and "Cologne" in events[0].text
    state.phase = "declare"
    assert special.declarable(state, board) == []
    with pytest.raises(IllegalActionError, match=r"3.3a"):
        special.check_declaration(state, board, "bodenplatte")


def test_3_4a_only_panzer_and_ss_corps_blitz_once_per_series(fresh: SeriesState) -> None:
    state = position(fresh, "blitz", pz_5=1713, pz_58=1613, de_66=1612, ss_1=1611, pz_6=1810)
    with pytest.raises(IllegalActionError, match=r"3.4a"):
        act(state, "german", "blitz", units="de-66")
    state, _ = act(state, "german", "blitz", units="pz-58")
    assert state.units["pz-58"].blitz_active and state.phase == "move_german_corps"
    state.phase = "blitz"
    with pytest.raises(IllegalActionError, match=r"4.2l"):
        act(state, "german", "blitz", units="pz-58")


def test_3_4b_c_a_blitz_corps_ignores_army_control_and_must_attack(fresh: SeriesState, board: Board) -> None:
    from engine.wargame_commander import combat, ground

    state = position(fresh, "designate", pz_5=210, pz_58=1007, us_7=907, us_5=1008, us_1=807)
    assert not ground.in_army_control(state, board, "pz-58")
    state.units["pz-58"].blitz_active = True
    assert ground.in_army_control(state, board, "pz-58")
    with pytest.raises(IllegalActionError, match=r"3.4c"):
        combat.check_designation(state, board, "german", [])
    combat.check_designation(state, board, "german", [("us-7", ("pz-58",))])  # 4 to 4 or worse: allowed


def test_3_4d_a_blitz_corps_forced_to_retreat_loses_a_cs_for_good(fresh: SeriesState) -> None:
    for salt in range(60):
        state = position(
            copy.deepcopy(fresh),
            "designate",
            pz_5=1809,
            pz_58=1707,
            us_7=1608,
            us_5=1607,
            us_13=1606,
            us_1=1410,
            de_15=2007,
        )
        state.seed = (bytes([salt]) * 32).hex()
        state.units["pz-58"].blitz_active = True
        state, _ = act(state, "allied", "designate", battles="")
        state, _ = act(state, "german", "designate", battles="us-7:pz-58")
        if state.battles[0]["result"].startswith("A"):
            assert state.units["pz-58"].lost == (1 if state.battles[0]["result"][1:].isdigit() else 0)
            if state.units["pz-58"].lost:
                return
    pytest.fail("no seed gave the Blitz corps a retreat")


def test_5_1_bands_and_the_ledger_sum(fresh: SeriesState, board: Board) -> None:
    assert [scoring.band(board, d) for d in (0, 10.5, 11, 20, 21, 31, 80)] == [
        "draw",
        "draw",
        "minor victory",
        "minor victory",
        "victory",
        "major victory",
        "major victory",
    ]
    scoring.score(fresh, "allied", 4, "5.1", "test", "a bomber step")
    scoring.score(fresh, "german", 0.5, "5.1", "test", "a fighter on the ground")
    assert scoring.totals(fresh, board) == {"allied": 4.0, "german": 0.5}
    assert [line["n"] for line in fresh.ledger] == [1, 2]


def test_5_1_the_result_names_the_difference_its_band_and_the_side_ahead(fresh: SeriesState, board: Board) -> None:
    first, second = board.sides
    line = scoring.score(fresh, first, 5, "5.1", "test", "a bomber step")
    assert line == {
        "n": 1,
        "frame": fresh.frame,
        "phase": fresh.phase,
        "side": first,
        "points": 5,
        "rule": "5.1",
        "source": "test",
        "text": "a bomber step",
    }
    scoring.score(fresh, second, 5, "5.1", "test", "a fighter step")
    names = f"{first.title()} 5, {second.title()} 5"
    assert scoring.final_result(fresh, board) == (None, f"{names}: difference 0, a draw (5.1)")
    scoring.score(fresh, second, 17, "5.1", "test", "a depot")
    ahead = f"{first.title()} 5, {second.title()} 22: difference 17, a minor victory for the {second.title()} side"
    ahead += " (5.1)"
    assert scoring.final_result(fresh, board) == (second, ahead)
    scoring.score(fresh, first, 40, "5.1", "test", "a breakthrough")
    assert scoring.final_result(fresh, board)[0] == first


def test_4_0_whole_series_of_random_legal_play_keep_their_invariants(doc: dict[str, Any]) -> None:
    for seed in range(SERIES_SEEDS):
        state = series.new_game(doc, bytes([seed + 1]) * 32)
        state, events = play_series(state, random.Random(seed))
        assert state.phase == "over"
        result = series.result(state)
        assert result is not None and "5.1" in result.text
        assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state
        phases = [e.data["phase"] for e in events if e.kind == "phase"]
        assert phases.index("offensive_corps") < phases.index("offensive_hq") < phases.index("report")
        frame_two = phases[phases.index("designate") :]
        order = [
            "designate",
            "move_allied_corps",
            "blitz",
            "move_german_corps",
            "move_allied_hq",
            "move_german_hq",
            "redeploy",
            "declare",
            "report",
        ]
        assert [p for p in frame_two[: frame_two.index("report") + 1] if p in order] == order
        # W-29: no side scores before it can act: no Allied frontline break is scored after the Offensive.
        assert not [x for x in state.ledger if x["source"] == "frontline allied" and x["frame"] == 1]
        # 4.2i: every receipt opens with the salt its reveal published (engine.sealing).
        reveals = {e.data["secret"]: e.data for e in events if e.kind == "reveal"}
        for secret in state.secrets:
            assert verify_receipt(secret["content"], reveals[secret["id"]]["salt"], secret["receipt"])


def test_unknown_verbs_and_junk_arguments_are_refused_clearly(fresh: SeriesState) -> None:
    with pytest.raises(InvalidActionError, match=r"unknown action"):
        act(fresh, "allied", "fly")
    with pytest.raises(InvalidActionError, match=r"1.3"):
        act(fresh, "allied", "basing", plan="366fg A92 3")


def test_3_4d_a_blitz_corps_out_of_army_control_at_its_next_movement_phase_loses_a_cs(fresh: SeriesState) -> None:
    # pz-58 Blitzed last frame (its Blitz effects ended with the breakthrough movement) and now stands six
    # hexes from its Army HQ when the German corps movement phase begins.
    state = position(fresh, "blitz", pz_5=1713, pz_58=1107, us_1=807)
    state.units["pz-58"].blitz_used = state.units["pz-58"].blitz_check = True
    state, events = act(state, "german", "blitz", units="")
    assert state.phase == "move_german_corps"
    assert state.units["pz-58"].lost == 1 and not state.units["pz-58"].blitz_check
    assert any(e.kind == "blitz_loss" and "3.4d" in e.text for e in events)
    # In Army Control at that moment: no loss.
    state = position(fresh, "blitz", pz_5=1713, pz_58=1612, us_1=807)
    state.units["pz-58"].blitz_used = state.units["pz-58"].blitz_check = True
    state, events = act(state, "german", "blitz", units="")
    assert state.units["pz-58"].lost == 0 and not any(e.kind == "blitz_loss" for e in events)


def test_4_2h_isolated_and_out_of_army_control_units_are_named_after_the_report(fresh: SeriesState) -> None:
    state = position(fresh, "report", frame=2, us_1=807, us_7=1507, us_5=908, de_15=1806, de_81=1707, de_74=1107)
    state, _ = act(state, "cm", "report", text="radar,verviers")
    state, _ = act(state, "allied", "accept")
    state, events = act(state, "german", "accept")
    control = [e for e in events if e.kind == "army_control"]
    assert len(control) == 1 and "4.2h" in control[0].text
    assert sorted(control[0].data["units"]) == ["de-74", "us-7"]
    assert state.phase == "designate" and state.frame == 3


def test_1_6a_a_radar_hit_only_costs_that_frames_coverage(fresh: SeriesState) -> None:
    state = position(fresh, "report", frame=2, us_1=807, us_7=907, de_15=1806, de_81=1707)
    before = copy.deepcopy(state.ledger)
    state, _ = act(state, "cm", "report", text="radar,verviers")
    state, _ = act(state, "allied", "accept")
    state, _ = act(state, "german", "accept")
    assert state.radar_lost == ["verviers"] and state.ledger == before
    assert series.view(state, None)["radar_lost"] == ["verviers"]


def test_5_1_frontline_breaks_remaining_after_movement_score_two_each(fresh: SeriesState, board: Board) -> None:
    from engine.wargame_commander import ground

    state = position(fresh, "move_german_hq", frame=2, us_1=807, us_7=907, de_15=1806, de_81=1707)
    german_breaks, _ = ground.frontline_breaks(state, board, "german")
    allied_breaks, _ = ground.frontline_breaks(state, board, "allied")
    # Before the last movement phase the check is made but nothing is scored.
    early = position(copy.deepcopy(fresh), "move_allied_hq", frame=2, us_1=807, us_7=907, de_15=1806, de_81=1707)
    early, _ = act(early, "allied", "done")
    assert early.ledger == []
    state, _ = act(state, "german", "done")
    assert state.phase == "redeploy"
    points = {line["side"]: line["points"] for line in state.ledger}
    assert points == {"german": 2.0 * allied_breaks, "allied": 2.0 * german_breaks}
    assert all(line["rule"] == "5.1" for line in state.ledger)


def test_4_2d_the_frame_report_as_a_form_with_every_bad_line_by_field(board: Board) -> None:
    from engine.wargame_commander.report import form_values, parse_form, report_csv

    fields = {
        "shot_down": "german, Bf 109G, 3\nallied, P-47D, 1",
        "airfields": "Y29, moderate\nB78, closed",
        "targets": "cologne, verviers",
        "corps": "us-8, damage",
        "pilots": "Hartmann, 4, 1, 0",
    }
    report = parse_form(fields, board)
    assert report["closed"] == ["B78"] and report["depots"] == ["cologne"] and report["radar"] == ["verviers"]
    assert parse_report(report_csv(report), board) == report
    assert parse_form(form_values(report), board) == report
    bad = dict(fields, shot_down="german, Spitfire IX, 2", airfields="\n\nBASSINGBOURN, heavy", targets="paris")
    with pytest.raises(ReportError) as caught:
        parse_form(bad, board)
    assert caught.value.problems[0].startswith("Aircraft shot down, line 1: no german aircraft type 'Spitfire IX'")
    assert caught.value.problems[1].startswith("Airfields damaged or closed, line 3: Bassingbourn (8th AF)")
    assert caught.value.problems[2] == "Depots damaged, radar sites hit, line 1: no supply depot 'paris'"


def test_5_1_the_start_position_has_no_frontline_break(fresh: SeriesState, board: Board) -> None:
    """W-29: no side scores from the start position, before the other can act."""
    from engine.wargame_commander import ground

    for side in board.sides:
        assert ground.frontline_breaks(fresh, board, side) == (0, []), side


def test_2_31_allied_breaks_after_the_offensive_score_only_once_the_allies_have_moved(
    fresh: SeriesState, board: Board
) -> None:
    """W-29: after the Offensive (the Allies could not move, 2.31, 3.2) only the German frontline is scored."""
    from engine.wargame_commander import ground

    state = copy.deepcopy(fresh)
    state.units["us-3c"].hex = 1416  # the Allied frontline opens at 1514
    state.phase = "offensive_hq"
    assert ground.frontline_breaks(state, board, "allied")[0] == 1
    state, events = act(state, "german", "done")
    assert state.ledger == [] and any(e.kind == "frontline" and e.data["side"] == "allied" for e in events)
    later = position(copy.deepcopy(fresh), "move_german_hq", frame=2)
    for unit_id, unit in fresh.units.items():
        later.units[unit_id].hex = unit.hex
    later.units["us-3c"].hex = 1416
    later, _ = act(later, "german", "done")
    assert [(line["side"], line["points"]) for line in later.ledger] == [("german", 2.0)]


def test_3_1_no_heavy_bomber_is_shot_down_under_the_overcast_of_frames_1_to_3(fresh: SeriesState) -> None:
    state = position(fresh, "report", frame=2, us_1=807, us_7=907, de_15=1806, de_81=1707)
    prompt = series.prompts(state)["cm"]
    assert "Not checked by the bot" in prompt.text and "3.5b" in prompt.text
    with pytest.raises(IllegalActionError, match=r"3\.1, 3\.5a: frame 2 .* B-17G shot down"):
        act(copy.deepcopy(state), "cm", "report", text="shot_down,allied,B-17G,2")
    later = position(copy.deepcopy(fresh), "report", frame=4, us_1=807, us_7=907, de_15=1806, de_81=1707)
    later, _ = act(later, "cm", "report", text="shot_down,allied,B-17G,2")
    assert later.phase == "dispute"


def test_2_41_corps_damage_is_said_once(fresh: SeriesState) -> None:
    """The report's summary and its application say "damaged" / "heavily damaged", never "damage damage"."""
    state = position(fresh, "report", frame=2, us_1=807, us_8=1512, us_7=907, de_15=1806, de_81=1707)
    state, events = act(state, "cm", "report", text="corps,us-8,damage\ncorps,us-7,heavy")
    state, _ = act(state, "allied", "accept")
    state, applied = act(state, "german", "accept")
    texts = [e.text for e in [*events, *applied]]
    assert any("VIII US Corps damaged" in t for t in texts), texts
    assert any("heavily damaged from tac air" in t for t in texts), texts
    assert not any("damage damage" in t or "heavy damage," in t for t in texts)
