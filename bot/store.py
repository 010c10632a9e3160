"""The game store: every game's setup and every accepted action, in SQLite (aiosqlite, WAL mode).

Event-sourced (DESIGN.md): a game is its setup (system, scenario, options, secret seed) plus the list of
accepted actions; a game's state is rebuilt by replaying them, and snapshots (state JSON, zlib-compressed, every
:data:`SNAPSHOT_EVERY` actions, the latest :data:`SNAPSHOTS_KEPT` kept) only speed that up: a cold load reads
the latest snapshot and the actions after it. The game row counts each seat's live actions, so nothing on an
action's path reads or counts the whole log. Each action's events are stored zlib-compressed, after the game's
first :data:`DICTIONARY_AFTER` actions with a dictionary made of those actions' events (kept on the game row):
When a game ends, its log is archived (:meth:`Store.archive`): every action's arguments and events are packed
again with a dictionary sampled from the whole game. The two hashes of each action are stored as 32-byte
blobs and the log is a ``WITHOUT ROWID`` table (no second index of its key): a finished game's rows stay
under 300 kB (docs/performance.md). Each accepted action is written in ONE transaction with
everything it changes (the game's revision, status and result, the snapshot, the reminders), so a crash loses
at most the action in flight, never half of one.

The schema carries a version in ``PRAGMA user_version``; :data:`MIGRATIONS` brings any older file up to date
when the store opens it.

Writes go through one connection, one transaction at a time; reads of a file go through a second connection,
so that a write waiting for a lock (another program holding the file) never holds up the other games' reads.
A write that cannot get the lock within :data:`WRITE_WAIT_MS` is refused (:class:`StoreBusyError`), nothing
changed. Each action also carries the hash chain of :mod:`bot.chain`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

from bot import chain

SNAPSHOT_EVERY = 25
"""A state snapshot is stored with every 25th action."""

SNAPSHOTS_KEPT = 2
"""Snapshots kept per game: the latest two, so that undoing a few actions past the latest leaves one to load."""

SNAPSHOT_ZLIB_LEVEL = 6
"""zlib level of the stored snapshots and events (docs/performance.md: level 6 against 1 and 9, size and time)."""

DICTIONARY_AFTER = 50
"""After this many actions, the events of the latest ones become the game's compression dictionary."""

DICTIONARY_BYTES = 16_000
"""The dictionary's size: the last 16 kB of those events' JSON (a finished game's log compresses 4 times)."""

ARCHIVE_SAMPLES = 200
"""The archive dictionary samples about this many actions spread over the whole game (a game's late actions
differ from its first ones, which make the live dictionary)."""

ARCHIVE_DICTIONARY_BYTES = 32_000
"""The archive dictionary's size: at most zlib's window (32 kB)."""

ARCHIVED = 0x01
"""The first byte of a value packed by the archive (raw deflate, the game's archive dictionary). A zlib stream
starts with 0x78, and plain JSON is stored as text, so the three forms never mix up."""

LIVE_STATUSES = ("open", "active")
"""A game is live while its seats are being filled (open) or it is being played (active)."""

WRITE_WAIT_MS = 1000
"""How long a write waits for a lock held by another program before it is refused (milliseconds)."""

READ_WAIT_MS = 1000
"""How long a read waits (only a checkpoint or a rollback by another program makes a WAL reader wait)."""

Migration = str | Callable[[aiosqlite.Connection], Awaitable[None]]
"""A schema change: a SQL script, or a function run in the migration's transaction (to compute values)."""


