"""The bot under sustained load: actions arriving at random (Poisson) over many games, for minutes.

``python bench/bench_sustained.py --rate 30 --seconds 600`` (ten minutes, plus the set-up). The bot is the real
:class:`bot.transports.discord_app.UmpireBot` behind the test suite's fake Discord (no network), with its picture
workers (``--workers``, default the bot's: ``bot.service.config.default_picture_workers``). ``--games`` games
(default 60) stand at the bench position (The Entire Battle, ``bench.midgame.random_game`` seed 7, 540 actions,
stored with the last state as snapshot, as ``bench/bench_bot.py`` seeds them); each then plays on by random legal
actions of its own (seed: its number), worked out beforehand with the engine and sent as ``/act`` commands (an
attack's odds preview confirmed by its button). Arrivals are a Poisson stream of ``--rate`` actions a second over
all games, each to a game drawn at random; a game's actions are sent one after another (a player sends the next
once the last is answered), each timed from its arrival.

Reported: the answers (arrival to the private answer), and the pictures: for each action that brings the map (an
activation's end, a new turn), from its arrival to the posting of its picture or of a newer one of the same game
(a picture superseded while it waited is never posted: the newer one shows the game as it is). Memory: the RSS of
the bot's process and of all its child processes (the picture workers) together, every second; its median over the
first and the last third of the run say whether it stays flat.

``--smoke``: three games, a few seconds, to check that the bench still runs (no figure means anything then).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Hashable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from bench.bench_bot import TimedDiscord
    from engine.contract import Action
    from engine.vaevictis.game import VaeVictisGame
    from engine.vaevictis.state import GameState
    from tests.bot.fakediscord import Sent

# Nothing of the bot is imported at the top: the picture workers are started by spawn, which imports this
# script in each worker as its main module, and a worker should hold what drawing needs, not the bench's fake
# Discord (the bot's own main module, ``bot.transports.cli``, imports as little; issue 32).

ACTIONS = 540
ANSWER_TARGET = 1.0
PICTURE_TARGET = 5.0
MEMORY_TARGET_MB = 250.0
KEPT = 100
"""The fake Discord's latest messages kept (it records every message; a long run would grow by them alone)."""
CONTINUATIONS = 3
"""Different lines of play from the position, shared round the games (random play costs time to work out)."""


def continuation(game: VaeVictisGame, state: GameState, seed: int, count: int) -> list[tuple[Action, bool]]:
    """``count`` random legal actions from ``state`` (seed ``seed``), each with whether it brings the map."""
    from bot.systems.vaevictis.adapter import PICTURE_KINDS

    _, log = random_game_from(game, state, random.Random(seed), count)
    return [(action, any(e.kind in PICTURE_KINDS for e in events)) for action, events in log]


def random_game_from(
    game: VaeVictisGame, state: GameState, rng: random.Random, count: int
) -> tuple[GameState, list[tuple[Action, list[Any]]]]:
    """Random legal play as ``bench.midgame.random_game`` plays it, from a given state."""
    from engine.contract import RulesError
    from engine.vaevictis.legal import candidate_actions

    log: list[tuple[Action, list[Any]]] = []
    while state.result is None and len(log) < count:
        side = rng.choice(sorted(game.prompts(state)))
        actions = candidate_actions(game, state, side)

        def key(action: Action) -> float:
            weight = 0.6 if action.verb in ("pass", "end_activation", "end_support") else 1.0
            return float(rng.random() ** (1 / weight))

        for action in sorted(actions, key=key, reverse=True):
            try:
                state, events = game.apply(state, action)
            except RulesError:
                continue
            log.append((action, list(events)))
            break
        else:
            break
    return state, log


def rss_mb(pid: int) -> float:
    """A process's resident memory (``VmRSS``), 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def pss_mb(pid: int) -> float:
    """A process's proportional share of memory (``Pss`` of ``/proc/<pid>/smaps_rollup``: a page shared by n
    processes counts 1/n in each, so the sum over processes counts it once), 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user and system), 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The process ids whose parent is ``pid``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except OSError:
                continue
    return found


