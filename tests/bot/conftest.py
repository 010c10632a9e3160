"""Fixtures of the bot tests: a store on a temporary file, the service and the command layer over Duel."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.commands.layer import CommandLayer, Context
from bot.service.game_service import Caller, GameService
from bot.store.opening import open_store
from bot.store.sqlite import SqliteStore
from tests.bot.doubles import duel_systems

RED = Caller(11, "ann")
BLUE = Caller(22, "bob")
MOD = Caller(99, "mod", moderator=True)
CHANNEL = 500


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "umpire.sqlite3"


@pytest.fixture
def store_target(db_path: Path, backend: str, request: pytest.FixtureRequest) -> str:
    """Where the test's store is: a SQLite file, or this worker's PostgreSQL database (``backend``); a test that
    restarts opens it again with :func:`bot.store.opening.open_store`."""
    return str(request.getfixturevalue("pg_url")) if backend == "postgresql" else str(db_path)


@pytest.fixture
async def store(store_target: str) -> AsyncIterator[SqliteStore]:
    """The store the test runs on (:func:`store_target`)."""
    opened = await open_store(store_target)
    yield opened
    await opened.close()


@pytest.fixture
def service(store: SqliteStore) -> GameService:
    return GameService(store, duel_systems())


@pytest.fixture
def layer(service: GameService) -> CommandLayer:
    return CommandLayer(service, "duel")


def ctx(caller: Caller, channel: int = CHANNEL) -> Context:
    return Context(caller, channel, 1)


async def started(service: GameService, channel: int = CHANNEL, bids: tuple[int, int] | None = (2, 1)) -> None:
    """A Duel game in ``channel`` with ann (red) and bob (blue) seated and started; bids made if given."""
    await service.create(guild=1, channel=channel, caller=RED, system_id="duel", scenario="standard")
    await service.join(channel, RED, "red")
    await service.join(channel, BLUE, "blue")
    await service.start(channel, RED)
    if bids:
        await service.act(channel, RED, "bid", {"amount": bids[0]})
        await service.act(channel, BLUE, "bid", {"amount": bids[1]})


@pytest.fixture
def pictures(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str | None, dict[str, Any]]]]:
    """Every (seat, view) a map picture is drawn from."""
    import render.view_picture

    drawn: list[tuple[str | None, dict[str, Any]]] = []
    original = render.view_picture.picture_from_view

    def spy(data: Any, view: Any, *args: Any, **kwargs: Any) -> Any:
        drawn.append((kwargs.get("seat"), view))
        return original(data, view, *args, **kwargs)

    monkeypatch.setattr(render.view_picture, "picture_from_view", spy)
    yield drawn
