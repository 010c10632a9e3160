"""[30] The computer opponent answers every prompt of its seat legally, from its seat's view only."""

from __future__ import annotations

from functools import cache

import pytest

from engine.contract import ComputerPlayer
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.opponent import COMPUTER_PLAYER
from engine.vaevictis.state import GameState
from scenarios import load_game


@cache
def game_of(game_id: str) -> VaeVictisGame:
    return VaeVictisGame(load_game(game_id))


def test_the_computer_player_is_offered_by_the_game_system() -> None:
    game = game_of("ardennes44")
    player: ComputerPlayer = game.computer_player
    assert player.levels == ("easy", "normal", "hard")
    assert COMPUTER_PLAYER.levels == player.levels


def test_a_seats_view_carries_the_known_position_without_the_seed() -> None:
    game = game_of("ardennes44")
    state = game.new_game("initial-assault", {}, b"\x07" * 32)
    position = game.view(state, "german")["position"]
    assert isinstance(position, GameState) and position.seed == ""
    assert "position" not in game.view(state, None)


@pytest.mark.parametrize(
    ("game_id", "scenario", "options", "actions"),
    [
        ("ardennes44", "initial-assault", {"fog_of_war": True}, 60),
        ("ardennes44", "entire-battle", {"c3i_snafu": True, "christmas_presents": True}, 40),
        ("alsace44", "initial-assault", {"fog_of_war": True}, 40),
        ("alsace44", "initial-assault-variant", {"snafu_vv60": True}, 40),
    ],
)
def test_the_opponent_answers_every_prompt_legally(
    game_id: str, scenario: str, options: dict[str, bool], actions: int
) -> None:
    """Both seats played by the shared opponent at its easiest: every decision is accepted by the engine."""
    game = game_of(game_id)
    assert game.computer_player is not None  # reading it registers the game with the shared opponent
    state = game.new_game(scenario, options, b"\x03" * 32)
    for number in range(actions):
        prompts = game.prompts(state)
        if not prompts:
            break
        side = sorted(prompts)[number % len(prompts)]
        decision = COMPUTER_PLAYER.decide(game.view(state, side), prompts[side], "easy", number.to_bytes(2, "big"))
        assert decision.action.seat == side
        state, _ = game.apply(state, decision.action)
