"""The game store as the service sees it: the operations on stored games, in words that name no database.

:class:`GameStore` is what :class:`bot.service.game_service.GameService` is given. :mod:`bot.store.sqlite` is its
embedded backend (aiosqlite, WAL); :mod:`bot.store.postgres` its server backend (asyncpg), which several bot
processes share; both implement the same protocol with the same rows (:mod:`bot.store.records`) and the same
promises:

- every accepted action is written with everything it changes in ONE transaction (:meth:`GameStore.record_action`):
  a crash loses at most the action in flight;
- a write that would break an invariant (a second live game in a channel, a revision that moved on) raises a
  :class:`~bot.store.records.StoreError` and changes nothing;
- reads never see half of a write;
- on a store several processes share (:attr:`GameStore.shared`), two writes of one game are applied one after
  the other, the second refused if the first moved the game on, and what must happen once (a reminder, an
  interaction) is claimed by one process only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bot.store.records import (
    LIVE_STATUSES,
    ActionRow,
    Clock,
    CorrectionRow,
    GameRow,
    NewAction,
    NewSecret,
    PendingRow,
    SeatRow,
    SecretRow,
)

Correction = tuple[int | None, str, str]
"""A moderator's fix logged with a write: (moderator, kind, text)."""


class GameStore(Protocol):
    """Games, seats, the action log with its hash chain, snapshots, secrets, reminders and pending confirmations."""

    clock: Clock
    """Now: what stamps every time the store writes; the service and its timers read the same clock."""

    shared: bool
    """Whether other processes may write the same store (PostgreSQL), so that what one process must do once (a
    Discord interaction, a timer's firing) is claimed through the store (:meth:`claim_once`)."""

    async def close(self) -> None:
        """Release the store (every acknowledged write is already durable)."""

    async def schema_version(self) -> int:
        """The version of the stored schema (:mod:`bot.store.migrations` numbers them)."""

    # --- Games and seats ------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild: int | None,
        channel: int,
        system: str,
        scenario: str,
        options: Mapping[str, Any],
        seed: str,
        seed_hash: str,
        seats: Sequence[str],
        time_control: Mapping[str, Any],
        creator: int | None,
        rules: int | None = None,
    ) -> GameRow:
        """Create an open game with empty seats, under its system's rules version ``rules``;
        :class:`~bot.store.records.ChannelBusyError` if the channel already holds a live game."""

    async def game(self, game_id: int) -> GameRow | None:
        """A game by id."""

    async def live_game_in(self, channel: int) -> GameRow | None:
        """The live game of a channel or thread, if any."""

    async def latest_game_in(self, channel: int) -> GameRow | None:
        """The most recent game of a channel, live or over."""

    async def count_games(
        self, *, creator: int | None = None, guild: int | None = None, live: bool = True, since: float = 0.0
    ) -> int:
        """How many games a user created, or a server holds: live ones only (``live``), created since ``since``."""

    async def games(self, statuses: Sequence[str] = LIVE_STATUSES) -> list[GameRow]:
        """Every game with one of these statuses."""

    async def set_status(
        self,
        game: GameRow,
        status: str,
        result: Mapping[str, Any] | None = None,
        correction: Correction | None = None,
    ) -> GameRow:
        """Change a game's status with its result, bumping the revision; optionally log a moderator's fix."""

    async def seats(self, game_id: int) -> dict[str, SeatRow]:
        """The seats of a game, in the order the system lists them."""

    async def set_seat(
        self,
        game: GameRow,
        seat: str,
        user_id: int | None,
        correction: Correction | None = None,
        *,
        computer: str | None = None,
    ) -> GameRow:
        """Seat a user, or (``user_id`` ``None``) the computer at level ``computer``, or empty the seat, bumping
        the revision; optionally log a moderator's fix. Seating a user clears the computer."""

    async def update_seats(
        self, game_id: int, rows: Sequence[SeatRow], reminders: Mapping[str, float] | None = None
    ) -> None:
        """Write the clocks of these seats as given (their decision's start, vacation, vacation used, time run out;
        not who holds them nor the reserve used) and, when given, replace the game's reminders, in one transaction."""

    async def waiting_seats(self, user_id: int) -> list[tuple[int, str]]:
        """The (game, seat) of every game being played where this user's seat has a decision to make."""

    async def ended_vacations(self, now: float) -> list[tuple[int, str]]:
        """The (game, seat) of every vacation in a game being played that ended by ``now``."""

    # --- The action log -------------------------------------------------------------------------------

    async def actions(self, game_id: int, include_undone: bool = False, after: int = 0) -> list[ActionRow]:
        """The accepted actions of a game in order (undone ones only when asked), from number ``after + 1``."""

    async def last_actions(self, game_id: int, count: int) -> list[ActionRow]:
        """The last ``count`` live actions of a game, in order."""

    async def last_seq(self, game_id: int) -> int:
        """The number of the game's last live action (0 before the first)."""

    async def record_action(
        self,
        game: GameRow,
        action: NewAction,
        *,
        state_json: Any = None,
        status: str | None = None,
        result: Mapping[str, Any] | None = None,
        reminders: Mapping[str, float] | None = None,
        reserve_used: tuple[str, float] | None = None,
        clocks: Mapping[str, float | None] | None = None,
        secret: NewSecret | None = None,
        reveal: bool = False,
    ) -> tuple[GameRow, ActionRow]:
        """Write one accepted action and everything it changes in ONE transaction (``reserve_used``: a seat's
        reserve charged, in seconds; ``clocks``: when each seat's required decision began, ``None`` for none; the
        action keeps its seat's start and charge), chained with its rules version, its dice and the receipt of
        ``secret`` (:func:`bot.store.chain.action_record`); :class:`~bot.store.records.RevisionError` if the game
        moved on since ``game`` was read."""

    async def undo_actions(
        self,
        game: GameRow,
        seqs: Sequence[int],
        *,
        reminders: Mapping[str, float] | None = None,
        correction: Correction | None = None,
        clocks: Mapping[str, float | None] | None = None,
        refund: bool = False,
    ) -> GameRow:
        """Mark actions undone (kept in the log, no longer replayed) and drop the snapshots they fed; ``clocks``
        sets when each seat's decision began; ``refund`` gives back the reserve the undone actions charged."""

    async def latest_snapshot(self, game_id: int, before: int | None = None) -> tuple[int, Any] | None:
        """The latest snapshot taken at a live action (its number and the state JSON), if any; with ``before``,
        the latest taken before that action."""

    async def archive(self, game_id: int) -> bool:
        """Pack a finished game's log for keeping; whether it was done (a busy store leaves it for later)."""

    async def archive_left_undone(self) -> int:
        """Archive the finished games' logs left undone; how many were archived."""

    async def corrections(self, game_id: int) -> list[CorrectionRow]:
        """Every moderator fix of a game, in order."""

    # --- Secrets, reminders, preferences, pending confirmations ---------------------------------------

    async def secrets(self, game_id: int) -> list[SecretRow]:
        """The sealed decisions of a game."""

    async def reminders(self, game_id: int) -> dict[str, float]:
        """The reminders of a game: seat to due time."""

    async def due_reminders(self, now: float) -> list[tuple[int, str, float]]:
        """Reminders due by ``now``: (game, seat, due)."""

    async def claim_due_reminders(self, now: float, lease: float) -> list[tuple[int, str, float]]:
        """Take the reminders due by ``now`` (game, seat, due), moving each to ``now + lease`` in the same
        transaction: two processes asking at once get disjoint sets."""

    async def claim_once(self, key: str) -> bool:
        """Whether this call is the first to claim ``key`` (a timer's firing, a Discord interaction's id), across
        every process sharing the store."""

    async def snooze_reminder(self, game_id: int, seat: str, due: float) -> None:
        """Move one reminder to another time (after it was sent, or to retry it)."""

    async def preference(self, user_id: int, key: str) -> str | None:
        """A user's preference, if set."""

    async def set_preference(self, user_id: int, key: str, value: str) -> None:
        """Set a user's preference."""

    async def put_pending(self, row: PendingRow) -> None:
        """Keep an action awaiting its player's confirmation (it survives a restart)."""

    async def pending(self, token: str) -> PendingRow | None:
        """An action awaiting confirmation, left in place."""

    async def pop_pending(self, token: str) -> PendingRow | None:
        """Take an action awaiting confirmation (it can be confirmed or cancelled only once)."""
