"""``umpire migrate-db``: a SQLite host moved to PostgreSQL keeps every game, league and secret (issue 31)."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from bot.leagues.store import LeagueStore
from bot.service.game_service import GameService
from bot.store import copying
from bot.store.opening import open_store
from bot.transports.cli import main
from tests.bot.conftest import BLUE, MOD, RED, started
from tests.bot.doubles import duel_systems

DATA = Path(__file__).parent / "data"


async def migrate(path: Path, url: str) -> int:
    """``umpire migrate-db --from path --to url``, its exit status (the command runs its own event loop)."""
    return await asyncio.to_thread(main, ["migrate-db", "--from", str(path), "--to", url])


async def a_host(path: Path) -> None:
    """A SQLite file with a game being played (sealed bids, an undo, a moderator's fix), one over, and a league."""
    store = await open_store(path)
    service = GameService(store, duel_systems())
    await started(service, channel=1)
    await service.act(1, RED, "advance", {"steps": 1})
    await service.act(1, RED, "roll", {})
    await service.act(1, RED, "end_turn", {})
    await service.act(1, BLUE, "advance", {"steps": 2})
    await service.undo(1, BLUE)
    await started(service, channel=2)
    await service.resign(2, RED)
    await started(service, channel=3, bids=None)
    await service.abandon(3, MOD, "a test")
    leagues = LeagueStore(store)
    league = await leagues.create(guild=1, channel=9, name="autumn", system="duel", scenario="standard",
                                  format="swiss", rounds=2, status="running", organiser=5)  # fmt: skip
    await leagues.add_round(league.id, 1, "duel", "standard", None, [(11, 22, None, None, None)], 0.0)
    await store.set_preference(11, "reports", "off")
    await store.close()


async def test_migrate_db_copies_every_game_league_and_secret_and_checks_each(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "host.sqlite3"
    await a_host(path)
    assert await migrate(path, pg_url) == 0
    said = capsys.readouterr().out
    assert "3 games" in said and "1 leagues" in said and "checked 3 game(s)" in said
    source, target = await open_store(path), await open_store(pg_url)
    try:
        for game_id in (1, 2, 3):
            assert await copying._reading(source, game_id) == await copying._reading(target, game_id)
        assert len(await target.secrets(1)) == 2
        assert await LeagueStore(target).pairings(1) == await LeagueStore(source).pairings(1)
        assert await target.preference(11, "reports") == "off"
        game = await target.create_game(
            guild=1, channel=4, system="duel", scenario="standard", options={}, seed="00", seed_hash="h",
            seats=("red", "blue"), time_control={}, creator=1,
        )  # fmt: skip
        assert game.id == 4  # numbering goes on after the copied games
        service = GameService(target, duel_systems())
        await service.act(1, BLUE, "advance", {"steps": 1})  # the copied game goes on on the server
    finally:
        await source.close()
        await target.close()


async def test_migrate_db_moves_a_file_from_an_older_version(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "version3.sqlite3"
    shutil.copy(DATA / "version3.sqlite3", path)
    assert await migrate(path, pg_url) == 0
    assert "checked 2 game(s)" in capsys.readouterr().out


async def test_migrate_db_refuses_a_target_holding_games_and_reports_a_copy_that_differs(
    tmp_path: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "host.sqlite3"
    await a_host(path)
    monkeypatch.setattr(copying, "TABLES", tuple(t for t in copying.TABLES if t != "secrets"))
    assert await migrate(path, pg_url) == 1
    assert "game #1: its secrets differs in the copy" in capsys.readouterr().err
    assert await migrate(path, pg_url) == 1
    assert "the target already holds games" in capsys.readouterr().err
