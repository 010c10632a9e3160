"""A finished game kept in a store, for the tests that verify and record it."""

from __future__ import annotations

from pathlib import Path

from bot.service.game_service import GameService
from bot.store.sqlite import SqliteStore
from tests.bot.conftest import BLUE, CHANNEL, RED, started
from tests.bot.doubles import duel_systems


async def finished_game(db_path: Path) -> str:
    """A Duel game with bids (sealed), rolls and advances, ended by resignation; the chain head as posted."""
    store = await SqliteStore.open(db_path)
    service = GameService(store, duel_systems())
    await started(service)
    for _ in range(2):
        await service.act(CHANNEL, RED, "roll", {})
        await service.act(CHANNEL, RED, "advance", {"steps": 1})
        await service.act(CHANNEL, RED, "end_turn", {})
        await service.act(CHANNEL, BLUE, "roll", {})
        await service.act(CHANNEL, BLUE, "end_turn", {})
    await service.resign(CHANNEL, BLUE)
    game = await store.game(1)
    await store.close()
    assert game is not None and game.chain_head is not None
    return game.chain_head