async def _chain_the_logs(db: aiosqlite.Connection) -> None:
    """Version 2: every action carries the hash of its events and the chain hash; each game keeps its head;
    a sealed decision names the action that carries it. The logs of older games are chained as they stand."""
    for statement in (
        "ALTER TABLE actions ADD COLUMN events_hash TEXT",
        "ALTER TABLE actions ADD COLUMN chain TEXT",
        "ALTER TABLE actions ADD COLUMN undone_after INTEGER",
        "ALTER TABLE games ADD COLUMN chain_head TEXT",
        "ALTER TABLE secrets ADD COLUMN seq INTEGER",
    ):
        await db.execute(statement)
    games = list(await db.execute_fetchall("SELECT id, seed_hash FROM games"))
    for game_id, seed_hash in games:
        previous = str(seed_hash)
        rows = list(
            await db.execute_fetchall(
                "SELECT seq, seat, user_id, verb, args, events, undone FROM actions WHERE game = ? ORDER BY seq",
                (game_id,),
            )
        )
        for seq, seat, user_id, verb, args, events, _ in rows:
            own = chain.events_hash(json.loads(events))
            previous = chain.link(previous, seq, seat, user_id, verb, json.loads(args), own)
            await db.execute(
                "UPDATE actions SET events_hash = ?, chain = ? WHERE game = ? AND seq = ?",
                (own, previous, game_id, seq),
            )
        undone = [row[0] for row in rows if row[6]]  # when they were undone is not known: chained at the end
        for seq in chain.undo_order(undone):
            previous = chain.undo_link(previous, seq)
            await db.execute(
                "UPDATE actions SET undone_after = ? WHERE game = ? AND seq = ?", (rows[-1][0], game_id, seq)
            )
        await db.execute("UPDATE games SET chain_head = ? WHERE id = ?", (previous, game_id))


def _hash_blob(stored: Any) -> Any:
    """A chain hash as stored since version 4: 32 bytes for its 64 hex digits; anything else (a row edited by
    hand) is kept as it is, so that verification still reports it."""
    if isinstance(stored, str) and len(stored) == 64:
        with contextlib.suppress(ValueError):
            return bytes.fromhex(stored)
    return stored


def _hash_text(stored: Any) -> str | None:
    """A stored chain hash as the hex text players see (a value edited by hand, as it is)."""
    return stored.hex() if isinstance(stored, bytes) else stored


async def _binary_hashes_without_rowid(db: aiosqlite.Connection) -> None:
    """Version 4: the log becomes a ``WITHOUT ROWID`` table whose two hashes are 32-byte blobs (hex text took
    twice the room, and the rowid table a second index of its key); the logs of games already over are
    archived (:meth:`Store.archive`)."""
    await db.create_function("umpire_hash_blob", 1, _hash_blob, deterministic=True)
    for statement in (
        "ALTER TABLE games ADD COLUMN archive_dictionary BLOB",
        """CREATE TABLE actions_v4 (
            game INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            seat TEXT NOT NULL,
            user_id INTEGER,
            verb TEXT NOT NULL,
            args TEXT NOT NULL,
            events TEXT NOT NULL,
            time REAL NOT NULL,
            undone INTEGER NOT NULL DEFAULT 0,
            events_hash BLOB,
            chain BLOB,
            undone_after INTEGER,
            PRIMARY KEY (game, seq)
        ) WITHOUT ROWID""",
        "INSERT INTO actions_v4 SELECT game, seq, seat, user_id, verb, args, events, time, undone, "
        "umpire_hash_blob(events_hash), umpire_hash_blob(chain), undone_after FROM actions",
        "DROP TABLE actions",
        "ALTER TABLE actions_v4 RENAME TO actions",
    ):
        await db.execute(statement)
    over = await db.execute_fetchall("SELECT id FROM games WHERE status NOT IN ('open', 'active')")
    for (game_id,) in list(over):
        archive = await _log_to_archive(db, int(game_id))
        if archive is not None:
            await _write_archive(db, archive)


@dataclass(frozen=True)
class _Archive:
    """What archiving a game's log writes (:func:`_archived`)."""

    game: int
    before: bytes | None
    """The game's archive dictionary when its rows were read (compressed; ``None`` before its first end)."""
    made: bytes | None
    """The dictionary made from these rows (compressed), when the game had none."""
    rows: list[tuple[Any, ...]]
    """Each row packed again: (arguments, events, number, arguments and events as they were read)."""


