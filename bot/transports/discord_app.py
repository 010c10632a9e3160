"""The Discord bot: slash commands and buttons in, the command layer's replies out.

The bot stays thin (DESIGN.md): it acknowledges every interaction at once (a deferred, private "thinking"
answer, well within Discord's 3 seconds), runs the command in the transport-independent command layer, and
delivers the replies: private answers as follow-ups, public posts in the game's channel with pings limited
to the players whose input is needed, secret prompts by DM (when a player's DMs are closed, the channel is
told so without revealing anything, with a button to answer privately), map pictures as attachments, each its own
message, drawn only once everything else is answered (:mod:`bot.service.rendering`). The engine and the renderer
run off the event loop (worker threads).

Only slash commands are used, so the bot needs no privileged intent.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.commands.layer import (
    INTERNAL_ERROR,
    Button,
    CommandDef,
    CommandLayer,
    ComputerTurn,
    Context,
    OptionDef,
    Reply,
    Upload,
    custom_id,
    draw_picture,
    parse_custom_id,
    refusal_text,
)
from bot.commands.paging import fit
from bot.service.config import Settings
from bot.service.game_service import Caller, GameService, SystemFactory
from bot.store.opening import open_store
from bot.store.records import StoreError
from bot.store.sqlite import SqliteStore
from bot.systems import systems
from bot.transports.allocator import tune_allocator
from bot.transports.retiring import ANSWERED, STALE_ANSWERS, SUPERSEDED, PromptMessage, PromptMessages, asked_by
from bot.transports.views import FormModal, PromptButton, PromptSelect, build_view
from engine.contract import RulesError

log = logging.getLogger("umpire")

POSTED_HEAD = re.compile(r"[Cc]hain head (?:is )?`([0-9a-f]{16,64})`")
"""A chain head as the bot posts it in the channel: with a map (``Chain head `...```) and at the end."""

HISTORY_READ = 500
"""How many of the channel's latest messages ``game verify`` reads for the last head the bot posted."""

DM_CLOSED = 50007
"""Discord's error code for "Cannot send messages to this user"."""

FOLD_LIMIT = 1900
"""A run of one seat's actions is folded into one message only while its text stays under Discord's 2,000."""
COMPUTER_TASK = "umpire-computer-"
"""The name of a channel's computer task, followed by the channel's id."""
FOLDS_KEPT = 4096
"""How many channels' last folded messages are remembered (the oldest is forgotten first)."""


@dataclass(frozen=True)
class _Folded:
    """The bot's last message in a channel, when later actions of the same run may be folded into it."""

    key: str
    message_id: int
    kept: str
    """The accounts it tells so far (without the prompt that ends it)."""


DELIVERIES_KEPT = 10_000
"""Interactions' ids a process remembers to drop one delivered twice (Discord redelivers within seconds)."""


