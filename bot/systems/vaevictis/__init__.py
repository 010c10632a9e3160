"""The Vae Victis operational system's room (a package). One adapter serves each of its games (Ardennes 1944,
and Alsace 1944): the game is data (:class:`VaeVictisAdapter` takes the game's id).

- :mod:`~bot.systems.vaevictis.adapter` - :class:`VaeVictisAdapter`, the game half of the adapter (over the
  engine): rules, suggestions, descriptions, pictures;
- :mod:`~bot.systems.vaevictis.reports` - the information answers (``hex``, ``unit``, ``hq``, ``oob``,
  ``victory``, ``brief``, ``stats``, ``replay``, the turn report) and the replay pictures;
- :mod:`~bot.systems.vaevictis.commands` - :class:`VaeVictisRoom`, the command half: the play commands
  (``activate``, ``move``, ``attack`` ...).

Importing this package imports no engine: the adapter's names are fetched from the adapter module when first
used (``from bot.systems.vaevictis import VaeVictisAdapter`` still works).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.systems.vaevictis.adapter import VaeVictisAdapter as VaeVictisAdapter

SUBMODULES = frozenset({"adapter", "commands", "reports"})
"""Imported as modules, never looked up in the adapter."""


def __getattr__(name: str) -> Any:
    """The adapter module's names, imported on first use."""
    import importlib

    if name.startswith("__") or name in SUBMODULES:
        raise AttributeError(name)
    return getattr(importlib.import_module("bot.systems.vaevictis.adapter"), name)
