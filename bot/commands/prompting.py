"""Turning what happened into messages: an accepted action's account, the prompts that ask each seat for its
decision (buttons, select menus, by DM when sealed, behind a private button under fog of war), the end of a
game, the map picture after an activation.

:class:`Prompting` is a part of the command layer (:class:`bot.commands.layer.CommandLayer` inherits it); rooms reach
it through :class:`bot.systems.base.Layer` (``outcome_replies``, ``prompt_replies``, ``game_over``,
``freshness``). A game's system may draw its own prompts' components (:meth:`bot.systems.base.Room.components`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from bot.commands import info
from bot.commands.catalogue import COMMANDS
from bot.commands.replies import Attachment, Button, Context, Fold, PictureJob, Reply, Select, custom_id, who
from bot.commands.rooms import all_rooms, cross_system_rooms
from bot.service.game_service import GameService, Outcome, Refusal, Table
from bot.service.record import record_html
from bot.systems.base import Room
from engine.contract import Prompt

if TYPE_CHECKING:
    from bot.systems.base import Layer

MAX_BUTTONS = 20
"""Prompts with more choices than this use select menus (25 entries each) instead of buttons."""

NO_ROOM = Room()
"""The room of a game system that brings nothing of its own (e.g. one a test registers)."""


HEAD_SHOWN = 16
"""Hex digits of the chain's head posted with each activation's or turn's map (``umpire verify --head`` finds them
in the log's chain; 64 bits cannot be matched by a rewritten log)."""

RECORD_LIMIT = 10 * 2**20
"""The largest record posted as a file: what a bot may attach to a message in a server without boosts."""


