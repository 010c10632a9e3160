"""The bot's systems with Alsace 1944 playable in tests while some of its rules are still being written.

The bot's own ``alsace44`` adapter refuses to set up a game whose rules the engine lacks (players never get
one); these systems give the same adapter an engine with the test-only switch on (tests/vaevictis/alsace.py).
Once Alsace is complete the switch changes nothing.
"""

from __future__ import annotations

from bot.service import SystemAdapter, SystemFactory
from bot.systems import systems
from bot.systems.vaevictis.adapter import VaeVictisAdapter
from tests.vaevictis.alsace import alsace_game


def alsace_adapter() -> VaeVictisAdapter:
    """The bot's Vae Victis adapter on Alsace 1944, missing rules allowed (tests only)."""
    game = alsace_game()
    adapter = VaeVictisAdapter("alsace44", data=game.data)
    adapter.game = game
    return adapter


def alsace_systems() -> dict[str, SystemFactory]:
    """The bot's systems, Alsace 1944 first (the default of a command layer) and playable in tests."""

    def factory() -> SystemAdapter:
        return alsace_adapter()

    return {"alsace44": factory, **{k: v for k, v in systems().items() if k != "alsace44"}}
