"""A mid-game position of The Entire Battle, reached by seeded random legal play, for the benchmarks.

The same seed always gives the same position, so figures from different runs describe the same game. Both
bundled Vae Victis games have an Entire Battle: Ardennes 1944 (the default) and Alsace 1944.
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
    game: VaeVictisGame,
    seed: int,
    max_actions: int,
    pass_weight: float = 0.6,
    rest: bool = False,
    mover: str | None = None,
) -> tuple[GameState, list[Action]]:
    """Play random legal actions (candidates from engine/vaevictis/legal.py) from the setup; with ``rest``,
    go on past ``max_actions`` until the position is between two activation sequences (with ``mover`` to
    move, when given)."""
    rng = random.Random(seed)
    state = game.new_game(SCENARIO, {}, seed.to_bytes(32, "big"))
    log: list[Action] = []

    def resting() -> bool:
        return at_rest(state) and mover in (None, state.active)

    while state.result is None and (len(log) < max_actions or (rest and not resting())):
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


def bench_game(game_id: str = "ardennes44") -> VaeVictisGame:
    """The game measured: Alsace 1944 as the tests play it (tests/vaevictis/alsace.py), any other as players
    get it."""
    if game_id == "alsace44":
        from tests.vaevictis.alsace import alsace_game

        return alsace_game()
    return VaeVictisGame(load_game(game_id))


def game_argument() -> str:
    """The game id given on the command line (``python bench/bench_engine.py alsace44``), else Ardennes 1944."""
    return sys.argv[1] if len(sys.argv) > 1 else "ardennes44"


MIDGAME_ACTIONS = {"ardennes44": 500, "alsace44": 900}
"""Random actions to a mid-game position: Ardennes 1944 turn 3; Alsace 1944 turn 6, once the French armoured
divisions are in (random play brings them slowly)."""


def midgame(seed: int = 7, actions: int | None = None, game_id: str = "ardennes44") -> tuple[VaeVictisGame, GameState]:
    """The Entire Battle after ``actions`` random legal actions (:data:`MIDGAME_ACTIONS` by default)."""
    actions = actions if actions is not None else MIDGAME_ACTIONS.get(game_id, 500)
    game = bench_game(game_id)
    # The attacker to move, with most of the mechanized units: the German in Ardennes, the French in Alsace.
    state, _ = random_game(game, seed, actions, rest=True, mover="allied" if game_id == "alsace44" else "german")
    return game, state
