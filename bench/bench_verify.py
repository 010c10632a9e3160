"""Verify and replay of a whole recorded game of each Vae Victis game (issue 37): the four layers of
``umpire verify`` (bot/service/verification.py) and ``umpire replay``'s rebuild from the set-up.

    python bench/bench_verify.py [ACTIONS]      # default 1,500 actions per game
    python bench/bench_verify.py --smoke        # 20 actions, one run: measures nothing

Each game is the seeded random play of bench/midgame.py (the same seed gives the same game), stored action by
action through the store as the bot stores it (the dice kept, the chain), ended, and then verified and
replayed, each three times; the figures are medians in milliseconds of CPU time measured around the call
(start-up and the store's opening left out), with the share of each layer.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.midgame import random_game
from bench.timing import arguments, print_figures, print_load, sized
from bot.service import verification
from bot.service.game_service import GameService
from bot.store.records import NewAction
from bot.store.sqlite import SqliteStore
from bot.systems import systems
from engine.contract import Action
from engine.dice import commitment, linked, recording

SEED = 2026
REPEAT = 3


async def stored_game(store: SqliteStore, game_id: str, actions: int) -> int:
    """A game of ``actions`` random legal actions, stored as the bot stores them and finished; its id."""
    adapter = systems()[game_id]()
    _, log = random_game(adapter.game, SEED, actions)  # type: ignore[attr-defined]
    seed = SEED.to_bytes(32, "big")
    game = await store.create_game(
        guild=None, channel=len(game_id), system=game_id, scenario="entire-battle", options={}, seed=seed.hex(),
        seed_hash=commitment(seed), seats=adapter.seats, time_control={}, creator=None, rules=adapter.rules_version,
    )  # fmt: skip
    state = adapter.new_game("entire-battle", {}, seed)
    for number, action in enumerate(log):
        with recording() as drawn:
            state, events = adapter.apply(state, Action(action.seat, action.verb, dict(action.args)))
        last = number == len(log) - 1
        game, _ = await store.record_action(
            game,
            NewAction(action.seat, 1, action.verb, dict(action.args), [e.to_json() for e in events],
                      adapter.rules_version, [d.to_json() for d in linked(drawn, events)]),
            status="finished" if last else None,
        )  # fmt: skip
    return game.id


async def measure(game_id: str, actions: int) -> list[tuple[str, str]]:
    with tempfile.TemporaryDirectory() as folder:
        store = await SqliteStore.open(Path(folder) / "bench.sqlite3")
        try:
            game = await stored_game(store, game_id, actions)
            service = GameService(store, systems())
            adapter = service.system(game_id)
            row = await store.game(game)
            assert row is not None
            rows = await store.actions(game, include_undone=True)
            secrets = await store.secrets(game)
            figures = []
            verify_times, replay_times = [], []
            for _ in range(sized(REPEAT, 1)):
                start = time.process_time()
                checked = await service.verify(game)
                verify_times.append((time.process_time() - start) * 1000)
                assert not checked.problems, checked.problems
                start = time.process_time()
                verification.from_setup(adapter, row, [r for r in rows if not r.undone])
                replay_times.append((time.process_time() - start) * 1000)
            layers = {
                "chain": lambda: verification._chain_layer(row, bytes.fromhex(row.seed), rows, secrets, ()),
                "dice": lambda: verification._dice_layer(bytes.fromhex(row.seed), rows),
                "sealed decisions": lambda: verification._secrets_layer(adapter, rows, secrets),
                "rules replay": lambda: verification._replay_layer(adapter, row, bytes.fromhex(row.seed), rows),
            }
            name = f"{game_id}, {len(rows)} actions"
            figures.append(
                (f"{name}: `umpire verify` (CPU ms, median of {REPEAT})", f"{statistics.median(verify_times):.0f}")
            )
            figures.append(
                (f"{name}: `umpire replay` from the set-up (CPU ms)", f"{statistics.median(replay_times):.0f}")
            )
            for label, run in layers.items():
                start = time.process_time()
                run()
                figures.append(
                    (f"{name}: layer {label} (CPU ms, one run)", f"{(time.process_time() - start) * 1000:.0f}")
                )
            return figures
        finally:
            await store.close()


def main() -> None:
    given = arguments()
    actions = int(given[0]) if given else sized(1500, 20)
    print_load()
    figures = []
    for game_id in ("ardennes44", "alsace44"):
        figures += asyncio.run(measure(game_id, actions))
    print_figures(figures)


if __name__ == "__main__":
    main()