class UmpireBot(commands.AutoShardedBot):
    """The Umpire bot over one store, auto-sharded: it runs the shards ``UMPIRE_SHARDS`` names of
    ``UMPIRE_SHARD_COUNT`` (every shard when unset), so several processes on one PostgreSQL store share the
    servers between them, each interaction reaching the one process whose shard holds its server (direct
    messages: shard 0's)."""

    def __init__(
        self,
        settings: Settings,
        store: SqliteStore,
        game_systems: dict[str, SystemFactory] | None = None,
        *,
        sync_commands: bool = True,
        run_background_tasks: bool = True,
    ) -> None:
        sharding: dict[str, Any] = {}  # none given: Discord's recommended count, every shard in this process
        if settings.shard_count is not None:
            sharding["shard_count"] = settings.shard_count
        if settings.shards is not None:
            sharding["shard_ids"] = list(settings.shards)
        super().__init__(
            command_prefix=commands.when_mentioned, intents=discord.Intents.default(), help_command=None, **sharding
        )
        self.settings = settings
        self.service = GameService(
            store,
            game_systems or systems(),
            limits=settings.limits,
            state_cache=settings.state_cache,
            state_memory=settings.state_cache_mb * 1024 * 1024,
            picture_workers=settings.picture_workers,
            picture_setup=tune_allocator,  # the workers' C allocator set as the bot's (bot/transports/allocator.py)
            computer_processes=settings.computer_processes,
        )
        self.layer = CommandLayer(self.service, records=True)
        self.layer.open_thread = self.open_thread
        self.sync_commands = sync_commands
        self.run_background_tasks = run_background_tasks
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]
        self._folds: dict[int, _Folded] = {}  # by channel; in memory only: after a restart a run starts anew
        self._prompt_messages = PromptMessages()  # what asked each seat, to retire when superseded
        self._superseded: list[PromptMessage] = []
        self._delivered: dict[int, None] = {}  # the latest interactions' ids, oldest first (first_delivery)
        self._computer_tasks: dict[int, asyncio.Task[None]] = {}  # by channel: the computer playing there
        self._computer_again: set[int] = set()  # channels changed while their computer task was finishing

    async def close(self) -> None:
        """Close the connection to Discord, then stop the computer's workers and the picture workers and thread (a
        picture being drawn is finished; a decision being made is dropped, and made again at the next start)."""
        await super().close()
        for task in list(self._computer_tasks.values()):
            task.cancel()
        await self.service.thinking.aclose()
        await self.service.close_pictures()

    async def setup_hook(self) -> None:
        """Register the persistent buttons, add the commands, and sync them (to the test server if set)."""
        self.add_dynamic_items(PromptButton, PromptSelect)
        await self.load_extension("bot.transports.cogs")
        if self.sync_commands:
            guild = discord.Object(self.settings.guild) if self.settings.guild else None
            if guild is not None:
                self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        if self.run_background_tasks:  # the computer's decisions left when the bot stopped
            for channel in await self.service.computer_games():
                self.nudge_computer(channel)

    async def open_thread(self, channel: int, name: str) -> int:
        """A public thread under a channel (a league game's home), by id; it archives after a silent week."""
        data = await self.http.start_thread_without_message(channel, name=name, auto_archive_duration=10080, type=11)
        return int(data["id"])

    # --- Who is asking ---------------------------------------------------------------------------------

    def context(self, interaction: discord.Interaction[Any], channel: int | None = None) -> Context:
        """The command layer's context of an interaction: the caller, the channel (or thread), the server."""
        user = interaction.user
        moderator = False
        if isinstance(user, discord.Member):
            moderator = interaction.permissions.manage_guild or any(
                role.name == self.settings.moderator_role for role in user.roles
            )
        caller = Caller(user.id, user.display_name, moderator)
        return Context(caller, channel or interaction.channel_id or 0, interaction.guild_id)

    # --- Commands, autocomplete, buttons ----------------------------------------------------------------

    async def first_delivery(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether this interaction (by Discord's id) is seen here for the first time: one delivered again (a
        gateway's replay, two processes in a shard's hand-over) is dropped, so it applies once. A store that
        several processes share remembers the ids for all of them (:meth:`bot.store.sqlite.SqliteStore.claim_once`).
        """
        if interaction.id in self._delivered:
            return False
        self._delivered[interaction.id] = None
        if len(self._delivered) > DELIVERIES_KEPT:
            self._delivered.pop(next(iter(self._delivered)))
        store = self.service.store
        return not store.shared or await store.claim_once(f"interaction:{interaction.id}")

    async def handle_command(
        self, interaction: discord.Interaction[Any], definition: CommandDef, values: dict[str, Any]
    ) -> None:
        """Acknowledge at once, run the command, deliver its replies. A command that may open a form answers
        first (a form must be the first answer): the form is opened, or the answer acknowledged then."""
        if not await self.first_delivery(interaction):
            return
        options = {k: _option_value(v) for k, v in values.items() if v is not None}
        names = {v.id: v.display_name for v in values.values() if isinstance(v, discord.abc.User)}
        if definition.form and not options:  # filled in as options, it is an ordinary command
            replies = await self.layer.run(definition.name, self.context(interaction), options)
            form = next((r.form for r in replies if r.form is not None), None)
            if form is not None:
                await interaction.response.send_modal(FormModal(form))
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            with self.service.renderer.answering():
                pictures = await self.deliver(interaction, replies)
            await self.deliver_pictures(interaction, pictures)
            self.nudge_computer(self.context(interaction).channel)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        if definition.name == "game verify" and "head" not in options:
            posted = await self.last_posted_head(interaction)
            if posted is not None:
                options["head"] = posted
        with self.service.renderer.answering():
            context = replace(self.context(interaction), names=names)
            replies = await self.layer.run(definition.name, context, options)
            pictures = await self.deliver(interaction, replies)
        await self.deliver_pictures(interaction, pictures)
        self.nudge_computer(context.channel)

    async def last_posted_head(self, interaction: discord.Interaction[Any]) -> str | None:
        """The last chain head the bot posted in the interaction's channel (``game verify`` finds it in the log's
        chain: a log rewritten after it was posted does not hold it); ``None`` when none can be read."""
        channel = interaction.channel
        if self.user is None or not isinstance(channel, discord.abc.Messageable):
            return None
        try:
            async for message in channel.history(limit=HISTORY_READ):
                if message.author.id == self.user.id and (found := POSTED_HEAD.findall(message.content)):
                    return str(found[-1])
        except (discord.HTTPException, discord.ClientException):  # no right to read the history: the log alone
            log.info("game verify: the channel's history could not be read")
        return None

    async def handle_submit(self, interaction: discord.Interaction[Any], custom: str, values: dict[str, str]) -> None:
        """A form sent: acknowledge, let the command layer decide, deliver."""
        if not await self.first_delivery(interaction):
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        with self.service.renderer.answering():
            replies = await self.layer.submit(custom, self.context(interaction), values)
            pictures = await self.deliver(interaction, replies)
        await self.deliver_pictures(interaction, pictures)
        await self._nudge_game_of(custom)

    async def handle_autocomplete(
        self, interaction: discord.Interaction[Any], definition: CommandDef, option: OptionDef, current: str
    ) -> list[app_commands.Choice[Any]]:
        """Suggestions legal now for the caller; never more than 25, never an error."""
        given = {k: v for k, v in vars(interaction.namespace).items() if v is not None}
        try:
            pairs = await self.layer.autocomplete(
                definition.name, option.name, current, given, self.context(interaction)
            )
        except Exception:
            log.exception("autocomplete of %s %s failed", definition.name, option.name)
            return []
        if option.kind == "integer":  # Discord takes an integer option's suggestions as numbers only
            numbers = [(label, value) for label, value in pairs if value.lstrip("-").isdigit()]
            return [app_commands.Choice(name=label[:100] or value, value=int(value)) for label, value in numbers[:25]]
        return [app_commands.Choice(name=label[:100] or value[:100], value=value[:100]) for label, value in pairs[:25]]

    async def check_seat_owner(self, interaction: discord.Interaction[Any], match: re.Match[str] | None) -> bool:
        """A prompt button answers only to its seat's player (the interaction check of the dynamic items)."""
        if match is None or parse_custom_id(match.string) is None or match["verb"] not in ("c", "s", "dm"):
            return True  # the command layer refuses what is not one of ours
        seat = match["arg"].split(".")[0]
        game = await self.service.store.game(int(match["game"]))
        if game is None:
            return True  # the command layer says the game is gone
        seats = await self.service.store.seats(game.id)
        row = seats.get(seat)
        if row is not None and row.user_id == interaction.user.id:
            return True
        await interaction.response.send_message(f"Only the {seat} player may answer this.", ephemeral=True)
        return False

    async def handle_press(self, interaction: discord.Interaction[Any], custom: str, values: Any) -> None:
        """A button click or a menu choice: acknowledge, let the command layer decide, deliver."""
        if not await self.first_delivery(interaction):
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        before = await self._revision_of(custom)
        with self.service.renderer.answering():
            try:
                replies = await self.layer.press(custom, self.context(interaction), list(values))
            except Exception:
                log.exception("button %s failed", custom)
                replies = [Reply(INTERNAL_ERROR)]
            answered = before is not None and await self._revision_of(custom) != before
            pictures = await self.deliver(interaction, replies)
            if answered:
                await self._retire_answered(interaction, ANSWERED)
            elif replies and replies[0].text.startswith(STALE_ANSWERS):  # a stale button, clicked: it goes
                await self._retire_answered(interaction, SUPERSEDED)
        await self.deliver_pictures(interaction, pictures)
        await self._nudge_game_of(custom)

    # --- The computer's seats ------------------------------------------------------------------------------

    def nudge_computer(self, channel: int) -> None:
        """A game may have changed in ``channel``: let the computer answer its seats' prompts there, in a task of
        the channel's own (never in the interaction that changed it, which is answered already)."""
        task = self._computer_tasks.get(channel)
        if task is not None and not task.done():
            self._computer_again.add(channel)  # looked at again before that task ends
            return
        self._computer_tasks[channel] = asyncio.create_task(
            self._computer_plays(channel), name=f"{COMPUTER_TASK}{channel}"
        )

    async def _nudge_game_of(self, custom: str) -> None:
        """Nudge the computer in the channel of the game a button or form belongs to (it may come from a DM)."""
        match = parse_custom_id(custom)
        game = await self.service.store.game(int(match["game"])) if match is not None else None
        if game is not None:
            self.nudge_computer(game.channel)

    async def _computer_plays(self, channel: int) -> None:
        """Post the computer's decisions in ``channel`` one after another until none is left to make."""
        try:
            while True:
                self._computer_again.discard(channel)
                turn = await self.layer.computer_turn(channel)
                if turn is None:
                    if channel in self._computer_again:
                        continue
                    return
                await self._post_turn(channel, turn)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the computer's turn in channel %s failed", channel)
        finally:
            if self._computer_tasks.get(channel) is asyncio.current_task():
                del self._computer_tasks[channel]

    async def _post_turn(self, channel: int, turn: ComputerTurn) -> None:
        """Post one decision of the computer: its messages, then its pictures, then its explanation."""
        later = []
        for reply in turn.replies:
            if reply.picture is not None:
                later.append(reply)
                continue
            await self._deliver_away(channel, reply)
        async for drawn in _drawn(later):
            await self._deliver_away(channel, drawn)
        if turn.explanation is not None:
            await self._deliver_away(channel, turn.explanation)
        await self._retire_superseded()

    async def _deliver_away(self, channel: int, reply: Reply) -> None:
        """Deliver a reply that answers no interaction: in the channel, or by DM."""
        try:
            if reply.to == "dm":
                await self._send_dm(reply.channel or channel, reply)
            else:
                await self.post(reply.channel or channel, reply)
        except discord.HTTPException:
            log.exception("could not deliver a reply")

    async def _revision_of(self, custom: str) -> int | None:
        """The position of the game a prompt's choice (``c``, ``s``) answers in, now; ``None`` for another id."""
        match = parse_custom_id(custom)
        if match is None or match["verb"] not in ("c", "s"):
            return None
        game = await self.service.store.game(int(match["game"]))
        return game.revision if game is not None else None

    async def _retire_answered(self, interaction: discord.Interaction[Any], note: str) -> None:
        """The prompt whose choice was just accepted (or found stale) keeps no live buttons: ``note`` says why."""
        message = interaction.message
        if message is None or message.flags.ephemeral:
            return
        self._prompt_messages.answered(message.channel.id, message.id)
        await self._retire(PromptMessage(message.channel.id, message.id, message.content, 0), note)

    async def _retire(self, message: PromptMessage, note: str) -> None:
        """Edit a prompt's message: its buttons removed, ``note`` added to its text."""
        content = message.content if message.content.endswith(note) else (message.content + note)
        try:
            partial = self.get_partial_messageable(message.channel).get_partial_message(message.message_id)
            await partial.edit(
                content=content[-2000:] if len(content) > 2000 else content,
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),  # an edit pings nobody again
            )
        except discord.HTTPException:
            log.warning("could not retire an old prompt")

    async def _asked(self, channel: int, message_id: int, content: str, reply: Reply) -> None:
        """Remember a message that asks a seat, and retire the ones of that seat it supersedes."""
        asked = asked_by(reply)
        if asked is None:
            return
        game, seat, revision = asked
        superseded = self._prompt_messages.posted(game, seat, PromptMessage(channel, message_id, content, revision))
        self._superseded += superseded  # edited once every reply is delivered (the new prompt comes first)

    async def _retire_superseded(self) -> None:
        """Retire the prompts superseded by the replies just delivered."""
        superseded, self._superseded = self._superseded, []
        for old in superseded:
            await self._retire(old, SUPERSEDED)

    async def on_tree_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        """The one error handler: rules refusals and bad input get a private sentence; bugs are logged."""
        original = getattr(error, "original", error)
        if isinstance(original, RulesError):
            text = refusal_text(original)
        elif isinstance(error, app_commands.TransformerError | app_commands.CheckFailure):
            text = f"Refused: {error}"
        else:
            log.exception("command failed", exc_info=error)
            text = INTERNAL_ERROR
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not tell the user about an error")

    # --- Delivering replies ----------------------------------------------------------------------------

    async def deliver(
        self, interaction: discord.Interaction[Any], replies: list[Reply], *, answer: bool = True
    ) -> list[Reply]:
        """Send every reply where it belongs; the interaction always gets an answer (unless ``answer`` is false:
        it has one already). Replies that carry a picture still to draw are not sent: they are returned, for
        :meth:`deliver_pictures` once everything is answered."""
        answered = False
        later = [r for r in replies if r.picture is not None]
        for reply in replies:
            if reply.picture is not None:
                continue
            try:
                if reply.to == "caller" and reply.ephemeral:
                    await interaction.followup.send(**self._message(reply), ephemeral=True)
                    answered = True
                elif reply.to in ("channel", "caller"):  # a public answer is posted in the channel
                    await self.post(reply.channel or interaction.channel_id or 0, reply)
                else:
                    await self._send_dm(interaction.channel_id or 0, reply)
            except discord.HTTPException:
                log.exception("could not deliver a reply")
        if answer and not answered:
            await interaction.followup.send("Done.", ephemeral=True)
        await self._retire_superseded()
        return later

    async def deliver_pictures(self, interaction: discord.Interaction[Any], replies: list[Reply]) -> None:
        """Draw the pictures of replies held back by :meth:`deliver` and post them, each its own message."""
        async for drawn in _drawn(replies):
            await self.deliver(interaction, [drawn], answer=False)

    async def _send_dm(self, channel_id: int, reply: Reply) -> None:
        """Send a DM; when the addressee's DMs are closed, tell the game's channel (``reply.channel``, else
        ``channel_id``) with a button to answer privately."""
        assert reply.user is not None
        try:
            channel = await self.create_dm(discord.Object(reply.user))
            message = self._message(reply)
            sent = await channel.send(**message)
            await self._asked(channel.id, sent.id, message["content"], reply)
        except discord.Forbidden as error:
            if error.code != DM_CLOSED and error.status != 403:
                raise
            fallback = reply.dm_fallback
            if fallback is None:
                return
            buttons: tuple[Button, ...] = fallback.buttons
            if buttons:
                text = fallback.text
            elif reply.buttons or reply.selects:
                first = (reply.buttons[0].custom_id if reply.buttons else reply.selects[0].custom_id).split(":")
                seat = first[4].split(".")[0]
                buttons = (Button("Answer privately", custom_id(int(first[1]), int(first[2]), "dm", seat), "primary"),)
                text = fallback.text
            else:
                text = fallback.text.replace("Use the button to see your private message here", "Use `/log`")
            notice = Reply(text, to="channel", ephemeral=False, mentions=fallback.mentions, buttons=buttons)
            await self.post(reply.channel or channel_id, notice)

    async def post(self, channel: int, reply: Reply) -> None:
        """Post ``reply`` in the channel; or, when it continues the run of actions told by the bot's last message
        there (:class:`bot.commands.layer.Fold`), edit that message instead: its accounts so far, then this one."""
        last = self._folds.pop(channel, None)
        fold = reply.fold
        if fold is not None and last is not None and last.key == fold.key and not reply.files:
            text = f"{last.kept}\n{reply.text}"
            if len(text) <= FOLD_LIMIT:
                message = self._message(replace(reply, text=text))
                message.setdefault("view", None)  # the old prompt's buttons go when the new prompt has none
                await self.get_partial_messageable(channel).get_partial_message(last.message_id).edit(**message)
                self._remember_fold(channel, replace(last, kept=f"{last.kept}\n{fold.account}"))
                await self._asked(channel, last.message_id, message["content"], reply)
                return
        message = self._message(reply)
        sent = await self.get_partial_messageable(channel).send(**message)
        if fold is not None:
            self._remember_fold(channel, _Folded(fold.key, sent.id, fold.account))
        await self._asked(channel, sent.id, message["content"], reply)

    def _remember_fold(self, channel: int, folded: _Folded) -> None:
        self._folds[channel] = folded
        if len(self._folds) > FOLDS_KEPT:
            self._folds.pop(next(iter(self._folds)))

    def forget_fold(self, channel: int) -> None:
        """Something else was posted in the channel: the next action starts a new message."""
        self._folds.pop(channel, None)

    def message_of(self, reply: Reply) -> dict[str, Any]:
        """The keyword arguments of a Discord message for ``reply`` (a background task's message)."""
        return self._message(reply)

    @staticmethod
    def _message(reply: Reply) -> dict[str, Any]:
        reply = fit(reply)  # a long answer is never cut: its whole text goes along as a file
        message: dict[str, Any] = {
            "content": reply.text,
            "allowed_mentions": discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in reply.mentions]
            ),
        }
        view = build_view(reply)
        if view is not None:
            message["view"] = view
        if reply.files:
            message["files"] = [discord.File(io.BytesIO(f.data), filename=f.name) for f in reply.files]
        return message


