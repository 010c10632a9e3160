"""The interface of a room: what a game system (or a cross-system feature) brings to the bot's commands.

A game system reaches the bot through one adapter, in two halves registered together (:mod:`bot.systems`):

- the *game* half, :class:`bot.service.game_service.SystemAdapter`: the engine contract plus state serialisation,
  descriptions (``describe``/``inform``), suggestions (``suggest``), previews and pictures. The service asks
  it; it is built on first use (it imports the engine);
- the *command* half, :class:`Room` (this module): the system's own commands (slash command groups and their
  handlers), its button verbs, the components of its prompts, what follows a moderator's correction and how
  the console creates one of its games. The command layer (:mod:`bot.commands.layer`) asks it; it is light (no
  engine import), so every command is known when the bot starts.

The cross-system features (the moderators, :mod:`bot.moderation`; the leagues, :mod:`bot.leagues.commands`)
are rooms too, with the same interface (:mod:`bot.commands.rooms` lists them all).

A room's handlers get the command layer as a :class:`Layer`: the part of it a room may use.

Beside the two halves, a system may register its :class:`DataTools`: what the command line (``umpire validate``,
``umpire render``, :mod:`bot.transports.cli`) does with its data files, so that the command line names no system either.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

if TYPE_CHECKING:
    from bot.commands.definitions import CommandDef
    from bot.commands.replies import Button, Context, Handler, Reply, Select
    from bot.service.game_service import GameService, Outcome, Preview, Table
    from engine.contract import Prompt

Components = tuple[tuple["Button", ...], tuple["Select", ...]]
"""The buttons and select menus of a message."""


class Layer(Protocol):
    """What a room's handlers may use of the command layer (:class:`bot.commands.layer.CommandLayer`)."""

    service: GameService
    default_system: str
    """The system a ``game create`` without ``system`` creates."""
    open_thread: Callable[[int, str], Awaitable[int]] | None
    """Opens a thread under a channel and returns its id, when the transport has threads (Discord)."""
    pictures: bool
    """Whether pictures are drawn (the console's ``--no-pictures`` turns them off): a room's own pictures too."""

    async def run(self, name: str, ctx: Context, options: Mapping[str, Any]) -> list[Reply]:
        """Run another command (a button that stands for a command)."""
        ...

    async def outcome_replies(self, ctx: Context, outcome: Outcome, note: str = "Done.") -> list[Reply]:
        """The messages of an accepted action: ``note`` to the caller, the account and the next prompts in
        the channel, secrets by DM, the picture when an activation closed."""
        ...

    async def prompt_replies(
        self,
        ctx: Context,
        table: Table,
        prompts: Mapping[str, Prompt],
        ping: Mapping[str, int],
        fresh: frozenset[str] | None = None,
        private: bool = False,
    ) -> list[Reply]:
        """The messages that ask each seat for its decision."""
        ...

    def game_over(self, ctx: Context, table: Table, text: str) -> Reply:
        """The channel's message at a game's end (result, seed, chain head)."""
        ...

    def record_at_end(self, ctx: Context, table: Table) -> list[Reply]:
        """The game's record posted in the channel at its end, when the transport posts records (issue 34)."""
        ...

    async def freshness(self, table: Table, seat: str, prompt: Prompt) -> str:
        """A short hash a prompt's buttons carry: they stay valid while the seat's prompt is unchanged."""
        ...

    async def confirmation(self, ctx: Context, text: str, preview: Preview) -> Reply:
        """A private question with Confirm and Cancel buttons for an action kept until answered."""
        ...

    def info_handler(self, topic: str, key: str | None) -> Handler:
        """A handler answering privately with the system's ``describe(topic, option key)``."""
        ...

    def room_of(self, system_id: str) -> Room:
        """The command half of a game system (an empty :class:`Room` for a system not registered)."""
        ...


