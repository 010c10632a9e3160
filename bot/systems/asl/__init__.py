"""The ASL campaign-game keeper's room (a package: the system is large).

- :mod:`~bot.systems.asl.adapter` - :class:`AslAdapter`, the game half of the adapter (over the engine);
- :mod:`~bot.systems.asl.commands` - :class:`AslRoom`, the command half: the ``campaign`` commands, the
  basket's buttons, the console's way to create a campaign;
- :mod:`~bot.systems.asl.campaign` - the handlers of those commands and the sealed-purchase basket.

Importing this package imports no engine: the adapter's names are fetched from
:mod:`~bot.systems.asl.adapter` when first used (``from bot.systems.asl import AslAdapter`` still works).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.systems.asl.adapter import AslAdapter as AslAdapter

SUBMODULES = frozenset({"adapter", "campaign", "commands"})
"""Imported as modules, never looked up in the adapter."""


def __getattr__(name: str) -> Any:
    """The adapter module's names, imported on first use (``from bot.systems.asl import AslAdapter``)."""
    import importlib

    if name.startswith("__") or name in SUBMODULES:
        raise AttributeError(name)
    return getattr(importlib.import_module("bot.systems.asl.adapter"), name)
