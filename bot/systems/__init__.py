"""The registry: every game system the bot offers, in one place.

A system registers its adapter's two halves (:mod:`bot.systems.base`):

- a factory of its game half (:class:`bot.service.SystemAdapter`). A factory imports its system only when
  called, so the bot starts, and the other systems keep working, even when one system's code is missing or
  broken; the service builds each adapter once, on first use;
- its command half (:class:`bot.systems.base.Room`), light, read when the bot starts.

- ``ardennes44``, ``alsace44``: Ardennes 1944 and Alsace 1944 on the Vae Victis operational system, one adapter
  (:mod:`bot.systems.vaevictis`) on each game's data;
- ``asl``: the ASL campaign-game refit phase (:mod:`bot.systems.asl`);
- ``wargame-commander``: the Ardennes Wargame Commander (:mod:`bot.systems.wargame_commander`).

Adding a system: docs/architecture.md (the checklist).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from bot.systems.asl.commands import AslRoom
from bot.systems.base import Room
from bot.systems.vaevictis.commands import VaeVictisRoom
from bot.systems.wargame_commander.commands import WargameCommanderRoom

if TYPE_CHECKING:
    from bot.service import SystemAdapter, SystemFactory


@dataclass(frozen=True)
class Registration:
    """A game system as registered: its adapter's game half (built on first use) and command half."""

    factory: SystemFactory
    room: Room


def _vae_victis(game_id: str) -> SystemAdapter:
    from bot.systems.vaevictis.adapter import VaeVictisAdapter

    return VaeVictisAdapter(game_id)


def _asl() -> SystemAdapter:
    from bot.systems.asl.adapter import AslAdapter

    return AslAdapter()


def _wargame_commander() -> SystemAdapter:
    from bot.systems.wargame_commander.adapter import WargameCommanderAdapter

    return WargameCommanderAdapter()


VAE_VICTIS = VaeVictisRoom()
"""One room for every game on the Vae Victis system (the game is data)."""
ASL = AslRoom()
WARGAME_COMMANDER = WargameCommanderRoom()


def registry() -> dict[str, Registration]:
    """The game systems of this bot by id (the first is the default)."""
    return {
        "ardennes44": Registration(partial(_vae_victis, "ardennes44"), VAE_VICTIS),
        "alsace44": Registration(partial(_vae_victis, "alsace44"), VAE_VICTIS),
        "asl": Registration(_asl, ASL),
        "wargame-commander": Registration(_wargame_commander, WARGAME_COMMANDER),
    }


def systems() -> dict[str, SystemFactory]:
    """The game systems of this bot: system id to adapter factory (the first is the default)."""
    return {system_id: entry.factory for system_id, entry in registry().items()}


def rooms() -> dict[str, Room]:
    """The command half of each game system, by system id (several ids may share one room)."""
    return {system_id: entry.room for system_id, entry in registry().items()}
