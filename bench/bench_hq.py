"""A returning HQ (1.3) and the replay of a whole game that has one.

``python bench/bench_hq.py`` (about half a minute). The game is a seeded random game of The Entire Battle
(``bench.midgame.random_game``, seed ``BENCH_HQ_SEED``, default 2: 1,477 actions, all 8 turns, one HQ
destroyed and placed back). Measured: the supply phase's prompt while the HQ waits to return (every hex it
may take, 1.3), applying its ``place_hq``, and replaying the whole game from its log.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.midgame import SCENARIO, random_game
from bench.timing import median_ms, print_load
from engine.vaevictis.game import VaeVictisGame
from scenarios import load_game

SEED = int(os.environ.get("BENCH_HQ_SEED", "2"))
PROMPT_TARGET_MS = 50.0
REPLAY_TARGET_MS = 1000.0


def main() -> None:
    game = VaeVictisGame(load_game("ardennes44"))
    final, log = random_game(game, SEED, 6000)
    returns = [i for i, a in enumerate(log) if a.verb == "place_hq"]
    if not returns:
        raise SystemExit(f"seed {SEED}: no HQ returns in this game; try another BENCH_HQ_SEED")
    print(f"game: seed {SEED}, {len(log)} actions, ended on turn {final.turn}, {len(returns)} HQ return(s)")
    rows = []
    state = game.new_game(SCENARIO, {}, SEED.to_bytes(32, "big"))
    done = 0
    for index in returns:
        for action in log[done:index]:
            state, _ = game.apply(state, action)
        done = index
        action = log[index]
        choices = len(game.prompts(state)[action.seat].choices)
        prompt_ms = median_ms(partial(game.prompts, state), 15)
        apply_ms = median_ms(partial(game.apply, state, action), 15)
        rows.append((f"place_hq prompt ({action.args['hq']}, {choices} hexes)", prompt_ms, PROMPT_TARGET_MS))
        rows.append((f"place_hq apply ({action.args['hq']} to {action.args['hex']})", apply_ms, PROMPT_TARGET_MS))

    def replay() -> None:
        replayed = game.new_game(SCENARIO, {}, SEED.to_bytes(32, "big"))
        for action in log:
            replayed, _ = game.apply(replayed, action)
        assert replayed.to_json() == final.to_json()

    rows.append((f"replay the whole game ({len(log)} actions)", median_ms(replay, 3), REPLAY_TARGET_MS))
    cpu = []
    for _ in range(3):  # the process's own CPU time: what the replay costs, whatever the neighbours do
        start = time.process_time()
        replay()
        cpu.append((time.process_time() - start) * 1000)
    rows.append((f"the same, CPU time of the process ({len(log)} actions)", statistics.median(cpu), REPLAY_TARGET_MS))
    print_load()
    print("| measure | median | target | ratio |")
    print("|---|---|---|---|")
    for name, value, target in rows:
        print(f"| {name} | {value:.1f} ms | {target:g} ms | {value / target:.2f} |")


if __name__ == "__main__":
    main()