class Load:
    """The arrivals, the answers and the pictures of one run."""

    def __init__(self, fake: TimedDiscord, plans: dict[int, list[tuple[Action, bool]]]) -> None:
        self.fake = fake
        self.plans = plans
        self.queues: dict[int, asyncio.Queue[float]] = {c: asyncio.Queue() for c in plans}
        self.answers: list[float] = []
        self.refused = 0
        self.arrived = 0
        self.unplanned = 0
        """Arrivals at a game whose plan was played out (or refused): nothing sent."""
        self.picture_arrivals: dict[int, list[float]] = defaultdict(list)
        """Per channel, the arrival of each action that brings a picture, in order."""
        self.picture_done: dict[Hashable, list[float | None]] = defaultdict(list)
        """Per picture key, for each picture asked for in order: when it was posted (``None``: superseded)."""
        self.followups: dict[int, asyncio.Event] = {c: asyncio.Event() for c in plans}
        self.answered: dict[int, Sent] = {}
        """Each game's latest private answer."""
        self.memory: list[float] = []
        """The RSS of the bot's process and its children, summed, every second."""
        self.shared: list[float] = []
        """The same as PSS: pages shared between them counted once."""
        self.main_memory: list[float] = []
        self.worker_memory: list[tuple[float, float]] = []
        """The RSS and PSS of the picture workers, summed, every second."""

    def record(self, sent: Sent) -> None:
        sent.file_data = {}  # the fake Discord keeps every message: the pictures' bytes are not the bot's memory
        if sent.kind == "followup" and sent.channel in self.followups and not sent.files:
            self.answered[sent.channel] = sent
            self.followups[sent.channel].set()

    async def player(self, channel: int) -> None:
        """One game's actions, one after another, each as it arrives."""
        from bench.bench_bot import ALLIED, GERMAN

        plan = self.plans[channel]
        queue = self.queues[channel]
        while True:
            arrived = await queue.get()
            if not plan:
                self.unplanned += 1
                continue
            action, brings_map = plan.pop(0)
            user = GERMAN if action.seat == "german" else ALLIED
            args = " ".join(f"{k}={v}" for k, v in action.args.items())
            options = {"verb": action.verb, **({"args": args} if args else {})}
            answer = await self.send(channel, self.fake.command_payload(user, channel, "act", **options))
            if answer.buttons and any(label == "Confirm" for label, _ in answer.buttons):
                answer = await self.send(channel, self.fake.click_payload(user, answer, "Confirm"))
            self.answers.append(time.perf_counter() - arrived)
            if "Refused" in answer.content:
                self.refused += 1
                plan.clear()  # the game no longer follows its plan: it sends nothing more
            if brings_map:
                self.picture_arrivals[channel].append(arrived)

    async def send(self, channel: int, payload: dict[str, Any]) -> Sent:
        event = self.followups[channel]
        event.clear()
        self.fake._token_channels[payload["token"]] = channel
        self.fake.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await event.wait()
        return self.answered[channel]

    async def arrivals(self, rate: float, seconds: float, rng: random.Random) -> None:
        channels = sorted(self.plans)
        end = time.perf_counter() + seconds
        while (now := time.perf_counter()) < end:
            self.queues[rng.choice(channels)].put_nowait(now)
            self.arrived += 1
            await asyncio.sleep(rng.expovariate(rate))

    async def sample_memory(self, stop: asyncio.Event) -> None:
        me = os.getpid()
        while not stop.is_set():
            main = rss_mb(me)
            self.main_memory.append(main)
            others = children(me)
            self.memory.append(main + sum(rss_mb(child) for child in others))
            self.shared.append(pss_mb(me) + sum(pss_mb(child) for child in others))
            workers = self.fake.bot.service.pictures.running()
            self.worker_memory.append((sum(rss_mb(w) for w in workers), sum(pss_mb(w) for w in workers)))
            del self.fake.sent[:-KEPT], self.fake.stamps[:-KEPT]  # the fake Discord's record is not the bot's memory
            await asyncio.sleep(1.0)


