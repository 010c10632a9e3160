"""Correspondence clocks' notices: warn, then remind, the player who holds a game up, and only them, at most once a
day, in the channel and by DM with a digest (:mod:`bot.commands.clock_notices`); tell the moderators once when a
seat runs out of time; tell the players when a vacation is over. The rooms'
clocks run with them (:meth:`bot.systems.base.Room.on_clock`: e.g. a frame report's dispute window that ran out),
and so do the archives of finished games' logs left undone while the file was busy
(:meth:`bot.store.interface.GameStore.archive`)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from bot.commands.clock_notices import clock_notice
from bot.commands.replies import draw_picture
from bot.service.correspondence import Notice

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
        """Post every vacation that ended and every clock's notice due, then what the rooms' clocks decided;
        returns how many messages were sent. Finished games' logs whose archive was left undone (the file busy)
        are archived now."""
        sent = await self.run_room_clocks()
        try:
            await self.bot.service.store.archive_left_undone()
        except Exception:
            log.exception("archiving the logs left undone failed")
        for table, seat in await self.bot.service.vacations_over():
            users = sorted({u for r in table.seats.values() if (u := r.user_id) is not None})
            text = f"{seat}'s vacation in game #{table.game.id} is over: the clock runs again where it stopped."
            sent += await self._post(table.game.channel, " ".join(f"<@{u}>" for u in users) + " " + text, users) is True
        for notice in await self.bot.service.due_reminders():
            channel_text, dm_text = clock_notice(notice)
            posted = await self._post(notice.table.game.channel, channel_text, [notice.user])
            if posted is False:  # Discord's passing trouble: again next round
                await self.bot.service.remind_again(notice.table.game.id, notice.seat)
                continue
            sent += posted is True
            try:
                await (await self.bot.create_dm(discord.Object(notice.user))).send(dm_text)
                sent += 1
            except discord.HTTPException:
                log.info("could not DM a clock's notice to user %s", notice.user)
            if notice.first_timeout and notice.decided is None:
                sent += await self._tell_moderators(notice)
        return sent

    async def _post(self, channel: int, text: str, users: list[int]) -> bool | None:
        """Post in a channel pinging exactly ``users``: ``True`` when posted, ``False`` when Discord's trouble may
        pass (a 5xx, a rate limit: tried again next round), ``None`` when refused for good."""
        try:
            self.bot.forget_fold(channel)
            await self.bot.get_partial_messageable(channel).send(
                text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in users])
            )
            return True
        except discord.HTTPException as error:
            log.warning("could not post a clock's notice in channel %s", channel)
            return False if error.status >= 500 or error.status == 429 else None

    async def _tell_moderators(self, notice: Notice) -> int:
        """Ping the server's moderators' role, once, when a seat runs out of time."""
        game = notice.table.game
        role = None
        if game.guild is not None:
            try:
                roles = await self.bot.http.get_roles(game.guild)
                role = next((int(r["id"]) for r in roles if r["name"] == self.bot.settings.moderator_role), None)
            except discord.HTTPException:
                log.warning("could not read the roles of server %s", game.guild)
        who = f"<@&{role}>" if role is not None else f"Moderators ({self.bot.settings.moderator_role})"
        text = (
            f"{who}: in game #{game.id}, **{notice.seat}** has run out of time and reserve. The opponent may claim "
            "the game (`/game claim-timeout`); a moderator may substitute the player (`/mod substitute`) or abandon "
            "the game (`/mod abandon`), and a league's organiser decide it (`/league forfeit`, `/league adjudicate`)."
        )
        try:
            await self.bot.get_partial_messageable(game.channel).send(
                text, allowed_mentions=discord.AllowedMentions(roles=[discord.Object(role)] if role else False)
            )
            return 1
        except discord.HTTPException:
            log.warning("could not tell the moderators of game %s", game.id)
            return 0

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
                    if drawn is None:  # a newer picture of the game took its place
                        continue
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
