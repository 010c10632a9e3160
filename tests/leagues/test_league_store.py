"""The league tables arrive by a migration: a store from before leagues opens at the latest schema, its
games intact, and leagues work in it."""

from __future__ import annotations

from pathlib import Path

import pytest

import bot.store.sqlite
from bot.leagues.service import LeagueService
from bot.service.game_service import Caller, GameService
from bot.store.sqlite import MIGRATIONS, SqliteStore
from tests.bot.doubles import duel_systems


async def test_a_store_from_before_leagues_gains_the_league_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.sqlite3"
    before = next(n for n, m in enumerate(MIGRATIONS) if isinstance(m, str) and "CREATE TABLE leagues" in m)
    monkeypatch.setattr(bot.store.sqlite, "MIGRATIONS", MIGRATIONS[:before])
    old = await SqliteStore.open(path)
    async with old.transaction() as db:  # a game as that schema holds it (today's code writes newer columns)
        await db.execute(
            "INSERT INTO games (guild, channel, system, scenario, seed, seed_hash, created, updated) "
            "VALUES (1, 5, 'duel', 'short', ?, ?, 0, 0)",
            ("00" * 32, "00" * 32),
        )
    assert await old.schema_version() == before
    await old.close()
    monkeypatch.setattr(bot.store.sqlite, "MIGRATIONS", MIGRATIONS)
    store = await SqliteStore.open(path)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        assert (await store.live_game_in(5)) is not None
        room = LeagueService(GameService(store, duel_systems()))
        league = await room.create(guild=1, channel=6, caller=Caller(9, "org", moderator=True), name="After",
                                   system_id="duel", scenario="short", rounds=1)  # fmt: skip
        assert (await room.league(6)).id == league.id
    finally:
        await store.close()