class Prompting:
    """The messages of outcomes and prompts (a part of the command layer)."""

    service: GameService
    pictures: bool
    """Whether map pictures are drawn after activations (the console may skip them)."""
    records: bool
    """Whether the game's record is posted when a game ends."""
    _system_rooms: Mapping[str, Room]

    def as_layer(self) -> Layer:
        """This part as the whole command layer it belongs to (what rooms are given)."""
        return cast("Layer", self)

    def room_of(self, system_id: str) -> Room:
        """The command half of a game system (an empty :class:`Room` for a system not registered)."""
        return self._system_rooms.get(system_id) or NO_ROOM

    async def outcome_replies(
        self, ctx: Context, outcome: Outcome, note: str = "Done.", before_result: Reply | None = None
    ) -> list[Reply]:
        """The messages of an outcome: the caller's ``note``, the account of what happened, the prompts it leads
        to and the map; when the game ended, ``before_result`` (the computer's reason for its last move) follows
        the account and comes before the result, its map and its record."""
        table = outcome.table
        replies = [Reply(note, channel=ctx.channel)]
        lines = []
        public = outcome.public_events
        sealed_only = outcome.events and not public and not outcome.receipt  # e.g. a stack's new top
        if outcome.seat and outcome.action is not None and not sealed_only:
            command = _command_of(outcome.action.verb, self.room_of(table.game.system))
            shown = "" if command.startswith("/act ") else f" {command}"
            lines.append(f"**{outcome.seat}** ({who(table, outcome.seat)}){shown}")
        lines += [f"- {e['text']}" for e in public]
        plain = [e["text"] for e in outcome.events if not e.get("secret_to")]
        if [e["text"] for e in public] != plain and outcome.own_events:
            own = "\n".join(f"- {e['text']}" for e in outcome.own_events if not e.get("secret_to"))
            replies.append(Reply(f"What happened, as your side sees it:\n{own}", channel=ctx.channel))
        if outcome.receipt:
            lines.append(f"The {outcome.seat} player sealed a decision; receipt `{outcome.receipt[:16]}`.")
        details = [e["data"]["details"] for e in public if "details" in e.get("data", {})]
        files = (_details_file(table, details),) if details else ()
        for seat in sorted({s for e in outcome.events for s in e.get("secret_to", ())}):
            user = table.user_of(seat)
            texts = [e["text"] for e in outcome.events if seat in e.get("secret_to", ())]
            if user is None:
                continue
            if user == ctx.caller.user_id and seat == outcome.seat:
                replies.append(Reply("Only you see this: " + "\n".join(texts), channel=ctx.channel))
            else:
                replies.append(self._dm(ctx, user, seat, "\n".join(texts), (), ()))
        account = "\n".join(lines)
        if outcome.result is not None:
            if account:
                replies.append(Reply(account, to="channel", ephemeral=False, channel=ctx.channel, files=files))
            if before_result is not None:
                replies.append(before_result)
            if outcome.picture_due:
                replies.append(await self._picture_reply(ctx, outcome.picture_events, "The map at the end."))
            replies.append(self.game_over(ctx, table, outcome.result.text))
            replies += self.record_at_end(ctx, table)
            return replies
        # One message per action: what happened, followed by the decision it leads to (the acting seat's own
        # next prompt if it has one, else the first seat asked), so a move is one message, not two.
        asked = await self._seat_prompts(
            ctx, table, outcome.prompts, outcome.ping, outcome.fresh, outcome.private_prompts, outcome.seat
        )
        ranked = sorted(
            (i for i, (_, r) in enumerate(asked) if r.to == "channel"),
            key=lambda i: (outcome.prompts[asked[i][0]].optional, asked[i][0] != outcome.seat),
        )
        if account and ranked:
            seat, merged = asked.pop(ranked[0])
            runs_on = seat == outcome.seat and not outcome.prompts[seat].optional and not merged.mentions and not files
            fold = Fold(f"{table.game.id}.{seat}", account) if runs_on else None
            merged = replace(merged, text=f"{account}\n{merged.text}", files=(*files, *merged.files), fold=fold)
            asked.insert(0, (seat, merged))
        elif account:
            replies.append(Reply(account, to="channel", ephemeral=False, channel=ctx.channel, files=files))
        if outcome.picture_due:  # Discord draws and posts it after everything else (UmpireBot.deliver_pictures)
            caption = "The map at the start."
            if outcome.action is not None:  # the system says what the picture shows, when it can
                captions = getattr(self.service.system(table.game.system), "picture_caption", None)
                caption = captions(outcome.events) if captions else "The map after that action."
            if outcome.action is not None and table.game.chain_head:  # an anchor outside the database
                caption += f" Chain head `{table.game.chain_head[:HEAD_SHOWN]}`."
            replies.append(await self._picture_reply(ctx, outcome.picture_events, caption))
        replies += await info.turn_reports(self.as_layer(), ctx, outcome)  # Turn-start reports: bot/commands/info.py
        replies += await self.room_of(table.game.system).after_outcome(self.as_layer(), ctx, outcome)
        return replies + [r for _, r in asked]

    async def _picture_reply(self, ctx: Context, events: Sequence[Mapping[str, Any]], text: str) -> Reply:
        if not self.pictures:
            return Reply(text + " (map pictures are off)", to="channel", ephemeral=False, channel=ctx.channel)
        try:
            later = await self.service.picture_job(ctx.channel, None, events, newest="after")
        except Refusal:
            return Reply(text + " (this game has no map picture)", to="channel", ephemeral=False)
        return Reply(text, to="channel", ephemeral=False, picture=later, channel=ctx.channel)

    def record_job(self, game_id: int, seat: str | None) -> PictureJob:
        """The making of a game's record as ``seat`` may see it (:mod:`bot.service.record`), as a job a transport runs
        once every answer is sent, like a map picture; it refuses a record Discord would not take."""

        async def made() -> bytes:
            page = (await record_html(self.service, game_id, seat)).encode()
            if len(page) > RECORD_LIMIT:
                raise Refusal(
                    f"the record is {len(page) / 2**20:.1f} MiB, more than a message may carry "
                    f"({RECORD_LIMIT / 2**20:.0f} MiB): `umpire record {game_id} --out game.html` writes it"
                )
            return page

        return made

    def record_at_end(self, ctx: Context, table: Table) -> list[Reply]:
        """The game's record posted in the channel when it ends (when :attr:`records` is on): everything revealed."""
        if not self.records:
            return []
        game = table.game
        return [
            Reply(
                f"The record of game #{game.id}: open it in any browser to step through the map, read the log and "
                "charts, and check every die and the hash chain.",
                to="channel",
                ephemeral=False,
                channel=ctx.channel,
                picture=self.record_job(game.id, None),
                picture_name=f"game-{game.id}-record.html",
            )
        ]

    def game_over(self, ctx: Context, table: Table, text: str) -> Reply:
        game = table.game
        return Reply(
            f"**Game over**: {text}.\nThe dice seed was `{game.seed}`; its SHA-256 `{game.seed_hash}` was posted "
            f"at the creation. The log's chain head is `{game.chain_head}`. Anyone can check every roll and "
            f"every logged action: `umpire verify {game.id}` or `game verify`.",
            to="channel",
            ephemeral=False,
            channel=ctx.channel,
        )

    async def prompt_replies(
        self,
        ctx: Context,
        table: Table,
        prompts: Mapping[str, Prompt],
        ping: Mapping[str, int],
        fresh: frozenset[str] | None = None,
        private: bool = False,
    ) -> list[Reply]:
        """The messages that ask each seat for its decision (see :meth:`_seat_prompts`)."""
        return [r for _, r in await self._seat_prompts(ctx, table, prompts, ping, fresh, private)]

    async def _seat_prompts(
        self,
        ctx: Context,
        table: Table,
        prompts: Mapping[str, Prompt],
        ping: Mapping[str, int],
        fresh: frozenset[str] | None = None,
        private: bool = False,
        acting: str | None = None,
    ) -> list[tuple[str, Reply]]:
        """The messages that ask each seat for its decision, each with its seat.

        A required prompt pings its player when ``ping`` names the seat. With ``fresh`` given, a prompt is
        posted only when it is in ``fresh`` (new or changed; an optional one, a chance to react, once per
        window), except the ``acting`` seat's, whose buttons its own action made stale. A secret prompt goes
        by DM; under fog of war (``private``) the channel only says whose decision it is, with a button that
        shows the choices to that player alone.
        """
        replies: list[tuple[str, Reply]] = []
        for seat, prompt in prompts.items():
            if fresh is not None and seat not in fresh and seat not in ping and (prompt.optional or seat != acting):
                continue  # unchanged, and its buttons still work: not posted again
            asking = await self._asking(ctx, table, seat, prompt, seat in ping, private)
            replies += [(seat, reply) for reply in asking]
        return replies

    async def _asking(
        self, ctx: Context, table: Table, seat: str, prompt: Prompt, pinged: bool, private: bool
    ) -> list[Reply]:
        """The messages that ask one seat for its decision (:meth:`_seat_prompts`): a line for the computer's
        seat, a button to the choices under fog of war, one button for a chance with many targets, a DM and a
        notice for a secret prompt, else the prompt with its buttons in the channel."""
        user = table.user_of(seat)
        if (level := table.computer_of(seat)) is not None:  # it answers by itself: no buttons, no ping
            text = f"**{seat}** (the computer, {level}) decides."
            return [] if prompt.optional else [Reply(text, to="channel", ephemeral=False, channel=ctx.channel)]
        rule = f" (rule {prompt.rule})" if prompt.rule and f"({prompt.rule})" not in prompt.text else ""
        mention = (user,) if pinged and user is not None and not prompt.optional else ()
        if private and not prompt.secret and user is not None:
            return [self._fog_reply(ctx, table, seat, user, prompt, mention)]
        if prompt.optional and not prompt.secret and len(prompt.choices) > MAX_BUTTONS and user is not None:
            return [self._offer_reply(ctx, table, seat, user, prompt, rule)]
        buttons, selects = await self._components(table, seat, prompt)
        if prompt.secret and user is not None:
            notice = f"<@{user}> ({seat}) has a sealed decision to make: it was sent privately."
            return [
                self._dm(ctx, user, seat, f"**{seat}**: {prompt.text}{rule}", buttons, selects),
                Reply(notice, to="channel", ephemeral=False, mentions=mention, channel=ctx.channel),
            ]
        free = self._also(table, prompt)
        listed = "\n".join(f"[{i}] {c.label or c.verb}" for i, c in enumerate(prompt.choices, 1))
        head = "(optional, no need to answer) " if prompt.optional else ""
        return [
            Reply(
                f"<@{user}> (**{seat}**): {head}{prompt.text}{rule}{free}\n{listed}".strip(),
                to="channel",
                ephemeral=False,
                mentions=mention,
                buttons=buttons,
                selects=selects,
                channel=ctx.channel,
            )
        ]

    def _fog_reply(
        self, ctx: Context, table: Table, seat: str, user: int, prompt: Prompt, mention: tuple[int, ...]
    ) -> Reply:
        """Under fog of war, the channel says whose decision it is, with a button that shows the choices to
        that player alone."""
        words = self.room_of(table.game.system)
        asked = words.may_react if prompt.optional else "must decide"
        return Reply(
            f"<@{user}> (**{seat}**) {asked}. {words.fog_of_war}: the choices are shown only to you.",
            to="channel",
            ephemeral=False,
            mentions=mention,
            buttons=(
                Button(
                    "Show my choices",
                    custom_id(table.game.id, table.game.revision, "dm", seat),
                    "secondary" if prompt.optional else "primary",
                ),
            ),
            channel=ctx.channel,
        )

    def _offer_reply(self, ctx: Context, table: Table, seat: str, user: int, prompt: Prompt, rule: str) -> Reply:
        """A chance to act with many targets (an event playable at any of dozens of hexes) as one short line and
        one button that shows the choices to its player alone, never a long list in the channel."""
        room = self.room_of(table.game.system)
        commands = ", ".join(f"`{c}`" for c in dict.fromkeys(_commands_of([c.verb for c in prompt.choices], room)))
        return Reply(
            f"<@{user}> (**{seat}**): (optional, no need to answer) {prompt.text}{rule} "
            f"{len(prompt.choices)} choices: the button shows them to you alone; or use {commands}.",
            to="channel",
            ephemeral=False,
            buttons=(
                Button("Show my choices", custom_id(table.game.id, table.game.revision, "dm", seat), "secondary"),
            ),
            channel=ctx.channel,
        )

    async def freshness(self, table: Table, seat: str, prompt: Prompt) -> str:
        """A short hash of the seat's prompt and of how many actions the seat has made: a button stays valid
        while both are unchanged, even if the other side acted meanwhile (simultaneous secret decisions)."""
        own = table.game.seat_actions.get(seat, 0)
        return hashlib.sha256(f"{own}|{prompt!r}".encode()).hexdigest()[:8]

    async def _components(
        self, table: Table, seat: str, prompt: Prompt
    ) -> tuple[tuple[Button, ...], tuple[Select, ...]]:
        if (own := await self.room_of(table.game.system).components(self.as_layer(), table, seat, prompt)) is not None:
            return own  # the system draws this prompt's components itself (e.g. a sealed purchase's basket)
        game, state = table.game.id, table.game.revision
        fresh = await self.freshness(table, seat, prompt)
        choices = prompt.choices
        if len(choices) <= MAX_BUTTONS:
            return tuple(
                Button(
                    f"{i}. {c.label or c.verb}"[:80],
                    custom_id(game, state, "c", f"{seat}.{i}.{fresh}"),
                    "primary" if c.verb not in ("pass", "end_activation", "end_support") else "secondary",
                )
                for i, c in enumerate(choices, 1)
            ), ()
        selects = []
        for start in range(0, min(len(choices), 100), 25):
            entries = tuple(
                (f"{i}. {c.label or c.verb}"[:100], str(i))
                for i, c in enumerate(choices[start : start + 25], start + 1)
            )
            arg = f"{seat}.{start // 25}.{fresh}"
            selects.append(
                Select(custom_id(game, state, "s", arg), f"Choices {start + 1}-{start + len(entries)}", entries)
            )
        return (), tuple(selects)

    def _dm(
        self,
        ctx: Context,
        user: int,
        seat: str,
        text: str,
        buttons: tuple[Button, ...],
        selects: tuple[Select, ...],
    ) -> Reply:
        return Reply(
            text,
            to="dm",
            ephemeral=False,
            user=user,
            buttons=buttons,
            selects=selects,
            channel=ctx.channel,
            dm_fallback=Reply(
                f"<@{user}>: I cannot send you direct messages (they are closed). "
                "Use the button to see your private message here, visible only to you.",
                to="channel",
                ephemeral=False,
                mentions=(user,),
                channel=ctx.channel,
            ),
        )

    def _also(self, table: Table, prompt: Prompt) -> str:
        """The prompt's "Also:" line: the commands it allows besides its choices."""
        if not prompt.free_verbs:
            return ""
        return f"\nAlso: {', '.join(_commands_of(prompt.free_verbs, self.room_of(table.game.system)))}."

    async def _private_prompt(self, ctx: Context, seat: str, state: int) -> list[Reply]:
        """The ephemeral way to answer a secret prompt when DMs are closed."""
        table = await self.service.table(ctx.channel)
        if seat not in table.seats_of(ctx.caller.user_id):
            raise Refusal(f"only the {seat} player may open this")
        prompts = await self.service.prompts(table.game)
        prompt = prompts.get(seat)
        if prompt is None:
            return [Reply("You have nothing to decide now.")]
        buttons, selects = await self._components(table, seat, prompt)
        free = self._also(table, prompt)
        listed = "\n".join(f"[{i}] {c.label or c.verb}" for i, c in enumerate(prompt.choices, 1))
        if len(prompt.choices) > MAX_BUTTONS:  # the menus list them: no wall of text above them
            listed = f"{len(prompt.choices)} choices in the menus below."
        text = f"**{seat}**: {prompt.text}{free}\n{listed}".strip()
        return [Reply(text, buttons=buttons, selects=selects)]


