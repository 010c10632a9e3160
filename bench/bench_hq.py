"""A returning HQ (1.3) and the replay of a whole game that has one.

``python bench/bench_hq.py`` (a minute or two). The game is the first seeded random game of The Entire Battle
(``bench.midgame.random_game``, seeds from ``BENCH_HQ_SEED``, default 1) in which an HQ is destroyed and placed
back: a seed search, since any rules fix changes which random games have one. Measured: the supply phase's
prompt while the HQ waits to return (every hex it may take, 1.3), applying its ``place_hq``, and replaying the
whole game from its log.

``--smoke`` (a few seconds, measures nothing): the HQ is taken off the map by hand at the first pause of turn 1,
as its destruction leaves it, and a game of quick passes brings the next supply phase and its return.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.midgame import SCENARIO, first_seed, random_game
from bench.timing import median_ms, print_load, sized, smoke
from engine.contract import Action
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.state import GameState
from scenarios import load_game

FIRST_SEED = int(os.environ.get("BENCH_HQ_SEED", "1"))
PROMPT_TARGET_MS = 50.0
REPLAY_TARGET_MS = 1000.0

Game = tuple[GameState, GameState, list[Action]]
"""A game to measure: its first state, its last, and the actions between."""


def with_a_return(game: VaeVictisGame, seed: int) -> Game | None:
    """The seed's whole random game, when an HQ is placed back in it (1.3)."""
    start = game.new_game(SCENARIO, {}, seed.to_bytes(32, "big"))
    final, log = random_game(game, seed, 6000)
    if not any(a.verb == "place_hq" for a in log):
        print(f"  (seed {seed}: {len(log)} actions, no HQ returns; trying the next seed)")
        return None
    return start, final, log


def made_return(game: VaeVictisGame, seed: int) -> Game | None:
    """Smoke mode's game: an HQ taken off the map by hand at the first pause, then quick passes to its return."""
    start, _ = random_game(game, seed, 1, rest=True)
    hq = next(u for u in start.units.values() if u.on_map and game.data.units[u.id].is_hq)
    hq.eliminated, hq.hex = True, None  # as 1.3's destruction leaves it; the next action notes the turn
    final, log = random_game(game, seed, 200, pass_weight=1000, start=start.copy(), stop_after="place_hq")
    return (start, final, log) if log and log[-1].verb == "place_hq" else None


def main() -> None:
    game = VaeVictisGame(load_game("ardennes44"))
    needs = made_return if smoke() else with_a_return
    seed, (start, final, log) = first_seed(partial(needs, game), start=FIRST_SEED)
    returns = [i for i, a in enumerate(log) if a.verb == "place_hq"]
    print(f"game: seed {seed}, {len(log)} actions, ended on turn {final.turn}, {len(returns)} HQ return(s)")
    repeat = sized(15, 1)
    rows = []
    state = start.copy()
    done = 0
    for index in returns:
        for action in log[done:index]:
            state, _ = game.apply(state, action)
        done = index
        action = log[index]
        choices = len(game.prompts(state)[action.seat].choices)
        prompt_ms = median_ms(partial(game.prompts, state), repeat)
        apply_ms = median_ms(partial(game.apply, state, action), repeat)
        rows.append((f"place_hq prompt ({action.args['hq']}, {choices} hexes)", prompt_ms, PROMPT_TARGET_MS))
        rows.append((f"place_hq apply ({action.args['hq']} to {action.args['hex']})", apply_ms, PROMPT_TARGET_MS))

    def replay() -> None:
        replayed = start.copy()
        for action in log:
            replayed, _ = game.apply(replayed, action)
        assert replayed.to_json() == final.to_json()

    runs = sized(3, 1)
    rows.append((f"replay the whole game ({len(log)} actions)", median_ms(replay, runs), REPLAY_TARGET_MS))
    cpu = []
    for _ in range(runs):  # the process's own CPU time: what the replay costs, whatever the neighbours do
        began = time.process_time()
        replay()
        cpu.append((time.process_time() - began) * 1000)
    rows.append((f"the same, CPU time of the process ({len(log)} actions)", statistics.median(cpu), REPLAY_TARGET_MS))
    print_load()
    print("| measure | median | target | ratio |")
    print("|---|---|---|---|")
    for name, value, target in rows:
        print(f"| {name} | {value:.1f} ms | {target:g} ms | {value / target:.2f} |")


if __name__ == "__main__":
    main()
