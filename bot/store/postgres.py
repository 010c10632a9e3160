"""The server store, :class:`PostgresStore`: every game kept in PostgreSQL (asyncpg), shared by several bot
processes (``UMPIRE_DB=postgresql://...``).

It runs the embedded store's SQL (:class:`bot.store.sqlite.SqliteStore`, written in what both databases
understand) through :class:`PgConnection`, which numbers its ``?`` placeholders as PostgreSQL's ``$1, $2 ...``;
the schema is :data:`bot.store.pg_migrations.PG_MIGRATIONS`, numbered as SQLite's. What differs is what several
processes need:

- a connection pool instead of one writer: each transaction takes its own connection, and waits for a lock at
  most :data:`LOCK_WAIT_MS` (below Discord's three seconds), after which the write is refused with
  :class:`~bot.store.records.StoreBusyError` ("the board is busy") and nothing changed;
- every write of a game takes the game's transaction-scoped advisory lock first (:meth:`PostgresStore._lock_game`),
  then makes the revision check the embedded store makes: two processes acting on one game at once get one
  action each in turn, and the second is refused as stale rather than written on a state it did not see. The
  lock goes with the transaction (commit, rollback, or the process dying and its connection closing);
- a timer's claim reads its rows ``FOR UPDATE SKIP LOCKED``, so processes claiming at once take disjoint rows.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.store.pg_migrations import PG_MIGRATIONS
from bot.store.records import Clock, StoreBusyError, StoreError, StoreOpenError, wall_clock
from bot.store.sql import Connection, Row
from bot.store.sqlite import SqliteStore

LOCK_WAIT_MS = 2000
"""How long a write waits for a game's lock (or any row lock) held by another process before it is refused
(milliseconds): shorter than the three seconds Discord gives an interaction's first answer."""

GAME_LOCKS = 0x554D
"""The first key of every game's advisory lock (the second is the game's id), apart from other users' locks."""

SCHEMA_LOCK = 0x554E
"""The advisory lock key taken while the schema is brought up to date (two processes starting at once)."""

POOL_SIZE = 8
"""Connections each process keeps at most (four processes stay well under PostgreSQL's default of 100)."""

BUSY = (asyncpg.LockNotAvailableError, asyncpg.DeadlockDetectedError, asyncpg.SerializationError)
"""What PostgreSQL raises when a lock is not had in time: the write changed nothing and may be tried again."""

def shown(url: str) -> str:
    """A server's address as logs and messages show it: without its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))


@functools.lru_cache(maxsize=512)
def dollars(sql: str) -> str:
    """The statement with its ``?`` placeholders numbered as PostgreSQL's ``$1, $2 ...`` (the store's SQL holds
    no ``?`` inside a literal)."""
    count = iter(range(1, 10_000))
    return re.sub(r"\?", lambda _: f"${next(count)}", sql)


def rowcount(status: str) -> int:
    """The rows a statement changed, from PostgreSQL's command tag (``UPDATE 1``, ``INSERT 0 3``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


def _as_bytes(value: bytes | str) -> bytes:
    """A packed column's value as bytes: the store writes plain JSON as text where packing gained nothing."""
    return value.encode() if isinstance(value, str) else bytes(value)


async def _prepare(connection: asyncpg.Connection) -> None:
    """Each pooled connection reads and writes ``BYTEA`` as bytes, text given to it stored as its UTF-8."""
    await connection.set_type_codec("bytea", schema="pg_catalog", encoder=_as_bytes, decoder=bytes, format="binary")


@dataclass(frozen=True)
class PgResult:
    """What a statement run through :meth:`PgConnection.execute` says."""

    rowcount: int


class PgConnection:
    """One asyncpg connection (or the pool, for reads) behind the store's :class:`bot.store.sql.Connection`."""

    def __init__(self, connection: asyncpg.Connection | asyncpg.Pool | PoolConnectionProxy) -> None:
        self._connection = connection

    async def execute(self, sql: str, parameters: Iterable[Any] = (), /) -> PgResult:
        """Run one statement."""
        return PgResult(rowcount(await self._connection.execute(dollars(sql), *parameters)))

    async def execute_fetchall(self, sql: str, parameters: Iterable[Any] = (), /) -> list[Row]:
        """Run one statement and return its rows."""
        return list(await self._connection.fetch(dollars(sql), *parameters))

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]], /) -> None:
        """Run one statement once per set of parameters."""
        rows = [tuple(p) for p in parameters]
        if rows:
            await self._connection.executemany(dollars(sql), rows)

    async def close(self) -> None:
        """Close the pool (a pooled connection goes back to it with its transaction)."""
        if isinstance(self._connection, asyncpg.Pool):
            await self._connection.close()


