"""The service's vocabulary: who asks (:class:`Caller`), a game with its seats (:class:`Table`), what an accepted
request did (:class:`Outcome`), a refusal (:class:`Refusal`), the adapter's game half (:class:`SystemAdapter`),
and the answers of previews, information commands and the log. Every room speaks these; they are re-exported
by :mod:`bot.service.game_service`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.service.sealed import SealedDecision
from bot.store.records import ActionRow, GameRow, SeatRow
from engine.contract import Action, Event, GameSystem, Prompt, Result, RulesError


class Refusal(RulesError):
    """The bot refuses a request; nothing changed. ``str()`` is the sentence shown to the player."""


class StaleError(Refusal):
    """A button or confirmation from an earlier position."""


class SystemAdapter(GameSystem, Protocol):
    """A game system as the bot uses it: the engine contract (:class:`engine.contract.GameSystem`) plus what
    the bot needs around it: state serialisation, autocomplete, odds previews, information and pictures."""

    id: str
    name: str
    scenarios: tuple[str, ...]
    options: Mapping[str, str]
    """Optional rules: name to a description with its rule number."""
    rules_version: int
    """The version of the system's rules (``engine/<system>/rules_version.py``): recorded with each game and
    action, so that verification replays with the rules only what was played under the current one."""

    def state_to_json(self, state: Any) -> Any: ...

    def state_from_json(self, data: Any) -> Any: ...

    def suggest(
        self, state: Any, seat: str | None, source: str, typed: str, given: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        """Autocomplete: up to 25 (label, value) pairs legal now for ``source`` (unit, hex, target, ...)."""
        ...

    def preview(self, state: Any, seat: str, verb: str, args: Mapping[str, Any]) -> str | None:
        """The text to confirm before ``verb`` is applied (an attack's odds), or ``None`` to apply at once.

        :raises RulesError: if the action is already known to be illegal.
        """
        ...

    def describe(self, state: Any, seat: str | None, topic: str, key: str) -> str:
        """Text for an information command (``hex``, ``unit``, ``stack``, ``oob``, ``status``) as ``seat`` sees it.

        :raises RulesError: for an unknown key.
        """
        ...

    def picture(self, state: Any, seat: str | None, events: Sequence[Mapping[str, Any]]) -> bytes | None:
        """A PNG of the map as ``seat`` sees it (``None``: the public view), highlighting what ``events`` changed.

        Runs in a worker thread. ``None`` when the system has no picture.
        """
        ...

    def picture_due(self, events: Sequence[Mapping[str, Any]]) -> bool:
        """Whether these events close an activation (or a turn), so the channel gets the map picture."""
        ...

    def sealed_decisions(self, actions: Sequence[ActionRow]) -> list[SealedDecision]:
        """The decisions the system sealed itself in these live actions' events (:mod:`bot.service.sealed`), for
        verification to check each receipt; none for a system whose only secrets are secret prompts (the
        service seals those and keeps them in the store)."""
        ...


SystemFactory = Callable[[], SystemAdapter]

GameEndListener = Callable[[GameRow, str], Awaitable[None]]
"""Told of every game that ends, with how (``victory``, ``resignation``, ``abandoned``, or a moderator's
``forfeit`` or ``adjudicated``, or ``timeout`` when the opponent claimed a game whose clock ran out), and of every
ended game a correction reopens (``reopened``). Rooms beside the systems (leagues) register one in
:attr:`GameService.end_listeners`."""

TimeoutListener = Callable[["Table", str], Awaitable[None]]
"""Told once when a seat of a game under a time control runs out of time and reserve (the seat given). A league
registers one in :attr:`GameService.timeout_listeners` to apply its own rule (forfeit, adjudication); without
one, the opponent may claim the game (``game claim-timeout``) and the moderators are told."""


ComputerGuard = Callable[["Table"], Awaitable[str | None]]
"""Asked before a seat of a game is given to the computer: a sentence refuses it (a league's games are between its
players), ``None`` lets it be. Rooms register one in :attr:`GameService.computer_guards`."""


@dataclass(frozen=True)
class Caller:
    """Who asks: a user id, a name to show, and whether they are a moderator of the server."""

    user_id: int
    name: str = ""
    moderator: bool = False


def moderator_seats(system: SystemAdapter) -> Mapping[str, str]:
    """The seats of ``system`` that only a moderator acts for, each with the role it stands for (the Wargame
    Commander's ``cm``: "the campaign manager"). A system declares them as ``moderator_seats``; most have none."""
    seats: Mapping[str, str] = getattr(system, "moderator_seats", {})
    return seats


def replay_apply(system: SystemAdapter) -> Callable[[Any, Action], tuple[Any, list[Event]]]:
    """How a replay from the set-up applies each action: the system's ``apply_owned`` where it offers one (it may
    change the state it is given instead of copying it, which a replay that drops each state can afford), else
    its ``apply``."""
    owned: Callable[[Any, Action], tuple[Any, list[Event]]] | None = getattr(system, "apply_owned", None)
    return owned if owned is not None else system.apply


def check_role(system: SystemAdapter, seat: str, caller: Caller) -> None:
    """Refuse an action for ``seat`` by a caller without the role the seat stands for. Every way of acting
    (a command, ``act``, a button, a form, a confirmation, an undo) passes the service, which calls this, so a
    player seated in such a seat cannot walk round the check by another command.

    :raises Refusal: when ``seat`` is a moderator seat and ``caller`` is no moderator.
    """
    role = moderator_seats(system).get(seat)
    if role is not None and not caller.moderator:
        raise Refusal(f"only a moderator acts for the {seat} seat ({role}); nothing changed")


@dataclass(frozen=True)
class Table:
    """A game with its seats: what every answer about a game starts from."""

    game: GameRow
    seats: dict[str, SeatRow]

    def user_of(self, seat: str) -> int | None:
        """The user holding ``seat``, if any."""
        row = self.seats.get(seat)
        return row.user_id if row else None

    def seats_of(self, user_id: int) -> list[str]:
        """The seats ``user_id`` holds."""
        return [s for s, row in self.seats.items() if row.user_id == user_id]

    def computer_of(self, seat: str) -> str | None:
        """The level of the computer holding ``seat``, or ``None`` when a person holds it (or nobody)."""
        row = self.seats.get(seat)
        return row.computer if row is not None and row.user_id is None else None

    @property
    def computer_seats(self) -> dict[str, str]:
        """The seats the computer holds, each with its level."""
        return {s: level for s in self.seats if (level := self.computer_of(s)) is not None}

    def taken(self, seat: str) -> bool:
        """Whether somebody holds ``seat``: a person or the computer."""
        return self.user_of(seat) is not None or self.computer_of(seat) is not None


@dataclass(frozen=True)
class Outcome:
    """What an accepted request did, for the transport to post."""

    table: Table
    seat: str | None = None
    """The seat that acted."""
    action: ActionRow | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    prompts: dict[str, Prompt] = field(default_factory=dict)
    """What each seat must or may decide now."""
    ping: dict[str, int] = field(default_factory=dict)
    """Seats whose input is needed now and was not before, with their user ids: ping exactly these."""
    result: Result | None = None
    picture_due: bool = False
    """Whether an activation closed: post the map picture of what changed."""
    picture_events: list[dict[str, Any]] = field(default_factory=list)
    """What the picture posted after this action shows as just happened (when ``picture_due``): the public
    events of the whole activation that closed, from its opening action to this one, as the channel may read
    them (not sealed, redacted under fog of war)."""
    public_events: list[dict[str, Any]] = field(default_factory=list)
    """The events the channel may read: not sealed, and under fog of war without the names of hidden units."""
    fresh: frozenset[str] = frozenset()
    """Seats whose prompt is new (or, for a required prompt, changed): optional prompts are posted only then."""
    private_prompts: bool = False
    """Whether prompts name what the other side may not see (fog of war): shown to their seat only."""
    own_events: list[dict[str, Any]] = field(default_factory=list)
    """The events as the acting seat may read them (under fog of war, more than the channel)."""
    receipt: str | None = None
    """The receipt hash of a sealed decision."""
    undone: list[ActionRow] = field(default_factory=list)
    note: str = ""

    @property
    def state_id(self) -> int:
        """The game's revision: buttons and confirmations carry it."""
        return self.table.game.revision


@dataclass(frozen=True)
class Preview:
    """An action waiting for its player's confirmation."""

    text: str
    token: str
    seat: str
    verb: str
    args: dict[str, Any]


@dataclass(frozen=True)
class Info:
    """An answer to an information command (``hex``, ``unit``, ``stats`` ...) from a system's ``inform``: its
    text (any length: the command layer pages it), a picture, and the next steps it offers."""

    text: str
    picture: bytes | None = None
    buttons: tuple[tuple[str, str, str], ...] = ()
    """(label, press verb, argument) of each button: :mod:`bot.commands.info`'s verbs, or its room's
    (``Room.press_verbs``)."""
    menu: tuple[tuple[str, str], ...] = ()
    """(label, value) entries of one select menu, pressed with ``menu_verb``."""
    menu_verb: str = ""
    menu_placeholder: str = ""


@dataclass(frozen=True)
class LogEntry:
    """One line of a game's log as a seat sees it."""

    seq: int
    seat: str
    verb: str
    texts: list[str]
    rolls: list[str]
