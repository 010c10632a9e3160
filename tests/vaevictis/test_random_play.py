"""Random legal play from the Ardennes 1944 setup, checking the invariants of the rules after every action.

Thousands of actions drawn from the engine's own candidate actions (engine/vaevictis/legal.py); a seeded
``random.Random`` chooses among them, so a failure reproduces from its seed.
"""

from __future__ import annotations

import random

import pytest

from engine.contract import RulesError
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.legal import candidate_actions
from engine.vaevictis.state import GameState
from scenarios import load_game
from tests.play_budget import play_seeds
from tests.vaevictis.random_play import play, weighted_order


@pytest.fixture(scope="module")
def game() -> VaeVictisGame:
    return VaeVictisGame(load_game("ardennes44"))


@pytest.mark.parametrize("seed", play_seeds([1, 2, 3, 4], default=2))
def test_random_play_keeps_the_invariants(game: VaeVictisGame, seed: int) -> None:
    """Games of 600 random actions each (two by default, four with UMPIRE_FULL_PLAY=1: tests/play_budget.py),
    each action followed by the invariant checks."""
    state, log = play(game, seed, "entire-battle", 600)
    assert len(log) == 600 or state.result is not None
    assert state.turn >= 2


def test_the_same_seed_and_actions_give_the_same_state(game: VaeVictisGame) -> None:
    state, log = play(game, 11, "initial-assault", 200)
    replayed = game.new_game("initial-assault", {}, (11).to_bytes(32, "big"))
    for action in log:
        replayed, _ = game.apply(replayed, action)
    assert replayed.to_json() == state.to_json()
    assert GameState.from_json(state.to_json()).to_json() == state.to_json()


def test_every_numbered_roll_can_be_checked_against_the_seed(game: VaeVictisGame) -> None:
    """[dice] Roll events carry their number: with the seed revealed, engine.dice.roll recomputes each one."""
    from engine.dice import roll

    rng = random.Random(31)
    seed = (31).to_bytes(32, "big")
    state = game.new_game("entire-battle", {}, seed)
    checked = 0
    for _ in range(250):
        side = rng.choice(sorted(game.prompts(state)))
        for action in weighted_order(rng, candidate_actions(game, state, side)):
            try:
                state, events = game.apply(state, action)
            except RulesError:
                continue
            break
        for event in events:
            if event.kind == "roll" and "number" in event.data:
                assert roll(seed, event.data["number"], event.data.get("sides", 6)) == event.data["die"]
                checked += 1
    assert checked >= 5
