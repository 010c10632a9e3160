"""4.2d: the frame report's dispute window, timed by the clock readings the bot passes with each action."""

from __future__ import annotations

import pytest

from engine.contract import IllegalActionError, InvalidActionError, NotYourTurnError
from engine.wargame_commander import series
from engine.wargame_commander.state import SeriesState
from tests.wargame_commander.conftest import act, position

HOUR = 3600.0
START = 1_700_000_000.0


def _reported(fresh: SeriesState, hours: float = 12) -> SeriesState:
    state = position(fresh, "report", frame=1, us_1=807, us_7=907, de_15=1806, de_81=1707)
    state, _ = act(state, "cm", "window", hours=hours)
    state, _ = act(state, "cm", "report", text="shot_down,german,Ju 88A,1", at=START)
    return state


def test_4_2d_silence_until_the_window_runs_out_is_acceptance(fresh: SeriesState) -> None:
    state = _reported(fresh)
    assert series.view(state, None)["dispute_deadline"] == START + 12 * HOUR
    state, _ = act(state, "allied", "accept", at=START + 11 * HOUR)
    with pytest.raises(IllegalActionError, match=r"4.2d: the dispute window is open until"):
        act(state, "cm", "expire", at=START + 11.9 * HOUR)
    # Too late to dispute.
    with pytest.raises(IllegalActionError, match=r"4.2d: the dispute window of the frame 1 report closed at"):
        act(state, "german", "dispute", reason="late", at=START + 12 * HOUR)
    state, events = act(state, "cm", "expire", at=START + 12 * HOUR)
    assert state.phase == "designate" and state.frame == 2
    assert any("run out with no dispute" in e.text for e in events)
    assert [line["points"] for line in state.ledger] == [4.0]


def test_4_2d_a_dispute_open_when_the_window_runs_out_waits_for_the_campaign_manager(fresh: SeriesState) -> None:
    state = _reported(fresh)
    state, _ = act(state, "german", "dispute", reason="that Ju 88 landed", at=START + HOUR)
    state, _ = act(state, "cm", "expire", at=START + 13 * HOUR)
    assert state.phase == "dispute" and state.window_closed
    prompts = series.prompts(state)
    assert set(prompts) == {"cm"} and not prompts["cm"].optional
    with pytest.raises(NotYourTurnError):
        act(state, "allied", "accept", at=START + 13 * HOUR)
    # The CM corrects: a new window opens from the correction.
    state, _ = act(state, "cm", "correct", text="radar,verviers", at=START + 14 * HOUR)
    assert not state.window_closed and series.view(state, None)["dispute_deadline"] == START + 26 * HOUR
    state, _ = act(state, "allied", "accept", at=START + 15 * HOUR)
    state, _ = act(state, "german", "accept", at=START + 15 * HOUR)
    assert state.phase == "designate" and state.ledger == []


def test_4_2d_the_window_is_a_setting_of_the_series(fresh: SeriesState) -> None:
    state = _reported(fresh, hours=0)
    assert series.view(state, None)["dispute_deadline"] is None
    with pytest.raises(IllegalActionError, match=r"no time limit"):
        act(state, "cm", "expire", at=START + 1000 * HOUR)
    state, _ = act(state, "german", "accept", at=START + 1000 * HOUR)
    with pytest.raises(InvalidActionError, match=r"0 \(until the CM closes it\) to 336 hours"):
        act(state, "cm", "window", hours=400)
    state, _ = act(state, "cm", "window", hours=48)
    assert series.view(state, None)["dispute_deadline"] == START + 48 * HOUR
    with pytest.raises(NotYourTurnError):
        act(state, "allied", "window", hours=1)
