"""Does the computer's thinking slow the other games? Their answers while it plays, and its decision times.

``python bench/bench_computer.py [LEVEL] [--smoke]`` (a few minutes; LEVEL ``normal`` by default; ``--smoke``: 20
answers a run). One game of Ardennes 1944
(The Initial Assault) is played by the computer against itself, decision after decision, while five other games
of two people each answer their prompts (the first choice offered, through :meth:`GameService.choose`, as a
button does) one after another on the same event loop; each answer's time is measured, from the call to the
stored outcome. Three runs: no computer (the machine's own figures), the computer in its worker process (as the
bot runs it, :mod:`bot.service.thinking`), and the computer in a thread of the bot's own process (what the worker
process avoids: its search holds the interpreter's lock). The computer's decision times are measured as the bot
sees them (view, transfer to the worker, decision, answer).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import print_figures, print_load
from bot.service.game_service import Caller, GameService
from bot.store.sqlite import SqliteStore
from bot.systems import systems
from engine.contract import Prompt

SCENARIO = "initial-assault"
PEOPLE_GAMES = 5
ANSWERS = 400
"""Answers measured per run (spread over the people's games)."""
COMPUTER_CHANNEL = 1
OWNER = Caller(1, "owner", moderator=True)


async def people_game(service: GameService, channel: int) -> tuple[Caller, Caller]:
    first, second = Caller(channel * 10 + 1, "a"), Caller(channel * 10 + 2, "b")
    await service.create(guild=1, channel=channel, caller=first, system_id="ardennes44", scenario=SCENARIO)
    await service.join(channel, first, "german")
    await service.join(channel, second, "allied")
    await service.start(channel, first)
    return first, second


async def answer(service: GameService, channel: int, players: dict[str, Caller]) -> float | None:
    """Answer one required prompt of the game with its first choice; the time it took (ms), or ``None``."""
    table = await service.table(channel)
    prompts = await service.prompts(table.game)
    seat = next((s for s, p in prompts.items() if not p.optional and p.choices), None)
    if seat is None:
        return None

    async def still_valid(_table: Any, _prompt: Prompt) -> bool:
        return False

    start = time.perf_counter()
    await service.choose(channel, players[seat], seat, 1, table.game.revision, still_valid)
    return (time.perf_counter() - start) * 1000


async def computer_plays(service: GameService, stop: asyncio.Event, decisions: list[float]) -> None:
    real = service.thinking.decide

    async def timed(*args: Any) -> Any:
        start = time.perf_counter()
        try:
            return await real(*args)
        finally:
            decisions.append((time.perf_counter() - start) * 1000)

    service.thinking.decide = timed  # type: ignore[method-assign]
    while not stop.is_set():
        if await service.computer_move(COMPUTER_CHANNEL) is None:
            return


async def run(folder: Path, computer: str, level: str) -> tuple[list[float], list[float]]:
    store = await SqliteStore.open(folder / f"{computer}.sqlite3")
    service = GameService(store, systems(), computer_processes=0 if computer == "thread" else 1)
    answers: list[float] = []
    decisions: list[float] = []
    try:
        games = {}
        for channel in range(2, 2 + PEOPLE_GAMES):
            first, second = await people_game(service, channel)
            games[channel] = {"german": first, "allied": second}
        stop = asyncio.Event()
        thinker = None
        if computer != "none":
            await service.create(
                guild=1, channel=COMPUTER_CHANNEL, caller=OWNER, system_id="ardennes44", scenario=SCENARIO
            )
            await service.seat_computer(COMPUTER_CHANNEL, OWNER, "german", level)
            await service.seat_computer(COMPUTER_CHANNEL, OWNER, "allied", level)
            await service.start(COMPUTER_CHANNEL, OWNER)
            thinker = asyncio.create_task(computer_plays(service, stop, decisions))
            while not decisions:  # measured once the computer is thinking (its worker started)
                await asyncio.sleep(0.05)
        while len(answers) < ANSWERS:
            for channel, players in games.items():
                took = await answer(service, channel, players)
                if took is not None:
                    answers.append(took)
                await asyncio.sleep(0.02)  # people do not all click in the same millisecond
        stop.set()
        if thinker is not None:
            await thinker
    finally:
        await service.thinking.aclose()
        await service.renderer.aclose()
        await store.close()
    return answers, decisions


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def bench(folder: Path, level: str) -> list[tuple[str, str]]:
    figures = []
    for computer, words in (
        ("none", "no computer playing"),
        ("process", f"the computer ({level}) thinking in its worker process"),
        ("thread", f"the computer ({level}) thinking in a thread of the bot's process"),
    ):
        answers, decisions = await run(folder, computer, level)
        figures.append(
            (
                f"other games' answers, {words}",
                f"median {statistics.median(answers):.0f} ms, 95th percentile {quantile(answers, 0.95):.0f} ms, "
                f"worst {max(answers):.0f} ms ({len(answers)} answers)",
            )
        )
        if decisions:
            figures.append(
                (
                    f"the computer's decisions as the bot sees them ({computer})",
                    f"median {statistics.median(decisions):.0f} ms, worst {max(decisions):.0f} ms "
                    f"({len(decisions)} decisions)",
                )
            )
    return figures


def main() -> None:
    global ANSWERS
    arguments = [a for a in sys.argv[1:] if a != "--smoke"]
    if "--smoke" in sys.argv:  # the bench still runs: a few answers, the figures mean nothing
        ANSWERS = 20
    level = arguments[0] if arguments else "normal"
    print_load()
    with tempfile.TemporaryDirectory() as folder:
        print_figures(asyncio.run(bench(Path(folder), level)))


if __name__ == "__main__":
    main()
