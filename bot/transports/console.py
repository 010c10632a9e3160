"""Playing at the terminal: two seats hot-seat, through the same command layer as Discord.

``umpire local`` creates a game, seats player 1 and player 2, starts it, and reads commands: the same words
as the slash commands (``move``, ``attack``, ``game undo``, ``choose 2`` ...), with options given in order
or as ``name=value``. The console types for whoever must decide now (``as SEAT`` switches by hand); answers
meant only for the caller are marked ``(only you)``, direct messages ``(DM to ...)``, and map pictures are
written to files in the output folder. ``--script FILE`` plays a transcript without a terminal.
"""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

from bot.commands.info import INFORM_COMMANDS
from bot.commands.layer import (
    COMMANDS,
    COMMANDS_BY_NAME,
    SHARED_COMMANDS,
    CommandDef,
    CommandLayer,
    Context,
    Reply,
    Upload,
    custom_id,
    refusal_text,
    with_pictures,
)
from bot.commands.replies import unknown_option
from bot.commands.rooms import cross_system_rooms
from bot.service.game_service import Caller, GameService, Refusal, SystemFactory
from bot.store.opening import open_store
from engine.contract import RulesError

CHANNEL = 1
PNG = b"\x89PNG"
"""How a PNG picture begins (other attachments keep their own names)."""
"""The console's first table; a game file that already holds a live game there gets the next free one."""
WRITTEN_NAME = re.compile(r"[a-z][a-z_]*")
"""An option name as a player writes one before ``=``: a word of letters and underscores."""

HELP_ALSO = (
    ". Also: as SEAT, ok, cancel, show [SEAT] (a seat's own choices, private under fog of war or sealed: "
    "at any time, for the seat typing now or the one named, which then types), units, arrivals, attackers HEX, "
    "help COMMAND, quit."
)

STAYING_COMMANDS = frozenset(
    {*INFORM_COMMANDS, "map", "stack", "log", "dice", "game status", "game verify", "league standings", "score"}
)
"""Commands that only inform: after them the console stays on the seat typing (``as allied`` then ``hex 0915``
leaves the allied seat at the keyboard), rather than passing to the seat that must decide."""

EXAMPLES = {
    "choose": "choose 2",
    "game undo": "game undo",
}
"""Examples for ``help COMMAND`` in any game; a game's room gives its own (:meth:`bot.systems.base.Room.help_examples`),
and any other command gets one made from its options."""

CONSOLE_ONLY = {
    "as": "as SEAT: type for that seat (the console switches by itself to whoever must decide).",
    "ok": "ok: confirm what was just previewed (an attack's odds, a resignation).",
    "cancel": "cancel: drop what was just previewed.",
    "show": "show [SEAT]: a seat's own choices (private under fog of war, or sealed), at any time; the seat named "
    "then types.",
    "units": "units: your units on the map, with their ids.",
    "attackers": "attackers HEX: your units that may attack that hex now, by the hex they stand in (7.1).",
    "arrivals": "arrivals: your reinforcements due now, with their ids and entry hexes.",
    "quit": "quit: leave (the game stays in the game file, see --db).",
}


