"""League deadlines: tell a league's organiser, in the league channel, of each game that runs past its deadline."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from bot.leagues.service import LeagueService

if TYPE_CHECKING:
    from bot.transports.discord_app import UmpireBot

log = logging.getLogger(__name__)


class LeagueDeadlines(commands.Cog):
    """Checks the league games' deadlines with the reminders (the deadlines live in the store)."""

    def __init__(self, bot: UmpireBot) -> None:
        self.bot = bot
        self.room = LeagueService(bot.service, listen=False)
        self.loop = tasks.loop(minutes=bot.settings.reminder_minutes)(self.tell_late)

    async def cog_load(self) -> None:
        if self.bot.settings.reminder_minutes > 0 and self.bot.run_background_tasks:
            self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()

    async def tell_late(self) -> int:
        """Post each league's newly late games once; returns how many messages were sent."""
        sent = 0
        for league, late in await self.room.newly_late():
            games = ", ".join(f"#{p.game} (<#{p.thread}>)" for p in late)
            mention = f"<@{league.organiser}>: " if league.organiser else ""
            text = (
                f"{mention}{league.name}: game(s) {games} ran past their deadline. "
                "`league forfeit`, `league adjudicate` or `league extend` (logged)."
            )[:1900]
            users = [discord.Object(league.organiser)] if league.organiser else []
            try:
                await self.bot.get_partial_messageable(league.channel).send(
                    text, allowed_mentions=discord.AllowedMentions(users=users)
                )
                sent += 1
            except discord.HTTPException as error:
                log.warning("could not tell league %s of its late games", league.id)
                if error.status >= 500 or error.status == 429:  # Discord's passing trouble: again next round
                    await self.room.tell_late_again(late)
        return sent
