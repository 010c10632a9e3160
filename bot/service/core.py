"""The core of the game service: the game systems (built once, on first use), one lock per channel, and a
game's state (cached, or the latest snapshot plus the actions after it, replayed through the adapter).

:class:`ServiceCore` is what every part of :class:`bot.service.game_service.GameService` stands on: the reading part
(:mod:`bot.service.reading`), the correspondence part (:mod:`bot.service.correspondence`) and the service itself
(seats, actions, undo).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.service.caches import STATE_MEMORY, ChannelLocks, StateCache
from bot.service.config import Limits
from bot.service.game_types import GameEndListener, Refusal, SystemAdapter, SystemFactory, Table, TimeoutListener
from bot.service.picture_pool import PicturePool
from bot.service.rendering import Renderer
from bot.store.interface import GameStore
from bot.store.records import ActionRow, Clock, GameRow
from engine.contract import Action, Prompt

logger = logging.getLogger("bot.service")

DAY = 86400.0
HOUR = 3600.0


class ServiceCore:
    """Systems, locks and states: the base of :class:`bot.service.game_service.GameService` (see its docstring)."""

    def __init__(
        self,
        store: GameStore,
        systems: Mapping[str, SystemFactory],
        clock: Clock | None = None,
        limits: Limits | None = None,
        state_cache: int = 0,
        state_memory: int = STATE_MEMORY,
        picture_workers: int = 0,
        picture_setup: Callable[[], object] | None = None,
    ):
        self.store = store
        self._factories = dict(systems)
        self._systems: dict[str, SystemAdapter] = {}
        self.locks = ChannelLocks()
        self.limits = limits if limits is not None else Limits(0, 0, 0)
        """The limits on creating games (the bot's come from its settings; none by default)."""
        self._creating = asyncio.Lock()
        self._cache = StateCache(state_cache, state_memory)
        """Each game's latest state: (revision, last action's number, state), within ``state_memory`` bytes (and
        ``state_cache`` games, when not 0)."""
        self._unpinged: dict[int, set[str]] = {}
        """Per game, the seats whose current required prompt was posted without a ping (it came from their own
        action): the next action by another seat pings them, so a simultaneous step never waits unseen."""
        self._reaction_shown: dict[int, set[str]] = {}
        """Per game, the seats whose optional prompt (a chance to react) was posted since the last activation
        closed: it is posted once per window, not again each time it reappears."""
        if clock is not None:
            self.clock = clock
        self.renderer = Renderer()
        """A worker thread that gives way to answers in progress: where the system's other drawings are made
        (and the map pictures, with no picture workers)."""
        self.pictures = PicturePool(picture_workers, self.renderer, self.system, setup=picture_setup)
        """Where map pictures are drawn: ``picture_workers`` worker processes (0: the renderer's thread), each
        set up by ``picture_setup`` as it starts."""
        self.end_listeners: list[GameEndListener] = []
        self.timeout_listeners: list[TimeoutListener] = []
        """Told once when a seat runs out of time and reserve (:data:`bot.service.game_types.TimeoutListener`)."""

    @property
    def clock(self) -> Clock:
        """Now: the store's clock (:data:`bot.store.records.Clock`), one for the store, the service and its
        timers. Given to the service (or set here, as tests do), it becomes the store's."""
        return self.store.clock

    @clock.setter
    def clock(self, clock: Clock) -> None:
        self.store.clock = clock

    async def _ended(self, game: GameRow, how: str) -> None:
        """Tell the listeners of a game's end; one that fails is logged and never undoes the game's change."""
        for listener in self.end_listeners:
            try:
                await listener(game, how)
            except Exception:
                logger.exception("a game-end listener failed for game %s", game.id)

    async def close_pictures(self) -> None:
        """Stop drawing: the picture workers, then the renderer's thread (pictures being drawn are finished)."""
        await self.pictures.aclose()
        await self.renderer.aclose()

    # --- Systems, locks, loading ----------------------------------------------------------------------

    @property
    def system_ids(self) -> tuple[str, ...]:
        """The game systems this service offers."""
        return tuple(self._factories)

    def system(self, system_id: str) -> SystemAdapter:
        """The adapter of a system (built once).

        :raises Refusal: for an unknown system.
        """
        if system_id not in self._factories:
            raise Refusal(f"there is no game system {system_id!r}; choose one of {', '.join(self._factories)}")
        if system_id not in self._systems:
            try:
                self._systems[system_id] = self._factories[system_id]()
            except ImportError as error:
                raise Refusal(f"the game system {system_id!r} is not installed on this bot ({error})") from None
        return self._systems[system_id]

    def lock(self, channel: int) -> asyncio.Lock:
        """The lock of a channel's game."""
        return self.locks.get(channel)

    async def table(self, channel: int, live: bool = True) -> Table:
        """The game of a channel with its seats.

        :raises Refusal: if the channel has no (live) game.
        """
        game = await (self.store.live_game_in(channel) if live else self.store.latest_game_in(channel))
        if game is None:
            raise Refusal("there is no game in this channel; create one with `game create`")
        return Table(game, await self.store.seats(game.id))

    async def state(self, game: GameRow) -> Any:
        """The current state of a game: the latest snapshot plus the actions after it (read alone), replayed."""
        cached = self._cache.get(game.id)
        if cached is not None and cached[0] == game.revision:
            return cached[2]  # every change of a game bumps its revision: no need to read its log
        if cached is not None and cached[1] == await self.store.last_seq(game.id):
            self._cache[game.id] = (game.revision, cached[1], cached[2])
            return cached[2]
        snapshot = await self.store.latest_snapshot(game.id)
        actions = await self.store.actions(game.id, after=snapshot[0] if snapshot else 0)
        last = actions[-1].seq if actions else (snapshot[0] if snapshot else 0)
        system = self.system(game.system)
        state = await asyncio.to_thread(self._replay, system, game, actions, snapshot)
        self._cache[game.id] = (game.revision, last, state)
        return state

    @staticmethod
    def _replay(
        system: SystemAdapter, game: GameRow, actions: Sequence[ActionRow], snapshot: tuple[int, Any] | None
    ) -> Any:
        """The state after ``actions``, which follow the ``snapshot`` (or the setup when there is none)."""
        if snapshot is not None:
            state = system.state_from_json(snapshot[1])
        else:
            state = system.new_game(game.scenario, game.options, bytes.fromhex(game.seed))
        for row in actions:
            state, _ = system.apply(state, Action(row.seat, row.verb, row.args))
        return state

    async def prompts(self, game: GameRow) -> dict[str, Prompt]:
        """What each seat must or may decide now (nothing unless the game is being played)."""
        if game.status != "active":
            return {}
        return await self._prompts_of(game, await self.state(game))

    async def _prompts_of(self, game: GameRow, state: Any) -> dict[str, Prompt]:
        """The prompts of a game's state, worked out once per state while it stays cached."""
        prompts = self._cache.prompts_of(game.id, state)
        if prompts is None:
            prompts = await asyncio.to_thread(self.system(game.system).prompts, state)
            self._cache.keep_prompts(game.id, state, prompts)
        return prompts
