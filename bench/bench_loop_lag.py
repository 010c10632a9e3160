"""Does drawing a picture in the render thread hold up the event loop? The loop's lag while it draws.

``python bench/bench_loop_lag.py`` (half a minute). The service draws the whole map of a mid-game position
(the bench position, seed 7) 5 times in its render thread (:mod:`bot.service.rendering`) while a task on the event loop
asks to wake every 5 ms; the lag is how late each wake-up comes. The same ticks without drawing give the
machine's own lag. A picture that held the GIL would delay the loop by its whole drawing time. ``--smoke``
(measures nothing): a position 10 actions in, one picture, a tenth of a second of idle ticks.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_store import logged, new_game, write_log
from bench.midgame import random_game
from bench.timing import print_figures, print_load, sized
from bot.service.game_service import GameService
from bot.store.sqlite import SqliteStore
from bot.systems import systems
from engine.vaevictis.game import VaeVictisGame
from scenarios import load_game

PICTURES = 5
TICK = 0.005


async def ticks(stop: asyncio.Event) -> list[float]:
    """How late (ms) each 5 ms wake-up of the loop comes, until ``stop``."""
    late = []
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(TICK)
        late.append((time.perf_counter() - start - TICK) * 1000)
    return late


async def bench(folder: Path) -> list[tuple[str, str]]:
    game = VaeVictisGame(load_game("ardennes44"))
    state, log = random_game(game, 7, sized(540, 10), rest=True)
    rows, _ = logged(game, 7, log)
    store = await SqliteStore.open(folder / "lag.sqlite3")
    try:
        service = GameService(store, systems())
        created = await new_game(service, 5000, 7)
        await write_log(store, created, rows, {len(rows): state.to_json()})
        await service.picture(5000, None)  # base layer drawn once (not measured)
        stop = asyncio.Event()
        idle = asyncio.create_task(ticks(stop))
        await asyncio.sleep(sized(1.0, 0.1))
        stop.set()
        quiet = await idle
        stop = asyncio.Event()
        busy = asyncio.create_task(ticks(stop))
        start = time.perf_counter()
        pictures = sized(PICTURES, 1)
        for _ in range(pictures):
            await service.picture(5000, None)
        drawing = (time.perf_counter() - start) / pictures * 1000
        stop.set()
        loaded = await busy
    finally:
        await store.close()
    return [
        ("loop lag, nothing drawn", f"median {statistics.median(quiet):.2f} ms, worst {max(quiet):.1f} ms"),
        (
            f"loop lag while {pictures} whole maps are drawn ({drawing:.0f} ms each)",
            f"median {statistics.median(loaded):.2f} ms, worst {max(loaded):.1f} ms",
        ),
    ]


def main() -> None:
    print_load()
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(bench(Path(folder)))
    print_figures(figures)


if __name__ == "__main__":
    main()
