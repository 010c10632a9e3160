"""One and two bot processes on PostgreSQL against one on SQLite: the action rate at which answers stay under a
second, and the time per action (docs/performance.md, "PostgreSQL and several processes").

``python bench/bench_scale_out.py`` (about two minutes; starts its own PostgreSQL from the Debian packages'
binaries, or uses ``UMPIRE_BENCH_POSTGRES``). Each process is the service over the store (:class:`GameService`:
the channel locks, the state cache, the rules in a worker thread, one store transaction per action), playing the
test suite's Duel (its rules cost next to nothing, so the figures are the bot's and the store's own work) in
games of its own, as processes each serving their shards' servers would. Actions arrive on a fixed schedule
(open loop, as players' clicks do, whether or not the bot kept up), at 5, 10, 20 ... actions a second in all,
two seconds at each rate, shared evenly by the processes; each action's time runs from its scheduled arrival
to its answer. A rate "holds" while 95 % of its answers come within a second. ``--smoke``: one low rate, half a
second, two games per process (the figures mean nothing; it shows the bench still runs).
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SMOKE = "--smoke" in sys.argv or os.environ.get("UMPIRE_BENCH_SMOKE") == "1"
if SMOKE:
    os.environ["UMPIRE_BENCH_SMOKE"] = "1"  # the worker processes read it too

RATES = (5,) if SMOKE else (5, 10, 20, 40, 80, 160, 320)
"""Actions a second, in all, tried in turn (a process stops after the first rate it cannot keep)."""
SECONDS = 0.5 if SMOKE else 2.0
"""How long each rate is kept up."""
GAMES = 2 if SMOKE else 10
"""Games each process plays at once."""
WITHIN = 1.0
"""The answer time a rate must keep for 95 % of its actions."""


async def worker(target: str, share: float, start: float, index: int) -> list[list[float]]:
    """One process: its games, then each rate's actions on schedule; the answer times, by rate."""
    from bot.service.game_service import Caller, GameService
    from bot.store.opening import open_store
    from tests.bot.doubles import duel_systems

    store = await open_store(target)
    service = GameService(store, duel_systems())
    red, blue = Caller(1, "ann"), Caller(2, "bob")
    channels = [100_000 * (index + 1) + n for n in range(GAMES)]
    for channel in channels:
        await service.create(guild=1, channel=channel, caller=red, system_id="duel", scenario="standard")
        await service.join(channel, red, "red")
        await service.join(channel, blue, "blue")
        await service.start(channel, red)
        await service.act(channel, red, "bid", {"amount": 2})
        await service.act(channel, blue, "bid", {"amount": 1})
    turn = dict.fromkeys(channels, 0)  # red moves first in every game; each action ends the turn

    async def one(channel: int, due: float, times: list[float]) -> None:
        caller = (red, blue)[turn[channel] % 2]
        turn[channel] += 1
        await asyncio.sleep(max(0.0, due - time.time()))
        await service.act(channel, caller, "end_turn", {})
        times.append(time.time() - due)

    results = []
    for step, rate in enumerate(RATES):
        begin = start + step * (SECONDS + 1.0)
        count = int(rate * share * SECONDS)
        times: list[float] = []
        tasks = [
            one(channels[n % GAMES], begin + n / (rate * share), times) for n in range(count)
        ]  # turn order fixed here: a game's actions queue on its channel lock in the order they arrive
        await asyncio.gather(*tasks)
        results.append(times)
        if sorted(times)[int(len(times) * 0.95) - 1] > 2 * WITHIN:
            break  # far behind: the higher rates would only queue longer
    await store.close()
    return results


def run(target: str, processes: int) -> list[tuple[int, float, float]]:
    """(rate, 95th percentile, median) of the answer times, per rate, with ``processes`` processes."""
    start = time.time() + (5.0 if SMOKE else 20.0)  # every process has made its games by then
    code = (
        f"import asyncio, json, sys; sys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r}); "
        "from bench.bench_scale_out import worker; "
        f"print(json.dumps(asyncio.run(worker({target!r}, {1 / processes}, {start}, int(sys.argv[1])))))"
    )
    started = [
        subprocess.Popen([sys.executable, "-c", code, str(i)], stdout=subprocess.PIPE, text=True)
        for i in range(processes)
    ]
    outputs = [json.loads(p.communicate()[0]) for p in started]
    figures = []
    for step, rate in enumerate(RATES[: min(len(out) for out in outputs)]):
        times = sorted(t for out in outputs for t in out[step])
        figures.append((rate, times[int(len(times) * 0.95) - 1], statistics.median(times)))
    return figures


def held(figures: list[tuple[int, float, float]]) -> int:
    """The highest rate whose 95th percentile stayed within :data:`WITHIN` (and every lower one too)."""
    best = 0
    for rate, p95, _ in figures:
        if p95 > WITHIN:
            break
        best = rate
    return best


def main() -> None:
    from tests.postgres_server import Cluster, binaries, database_url, psql

    cluster = None
    server = os.environ.get("UMPIRE_BENCH_POSTGRES")
    if server is None:
        found = binaries()
        if found is None:
            raise SystemExit("no PostgreSQL server binaries (apt-get install postgresql), nor UMPIRE_BENCH_POSTGRES")
        cluster = Cluster.start(found)
        server = cluster.url
    try:
        runs = {}
        with tempfile.TemporaryDirectory() as folder:
            runs["SQLite, 1 process"] = run(str(Path(folder) / "bench.sqlite3"), 1)
        for processes in (1, 2):
            name = f"umpire_bench_{processes}"
            psql(server, f"DROP DATABASE IF EXISTS {name}")
            psql(server, f"CREATE DATABASE {name}")
            runs[f"PostgreSQL, {processes} process{'es' if processes > 1 else ''}"] = run(
                database_url(server, name), processes
            )
    finally:
        if cluster is not None:
            cluster.stop()
    base = runs["SQLite, 1 process"]
    print(f"{'store':<26}{'holds (actions/s)':>18}{'median at 5/s':>16}   p95 by rate (s)")
    for label, figures in runs.items():
        p95s = "  ".join(f"{rate}:{p95:.2f}" for rate, p95, _ in figures)
        print(f"{label:<26}{held(figures):>18}{figures[0][2] * 1000:>13.1f} ms   {p95s}")
    for label, figures in runs.items():
        print(
            f"{label}: {held(figures) / max(1, held(base)):.2f} x the rate SQLite holds, "
            f"{figures[0][2] / base[0][2]:.2f} x its median time per action at 5/s"
        )


if __name__ == "__main__":
    main()
