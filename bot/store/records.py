"""What the game store holds, whatever keeps it: the rows it returns, what an action writes, the errors it raises.

The service, the rooms and the transports speak of stored games only in these words; which database keeps them
(:mod:`bot.store.sqlite`, the embedded default) is the store's own business (:mod:`bot.store.interface`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Clock = Callable[[], float]
"""Now, in seconds since the epoch. One clock serves the store (the times it stamps), the service and the
timers (reminders, vacations, league deadlines); tests give one they move."""

wall_clock: Clock = time.time
"""The clock of a running bot."""

SNAPSHOT_EVERY = 25
"""A state snapshot is stored with every 25th action."""

SNAPSHOTS_KEPT = 2
"""Snapshots kept per game: the latest two, so that undoing a few actions past the latest leaves one to load."""

LIVE_STATUSES = ("open", "active")
"""A game is live while its seats are being filled (open) or it is being played (active)."""


class StoreError(Exception):
    """The store refused a write (a second live game in a channel, a revision that moved on)."""


class StoreOpenError(StoreError):
    """The database file cannot be used (unreadable, read-only, not a database, damaged, locked)."""


class StoreBusyError(StoreError):
    """Another program holds a lock on the database: the write was refused and nothing changed."""


class ChannelBusyError(StoreError):
    """The channel already holds a live game."""


class RevisionError(StoreError):
    """The game changed since its state was read; the write was refused and nothing changed."""


@dataclass(frozen=True)
class GameRow:
    """A game's setup and where it stands."""

    id: int
    guild: int | None
    channel: int
    system: str
    scenario: str
    options: dict[str, Any]
    seed: str
    """The secret seed, hex; only published once the game is over."""
    seed_hash: str
    status: str
    """``open`` (filling seats), ``active``, ``finished`` or ``abandoned``."""
    time_control: dict[str, Any]
    revision: int
    """Counts every change of position (actions, undos, corrections): the "state id" of prompts and buttons."""
    result: dict[str, Any] | None
    creator: int | None
    created: float
    updated: float
    chain_head: str | None = None
    """The chain hash of the last action (:mod:`bot.store.chain`); the seed hash before the first."""
    seat_actions: dict[str, int] = field(default_factory=dict)
    """How many live (not undone) actions each seat has made."""
    rules: int | None = None
    """The rules version of its system the game was created under (``None``: created before versions were
    recorded, schema version 7)."""

    @property
    def live(self) -> bool:
        """Whether the game is still being set up or played."""
        return self.status in LIVE_STATUSES


@dataclass(frozen=True)
class SeatRow:
    """Who holds a seat of a game."""

    game: int
    seat: str
    user_id: int | None
    vacation_until: float | None
    """When the seat's vacation ends (``None``: none granted, or the last one already folded into the clock)."""
    vacation_request: float | None
    """The vacation asked and not yet accepted, in seconds."""
    reserve_used: float
    """The reserve charged so far, in seconds."""
    began: float | None = None
    """When the seat's current required decision began (``None``: nothing required of it now)."""
    vacation_from: float | None = None
    """When the seat's vacation began (with :attr:`vacation_until`)."""
    vacation_used: float = 0.0
    """The vacation granted in this game so far, in seconds (held against the game's cap)."""
    timed_out: bool = False
    """Whether the seat's time and reserve ran out once in this game (the moderators were told then)."""


@dataclass(frozen=True)
class ActionRow:
    """One accepted action and the events it caused."""

    game: int
    seq: int
    seat: str
    user_id: int | None
    verb: str
    args: dict[str, Any]
    events: list[dict[str, Any]]
    time: float
    undone: bool
    events_hash: str | None = None
    """The hash of the events as stored (:mod:`bot.store.chain`)."""
    chain: str | None = None
    """The chain hash of this action as stored (:mod:`bot.store.chain`)."""
    undone_after: int | None = None
    """The last action's number when this one was taken back (:mod:`bot.store.chain`)."""
    began: float | None = None
    """When the acting seat's decision began, before this action (its player's undo resumes it)."""
    charged: float = 0.0
    """The reserve this action charged its seat, in seconds (its player's undo gives it back)."""
    rules: int | None = None
    """The rules version of its system the action was applied under (``None``: stored before versions were
    recorded)."""
    draws: list[dict[str, Any]] | None = None
    """Every die the action rolled (:meth:`engine.dice.Draw.to_json`: stream, number, sides, die, and the event it
    decided), so that the dice can be checked from the seed without the rules (``None`` before version 7)."""


@dataclass(frozen=True)
class CorrectionRow:
    """A moderator's fix, logged in the game."""

    id: int
    game: int
    moderator: int | None
    kind: str
    text: str
    data: dict[str, Any]
    time: float


@dataclass(frozen=True)
class SecretRow:
    """A sealed decision: its owner, the receipt hash published, the payload kept until the reveal."""

    id: int
    game: int
    owner: str
    receipt: str
    payload: str
    revealed: bool
    time: float
    seq: int | None = None
    """The action that carries the decision (``None`` in files from before version 2)."""


@dataclass(frozen=True)
class PendingRow:
    """An action waiting for its player's confirmation (an attack after its odds preview)."""

    token: str
    game: int
    revision: int
    seat: str
    user_id: int
    verb: str
    args: dict[str, Any]


@dataclass(frozen=True)
class NewAction:
    """What :meth:`bot.store.interface.GameStore.record_action` writes for one accepted action."""

    seat: str
    user_id: int | None
    verb: str
    args: Mapping[str, Any]
    events: Sequence[Mapping[str, Any]]
    rules: int | None = None
    """The rules version it was applied under (the system's ``rules_version``)."""
    draws: Sequence[Mapping[str, Any]] = ()
    """The dice it rolled (:meth:`engine.dice.Draw.to_json`)."""


@dataclass(frozen=True)
class NewSecret:
    """A sealed decision written with the action that carries it: its receipt hash and the payload."""

    owner: str
    receipt: str
    payload: str


def snapshot_due(game: GameRow) -> bool:
    """Whether the game's next action is stored with a snapshot (every :data:`SNAPSHOT_EVERY` live actions)."""
    return (sum(game.seat_actions.values()) + 1) % SNAPSHOT_EVERY == 0
