"""Write ``version3.sqlite3`` and ``version3.json`` beside this file with the store of schema version 3.

Run it from a checkout of commit 840d9f4 (the last store of schema 3), with that checkout first on the path::

    git worktree add /tmp/v3 840d9f4
    PYTHONPATH=/tmp/v3 .venv/bin/python tests/bot/data/make_version3.py

Game 1 plays 9 turns, takes the last one back and ends by resignation; game 2 is still being played. Events are
compressed with a dictionary after the 4th action, so both kinds of stored events are in the file.
"""

import asyncio
import json
from pathlib import Path

import bot.store.sqlite as store_module
from bot.service.game_service import GameService
from bot.store.sqlite import SqliteStore
from tests.bot.conftest import BLUE, CHANNEL, RED, started
from tests.bot.doubles import duel_systems
from tests.bot.store_play import play

HERE = Path(__file__).parent


async def write_version_3() -> None:
    store_module.DICTIONARY_AFTER = 4
    path = HERE / "version3.sqlite3"
    path.unlink(missing_ok=True)
    store = await SqliteStore.open(path)
    service = GameService(store, duel_systems())
    await started(service)
    await play(service, 9)
    await service.undo(CHANNEL, RED)
    await service.resign(CHANNEL, BLUE)
    await started(service, channel=CHANNEL + 1)
    await play(service, 3, channel=CHANNEL + 1)
    states = {}
    for game_id in (1, 2):
        game = await store.game(game_id)
        assert game is not None
        states[str(game_id)] = await service.state(game)
    await store.close()
    (HERE / "version3.json").write_text(json.dumps(states, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    asyncio.run(write_version_3())
