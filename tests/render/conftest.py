"""Fixtures for the renderer tests: the mini game of ``tests/vaevictis/minigame.py``."""

from __future__ import annotations

import pytest

from engine.vaevictis.data import GameData
from engine.vaevictis.loader import build_game
from tests.vaevictis import minigame


@pytest.fixture(scope="session")
def game() -> GameData:
    """The mini game: an 8 x 6 map, two armies, four counters, three of them set up."""
    return build_game(minigame.documents())
