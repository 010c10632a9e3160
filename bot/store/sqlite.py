"""The embedded game store, :class:`SqliteStore` (a :class:`bot.store.interface.GameStore`): every game's setup
and every accepted action, in SQLite (aiosqlite, WAL mode).

Event-sourced (DESIGN.md): a game is its setup (system, scenario, options, secret seed) plus the list of
accepted actions; a game's state is rebuilt by replaying them, and snapshots (state JSON, zlib-compressed, every
``SNAPSHOT_EVERY`` actions, the latest ``SNAPSHOTS_KEPT`` kept: :mod:`bot.store.records`) only speed that up: a
cold load reads the latest snapshot and the actions after it. The game row counts each seat's live actions, so
nothing on an action's path reads or counts the whole log. Each action's events are stored zlib-compressed, after
the game's first :data:`DICTIONARY_AFTER` actions with a dictionary made of those actions' events (kept on the
game row). When a game ends, its log is archived (:meth:`SqliteStore.archive`): every action's arguments and
events are packed again with a dictionary sampled from the whole game. The two hashes of each action are stored
as 32-byte blobs and the log is a ``WITHOUT ROWID`` table (no second index of its key): a finished game's rows
stay under 300 kB (docs/performance.md). Each accepted action is written in ONE transaction with everything it
changes (the game's revision, status and result, the snapshot, the reminders), so a crash loses at most the
action in flight, never half of one.

The schema carries a version in ``PRAGMA user_version``; :data:`MIGRATIONS` brings any older file up to date
when the store opens it.

Writes go through one connection, one transaction at a time; reads of a file go through a second connection,
so that a write waiting for a lock (another program holding the file) never holds up the other games' reads.
A write that cannot get the lock within :data:`WRITE_WAIT_MS` is refused (:class:`StoreBusyError`), nothing
changed. Each action also carries the hash chain of :mod:`bot.store.chain`.

How rows are packed is :mod:`bot.store.packing`; the schema's versions are :mod:`bot.store.migrations`; the
rows it returns are :mod:`bot.store.records`. :class:`SqliteStore` stays one class on purpose:
every method is a query or one transaction over the same two connections, write lock and caches, and an
action's transaction touches the game row, the log, the snapshots and the reminders together; split by table,
one transaction would span modules.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import zlib
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

import aiosqlite

from bot.store import chain
from bot.store.migrations import MIGRATIONS as MIGRATIONS
from bot.store.migrations import Migration as Migration
from bot.store.packing import ARCHIVED as ARCHIVED
from bot.store.packing import SNAPSHOT_ZLIB_LEVEL as SNAPSHOT_ZLIB_LEVEL
from bot.store.packing import _archived as _archived
from bot.store.packing import _hash_text, _log_to_archive, _write_archive, pack_events, pack_snapshot, unpack_events
from bot.store.packing import unpack_snapshot as unpack_snapshot
from bot.store.records import (
    LIVE_STATUSES,
    SNAPSHOTS_KEPT,
    ActionRow,
    ChannelBusyError,
    Clock,
    CorrectionRow,
    GameRow,
    NewAction,
    NewSecret,
    PendingRow,
    RevisionError,
    SeatRow,
    SecretRow,
    StoreBusyError,
    StoreError,
    StoreOpenError,
    snapshot_due,
    wall_clock,
)
from bot.store.sql import Connection, Row

DICTIONARY_AFTER = 50
"""After this many actions, the events of the latest ones become the game's compression dictionary."""

DICTIONARY_BYTES = 16_000
"""The dictionary's size: the last 16 kB of those events' JSON (a finished game's log compresses 4 times)."""

WRITE_WAIT_MS = 1000
"""How long a write waits for a lock held by another program before it is refused (milliseconds)."""

READ_WAIT_MS = 1000
"""How long a read waits (only a checkpoint or a rollback by another program makes a WAL reader wait)."""


def _busy(error: sqlite3.OperationalError) -> Exception:
    if "locked" in str(error) or "busy" in str(error):
        return StoreBusyError("another program holds a lock on the database; nothing changed, try again shortly")
    return error


CHECKED_WHEN_READ = frozenset({"actions", "snapshots"})
"""The tables the start-up check leaves out: the games' logs and states, nearly all of a file's bytes. A game
reads its own rows when it loads; a damaged page among them gives the same one sentence then (``_open_failure``
words), for that game alone."""


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _open_failure(path: str, error: BaseException) -> str:
    """Why a database cannot be used, in one sentence that says what to do."""
    text = str(error)
    if "readonly" in text or "read-only" in text or isinstance(error, PermissionError):
        why = "it is read-only (give the bot's user write access to the file and to its folder)"
    elif "not a database" in text or "malformed" in text or "damage" in text or "corrupt" in text:
        why = f"it is damaged ({text}); restore the latest backup (docs/hosting.md, Backups)"
    elif "locked" in text or "busy" in text:
        why = "another program holds a lock on it (is a second bot running on the same file?)"
    elif "unable to open" in text:
        why = "the file or its folder cannot be opened (check the path and the permissions)"
    else:
        why = text
    return f"cannot use the database {path}: {why}"


