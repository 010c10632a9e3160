"""Random legal play of Alsace 1944, each scenario to its result, the invariants checked after every action.

The general invariants of random play (tests/vaevictis/random_play.py) and Alsace's own
(tests/vaevictis/alsace.py) are checked after each action. ``ALSACE44_RANDOM_SEEDS`` (default 1) sets how
many games of each scenario; a failure reproduces from its seed.
"""

from __future__ import annotations

import os

import pytest

from engine.contract import InvalidActionError
from engine.vaevictis.game import VaeVictisGame
from tests.vaevictis.alsace import alsace_game, check_alsace_invariants
from tests.vaevictis.random_play import play

SEEDS = int(os.environ.get("ALSACE44_RANDOM_SEEDS", "1"))
MAX_ACTIONS = 8000
"""A game that has not ended after this many actions has stalled."""

SCENARIOS = ("initial-assault", "entire-battle", "initial-assault-variant", "entire-battle-variant")


@pytest.fixture(scope="module")
def game() -> VaeVictisGame:
    return alsace_game()


@pytest.mark.parametrize("seed", range(1, SEEDS + 1))
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_19_every_scenario_plays_to_a_result(game: VaeVictisGame, scenario: str, seed: int) -> None:
    """[19.1, 19.2, 19.4] Each scenario, played at random, ends with a winner on its last turn."""
    start = None
    if game.data.scenarios[scenario].variant:  # [19.4.1] a checked free set-up and an offensive effort first
        from tests.vaevictis.variant_play import both_set_up, effort

        start = effort(game, both_set_up(game, scenario), 2, "fr-2-dim,fr-9-dic")
    state, log = play(game, 100 + seed, scenario, MAX_ACTIONS, also_check=check_alsace_invariants, start=start)
    assert state.result is not None, f"no result after {len(log)} actions (turn {state.turn})"
    assert state.turn == game.data.scenarios[scenario].turns, (state.turn, state.result)
    assert game.result(state) is not None
    if start is None:  # [19.2] the German's set-up, random placements included, came first
        assert log[[a.verb for a in log].index("setup_done")].seat == "german"


def test_19_2_random_play_places_german_units_before_the_set_up_is_done(game: VaeVictisGame) -> None:
    """[19.2, 12.2] Random play's German moves his units and strongpoints about before saying he is done (the
    invariants, 12.2's one strongpoint a hex among them, after every action)."""
    placed = []
    for seed in range(100, 103):
        _, log = play(game, seed, "initial-assault", 60, also_check=check_alsace_invariants)
        verbs = [a.verb for a in log]
        placed.append(verbs[: verbs.index("setup_done")].count("place"))
    assert any(placed), placed


def test_an_option_the_game_does_not_offer_is_refused(game: VaeVictisGame) -> None:
    """[15.4] Christmas presents are Ardennes 1944's: Alsace refuses the option and names its own."""
    with pytest.raises(InvalidActionError) as refused:
        game.new_game("initial-assault", {"christmas_presents": True}, bytes(32))
    assert "christmas_presents" in refused.value.reason and "fog_of_war" in refused.value.reason
