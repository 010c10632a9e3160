"""The reminders' round (bot/transports/cogs/reminders.py, bot/transports/cogs/league_deadlines.py) when Discord fails:
a reminder or a late game's notice that could not be posted because Discord had trouble (5xx, rate limit) is tried
again at the next round (a reminder, not a day later; a notice, not never); one refused for good (the channel gone,
no permission) is not (a reminder waits its day as before, its DM sent)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from tests.bot.conftest import BLUE, CHANNEL, RED
from tests.bot.discord_play import ANN, BOB, close_fake, open_fake
from tests.bot.fakediscord import MODERATOR_ROLE, posts

DAY = 86400.0


class Failure:
    """Enough of an aiohttp response for :class:`discord.HTTPException`."""

    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason


@pytest.mark.parametrize(
    ("error", "again"),
    [
        (discord.DiscordServerError(Failure(503, "Service Unavailable"), "down"), True),
        (discord.Forbidden(Failure(403, "Forbidden"), {"code": 50013, "message": "Missing Permissions"}), False),
    ],
)
async def test_a_reminder_discord_failed_to_post_is_tried_again_next_round(
    error: discord.HTTPException, again: bool, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = await open_fake(db_path)
    try:
        service = fake.bot.service
        now = [1_000_000.0]
        service.clock = lambda: now[0]
        await service.create(
            guild=1,
            channel=CHANNEL,
            caller=RED,
            system_id="duel",
            scenario="standard",
            days_per_move=2,
            reserve_days=5,
        )
        await service.join(CHANNEL, RED, "red")
        await service.join(CHANNEL, BLUE, "blue")
        await service.start(CHANNEL, RED)
        await service.act(CHANNEL, RED, "bid", {"amount": 1})
        reminders: Any = fake.bot.get_cog("Reminders")  # loaded as an extension: not this module's class
        assert type(reminders).__name__ == "Reminders"
        now[0] += 2 * DAY + 1
        channel = fake.bot.get_partial_messageable(CHANNEL)

        async def failing(*args: object, **kwargs: object) -> None:
            raise error

        with monkeypatch.context() as broken:
            broken.setattr(type(channel), "send", failing)
            assert await reminders.send_due() == (0 if again else 1)  # the DM went; the channel's post is tried again
        now[0] += 600  # the next round, ten minutes on
        start = len(fake.sent)
        assert await reminders.send_due() == (2 if again else 0)  # in the channel, and by DM
        if again:
            assert "waiting for your decision as **blue**" in fake.sent[start].content
        now[0] += DAY - 60  # a day after the failure, not yet a day after the retry: once a day at most
        assert await reminders.send_due() == (0 if again else 2)
    finally:
        await close_fake(fake)


class LateGames:
    """A league room with one late game to tell; records the games to tell again."""

    def __init__(self) -> None:
        self.league = SimpleNamespace(id=7, name="Autumn", organiser=RED.user_id, channel=CHANNEL)
        self.late = [SimpleNamespace(id=3, game=12, thread=CHANNEL + 1)]
        self.again: list[Any] = []

    async def newly_late(self) -> list[tuple[Any, list[Any]]]:
        return [(self.league, self.late)]

    async def tell_late_again(self, late: list[Any]) -> None:
        self.again += late


@pytest.mark.parametrize(("status", "again"), [(503, True), (429, True), (403, False), (404, False)])
async def test_a_late_games_notice_discord_failed_to_post_is_told_again_next_round(
    status: int, again: bool, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = await open_fake(db_path)
    try:
        deadlines: Any = fake.bot.get_cog("LeagueDeadlines")  # loaded as an extension: not this module's class
        deadlines.room = room = LateGames()
        channel = fake.bot.get_partial_messageable(CHANNEL)

        async def failing(*args: object, **kwargs: object) -> None:
            raise discord.HTTPException(Failure(status, "trouble"), "could not post")

        monkeypatch.setattr(type(channel), "send", failing)
        assert await deadlines.tell_late() == 0
        assert room.again == (room.late if again else [])
    finally:
        await close_fake(fake)


async def test_clock_behind_discord_vacation_pings_warning_dm_moderators_once_and_claim(db_path: Path) -> None:
    """A correspondence game played behind the fake Discord: vacation requests, grants and ends ping the players
    concerned; the first warning comes before the time is up, in the channel and by DM with the player's games;
    the moderators' role is pinged once when the time and reserve are out; the opponent claims the game."""
    fake = await open_fake(db_path)
    try:
        service = fake.bot.service
        now = [1_000_000.0]
        service.clock = lambda: now[0]
        reminders: Any = fake.bot.get_cog("Reminders")
        await fake.command(ANN, CHANNEL, "game create", scenario="standard", days_per_move=2, reserve_days=1)
        await fake.command(ANN, CHANNEL, "game join", seat="red")
        await fake.command(BOB, CHANNEL, "game join")
        await fake.command(BOB, CHANNEL, "game start")
        await service.act(CHANNEL, RED, "bid", {"amount": 1})
        now[0] += 0.5 * DAY
        asked = posts(await fake.command(BOB, CHANNEL, "game vacation", days=2), CHANNEL)
        assert asked[-1].pings == {ANN.id} and "asks for a vacation of 2 day(s)" in asked[-1].content
        granted = posts(await fake.command(ANN, CHANNEL, "game accept-vacation"), CHANNEL)
        assert granted[-1].pings == {BOB.id} and "vacation granted" in granted[-1].content
        now[0] += 0.5 * DAY
        back = posts(await fake.command(BOB, CHANNEL, "game end-vacation"), CHANNEL)
        assert back[-1].pings == {ANN.id} and "runs again where it stopped" in back[-1].content
        now[0] += 0.99 * DAY  # 1.49 days counted of blue's clock: no warning yet
        assert await reminders.send_due() == 0
        now[0] += 0.01 * DAY
        start = len(fake.sent)
        assert await reminders.send_due() == 2
        warning, dm = fake.sent[start:]
        assert warning.kind == "channel" and warning.pings == {BOB.id}
        assert "runs out in 12 hour(s)" in warning.content
        assert dm.kind == "dm" and dm.user == BOB.id and "Your move in 1 game(s)." in dm.content
        now[0] += 1.5 * DAY  # the time per move and the one day of reserve are spent
        start = len(fake.sent)
        assert await reminders.send_due() == 3
        timeout, _, moderators = fake.sent[start:]
        assert "`/game claim-timeout`" in timeout.content
        assert f"<@&{MODERATOR_ROLE}>" in moderators.content
        assert moderators.payload["allowed_mentions"]["roles"] == [MODERATOR_ROLE]
        now[0] += DAY
        start = len(fake.sent)
        assert await reminders.send_due() == 2  # the daily reminder; the moderators are not pinged again
        assert not any("<@&" in s.content for s in fake.sent[start:])
        status = await fake.command(ANN, CHANNEL, "game status")
        assert any("blue: out of time" in s.content for s in status)
        over = posts(await fake.command(ANN, CHANNEL, "game claim-timeout"), CHANNEL)
        assert "blue ran out of time" in over[-2].content and "red wins on time" in over[-2].content
        assert over[-1].files == ["game-1-record.html"]  # the game's record follows the result (issue 34)
    finally:
        await close_fake(fake)


