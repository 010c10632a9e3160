"""The bot's settings (environment variables and flags) and the game systems it offers.

Settings, each an environment variable that a command-line flag overrides:

``DISCORD_TOKEN``            the bot's token (``umpire run --token``); needed only by ``umpire run``.
``UMPIRE_DB``                the SQLite file (``--db``); default ``umpire.sqlite3`` in the working directory.
``UMPIRE_GUILD``             a server id to sync the slash commands to at once (``--guild``), for testing;
                             without it the commands are synced globally (Discord may take a while).
``UMPIRE_MODERATOR_ROLE``    the name of the role whose members may abandon, substitute and correct games
                             (default ``Umpire moderator``); members with Manage Server may too.
``UMPIRE_REMINDER_MINUTES``  how often correspondence reminders are checked (default 10).
``UMPIRE_STATE_CACHE``       how many games' current states are kept in memory (default 100, at least 1); the
                             least recently used is dropped first and rebuilt from the store when needed.

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
DEFAULT_MODERATOR_ROLE = "Umpire moderator"
DEFAULT_STATE_CACHE = 100
"""Games whose state stays in memory: a mid-game Entire Battle state is about 90 kB, so about 9 MB."""


@dataclass(frozen=True)
class Settings:
    """Everything ``umpire run`` needs to know."""

    token: str | None
    db: str = DEFAULT_DB
    guild: int | None = None
    moderator_role: str = DEFAULT_MODERATOR_ROLE
    reminder_minutes: float = 10.0
    state_cache: int = DEFAULT_STATE_CACHE

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from the environment, with flags (non-``None`` keyword arguments) taking precedence.

        :raises ValueError: for a server id or a reminder interval that is not a number.
        """
        env = os.environ if env is None else env
        guild = overrides.get("guild") or env.get("UMPIRE_GUILD") or None
        values: dict[str, Any] = {
            "token": overrides.get("token") or env.get("DISCORD_TOKEN") or None,
            "db": overrides.get("db") or env.get("UMPIRE_DB") or DEFAULT_DB,
            "guild": int(guild) if guild else None,
            "moderator_role": env.get("UMPIRE_MODERATOR_ROLE") or DEFAULT_MODERATOR_ROLE,
            "reminder_minutes": float(env.get("UMPIRE_REMINDER_MINUTES") or 10),
            "state_cache": max(1, int(env.get("UMPIRE_STATE_CACHE") or DEFAULT_STATE_CACHE)),
        }
        return cls(**values)
