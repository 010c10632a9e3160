"""Random legal play of a Vae Victis game, and the invariants every state it reaches must keep."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.contract import Action, RulesError
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.legal import candidate_actions
from engine.vaevictis.stacking import overstacked_hexes, stacking_limit
from engine.vaevictis.state import GameState, Position


def weighted_order(rng: random.Random, actions: list[Action]) -> list[Action]:
    """All the candidates in a random order that puts doing something before passing or ending."""

    def key(action: Action) -> float:
        weight = 0.15 if action.verb in ("pass", "end_activation", "end_support") else 1.0
        return rng.random() ** (1 / weight)

    return sorted(actions, key=key, reverse=True)


def check_invariants(game: VaeVictisGame, state: GameState) -> None:
    data = game.data
    pos = Position(data, state)
    for unit in state.units.values():
        definition = data.units.get(unit.id)
        max_steps = definition.steps if definition else 4
        assert 0 <= unit.steps <= max_steps, unit
        assert unit.action_points >= 0 and unit.movement_points >= 0, unit
        if unit.on_map:
            assert unit.hex is not None and data.map.grid.contains(unit.hex), unit
            assert unit.steps >= 1, unit
    for hex_, units in pos.occupants.items():
        assert len({pos.side_of(u.id) for u in units}) == 1, f"both sides in {hex_}"
    if state.activation is None and not state.pending:
        for side in ("german", "allied"):
            assert not overstacked_hexes(pos, side), (side, stacking_limit(data))
    for pool in state.pools.values():
        assert all(count >= 0 for count in pool.values()), pool


def play(
    game: VaeVictisGame,
    seed: int,
    scenario: str,
    max_actions: int,
    also_check: Callable[[VaeVictisGame, GameState], None] | None = None,
    start: GameState | None = None,
) -> tuple[GameState, list[Action]]:
    """Random legal play from a scenario's setup (or from ``start``); the invariants (and ``also_check``, a
    game's own) after every action."""
    rng = random.Random(seed)
    state = start if start is not None else game.new_game(scenario, {}, seed.to_bytes(32, "big"))
    log: list[Action] = []
    for _ in range(max_actions):
        if state.result is not None:
            break
        prompts = game.prompts(state)
        assert prompts, "the game stalled: nobody has a decision and it is not over"
        side = rng.choice(sorted(prompts))
        actions = candidate_actions(game, state, side)
        assert actions, f"{side} has a prompt but no legal action: {prompts[side].text}"
        for action in weighted_order(rng, actions):
            try:
                state, _ = game.apply(state, action)
            except RulesError:
                continue
            log.append(action)
            break
        else:
            raise AssertionError(f"dead end: none of {len(actions)} candidate actions of {side} was accepted")
        check_invariants(game, state)
        if also_check is not None:
            also_check(game, state)
    return state, log
