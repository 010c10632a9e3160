"""Alsace 1944 through the real discord.py command tree against the fake Discord (no network)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

import bot.service
from bot.config import Settings
from bot.discord_app import UmpireBot
from bot.store import Store
from tests.bot.alsace import alsace_systems
from tests.bot.fakediscord import FakeDiscord, FakeUser, Sent, answers, posts
from tests.bot.test_discord_ardennes import choose, menu_value, no_traceback, prompt_to

ANN = FakeUser(11, "ann")  # German
BOB = FakeUser(22, "bob")  # French
EVE = FakeUser(33, "eve")  # a spectator
CHANNEL = 800
SEED = b"\x07" * 32


@pytest.fixture
async def fake(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    monkeypatch.setattr(bot.service, "new_seed", lambda: SEED)
    store = await Store.open(db_path)
    umpire = UmpireBot(Settings(token=None, db=str(db_path)), store, alsace_systems(), sync_commands=False,
                       run_background_tasks=False)  # fmt: skip
    opened = FakeDiscord(umpire)
    await opened.start()
    yield opened
    await opened.stop()
    await store.close()


def dump(sent: list[Sent]) -> None:
    for s in sent:
        print("---", s.kind, s.channel, "eph" if s.ephemeral else "", s.pings, s.files)
        print(s.content[:1500])
        print("   buttons:", [b for b, _ in s.buttons][:12])


async def test_explore(fake: FakeDiscord) -> None:
    systems = await fake.autocomplete(ANN, CHANNEL, "game create", "system", system="")
    print(systems)
    options = await fake.autocomplete(ANN, CHANNEL, "game create", "options", system="alsace44", options="")
    print(options)
    sent = await fake.command(ANN, CHANNEL, "game create", system="alsace44", scenario="initial-assault")
    dump(sent)
    await fake.command(ANN, CHANNEL, "game join", seat="german")
    await fake.command(BOB, CHANNEL, "game join", seat="allied")
    sent = await fake.command(BOB, CHANNEL, "game start")
    dump(sent)
    assert False
