"""Write ``older_commit.sqlite3`` beside this file: a store written by an older commit of Umpire (a260681, before
rules versions were recorded), with honest games of several systems.

Run it from the repository's root with a checkout of that commit first on the path (its modules are
``bot.service``, ``bot.store`` as single files)::

    git worktree add /tmp/old a260681
    PYTHONPATH=/tmp/old .venv/bin/python tests/bot/data/make_older_commit.py

Each game is created, its seats taken in turn by two players, started, and played by always taking the first choice of
the first prompt that lists choices (the Wargame Commander's sealed basing plans are free actions: a greedy legal
plan) (the same moves every time; the dice come from each game's random seed), for
at most ``ACTIONS`` actions. Games 1 to 3 (Ardennes 1944, Alsace 1944, the Wargame Commander) then end by
resignation, so their seeds are revealed; game 4 (Ardennes 1944) is left being played, to play on after the
upgrade. (An ASL campaign needs its start date from a module this commit did not bundle, so none is played.)
"""

import asyncio
from pathlib import Path
from typing import Any

from bot.service import Caller, GameService
from bot.store import Store
from bot.systems import systems
from engine.wargame_commander.state import board_of
from tests.wargame_commander.play import greedy_basing

HERE = Path(__file__).parent
ACTIONS = 30
PLAYERS = (Caller(101, "blue"), Caller(202, "red"))


async def play(service: Any, channel: int, system_id: str, resign: bool) -> None:
    system = service.system(system_id)
    await service.create(guild=1, channel=channel, caller=PLAYERS[0], system_id=system_id, scenario=system.scenarios[0])
    for number, seat in enumerate(system.seats):
        await service.join(channel, PLAYERS[number % 2], seat)
    await service.start(channel, PLAYERS[0])
    for _ in range(ACTIONS):
        table = await service.table(channel)
        prompts = await service.prompts(table.game)
        chosen = next(((seat, p) for seat, p in prompts.items() if p.choices or "basing" in p.free_verbs), None)
        if chosen is None or table.game.status != "active":
            break
        seat, prompt = chosen
        player = next(p for p in PLAYERS if seat in table.seats_of(p.user_id))
        if prompt.choices:
            choice = prompt.choices[0]
            await service.act(channel, player, choice.verb, dict(choice.args), seat=seat)
        else:  # the Wargame Commander's sealed basing plans (1.3): a legal plan, the same every time
            state = await service.state(table.game)
            plan = greedy_basing(board_of(state), seat)
            await service.act(channel, player, "basing", {"plan": plan}, seat=seat)
    if resign and (await service.table(channel)).game.status == "active":
        await service.resign(channel, PLAYERS[1])


async def write() -> None:
    path = HERE / "older_commit.sqlite3"
    path.unlink(missing_ok=True)
    store = await Store.open(path)
    try:
        service = GameService(store, systems())
        for channel, system_id in enumerate(("ardennes44", "alsace44", "wargame-commander"), start=1):
            await play(service, channel, system_id, resign=True)
        await play(service, 4, "ardennes44", resign=False)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(write())