def _option_value(value: Any) -> Any:
    """A slash command option as the command layer takes it: a user's id, a file as an :class:`Upload`."""
    if isinstance(value, discord.abc.User):
        return value.id
    if isinstance(value, discord.Attachment):
        return Upload(value.filename, value.size, value.read)
    return value


def run(settings: Settings) -> int:
    """Run the bot until interrupted; a missing or rejected token gives a clear message, not a traceback."""
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    tune_allocator()
    return asyncio.run(_run(settings))


async def _run(settings: Settings) -> int:
    assert settings.token
    try:
        store = await open_store(settings.db, check=True)
    except StoreError as error:
        print(f"umpire: {error}", file=sys.stderr)
        return 1
    bot = UmpireBot(settings, store)
    try:
        async with bot:
            await bot.start(settings.token)
    except discord.LoginFailure:
        print(
            "umpire: Discord rejected the token. Check DISCORD_TOKEN (Developer Portal > your app > Bot > Reset Token)."
        )
        return 2
    except discord.PrivilegedIntentsRequired:
        print("umpire: Discord refused an intent this bot asked for; see docs/hosting.md.")
        return 2
    except (aiohttp.ClientError, OSError) as error:
        print(f"umpire: cannot reach Discord ({error.__class__.__name__}: {error}). Check the network and retry.")
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        await store.close()
    return 0


async def _drawn(replies: list[Reply]) -> AsyncIterator[Reply]:
    """Each reply with its picture drawn, one at a time; a picture a newer one of the same game replaced is left
    out, and one whose drawing failed is logged and left out (the game's change stands either way)."""
    for reply in replies:
        try:
            drawn = await draw_picture(reply)
        except Exception:
            log.exception("a picture could not be drawn")
            continue
        if drawn is not None:
            yield drawn
