"""Where the computer thinks: worker processes outside the bot's event loop and outside its threads.

A computer player's decision (:class:`engine.contract.ComputerPlayer`) may cost seconds of pure Python; run in the
bot's process it would hold the interpreter's lock and slow every other game's answers. :class:`ThinkingPool`
sends the decision to a worker process (``spawn``: a fresh interpreter, nothing inherited from the event loop's
threads) with what the seat may see and nothing else: the seat's view, its prompt, the level and a seed. The
player itself (which may carry its game's data) goes to each worker once and stays there, so only the first
decision pays for loading it.

Its budget is the player's own, counted in engine steps, so a decision is the same on any machine; the wall
clock is only a guard (:data:`GUARD_SECONDS`): a decision that overruns it is abandoned, its worker stopped and
replaced, and :func:`fallback` answers the prompt instead, a choice that ends the seat's turn or passes.

:func:`decision_seed` derives the player's seed from the game's secret seed, its seat, its level and how many
actions the game has seen, so the same game seed and level give the same decisions, and the hash never lets
the player read the game's dice.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engine.contract import Action, ComputerDecision, ComputerPlayer, Prompt

logger = logging.getLogger("bot.service.thinking")

GUARD_SECONDS = 60.0
"""The longest one decision may take on the wall clock before it is cut short (its budget is in engine steps)."""

PASSING_VERBS = ("pass", "end_activation", "end_support", "end_turn", "decline", "done")
"""Verbs that end or pass a seat's decision, preferred by :func:`fallback`."""


def decision_seed(game_seed: str, seat: str, level: str, actions: int) -> bytes:
    """The seed of one decision: a hash of the game's secret seed (hex), the seat, the level and the number of
    live actions the game has seen, so a replay of the same game gets the same decisions."""
    text = f"umpire-computer|{game_seed}|{seat}|{level}|{actions}"
    return hashlib.sha256(text.encode()).digest()


def fallback(prompt: Prompt) -> ComputerDecision | None:
    """A legal answer when the computer's own decision is missing or refused: a choice that passes or ends the
    decision, else the first choice; ``None`` for an optional prompt (a chance to react is declined) or a prompt
    that lists no choice."""
    if prompt.optional or not prompt.choices:
        return None
    choice = next((c for c in prompt.choices if c.verb in PASSING_VERBS), prompt.choices[0])
    return ComputerDecision(Action(prompt.seat, choice.verb, dict(choice.args)), "", 0)


_PLAYERS: dict[str, ComputerPlayer] = {}
"""In a worker process: the computer players it was sent, by key (a player may carry its game's data: it is sent
once per worker, not with every decision)."""


class UnknownPlayerError(LookupError):
    """The worker has not been sent this player yet (a new worker): the decision is sent again with it."""


def _decide(
    key: str, pickled: bytes | None, view: Any, prompt: Prompt, level: str, seed: bytes
) -> ComputerDecision:
    """Run in the worker process: the decision of the player ``key`` (unpickled from ``pickled`` the first time)."""
    player = _PLAYERS.get(key)
    if player is None:
        if pickled is None:
            raise UnknownPlayerError(key)
        player = _PLAYERS[key] = pickle.loads(pickled)
    return player.decide(view, prompt, level, seed)


class ThinkingPool:
    """Worker processes for the computer's decisions (``processes`` of them; ``0`` decides in a worker thread of
    the bot's own process, for a host with one core to spare, at the price of slower answers meanwhile)."""

    def __init__(self, processes: int = 1, guard_seconds: float = GUARD_SECONDS) -> None:
        self.processes = processes
        self.guard_seconds = guard_seconds
        self._executor: ProcessPoolExecutor | None = None
        self._pickled: dict[str, bytes] = {}

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(max_workers=self.processes, mp_context=context)
        return self._executor

    async def decide(
        self, player: ComputerPlayer, view: Any, prompt: Prompt, level: str, seed: bytes
    ) -> ComputerDecision | None:
        """The player's decision for ``prompt``, or ``None`` when it overran the wall-clock guard or failed
        (logged; the caller then uses :func:`fallback`)."""
        try:
            if self.processes <= 0:
                work = asyncio.to_thread(player.decide, view, prompt, level, seed)
                return await asyncio.wait_for(work, self.guard_seconds)
            return await asyncio.wait_for(self._in_worker(player, view, prompt, level, seed), self.guard_seconds)
        except TimeoutError:
            logger.warning("a computer decision overran %.0f s and was cut short", self.guard_seconds)
            self._stop_workers()
        except Exception:
            logger.exception("a computer decision failed")
            if self._executor is not None and getattr(self._executor, "_broken", False):
                self._stop_workers()
        return None

    async def _in_worker(
        self, player: ComputerPlayer, view: Any, prompt: Prompt, level: str, seed: bytes
    ) -> ComputerDecision:
        """The decision in a worker process, the player sent along only when that worker does not have it yet."""
        key = f"{type(player).__module__}.{type(player).__qualname__}#{id(player)}"
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), _decide, key, None, view, prompt, level, seed)
        except UnknownPlayerError:
            if key not in self._pickled:  # pickled once (off the event loop: it may carry a game's data)
                self._pickled[key] = await asyncio.to_thread(pickle.dumps, player)
            pickled = self._pickled[key]
            return await loop.run_in_executor(self._pool(), _decide, key, pickled, view, prompt, level, seed)

    def _stop_workers(self) -> None:
        """Stop the worker processes now (a decision still running is abandoned); the next decision starts anew."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        processes = list(getattr(executor, "_processes", {}).values())  # no public way to stop a running task
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()

    def close(self) -> None:
        """Stop the worker processes (a decision being made is abandoned: it would be discarded anyway)."""
        self._stop_workers()

    async def aclose(self) -> None:
        """:meth:`close` from the event loop."""
        self.close()
