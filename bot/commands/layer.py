"""The command layer: every command of the bot, independent of the transport.

Discord (``bot/cogs``) and the terminal (``bot/console``) both read :data:`COMMANDS` to build their
commands and call :meth:`CommandLayer.run`, :meth:`CommandLayer.press` and :meth:`CommandLayer.autocomplete`,
so the console has exactly the same command words and answers as Discord. A handler returns a list of
:class:`Reply`: what to answer the caller (ephemeral or not), what to post in the channel (pinging exactly
the players whose input is needed), what to send by DM (with what to say in the channel if the DM cannot be
delivered), with buttons, select menus and pictures.

Buttons and select menus carry a custom id ``wg:<game>:<state_id>:<verb>:<arg>`` (at most 100 characters):
the state id is the game's revision when the button was posted, so a stale or doubled click is refused.

The layer names no game system: it runs the shared commands (:data:`bot.commands.catalogue.SHARED_COMMANDS`; the
``game`` ones in :mod:`bot.commands.game_life`), sends a plain play command's verb to the game, and asks the rooms
(:mod:`bot.commands.rooms`: the moderators, the leagues, each system's :class:`bot.systems.base.Room`) for their
handlers, their buttons and their prompts' components. Outcomes become messages in :mod:`bot.commands.prompting`.
See docs/architecture.md.
"""

from __future__ import annotations

import difflib
import logging
import re
import unicodedata
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.commands import info
from bot.commands.catalogue import COMMANDS, COMMANDS_BY_NAME, SHARED_COMMANDS
from bot.commands.definitions import CommandDef, OptionDef
from bot.commands.game_life import GameLife
from bot.commands.replies import (
    CUSTOM_ID,
    INTERNAL_ERROR,
    STORE_BUSY,
    Attachment,
    Button,
    Context,
    Fold,
    Handler,
    PictureJob,
    Reply,
    Select,
    Upload,
    custom_id,
    draw_picture,
    parse_args,
    parse_custom_id,
    refusal_text,
    with_pictures,
)
from bot.commands.rooms import all_rooms
from bot.service.game_service import GameService, Preview, Refusal, Table
from bot.store.records import StoreBusyError
from bot.systems import rooms as system_rooms
from engine.contract import Prompt, RulesError

log = logging.getLogger(__name__)

ID_LIKE = re.compile(r"[a-z0-9_.:\-]+(,[a-z0-9_.:\-]+)*")
"""Option values written as ids or hexes (``de-2-pz-boehm``, ``2515``): names have capitals, spaces or slashes."""