async def _log_to_archive(db: aiosqlite.Connection, game_id: int) -> _Archive | None:
    """Read a game's log through ``db`` and pack it again, in a worker thread (:func:`_archived`)."""
    found = list(
        await db.execute_fetchall("SELECT log_dictionary, archive_dictionary FROM games WHERE id = ?", (game_id,))
    )
    rows = list(
        await db.execute_fetchall("SELECT seq, args, events FROM actions WHERE game = ? ORDER BY seq", (game_id,))
    )
    if not found or not rows:
        return None
    log, packed = found[0][0], found[0][1]
    return await asyncio.to_thread(_archived, game_id, [tuple(r) for r in rows], log, packed)


async def _write_archive(db: aiosqlite.Connection, archive: _Archive) -> None:
    """Write an archive in the write transaction ``db``: only rows still as they were read, and nothing if the
    game's archive dictionary changed meanwhile (another archive of it came first)."""
    found = list(await db.execute_fetchall("SELECT archive_dictionary FROM games WHERE id = ?", (archive.game,)))
    if not found or found[0][0] != archive.before:
        return
    if archive.made is not None:
        await db.execute("UPDATE games SET archive_dictionary = ? WHERE id = ?", (archive.made, archive.game))
    await db.executemany(
        "UPDATE actions SET args = ?, events = ? WHERE game = ? AND seq = ? AND args IS ? AND events IS ?",
        [(args, events, archive.game, seq, *read) for args, events, seq, *read in archive.rows],
    )