async def test_clock_behind_discord_a_vacation_over_is_told_once_to_both_players(db_path: Path) -> None:
    fake = await open_fake(db_path)
    try:
        service = fake.bot.service
        now = [1_000_000.0]
        service.clock = lambda: now[0]
        reminders: Any = fake.bot.get_cog("Reminders")
        await fake.command(ANN, CHANNEL, "game create", scenario="standard", days_per_move=2, reserve_days=1)
        await fake.command(ANN, CHANNEL, "game join", seat="red")
        await fake.command(BOB, CHANNEL, "game join")
        await fake.command(BOB, CHANNEL, "game start")
        await service.act(CHANNEL, RED, "bid", {"amount": 1})
        await fake.command(BOB, CHANNEL, "game vacation", days=3)
        await fake.command(ANN, CHANNEL, "game accept-vacation")
        now[0] += 2 * DAY
        assert await reminders.send_due() == 0  # blue's clock stands still: no warning during the vacation
        now[0] += DAY
        start = len(fake.sent)
        assert await reminders.send_due() == 1
        assert "vacation in game #1 is over" in fake.sent[start].content
        assert fake.sent[start].pings == {ANN.id, BOB.id}
        assert await reminders.send_due() == 0
        now[0] += 1.5 * DAY  # three quarters of blue's time per move, counted from the end of the vacation
        assert await reminders.send_due() == 2
    finally:
        await close_fake(fake)
