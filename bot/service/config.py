"""The bot's settings (environment variables and flags) and the game systems it offers.

Settings, each an environment variable that a command-line flag overrides:

``DISCORD_TOKEN``            the bot's token (``umpire run --token``); needed only by ``umpire run``.
``UMPIRE_DB``                where games are kept (``--db``): a SQLite file (default ``umpire.sqlite3`` in the
                             working directory), or a PostgreSQL server, ``postgresql://user:password@host/db``,
                             which several bot processes may share (docs/hosting.md, Scaling out).
``UMPIRE_SHARD_COUNT``       how many shards the bot's whole gateway connection is split into, across every
                             process (default: Discord's recommended count, all in this process).
``UMPIRE_SHARDS``            which of them this process runs: ids from 0, ``0-3`` or ``0,2,4`` (default: all);
                             needs ``UMPIRE_SHARD_COUNT``. The process running shard 0 gets the direct messages.
``UMPIRE_LOG_LEVEL``         how much the bot logs to standard error: ``DEBUG``, ``INFO`` (default), ``WARNING``,
                             ``ERROR``.
``UMPIRE_HEALTH_FILE``       a file the bot writes the time into every 30 s while connected to Discord, for a
                             supervisor's health check (``umpire health``); unset: none.
``UMPIRE_GUILD``             a server id to sync the slash commands to at once (``--guild``), for testing;
                             without it the commands are synced globally (Discord may take a while).
``UMPIRE_MODERATOR_ROLE``    the name of the role whose members may abandon, substitute and correct games
                             (default ``Umpire moderator``); members with Manage Server may too.
``UMPIRE_REMINDER_MINUTES``  how often correspondence reminders are checked (default 10).
``UMPIRE_STATE_CACHE_MB``    the memory the games' current states may take, in MB (default 32, about 450 mid-game
                             Entire Battle states); the least recently used is dropped first and rebuilt from the
                             store when needed.
``UMPIRE_STATE_CACHE``       at most this many games' states in memory besides (default 0: the memory alone bounds).
``UMPIRE_PICTURE_WORKERS``   how many worker processes draw the map pictures (default: one fewer than the machine's
                             processors, at least 1, at most 4); 0 draws them in a thread of the bot's process.
``UMPIRE_MAX_GAMES_PER_USER``    live games (open or being played) one user may have created at once (default 10).
``UMPIRE_MAX_GAMES_PER_SERVER``  live games one server may hold at once (default 200).
``UMPIRE_MAX_CREATIONS_PER_HOUR`` games one user may create in any hour (default 20).

A limit of 0 means no limit (for a private bot); ``umpire local`` has none.

The game systems live in :mod:`bot.systems`; :func:`systems` is kept here for the command line.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass

DEFAULT_DB = "umpire.sqlite3"


@dataclass(frozen=True)
class Limits:
    """What one user or one server may ask of a public bot; 0 means no limit."""

    games_per_user: int = 10
    """Live games (open or being played) one user may have created at once."""
    games_per_server: int = 200
    """Live games one server may hold at once."""
    creations_per_hour: int = 20
    """Games one user may create in any hour (abandoned and finished ones count too)."""


DEFAULT_MODERATOR_ROLE = "Umpire moderator"
DEFAULT_STATE_CACHE = 0
"""No bound on the count of games whose state stays in memory: :data:`DEFAULT_STATE_CACHE_MB` bounds them."""
DEFAULT_STATE_CACHE_MB = 32
"""The memory the cached states may take (:class:`bot.service.caches.StateCache`): a mid-game Entire Battle state
takes about 72 kB, so about 450 games."""


def default_picture_workers(processors: int | None = None) -> int:
    """Picture worker processes for a machine with ``processors`` (default: this one's): one fewer than its
    processors, the other being the bot's, at least 1 and at most 4 (docs/performance.md, "Pictures in worker
    processes")."""
    count = processors if processors is not None else (os.cpu_count() or 1)
    return max(1, min(4, count - 1))


@dataclass(frozen=True)
class Settings:
    """Everything ``umpire run`` needs to know."""

    token: str | None
    db: str = DEFAULT_DB
    guild: int | None = None
    moderator_role: str = DEFAULT_MODERATOR_ROLE
    reminder_minutes: float = 10.0
    limits: Limits = Limits()
    state_cache: int = DEFAULT_STATE_CACHE
    state_cache_mb: int = DEFAULT_STATE_CACHE_MB
    picture_workers: int = 0
    """Worker processes drawing the map pictures; 0 (what settings made in code get: the tests, the console)
    draws them in the bot's own process. :meth:`from_env` gives the machine's default
    (:func:`default_picture_workers`)."""
    shard_count: int | None = None
    """The shards of the whole bot, across its processes (``None``: Discord's recommended count)."""
    shards: tuple[int, ...] | None = None
    """The shards this process runs (``None``: every one)."""
    log_level: str = "INFO"
    health_file: str | None = None
    """Where the heartbeat is written while connected (``umpire health`` reads it)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from the environment, with flags (non-``None`` keyword arguments) taking precedence.

        :raises ValueError: for a server id, a reminder interval or a limit that is not a number.
        """
        env = os.environ if env is None else env
        guild = overrides.get("guild") or env.get("UMPIRE_GUILD") or None
        values: dict[str, Any] = {
            "token": overrides.get("token") or env.get("DISCORD_TOKEN") or None,
            "db": overrides.get("db") or env.get("UMPIRE_DB") or DEFAULT_DB,
            "guild": _server(guild),
            "moderator_role": env.get("UMPIRE_MODERATOR_ROLE") or DEFAULT_MODERATOR_ROLE,
            "reminder_minutes": float(env.get("UMPIRE_REMINDER_MINUTES") or 10),
            "limits": Limits(
                games_per_user=_count(env, "UMPIRE_MAX_GAMES_PER_USER", Limits.games_per_user),
                games_per_server=_count(env, "UMPIRE_MAX_GAMES_PER_SERVER", Limits.games_per_server),
                creations_per_hour=_count(env, "UMPIRE_MAX_CREATIONS_PER_HOUR", Limits.creations_per_hour),
            ),
            "state_cache": _count(env, "UMPIRE_STATE_CACHE", DEFAULT_STATE_CACHE),
            "state_cache_mb": max(1, _count(env, "UMPIRE_STATE_CACHE_MB", DEFAULT_STATE_CACHE_MB)),
            "picture_workers": _count(env, "UMPIRE_PICTURE_WORKERS", default_picture_workers()),
            "log_level": _log_level(env.get("UMPIRE_LOG_LEVEL") or "INFO"),
            "health_file": env.get("UMPIRE_HEALTH_FILE") or None,
        }
        values["shard_count"], values["shards"] = _shards(env.get("UMPIRE_SHARD_COUNT"), env.get("UMPIRE_SHARDS"))
        return cls(**values)


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def _log_level(text: str) -> str:
    level = text.strip().upper()
    if level not in LOG_LEVELS:
        raise ValueError(f"UMPIRE_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
    return level


def _shards(count_text: str | None, ids_text: str | None) -> tuple[int | None, tuple[int, ...] | None]:
    """The shard count and this process's shard ids (``UMPIRE_SHARD_COUNT``, ``UMPIRE_SHARDS``: ``0-3,6``)."""
    if not count_text:
        if ids_text:
            raise ValueError("UMPIRE_SHARDS needs UMPIRE_SHARD_COUNT (the shards of every process together)")
        return None, None
    if not count_text.strip().isdigit() or int(count_text) < 1:
        raise ValueError("UMPIRE_SHARD_COUNT must be a whole number, 1 or more")
    count = int(count_text)
    if not ids_text:
        return count, None
    ids: set[int] = set()
    for part in ids_text.replace(" ", "").split(","):
        low, _, high = part.partition("-")
        if not low.isdigit() or (high and not high.isdigit()):
            raise ValueError(f"UMPIRE_SHARDS: {part!r} is not a shard id or a range like 0-3")
        ids.update(range(int(low), int(high or low) + 1))
    if not ids or max(ids) >= count:
        raise ValueError(f"UMPIRE_SHARDS must name shards from 0 to {count - 1} (UMPIRE_SHARD_COUNT is {count})")
    return count, tuple(sorted(ids))


def shard_of(guild: int | None, count: int) -> int:
    """The shard Discord delivers a server's events to (its id's timestamp bits, modulo the shard count); direct
    messages, outside any server, go to shard 0."""
    return 0 if guild is None else (guild >> 22) % count


def _count(env: Mapping[str, str], name: str, default: int) -> int:
    text = env.get(name) or str(default)
    if not text.strip().isdigit():
        raise ValueError(f"{name} must be a whole number, 0 or more (0: no limit)")
    return int(text)


def _server(text: str | None) -> int | None:
    if not text:
        return None
    if not str(text).strip().isdigit():
        raise ValueError("the server id (--guild or UMPIRE_GUILD) must be a number")
    return int(text)
