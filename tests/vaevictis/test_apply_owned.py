"""A replay from the set-up applies each action to the state it owns (``VaeVictisGame.apply_owned``, used by
``umpire verify`` and ``umpire replay``, issue 37) and gets what ``apply`` gets: the same events and states,
action by action, as the digests recorded for tests/vaevictis/test_engine_digests.py; and a replay that changes
its states in place leaves nothing behind (the game's data, its set-up) that a later replay would read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.contract import Action, RulesError
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.legal import candidate_actions
from engine.vaevictis.state import GameState
from scenarios import load_game
from tests.vaevictis.record_engine_digests import GAMES, HERE, key, play, replay

RECORDED: dict[str, dict[str, str]] = json.loads(Path(HERE).read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", GAMES, ids=lambda g: key(*g))
def test_owned_replay_gives_the_recorded_events_and_states(game: tuple[str, str, dict[str, bool], int, int]) -> None:
    game_id, scenario, options, seed, _ = game
    log, _, applied = play(*game)
    assert applied == RECORDED[key(*game)]["applied"]
    assert replay(game_id, scenario, options, seed, log, owned=True) == applied
    assert replay(game_id, scenario, options, seed, log) == applied  # nothing shared was changed in place


def _legal_action(game: VaeVictisGame, state: GameState) -> Action:
    seat = sorted(game.prompts(state))[0]
    for action in candidate_actions(game, state, seat):
        try:
            game.apply(state, action)
        except RulesError:
            continue
        return action
    raise AssertionError("no legal action")


def test_owned_apply_changes_the_state_it_is_given_and_apply_never_does() -> None:
    game = VaeVictisGame(load_game("ardennes44"))
    state = game.new_game("entire-battle", {}, bytes(32))
    before = json.dumps(state.to_json(), sort_keys=True)
    action = _legal_action(game, state)
    copied, _ = game.apply(state, action)
    assert copied is not state
    assert json.dumps(state.to_json(), sort_keys=True) == before
    owned, _ = game.apply_owned(state, action)
    assert owned is state
    assert json.dumps(owned.to_json(), sort_keys=True) == json.dumps(copied.to_json(), sort_keys=True)


def test_owned_apply_under_fog_of_war_copies_the_state() -> None:
    """[11.1] Under fog of war the events are marked from the position before and after the action, so the
    state is copied even for a caller that owns it."""
    game = VaeVictisGame(load_game("ardennes44"))
    state = game.new_game("entire-battle", {"fog_of_war": True}, bytes(32))
    owned, _ = game.apply_owned(state, _legal_action(game, state))
    assert owned is not state
