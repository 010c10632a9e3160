"""Record the digests of seeded random games of both Vae Victis games, for tests/vaevictis/test_engine_digests.py.

    python -m tests.vaevictis.record_engine_digests    # rewrites tests/vaevictis/recordings/engine-digests.json

A speed-up of the engine (caches, lazy prompts, cheaper copies) must change nothing a player or a log can see.
Each game below is played by seeded random legal play (candidates from engine/vaevictis/legal.py, which read
the prompts); after every action one running SHA-256 takes in the state's JSON, the events' JSON (wording
included) and every seat's prompt (text, choices, verbs), so the digest changes if any of them changes at any
action. The recorded digests were made with the engine of main before the speed work of issue 37 (e4d1be8),
and again at 4efca3c, whose prompts read differently (the states and events gave the same digests);
re-record only on purpose, when a rules fix is meant to change play, and then with the engine of main.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.contract import Action, Event, Prompt, RulesError
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.legal import candidate_actions
from engine.vaevictis.state import GameState
from scenarios import load_game

HERE = Path(__file__).resolve().parent / "recordings" / "engine-digests.json"
GAMES: tuple[tuple[str, str, dict[str, bool], int, int], ...] = (
    ("ardennes44", "entire-battle", {}, 21, 400),
    ("ardennes44", "entire-battle", {"c3i_snafu": True, "fog_of_war": True, "christmas_presents": True}, 22, 400),
    ("alsace44", "entire-battle", {}, 23, 500),
    ("alsace44", "initial-assault", {"snafu_vv60": True, "fog_of_war": True}, 24, 300),
)
"""(game, scenario, options, seed, actions): each game played from its set-up for that many actions."""


def _game(game_id: str) -> VaeVictisGame:
    if game_id == "alsace44":
        from tests.vaevictis.alsace import alsace_game

        return alsace_game()
    return VaeVictisGame(load_game(game_id))


def _prompt_json(prompt: Prompt) -> Any:
    return [
        prompt.seat,
        prompt.text,
        [[c.verb, c.args, c.label] for c in prompt.choices],
        sorted(prompt.free_verbs),  # a set in meaning: main listed them in the order of a set of verbs
        prompt.secret,
        prompt.rule,
        prompt.optional,
    ]


def play(
    game_id: str,
    scenario: str,
    options: dict[str, bool],
    seed: int,
    actions: int,
    check: Callable[[VaeVictisGame, GameState], None] | None = None,
) -> tuple[list[Action], str, str]:
    """One seeded random game: its actions, its running digest of prompts, states and events, and that of states
    and events alone (see the module docstring); ``check`` is called on every state before its prompts are
    read."""
    game = _game(game_id)
    rng = random.Random(seed)
    state = game.new_game(scenario, options, seed.to_bytes(32, "big"))
    digest, applied = hashlib.sha256(), hashlib.sha256()
    log: list[Action] = []
    while len(log) < actions and state.result is None:
        if check is not None:
            check(game, state)
        prompts = game.prompts(state)
        digest.update(json.dumps({s: _prompt_json(p) for s, p in sorted(prompts.items())}, sort_keys=True).encode())
        side = rng.choice(sorted(prompts))
        candidates = candidate_actions(game, state, side)
        rng.shuffle(candidates)
        candidates.sort(key=lambda a: a.verb in ("pass", "end_activation", "end_support"))
        for action in candidates:
            try:
                state, events = game.apply(state, action)
            except RulesError:
                continue
            break
        else:
            raise AssertionError(f"dead end for {side}")
        log.append(action)
        step = _step(action, events, state)
        digest.update(step)
        applied.update(step)
    return log, f"{len(log)}:{digest.hexdigest()}", f"{len(log)}:{applied.hexdigest()}"


def _step(action: Action, events: list[Event], state: GameState) -> bytes:
    return json.dumps([action.to_json(), [e.to_json() for e in events], state.to_json()], sort_keys=True).encode()


def replay(
    game_id: str, scenario: str, options: dict[str, bool], seed: int, log: list[Action], *, owned: bool = False
) -> str:
    """The digest of states and events of a log replayed by ``apply`` alone, no prompt read (as ``umpire
    verify`` replays a game); with ``owned``, by ``apply_owned``, which changes the state it is given."""
    game = _game(game_id)
    state = game.new_game(scenario, options, seed.to_bytes(32, "big"))
    applied = hashlib.sha256()
    apply = game.apply_owned if owned else game.apply
    for action in log:
        state, events = apply(state, action)
        applied.update(_step(action, events, state))
    return f"{len(log)}:{applied.hexdigest()}"


def key(game_id: str, scenario: str, options: dict[str, bool], seed: int, actions: int) -> str:
    return f"{game_id}/{scenario}/{','.join(sorted(o for o, on in options.items() if on)) or '-'}/{seed}/{actions}"


def main() -> None:
    digests = {}
    for each in GAMES:
        _, played, applied = play(*each)
        digests[key(*each)] = {"played": played, "applied": applied}
    HERE.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    for name, value in digests.items():
        print(name, value)


if __name__ == "__main__":
    main()