def _archived(game_id: int, rows: Sequence[tuple[Any, ...]], log: bytes | None, packed: bytes | None) -> _Archive:
    """A game's log (number, arguments, events as stored) packed again with the game's archive dictionary,
    made from a sample of the whole log when the game has none. The dictionary is made once, at the game's
    first end, and never changed (a reader may hold it), so a game reopened by a correction and ended again
    archives only its newer rows. A row that does not decode (edited by hand) is left as it is, for
    verification to report."""
    archive = zlib.decompress(packed) if packed is not None else None
    plain: list[tuple[int, Any, Any, bytes, bytes]] = []
    for seq, args, events in rows:
        if isinstance(events, bytes) and events[:1] == bytes([ARCHIVED]) and archive is not None:
            continue
        try:
            texts = [_compact(unpack_events(value, log, archive)) for value in (args, events)]
        except ValueError:
            continue
        plain.append((int(seq), args, events, texts[0], texts[1]))
    made = None
    if archive is None:
        step = max(1, len(plain) // ARCHIVE_SAMPLES)
        archive = b"".join(a + e for *_, a, e in plain[::step])[-ARCHIVE_DICTIONARY_BYTES:]
        made = zlib.compress(archive, 9)
    packs = [
        (_archive_pack(a, archive), _archive_pack(e, archive), seq, args, events) for seq, args, events, a, e in plain
    ]
    return _Archive(game_id, packed, made, packs)


def _compact(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def _archive_pack(text: bytes, archive: bytes) -> bytes | str:
    """A JSON value as the archive stores it: packed, or plain text when packing would not make it shorter."""
    packer = zlib.compressobj(SNAPSHOT_ZLIB_LEVEL, zlib.DEFLATED, -15, zdict=archive)
    packed = bytes([ARCHIVED]) + packer.compress(text) + packer.flush()
    return packed if len(packed) < len(text) else text.decode()


MIGRATIONS: tuple[Migration, ...] = (
    # Version 1: the whole schema.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild INTEGER,
        channel INTEGER NOT NULL,
        system TEXT NOT NULL,
        scenario TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seed TEXT NOT NULL,
        seed_hash TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'open',
        time_control TEXT NOT NULL DEFAULT '{}',
        revision INTEGER NOT NULL DEFAULT 0,
        result TEXT,
        creator INTEGER,
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_live_game_per_channel ON games(channel) WHERE status IN ('open', 'active');
    CREATE TABLE seats (
        game INTEGER NOT NULL REFERENCES games(id),
        seat TEXT NOT NULL,
        user_id INTEGER,
        vacation_until REAL,
        vacation_request REAL,
        reserve_used REAL NOT NULL DEFAULT 0,
        PRIMARY KEY (game, seat)
    );
    CREATE TABLE actions (
        game INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        seat TEXT NOT NULL,
        user_id INTEGER,
        verb TEXT NOT NULL,
        args TEXT NOT NULL,
        events TEXT NOT NULL,
        time REAL NOT NULL,
        undone INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game, seq)
    );
    CREATE TABLE snapshots (
        game INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        state TEXT NOT NULL,
        PRIMARY KEY (game, seq)
    );
    CREATE TABLE corrections (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game INTEGER NOT NULL REFERENCES games(id),
        moderator INTEGER,
        kind TEXT NOT NULL,
        text TEXT NOT NULL,
        data TEXT NOT NULL DEFAULT '{}',
        time REAL NOT NULL
    );
    CREATE TABLE reminders (
        game INTEGER NOT NULL REFERENCES games(id),
        seat TEXT NOT NULL,
        due REAL NOT NULL,
        PRIMARY KEY (game, seat)
    );
    CREATE TABLE secrets (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game INTEGER NOT NULL REFERENCES games(id),
        owner TEXT NOT NULL,
        receipt TEXT NOT NULL,
        payload TEXT NOT NULL,
        revealed INTEGER NOT NULL DEFAULT 0,
        time REAL NOT NULL
    );
    CREATE TABLE pending (
        token TEXT PRIMARY KEY,
        game INTEGER NOT NULL REFERENCES games(id),
        revision INTEGER NOT NULL,
        seat TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        verb TEXT NOT NULL,
        args TEXT NOT NULL
    );
    """,
    # Version 2: the hash chain of the action log (bot/chain.py).
    _chain_the_logs,
    # Version 3: each seat's count of live actions on the game row (the buttons' freshness and the snapshot
    # cadence without reading the log), filled from the log; snapshots thinned to the latest two per game.
    """
    ALTER TABLE games ADD COLUMN seat_actions TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE games ADD COLUMN log_dictionary BLOB;
    UPDATE games SET seat_actions = COALESCE(
        (SELECT json_group_object(seat, n) FROM
            (SELECT game, seat, COUNT(*) AS n FROM actions WHERE undone = 0 GROUP BY game, seat) AS counted
         WHERE counted.game = games.id),
        '{}');
    DELETE FROM snapshots WHERE seq < (
        SELECT newer.seq FROM snapshots AS newer WHERE newer.game = snapshots.game
        ORDER BY newer.seq DESC LIMIT 1 OFFSET 1
    );
    """,
    # Version 4: the chain's hashes as 32-byte blobs in a log without rowid; finished games' logs archived.
    _binary_hashes_without_rowid,
    # Version 5: each user's preferences (turn-start reports on or off).
    """
    CREATE TABLE preferences (
        user_id INTEGER NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (user_id, key)
    );
    """,
    # Version 6: leagues (bot/leagues/store.py): seasons, players, rounds, pairings with their results, a log.
    """
    CREATE TABLE leagues (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild INTEGER,
        channel INTEGER NOT NULL,
        name TEXT NOT NULL,
        system TEXT NOT NULL,
        scenario TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        format TEXT NOT NULL,
        rounds INTEGER NOT NULL,
        days_per_move REAL NOT NULL DEFAULT 0,
        reserve_days REAL NOT NULL DEFAULT 0,
        round_days REAL NOT NULL DEFAULT 0,
        level_scores TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL DEFAULT 'registration',
        organiser INTEGER,
        created REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_league_name_per_server ON leagues(guild, name);
    CREATE UNIQUE INDEX one_running_league_per_channel ON leagues(channel) WHERE status != 'finished';
    CREATE TABLE league_players (
        league INTEGER NOT NULL REFERENCES leagues(id),
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        side INTEGER,
        joined REAL NOT NULL,
        withdrawn INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (league, user_id)
    );
    CREATE TABLE league_rounds (
        league INTEGER NOT NULL REFERENCES leagues(id),
        number INTEGER NOT NULL,
        system TEXT NOT NULL,
        scenario TEXT NOT NULL,
        started REAL NOT NULL,
        deadline REAL,
        PRIMARY KEY (league, number)
    );
    CREATE TABLE league_games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        league INTEGER NOT NULL REFERENCES leagues(id),
        round INTEGER NOT NULL,
        first INTEGER NOT NULL,
        second INTEGER,
        game INTEGER REFERENCES games(id),
        thread INTEGER,
        deadline REAL,
        first_score REAL,
        second_score REAL,
        how TEXT,
        ended REAL,
        late_told INTEGER NOT NULL DEFAULT 0
    );
    CREATE UNIQUE INDEX one_pairing_per_game ON league_games(game) WHERE game IS NOT NULL;
    CREATE TABLE league_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        league INTEGER NOT NULL REFERENCES leagues(id),
        moderator INTEGER,
        kind TEXT NOT NULL,
        text TEXT NOT NULL,
        time REAL NOT NULL
    )
    """,
)
"""The schema, one change per version; version ``n`` is ``MIGRATIONS[n - 1]``."""


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
    """The chain hash of the last action (:mod:`bot.chain`); the seed hash before the first."""
    seat_actions: dict[str, int] = field(default_factory=dict)
    """How many live (not undone) actions each seat has made."""

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
    vacation_request: float | None
    reserve_used: float


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
    """The hash of the events as stored (:mod:`bot.chain`)."""
    chain: str | None = None
    """The chain hash of this action as stored (:mod:`bot.chain`)."""
    undone_after: int | None = None
    """The last action's number when this one was taken back (:mod:`bot.chain`)."""


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
    """What :meth:`Store.record_action` writes for one accepted action."""

    seat: str
    user_id: int | None
    verb: str
    args: Mapping[str, Any]
    events: Sequence[Mapping[str, Any]]


@dataclass(frozen=True)
class NewSecret:
    """A sealed decision written with the action that carries it: its receipt hash and the payload."""

    owner: str
    receipt: str
    payload: str


def _busy(error: sqlite3.OperationalError) -> Exception:
    if "locked" in str(error) or "busy" in str(error):
        return StoreBusyError("another program holds a lock on the database; nothing changed, try again shortly")
    return error


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


def _game(row: aiosqlite.Row) -> GameRow:
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
    )


