"""Shared test set-up: the engine's ASL system gets the bundled modules, as the bot's adapter gives its own.

The engine reads no file (``engine.asl.refit`` receives its module data); tests that build campaigns on
:data:`engine.asl.SYSTEM` directly use the modules bundled in ``scenarios.asl``.
"""

from __future__ import annotations

from engine.asl import SYSTEM
from scenarios.asl import module_text

SYSTEM.modules = module_text