def _game(row: Row) -> GameRow:
    return GameRow(
        id=row["id"],
        guild=row["guild"],
        channel=row["channel"],
        system=row["system"],
        scenario=row["scenario"],
        options=json.loads(row["options"]),
        seed=row["seed"],
        seed_hash=row["seed_hash"],
        status=row["status"],
        time_control=json.loads(row["time_control"]),
        revision=row["revision"],
        result=json.loads(row["result"]) if row["result"] else None,
        creator=row["creator"],
        created=row["created"],
        updated=row["updated"],
        chain_head=row["chain_head"] or row["seed_hash"],
        seat_actions=json.loads(row["seat_actions"]),
        rules=row["rules"],
    )


def _seat(row: Row) -> SeatRow:
    if "began" not in row.keys():  # noqa: SIM118 (a Row's "in" reads its values): a schema from before the clocks
        return SeatRow(
            *(row[k] for k in ("game", "seat", "user_id", "vacation_until", "vacation_request", "reserve_used"))
        )
    return SeatRow(
        row["game"],
        row["seat"],
        row["user_id"],
        row["vacation_until"],
        row["vacation_request"],
        row["reserve_used"],
        row["began"],
        row["vacation_from"],
        row["vacation_used"],
        bool(row["timed_out"]),
        row["computer"] if "computer" in row.keys() else None,  # noqa: SIM118 (a Row's "in" reads its values)
    )


def _action(row: Row, dictionary: bytes | None = None, archive: bytes | None = None) -> ActionRow:
    return ActionRow(
        game=row["game"],
        seq=row["seq"],
        seat=row["seat"],
        user_id=row["user_id"],
        verb=row["verb"],
        args=unpack_events(row["args"], dictionary, archive),
        events=unpack_events(row["events"], dictionary, archive),
        time=row["time"],
        undone=bool(row["undone"]),
        events_hash=_hash_text(row["events_hash"]),
        chain=_hash_text(row["chain"]),
        undone_after=row["undone_after"],
        began=row["began"],
        charged=row["charged"],
        rules=row["rules"],
        draws=json.loads(row["draws"]) if row["draws"] is not None else None,
    )


