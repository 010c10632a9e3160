"""What the store's SQL runs through, whichever database answers it.

The store's queries (:mod:`bot.store.sqlite`, :mod:`bot.store.packing`, the league tables) are written once, in
the SQL both backends understand (``?`` placeholders, ``RETURNING``, ``ON CONFLICT``, ``IS NOT DISTINCT FROM``),
and run through a :class:`Connection`: an aiosqlite connection for the embedded store, or
:class:`bot.store.postgres.PgConnection` over one asyncpg connection for the server store. A row is read by
column name (``row["id"]``) or position, whichever backend returned it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterable
from typing import Any, Protocol

Row = Any
"""A row as a backend returns it: :class:`sqlite3.Row` or :class:`asyncpg.Record`, both read by name or index."""


class Connection(Protocol):
    """The three calls the store's SQL makes inside a transaction."""

    def execute(self, sql: str, parameters: Iterable[Any] = ..., /) -> Awaitable[Any]:
        """Run one statement; the result has ``rowcount`` (rows changed)."""

    def execute_fetchall(self, sql: str, parameters: Iterable[Any] = ..., /) -> Awaitable[Iterable[Row]]:
        """Run one statement and return its rows."""

    def executemany(self, sql: str, parameters: Iterable[Iterable[Any]], /) -> Awaitable[Any]:
        """Run one statement once per set of parameters."""

    def close(self) -> Awaitable[None]:
        """Let the connection go."""
