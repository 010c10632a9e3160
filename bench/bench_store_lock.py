"""The store while another program holds a write lock on its file: how long the other games' reads take, and
how soon a write is refused.

``python bench/bench_store_lock.py`` (a few seconds). A store file holds two Duel games; another connection
(standing for another program, e.g. a second bot or a ``sqlite3`` shell left in a transaction) takes the
write lock and keeps it. Meanwhile one task tries to write to game A (it waits up to
:data:`bot.store.sqlite.WRITE_WAIT_MS`, then is refused) while reads of game B are timed: a read goes through the
store's read connection, so it does not queue behind the blocked write. Printed: the median and the longest
read of game B during the wait, and the time until the write was refused. Already small, it runs the same with
``--smoke``.
"""

from __future__ import annotations

import asyncio
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service.game_service import Caller, GameService
from bot.store.records import StoreBusyError
from bot.store.sqlite import SqliteStore
from tests.bot.doubles import duel_systems

RED, BLUE = Caller(11, "ann"), Caller(22, "bob")


async def measure(path: Path) -> None:
    store = await SqliteStore.open(path)
    service = GameService(store, duel_systems())
    for channel in (1, 2):
        await service.create(guild=1, channel=channel, caller=RED, system_id="duel", scenario="standard")
        await service.join(channel, RED, "red")
        await service.join(channel, BLUE, "blue")
        await service.start(channel, RED)
    intruder = sqlite3.connect(path, isolation_level=None)
    intruder.execute("BEGIN IMMEDIATE")
    began = time.perf_counter()

    async def write() -> float:
        try:
            await service.act(1, RED, "bid", {"amount": 2})
        except StoreBusyError:
            return (time.perf_counter() - began) * 1000
        raise AssertionError("the write went through a held lock")

    blocked = asyncio.create_task(write())
    reads = []
    while not blocked.done():
        start = time.perf_counter()
        await service.table(2)
        reads.append((time.perf_counter() - start) * 1000)
        await asyncio.sleep(0.01)
    refused = await blocked
    intruder.rollback()
    intruder.close()
    await store.close()
    print(
        f"reads of another game during the wait: {len(reads)}, median {statistics.median(reads):.2f} ms, "
        f"longest {max(reads):.2f} ms; the blocked write refused after {refused:.0f} ms"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(measure(Path(folder) / "lock.sqlite3"))


if __name__ == "__main__":
    main()
