"""The engine's speed work changes nothing anyone can see (issue 37): seeded random games of both Vae Victis
games give, action by action, the same prompts, events and states as the engine before it (the digests in
tests/vaevictis/recordings/engine-digests.json, made by record_engine_digests.py on main at e4d1be8, again at
4efca3c), and the same log replayed by ``apply`` alone, with no prompt read in between (as ``umpire verify``
replays), gives the same events and states. Along the way, the seats ``apply`` waits for are checked to be the
prompts' seats.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.state import GameState
from tests.vaevictis.record_engine_digests import GAMES, HERE, key, play, replay

RECORDED: dict[str, dict[str, str]] = json.loads(Path(HERE).read_text(encoding="utf-8"))


def _seats_are_the_prompts_seats(game: VaeVictisGame, state: GameState) -> None:
    """``apply`` checks an action's seat against the seats of the prompts, found without making their choices."""
    assert game._required_seats(state) == tuple(game._required_prompts(state))


@pytest.mark.parametrize("game", GAMES, ids=lambda g: key(*g))
def test_random_games_give_the_recorded_prompts_events_and_states(
    game: tuple[str, str, dict[str, bool], int, int],
) -> None:
    log, played, applied = play(*game, check=_seats_are_the_prompts_seats)
    assert played == RECORDED[key(*game)]["played"]
    assert applied == RECORDED[key(*game)]["applied"]
    game_id, scenario, options, seed, _ = game
    assert replay(game_id, scenario, options, seed, log) == applied
