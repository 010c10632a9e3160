"""Record Ardennes 1944 games for the replay test (tests/vaevictis/test_replay_unchanged.py).

    python -m tests.vaevictis.record_ardennes_replays    # rewrites tests/vaevictis/recordings/*.json

Each recording is a seeded random game (the random-play driver of random_play.py): its scenario,
options, seed, every action taken and the SHA-256 of the state's JSON after every 50 actions and at the end.
The recordings in the repository were made with the engine of main, never with a branch's: first at
1a350ee, before the engine was made general for Alsace 1944 (issue 14), and again at 819a333, which brought
the Ardennes rules and fog-of-war fixes of issue 10. The test replays them through today's engine and
demands the same hashes. They were re-recorded for rules version 3 (2.2: an activation that activates no
unit is a pass), on the branch that brought it: the previous recordings replayed through that engine to the
recorded states at every checkpoint up to their first empty activation (actions 293 and 333), where play
was meant to change. Re-record only on purpose, when a rules fix is meant to change Ardennes play, and
then with the engine of main (not of a branch under test):

    git archive main | tar -x -C /tmp/base && cp tests/vaevictis/record_ardennes_replays.py /tmp/base/tests/vaevictis/
    cd /tmp/base && python -m tests.vaevictis.record_ardennes_replays && cp tests/vaevictis/recordings/*.json -t ...
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from engine.contract import Action, RulesError
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.legal import candidate_actions
from engine.vaevictis.state import GameState
from scenarios import load_game

HERE = Path(__file__).resolve().parent / "recordings"
GAMES = (
    ("initial-assault", {}, 11, 600),
    ("entire-battle", {"c3i_snafu": True, "fog_of_war": True, "christmas_presents": True}, 12, 900),
)
CHECK_EVERY = 50


def state_hash(state: GameState) -> str:
    """A digest of everything the state holds."""
    return hashlib.sha256(json.dumps(state.to_json(), sort_keys=True).encode()).hexdigest()


def record(scenario: str, options: dict[str, bool], seed: int, max_actions: int) -> dict[str, Any]:
    game = VaeVictisGame(load_game("ardennes44"))
    rng = random.Random(seed)
    state = game.new_game(scenario, options, seed.to_bytes(32, "big"))
    actions: list[dict[str, Any]] = []
    hashes: dict[str, str] = {}
    while len(actions) < max_actions and state.result is None:
        prompts = game.prompts(state)
        side = rng.choice(sorted(prompts))
        candidates = candidate_actions(game, state, side)
        rng.shuffle(candidates)
        candidates.sort(key=lambda a: a.verb in ("pass", "end_activation", "end_support"))
        for action in candidates:
            try:
                state, _ = game.apply(state, action)
            except RulesError:
                continue
            actions.append(action.to_json())
            break
        else:
            raise AssertionError(f"dead end for {side}")
        if len(actions) % CHECK_EVERY == 0:
            hashes[str(len(actions))] = state_hash(state)
    hashes[str(len(actions))] = state_hash(state)
    return {"scenario": scenario, "options": options, "seed": seed, "actions": actions, "hashes": hashes}


def replay(recording: dict[str, Any]) -> dict[str, str]:
    """The hashes today's engine gives for a recording's actions, at the recorded checkpoints."""
    game = VaeVictisGame(load_game("ardennes44"))
    seed = int(recording["seed"])
    state = game.new_game(recording["scenario"], recording["options"], seed.to_bytes(32, "big"))
    found: dict[str, str] = {}
    for index, raw in enumerate(recording["actions"], start=1):
        state, _ = game.apply(state, Action.from_json(raw))
        if str(index) in recording["hashes"]:
            found[str(index)] = state_hash(state)
    return found


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for scenario, options, seed, max_actions in GAMES:
        recording = record(scenario, options, seed, max_actions)
        path = HERE / f"ardennes44-{scenario}-{seed}.json"
        path.write_text(json.dumps(recording, indent=0, sort_keys=True) + "\n", encoding="utf-8")
        print(f"{path.name}: {len(recording['actions'])} actions")


if __name__ == "__main__":
    main()