@dataclass
class Console:
    """A hot-seat table over a :class:`CommandLayer`; ``out`` receives every line it prints."""

    layer: CommandLayer
    out: TextIO = sys.stdout
    out_dir: Path = Path(".")
    players: dict[str, Caller] = field(default_factory=dict)
    current: str = ""
    pictures_written: list[Path] = field(default_factory=list)
    refusals: int = 0
    channel: int = CHANNEL
    db: str = ":memory:"
    system_id: str = ""
    """The system of the console's game (set by :meth:`setup`; the layer's default until then)."""
    _buttons: dict[str, str] = field(default_factory=dict)
    _menus: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The choices each seat was last shown, so that a number always means what the player read."""

    @property
    def service(self) -> GameService:
        return self.layer.service

    def say(self, text: str) -> None:
        """Print one block of text, with mentions spelled as player names."""
        print(self._names(text), file=self.out)

    def _names(self, text: str) -> str:
        by_id = {str(c.user_id): f"@{c.name}" for c in self.players.values()}
        text = re.sub(r"<@!?(\d+)>", lambda m: by_id.get(m[1], f"@{m[1]}"), text)
        if self.db != ":memory:":  # the check printed at the end must find this game file
            text = re.sub(r"`umpire verify (\d+)`", lambda m: f"`umpire verify {m[1]} --db {self.db}`", text)
        return text

    async def setup(self, scenario: str, options: str = "", system: str | None = None) -> None:
        """Create the game, seat the two players, start it.

        The game's system says how (:meth:`bot.systems.base.Room.console_game`): ``game create`` with the
        optional rules by default; a system may use its own command and read ``options`` as its settings. A
        terminal has no server roles: its players are moderators (the organiser, the campaign manager) unless
        the system says otherwise, so each holds the roles the docs give it.
        """
        system_id = system or self.layer.default_system
        self.system_id = system_id
        seats = self.service.system(system_id).seats
        command, create, moderators = self.layer.room_of(system_id).console_game(scenario, options, system_id)
        self.players = {seat: Caller(100 + i, f"player{i + 1}", moderators) for i, seat in enumerate(seats)}
        self.current = seats[0]
        await self.run_command(command, create, self.players[seats[0]])
        if await self.service.store.live_game_in(self.channel) is None:
            raise Refusal(f"no {system_id} game was created (the reason is above)")
        for seat, caller in self.players.items():
            await self.run_command("game join", {"seat": seat}, caller)
        await self.run_command("game start", {}, self.players[seats[0]])

    async def line(self, text: str) -> bool:
        """Run one line typed at the console; ``False`` on ``quit``."""
        text = text.strip()
        if not text or text.startswith("#"):
            return True
        try:
            words = shlex.split(text)
        except ValueError as error:
            self.say(f"  Refused: {error}.")
            self.refusals += 1
            return True
        head = words[0].lower()
        if head in ("quit", "exit"):
            return False
        if head == "help":
            self.say(self.help(" ".join(words[1:])))
            return True
        if head in ("units", "arrivals") and len(words) == 1:
            await self.list_ids(head)
            return True
        if head == "attackers":
            await self._attackers(words[1] if len(words) > 1 else "")
            return True
        if head == "as":
            seat = words[1] if len(words) > 1 else ""
            if seat not in self.players:
                self.say(f"  Refused: the seats are {', '.join(self.players)}.")
                self.refusals += 1
            else:
                self.current = seat
            return True
        if head == "show":
            await self._show_choices(words[1] if len(words) > 1 else self.current)
            return True
        if head in ("ok", "cancel") and head in self._buttons:
            replies = await with_pictures(
                await self.layer.press(self._buttons.pop(head), self._context(self.players[self.current]))
            )
            self._buttons.clear()
            self.show(replies)
            await self._remember_menus(replies)
            await self._follow_turn()
            return True
        name, rest = self._command(words)
        if name is None:
            self.say(f"  Refused: unknown command {words[0]!r}. {self.help_text()}")
            self.refusals += 1
            return True
        options = self._options(name, rest)
        if options is None:
            return True
        if name == "choose" and not str(options.get("number", "1")).isdigit():
            if options.get("seat") and options["seat"] not in self.players:  # `choose general activation`
                options["number"] = f"{options['number']} {options.pop('seat')}"
            named = await self._named_choice(str(options["number"]), str(options.get("seat") or self.current))
            if named is None:
                return True
            options["number"] = named  # a name means what it says: no renumbering can change it
        elif name == "choose" and not await self._menu_still_read(options):
            return True
        caller = self.players[self.current]
        if name.startswith("league "):  # the one at the keyboard runs the table: he is its league's organiser
            caller = replace(caller, moderator=True)
        await self.run_command(name, options, caller)
        if "ok" not in self._buttons and name not in STAYING_COMMANDS:  # a question waits for `ok` or `cancel`
            await self._follow_turn()
        return True

    async def _attackers(self, target: str) -> None:
        """``attackers HEX``: the current seat's units that may attack the hex now (as the ``hex`` answer and
        Discord's "Attack this hex" list them)."""
        if not target:
            self.say("  Refused: say which hex, e.g. `attackers 0915`.")
            self.refusals += 1
            return
        try:
            answer = await self.service.info(self.channel, self.players[self.current], "attackers", target)
        except RulesError as error:
            self.say(f"  {refusal_text(error)}")
            self.refusals += 1
            return
        self.say(f"  {answer.text}")

    async def _show_choices(self, seat: str) -> None:
        """A seat's own choices, as its "Show my choices" button shows them to that player alone."""
        if seat not in self.players:
            self.say(f"  Refused: the seats are {', '.join(self.players)}.")
            self.refusals += 1
            return
        try:
            table = await self.service.table(self.channel)
        except RulesError as error:
            self.say(f"  {refusal_text(error)}")
            self.refusals += 1
            return
        if seat != self.current:
            self.current = seat
            self.say(f"--- {seat} ({self.players[seat].name}) types now ---")
        self._buttons.pop("show", None)
        button = custom_id(table.game.id, table.game.revision, "dm", seat)
        replies = await with_pictures(await self.layer.press(button, self._context(self.players[seat])))
        self.show(replies)
        await self._remember_menus(replies)

    @staticmethod
    def _command(words: list[str]) -> tuple[str | None, list[str]]:
        if len(words) >= 2 and f"{words[0]} {words[1]}".lower() in COMMANDS_BY_NAME:
            return f"{words[0]} {words[1]}".lower(), words[2:]
        if words[0].lower() in COMMANDS_BY_NAME:
            return words[0].lower(), words[1:]
        return None, words

    def _options(self, name: str, rest: list[str]) -> dict[str, Any] | None:
        command = COMMANDS_BY_NAME[name]
        names = [o.name for o in command.options]
        options: dict[str, Any] = {}
        positional = []
        for word in rest:
            key, sep, value = word.partition("=")
            if not sep:
                key, sep, value = word.partition(":")  # Discord's way: overlay:reachable
            if sep and key in names and key != "args":
                options[key] = value
            elif "=" in word and WRITTEN_NAME.fullmatch(key) and "args" not in names:
                self.say(f"  Refused: {unknown_option(name, key, names)}")
                self.refusals += 1
                return None
            else:
                positional.append(word)
        free = [n for n in names if n not in options]
        if "args" in free:
            before = free[: free.index("args")]
            options.update(zip(before, positional, strict=False))
            if len(positional) > len(before):
                options["args"] = " ".join(positional[len(before) :])
            return options
        required = [o.name for o in command.options if o.required and o.name in free]
        if len(positional) > len(free) and len(required) == 1 and len(positional) > 1:
            # A name with spaces ("unit HQ XVIII Abn"): the words are the one option still to give.
            options[required[0]] = " ".join(positional)
            return options
        if len(positional) > len(free):
            self.say(
                f"  Refused: too many words for `{name}`; its options are {', '.join(names) or 'none'}. "
                'A name with spaces goes in quotes ("HQ XVIII Abn") or as name="..."'
            )
            self.refusals += 1
            return None
        options.update(zip(free, positional, strict=False))
        for option in command.options:
            if option.kind == "attachment" and isinstance(options.get(option.name), str):
                options[option.name] = local_file(Path(options[option.name]))
        return options

    def _context(self, caller: Caller) -> Context:
        return Context(caller, self.channel, None)

    def commands(self) -> list[CommandDef]:
        """The commands of this console's game: the shared ones (without the information commands when its
        system answers none), the moderators' and leagues', and its system's own (not every system's)."""
        system_id = self.system_id or self.layer.default_system
        room = self.layer.room_of(system_id)
        own = {c.name for c in room.commands} | set(room.verb_commands.values())  # `move` in the Wargame Commander
        own |= {c.name for room in cross_system_rooms() for c in room.commands}
        own |= {c.name for c in SHARED_COMMANDS}
        if getattr(self.service.system(system_id), "inform", None) is None:
            own -= INFORM_COMMANDS  # the system answers none of them
        return [c for c in COMMANDS if c.name in own]

    def help_text(self) -> str:
        """The list of this game's commands and the console's own words."""
        return "Commands: " + ", ".join(c.name for c in self.commands()) + HELP_ALSO

    def help(self, topic: str) -> str:
        """``help``: the list of commands; ``help COMMAND``: what it does, its options, an example."""
        topic = topic.strip().lower()
        if not topic:
            return self.help_text() + "\nType `help COMMAND` for one command, e.g. `help move`."
        if topic in CONSOLE_ONLY:
            return CONSOLE_ONLY[topic]
        command = COMMANDS_BY_NAME.get(topic)
        if command is None:
            mine = self.commands()
            close = [c.name for c in mine if topic in c.name] or [*CONSOLE_ONLY, *(c.name for c in mine)]
            if len(close) > 20:
                return f"There is no command {topic!r}. {self.help_text()}"
            return f"Try: {', '.join(close)}."
        system_id = self.system_id or self.layer.default_system
        unused = getattr(self.service.system(system_id), "unused_options", {}).get(command.name, ())
        options = [o for o in command.options if o.name not in unused]  # what this game does not have (air)
        lines = [f"{command.name}: {command.description}"]
        for option in options:
            lines.append(f"  {option.name}{'' if option.required else ' (optional)'}: {option.description}")
        made = " ".join(f"{o.name}=..." for o in options if o.required)
        examples = {**EXAMPLES, **self.layer.room_of(system_id).help_examples(system_id)}
        lines.append(f"Example: {examples.get(command.name, f'{command.name} {made}'.strip())}")
        if command.options:
            lines.append("Options go in order, or as name=value (or name:value) in any order.")
        return "\n".join(lines)

    async def list_ids(self, what: str) -> None:
        """``units``: the current seat's units on the map; ``arrivals``: its reinforcements due, with their
        entry hexes; each with its id, to type wherever an id is asked for."""
        caller = self.players[self.current]
        if what == "units":
            pairs = await self.service.suggest(self.channel, caller, "own_unit", "", {}, limit=1000)
            lines = [label for label, _ in pairs]
        else:
            pairs = await self.service.suggest(self.channel, caller, "reinforcement", "", {}, limit=1000)
            lines = []
            for label, unit in pairs:
                hexes = await self.service.suggest(self.channel, caller, "entry", "", {"unit": unit}, limit=1000)
                lines.append(f"{label}: enters at {', '.join(h for _, h in hexes) or '-'}")
        title = "Your units on the map" if what == "units" else "Your reinforcements due now"
        self.say(f"{title} ({self.current}): " + ("\n" + "\n".join(lines) if lines else "none."))

    async def _named_choice(self, words: str, seat: str) -> str | None:
        """``choose WORDS``: the number of the one choice of ``seat`` now whose label is, or holds, the words
        (a choice by name keeps its meaning when the list is renumbered); refused when none or several do."""
        shown: tuple[str, ...] = self._menus.get(seat, ())
        try:
            prompt = (await self.service.prompts((await self.service.table(self.channel)).game)).get(seat)
        except RulesError:
            prompt = None
        if prompt is not None:
            shown = tuple(c.label or c.verb for c in prompt.choices)
        wanted = words.casefold()
        exact = [i for i, label in enumerate(shown, 1) if label.casefold() == wanted]
        found = exact or [i for i, label in enumerate(shown, 1) if wanted in label.casefold()]
        if len(found) == 1:
            return str(found[0])
        self.refusals += 1
        if not found:
            self.say(f"  Refused: none of the choices shown to {seat} is {words!r}; give its number or words of it.")
        else:
            listed = "\n".join(f"[{i}] {shown[i - 1]}" for i in found)
            self.say(f"  Refused: {words!r} names several choices; give its number or more words:\n{listed}")
        return None

    async def _menu_still_read(self, options: dict[str, str]) -> bool:
        """Whether ``choose N`` means what the player read: the seat's choices are still the ones last shown.
        If they changed meanwhile, refuse and show them again."""
        try:
            table = await self.service.table(self.channel)
        except Exception:
            return True  # the command layer says why
        seat = options.get("seat") or self.current
        prompt = (await self.service.prompts(table.game)).get(seat)
        if prompt is None or seat not in self._menus:
            return True
        now = tuple(c.label or c.verb for c in prompt.choices)
        if now == self._menus[seat]:
            return True
        self._menus[seat] = now
        self.refusals += 1
        listed = "\n".join(f"[{i}] {label}" for i, label in enumerate(now, 1))
        self.say(
            f"  Refused: the choices of {seat} have changed since they were shown; nothing changed. Now:\n{listed}"
        )
        return False

    async def run_command(self, name: str, options: dict[str, Any], caller: Caller) -> list[Reply]:
        """Run a command as ``caller`` and print its answers."""
        replies = await with_pictures(await self.layer.run(name, self._context(caller), options))
        self.show(replies)
        await self._remember_menus(replies)
        return replies

    async def _remember_menus(self, replies: Iterable[Reply]) -> None:
        """Note the choices of each seat these answers asked (in the channel, by DM or privately): a later
        ``choose N`` means the N-th of them."""
        asked = {
            seat
            for seat, caller in self.players.items()
            for r in replies
            if (r.to == "dm" and r.user == caller.user_id)
            or f"(**{seat}**)" in r.text
            or r.text.startswith(f"**{seat}**:")
        }
        if not asked:
            return
        try:
            prompts = await self.service.prompts((await self.service.table(self.channel)).game)
        except Exception:
            return
        for seat in asked & set(prompts):
            self._menus[seat] = tuple(c.label or c.verb for c in prompts[seat].choices)

    def show(self, replies: Iterable[Reply]) -> None:
        """Print answers; write pictures to files; remember confirm/cancel buttons."""
        for reply in replies:
            if reply.to == "caller":
                prefix = "  (only you) " if reply.ephemeral else "  "
            elif reply.to == "dm":
                seat = next((s for s, c in self.players.items() if c.user_id == reply.user), "?")
                prefix = f"  (DM to {seat}) "
            else:
                prefix = ""
            if reply.text.startswith("Refused"):
                self.refusals += 1
            self.say(prefix + reply.text)
            for button in reply.buttons:
                if button.label in ("Confirm", "Cancel"):
                    self._buttons["ok" if button.label == "Confirm" else "cancel"] = button.custom_id
                elif button.label in ("Show my choices", "Answer privately"):
                    self._buttons["show"] = button.custom_id
            if any(b.label in ("Confirm", "Cancel") for b in reply.buttons):
                self.say("  Type `ok` to confirm or `cancel`.")
            elif "show" in self._buttons and any(b.custom_id == self._buttons["show"] for b in reply.buttons):
                self.say("  Type `show` to see the choices (they are private); `show SEAT` for another seat's.")
            for attachment in reply.files:
                self.out_dir.mkdir(parents=True, exist_ok=True)
                if not attachment.data.startswith(PNG):  # a file of details (a reveal's salt and sealed text)
                    path = self.out_dir / Path(attachment.name).name
                    path.write_bytes(attachment.data)
                    self.say(f"  [file {attachment.name} written to {path}]")
                    continue
                path = self.out_dir / f"map-{len(self.pictures_written) + 1:03d}.png"
                path.write_bytes(attachment.data)
                self.pictures_written.append(path)
                self.say(f"  [picture written to {path}]")

    async def _follow_turn(self) -> None:
        """Type for a seat that must decide now: the current one if it must, else the first that must. A seat
        with only a chance to react (an optional prompt) is never switched to."""
        try:
            table = await self.service.table(self.channel)
        except Exception:
            return
        required = [s for s, p in (await self.service.prompts(table.game)).items() if not p.optional]
        if required and self.current not in required:
            self.current = required[0]
            self.say(f"--- {self.current} ({self.players[self.current].name}) to decide ---")


