"""The registry: every game system the bot offers, in one place.

A system registers its adapter's two halves (:mod:`bot.systems.base`):

- a factory of its game half (:class:`bot.service.game_service.SystemAdapter`). A factory imports its system only when
  called, so the bot starts, and the other systems keep working, even when one system's code is missing or
  broken; the service builds each adapter once, on first use;
- its command half (:class:`bot.systems.base.Room`), light, read when the bot starts;
- its data tools (:class:`bot.systems.base.DataTools`), if it has data files to check or maps to draw: what
  ``umpire validate`` and ``umpire render`` do with them (light too).

- ``ardennes44``, ``alsace44``: Ardennes 1944 and Alsace 1944 on the Vae Victis operational system, one adapter
  (:mod:`bot.systems.vaevictis`) on each game's data;
- ``asl``: the ASL campaign-game refit phase (:mod:`bot.systems.asl`);
- ``wargame-commander``: the Ardennes Wargame Commander (:mod:`bot.systems.wargame_commander`).

Adding a system: docs/architecture.md (the checklist).

May import (each system's room): :mod:`bot.service`, :mod:`bot.store`'s records, the words of answers
(:mod:`bot.commands.replies`, :mod:`bot.commands.definitions`, :mod:`bot.commands.posted_files`), the room
interface :mod:`bot.systems.base`, its own engine, :mod:`scenarios` and :mod:`render`. Never another system's room
or engine, never the command layer or a transport.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from bot.systems.asl.commands import AslRoom
from bot.systems.asl.data_tools import AslDataTools
from bot.systems.base import DataTools, Room
from bot.systems.vaevictis.commands import VaeVictisRoom
from bot.systems.vaevictis.data_tools import VaeVictisDataTools
from bot.systems.wargame_commander.commands import WargameCommanderRoom
from bot.systems.wargame_commander.data_tools import WargameCommanderDataTools

if TYPE_CHECKING:
    from bot.service.game_service import SystemAdapter, SystemFactory


@dataclass(frozen=True)
class Registration:
    """A game system as registered: its adapter's game half (built on first use) and command half, and the
    command line's tools for its data (``None``: it has none)."""

    factory: SystemFactory
    room: Room
    tools: DataTools | None = None


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
VAE_VICTIS_DATA = VaeVictisDataTools()
ASL_DATA = AslDataTools()
WARGAME_COMMANDER_DATA = WargameCommanderDataTools()


def registry() -> dict[str, Registration]:
    """The game systems of this bot by id (the first is the default)."""
    return {
        "ardennes44": Registration(partial(_vae_victis, "ardennes44"), VAE_VICTIS, VAE_VICTIS_DATA),
        "alsace44": Registration(partial(_vae_victis, "alsace44"), VAE_VICTIS, VAE_VICTIS_DATA),
        "asl": Registration(_asl, ASL, ASL_DATA),
        "wargame-commander": Registration(_wargame_commander, WARGAME_COMMANDER, WARGAME_COMMANDER_DATA),
    }


def systems() -> dict[str, SystemFactory]:
    """The game systems of this bot: system id to adapter factory (the first is the default)."""
    return {system_id: entry.factory for system_id, entry in registry().items()}


def rooms() -> dict[str, Room]:
    """The command half of each game system, by system id (several ids may share one room)."""
    return {system_id: entry.room for system_id, entry in registry().items()}


def all_data_tools() -> tuple[DataTools, ...]:
    """Every system's data tools, once each (the games of one system share them), in the registry's order."""
    found = [entry.tools for entry in registry().values() if entry.tools is not None]
    return tuple(dict.fromkeys(found))


def data_tools(game: str) -> DataTools | None:
    """The data tools for ``game``: a bundled game's id, else a path whose data one system reads (a game
    folder, a board file); ``None`` when no system knows it."""
    tools = all_data_tools()
    return next((t for t in tools if game in t.games), None) or next((t for t in tools if t.reads(Path(game))), None)
