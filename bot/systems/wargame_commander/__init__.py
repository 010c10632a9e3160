"""The Ardennes Wargame Commander's room (a package).

- :mod:`~bot.systems.wargame_commander.adapter` - :class:`WargameCommanderAdapter`, the game half of the
  adapter (over the engine);
- :mod:`~bot.systems.wargame_commander.commands` - :class:`WargameCommanderRoom`, the command half: the
  ``frame`` commands and ``score``;
- :mod:`~bot.systems.wargame_commander.frames` - the handlers of the commands that are not a plain verb.

Importing this package imports no engine: the adapter's names are fetched from the adapter module when first
used (``from bot.systems.wargame_commander import WargameCommanderAdapter`` still works).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.systems.wargame_commander.adapter import WargameCommanderAdapter as WargameCommanderAdapter

SUBMODULES = frozenset({"adapter", "commands", "frames"})
"""Imported as modules, never looked up in the adapter."""


def __getattr__(name: str) -> Any:
    """The adapter module's names, imported on first use."""
    import importlib

    if name.startswith("__") or name in SUBMODULES:
        raise AttributeError(name)
    return getattr(importlib.import_module("bot.systems.wargame_commander.adapter"), name)