class SqliteStore:
    """The SQLite store of every game. Open it with :meth:`open`; close it with :meth:`close`.

    Its SQL is the one both backends run; :class:`bot.store.postgres.PostgresStore` changes only how it connects,
    the dialect's few words below, and the game lock (:meth:`_lock_game`)."""

    shared = False
    """Whether other processes may write the same store (a SQLite file has one bot process)."""

    seat_order = "rowid"
    """How the seats come back in the order they were made (SQLite's row number)."""

    skip_locked = ""
    """What a timer's claim adds to its read (SQLite's write transaction already excludes every other writer)."""

    integrity_errors: tuple[type[Exception], ...] = (sqlite3.IntegrityError,)
    """The errors a broken unique index raises."""

    CLAIMS_KEPT = 7 * 86_400.0
    """How long a claimed interaction or timer is remembered (seconds): far longer than Discord ever redelivers."""

    def __init__(
        self, db: Connection, path: str, reader: Connection | None = None, clock: Clock = wall_clock
    ) -> None:
        self._db = db
        self.clock = clock
        """Now: the times the store stamps (a game's creation and changes, actions, corrections, secrets)."""
        self._reader = reader or db
        self.path = path
        self._write_lock = asyncio.Lock()
        self._dictionaries: dict[int, bytes] = {}
        """Games' compression dictionaries (set once, never changed), as read."""
        self._archives: dict[int, bytes] = {}
        """Games' archive dictionaries (set once, never changed), as read and decompressed."""
        self._archives_left: set[int] = set()
        """Games whose archive was left undone, the file busy (:meth:`archive_left_undone` retries them)."""

    # --- Opening --------------------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        check: bool = False,
        clock: Clock = wall_clock,
        writes: bool = True,
        every_page: bool = False,
    ) -> SqliteStore:
        """Open (creating or migrating) the store at ``path``; ``":memory:"`` for a throw-away store. ``clock``
        stamps every time the store writes (:data:`bot.store.records.Clock`).

        ``check`` also runs SQLite's quick check of the pages and makes sure the file takes writes (the bot does
        at start-up, so that it refuses a damaged or read-only file before accepting any command); with
        ``writes=False`` only the pages are checked (``umpire replay`` and ``umpire verify`` read a copy kept
        read-only). The start-up check reads every table but the games' logs (:data:`CHECKED_WHEN_READ`), which
        hold nearly all the file's bytes and are checked page by page as SQLite reads them, so start-up does
        not grow with the games played; ``every_page`` checks them too (:meth:`check_every_page`).

        :raises StoreOpenError: with a sentence, when the file cannot be used; no connection is left open.
        """
        opened: list[aiosqlite.Connection] = []
        try:
            db = await aiosqlite.connect(str(path), isolation_level=None)
            opened.append(db)
            db.row_factory = aiosqlite.Row
            await db.execute(f"PRAGMA busy_timeout={WRITE_WAIT_MS}")
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA synchronous=FULL")
            await db.execute("PRAGMA foreign_keys=ON")
            reader = None
            if str(path) != ":memory:":
                reader = await aiosqlite.connect(str(path), isolation_level=None)
                opened.append(reader)
                reader.row_factory = aiosqlite.Row
                await reader.execute(f"PRAGMA busy_timeout={READ_WAIT_MS}")
                await reader.execute("PRAGMA query_only=ON")
            store = cls(db, str(path), reader, clock)
            if check and every_page:
                await store.check_every_page()
            elif check:
                await store.check_start_up()
            await store._migrate()
            if check and writes:
                await store._check_writable()
            return store
        except (sqlite3.Error, OSError, StoreError) as error:
            for connection in opened:
                with contextlib.suppress(sqlite3.Error, OSError):  # the thread is stopped all the same
                    await connection.close()
            raise StoreOpenError(_open_failure(str(path), error)) from error

    async def check_start_up(self) -> None:
        """SQLite's quick check of every table but the games' logs (:data:`CHECKED_WHEN_READ`) and of their
        indexes: what the bot reads to start and to find its games, in a time that does not grow with the
        actions stored.

        :raises StoreError: naming the first damage found.
        """
        tables = await self._db.execute_fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
        for (table,) in tables:
            if table not in CHECKED_WHEN_READ:
                await self._quick_check(f"PRAGMA quick_check({_quoted(table)})")

    async def check_every_page(self) -> None:
        """SQLite's quick check of every page of the file (``umpire verify`` and ``umpire replay`` run it).

        :raises StoreError: naming the first damage found.
        """
        await self._quick_check("PRAGMA quick_check")

    async def _quick_check(self, pragma: str) -> None:
        try:
            rows = list(await self._db.execute_fetchall(pragma))
        except sqlite3.OperationalError:  # busy or locked: not damage
            raise
        except sqlite3.DatabaseError as error:  # a page too broken for the check to go on
            raise StoreError(f"the integrity check found damage: {error}") from error
        found = [str(r[0]) for r in rows]
        if found != ["ok"]:
            first = " ".join(line for line in found[0].splitlines() if not line.startswith("***"))
            raise StoreError(f"the integrity check found damage: {first[:120]}")

    async def _check_writable(self) -> None:
        version = await self.schema_version()
        async with self.transaction() as db:
            await db.execute(f"PRAGMA user_version={version}")  # a real write of the file's header

    async def close(self) -> None:
        """Close the connections (every acknowledged write is already on disk)."""
        if self._reader is not self._db:
            await self._reader.close()
        await self._db.close()

    async def _migrate(self) -> None:
        version = await self.schema_version()
        for number, change in enumerate(MIGRATIONS[version:], start=version + 1):
            async with self.transaction():
                if isinstance(change, str):
                    for statement in change.split(";"):
                        if statement.strip():
                            await self._db.execute(statement)
                else:
                    await change(cast(aiosqlite.Connection, self._db))  # SQLite's own migrations
                await self._db.execute(f"PRAGMA user_version={number}")

    async def schema_version(self) -> int:
        """The schema version of the open file."""
        rows = list(await self._db.execute_fetchall("PRAGMA user_version"))
        return int(rows[0][0])

    async def journal_mode(self) -> str:
        """SQLite's journal mode (``wal`` for a file)."""
        rows = list(await self._db.execute_fetchall("PRAGMA journal_mode"))
        return str(rows[0][0])

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """One write transaction (BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error).

        :raises StoreBusyError: when another program holds the lock longer than :data:`WRITE_WAIT_MS`.
        """
        async with self._write_lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as error:
                raise _busy(error) from error
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            try:
                await self._db.execute("COMMIT")
            except sqlite3.OperationalError as error:
                await self._db.execute("ROLLBACK")
                raise _busy(error) from error

    async def restart_numbering(self, tables: Sequence[str]) -> None:
        """After rows were copied in with their ids, number the next row of each table after them (SQLite's
        ``AUTOINCREMENT`` already does)."""

    async def _lock_game(self, db: Connection, game_id: int) -> None:
        """Serialise the writes of one game across processes for the rest of the transaction (SQLite's write
        transaction already holds the whole file)."""

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Rows of a read-only query, for the rooms that keep their own tables here (leagues)."""
        return await self._all(sql, params)

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            return list(await self._reader.execute_fetchall(sql, params))
        except sqlite3.OperationalError as error:
            raise _busy(error) from error

    # --- Games ----------------------------------------------------------------------------------------

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
        """Create an open game with empty seats, under its system's rules version ``rules``.

        :raises ChannelBusyError: if the channel already holds a live game.
        """
        now = self.clock()
        try:
            async with self.transaction() as db:
                made = await db.execute_fetchall(
                    "INSERT INTO games (guild, channel, system, scenario, options, seed, seed_hash, time_control, "
                    "creator, created, updated, rules) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (
                        guild,
                        channel,
                        system,
                        scenario,
                        json.dumps(dict(options)),
                        seed,
                        seed_hash,
                        json.dumps(dict(time_control)),
                        creator,
                        now,
                        now,
                        rules,
                    ),
                )
                game_id = int(next(iter(made))[0])
                await db.executemany(
                    "INSERT INTO seats (game, seat) VALUES (?, ?)", [(game_id, seat) for seat in seats]
                )
        except self.integrity_errors as error:
            raise ChannelBusyError("this channel already holds a game") from error
        game = await self.game(game_id)
        assert game is not None
        return game

    async def game(self, game_id: int) -> GameRow | None:
        """A game by id."""
        row = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def live_game_in(self, channel: int) -> GameRow | None:
        """The live game of a channel or thread, if any."""
        row = await self._one(
            "SELECT * FROM games WHERE channel = ? AND status IN ('open', 'active') ORDER BY id DESC LIMIT 1",
            (channel,),
        )
        return _game(row) if row else None

    async def latest_game_in(self, channel: int) -> GameRow | None:
        """The most recent game of a channel, live or over."""
        row = await self._one("SELECT * FROM games WHERE channel = ? ORDER BY id DESC LIMIT 1", (channel,))
        return _game(row) if row else None

    async def count_games(
        self, *, creator: int | None = None, guild: int | None = None, live: bool = True, since: float = 0.0
    ) -> int:
        """How many games a user created, or a server holds: live ones only (``live``), created since ``since``."""
        where = ["created >= ?"]
        params: list[Any] = [since]
        if creator is not None:
            where.append("creator = ?")
            params.append(creator)
        if guild is not None:
            where.append("guild = ?")
            params.append(guild)
        if live:
            where.append("status IN ('open', 'active')")
        row = await self._one(f"SELECT COUNT(*) AS n FROM games WHERE {' AND '.join(where)}", params)
        return int(row["n"]) if row else 0

    async def games(self, statuses: Sequence[str] = LIVE_STATUSES) -> list[GameRow]:
        """Every game with one of these statuses."""
        marks = ", ".join("?" for _ in statuses)
        return [_game(r) for r in await self._all(f"SELECT * FROM games WHERE status IN ({marks})", tuple(statuses))]

    async def set_status(
        self,
        game: GameRow,
        status: str,
        result: Mapping[str, Any] | None = None,
        correction: tuple[int | None, str, str] | None = None,
    ) -> GameRow:
        """Change a game's status (start, resign, abandon), with its result, bumping the revision; a game that
        ends has its sealed decisions revealed.

        ``correction`` (moderator, kind, text) logs a moderator's decision in the same transaction.

        :raises RevisionError: if the game changed since ``game`` was read.
        """
        async with self.transaction() as db:
            await self._bump(db, game, status=status, result=result)
            if status not in LIVE_STATUSES:
                await db.execute("DELETE FROM reminders WHERE game = ?", (game.id,))
                await db.execute("DELETE FROM pending WHERE game = ?", (game.id,))
                await db.execute("UPDATE secrets SET revealed = 1 WHERE game = ?", (game.id,))
            if correction is not None:
                await self._log_correction(db, game.id, *correction, {})
        if status not in LIVE_STATUSES:
            await self.archive(game.id)
        return await self._reload(game)

    async def _bump(
        self,
        db: Connection,
        game: GameRow,
        status: str | None = None,
        result: Mapping[str, Any] | None = None,
    ) -> None:
        await self._lock_game(db, game.id)
        cursor = await db.execute(
            "UPDATE games SET revision = revision + 1, updated = ?, status = ?, result = ? "
            "WHERE id = ? AND revision = ?",
            (
                self.clock(),
                status or game.status,
                json.dumps(dict(result)) if result is not None else (json.dumps(game.result) if game.result else None),
                game.id,
                game.revision,
            ),
        )
        if cursor.rowcount != 1:
            raise RevisionError("the game changed meanwhile; nothing was written")

    async def _reload(self, game: GameRow) -> GameRow:
        fresh = await self.game(game.id)
        assert fresh is not None
        return fresh

    # --- Seats ----------------------------------------------------------------------------------------

    async def seats(self, game_id: int) -> dict[str, SeatRow]:
        """The seats of a game, in the order the system lists them."""
        rows = await self._all(f"SELECT * FROM seats WHERE game = ? ORDER BY {self.seat_order}", (game_id,))
        return {r["seat"]: _seat(r) for r in rows}

    async def set_seat(
        self,
        game: GameRow,
        seat: str,
        user_id: int | None,
        correction: tuple[int | None, str, str] | None = None,
        *,
        computer: str | None = None,
    ) -> GameRow:
        """Seat a user, or the computer at level ``computer`` (or empty the seat), bumping the revision;
        optionally log a moderator's correction."""
        async with self.transaction() as db:
            await self._bump(db, game)
            await db.execute(
                "UPDATE seats SET user_id = ?, computer = ?, vacation_until = NULL, vacation_request = NULL "
                "WHERE game = ? AND seat = ?",
                (user_id, computer if user_id is None else None, game.id, seat),
            )
            if correction is not None:
                data: dict[str, Any] = {"seat": seat, "user": user_id}
                if computer is not None and user_id is None:
                    data["computer"] = computer
                await self._log_correction(db, game.id, *correction, data)
        return await self._reload(game)

    async def update_seats(
        self, game_id: int, rows: Sequence[SeatRow], reminders: Mapping[str, float] | None = None
    ) -> None:
        """Write the clocks of these seats as given (their decision's start, vacation, vacation used, time run out;
        not who holds them nor the reserve used) and, when given, replace the game's reminders, in one transaction."""
        async with self.transaction() as db:
            await db.executemany(
                "UPDATE seats SET began = ?, vacation_from = ?, vacation_until = ?, vacation_request = ?, "
                "vacation_used = ?, timed_out = ? WHERE game = ? AND seat = ?",
                [
                    (r.began, r.vacation_from, r.vacation_until, r.vacation_request, r.vacation_used,
                     int(r.timed_out), game_id, r.seat)
                    for r in rows
                ],
            )  # fmt: skip
            if reminders is not None:
                await self._replace_reminders(db, game_id, reminders)

    async def waiting_seats(self, user_id: int) -> list[tuple[int, str]]:
        """The (game, seat) of every game being played where this user's seat has a decision to make."""
        rows = await self._all(
            "SELECT s.game, s.seat FROM seats AS s JOIN games AS g ON g.id = s.game "
            "WHERE s.user_id = ? AND s.began IS NOT NULL AND g.status = 'active' ORDER BY s.game",
            (user_id,),
        )
        return [(int(r["game"]), str(r["seat"])) for r in rows]

    async def ended_vacations(self, now: float) -> list[tuple[int, str]]:
        """The (game, seat) of every vacation in a game being played that ended by ``now``."""
        rows = await self._all(
            "SELECT s.game, s.seat FROM seats AS s JOIN games AS g ON g.id = s.game "
            "WHERE s.vacation_from IS NOT NULL AND s.vacation_until <= ? AND g.status = 'active' ORDER BY s.game",
            (now,),
        )
        return [(int(r["game"]), str(r["seat"])) for r in rows]

    # --- Actions --------------------------------------------------------------------------------------

    async def actions(self, game_id: int, include_undone: bool = False, after: int = 0) -> list[ActionRow]:
        """The accepted actions of a game in order (undone ones only when asked), from number ``after + 1``."""
        sql = "SELECT * FROM actions WHERE game = ? AND seq > ?" + ("" if include_undone else " AND undone = 0")
        rows = await self._all(sql + " ORDER BY seq", (game_id, after))
        dictionary, archive = await self._dictionary(game_id), await self._archive(game_id)
        return await asyncio.to_thread(lambda: [_action(r, dictionary, archive) for r in rows])  # 2,000 in ~60 ms

    async def last_actions(self, game_id: int, count: int) -> list[ActionRow]:
        """The last ``count`` live actions of a game, in order (read from the end of the log)."""
        rows = await self._all(
            "SELECT * FROM actions WHERE game = ? AND undone = 0 ORDER BY seq DESC LIMIT ?", (game_id, count)
        )
        dictionary, archive = await self._dictionary(game_id), await self._archive(game_id)
        return [_action(r, dictionary, archive) for r in reversed(rows)]

    async def _dictionary(self, game_id: int) -> bytes | None:
        """The game's compression dictionary, once it has one."""
        if game_id not in self._dictionaries:
            row = await self._one("SELECT log_dictionary FROM games WHERE id = ?", (game_id,))
            if row is None or row["log_dictionary"] is None:
                return None
            if len(self._dictionaries) >= 64:
                self._dictionaries.pop(next(iter(self._dictionaries)))
            self._dictionaries[game_id] = bytes(row["log_dictionary"])
        return self._dictionaries[game_id]

    async def archive(self, game_id: int) -> bool:
        """Archive a game's log once it is over: its arguments and events packed again with a dictionary sampled
        from the whole game (:func:`_archived`), for about a third less room.

        The packing runs in a worker thread outside the write lock (about 0.3 s for a whole Ardennes game), then
        a short transaction writes the rows still as they were read. Rows read the same in either form, so an
        archive left undone (the file busy) loses nothing but room until :meth:`archive_left_undone` does it.

        :returns: whether it is done (``False``: the file was busy; the game is kept for a retry).
        """
        try:
            archive = await _log_to_archive(self._reader, game_id)
            if archive is not None:
                async with self.transaction() as db:
                    await self._lock_game(db, game_id)
                    await _write_archive(db, archive)
        except (sqlite3.OperationalError, StoreBusyError) as error:
            if isinstance(error, sqlite3.OperationalError) and not isinstance(_busy(error), StoreBusyError):
                raise
            self._archives_left.add(game_id)
            return False
        self._archives_left.discard(game_id)
        return True

    async def archive_left_undone(self) -> int:
        """Archive again the logs left undone (:meth:`archive`): the games skipped while the file was busy, and
        any finished game whose log was never archived (skipped before a restart). The bot calls it with the
        reminders. Returns how many were archived; those still busy wait for the next call."""
        skipped = sorted(self._archives_left)
        try:
            named = "id IN ({}) OR ".format(", ".join("?" * len(skipped))) if skipped else ""
            rows = await self._all(
                f"SELECT id FROM games WHERE status NOT IN (?, ?) AND ({named}archive_dictionary IS NULL "
                "AND EXISTS (SELECT 1 FROM actions WHERE actions.game = games.id)) ORDER BY id",
                (*LIVE_STATUSES, *skipped),
            )
        except StoreBusyError:
            return 0
        self._archives_left.clear()  # a game live again is archived at its next end; a busy one comes back
        done = 0
        for row in rows:
            done += await self.archive(int(row["id"]))
        return done

    async def _archive(self, game_id: int) -> bytes | None:
        """The game's archive dictionary, once its log was archived (:meth:`SqliteStore.archive`)."""
        if game_id not in self._archives:
            row = await self._one("SELECT archive_dictionary FROM games WHERE id = ?", (game_id,))
            if row is None or row["archive_dictionary"] is None:
                return None
            if len(self._archives) >= 64:
                self._archives.pop(next(iter(self._archives)))
            self._archives[game_id] = zlib.decompress(row["archive_dictionary"])
        return self._archives[game_id]

    async def _new_dictionary(self, db: Connection, game_id: int) -> bytes:
        """Make the game's dictionary from the events of its latest :data:`DICTIONARY_AFTER` actions."""
        rows = await self._all(
            "SELECT events FROM actions WHERE game = ? ORDER BY seq DESC LIMIT ?", (game_id, DICTIONARY_AFTER)
        )
        archive = await self._archive(game_id)  # a game reopened after it ended has its older rows archived
        texts = [json.dumps(unpack_events(r["events"], None, archive), separators=(",", ":")) for r in reversed(rows)]
        dictionary = "".join(texts).encode()[-DICTIONARY_BYTES:]
        await db.execute("UPDATE games SET log_dictionary = ? WHERE id = ?", (dictionary, game_id))
        return dictionary  # remembered by the caller once the transaction is committed

    async def last_seq(self, game_id: int) -> int:
        """The number of the game's last live action (0 before the first)."""
        row = await self._one("SELECT MAX(seq) AS seq FROM actions WHERE game = ? AND undone = 0", (game_id,))
        return int(row["seq"] or 0) if row else 0

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
        """Write one accepted action and everything it changes in ONE transaction.

        ``state_json`` is stored as a snapshot when the game's count of live actions reaches a multiple of
        :data:`SNAPSHOT_EVERY` (:func:`snapshot_due`: the caller may skip building it otherwise);
        ``reminders`` replaces the game's reminders (seat to due time); ``reserve_used`` charges a seat's reserve
        (seconds); ``clocks`` sets when each seat's required decision began (``None``: it has none), and the
        action keeps when its own seat's decision began and what it charged. ``secret`` is the sealed decision the
        action carries; ``reveal`` marks every sealed decision of the game revealed. The action is chained to
        the one before it (:mod:`bot.store.chain`).

        :raises RevisionError: if the game changed since ``game`` was read (nothing is written).
        """
        now = self.clock()
        snapshot = None
        if state_json is not None and snapshot_due(game):
            snapshot = await asyncio.to_thread(pack_snapshot, state_json)
        counts = dict(game.seat_actions)
        counts[action.seat] = counts.get(action.seat, 0) + 1
        async with self.transaction() as db:
            await self._bump(db, game, status=status, result=result)
            await db.execute("UPDATE games SET seat_actions = ? WHERE id = ?", (json.dumps(counts), game.id))
            charged = reserve_used[1] if reserve_used is not None and reserve_used[0] == action.seat else 0.0
            stored, made = await self._insert_action(db, game, action, now, charged, secret)
            if secret is not None:
                await db.execute(
                    "INSERT INTO secrets (game, owner, receipt, payload, time, seq) VALUES (?, ?, ?, ?, ?, ?)",
                    (game.id, secret.owner, secret.receipt, secret.payload, now, stored.seq),
                )
            if reveal:
                await db.execute("UPDATE secrets SET revealed = 1 WHERE game = ?", (game.id,))
            if snapshot is not None:
                await self._keep_snapshot(db, game.id, stored.seq, snapshot)
            await self._update_seats(db, game.id, reminders, reserve_used, clocks)
            await db.execute("DELETE FROM pending WHERE game = ?", (game.id,))
        if made is not None:
            self._dictionaries[game.id] = made
        if status is not None and status not in LIVE_STATUSES:
            await self.archive(game.id)
        return await self._reload(game), stored

    async def _insert_action(
        self, db: Connection, game: GameRow, action: NewAction, now: float, charged: float, secret: NewSecret | None
    ) -> tuple[ActionRow, bytes | None]:
        """Append the action to the game's log, chained to the one before it, and move the chain's head; the row
        as stored, and the game's new compression dictionary when this action made one."""
        own_hash = chain.events_hash(action.events)
        seq, previous = await self._chain_so_far(db, game)
        seq += 1
        began_rows = list(
            await db.execute_fetchall("SELECT began FROM seats WHERE game = ? AND seat = ?", (game.id, action.seat))
        )
        began = began_rows[0]["began"] if began_rows else None
        draws = [dict(d) for d in action.draws]
        record = chain.action_record(action.rules, draws, secret.receipt if secret is not None else None)
        link = chain.link(previous, seq, action.seat, action.user_id, action.verb, action.args, own_hash, record)
        dictionary = await self._dictionary(game.id)
        made = None
        if dictionary is None and seq > DICTIONARY_AFTER:
            dictionary = made = await self._new_dictionary(db, game.id)
        await db.execute(
            "INSERT INTO actions (game, seq, seat, user_id, verb, args, events, time, events_hash, chain, began, "
            "charged, rules, draws) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game.id,
                seq,
                action.seat,
                action.user_id,
                action.verb,
                json.dumps(dict(action.args)),
                pack_events(action.events, dictionary),
                now,
                bytes.fromhex(own_hash),
                bytes.fromhex(link),
                began,
                charged,
                action.rules,
                json.dumps(draws, separators=(",", ":")) if action.rules is not None else None,
            ),
        )
        await db.execute("UPDATE games SET chain_head = ? WHERE id = ?", (link, game.id))
        stored = ActionRow(
            game.id, seq, action.seat, action.user_id, action.verb, dict(action.args),
            [dict(e) for e in action.events], now, False, own_hash, link, began=began, charged=charged,
            rules=action.rules, draws=draws if action.rules is not None else None,
        )  # fmt: skip
        return stored, made

    @staticmethod
    async def _keep_snapshot(db: Connection, game_id: int, seq: int, snapshot: bytes) -> None:
        """Store a snapshot of the state after action ``seq``, keeping only the latest :data:`SNAPSHOTS_KEPT`."""
        await db.execute(
            "INSERT INTO snapshots (game, seq, state) VALUES (?, ?, ?) "
            "ON CONFLICT (game, seq) DO UPDATE SET state = excluded.state",
            (game_id, seq, snapshot),
        )
        await db.execute(
            "DELETE FROM snapshots WHERE game = ? AND seq < (SELECT seq FROM snapshots WHERE game = ? "
            "ORDER BY seq DESC LIMIT 1 OFFSET ?)",
            (game_id, game_id, SNAPSHOTS_KEPT - 1),
        )

    async def _update_seats(
        self,
        db: Connection,
        game_id: int,
        reminders: Mapping[str, float] | None,
        reserve_used: tuple[str, float] | None,
        clocks: Mapping[str, float | None] | None,
    ) -> None:
        """What an action changes of the seats' clocks: the reminders, a reserve charged, when each seat's
        decision began (each only when given)."""
        if reminders is not None:
            await self._replace_reminders(db, game_id, reminders)
        if reserve_used is not None:
            await db.execute(
                "UPDATE seats SET reserve_used = reserve_used + ? WHERE game = ? AND seat = ?",
                (reserve_used[1], game_id, reserve_used[0]),
            )
        if clocks is not None:
            await self._set_began(db, game_id, clocks)

    async def undo_actions(
        self,
        game: GameRow,
        seqs: Sequence[int],
        *,
        reminders: Mapping[str, float] | None = None,
        correction: tuple[int | None, str, str] | None = None,
        clocks: Mapping[str, float | None] | None = None,
        refund: bool = False,
    ) -> GameRow:
        """Mark actions undone (kept in the log, no longer replayed) and drop the snapshots they fed; ``clocks``
        sets when each seat's decision began; ``refund`` gives each seat back the reserve its undone actions
        charged."""
        if not seqs:
            return game
        async with self.transaction() as db:
            await self._bump(db, game)
            marks = ", ".join("?" for _ in seqs)
            undone = await db.execute_fetchall(
                f"SELECT seat, charged FROM actions WHERE game = ? AND undone = 0 AND seq IN ({marks})",
                (game.id, *seqs),
            )
            counts = dict(game.seat_actions)
            for row in undone:
                counts[row["seat"]] = counts.get(row["seat"], 0) - 1
                if refund and row["charged"]:
                    await db.execute(
                        "UPDATE seats SET reserve_used = reserve_used - ? WHERE game = ? AND seat = ?",
                        (row["charged"], game.id, row["seat"]),
                    )
            await db.execute("UPDATE games SET seat_actions = ? WHERE id = ?", (json.dumps(counts), game.id))
            last, head = await self._chain_so_far(db, game)
            for seq in chain.undo_order(seqs):
                head = chain.undo_link(head, seq)
                await db.execute(
                    "UPDATE actions SET undone = 1, undone_after = ? WHERE game = ? AND seq = ?", (last, game.id, seq)
                )
            await db.execute("UPDATE games SET chain_head = ? WHERE id = ?", (head, game.id))
            await db.execute("DELETE FROM snapshots WHERE game = ? AND seq >= ?", (game.id, min(seqs)))
            await db.execute("DELETE FROM pending WHERE game = ?", (game.id,))
            if reminders is not None:
                await self._replace_reminders(db, game.id, reminders)
            if clocks is not None:
                await self._set_began(db, game.id, clocks)
            if correction is not None:
                await self._log_correction(db, game.id, *correction, {"undone": list(seqs)})
        return await self._reload(game)

    @staticmethod
    async def _chain_so_far(db: Connection, game: GameRow) -> tuple[int, str]:
        """The last action's number (0 before the first) and the chain's head, read in the write transaction."""
        rows = list(
            await db.execute_fetchall(
                "SELECT (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game = ?) AS last, chain_head, seed_hash "
                "FROM games WHERE id = ?",
                (game.id, game.id),
            )
        )
        return int(rows[0]["last"]), str(rows[0]["chain_head"] or rows[0]["seed_hash"])

    async def latest_snapshot(self, game_id: int, before: int | None = None) -> tuple[int, Any] | None:
        """The latest snapshot taken at a live action (its number and the state JSON), if any; with ``before``,
        the latest taken at an action numbered below it."""
        row = await self._one(
            "SELECT s.seq, s.state FROM snapshots AS s JOIN actions AS a ON a.game = s.game AND a.seq = s.seq "
            "WHERE s.game = ? AND a.undone = 0 AND s.seq < ? ORDER BY s.seq DESC LIMIT 1",
            (game_id, before if before is not None else 2**62),
        )
        if row is None:
            return None
        return int(row["seq"]), await asyncio.to_thread(unpack_snapshot, row["state"])

    # --- Corrections ----------------------------------------------------------------------------------

    async def _log_correction(
        self, db: Connection, game_id: int, moderator: int | None, kind: str, text: str, data: Any
    ) -> None:
        await db.execute(
            "INSERT INTO corrections (game, moderator, kind, text, data, time) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, moderator, kind, text, json.dumps(data), self.clock()),
        )

    async def corrections(self, game_id: int) -> list[CorrectionRow]:
        """Every moderator fix of a game, in order."""
        rows = await self._all("SELECT * FROM corrections WHERE game = ? ORDER BY id", (game_id,))
        return [
            CorrectionRow(r["id"], r["game"], r["moderator"], r["kind"], r["text"], json.loads(r["data"]), r["time"])
            for r in rows
        ]

    # --- Reminders ------------------------------------------------------------------------------------

    @staticmethod
    async def _set_began(db: Connection, game_id: int, clocks: Mapping[str, float | None]) -> None:
        await db.executemany(
            "UPDATE seats SET began = ? WHERE game = ? AND seat = ?", [(b, game_id, s) for s, b in clocks.items()]
        )

    async def _replace_reminders(self, db: Connection, game_id: int, due: Mapping[str, float]) -> None:
        await db.execute("DELETE FROM reminders WHERE game = ?", (game_id,))
        await db.executemany(
            "INSERT INTO reminders (game, seat, due) VALUES (?, ?, ?)", [(game_id, s, t) for s, t in due.items()]
        )

    async def reminders(self, game_id: int) -> dict[str, float]:
        """The reminders of a game: seat to due time."""
        rows = await self._all("SELECT seat, due FROM reminders WHERE game = ?", (game_id,))
        return {r["seat"]: float(r["due"]) for r in rows}

    async def due_reminders(self, now: float) -> list[tuple[int, str, float]]:
        """Reminders due by ``now``: (game, seat, due)."""
        rows = await self._all("SELECT game, seat, due FROM reminders WHERE due <= ? ORDER BY due", (now,))
        return [(int(r["game"]), str(r["seat"]), float(r["due"])) for r in rows]

    async def claim_due_reminders(self, now: float, lease: float) -> list[tuple[int, str, float]]:
        """Take the reminders due by ``now``: (game, seat, due). Each is moved to ``now + lease`` in the same
        transaction, so another process asking meanwhile gets none of them, and one whose taker died comes back
        after the lease; the taker moves it on to its next time (:meth:`snooze_reminder`)."""
        async with self.transaction() as db:
            rows = list(
                await db.execute_fetchall(
                    f"SELECT game, seat, due FROM reminders WHERE due <= ? ORDER BY due{self.skip_locked}", (now,)
                )
            )
            await db.executemany(
                "UPDATE reminders SET due = ? WHERE game = ? AND seat = ?",
                [(now + lease, r["game"], r["seat"]) for r in rows],
            )
        return [(int(r["game"]), str(r["seat"]), float(r["due"])) for r in rows]

    async def claim_once(self, key: str) -> bool:
        """Whether this call is the first to claim ``key`` (a timer's firing, a Discord interaction): exactly one
        claim of a key succeeds, across every process sharing the store."""
        now = self.clock()
        async with self.transaction() as db:
            await db.execute("DELETE FROM claims WHERE time < ?", (now - self.CLAIMS_KEPT,))
            rows = list(
                await db.execute_fetchall(
                    "INSERT INTO claims (key, time) VALUES (?, ?) ON CONFLICT (key) DO NOTHING RETURNING key",
                    (key, now),
                )
            )
        return bool(rows)

    async def snooze_reminder(self, game_id: int, seat: str, due: float) -> None:
        """Move one reminder to a later time (after it was sent)."""
        async with self.transaction() as db:
            await db.execute("UPDATE reminders SET due = ? WHERE game = ? AND seat = ?", (due, game_id, seat))

    # --- Sealed secrets -------------------------------------------------------------------------------

    async def secrets(self, game_id: int) -> list[SecretRow]:
        """The sealed decisions of a game."""
        rows = await self._all("SELECT * FROM secrets WHERE game = ? ORDER BY id", (game_id,))
        return [
            SecretRow(
                r["id"], r["game"], r["owner"], r["receipt"], r["payload"], bool(r["revealed"]), r["time"], r["seq"]
            )
            for r in rows
        ]

    # --- Pending confirmations ------------------------------------------------------------------------

    async def preference(self, user_id: int, key: str) -> str | None:
        """A user's preference, if set."""
        row = await self._one("SELECT value FROM preferences WHERE user_id = ? AND key = ?", (user_id, key))
        return str(row["value"]) if row else None

    async def set_preference(self, user_id: int, key: str, value: str) -> None:
        """Set a user's preference."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO preferences (user_id, key, value) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value",
                (user_id, key, value),
            )

    async def put_pending(self, row: PendingRow) -> None:
        """Keep an action awaiting its player's confirmation (it survives a restart)."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO pending (token, game, revision, seat, user_id, verb, args) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (token) DO UPDATE SET game = excluded.game, revision = excluded.revision, "
                "seat = excluded.seat, user_id = excluded.user_id, verb = excluded.verb, args = excluded.args",
                (row.token, row.game, row.revision, row.seat, row.user_id, row.verb, json.dumps(dict(row.args))),
            )

    async def pending(self, token: str) -> PendingRow | None:
        """An action awaiting confirmation, left in place (:meth:`record_action` removes the game's)."""
        row = await self._one("SELECT * FROM pending WHERE token = ?", (token,))
        if row is None:
            return None
        args = json.loads(row["args"])
        return PendingRow(row["token"], row["game"], row["revision"], row["seat"], row["user_id"], row["verb"], args)

    async def pop_pending(self, token: str) -> PendingRow | None:
        """Take an action awaiting confirmation (it can be confirmed or cancelled only once)."""
        async with self.transaction() as db:
            rows = list(await db.execute_fetchall("SELECT * FROM pending WHERE token = ?", (token,)))
            if not rows:
                return None
            await db.execute("DELETE FROM pending WHERE token = ?", (token,))
        r = rows[0]
        args = json.loads(r["args"])
        return PendingRow(r["token"], r["game"], r["revision"], r["seat"], r["user_id"], r["verb"], args)
