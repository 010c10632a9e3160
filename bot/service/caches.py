"""What the service keeps in memory for busy channels and games: one lock per channel (:class:`ChannelLocks`) and
the latest states (:class:`StateCache`), both bounded.
"""

from __future__ import annotations

import asyncio
import time
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


class StateCache:
    """The latest state of the most recently used games, at most ``size`` of them (least recently used dropped).

    Each entry is (the game's revision, its last live action's number, the state). The prompts of a cached
    state are kept beside it (:meth:`prompts_of`): an action's prompts are worked out once, when it is
    applied, and serve as the prompts "before" the next action.
    """

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self._entries: OrderedDict[int, tuple[int, int, Any]] = OrderedDict()
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
        self._entries[game_id] = entry
        self._entries.move_to_end(game_id)
        while len(self._entries) > self.size:
            dropped, _ = self._entries.popitem(last=False)
            self._prompts.pop(dropped, None)

    def pop(self, game_id: int, default: Any = None) -> Any:
        self._prompts.pop(game_id, None)
        return self._entries.pop(game_id, default)