async def run(folder: Path, arguments: argparse.Namespace) -> list[tuple[str, str]]:
    from bench.bench_bot import FIRST_CHANNEL, NO_LIMITS, SEED, TimedDiscord, seed_games, stored_rows
    from bench.midgame import random_game
    from bot.service.config import Settings
    from bot.store.sqlite import SqliteStore
    from bot.systems import systems
    from bot.transports.discord_app import UmpireBot
    from engine.vaevictis.game import VaeVictisGame
    from scenarios import load_game

    game = VaeVictisGame(load_game("ardennes44"))
    began = time.perf_counter()
    state, log = random_game(game, SEED, 60 if arguments.smoke else ACTIONS, rest=True)
    rows = stored_rows(game, log, SEED)
    per_game = int(arguments.rate * arguments.seconds / arguments.games * 1.5) + 10
    channels = [FIRST_CHANNEL + i for i in range(arguments.games)]
    # Every game starts at the same position with the same dice: a continuation fits any of them.
    lines = [continuation(game, state, i, per_game) for i in range(min(CONTINUATIONS, arguments.games))]
    plans = {c: list(lines[i % len(lines)]) for i, c in enumerate(channels)}
    print(f"position and {len(lines)} x {per_game} actions worked out ({time.perf_counter() - began:.1f} s)")
    store = await SqliteStore.open(folder / "sustained.sqlite3")
    try:
        await seed_games(store, log, rows, arguments.games)
        del game, state, log, rows  # what the bench alone holds is not the bot's memory
        settings = Settings(token=None, limits=NO_LIMITS, picture_workers=arguments.workers)
        umpire = UmpireBot(settings, store, systems(), sync_commands=False, run_background_tasks=False)
        fake = TimedDiscord(umpire)
        await fake.start()
        try:
            return await measure(fake, plans, arguments)
        finally:
            await fake.stop()
    finally:
        await store.close()


Plans: TypeAlias = "dict[int, list[tuple[Action, bool]]]"


