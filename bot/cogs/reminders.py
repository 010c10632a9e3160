"""Correspondence reminders: ping the player who holds a game up, and only them, at most once a day."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

if TYPE_CHECKING:
    from bot.discord_app import UmpireBot

log = logging.getLogger(__name__)


class Reminders(commands.Cog):
    """Checks the due reminders every few minutes (they live in the store, so they survive restarts)."""

    def __init__(self, bot: UmpireBot) -> None:
        self.bot = bot
        self.loop = tasks.loop(minutes=bot.settings.reminder_minutes)(self.send_due)

    async def cog_load(self) -> None:
        if self.bot.settings.reminder_minutes > 0 and self.bot.run_background_tasks:
            self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()

    async def send_due(self) -> int:
        """Post every due reminder; returns how many were sent."""
        sent = 0
        for table, seat, user, reserve in await self.bot.service.due_reminders():
            text = (
                f"<@{user}>: reminder, game #{table.game.id} is waiting for your decision as **{seat}**. "
                f"Reserve left: {max(0.0, reserve):.1f} day(s)."
            )
            if reserve < 0:
                text += " The reserve is used up: a moderator may adjudicate."
            try:
                self.bot.forget_fold(table.game.channel)
                await self.bot.get_partial_messageable(table.game.channel).send(
                    text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(user)])
                )
                sent += 1
            except discord.HTTPException:
                log.warning("could not post a reminder in channel %s", table.game.channel)
        return sent
