"""What the service keeps in memory for busy channels and games: one lock per channel (:class:`ChannelLocks`) and
the latest states (:class:`StateCache`), bounded by count and by memory.
"""

from __future__ import annotations

import asyncio
import sys
import time
import types
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from engine.contract import Prompt

LOCK_IDLE_SECONDS = 600.0
"""A channel's lock is forgotten after ten idle minutes (it is made again on the next request)."""


class ChannelLocks:
    """One :class:`asyncio.Lock` per channel, forgotten once idle so that a bot serving thousands of channels
    keeps only the busy ones.

    A lock is dropped only while nobody holds it or waits for it, and the sweep runs inside :meth:`get`,
    which never yields to the event loop: a caller that got a lock acquires it before any sweep can run.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic, idle: float = LOCK_IDLE_SECONDS) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, float]] = {}
        self._clock = clock
        self._idle = idle
        self._next_sweep = clock() + idle

    def __len__(self) -> int:
        return len(self._locks)

    def get(self, channel: int) -> asyncio.Lock:
        """The lock of a channel (a new one if it was forgotten)."""
        now = self._clock()
        if now >= self._next_sweep:
            self._sweep(now)
        lock = self._locks[channel][0] if channel in self._locks else asyncio.Lock()
        self._locks[channel] = (lock, now)
        return lock

    def _sweep(self, now: float) -> None:
        self._next_sweep = now + self._idle
        for channel, (lock, used) in list(self._locks.items()):
            if now - used >= self._idle and not lock.locked() and not getattr(lock, "_waiters", None):
                del self._locks[channel]


STATE_MEMORY = 32 * 1024 * 1024
"""The memory the cached states may take by default, in bytes (32 MB: about 450 mid-game Entire Battle states
of 72 kB)."""
REMEASURE = 32
"""A cached game's footprint is measured again after this many new states (a game's state grows slowly)."""


def footprint(value: Any) -> int:
    """The bytes ``value`` takes with everything it holds (each object counted once; classes, functions and
    modules, which every state shares, not counted)."""
    seen: set[int] = set()
    stack = [value]
    total = 0
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, type | types.ModuleType | types.FunctionType):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, str | bytes | int | float | bool) or item is None:
            continue
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
        else:
            inner = getattr(item, "__dict__", None)
            if inner is not None:
                stack.append(inner)
            for slot in getattr(type(item), "__slots__", ()):
                if hasattr(item, slot):
                    stack.append(getattr(item, slot))
    return total


class StateCache:
    """The latest state of the most recently used games, within a memory budget (least recently used dropped).

    Each entry is (the game's revision, its last live action's number, the state). What a state takes is
    measured (:func:`footprint`) when its game enters the cache and again every :data:`REMEASURE` states, so
    the cache holds as many games as fit in ``memory`` bytes: many small games, or fewer big ones. ``size``
    also bounds the count, when given (0: only the memory does). The prompts of a cached state are kept beside
    it (:meth:`prompts_of`): an action's prompts are worked out once, when it is applied, and serve as the
    prompts "before" the next action.
    """

    def __init__(self, size: int = 0, memory: int = STATE_MEMORY, measure: Callable[[Any], int] = footprint) -> None:
        self.size = max(0, size)
        self.memory = max(1, memory)
        self._measure = measure
        self._entries: OrderedDict[int, tuple[int, int, Any]] = OrderedDict()
        self._costs: dict[int, tuple[int, int]] = {}
        """Per game: the bytes its state was last measured to take, and the new states since."""
        self.used = 0
        """The bytes the cached states take, as last measured."""
        self._prompts: dict[int, tuple[Any, dict[str, Prompt]]] = {}

    def prompts_of(self, game_id: int, state: Any) -> dict[str, Prompt] | None:
        """The prompts kept for this very state of the game, if any (a copy)."""
        kept = self._prompts.get(game_id)
        return dict(kept[1]) if kept is not None and kept[0] is state else None

    def keep_prompts(self, game_id: int, state: Any, prompts: Mapping[str, Prompt]) -> None:
        """Keep the prompts of the game's cached ``state`` (dropped with it)."""
        if game_id in self._entries:
            self._prompts[game_id] = (state, dict(prompts))

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, game_id: int) -> tuple[int, int, Any] | None:
        entry = self._entries.get(game_id)
        if entry is not None:
            self._entries.move_to_end(game_id)
        return entry

    def __setitem__(self, game_id: int, entry: tuple[int, int, Any]) -> None:
        old = self._entries.get(game_id)
        cost, since = self._costs.get(game_id, (0, REMEASURE))
        if old is None or (old[2] is not entry[2] and since + 1 >= REMEASURE):
            cost, since = self._measure(entry[2]), 0
        elif old[2] is not entry[2]:
            since += 1
        self.used += cost - (self._costs[game_id][0] if game_id in self._costs else 0)
        self._costs[game_id] = (cost, since)
        self._entries[game_id] = entry
        self._entries.move_to_end(game_id)
        while len(self._entries) > 1 and (self.used > self.memory or 0 < self.size < len(self._entries)):
            dropped, _ = self._entries.popitem(last=False)
            self._forget(dropped)

    def pop(self, game_id: int, default: Any = None) -> Any:
        self._forget(game_id)
        return self._entries.pop(game_id, default)

    def _forget(self, game_id: int) -> None:
        self._prompts.pop(game_id, None)
        cost = self._costs.pop(game_id, None)
        if cost is not None:
            self.used -= cost[0]