def _details_file(table: Table, details: Sequence[Any]) -> Attachment:
    """Machine-readable details some events carry (e.g. what a reveal makes checkable), as one JSON file."""
    text = json.dumps(list(details), indent=1, ensure_ascii=False)
    return Attachment(f"details-{table.game.id}-{table.game.revision}.json", text.encode())


def _commands_of(verbs: Sequence[str], room: Room) -> list[str]:
    """The commands that send these engine verbs (``/move`` for ``move``, ``/act retreat`` for a verb no
    command names), for a prompt's "Also:" line."""
    return [_command_of(v, room) for v in verbs if v != "preview"]


def _command_of(verb: str, room: Room) -> str:
    """The command a player types for an engine verb: ``/move`` for ``move``, ``/act retreat`` for a verb
    without its own command. The game's own ``room`` comes first (two systems may send one verb), and another
    system's command is never offered (a Vae Victis advance after combat is not ``/frame advance``)."""
    foreign = [r for r in all_rooms() if r is not room and r not in cross_system_rooms()]
    theirs = {c.name for r in foreign for c in r.commands}
    by_verb = {c.verb: c.name for c in COMMANDS if c.verb and c.name not in theirs}
    for other in all_rooms():
        if other not in foreign:
            by_verb.update(other.verb_commands)
    by_verb.update({c.verb: c.name for c in room.commands if c.verb})
    by_verb.update(room.verb_commands)
    return f"/{by_verb[verb]}" if verb in by_verb else f"/act {verb}"
