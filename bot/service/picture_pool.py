"""Where map pictures are drawn: a pool of worker processes for pictures only, fed by a bounded queue in which
a game's newer picture takes the place of the one still waiting.

A picture is asked for as a :class:`PictureRequest` (what to draw: the system, the state, the seat, the events,
an overlay or close-up), which crosses to a worker process by pickle; the worker builds the system's adapter
once (from the same factory the service uses) and draws there, so quantizing and PNG encoding, most of a
picture's work, run beside the bot's process instead of in it.

- **Coalescing.** A request may carry a *key* (the service gives the picture posted after an activation the
  key of its game and view): while it waits, a newer request with the same key takes its place in the queue,
  and the older one ends with :class:`Superseded` (never drawn late). A picture already being drawn is
  finished. So three quick activations in one game draw at most the first and the last, and the newest is
  always drawn.
- **Bounded.** At most ``workers`` pictures are handed to the workers at a time (the rest wait here, where a
  newer one can still replace them) and at most :data:`WAITING` wait in the queue; a request of another key
  beyond that waits for room (it is still replaced by a newer one of its key meanwhile).
- **Crashes.** A worker that dies (killed, out of memory) is replaced by a new pool; each picture it was
  drawing or holding is tried once more there, and a second failure ends it with :class:`PictureFailed`.
- **Priority.** The workers run at a lower scheduling priority (:data:`NICENESS`), so on a busy machine the
  bot's answers keep the processor first.

With ``workers=0`` the pictures are drawn in the bot's own process, in :class:`bot.service.rendering.Renderer`'s
thread (the tests and the console): the same queue, the same coalescing, the same pictures.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from bot.service.rendering import Renderer
from engine.contract import RulesError

logger = logging.getLogger("bot.service.pictures")

WAITING = 64
"""The most pictures waiting in the queue (at most one per game and view, by coalescing)."""
NICENESS = 5
"""How much lower the workers' scheduling priority is than the bot's (``os.nice``)."""


class Superseded(Exception):
    """A newer picture of the same game and view took this one's place before it was drawn."""


class PictureFailed(Exception):
    """The picture could not be drawn: the worker drawing it died, and so did the one that tried again."""


@dataclass(frozen=True)
class PictureRequest:
    """What to draw, decided when it is asked for: everything here crosses to a worker process."""

    system: str
    """The game system's id (the worker builds its adapter once per id)."""
    factory: Callable[[], Any]
    """The system's adapter factory (:data:`bot.service.game_types.SystemFactory`, picklable)."""
    state: Any
    seat: str | None
    events: tuple[Mapping[str, Any], ...]
    whole: bool = False
    """``SystemAdapter.draw`` (the whole map, or an overlay or close-up asked for) rather than ``picture``
    (what changed)."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """``draw``'s keyword arguments: ``overlay``, ``unit``, ``around``."""


def draw_request(request: PictureRequest, adapter: Any) -> bytes | None:
    """The PNG of ``request`` drawn by ``adapter`` (``None``: the system draws no picture)."""
    if request.whole:
        png: bytes | None = adapter.draw(request.state, request.seat, list(request.events), **request.options)
    else:
        png = adapter.picture(request.state, request.seat, list(request.events))
    return None if png is None else bytes(png)


@dataclass(frozen=True)
class _Refused:
    """A :class:`RulesError` raised in a worker, carried back whole (its reason and rule number)."""

    kind: type[RulesError]
    reason: str
    rule: str | None


_ADAPTERS: dict[str, Any] = {}
"""In a worker process: each system's adapter, built on its first picture."""


def _start_worker(niceness: int, setup: Callable[[], object] | None) -> None:
    """A worker's start: a lower priority, Ctrl-C left to the bot (which shuts the pool down), then ``setup``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if niceness:
        os.nice(niceness)
    if setup is not None:
        setup()


def _draw_in_worker(request: PictureRequest) -> bytes | _Refused | None:
    """In a worker process: draw ``request`` with the system's adapter (built once per process)."""
    adapter = _ADAPTERS.get(request.system)
    if adapter is None:
        adapter = _ADAPTERS[request.system] = request.factory()
    try:
        return draw_request(request, adapter)
    except RulesError as error:  # its constructor takes the rule apart: pickled as is, the rule would be lost
        return _Refused(type(error), error.reason, error.rule)


def _worker_pid() -> int:
    return os.getpid()


@dataclass
class _Job:
    request: PictureRequest
    done: asyncio.Future[bytes | None]
    tries: int = 0


