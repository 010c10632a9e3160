"""Which backend keeps the games: :func:`open_store` reads ``UMPIRE_DB`` (or ``--db``) and opens the embedded
store for a file path, the server store for a ``postgresql://`` address."""

from __future__ import annotations

from pathlib import Path

from bot.store.records import Clock, wall_clock
from bot.store.sqlite import SqliteStore

SERVER_SCHEMES = ("postgresql://", "postgres://")
"""How ``UMPIRE_DB`` names a server store (anything else is a SQLite file)."""


def is_server(target: str | Path) -> bool:
    """Whether ``target`` names a PostgreSQL server rather than a SQLite file."""
    return str(target).startswith(SERVER_SCHEMES)


async def open_store(
    target: str | Path,
    *,
    check: bool = False,
    clock: Clock = wall_clock,
    writes: bool = True,
    every_page: bool = False,
) -> SqliteStore:
    """The store ``target`` names, opened (and its schema brought up to date): a
    :class:`bot.store.postgres.PostgresStore` for a ``postgresql://`` address, else a SQLite file
    (:meth:`bot.store.sqlite.SqliteStore.open`, which says what ``check``, ``writes`` and ``every_page`` do; a
    server keeps its own pages, so ``every_page`` means nothing there).

    :raises bot.store.records.StoreOpenError: with a sentence, when it cannot be used.
    """
    if is_server(target):
        from bot.store.postgres import PostgresStore

        return await PostgresStore.open(target, check=check, clock=clock, writes=writes, every_page=every_page)
    return await SqliteStore.open(target, check=check, clock=clock, writes=writes, every_page=every_page)
