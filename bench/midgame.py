"""A mid-game position of The Entire Battle, reached by seeded random legal play, for the benchmarks.

The same seed always gives the same position, so figures from different runs describe the same game. Both
bundled Vae Victis games have an Entire Battle: Ardennes 1944 (the default) and Alsace 1944.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.contract import Action, RulesError
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.legal import candidate_actions
from engine.vaevictis.state import GameState
from scenarios import load_game

SCENARIO = "entire-battle"
SEEDS_TRIED = 200
"""How many seeds :func:`first_seed` tries before it gives up."""

T = TypeVar("T")


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
    start: GameState | None = None,
    stop_after: str | None = None,
) -> tuple[GameState, list[Action]]:
    """Play random legal actions (candidates from engine/vaevictis/legal.py) from the setup (or from ``start``);
    with ``rest``, go on past ``max_actions`` until the position is between two activation sequences (with
    ``mover`` to move, when given); with ``stop_after``, stop once an action of that verb is played."""
    rng = random.Random(seed)
    state = start if start is not None else game.new_game(SCENARIO, {}, seed.to_bytes(32, "big"))
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
        if stop_after is not None and log[-1].verb == stop_after:
            break
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
    from bench.timing import arguments

    given = arguments()
    return given[0] if given else "ardennes44"


def first_seed(needs: Callable[[int], T | None], start: int = 1, seeds: Iterable[int] | None = None) -> tuple[int, T]:
    """The first seed (from ``start``) whose game has what a bench needs, and what it found: ``needs(seed)``
    plays the seed's game and returns what the bench measures, or ``None`` when that game lacks it. A bench
    that searches so still measures something when a rules fix changes what a seed's random game does.

    :raises SystemExit: when none of :data:`SEEDS_TRIED` seeds has it.
    """
    for seed in seeds if seeds is not None else range(start, start + SEEDS_TRIED):
        found = needs(seed)
        if found is not None:
            return seed, found
    raise SystemExit(f"no seed from {start} gives a game with what this bench needs")


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