def _seat(row: aiosqlite.Row) -> SeatRow:
    return SeatRow(
        row["game"],
        row["seat"],
        row["user_id"],
        row["vacation_until"],
        row["vacation_request"],
        row["reserve_used"],
    )


def pack_snapshot(state_json: Any) -> bytes:
    """A state snapshot as stored: compact JSON, zlib-compressed."""
    return zlib.compress(json.dumps(state_json, separators=(",", ":")).encode(), SNAPSHOT_ZLIB_LEVEL)


def unpack_snapshot(stored: bytes | str) -> Any:
    """The state JSON of a stored snapshot (plain JSON text from before version 3, or compressed)."""
    return json.loads(zlib.decompress(stored) if isinstance(stored, bytes) else stored)


def snapshot_due(game: GameRow) -> bool:
    """Whether the game's next action is stored with a snapshot (every :data:`SNAPSHOT_EVERY` live actions)."""
    return (sum(game.seat_actions.values()) + 1) % SNAPSHOT_EVERY == 0


def pack_events(events: Sequence[Mapping[str, Any]], dictionary: bytes | None) -> bytes:
    """An action's events as stored: compact JSON, zlib-compressed (with the game's dictionary, if it has one)."""
    text = json.dumps([dict(e) for e in events], separators=(",", ":")).encode()
    packer = zlib.compressobj(SNAPSHOT_ZLIB_LEVEL, zdict=dictionary) if dictionary else zlib.compressobj(6)
    return packer.compress(text) + packer.flush()


