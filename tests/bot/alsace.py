"""The bot's systems with Alsace 1944 first (the default game of a command layer), on the test game of
tests/vaevictis/alsace.py (Alsace as players get it)."""

from __future__ import annotations

from bot.service.game_service import SystemAdapter, SystemFactory
from bot.systems import systems
from bot.systems.vaevictis.adapter import VaeVictisAdapter
from tests.vaevictis.alsace import alsace_game


def alsace_adapter() -> VaeVictisAdapter:
    """The bot's Vae Victis adapter on the Alsace 1944 test game."""
    game = alsace_game()
    adapter = VaeVictisAdapter("alsace44", data=game.data)
    adapter.game = game
    return adapter


def alsace_systems() -> dict[str, SystemFactory]:
    """The bot's systems, Alsace 1944 first (the default of a command layer)."""

    def factory() -> SystemAdapter:
        return alsace_adapter()

    return {"alsace44": factory, **{k: v for k, v in systems().items() if k != "alsace44"}}