class PicturePool:
    """Draws map pictures in ``workers`` worker processes (0: in the renderer's thread), newest first per key.

    :param adapters: the service's adapter of a system by id (used only to draw in the bot's own process).
    :param setup: run in each worker as it starts (picklable: a module's function), as the bot sets its process
        up (the C allocator's settings, :func:`bot.transports.allocator.tune_allocator`).
    """

    def __init__(
        self,
        workers: int,
        renderer: Renderer,
        adapters: Callable[[str], Any],
        *,
        waiting: int = WAITING,
        niceness: int = NICENESS,
        setup: Callable[[], object] | None = None,
    ) -> None:
        self.workers = max(0, workers)
        self.waiting = max(1, waiting)
        self._renderer = renderer
        self._adapters = adapters
        self._niceness = niceness
        self._setup = setup
        self._executor: ProcessPoolExecutor | None = None
        self._queued: OrderedDict[Hashable, _Job] = OrderedDict()
        self._overflow: OrderedDict[Hashable, _Job] = OrderedDict()
        """Requests of new keys while the queue is full, in order (replaced by a newer one of their key too)."""
        self._drawing = 0
        self._tasks: set[asyncio.Task[None]] = set()
        """The drawings under way (held here: the event loop keeps only weak references to its tasks)."""
        self._closed = False
        self.drawn = 0
        """Pictures drawn so far."""
        self.superseded = 0
        """Pictures dropped because a newer one of the same key took their place."""
        self.restarts = 0
        """How many times a dead worker was replaced."""

    def __len__(self) -> int:
        """Pictures waiting (not yet handed to a worker)."""
        return len(self._queued) + len(self._overflow)

    async def draw(self, request: PictureRequest, key: Hashable | None = None) -> bytes | None:
        """The PNG of ``request`` (``None``: the system draws none), once a worker has drawn it.

        :param key: requests with the same key supersede each other while they wait (``None``: never).
        :raises Superseded: when a newer request of ``key`` took this one's place before it was drawn.
        :raises PictureFailed: when the workers drawing it died twice.
        :raises RulesError: what the drawing refused (an unknown overlay, a hex off the map).
        """
        if self._closed:
            raise RuntimeError("the picture pool is closed")
        job = _Job(request, asyncio.get_running_loop().create_future())
        self._enqueue(object() if key is None else key, job)
        self._dispatch()
        return await job.done

    def _enqueue(self, key: Hashable, job: _Job) -> None:
        for queue in (self._queued, self._overflow):
            older = queue.get(key)
            if older is not None:
                queue[key] = job  # the newer request keeps the older one's place in line
                self.superseded += 1
                if not older.done.done():
                    older.done.set_exception(Superseded())
                    older.done.exception()  # retrieved here: nobody may be awaiting it any more
                return
        (self._queued if len(self._queued) < self.waiting else self._overflow)[key] = job

    def _dispatch(self) -> None:
        """Hand waiting pictures to free workers, oldest first; move overflow into the queue as it frees."""
        while self._overflow and len(self._queued) < self.waiting:
            key, job = self._overflow.popitem(last=False)
            self._queued[key] = job
        while self._queued and self._drawing < max(1, self.workers):
            _, job = self._queued.popitem(last=False)
            if job.done.done():  # nobody awaits it any more (cancelled): not drawn
                continue
            self._drawing += 1
            task = asyncio.get_running_loop().create_task(self._run(job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, job: _Job) -> None:
        try:
            png = await (self._in_process(job) if self.workers else self._in_thread(job))
        except BaseException as error:  # every failure goes to whoever awaits the picture
            if not job.done.done():
                job.done.set_exception(error)
        else:
            self.drawn += 1
            if not job.done.done():
                job.done.set_result(png)
        finally:
            self._drawing -= 1
            if not self._closed:
                self._dispatch()

    async def _in_thread(self, job: _Job) -> bytes | None:
        adapter = self._adapters(job.request.system)
        return await self._renderer.draw(partial(draw_request, job.request, adapter))

    async def _in_process(self, job: _Job) -> bytes | None:
        while True:
            executor = self._pool()
            job.tries += 1
            try:
                future: Future[bytes | _Refused | None] = executor.submit(_draw_in_worker, job.request)
                result = await asyncio.wrap_future(future)
            except BrokenProcessPool:
                self._replace(executor)
                if job.tries >= 2:
                    raise PictureFailed("the worker drawing this picture stopped twice") from None
                logger.warning("a picture worker stopped; trying the picture again in a new one")
                continue
            if isinstance(result, _Refused):
                raise result.kind(result.reason, result.rule)
            return result

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(self._niceness, self._setup),
            )
        return self._executor

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """Drop a pool whose worker died (its other workers stop with it); the next picture starts a new one."""
        if self._executor is broken:
            self._executor = None
            self.restarts += 1
            broken.shutdown(wait=False, cancel_futures=True)

    def running(self) -> list[int]:
        """The process ids of the workers running now (none before the first picture)."""
        executor = self._executor
        processes = getattr(executor, "_processes", None) or {}
        return sorted(p.pid for p in list(processes.values()) if p.pid is not None)

    async def worker_pids(self) -> list[int]:
        """The process ids of the workers (started if need be), for the bench's memory and the tests."""
        if not self.workers:
            return []
        executor = self._pool()
        for _ in range(self.workers):  # each task starts a worker if fewer are running
            await asyncio.wrap_future(executor.submit(_worker_pid))
        return self.running()

    async def aclose(self) -> None:
        """Stop taking pictures; those waiting end as :class:`Superseded`; the workers finish the ones being
        drawn and stop."""
        self._closed = True
        for queue in (self._queued, self._overflow):
            for job in queue.values():
                if not job.done.done():
                    job.done.set_exception(Superseded())
                    job.done.exception()
            queue.clear()
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True)


def picture_key(game: int, seat: str | None, kind: str) -> Hashable:
    """The coalescing key of a game's picture as ``seat`` sees it (``kind``: which picture of the game)."""
    return (game, seat, kind)


def request_of(
    system: str,
    factory: Callable[[], Any],
    state: Any,
    seat: str | None,
    events: Sequence[Mapping[str, Any]],
    *,
    whole: bool = False,
    **options: Any,
) -> PictureRequest:
    """A :class:`PictureRequest` with the events copied (they cross to another process as they are now)."""
    return PictureRequest(system, factory, state, seat, tuple(dict(e) for e in events), whole, dict(options))