def local_file(path: Path) -> Upload:
    """A file of this computer given as a command's file option (the terminal's attachment)."""

    async def read() -> bytes:
        try:
            return path.read_bytes()
        except OSError as error:
            raise Refusal(f"cannot read {path}: {error.strerror}") from None

    size = path.stat().st_size if path.is_file() else 0
    return Upload(path.name, size, read)


async def play(
    systems: dict[str, SystemFactory],
    *,
    scenario: str | None = None,
    options: str = "",
    script: Iterable[str] | None = None,
    out: TextIO | None = None,
    out_dir: Path = Path("."),
    db: str = ":memory:",
    pictures: bool = True,
    system: str | None = None,
    stdin: TextIO | None = None,
) -> Console:
    """Play a game at the terminal (or from ``script`` lines); returns the console when done."""
    store = await open_store(db, check=True)  # the check `umpire run` makes: a damaged file is refused
    service = GameService(store, systems)
    try:
        layer = CommandLayer(service, system, pictures=pictures, records=pictures)
        out = out or sys.stdout
        channel = CHANNEL
        while await store.live_game_in(channel) is not None:  # a game file may hold earlier games
            channel += 1
        console = Console(layer, out=out, out_dir=out_dir, channel=channel, db=db)
        chosen = scenario or service.system(layer.default_system).scenarios[0]
        await console.setup(chosen, options, system)
        if script is not None:
            for text in script:
                if text.strip() and not text.lstrip().startswith("#"):
                    console.say(f"{console.current}> {text.strip()}")
                if not await console.line(text):
                    break
            return console
        reader = stdin or sys.stdin
        while True:
            print(f"{console.current}> ", end="", file=out, flush=True)
            text = reader.readline()
            if not text or not await console.line(text):
                break
        return console
    finally:
        await service.close_pictures()
        await store.close()
