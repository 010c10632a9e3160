"""The bot's heartbeat for a supervisor's health check (``UMPIRE_HEALTH_FILE``; the Docker image's
``HEALTHCHECK`` runs ``umpire health``): while the bot is connected to Discord, it writes the time into the file
every :data:`BEAT_SECONDS`."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING

from discord.ext import commands, tasks

if TYPE_CHECKING:
    from bot.transports.discord_app import UmpireBot

log = logging.getLogger("bot.heartbeat")

BEAT_SECONDS = 30.0
"""How often the heartbeat file is written while the bot is connected."""


class Heartbeat(commands.Cog):
    """Writes the time into ``UMPIRE_HEALTH_FILE`` while the bot is connected (nothing when it is unset)."""

    def __init__(self, bot: UmpireBot) -> None:
        self.bot = bot
        self.loop = tasks.loop(seconds=BEAT_SECONDS)(self.beat)

    async def cog_load(self) -> None:
        if self.bot.settings.health_file and self.bot.run_background_tasks:
            self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()

    async def beat(self) -> bool:
        """Write the heartbeat if the bot is connected; whether it was written."""
        path = self.bot.settings.health_file
        if not path or not self.bot.is_ready() or self.bot.is_closed():
            return False
        try:
            Path(path).write_text(f"{time.time():.0f}\n")
        except OSError:
            log.warning("cannot write the heartbeat file %s", path)
            return False
        return True