class Room:
    """The command half of an adapter (or a cross-system room). Every member has a default: a room sets or
    overrides only what it brings. Subclass it; register a system's room in :mod:`bot.systems`."""

    commands: tuple[CommandDef, ...] = ()
    """Its own commands (``campaign create`` ...). A command with a ``verb`` and no handler of its own sends
    that verb to the game (the command layer's play handler)."""
    groups: ClassVar[Mapping[str, str]] = {}
    """The slash command groups it adds: first word to a description (``{"campaign": "ASL campaign games"}``)."""
    press_verbs: frozenset[str] = frozenset()
    """The custom id verbs of its own buttons and menus (see :data:`bot.commands.replies.CUSTOM_ID`), given to
    :meth:`press`. The shared verbs (``c``, ``s``, ``ok``, ``no``, ``dm``, ``rsy``, ``rsn`` and the
    information buttons' verbs) are taken."""
    form_verbs: frozenset[str] = frozenset()
    """The custom id verbs of its own forms (:class:`bot.commands.replies.Form`), given to :meth:`submit`."""
    verb_commands: ClassVar[Mapping[str, str]] = {}
    """Engine verbs a command sends without naming them (``activate_formation`` -> ``activate``): how an
    account names the command of an action. A command named here that another room defines (the Wargame
    Commander's ``move``) is one this room's games use too: the console lists it, and it is not refused in
    their channels as another system's command."""

    may_react: str = "may react"
    """How the channel says, under fog of war, that a seat may answer an optional prompt (a chance to react)."""
    fog_of_war: str = "Fog of war"
    """How the channel names fog of war (with its rule number) when it hides a seat's choices."""

    def help_examples(self, system_id: str) -> Mapping[str, str]:
        """Examples for ``help COMMAND`` in one of its games, by command name, with that game's own ids and
        hexes; a command without one gets an example made from its options."""
        return {}

    def handlers(self, layer: Layer) -> dict[str, Handler]:
        """The handlers of those of :attr:`commands` that are not a plain verb (called once per layer)."""
        return {}

    async def press(
        self, layer: Layer, ctx: Context, verb: str, arg: str, state: int, values: Sequence[str]
    ) -> list[Reply]:
        """A click on one of its buttons or menus (``verb`` in :attr:`press_verbs`), in the game's channel.

        :raises RulesError: (a :class:`bot.service.game_service.Refusal`) for a stale or foreign click; nothing changes.
        """
        return []

    async def submit(
        self, layer: Layer, ctx: Context, verb: str, arg: str, state: int, values: dict[str, str]
    ) -> list[Reply]:
        """One of its forms sent (``verb`` in :attr:`form_verbs`), with the text of each field by key.

        :raises RulesError: (a :class:`bot.service.game_service.Refusal`) for bad input; nothing changes.
        """
        return []

    async def on_clock(self, layer: Layer) -> list[Reply]:
        """What it does when time passes (the bot calls it with the reminders): the messages to post."""
        return []

    async def after_outcome(self, layer: Layer, ctx: Context, outcome: Outcome) -> list[Reply]:
        """Messages of its own after an accepted action in one of its games (the account is sent already)."""
        return []

    async def components(self, layer: Layer, table: Table, seat: str, prompt: Prompt) -> Components | None:
        """The buttons and menus of one of its games' prompts, when it draws them itself (a sealed purchase's
        basket); ``None``: the shared numbered choice buttons."""
        return None

    async def after_correct(self, layer: Layer, ctx: Context) -> tuple[list[Reply], Table] | None:
        """What follows a moderator's ``mod correct`` in one of its games (messages, the table after), if
        anything."""
        return None

    def console_game(self, scenario: str, options: str, system_id: str) -> tuple[str, dict[str, Any], bool]:
        """How the console (``umpire local``) creates one of its games: the command, its options, and whether
        the console's players are moderators. The default: ``game create`` with the optional rules, and the
        players are moderators: the one person at a terminal is the whole table, its organiser (a league's, a
        campaign's) and its moderator (a campaign manager) included, so every role the docs give holds there."""
        return "game create", {"scenario": scenario, "options": options, "system": system_id}, True


@dataclass(frozen=True)
class DataReport:
    """What ``umpire validate`` says of a game's data: a summary when it is sound, else every problem."""

    sound: bool
    text: str
    """One line when sound (what the data holds); else a first line and one indented line per problem."""


class DataError(Exception):
    """Data or input a data tool cannot use: the sentence to print, and the command's exit status."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


class DataTools:
    """What a game system offers the command line for its data: ``umpire validate`` (a check of a bundled game
    or of a league's own files, listing every problem) and ``umpire render`` (its map as a PNG picture).

    Light like a room: it imports its engine and data only when called. Every member has a default; a system
    sets or overrides what it brings and registers one instance (:mod:`bot.systems`)."""

    games: tuple[str, ...] = ()
    """The bundled games it reads, by id."""
    files: str = ""
    """What else it reads, in words for the command line's help (``"the path of a game folder"``)."""
    draws: bool = False
    """Whether :meth:`render` draws its maps."""

    def reads(self, path: Path) -> bool:
        """Whether ``path`` (not a bundled id) looks like its data: a folder, a file of its kind."""
        return False

    def validate(self, game: str) -> DataReport:
        """Load a bundled game (by id) or the data at a path, and report what it holds or every problem."""
        return DataReport(False, f"umpire: {game} has no check of its data")

    def render(self, game: str, setup: bool, around: str | None, radius: int) -> bytes:
        """A PNG picture of a game's map (with its initial set-up when ``setup``), or a close-up of ``radius``
        hexes around the hex ``around``.

        :raises DataError: broken data (status 1) or a hex not on the map (status 2), with the sentence to print.
        """
        raise DataError(f"umpire: {game}'s map is not drawn by `umpire render`")


__all__ = ["Components", "DataError", "DataReport", "DataTools", "Layer", "Room"]
