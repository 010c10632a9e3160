"""Bench: the computer opponent's ladder (issue 30): win rates against a random legal player and the scripted
baseline, and the time its decisions take.

Paired games: each seed of a fixed list is played twice, the players swapping sides, so each side of the
(asymmetric) scenario is measured. A game runs to its end (or to ``--max-actions``, then it counts as lost by
both). Every player decides from its own seat's view; the random player picks uniformly among the engine's
sample of legal actions (passing and ending less often), the scripted baseline is
:mod:`engine.vaevictis.opponent.scripted`. Win rates are given per side of the computer with a 95% Wilson
interval, and the decision times of the computer (median, worst).

Run: ``nice -n 19 python bench/ai_ladder.py --game ardennes44 --scenario initial-assault --opponent random --level
normal --seeds 4`` (``--skip 2`` starts at the third seed of the list; ``--side german`` plays the computer on
that side only); ``--smoke`` plays one short game per
opponent with the easiest level (a check that the ladder runs, not a measure).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import print_load
from engine.contract import ComputerDecision, Prompt, RulesError
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.legal import candidate_actions
from engine.vaevictis.opponent.scripted import ScriptedBaseline
from engine.vaevictis.state import GameState
from scenarios import load_game

SEEDS = (11, 23, 37, 41, 53, 67, 79, 83, 97, 101, 113, 127)
"""The fixed list of game seeds: the first ``--seeds`` of them are played."""

PASSIVE = ("pass", "end_activation", "end_support")


class RandomPlayer:
    """A uniformly random legal player (the random-play tests' weighting: passing and ending less often)."""

    levels = ("random",)

    def __init__(self, game: VaeVictisGame, state_of: Any) -> None:
        self.game = game
        self.state_of = state_of

    def decide(self, view: Any, prompt: Prompt, level: str, seed: bytes) -> ComputerDecision:
        rng = random.Random(seed)
        state = GameState.from_json(view["position"])
        state.seed = seed.hex()
        actions = candidate_actions(self.game, state, prompt.seat)  # type: ignore[arg-type]
        ordered = sorted(actions, key=lambda a: rng.random() ** (1 / (0.15 if a.verb in PASSIVE else 1.0)))
        for action in reversed(ordered):
            try:
                self.game.apply(state, action)
            except RulesError:
                continue
            return ComputerDecision(action)
        raise RuntimeError(f"random player stuck on {prompt.text}")


@dataclass
class GameRecord:
    winner: str | None
    actions: int
    times: list[float] = field(default_factory=list)


def play(
    game: VaeVictisGame,
    scenario: str,
    seed: int,
    players: dict[str, tuple[Any, str]],
    max_actions: int,
    timed_side: str | None,
) -> GameRecord:
    """One game to its end; ``players`` maps each side to (player, level)."""
    state = game.new_game(scenario, {}, seed.to_bytes(32, "big"))
    record = GameRecord(None, 0)
    for number in range(max_actions):
        if state.result is not None:
            break
        prompts = game.prompts(state)
        required = {s: p for s, p in prompts.items() if not p.optional}
        side = sorted(required or prompts)[0]
        player, level = players[side]
        for attempt in range(20):
            start = time.perf_counter()
            view = game.view(state, side)
            decision = player.decide(view, prompts[side], level, f"{seed}:{number}:{attempt}".encode())
            if side == timed_side:
                record.times.append(time.perf_counter() - start)
            try:
                state, _ = game.apply(state, decision.action)
                break
            except RulesError:
                if side == timed_side:
                    raise  # the computer opponent must answer legally
                # the random player's dice are its own: a C3I check (9.4) may fail where its trial passed
        else:
            raise RuntimeError(f"{side} found no legal answer to {prompts[side].text}")
        record.actions = number + 1
    record.winner = state.result["winner"] if state.result is not None else None
    return record


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="ardennes44")
    parser.add_argument("--scenario", default="initial-assault")
    parser.add_argument("--opponent", choices=("random", "scripted"), default="random")
    parser.add_argument("--level", default="normal")
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--skip", type=int, default=0, help="leave out the first SKIP seeds of the list")
    parser.add_argument("--max-actions", type=int, default=4000)
    parser.add_argument("--side", choices=("both", "german", "allied"), default="both", help="the computer's side(s)")
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    print_load()
    game = VaeVictisGame(load_game(args.game))
    computer = game.computer_player
    seeds = SEEDS[args.skip : args.skip + args.seeds]
    level = args.level
    max_actions = args.max_actions
    if args.smoke:
        seeds, level, max_actions = SEEDS[:1], "easy", 150
    rival: Any = RandomPlayer(game, None) if args.opponent == "random" else ScriptedBaseline(game)
    rival_level = rival.levels[0]
    wins = {"german": 0, "allied": 0}
    played = {"german": 0, "allied": 0}
    times: list[float] = []
    for seed in seeds:
        for side in ("german", "allied") if args.side == "both" else (args.side,):
            other = "allied" if side == "german" else "german"
            started = time.perf_counter()
            record = play(
                game, args.scenario, seed, {side: (computer, level), other: (rival, rival_level)}, max_actions, side
            )
            times += record.times
            played[side] += 1
            wins[side] += record.winner == side
            print(
                f"seed {seed} computer {side:7} vs {args.opponent}: winner {record.winner}, {record.actions} actions, "
                f"{time.perf_counter() - started:.0f} s",
                flush=True,
            )
    print(f"{args.game} {args.scenario}, computer {level} vs {args.opponent}:")
    for side in ("german", "allied"):
        low, high = wilson(wins[side], played[side])
        rate = wins[side] / played[side] if played[side] else 0.0
        print(f"  as {side}: {wins[side]}/{played[side]} = {rate:.0%} (95% Wilson {low:.0%}-{high:.0%})")
    total = sum(wins.values())
    print(f"  averaged over sides: {total / max(1, sum(played.values())):.0%}")
    if times:
        print(f"  decisions: {len(times)}, median {statistics.median(times):.2f} s, worst {max(times):.2f} s")


if __name__ == "__main__":
    main()
