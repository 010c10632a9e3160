"""Restart: how long the bot takes from its start to its first answer, with 1,000 and 10,000 live games.

``python bench/bench_restart.py [GAMES ...]`` (default 1000 10000; several minutes, most of it writing the
files, about 1.3 GB for 10,000 games). One game of The Entire Battle is played by seeded random legal play to a
mid-game pause (``bench.midgame.random_game``, seed 7, 540 actions) and written action by action as the bot
writes it (compressed rows, the hash chain, a snapshot every 25 actions); the file then holds that game copied
GAMES times, each live in its own channel, with its seats, snapshots and log.

Each start is a new Python process (``--start FILE``), timed from its launch to the first answer, in stages:
the imports; the store's opening with the start-up check (``SqliteStore.open(check=True)``, as ``umpire run``
does); the bot built and logged in to the test suite's fake Discord (its ``setup_hook``, the cogs);
``/game status`` answered in one game, which loads its state from its latest snapshot. The file's pages are
in the operating system's cache (a restart right after a stop); a first start after a reboot reads them from
disk too. Three starts of each kind per size, in turn (medians): with the start-up check of the bot, and with
every page checked at start, as before issue 32. Also timed once: the check of every page that ``umpire verify``
and ``umpire replay`` run (:meth:`bot.store.sqlite.SqliteStore.check_every_page`).

``--smoke`` (measures nothing): 20 games, one start.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STARTED = time.perf_counter()

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import arguments, print_load, sized  # noqa: E402

TARGET_S = 3.0
"""The bot answers within 3 s of its start with 10,000 live games (issue 32)."""
STARTS = 3
SEED = 7
ACTIONS = 540
CHANNEL = 7000
USER = 11


async def build(path: Path, games: int) -> None:
    """A store holding ``games`` live copies of one mid-game Entire Battle, written as the bot writes it."""
    from bench.bench_store import new_game
    from bench.midgame import random_game
    from bot.service.game_service import GameService
    from bot.store.records import SNAPSHOT_EVERY, NewAction
    from bot.store.sqlite import SqliteStore
    from bot.systems import systems
    from engine.vaevictis.game import VaeVictisGame
    from scenarios import load_game

    game = VaeVictisGame(load_game("ardennes44"))
    _, log = random_game(game, SEED, sized(ACTIONS, 30), rest=True)
    store = await SqliteStore.open(path)
    try:
        await store._db.execute("PRAGMA synchronous=OFF")  # the bench's own speed; the file is the same
        service = GameService(store, systems())
        row = await new_game(service, CHANNEL, SEED)
        state = game.new_game("entire-battle", {}, SEED.to_bytes(32, "big"))
        for number, action in enumerate(log, start=1):
            state, events = game.apply(state, action)
            snapshot = state.to_json() if number % SNAPSHOT_EVERY == 0 or number == len(log) else None
            row, _ = await store.record_action(
                row,
                NewAction(action.seat, USER, action.verb, dict(action.args), [e.to_json() for e in events]),
                state_json=snapshot,
            )
        await clone(store, row.id, games - 1)
    finally:
        await store.close()


async def clone(store: object, game: int, copies: int) -> None:
    """``copies`` more live games like ``game``, each in its own channel: every row of every table that names a
    game copied (the columns read from the file, so that a new column or table is copied too)."""
    db = store._db  # type: ignore[attr-defined]
    tables = [r[0] for r in await db.execute_fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")]
    columns = {t: [r[1] for r in await db.execute_fetchall(f"PRAGMA table_info({t})")] for t in tables}
    games_columns = [c for c in columns["games"] if c not in ("id", "channel")]
    owned = [t for t in tables if t != "games" and "game" in columns[t] and t not in ("pending", "league_games")]
    await db.execute("BEGIN")
    for copy in range(1, copies + 1):
        cursor = await db.execute(
            f"INSERT INTO games (channel, {', '.join(games_columns)}) "
            f"SELECT ?, {', '.join(games_columns)} FROM games WHERE id = ?",
            (CHANNEL + copy, game),
        )
        new_id = cursor.lastrowid
        for table in owned:
            rest = ", ".join(c for c in columns[table] if c not in ("game", "id"))  # an own id is given anew
            await db.execute(
                f"INSERT INTO {table} (game, {rest}) SELECT ?, {rest} FROM {table} WHERE game = ?", (new_id, game)
            )
        if copy % 1000 == 0:
            await db.execute("COMMIT")
            await db.execute("BEGIN")
    await db.execute("COMMIT")


async def start(path: str, every_page: bool) -> dict[str, float]:
    """One start, as ``umpire run`` starts (in this process, launched for it): seconds of each stage. With
    ``every_page`` the start checks every page of the file, as it did before issue 32."""
    stages = {}
    began = time.perf_counter()
    from bot.service.config import Settings
    from bot.store.sqlite import SqliteStore
    from bot.systems import systems
    from bot.transports.discord_app import UmpireBot
    from tests.bot.fakediscord import FakeDiscord, FakeUser

    stages["imports"] = time.perf_counter() - began
    began = time.perf_counter()
    store = await SqliteStore.open(path, check=True, every_page=every_page)
    stages["store opened and checked"] = time.perf_counter() - began
    began = time.perf_counter()
    umpire = UmpireBot(Settings(token=None, db=path), store, systems(), sync_commands=False, run_background_tasks=False)
    fake = FakeDiscord(umpire)
    await fake.start()
    stages["bot logged in (commands, cogs)"] = time.perf_counter() - began
    began = time.perf_counter()
    sent = await fake.command(FakeUser(USER, "ann"), CHANNEL, "game status")
    assert sent and not any("went wrong" in s.content or "Refused" in s.content for s in sent), sent
    stages["first answer (/game status, state loaded)"] = time.perf_counter() - began
    stages["from the process's start to the first answer"] = time.perf_counter() - STARTED
    stages["the same, CPU time of the process"] = time.process_time()
    await fake.stop()
    await store.close()
    return stages


async def whole_check(path: Path) -> float:
    """Seconds of the check of every page (``umpire verify`` and ``umpire replay`` run it)."""
    from bot.store.sqlite import SqliteStore

    store = await SqliteStore.open(path)
    try:
        began = time.perf_counter()
        await store.check_every_page()
        return time.perf_counter() - began
    finally:
        await store.close()


def measure(folder: Path, games: int) -> list[tuple[str, str]]:
    path = folder / f"restart-{games}.sqlite3"
    began = time.perf_counter()
    asyncio.run(build(path, games))
    size = path.stat().st_size
    print(f"{games:,} live games: {size / 1e6:,.0f} MB, written in {time.perf_counter() - began:.0f} s")
    runs: dict[str, list[dict[str, float]]] = {"start-up check": [], "every page checked at start": []}
    for _ in range(sized(STARTS, 1)):  # the two kinds of start in turn, so that the machine's load weighs on both
        for kind, found in runs.items():
            command = [sys.executable, __file__, "--start", str(path)]
            if kind == "every page checked at start":
                command.append("--every-page")
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise SystemExit(f"the start failed:\n{done.stdout}\n{done.stderr}")
            found.append(json.loads(done.stdout.splitlines()[-1]))
    figures = []
    for kind, found in runs.items():
        figures += [
            (f"{games:,} games, {kind}: {stage}", f"{statistics.median(r[stage] for r in found):.2f} s")
            for stage in found[0]
        ]
        ready = statistics.median(r["from the process's start to the first answer"] for r in found)
        figures.append((f"{games:,} games, {kind}: ready against the target", f"{ready / TARGET_S:.2f}"))
    whole = asyncio.run(whole_check(path))
    figures.append((f"{games:,} games: the check of every page (verify, replay)", f"{whole:.2f} s"))
    path.unlink()
    for extra in ("-wal", "-shm"):
        Path(str(path) + extra).unlink(missing_ok=True)
    return figures


def main() -> None:
    if "--start" in sys.argv:
        path = sys.argv[sys.argv.index("--start") + 1]
        print(json.dumps(asyncio.run(start(path, every_page="--every-page" in sys.argv))))
        return
    from bench.timing import print_figures

    sizes = [int(a) for a in arguments()] or sized([1000, 10000], [20])
    print_load()
    figures = []
    with tempfile.TemporaryDirectory(dir=os.environ.get("UMPIRE_BENCH_DIR")) as folder:
        for games in sizes:
            figures += measure(Path(folder), games)
    print_load()
    print_figures(figures)


if __name__ == "__main__":
    main()