class CommandLayer(GameLife):
    """Runs the commands of :data:`COMMANDS` against a :class:`GameService`."""

    def __init__(
        self, service: GameService, default_system: str | None = None, pictures: bool = True, records: bool = False
    ) -> None:
        self.service = service
        self.pictures = pictures
        """Whether map pictures are drawn after activations (the console may skip them)."""
        self.records = records
        """Whether the game's record (``game record``) is posted when a game ends (Discord and the console)."""
        self.default_system = default_system or (service.system_ids[0] if service.system_ids else "")
        self._handlers: dict[str, Handler] = {
            "game create": self._create,
            "game join": self._join,
            "game leave": self._leave,
            "game start": self._start,
            "game status": self._status,
            "game resign": self._resign,
            "game undo": self._undo,
            "game vacation": self._vacation,
            "game accept-vacation": self._accept_vacation,
            "game end-vacation": self._end_vacation,
            "game claim-timeout": self._claim_timeout,
            "game verify": self._verify,
            "game record": self._record,
            "choose": self._choose,
            "act": self._act_generic,
            "map": self._map,
            "stack": self.info_handler("stack", "hex"),
            "log": self._log,
            "dice": self._dice,
        }
        for command in COMMANDS:
            if command.verb is not None:
                self._handlers[command.name] = self._play(command)
        self._handlers.update(info.handlers(self))  # Information commands: bot/commands/info.py
        self.open_thread: Callable[[int, str], Awaitable[int]] | None = None
        """Opens a thread under a channel and returns its id, when the transport has threads (Discord)."""
        self.rooms = all_rooms()
        """The moderators, the leagues and every game system's room (:mod:`bot.commands.rooms`)."""
        self._system_rooms = system_rooms()
        for room in self.rooms:
            self._handlers.update(room.handlers(self))
        missing = {c.name for c in COMMANDS} - set(self._handlers)
        assert not missing, missing

    # --- Entry points ---------------------------------------------------------------------------------

    async def run(self, name: str, ctx: Context, options: Mapping[str, Any]) -> list[Reply]:
        """Run a command; a refusal becomes an ephemeral answer with the reason, never an exception."""
        command = COMMANDS_BY_NAME.get(name)
        if command is None:
            return [Reply(f"Unknown command {name[:40]!r}.")]
        guesses: list[str] = []
        try:
            await self._check_room(command, ctx)
            values = self._check_options(command, options)
            values, guesses = await self._names_to_ids(command, values, ctx)
            return await self._dm_context(ctx, await self._handlers[name](ctx, values))
        except RulesError as error:
            hint = f" Did you mean {' or '.join(guesses)}?" if guesses else ""
            return [Reply(refusal_text(error) + hint)]
        except StoreBusyError:
            return [Reply(STORE_BUSY)]
        except Exception:
            log.exception("command %s failed", name)
            return [Reply(INTERNAL_ERROR)]

    async def _check_room(self, command: CommandDef, ctx: Context) -> None:
        """Refuse a game system's own command in a channel whose live game is of another system (the command
        would read a board that game does not have). A system's room may also use another's command by naming
        it in its :attr:`bot.systems.base.Room.verb_commands` (the Wargame Commander's ``move``); a system with
        no room of its own (a test game) may send the plain verb commands (``attack``), which only carry a verb.

        :raises Refusal: naming the command's system and the channel's game.
        """
        owners = {id(room): room for room in self._system_rooms.values() if command in room.commands}
        if not owners:
            return  # a shared, moderators' or leagues' command
        game = await self.service.store.live_game_in(ctx.channel)
        if game is None:
            return  # the command says itself that there is no game (or creates one)
        room = self.room_of(game.system)
        if id(room) in owners or command.name in room.verb_commands.values():
            return
        if game.system not in self._system_rooms and command.verb is not None:
            return  # a system without a room of its own plays the plain verb commands; its engine judges them
        names = [sid for sid, r in self._system_rooms.items() if id(r) in owners]
        theirs = ", ".join(self._system_name(sid) for sid in names)
        raise Refusal(
            f"`/{command.name}` is a command of {theirs}; this channel's game is {self._system_name(game.system)}"
            " (`help` lists its commands); nothing changed"
        )

    def _system_name(self, system_id: str) -> str:
        try:
            return str(self.service.system(system_id).name)
        except Exception:  # a system the registry names but this bot does not run
            return system_id

    async def press(self, custom: str, ctx: Context, values: Sequence[str] = ()) -> list[Reply]:
        """A button click or a select menu choice; stale or foreign ones are refused politely."""
        match = parse_custom_id(custom)
        replies = await self._press(custom, ctx, values)
        if match is not None and (game := await self.service.store.game(int(match["game"]))) is not None:
            replies = await self._dm_context(Context(ctx.caller, game.channel, ctx.guild), replies)
        return replies

    async def _dm_context(self, ctx: Context, replies: list[Reply]) -> list[Reply]:
        """Every direct message names its game and links the game's channel: a player in several games
        knows which one speaks (a DM is read away from the channel); a player who turned pictures off in his
        DMs (``prefs pictures:false``) gets them without."""
        if not any(r.to == "dm" for r in replies):
            return replies
        replies = [await self._dm_pictures(r) for r in replies]
        try:
            game = (await self.service.table(ctx.channel, live=False)).game
        except RulesError:
            return replies
        name = self.service.system(game.system).name
        heading = f"*{name}, game #{game.id} in <#{game.channel}>*\n"
        return [
            replace(r, text=heading + r.text) if r.to == "dm" and not r.text.startswith(heading) else r for r in replies
        ]

    async def _dm_pictures(self, reply: Reply) -> Reply:
        """A DM without its pictures when its addressee turned them off (``prefs``)."""
        if reply.to != "dm" or reply.user is None:
            return reply
        if await self.service.store.preference(reply.user, info.DM_PICTURES) != "off":
            return reply
        kept = tuple(f for f in reply.files if not f.name.endswith(".png"))
        return replace(reply, picture=None, files=kept)

    async def _press(self, custom: str, ctx: Context, values: Sequence[str]) -> list[Reply]:
        match = parse_custom_id(custom)
        if match is None:
            return [Reply("Refused: this button is not one of mine.")]
        try:
            game = await self.service.store.game(int(match["game"]))
            if game is None:
                raise Refusal("this button belongs to a game that no longer exists")
            ctx = Context(ctx.caller, game.channel, ctx.guild)
            if match["verb"] in info.PRESS_VERBS:  # Information buttons: bot/commands/info.py
                return await info.press(self, ctx, match["verb"], match["arg"], int(match["state"]), values)
            if not game.live:
                raise Refusal("this game is over; nothing changed")
            state, verb, arg = int(match["state"]), match["verb"], match["arg"]
            if verb in ("ok", "no"):
                outcome = await self.service.confirm(game.channel, ctx.caller, arg, verb == "ok")
                if outcome is None:
                    return [Reply("Cancelled; nothing changed.")]
                return await self.outcome_replies(ctx, outcome)
            if verb == "dm":
                return await self._private_prompt(ctx, arg, state)
            if verb in ("rsy", "rsn"):  # the confirmation of `game resign`
                if verb == "rsn":
                    return [Reply("You did not resign; nothing changed.")]
                return await self._resign_now(ctx)
            room = next((r for r in self.rooms if verb in r.press_verbs), None)
            if room is not None:  # a room's own buttons (e.g. a sealed purchase's basket)
                if room in self._system_rooms.values() and room is not self.room_of(game.system):
                    raise Refusal("this button is not one of this game's")
                return await room.press(self, ctx, verb, arg, state, values)
            seat, index, fresh = [*arg.split("."), "", ""][:3]
            if verb == "s":
                index = values[0] if values else ""
            if verb not in ("c", "s") or not index.isdigit():
                raise Refusal("this button is not one of mine")
            return await self._choose_index(ctx, seat, int(index), state, fresh)
        except RulesError as error:
            return [Reply(refusal_text(error), channel=ctx.channel)]
        except StoreBusyError:
            return [Reply(STORE_BUSY, channel=ctx.channel)]
        except Exception:
            log.exception("button %s failed", custom)
            return [Reply(INTERNAL_ERROR)]

    async def submit(self, custom: str, ctx: Context, values: Mapping[str, str]) -> list[Reply]:
        """A form sent (see :class:`bot.commands.replies.Form`): the room whose form it is gets the values."""
        match = parse_custom_id(custom)
        room = next((r for r in self.rooms if match is not None and match["verb"] in r.form_verbs), None)
        if match is None or room is None:
            return [Reply("Refused: this form is not one of mine.")]
        try:
            game = await self.service.store.game(int(match["game"]))
            if game is None or not game.live:
                raise Refusal("this form belongs to a game that is over or gone; nothing changed")
            ctx = Context(ctx.caller, game.channel, ctx.guild)
            if room in self._system_rooms.values() and room is not self.room_of(game.system):
                raise Refusal("this form is not one of this game's")
            return await room.submit(self, ctx, match["verb"], match["arg"], int(match["state"]), dict(values))
        except RulesError as error:
            return [Reply(refusal_text(error), channel=ctx.channel)]
        except StoreBusyError:
            return [Reply(STORE_BUSY, channel=ctx.channel)]
        except Exception:
            log.exception("form %s failed", custom)
            return [Reply(INTERNAL_ERROR)]

    async def autocomplete(
        self, name: str, option: str, typed: str, given: Mapping[str, Any], ctx: Context
    ) -> list[tuple[str, str]]:
        """Up to 25 suggestions for an option; an empty list when there is nothing to suggest."""
        command = COMMANDS_BY_NAME.get(name)
        spec = next((o for o in command.options if o.name == option), None) if command else None
        if spec is None or spec.autocomplete is None:
            return []
        typed = str(typed)[:100]
        source = spec.autocomplete
        try:
            if source == "system":
                return [(s, s) for s in self.service.system_ids][:25]
            if source == "scenario":
                system = self.service.system(str(given.get("system") or self.default_system))
                return [(s, s) for s in system.scenarios if typed.lower() in s][:25]
            if source == "option" and (given.get("system") or not await self._has_game(ctx.channel)):
                system = self.service.system(str(given.get("system") or self.default_system))
                return [(f"{k}: {v}"[:100], k) for k, v in system.options.items()][:25]
        except RulesError:
            return []
        return await self.service.suggest(ctx.channel, ctx.caller, source, typed, dict(given))

    async def _names_to_ids(
        self, command: CommandDef, values: dict[str, Any], ctx: Context
    ) -> tuple[dict[str, Any], list[str]]:
        """Names accepted wherever ids are: each text option with suggestions (a unit, an HQ, a formation ...)
        given by a name ("I SS Panzerkorps", "Müller/12" or "Mueller/12", any case) is replaced by the id its
        suggestion carries. A value that matches nothing is left for the game to judge; the closest names
        are returned, to add to a refusal."""
        resolved = dict(values)
        guesses: list[str] = []
        for spec in command.options:
            value = values.get(spec.name)
            if spec.autocomplete is None or spec.kind != "text" or not isinstance(value, str) or not value:
                continue
            if spec.autocomplete in ("scenario", "system", "option", "seat") or ID_LIKE.fullmatch(value):
                continue  # ids and hexes as the suggestions give them: nothing to look up
            pairs = await self.service.suggest(ctx.channel, ctx.caller, spec.autocomplete, "", values, limit=1000)
            if not pairs:
                continue
            parts = []
            for part in value.split(","):
                found, close = _match_name(part.strip(), pairs)
                parts.append(found)
                guesses += close
            resolved[spec.name] = ",".join(parts)
        return resolved, guesses

    async def _has_game(self, channel: int) -> bool:
        return await self.service.store.latest_game_in(channel) is not None

    @staticmethod
    def _check_options(command: CommandDef, options: Mapping[str, Any]) -> dict[str, Any]:
        """Check every option's presence and type; junk is refused with a sentence."""
        known = {o.name: o for o in command.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise Refusal(f"`{command.name}` has no option {unknown[0][:40]!r}")
        values: dict[str, Any] = {}
        for spec in command.options:
            value = options.get(spec.name)
            if value is None or value == "":
                if spec.required:
                    raise Refusal(f"`{command.name}` needs the option {spec.name!r}")
                continue
            values[spec.name] = _coerce(spec, value)
        return values

    # --- Playing --------------------------------------------------------------------------------------

    def _play(self, command: CommandDef) -> Handler:
        verb = command.verb
        assert verb is not None

        async def handler(ctx: Context, o: dict[str, Any]) -> list[Reply]:
            if command.confirm:
                preview = await self.service.preview(ctx.channel, ctx.caller, verb, o)
                if preview is not None:
                    question = f"**Odds preview**\n{preview.text}\nConfirm the attack?"
                    return [await self.confirmation(ctx, question, preview)]
            outcome = await self.service.act(ctx.channel, ctx.caller, verb, o)
            return await self.outcome_replies(ctx, outcome)

        return handler

    async def confirmation(self, ctx: Context, text: str, preview: Preview) -> Reply:
        """A private question with **Confirm** and **Cancel** buttons for an action kept until answered."""
        table = await self.service.table(ctx.channel)
        game, state = table.game.id, table.game.revision
        return Reply(
            text,
            buttons=(
                Button("Confirm", custom_id(game, state, "ok", preview.token), "danger"),
                Button("Cancel", custom_id(game, state, "no", preview.token)),
            ),
        )

    async def _act_generic(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        args = parse_args(o.get("args", ""))
        outcome = await self.service.act(ctx.channel, ctx.caller, o["verb"], args, written=True)
        return await self.outcome_replies(ctx, outcome)

    async def _choose(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        table = await self.service.table(ctx.channel)
        prompts = await self.service.prompts(table.game)
        seat = o.get("seat")
        if seat is None:
            mine = [s for s in table.seats_of(ctx.caller.user_id) if s in prompts]
            if not table.seats_of(ctx.caller.user_id):
                raise Refusal("you hold no seat in this game: only a seated player acts for a side")
            if not mine:
                raise Refusal(f"you have nothing to decide now; waiting for: {', '.join(prompts) or 'nobody'}")
            if len(mine) > 1:
                raise Refusal(f"you hold several seats that must decide now ({', '.join(mine)}): name the seat")
            seat = mine[0]
        fresh = await self.freshness(table, seat, prompts[seat]) if seat in prompts else ""
        return await self._choose_index(ctx, seat, int(o["number"]), table.game.revision, fresh, by_number=True)

    async def _choose_index(
        self, ctx: Context, seat: str, number: int, state: int, fresh: str = "", by_number: bool = False
    ) -> list[Reply]:
        async def still_valid(table: Table, prompt: Prompt) -> bool:
            return bool(fresh) and fresh == await self.freshness(table, seat, prompt)

        preview = await self._choice_preview(ctx, seat, number, state, still_valid, by_number)
        if preview is not None:
            return [await self.confirmation(ctx, f"{preview.text}\nConfirm?", preview)]
        choice, outcome = await self.service.choose(ctx.channel, ctx.caller, seat, number, state, still_valid)
        return await self.outcome_replies(ctx, outcome, f"Done: {choice.label or choice.verb}.")

    async def _choice_preview(
        self,
        ctx: Context,
        seat: str,
        number: int,
        state: int,
        still_valid: Callable[[Table, Prompt], Awaitable[bool]],
        by_number: bool,
    ) -> Preview | None:
        """The confirmation a choice needs before it is played, if any: one the game asks for (a reactivation
        that fatigues), or, for a choice made by its number in answer to a chance to react, what it plays.
        ``None`` (the choice goes ahead, checked again under the lock) for anything else or anything amiss."""
        table = await self.service.table(ctx.channel)
        prompt = (await self.service.prompts(table.game)).get(seat)
        if prompt is None or not 1 <= number <= len(prompt.choices) or seat not in table.seats_of(ctx.caller.user_id):
            return None
        if state != table.game.revision and not await still_valid(table, prompt):
            return None
        choice = prompt.choices[number - 1]
        text = f"Choice {number} plays: **{choice.label or choice.verb}**." if by_number and prompt.optional else None
        return await self.service.preview(ctx.channel, ctx.caller, choice.verb, choice.args, seat, text=text)

    # --- Information ----------------------------------------------------------------------------------

    def info_handler(self, topic: str, key: str | None) -> Handler:
        """A handler answering privately with the system's ``describe(topic, option key)``."""

        async def handler(ctx: Context, o: dict[str, Any]) -> list[Reply]:
            text = await self.service.describe(ctx.channel, ctx.caller, topic, str(o.get(key, "")) if key else "")
            return [Reply(text)]

        return handler

    async def _map(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        if o.get("overlay") == "combats":  # the combats of the last turns: bot/commands/info.py
            return await info.map_combats(self, ctx, int(o.get("turns", 1)))
        # The answer first, the picture after it (drawn once every answer in progress is sent): a bad
        # overlay, unit or hex is found while drawing, and its refusal then comes in the picture's place.
        around = o.get("hex")
        close_up = await self.service.store.preference(ctx.caller.user_id, info.CLOSE_UP) if around else None
        if around and close_up:
            around = f"{around}:{close_up}"  # the player's own close-up size (``prefs closeup:``)
        draw = await self.service.picture_job(
            ctx.channel, ctx.caller, overlay=o.get("overlay"), unit=o.get("unit"), around=around
        )
        table = await self.service.table(ctx.channel, live=False)
        mine = table.seats_of(ctx.caller.user_id)
        who = f"the {mine[0]} side" if len(mine) == 1 else "a spectator (what both sides may see)"
        what = f" with the {o['overlay']} overlay" if o.get("overlay") else ""
        return [
            Reply(f"Drawing the map as {who} sees it{what}; it follows."),
            Reply(f"The map as {who} sees it{what}; arrows show the last activation.", picture=draw),
        ]

    async def _log(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        entries, corrections = await self.service.log(ctx.channel, ctx.caller)
        lines = [f"#{e.seq} {e.seat} {e.verb.replace('_', ' ')}: " + " ".join(e.texts) for e in entries]
        lines += [f"Moderator {c}" for c in corrections]
        return [Reply("\n".join(lines) or "Nothing has happened yet.")]

    async def _dice(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        entries, _ = await self.service.log(ctx.channel, ctx.caller)
        # A roll is labelled by the action it came in, not by a side: the German's combat die may roll in the
        # Allied player's action (a retreat, a defender's choice that closes the combat).
        lines = [
            f"#{e.seq}, in the {e.seat} player's {e.verb.replace('_', ' ')}: {r}" for e in entries for r in e.rolls
        ]
        table = await self.service.table(ctx.channel, live=False)
        head = f"Seed hash `{table.game.seed_hash}`."
        return [Reply(head + "\n" + ("\n".join(lines) or "No die rolled yet."))]


def _coerce(spec: OptionDef, value: Any) -> Any:
    """An option's value in its kind, or a refusal that names the option."""
    try:
        if spec.kind == "text":
            text = str(value).strip()
            if len(text) > 200 or any(ord(ch) < 32 for ch in text):
                raise ValueError
            return text
        if spec.kind == "boolean":
            if isinstance(value, bool):
                return value
            if str(value).lower() in ("true", "yes", "1", "on"):
                return True
            if str(value).lower() in ("false", "no", "0", "off"):
                return False
            raise ValueError
        if spec.kind == "attachment":
            if not isinstance(value, Upload):
                raise ValueError
            return value
        if spec.kind == "user":
            if hasattr(value, "id"):
                return int(value.id)
            return int(str(value).strip("<@!>"))
        if isinstance(value, bool):
            raise ValueError
        number = int(value) if spec.kind == "integer" else float(value)
        if number != number or number in (float("inf"), float("-inf")):
            raise ValueError
    except (TypeError, ValueError, OverflowError):
        raise Refusal(f"the option {spec.name!r} must be {_kind_words(spec)}") from None
    if (spec.min_value is not None and number < spec.min_value) or (
        spec.max_value is not None and number > spec.max_value
    ):
        raise Refusal(f"the option {spec.name!r} must be {_kind_words(spec)}")
    return number


def _kind_words(spec: OptionDef) -> str:
    words = {
        "text": "short text",
        "integer": "a whole number",
        "number": "a number",
        "boolean": "yes or no",
        "attachment": "a file",
    }
    text = words.get(spec.kind, "a user")
    if spec.min_value is not None and spec.max_value is not None:
        text += f" from {spec.min_value:g} to {spec.max_value:g}"
    return text


def _plain(text: str) -> str:
    """A name as compared with what a player types: lower case, German letters spelled out, accents dropped."""
    spelled = text.lower().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("ß", "ss")
    return "".join(c for c in unicodedata.normalize("NFKD", spelled) if not unicodedata.combining(c))


def _match_name(typed: str, pairs: Sequence[tuple[str, str]]) -> tuple[str, list[str]]:
    """(the id for ``typed``, the closest names when none matches): ``typed`` may be an id or a suggestion's
    label or name (the label without its "(id)" or its verb, e.g. "Activate")."""
    if any(typed == value for _, value in pairs):
        return typed, []
    wanted = _plain(typed)
    names: dict[str, str] = {}
    for label, value in pairs:
        name = re.sub(r"\s*\([^)]*\)\s*$", "", label)
        for form in (label, name, name.split(" ", 1)[-1], value):
            names.setdefault(_plain(form), value)
        if wanted in (_plain(label), _plain(name), _plain(name.split(" ", 1)[-1]), _plain(value)):
            return value, []
    close = difflib.get_close_matches(wanted, list(names), n=2, cutoff=0.6)
    labels = {v: lab for lab, v in pairs}
    return typed, [f"{labels[names[c]]!r}" for c in dict.fromkeys(close)]


__all__ = [  # the layer's own names and the words it answers in (bot.commands.replies, bot.commands.definitions)
    "COMMANDS",
    "COMMANDS_BY_NAME",
    "CUSTOM_ID",
    "INTERNAL_ERROR",
    "SHARED_COMMANDS",
    "STORE_BUSY",
    "Attachment",
    "Button",
    "CommandDef",
    "CommandLayer",
    "Context",
    "Fold",
    "Handler",
    "OptionDef",
    "PictureJob",
    "Reply",
    "Select",
    "Upload",
    "custom_id",
    "draw_picture",
    "parse_args",
    "parse_custom_id",
    "refusal_text",
    "with_pictures",
]
