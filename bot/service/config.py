"""The bot's settings (environment variables and flags) and the game systems it offers.

Settings, each an environment variable that a command-line flag overrides:

``DISCORD_TOKEN``            the bot's token (``umpire run --token``); needed only by ``umpire run``.
``UMPIRE_DB``                the SQLite file (``--db``); default ``umpire.sqlite3`` in the working directory.
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
        }
        return cls(**values)


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
