"""1.4, 3.3b: the Allied basing The Big Blow and Bodenplatte force for their frame; 1.5d closed fields and the
8th AF's exceptions; the frame report's limits on the 8th AF fields in England."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.contract import IllegalActionError
from engine.wargame_commander import air
from engine.wargame_commander.board import Board, BoardError, parse_board
from engine.wargame_commander.report import ReportError, parse_report
from engine.wargame_commander.state import SeriesState
from tests.wargame_commander.conftest import act, position
from tests.wargame_commander.play import greedy_basing

ENGLAND_HEAVIES = (
    "122wing@MOLESWORTH=3,121wing@POLEBROOK=3,2group@MOLESWORTH=2,366fg@DEENETHORPE=3,367fg@BASSINGBOURN=2"
)
"""The five Allied strike and bomber squads still on the mainland, at 8th AF heavy bomber fields."""


def _declared(state: SeriesState, board: Board, frame: int, operation: str) -> SeriesState:
    state = position(state, "declare", frame=frame)
    state.basing = {side: air.parse_basing(greedy_basing(board, side)) for side in board.sides}
    state, _ = act(state, "german", "declare", operation=operation)
    return state


def _accept_report(state: SeriesState, text: str = "radar,verviers") -> SeriesState:
    state, _ = act(state, "cm", "report", text=text)
    state, _ = act(state, "allied", "accept")
    state, _ = act(state, "german", "accept")
    return state


def test_1_4_the_big_blow_bases_every_allied_strike_and_bomber_squad_in_england(
    fresh: SeriesState, board: Board
) -> None:
    home = air.parse_basing(greedy_basing(board, "allied"))
    state = _declared(fresh, board, 4, "bigblow")
    assert state.phase == "operation_basing"
    # A strike squad left on the mainland.
    with pytest.raises(IllegalActionError, match=r"1.4: in The Big Blow every strike and bomber squad"):
        act(state, "allied", "basing", plan=ENGLAND_HEAVIES.replace("366fg@DEENETHORPE=3", "366fg@A92=3"))
    # In England, but at the P-51 field: they must fly heavies.
    with pytest.raises(IllegalActionError, match=r"1.4: .*Bodney \(8th AF\) holds none of them"):
        act(state, "allied", "basing", plan=ENGLAND_HEAVIES.replace("366fg@DEENETHORPE=3", "366fg@BODNEY=3"))
    # Caps still hold (1.1): Molesworth takes five squad steps.
    with pytest.raises(IllegalActionError, match=r"1.1"):
        act(state, "allied", "basing", plan=ENGLAND_HEAVIES.replace("366fg@DEENETHORPE=3", "366fg@MOLESWORTH=3"))
    state, _ = act(state, "allied", "basing", plan=ENGLAND_HEAVIES)
    assert state.phase == "report"
    assert state.basing["allied"]["366fg"] == {"DEENETHORPE": 3}
    assert state.basing["allied"]["126wing"] == home["126wing"]  # fighters stay where they were
    # The frame is flown and reported: every squad is back at its home field.
    state = _accept_report(state)
    assert state.basing["allied"] == home and state.home_basing is None


def test_1_4_only_a_big_blow_makes_the_allies_base_in_the_8th_af(doc: dict[str, Any], board: Board) -> None:
    from engine.wargame_commander import series
    from tests.wargame_commander.conftest import SEED

    state = _declared(series.new_game(doc, SEED), board, 4, "none")
    assert state.phase == "report" and state.home_basing is None
    # In a Big Blow the 2 TAF / 9th TAF minimum yields to the heavies (reading W-24): with a minimum of 6, the
    # two fighter squads left on the mainland (5 squad steps) pass in the Big Blow's frame and in no other.
    strict = copy.deepcopy(doc)
    strict["basing_minimums"][0]["squad_steps"] = 6
    strict_board = parse_board(strict)
    state = _declared(series.new_game(strict, SEED), strict_board, 4, "bigblow")
    state, _ = act(state, "allied", "basing", plan=ENGLAND_HEAVIES)
    assert state.phase == "report"
    with pytest.raises(IllegalActionError, match=r"1.4: at least 6 squad steps .* the plan has 5"):
        air.check_basing(state, strict_board, "allied", state.basing["allied"])


def test_3_3b_bodenplatte_bases_every_allied_squad_on_the_mainland(fresh: SeriesState, board: Board) -> None:
    home = air.parse_basing(greedy_basing(board, "allied"))
    state = _declared(fresh, board, 2, "bodenplatte")
    assert state.phase == "operation_basing" and home["91bg"] == {"BASSINGBOURN": 2}
    with pytest.raises(IllegalActionError, match=r"3.3b: in Bodenplatte every Allied squad is based on the mainland"):
        act(state, "allied", "basing", plan="91bg@BASSINGBOURN=2")
    with pytest.raises(IllegalActionError, match=r"1.1: 91st Bomb Group \(8th AF\) may not stand down"):
        act(state, "allied", "basing", plan="91bg@none=2")
    # The heavy bomber squad comes to the mainland field whose types its role flies (reading W-25).
    state, _ = act(state, "allied", "basing", plan="91bg@B58=2")
    assert state.phase == "report" and state.basing["allied"]["91bg"] == {"B58": 2}
    state = _accept_report(state)
    assert state.basing["allied"] == home


def test_3_3b_bodenplatte_with_every_allied_squad_already_on_the_mainland_asks_nothing(
    fresh: SeriesState, board: Board
) -> None:
    state = position(fresh, "declare", frame=3)
    plan = air.parse_basing(greedy_basing(board, "allied"))
    plan["91bg"] = {"B58": 2}
    state.basing = {"allied": plan}
    state, events = act(state, "german", "declare", operation="bodenplatte")
    assert state.phase == "report"
    assert any("already meets" in e.text for e in events)


def test_1_4_and_3_3b_a_board_without_room_for_the_forced_basing_is_refused(doc: dict[str, Any]) -> None:
    small = copy.deepcopy(doc)
    small["airfields"] = [f for f in small["airfields"] if f["id"] not in ("MOLESWORTH", "POLEBROOK")]
    with pytest.raises(BoardError) as caught:
        parse_board(small)
    assert any(
        p.startswith("airfields: 1.4: in a Big Blow the allied strike and bomber") for p in caught.value.problems
    )
    crowded = copy.deepcopy(doc)
    for squad in crowded["squads"]:
        if squad["side"] == "allied":
            squad["steps"] = 9
    with pytest.raises(BoardError) as caught:
        parse_board(crowded)
    assert any("3.3b: in Bodenplatte every allied squad" in p for p in caught.value.problems)


def test_1_5d_squads_leave_a_closed_field_for_one_with_their_type_never_into_a_closed_one(
    fresh: SeriesState, board: Board
) -> None:
    state = position(fresh, "report", frame=1, us_1=1410, us_7=1608, de_15=1806, de_81=1707)
    state.basing = {side: air.parse_basing(greedy_basing(board, side)) for side in board.sides}
    state = _accept_report(state, "closed,B78")
    assert state.fields["B78"].closed
    state.phase = "redeploy"
    # 122 Wing flies Tempests: not to the P-47 field at A92; to B.80 Volkel, which holds Tempests.
    with pytest.raises(IllegalActionError, match=r"1.3: No. 122 Wing RAF flies Tempest V"):
        act(state, "allied", "rebase", squad="122wing", steps=3, source="B78", to="A92")
    state, _ = act(state, "allied", "rebase", squad="122wing", steps=3, source="B78", to="B80")
    assert state.basing["allied"]["122wing"] == {"B80": 3}
    # Nobody moves into the closed field.
    with pytest.raises(IllegalActionError, match=r"1.5d: B.78 Eindhoven is closed"):
        act(state, "allied", "rebase", squad="126wing", steps=1, source="B56", to="B78")
    # 1.5d's exception: the 8th AF squads do not move between fields.
    with pytest.raises(IllegalActionError, match=r"1.5d: .*8th AF field"):
        act(state, "allied", "rebase", squad="91bg", steps=2, source="BASSINGBOURN", to="B58")


def test_1_5a_1_5d_the_report_cannot_damage_or_close_8th_af_fields_in_england(board: Board) -> None:
    with pytest.raises(ReportError) as caught:
        parse_report("airfield,BASSINGBOURN,heavy\nclosed,BODNEY\nairfield,Y29,light", board)
    assert len(caught.value.problems) == 2
    assert caught.value.problems[0].startswith("line 1: Bassingbourn (8th AF) is an 8th AF field in England")
    assert "cannot be closed" in caught.value.problems[1]
    # Their aircraft shot down still score (5.1) but never leave the board's fields (1.5a).
    assert parse_report("shot_down,allied,B-17G,2", board)["shot_down"][0]["count"] == 2
