"""The bot's slash commands, built from the command layer's definitions, and its background tasks.

``setup(bot)`` is the extension entry point: it adds every command of :data:`bot.commands.layer.COMMANDS` to the
tree (``game ...`` and ``mod ...`` as groups), the reminders cog, the league deadlines cog and the heartbeat
(:mod:`bot.transports.cogs.heartbeat`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.transports.cogs.heartbeat import Heartbeat
from bot.transports.cogs.league_deadlines import LeagueDeadlines
from bot.transports.cogs.reminders import Reminders
from bot.transports.cogs.slash import add_commands

if TYPE_CHECKING:
    from bot.transports.discord_app import UmpireBot


async def setup(bot: UmpireBot) -> None:
    """Add the slash commands and the reminders cog."""
    add_commands(bot)
    await bot.add_cog(Reminders(bot))
    await bot.add_cog(LeagueDeadlines(bot))
    await bot.add_cog(Heartbeat(bot))
