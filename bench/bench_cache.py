"""The state cache with many games acting at once: a burst of attack confirmations in 200 games.

``python bench/bench_cache.py`` (a few minutes, most of it seeding). The bot is the real
:class:`bot.transports.discord_app.UmpireBot` behind the fake Discord, as in ``bench/bench_bot.py``: ``--games``
games (default 200) at the bench position (The Entire Battle, seed 7, 540 actions), each with an activation open;
an attack's odds previewed in each (not timed), then every confirmation clicked at once. Measured: the time from
the burst's start to each answer, the CPU the process spent on the burst, and how many states the service rebuilt
from the store during it (a cache that holds every game rebuilds none). Run once with the cache bounded by memory
(the default, ``UMPIRE_STATE_CACHE_MB``), then with the count bound the bot had before (``--compare 100``: 100
games, least recently used first).

``--smoke``: four games, the second run with a cache of two (no figure means anything then).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_bot import (
    ALLIED,
    FIRST_CHANNEL,
    GERMAN,
    NO_LIMITS,
    SEED,
    TimedDiscord,
    args_of,
    feed_at_once,
    plan,
    seed_games,
    stored_rows,
    take_back,
)
from bench.midgame import random_game
from bench.timing import print_figures, print_load
from bot.service.config import DEFAULT_STATE_CACHE_MB, Settings
from bot.store.sqlite import SqliteStore
from bot.systems import systems
from bot.transports.discord_app import UmpireBot
from engine.contract import Action
from engine.vaevictis.game import VaeVictisGame
from scenarios import load_game

ACTIONS = 540
TARGET = 1.0
"""200 games acting at once: every answer within a second (issue 32)."""


async def bench(folder: Path, games: int, actions: int, compare: int) -> list[tuple[str, str]]:
    game = VaeVictisGame(load_game("ardennes44"))
    state, log = random_game(game, SEED, actions, rest=True)
    rows = stored_rows(game, log, SEED)
    activate, _, attack = plan(game, state)
    store = await SqliteStore.open(folder / "cache.sqlite3")
    figures: list[tuple[str, str]] = []
    try:
        began = time.perf_counter()
        await seed_games(store, log, rows, games)
        print(f"{games} games seeded in {time.perf_counter() - began:.1f} s")
        opened = False
        for label, count, megabytes in (
            (f"cache of {DEFAULT_STATE_CACHE_MB} MB (the default)", 0, DEFAULT_STATE_CACHE_MB),
            (f"cache of {compare} games (before)", compare, 10**6),
        ):
            settings = Settings(token=None, limits=NO_LIMITS, state_cache=count, state_cache_mb=megabytes)
            umpire = UmpireBot(settings, store, systems(), sync_commands=False, run_background_tasks=False)
            fake = TimedDiscord(umpire)
            await fake.start()
            try:
                figures += await burst(fake, games, activate, attack, label, open_first=not opened)
                opened = True
            finally:
                await fake.stop()
    finally:
        await store.close()
    return figures


async def burst(
    fake: TimedDiscord, games: int, activate: Action, attack: Action, label: str, *, open_first: bool
) -> list[tuple[str, str]]:
    channels = [FIRST_CHANNEL + i for i in range(games)]
    user = GERMAN if activate.seat == "german" else ALLIED
    if open_first:  # each game's activation, opened once (not timed)
        for channel in channels:
            await fake.command(user, channel, "activate", formation=str(activate.args.get("formation", "general")))
    service = fake.bot.service
    replays = 0
    replay = service._replay

    def counted(*args: Any) -> Any:
        nonlocal replays
        replays += 1
        return replay(*args)

    service._replay = counted  # type: ignore[method-assign, assignment]
    payloads = []
    for channel in channels:  # the odds previewed in every game (not timed)
        start = len(fake.sent)
        await fake.command(user, channel, "attack", **args_of(attack))
        preview = next(s for s in fake.sent[start:] if s.kind == "followup" and s.buttons)
        payloads.append(fake.click_payload(user, preview, "Confirm"))
    before, cpu = replays, time.process_time()
    answers, _ = await feed_at_once(fake, payloads)
    cpu, rebuilt = time.process_time() - cpu, replays - before
    for channel in channels:
        await take_back(fake, channel)
    cache = service._cache
    return [
        (f"{label}: {games} confirmations at once, each answer (median / worst)",
         f"{statistics.median(answers) * 1000:.0f} / {max(answers) * 1000:.0f} ms (target {TARGET:g} s)"),
        (f"{label}: states rebuilt from the store during the burst", str(rebuilt)),
        (f"{label}: CPU of the burst", f"{cpu:.2f} s"),
        (f"{label}: states held", f"{len(cache)} games, {cache.used / 2**20:.1f} MB"),
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games acting at once (default 200)")
    parser.add_argument("--compare", type=int, default=100, help="the count bound to compare with (default 100)")
    parser.add_argument("--smoke", action="store_true", help="four games: does the bench run?")
    arguments = parser.parse_args()
    games, actions, compare = (4, 60, 2) if arguments.smoke else (arguments.games, ACTIONS, arguments.compare)
    print_load()
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(bench(Path(folder), games, actions, compare))
    print_load()
    print_figures(figures)


if __name__ == "__main__":
    main()
