"""Correspondence reminders: ping the player who holds a game up, and only them, at most once a day. The rooms'
clocks run with them (:meth:`bot.systems.base.Room.on_clock`: e.g. a frame report's dispute window that ran out),
and so do the archives of finished games' logs left undone while the file was busy
(:meth:`bot.store.interface.GameStore.archive`)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from bot.commands.replies import draw_picture

if TYPE_CHECKING:
    from bot.transports.discord_app import UmpireBot

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
        """Post every due reminder, then what the rooms' clocks decided; returns how many messages were sent.
        Finished games' logs whose archive was left undone (the file busy) are archived now."""
        sent = await self.run_room_clocks()
        try:
            await self.bot.service.store.archive_left_undone()
        except Exception:
            log.exception("archiving the logs left undone failed")
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
            except discord.HTTPException as error:
                log.warning("could not post a reminder in channel %s", table.game.channel)
                if error.status >= 500 or error.status == 429:  # Discord's passing trouble: again next round
                    await self.bot.service.remind_again(table.game.id, seat)
        return sent

    async def run_room_clocks(self) -> int:
        """Let every room act on the clock; post its messages (DMs to their addressee). Returns how many."""
        sent = 0
        for room in self.bot.layer.rooms:
            try:
                replies = await room.on_clock(self.bot.layer.as_layer())
            except Exception:
                log.exception("a room's clock failed")
                continue
            for reply in replies:
                try:
                    drawn = await draw_picture(reply)
                    message = self.bot.message_of(drawn)
                    if drawn.to == "dm" and drawn.user is not None:
                        await (await self.bot.create_dm(discord.Object(drawn.user))).send(**message)
                    elif drawn.channel is not None:
                        self.bot.forget_fold(drawn.channel)
                        await self.bot.get_partial_messageable(drawn.channel).send(**message)
                    sent += 1
                except discord.HTTPException:
                    log.warning("could not deliver a message of a room's clock")
        return sent
