"""Memory of a bot with 50 games that have drawn full maps and close-ups: the process's peak RSS.

``python bench/bench_memory.py`` (about a minute). The service is the bot's
(:class:`bot.service.game_service.GameService` over a SQLite file, with discord.py and the bot's modules imported);
50 games stand at the bench position (The Entire Battle, ``bench.midgame.random_game`` seed 7, 540 actions, stored
in one transaction with the last state as snapshot). Each game draws the channel's whole map, then a close-up round
the hex of its first unit on the map (``/map hex:``), as the bot draws them (in its render thread). Peak RSS
(``ru_maxrss``) is read after loading, after the first full map, the first close-up, and all 50 games; the state
cache's size against its bound. The C allocator is set as the bot sets it at its start
(:mod:`bot.transports.allocator`); ``--malloc-default`` leaves glibc's defaults, for comparison. ``--smoke``
(measures nothing): 2 games at a position 10 actions in.
"""

from __future__ import annotations

import asyncio
import resource
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_store import GERMAN, logged, new_game, write_log
from bench.midgame import random_game
from bench.timing import print_load, sized, smoke
from bot.service.config import DEFAULT_STATE_CACHE
from bot.service.game_service import GameService
from bot.store.sqlite import SqliteStore
from bot.systems import systems
from bot.transports import discord_app  # noqa: F401 (the bot's own modules, discord.py included, count in its memory)
from bot.transports.allocator import tune_allocator
from engine.hexgrid import hex_name
from engine.vaevictis.game import VaeVictisGame
from render import counters
from scenarios import load_game

GAMES = 50
SEED = 7
ACTIONS = 540
TARGET_MB = 200.0


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def bench(folder: Path) -> list[tuple[str, str]]:
    game = VaeVictisGame(load_game("ardennes44"))
    state, log = random_game(game, SEED, sized(ACTIONS, 10), rest=True)
    rows, _ = logged(game, SEED, log)
    snapshot = state.to_json()
    hex_ = next(u.hex for u in state.units.values() if u.on_map and u.hex is not None)
    del game, state, log
    store = await SqliteStore.open(folder / "memory.sqlite3")
    figures = []
    try:
        service = GameService(store, systems(), state_cache=DEFAULT_STATE_CACHE)
        games = sized(GAMES, 2)
        channels = [4000 + i for i in range(games)]
        for channel in channels:
            created = await new_game(service, channel, SEED)
            await write_log(store, created, rows, {len(rows): snapshot})
        del rows, snapshot
        for channel in channels:
            await service.state((await service.table(channel)).game)
        figures.append((f"{games} games loaded, no picture yet", f"{peak_mb():.0f} MB"))
        for index, channel in enumerate(channels):
            full = await service.picture(channel, None)
            if index == 0:
                figures.append(("after the first full map", f"{peak_mb():.0f} MB ({len(full) / 1e6:.2f} MB PNG)"))
            close = await service.picture(channel, GERMAN, [], around=hex_name(hex_))
            if index == 0:
                figures.append(("after the first close-up", f"{peak_mb():.0f} MB ({len(close) / 1e3:.0f} kB PNG)"))
        peak = peak_mb()
        figures.append(
            (
                f"after full maps and close-ups for {games} games",
                f"{peak:.0f} MB (target {TARGET_MB:.0f} MB: {peak / TARGET_MB:.2f})",
            )
        )
        cache = service._cache
        used = f"{len(cache)} games, {cache.used / 2**20:.1f} MB (bound {cache.memory / 2**20:.0f} MB)"
        figures.append(("state cache", used))
        tiles = counters.counter_tile.cache_info()
        figures.append(("counter tiles cached", f"{tiles.currsize} (bound {tiles.maxsize})"))
    finally:
        await store.close()
    return figures


def main() -> None:
    print_load()
    if "--malloc-default" not in sys.argv and not smoke():  # smoke mode may share its process with others
        tune_allocator()  # as the bot does at its start (bot.transports.discord_app.run)
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(bench(Path(folder)))
    print("| measure | peak RSS |")
    print("|---|---|")
    for name, figure in figures:
        print(f"| {name} | {figure} |")


if __name__ == "__main__":
    main()