class PostgresStore(SqliteStore):
    """Every game in PostgreSQL. Open it with :meth:`open` (``postgresql://user:password@host/database``)."""

    shared = True
    seat_order = "position"
    skip_locked = " FOR UPDATE SKIP LOCKED"
    integrity_errors = (asyncpg.IntegrityConstraintViolationError,)

    def __init__(self, pool: asyncpg.Pool, url: str, clock: Clock = wall_clock) -> None:
        reads = PgConnection(pool)
        super().__init__(reads, shown(url), reads, clock)
        self._pool = pool

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        check: bool = False,
        clock: Clock = wall_clock,
        writes: bool = True,
        every_page: bool = False,
    ) -> PostgresStore:
        """Connect to the server at ``path`` (a ``postgresql://`` URL) and bring its schema up to date;
        ``check`` also makes sure it takes writes (``writes``). ``every_page`` is SQLite's page check: the server
        keeps its own pages, so it changes nothing here.

        :raises StoreOpenError: with a sentence, when the server cannot be used; no connection is left open.
        """
        url = str(path)
        pool: asyncpg.Pool | None = None
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=POOL_SIZE, init=_prepare)
            store = cls(pool, url, clock)
            await store._migrate()
            if check and writes:
                await store._check_writable()
            return store
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, StoreError) as error:
            if pool is not None:
                with contextlib.suppress(OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                    await pool.close()
            raise StoreOpenError(f"cannot use the database {shown(url)}: {error}") from error

    async def close(self) -> None:
        """Close the pool (every acknowledged write is already committed on the server)."""
        await self._pool.close()

    async def _migrate(self) -> None:
        async with self._pool.acquire() as connection, connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock($1, 0)", SCHEMA_LOCK)
            await connection.execute("CREATE TABLE IF NOT EXISTS umpire_schema (version BIGINT NOT NULL)")
            version = await connection.fetchval("SELECT version FROM umpire_schema")
            if version is None:
                version = 0
                await connection.execute("INSERT INTO umpire_schema (version) VALUES (0)")
            for number, change in enumerate(PG_MIGRATIONS[version:], start=version + 1):
                await connection.execute(change)
                await connection.execute("UPDATE umpire_schema SET version = $1", number)

    async def schema_version(self) -> int:
        """The schema version of the server's tables."""
        return int(await self._pool.fetchval("SELECT version FROM umpire_schema"))

    async def _check_writable(self) -> None:
        async with self.transaction() as db:
            await db.execute("UPDATE umpire_schema SET version = version")  # refused by a read-only standby

    async def journal_mode(self) -> str:
        """The server keeps its own write-ahead log."""
        return "postgresql"

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """One transaction on a pooled connection, rolled back on any error.

        :raises StoreBusyError: when a lock is not had within :data:`LOCK_WAIT_MS` (nothing changed).
        """
        try:
            async with self._pool.acquire() as connection, connection.transaction():
                await connection.execute(f"SET LOCAL lock_timeout = '{LOCK_WAIT_MS}ms'")
                yield PgConnection(connection)
        except BUSY as error:
            raise StoreBusyError("the board is busy with another player's move; nothing changed, try again") from error

    async def restart_numbering(self, tables: Sequence[str]) -> None:
        """After rows were copied in with their ids, number the next row of each table after them."""
        async with self.transaction() as db:
            for table in tables:
                await db.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, false) "
                    f"FROM {table}"
                )

    async def _lock_game(self, db: Connection, game_id: int) -> None:
        """Take the game's advisory lock until the transaction ends (commit, rollback or a dead connection)."""
        await db.execute("SELECT pg_advisory_xact_lock(?, ?)", (GAME_LOCKS, game_id))
