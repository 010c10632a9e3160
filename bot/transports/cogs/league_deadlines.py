"""League deadlines: tell a league's organiser, in the league channel, of each game that runs past its deadline;
start each scheduled round on its date."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from bot.commands.replies import Context, Reply, draw_picture
from bot.leagues.service import LeagueService
from bot.service.game_service import Caller

if TYPE_CHECKING:
    from bot.transports.discord_app import UmpireBot

log = logging.getLogger(__name__)


class LeagueDeadlines(commands.Cog):
    """Checks the league games' deadlines with the reminders (the deadlines live in the store)."""

    def __init__(self, bot: UmpireBot) -> None:
        self.bot = bot
        self.room = LeagueService(bot.service, listen=False)
        self.loop = tasks.loop(minutes=bot.settings.reminder_minutes)(self.check)
        self.refusals_told: set[tuple[int, str]] = set()
        """(league, refusal) already told to its organiser: a round that cannot start is told once."""

    async def cog_load(self) -> None:
        if self.bot.settings.reminder_minutes > 0 and self.bot.run_background_tasks:
            self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()

    async def check(self) -> None:
        """One turn of the loop: the late games told, the rounds due started."""
        await self.tell_late()
        await self.start_due_rounds()

    async def start_due_rounds(self) -> int:
        """Start each league's scheduled round that is due, in its organiser's name, as `league round` would;
        returns how many were started. A round that cannot start (no pairing is possible, a player's limit of
        live games) is told to the organiser in the league channel, once; the loop tries again at each turn."""
        started = 0
        store = self.bot.service.store
        for league in await self.room.due_rounds():
            minute = int(store.clock() // 60)
            if store.shared and not await store.claim_once(f"round:{league.id}:{minute}"):
                continue  # another process sharing the store starts it; the next turn finds it started
            organiser = Caller(league.organiser or 0, "the league's schedule", moderator=True)
            context = Context(organiser, league.channel, league.guild)
            replies = await self.bot.layer.run("league round", context, {})
            refused = next((r.text for r in replies if r.to == "caller" and r.text.startswith("Refused")), None)
            if refused is not None:
                if (league.id, refused) not in self.refusals_told:
                    self.refusals_told.add((league.id, refused))
                    mention = f"<@{league.organiser}>: " if league.organiser else ""
                    text = f"{mention}{league.name}: the scheduled round could not start. {refused}"
                    users = (league.organiser,) if league.organiser else ()
                    await self.deliver(league.channel, [Reply(text, to="channel", ephemeral=False, mentions=users)])
                continue
            await self.deliver(league.channel, replies)
            started += 1
        return started

    async def deliver(self, channel: int, replies: list[Reply]) -> None:
        """Post a scheduled round's replies: public ones where they belong, private prompts by DM (the players'
        threads say where to answer when a DM cannot be delivered); the organiser's own notes are dropped."""
        for reply in replies:
            try:
                if reply.picture is not None:
                    drawn = await draw_picture(reply)
                    if drawn is None:  # a newer picture of the game took its place
                        continue
                    reply = drawn
                if reply.to == "dm" and reply.user is not None:
                    dm = await self.bot.create_dm(discord.Object(reply.user))
                    await dm.send(**self.bot.message_of(reply))
                elif not (reply.to == "caller" and reply.ephemeral):
                    await self.bot.post(reply.channel or channel, reply)
            except discord.HTTPException:
                log.warning("could not deliver a scheduled round's message in league channel %s", channel)

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
