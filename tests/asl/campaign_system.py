"""The campaign-game system the ASL tests play on: the engine's, given the bundled modules by its caller (the
engine reads no file), as the bot's adapter builds its own (``bot.systems.asl.adapter.SYSTEM``)."""

from __future__ import annotations

from engine.asl import AslCampaignSystem
from scenarios.asl import module_text

SYSTEM = AslCampaignSystem(module_text)
