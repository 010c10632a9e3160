"""The game systems the bot offers: :func:`systems` maps a system id to a factory of its adapter.

Each adapter follows :class:`bot.service.SystemAdapter` (the engine contract plus what the bot needs around
it). A factory imports its system only when called, so the bot starts, and the other systems keep working,
even when one system's code is missing or broken; the service builds each adapter once, on first use.

- ``ardennes44``, ``alsace44``: Ardennes 1944 and Alsace 1944 on the Vae Victis operational system, one adapter
  (:mod:`bot.systems.vaevictis`) on each game's data;
- ``asl``: the ASL campaign-game refit phase (:mod:`bot.systems.asl`);
- ``wargame-commander``: the Ardennes Wargame Commander (:mod:`bot.systems.wargame_commander`).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.service import SystemAdapter, SystemFactory


def _vae_victis(game_id: str) -> SystemAdapter:
    from bot.systems.vaevictis import VaeVictisAdapter

    return VaeVictisAdapter(game_id)


def _asl() -> SystemAdapter:
    import importlib

    module = importlib.import_module("bot.systems.asl")
    adapter: SystemAdapter = module.AslAdapter()
    return adapter


def _wargame_commander() -> SystemAdapter:
    from bot.systems.wargame_commander import WargameCommanderAdapter

    return WargameCommanderAdapter()


def systems() -> dict[str, SystemFactory]:
    """The game systems of this bot: system id to adapter factory (the first is the default)."""
    return {
        "ardennes44": partial(_vae_victis, "ardennes44"),
        "alsace44": partial(_vae_victis, "alsace44"),
        "asl": _asl,
        "wargame-commander": _wargame_commander,
    }
