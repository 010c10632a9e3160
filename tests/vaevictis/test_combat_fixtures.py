"""The combat tests' mini game loads, and a pinned seed gives the dice asked for."""

from __future__ import annotations

from engine.dice import roll
from tests.vaevictis.combat_setups import mini_game, seed_for


def test_the_combat_fixture_game_loads() -> None:
    data = mini_game()
    assert data.units["us-cca"].kind == "armored" and data.side_of("de-326") == "german"


def test_seed_for_pins_the_next_dice() -> None:
    seed = bytes.fromhex(seed_for([6, 1], start=3))
    assert (roll(seed, 3), roll(seed, 4)) == (6, 1)
