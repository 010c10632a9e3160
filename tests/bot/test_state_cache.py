"""The state cache is bounded by memory (bot/service/caches.py, issue 32): it holds as many games as their states
fit, drops the least recently used first, and holds 200 mid-game Entire Battle games at once by default."""

from __future__ import annotations

import random
import sys
from typing import Any

from bot.service.caches import REMEASURE, STATE_MEMORY, StateCache, footprint
from bot.service.config import DEFAULT_STATE_CACHE_MB, Settings
from tests.bot.doubles import require_ardennes


def sized(cost: int) -> dict[str, Any]:
    return {"cost": cost}


def by_cost(state: dict[str, Any]) -> int:
    return int(state["cost"])


def test_the_least_recently_used_games_go_first_once_the_memory_is_full() -> None:
    cache = StateCache(memory=100, measure=by_cost)
    for game in range(1, 5):
        cache[game] = (1, 1, sized(25))
    assert len(cache) == 4 and cache.used == 100
    assert cache.get(1) is not None  # read: now the most recently used
    cache[5] = (1, 1, sized(25))
    assert cache.get(2) is None and all(cache.get(g) is not None for g in (1, 3, 4, 5))  # read in this order
    cache[6] = (1, 1, sized(60))  # a big game pushes out as many small ones as it needs, oldest first
    assert [g for g in range(1, 7) if cache.get(g) is not None] == [5, 6] and cache.used == 85
    cache[7] = (1, 1, sized(500))  # bigger than the whole budget: kept alone, the game being played needs it
    assert len(cache) == 1 and cache.get(7) is not None and cache.used == 500


def test_a_count_bound_still_holds_beside_the_memory() -> None:
    cache = StateCache(size=2, memory=10**9, measure=by_cost)
    for game in range(5):
        cache[game] = (1, 1, sized(1))
    assert len(cache) == 2 and cache.get(3) is not None and cache.get(4) is not None


def test_a_games_state_is_measured_when_it_enters_then_every_few_states() -> None:
    measured: list[int] = []

    def measure(state: dict[str, Any]) -> int:
        measured.append(state["cost"])
        return int(state["cost"])

    cache = StateCache(memory=10**6, measure=measure)
    cache[1] = (1, 1, sized(10))
    cache[1] = (2, 1, cache.get(1)[2])  # type: ignore[index]  # the same state, a new revision: not measured
    for n in range(2 * REMEASURE):
        cache[1] = (3 + n, 2 + n, sized(10 + n))
    assert len(measured) == 3 and cache.used == measured[-1]


def test_the_memory_counted_is_always_that_of_the_games_held() -> None:
    """A property over random use: ``used`` is the sum of the held games' last measured costs, within budget
    unless one game alone exceeds it."""
    rng = random.Random(32)
    costs: dict[int, int] = {}

    def measure(state: dict[str, Any]) -> int:
        return int(state["cost"])

    cache = StateCache(memory=1000, measure=measure)
    for _ in range(3000):
        game = rng.randrange(40)
        roll = rng.random()
        if roll < 0.1:
            cache.pop(game)
        elif roll < 0.4:
            cache.get(game)
        else:
            state = sized(rng.randrange(1, 300))
            cache[game] = (1, 1, state)
        held = [g for g in range(40) if g in cache._entries]
        for g in held:
            costs[g] = cache._costs[g][0]
        assert cache.used == sum(costs[g] for g in held)
        assert cache.used <= 1000 or len(held) == 1
        assert set(cache._costs) == set(held)


def test_footprint_counts_what_a_state_holds_once_each() -> None:
    shared = "x" * 1000
    assert footprint([shared, shared]) == sys.getsizeof([shared, shared]) + sys.getsizeof(shared)
    assert footprint({"a": [1, 2, 3]}) > footprint({"a": []})

    class Slotted:
        __slots__ = ("inside",)

        def __init__(self) -> None:
            self.inside = "y" * 500

    assert footprint(Slotted()) >= 500


def test_the_default_budget_holds_two_hundred_mid_game_entire_battles() -> None:
    require_ardennes()
    from bench.midgame import random_game
    from engine.vaevictis.game import VaeVictisGame
    from scenarios import load_game

    game = VaeVictisGame(load_game("ardennes44"))
    state, _ = random_game(game, 7, 540, rest=True)
    assert Settings.from_env({}).state_cache_mb * 1024 * 1024 == STATE_MEMORY == DEFAULT_STATE_CACHE_MB * 1024**2
    cache = StateCache()
    for game_id in range(200):
        cache[game_id] = (1, 1, state)
    assert len(cache) == 200 and cache.used == 200 * footprint(state) <= STATE_MEMORY
    for game_id in range(200):  # 200 games acting in turn: every state is found
        assert cache.get(game_id) is not None