def unpack_events(stored: bytes | str, dictionary: bytes | None, archive: bytes | None = None) -> Any:
    """An action's events (or, once archived, its arguments) from the store: plain JSON text (before version 3,
    or where packing gained nothing), compressed (with the game's dictionary, if flagged), or archived (packed
    with the game's archive dictionary)."""
    if isinstance(stored, str):
        return json.loads(stored)
    if stored[:1] == bytes([ARCHIVED]):
        unpacker = zlib.decompressobj(-15, zdict=archive) if archive else zlib.decompressobj(-15)
        try:
            return json.loads(unpacker.decompress(stored[1:]) + unpacker.flush())
        except zlib.error as error:
            raise ValueError(f"archived values that do not decompress ({error})") from None
    with_dictionary = len(stored) > 1 and stored[1] & 0x20  # zlib's FDICT flag (RFC 1950)
    unpacker = zlib.decompressobj(zdict=dictionary) if with_dictionary and dictionary else zlib.decompressobj()
    try:
        return json.loads(unpacker.decompress(stored) + unpacker.flush())
    except zlib.error as error:  # bytes written by hand: unreadable, like text that is not JSON
        raise ValueError(f"compressed events that do not decompress ({error})") from None


def _action(row: aiosqlite.Row, dictionary: bytes | None = None, archive: bytes | None = None) -> ActionRow:
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
    )


