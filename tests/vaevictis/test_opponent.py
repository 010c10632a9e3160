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


def fog_twin(game: VaeVictisGame, state: GameState, seat: str) -> GameState:
    """The same game as ``seat`` sees it, everything it may not see changed: another secret seed, and under
    fog of war (11.1) the enemy counters it may not inspect shuffled among the hidden places of their stacks,
    reduced to one step, fatigued and out of supply."""
    from engine.vaevictis.view import unseen_units

    twin = state.copy()
    twin.seed = "ab" * 32
    stacks = game.view(state, seat)["stacks"]
    tops = [stack["units"][0]["id"] for stack in stacks if stack["side"] != seat]  # type: ignore[index]
    twin.stack_tops = [*tops, *(u for u in state.stack_tops if u not in tops)]  # the enemy tops seen stay on top
    hidden = sorted(unseen_units(game.data, state)[seat])  # type: ignore[index]
    places = [state.units[u].hex for u in hidden]
    for unit_id, hex_ in zip(hidden, [*places[1:], *places[:1]], strict=True):
        unit = twin.units[unit_id]
        unit.hex = hex_
        unit.steps = 1
        unit.fatigued = unit.unsupplied = True
    return twin


def seen(view: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in view.items() if k != "position"}


def test_opponent_never_cheats_twin_games_give_the_same_decisions() -> None:
    """[11] Twin games that differ only in what the deciding seat may not see (the secret seed, the hidden
    counters of enemy stacks under fog of war) give the opponent the same decisions, at every prompt of a
    game in progress, both seats."""
    game = game_of("ardennes44")
    state = game.new_game("initial-assault", {"fog_of_war": True}, b"\x09" * 32)
    compared = hidden_compared = 0
    for number in range(24):
        prompts = game.prompts(state)
        side = sorted(prompts)[number % len(prompts)]
        twin = fog_twin(game, state, side)
        real_view, twin_view = game.view(state, side), game.view(twin, side)
        decision = game.computer_player.decide(real_view, prompts[side], "easy", b"twin")
        if seen(real_view) == seen(twin_view):
            twin_decision = game.computer_player.decide(twin_view, game.prompts(twin)[side], "easy", b"twin")
            assert twin_decision == decision
            assert twin_view["position"].to_json() == real_view["position"].to_json()  # type: ignore[attr-defined]
            compared += 1
            hidden_compared += twin.units != state.units
        state, _ = game.apply(state, decision.action)
    assert compared == 24 and hidden_compared >= 10
