"""A mid-game position of The Entire Battle, reached by seeded random legal play, for the benchmarks.

The same seed always gives the same position, so figures from different runs describe the same game.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.contract import Action, RulesError
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.legal import candidate_actions
from engine.vaevictis.state import GameState
from scenarios import load_game

SCENARIO = "entire-battle"


def at_rest(state: GameState) -> bool:
    """Between two activation sequences of the operations phase, nothing pending."""
    return state.phase == "operations" and state.activation is None and not state.pending


def random_game(
    game: VaeVictisGame, seed: int, max_actions: int, pass_weight: float = 0.6, rest: bool = False
) -> tuple[GameState, list[Action]]:
    """Play random legal actions (candidates from engine/vaevictis/legal.py) from the setup; with ``rest``,
    go on past ``max_actions`` until the position is between two activation sequences."""
    rng = random.Random(seed)
    state = game.new_game(SCENARIO, {}, seed.to_bytes(32, "big"))
    log: list[Action] = []
    while state.result is None and (len(log) < max_actions or (rest and not at_rest(state))):
        side = rng.choice(sorted(game.prompts(state)))
        actions = candidate_actions(game, state, side)

        def key(action: Action) -> float:
            weight = pass_weight if action.verb in ("pass", "end_activation", "end_support") else 1.0
            return rng.random() ** (1 / weight)

        for action in sorted(actions, key=key, reverse=True):
            try:
                state, _ = game.apply(state, action)
            except RulesError:
                continue
            log.append(action)
            break
        else:
            raise RuntimeError(f"dead end for {side}")
    return state, log


def midgame(seed: int = 7, actions: int = 500) -> tuple[VaeVictisGame, GameState]:
    """The Entire Battle after ``actions`` random legal actions (turn 3 or 4 with the defaults)."""
    game = VaeVictisGame(load_game("ardennes44"))
    state, _ = random_game(game, seed, actions, rest=True)
    return game, state
