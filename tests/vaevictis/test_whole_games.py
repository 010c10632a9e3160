"""Whole games of Ardennes 1944: The Initial Assault with scripted players to its victory check, and The Entire
Battle with random legal players to its end, checking the rules' invariants after every action."""

from __future__ import annotations

import random

import pytest

from engine.contract import Action, Event, RulesError
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.geography import beyond_meuse
from engine.vaevictis.legal import candidate_actions
from engine.vaevictis.state import GameState, Position
from engine.vaevictis.supply import SupplyNet
from scenarios import load_game
from tests.play_budget import play_seeds
from tests.vaevictis.random_play import check_invariants, weighted_order


@pytest.fixture(scope="module")
def game() -> VaeVictisGame:
    return VaeVictisGame(load_game("ardennes44"))


def finish_support(game: VaeVictisGame, state: GameState) -> GameState:
    while state.phase == "support":
        side = sorted(game.prompts(state))[0]
        state, _ = game.apply(state, Action(side, "end_support"))
    return state


# --- The Initial Assault, scripted -------------------------------------------------------------------------


def test_initial_assault_without_a_german_success_is_an_allied_victory(game: VaeVictisGame) -> None:
    state = game.new_game("initial-assault", {}, b"\x05" * 32)
    turns_seen = []
    while state.result is None:
        state = finish_support(game, state)
        assert state.phase == "operations"
        turns_seen.append(state.turn)
        state, _ = game.apply(state, Action(state.active or "german", "pass"))
        if state.result is None and state.phase == "operations":
            state, _ = game.apply(state, Action(state.active or "allied", "pass"))
    assert sorted(set(turns_seen)) == [1, 2, 3]
    assert state.result is not None and state.result["winner"] == "allied"
    assert game.result(state) is not None


def test_initial_assault_ends_at_once_when_a_supplied_german_unit_crosses_the_meuse(game: VaeVictisGame) -> None:
    state = finish_support(game, game.new_game("initial-assault", {}, b"\x05" * 32))
    west = beyond_meuse(game.data)
    # A German mechanized unit put one hex short of a Meuse bridge, in the German general activation.
    pos = Position(game.data, state)
    a, b = next(
        (a, b)
        for a, b in sorted(game.data.map.bridges)
        if (a in west) != (b in west)
        and game.data.map.river_between(a, b).name == "Meuse"
        and pos.side_at(a) is None
        and pos.side_at(b) is None
    )
    near, far = (a, b) if b in west else (b, a)
    peiper = state.units["de-1-ss-peiper"]
    peiper.hex = near
    state, _ = game.apply(state, Action("german", "activate_general"))
    state, events = game.apply(state, Action("german", "move", {"units": "de-1-ss-peiper", "to": f"{far:04d}"}))
    assert state.result is not None and state.result["winner"] == "german"
    assert any(e.kind == "victory" for e in events)
    with pytest.raises(RulesError, match="the game is over"):
        game.apply(state, Action("allied", "pass"))


def test_entire_battle_holding_three_of_five_cities_at_the_end_is_a_german_defensive_victory(
    game: VaeVictisGame,
) -> None:
    state = finish_support(game, game.new_game("entire-battle", {}, b"\x06" * 32))
    state.turn = 8
    for unit_id, city in (("de-1-ss-peiper", "Bastogne"), ("de-1-ss-hansen", "St. Vith"), ("de-12-vg", "Marche")):
        hex_ = game.data.map.place(city).hex
        for unit in state.units.values():
            if unit.hex == hex_:
                unit.hex, unit.eliminated = None, True
        state.units[unit_id].hex = hex_
    state, _ = game.apply(state, Action(state.active or "german", "pass"))
    state, _ = game.apply(state, Action(state.active or "allied", "pass"))
    assert state.result is not None
    assert state.result["result"] == "german-defensive", state.result


# --- The Entire Battle, random --------------------------------------------------------------------------


def check_statuses_after_supply_phase(game: VaeVictisGame, state: GameState, events: list[Event]) -> None:
    """[8, 10.3, 10.4] Right after the supply phase every status matches a fresh computation, except units the
    fuel shortage hit (which may be worse) and the first turn's all-in-command rule."""
    hit = {e.data.get("unit") for e in events if e.data.get("rule") == "10.4"}
    pos = Position(game.data, state)
    for side in ("german", "allied"):
        net = SupplyNet(pos, side)
        for unit in state.on_map():
            if pos.side_of(unit.id) != side:
                continue
            if not (state.turn == 1 and side == "allied"):
                assert unit.out_of_command == (not net.in_command(unit)), unit.id
            if unit.id in hit:
                continue
            supplied = net.is_supplied(unit)
            assert supplied == (not unit.isolated and not unit.unsupplied), (unit.id, supplied)


def check_arrivals(game: VaeVictisGame, state: GameState, delays: set[str]) -> None:
    """[16.1] No reinforcement arrives before its turn; only a Southern Front delay puts one back."""
    for reinforcement in game.data.reinforcements:
        for unit_id in reinforcement.units:
            due = state.arrivals.get(unit_id, reinforcement.turn)
            assert due == reinforcement.turn or unit_id in delays, unit_id
            if state.units[unit_id].arrived:
                assert due <= state.turn, unit_id


def play_to_the_end(game: VaeVictisGame, seed: int) -> GameState:
    rng = random.Random(seed)
    state = game.new_game("entire-battle", {}, seed.to_bytes(32, "big"))
    delays: set[str] = set()
    for _ in range(8000):
        if state.result is not None:
            return state
        side = rng.choice(sorted(game.prompts(state)))
        for action in weighted_order(rng, candidate_actions(game, state, side)):
            try:
                state, events = game.apply(state, action)
            except RulesError:
                continue
            break
        else:
            raise AssertionError(f"dead end for {side}")
        for event in events:
            if event.kind == "reinforcements":
                delays.update(u for u, turn in state.arrivals.items())
        if any(e.kind == "turn" for e in events) and state.phase != "supply":
            check_statuses_after_supply_phase(game, state, events)
        check_invariants(game, state)
        check_arrivals(game, state, delays)
    raise AssertionError("the game did not end within 8,000 actions")


def test_the_entire_battle_always_ends_with_a_result(game: VaeVictisGame) -> None:
    """Random games (seed 21's by default, four with UMPIRE_FULL_PLAY=1: tests/play_budget.py): each ends with a
    result; only a German offensive victory (17.2) ends one before turn 8; and at least one plays all eight
    turns."""
    last_turns = []
    for seed in play_seeds((21, 22, 23, 24)):
        state = play_to_the_end(game, seed)
        assert state.result is not None and state.result["winner"] in ("german", "allied")
        assert game.result(state) is not None
        assert 1 <= state.turn <= 8
        if state.turn < 8:
            assert state.result["result"] == "german-offensive", state.result
        last_turns.append(state.turn)
    assert 8 in last_turns, last_turns