async def measure(fake: TimedDiscord, plans: Plans, arguments: argparse.Namespace) -> list[tuple[str, str]]:
    from bot.service.picture_pool import PictureRequest, Superseded

    load = Load(fake, plans)
    recording = fake._record

    def record(kind: str, channel: int | None, payload: dict[str, Any], files: list[str]) -> Sent:
        sent = recording(kind, channel, payload, files)
        load.record(sent)
        return sent

    fake._record = record  # type: ignore[method-assign]
    pool = fake.bot.service.pictures
    drawing = pool.draw

    async def timed_draw(request: PictureRequest, key: Hashable | None = None) -> bytes | None:
        done = load.picture_done[key]
        index = len(done)
        done.append(None)
        try:
            png = await drawing(request, key)
        except Superseded:
            raise
        done[index] = time.perf_counter()
        return png

    pool.draw = timed_draw  # type: ignore[method-assign]
    for channel in plans:  # every game loaded, and the workers started, before the clock runs
        await fake.bot.service.state((await fake.bot.service.table(channel, live=False)).game)
    await pool.worker_pids()
    games = {(await fake.bot.service.table(c)).game.id: c for c in plans}
    players = [asyncio.create_task(load.player(c)) for c in plans]
    stop = asyncio.Event()
    sampler = asyncio.create_task(load.sample_memory(stop))
    workers = pool.running()
    worker_cpu = sum(cpu_seconds(pid) for pid in workers)
    cpu = time.process_time()
    began = time.perf_counter()
    await load.arrivals(arguments.rate, arguments.seconds, random.Random(arguments.seed))
    offered = time.perf_counter() - began
    while any(not q.empty() for q in load.queues.values()):  # the actions that arrived are all answered
        await asyncio.sleep(0.1)
    await fake.settle()  # and every picture posted
    worker_cpu = sum(cpu_seconds(pid) for pid in pool.running()) - worker_cpu
    stop.set()
    await sampler
    for player in players:
        player.cancel()
    pictures = picture_latencies(load, games)
    memory = load.memory
    third = max(1, len(memory) // 3)
    return [
        ("load offered", f"{arguments.rate:g} actions/s over {arguments.games} games for {offered:.0f} s "
                         f"({load.arrived} arrived, {len(load.answers)} answered, {load.refused} refused, "
                         f"{load.unplanned} past a game's plan)"),
        ("picture workers", str(pool.workers)),
        ("answers: median / p99 / worst", f"{ms(load.answers, 0.5)} / {ms(load.answers, 0.99)} / "
                                          f"{ms(load.answers, 1.0)} (target p99 {ANSWER_TARGET:g} s)"),
        ("pictures: median / p99 / worst", f"{ms(pictures, 0.5)} / {ms(pictures, 0.99)} / {ms(pictures, 1.0)} "
                                           f"(target p99 {PICTURE_TARGET:g} s; {len(pictures)} actions with a map, "
                                           f"{pool.drawn} pictures drawn, {pool.superseded} superseded)"),
        ("memory, all the bot's processes: first third / last third / peak",
         f"{statistics.median(memory[:third]):.0f} / {statistics.median(memory[-third:]):.0f} / {max(memory):.0f} MB "
         f"(target {MEMORY_TARGET_MB:g} MB)"),
        ("memory as PSS (shared pages once), all processes: first third / last third / peak",
         f"{statistics.median(load.shared[:third]):.0f} / {statistics.median(load.shared[-third:]):.0f} / "
         f"{max(load.shared):.0f} MB"),
        ("memory of the workers, RSS / PSS: last third / peak",
         f"{statistics.median(w[0] for w in load.worker_memory[-third:]):.0f} / "
         f"{statistics.median(w[1] for w in load.worker_memory[-third:]):.0f} MB; "
         f"{max(w[0] for w in load.worker_memory):.0f} / {max(w[1] for w in load.worker_memory):.0f} MB"),
        ("memory, the bot's process alone: first third / last third / peak",
         f"{statistics.median(load.main_memory[:third]):.0f} / {statistics.median(load.main_memory[-third:]):.0f} / "
         f"{max(load.main_memory):.0f} MB"),
        ("CPU of the bot's process", f"{time.process_time() - cpu:.1f} s over {time.perf_counter() - began:.0f} s"),
        ("CPU of the picture workers", f"{worker_cpu:.1f} s, {worker_cpu / max(1, pool.drawn) * 1000:.0f} ms a picture"
                                       + (" (a worker was replaced: partial)" if pool.restarts else "")),
    ]  # fmt: skip


def picture_latencies(load: Load, games: dict[int, int]) -> list[float]:
    """For each action that brought a map: seconds from its arrival to the posting of its picture or a newer one."""
    found: list[float] = []
    for key, done in load.picture_done.items():
        if not isinstance(key, tuple) or key[0] not in games:
            continue
        arrivals = load.picture_arrivals[games[key[0]]]
        for index, arrived in enumerate(arrivals[: len(done)]):
            posted = next((d for d in done[index:] if d is not None), None)
            if posted is not None:
                found.append(posted - arrived)
    return found


def ms(values: list[float], quantile: float) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(quantile * len(ordered)))] * 1000:.0f} ms"


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bench.timing import print_figures, print_load
    from bot.service.config import default_picture_workers
    from bot.transports.allocator import tune_allocator

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=30.0, help="actions a second over all games (default 30)")
    parser.add_argument("--seconds", type=float, default=600.0, help="how long actions arrive (default 600)")
    parser.add_argument("--games", type=int, default=60, help="games at once (default 60)")
    parser.add_argument("--workers", type=int, default=default_picture_workers(), help="picture worker processes")
    parser.add_argument("--seed", type=int, default=32, help="the arrivals' seed")
    parser.add_argument("--smoke", action="store_true", help="three games, a few seconds: does the bench run?")
    arguments = parser.parse_args()
    if arguments.smoke:
        arguments.games, arguments.seconds, arguments.rate = 3, 3.0, 3.0
    print_load()
    tune_allocator()  # as the bot does at its start
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(run(Path(folder), arguments))
    print_load()
    print_figures(figures)


if __name__ == "__main__":
    main()
