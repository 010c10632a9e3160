"""A game played through the fake Discord: its players, opening and closing the bot, seating, the DMs."""

from __future__ import annotations

from pathlib import Path

from bot.service.config import Settings
from bot.store.sqlite import SqliteStore
from bot.transports.discord_app import UmpireBot
from tests.bot.doubles import duel_systems
from tests.bot.fakediscord import FakeDiscord, FakeUser, Sent

ANN = FakeUser(11, "ann")
BOB = FakeUser(22, "bob")
CHANNEL = 700


async def open_fake(db_path: Path) -> FakeDiscord:
    store = await SqliteStore.open(db_path)
    bot = UmpireBot(Settings(token=None, db=str(db_path)), store, duel_systems(), sync_commands=False,
                    run_background_tasks=False)  # fmt: skip
    fake = FakeDiscord(bot)
    await fake.start()
    return fake


async def close_fake(fake: FakeDiscord) -> None:
    await fake.stop()
    await fake.bot.service.store.close()


async def seated(fake: FakeDiscord) -> list[Sent]:
    await fake.command(ANN, CHANNEL, "game create", scenario="standard")
    await fake.command(ANN, CHANNEL, "game join", seat="red")
    await fake.command(BOB, CHANNEL, "game join")
    return await fake.command(BOB, CHANNEL, "game start")


def dm_to(sent: list[Sent], user: FakeUser) -> Sent:
    return next(s for s in sent if s.kind == "dm" and s.user == user.id)