class Store:
    """The SQLite store of every game. Open it with :meth:`open`; close it with :meth:`close`."""

    def __init__(self, db: aiosqlite.Connection, path: str, reader: aiosqlite.Connection | None = None) -> None:
        self._db = db
        self._reader = reader or db
        self.path = path
        self._write_lock = asyncio.Lock()
        self._dictionaries: dict[int, bytes] = {}
        """Games' compression dictionaries (set once, never changed), as read."""
        self._archives: dict[int, bytes] = {}
        """Games' archive dictionaries (set once, never changed), as read and decompressed."""

    # --- Opening --------------------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | Path, *, check: bool = False) -> Store:
        """Open (creating or migrating) the store at ``path``; ``":memory:"`` for a throw-away store.

        ``check`` also runs SQLite's quick check of every page and makes sure the file takes writes (the bot
        does at start-up, so that it refuses a damaged or read-only file before accepting any command).

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
            store = cls(db, str(path), reader)
            if check:
                await store._check_integrity()
            await store._migrate()
            if check:
                await store._check_writable()
            return store
        except (sqlite3.Error, OSError, StoreError) as error:
            for connection in opened:
                with contextlib.suppress(sqlite3.Error, OSError):  # the thread is stopped all the same
                    await connection.close()
            raise StoreOpenError(_open_failure(str(path), error)) from error

    async def _check_integrity(self) -> None:
        rows = list(await self._db.execute_fetchall("PRAGMA quick_check"))
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
                    await change(self._db)
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
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
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

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def query(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        """Rows of a read-only query, for the rooms that keep their own tables here (leagues)."""
        return await self._all(sql, params)

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
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
    ) -> GameRow:
        """Create an open game with empty seats.

        :raises ChannelBusyError: if the channel already holds a live game.
        """
        now = time.time()
        try:
            async with self.transaction() as db:
                cursor = await db.execute(
                    "INSERT INTO games (guild, channel, system, scenario, options, seed, seed_hash, time_control, "
                    "creator, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                    ),
                )
                game_id = cursor.lastrowid
                await db.executemany(
                    "INSERT INTO seats (game, seat) VALUES (?, ?)", [(game_id, seat) for seat in seats]
                )
        except aiosqlite.IntegrityError as error:
            raise ChannelBusyError("this channel already holds a game") from error
        game = await self.game(int(game_id or 0))
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
        db: aiosqlite.Connection,
        game: GameRow,
        status: str | None = None,
        result: Mapping[str, Any] | None = None,
    ) -> None:
        cursor = await db.execute(
            "UPDATE games SET revision = revision + 1, updated = ?, status = ?, result = ? "
            "WHERE id = ? AND revision = ?",
            (
                time.time(),
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
        rows = await self._all("SELECT * FROM seats WHERE game = ? ORDER BY rowid", (game_id,))
        return {r["seat"]: _seat(r) for r in rows}

    async def set_seat(
        self, game: GameRow, seat: str, user_id: int | None, correction: tuple[int | None, str, str] | None = None
    ) -> GameRow:
        """Seat a user (or empty the seat), bumping the revision; optionally log a moderator's correction."""
        async with self.transaction() as db:
            await self._bump(db, game)
            await db.execute(
                "UPDATE seats SET user_id = ?, vacation_until = NULL, vacation_request = NULL "
                "WHERE game = ? AND seat = ?",
                (user_id, game.id, seat),
            )
            if correction is not None:
                await self._log_correction(db, game.id, *correction, {"seat": seat, "user": user_id})
        return await self._reload(game)

    async def set_vacation(
        self, game_id: int, seat: str, *, request: float | None = None, until: float | None = None
    ) -> None:
        """Record a vacation request (days asked, in seconds) or a granted vacation (end time)."""
        async with self.transaction() as db:
            await db.execute(
                "UPDATE seats SET vacation_request = ?, vacation_until = ? WHERE game = ? AND seat = ?",
                (request, until, game_id, seat),
            )

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

    async def archive(self, game_id: int) -> None:
        """Archive a game's log once it is over: its arguments and events packed again with a dictionary sampled
        from the whole game (:func:`_archived`), for about a third less room.

        The packing runs in a worker thread outside the write lock (about 0.3 s for a whole Ardennes game), then
        a short transaction writes the rows still as they were read. Rows read the same in either form, so an
        archive left undone (the file busy) loses nothing but room.
        """
        try:
            archive = await _log_to_archive(self._reader, game_id)
        except sqlite3.OperationalError as error:
            if isinstance(_busy(error), StoreBusyError):
                return
            raise
        if archive is None:
            return
        with contextlib.suppress(StoreBusyError):
            async with self.transaction() as db:
                await _write_archive(db, archive)

    async def _archive(self, game_id: int) -> bytes | None:
        """The game's archive dictionary, once its log was archived (:meth:`Store.archive`)."""
        if game_id not in self._archives:
            row = await self._one("SELECT archive_dictionary FROM games WHERE id = ?", (game_id,))
            if row is None or row["archive_dictionary"] is None:
                return None
            if len(self._archives) >= 64:
                self._archives.pop(next(iter(self._archives)))
            self._archives[game_id] = zlib.decompress(row["archive_dictionary"])
        return self._archives[game_id]

    async def _new_dictionary(self, db: aiosqlite.Connection, game_id: int) -> bytes:
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
        secret: NewSecret | None = None,
        reveal: bool = False,
    ) -> tuple[GameRow, ActionRow]:
        """Write one accepted action and everything it changes in ONE transaction.

        ``state_json`` is stored as a snapshot when the game's count of live actions reaches a multiple of
        :data:`SNAPSHOT_EVERY` (:func:`snapshot_due`: the caller may skip building it otherwise);
        ``reminders`` replaces the game's reminders (seat to due time). ``secret`` is the sealed decision the
        action carries; ``reveal`` marks every sealed decision of the game revealed. The action is chained to
        the one before it (:mod:`bot.chain`).

        :raises RevisionError: if the game changed since ``game`` was read (nothing is written).
        """
        now = time.time()
        snapshot = None
        if state_json is not None and snapshot_due(game):
            snapshot = await asyncio.to_thread(pack_snapshot, state_json)
        counts = dict(game.seat_actions)
        counts[action.seat] = counts.get(action.seat, 0) + 1
        own_hash = chain.events_hash(action.events)
        async with self.transaction() as db:
            await self._bump(db, game, status=status, result=result)
            await db.execute("UPDATE games SET seat_actions = ? WHERE id = ?", (json.dumps(counts), game.id))
            seq, previous = await self._chain_so_far(db, game)
            seq += 1
            link = chain.link(previous, seq, action.seat, action.user_id, action.verb, action.args, own_hash)
            dictionary = await self._dictionary(game.id)
            made = None
            if dictionary is None and seq > DICTIONARY_AFTER:
                dictionary = made = await self._new_dictionary(db, game.id)
            await db.execute(
                "INSERT INTO actions (game, seq, seat, user_id, verb, args, events, time, events_hash, chain) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                ),
            )
            await db.execute("UPDATE games SET chain_head = ? WHERE id = ?", (link, game.id))
            if secret is not None:
                await db.execute(
                    "INSERT INTO secrets (game, owner, receipt, payload, time, seq) VALUES (?, ?, ?, ?, ?, ?)",
                    (game.id, secret.owner, secret.receipt, secret.payload, now, seq),
                )
            if reveal:
                await db.execute("UPDATE secrets SET revealed = 1 WHERE game = ?", (game.id,))
            if snapshot is not None:
                await db.execute(
                    "INSERT OR REPLACE INTO snapshots (game, seq, state) VALUES (?, ?, ?)", (game.id, seq, snapshot)
                )
                await db.execute(
                    "DELETE FROM snapshots WHERE game = ? AND seq < (SELECT seq FROM snapshots WHERE game = ? "
                    "ORDER BY seq DESC LIMIT 1 OFFSET ?)",
                    (game.id, game.id, SNAPSHOTS_KEPT - 1),
                )
            if reminders is not None:
                await self._replace_reminders(db, game.id, reminders)
            if reserve_used is not None:
                await db.execute(
                    "UPDATE seats SET reserve_used = reserve_used + ? WHERE game = ? AND seat = ?",
                    (reserve_used[1], game.id, reserve_used[0]),
                )
            await db.execute("DELETE FROM pending WHERE game = ?", (game.id,))
        if made is not None:
            self._dictionaries[game.id] = made
        if status is not None and status not in LIVE_STATUSES:
            await self.archive(game.id)
        stored = ActionRow(
            game.id, seq, action.seat, action.user_id, action.verb, dict(action.args),
            [dict(e) for e in action.events], now, False, own_hash, link,
        )  # fmt: skip
        return await self._reload(game), stored

    async def undo_actions(
        self,
        game: GameRow,
        seqs: Sequence[int],
        *,
        reminders: Mapping[str, float] | None = None,
        correction: tuple[int | None, str, str] | None = None,
    ) -> GameRow:
        """Mark actions undone (kept in the log, no longer replayed) and drop the snapshots they fed."""
        if not seqs:
            return game
        async with self.transaction() as db:
            await self._bump(db, game)
            marks = ", ".join("?" for _ in seqs)
            undone = await db.execute_fetchall(
                f"SELECT seat FROM actions WHERE game = ? AND undone = 0 AND seq IN ({marks})", (game.id, *seqs)
            )
            counts = dict(game.seat_actions)
            for row in undone:
                counts[row["seat"]] = counts.get(row["seat"], 0) - 1
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
            if correction is not None:
                await self._log_correction(db, game.id, *correction, {"undone": list(seqs)})
        return await self._reload(game)

    @staticmethod
    async def _chain_so_far(db: aiosqlite.Connection, game: GameRow) -> tuple[int, str]:
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
        self, db: aiosqlite.Connection, game_id: int, moderator: int | None, kind: str, text: str, data: Any
    ) -> None:
        await db.execute(
            "INSERT INTO corrections (game, moderator, kind, text, data, time) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, moderator, kind, text, json.dumps(data), time.time()),
        )

    async def corrections(self, game_id: int) -> list[CorrectionRow]:
        """Every moderator fix of a game, in order."""
        rows = await self._all("SELECT * FROM corrections WHERE game = ? ORDER BY id", (game_id,))
        return [
            CorrectionRow(r["id"], r["game"], r["moderator"], r["kind"], r["text"], json.loads(r["data"]), r["time"])
            for r in rows
        ]

    # --- Reminders ------------------------------------------------------------------------------------

    async def _replace_reminders(self, db: aiosqlite.Connection, game_id: int, due: Mapping[str, float]) -> None:
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

    async def reveal_secrets(self, game_id: int) -> None:
        """Mark every sealed decision of a game revealed."""
        async with self.transaction() as db:
            await db.execute("UPDATE secrets SET revealed = 1 WHERE game = ?", (game_id,))

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
                "INSERT OR REPLACE INTO pending (token, game, revision, seat, user_id, verb, args) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
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
