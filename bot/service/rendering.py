"""A worker thread for drawings, after the answers being worked on.

A picture never delays an answer. The transport sends every answer first and only then asks for the picture
(:class:`bot.commands.layer.PictureJob`). The map pictures are drawn in worker processes
(:mod:`bot.service.picture_pool`); this thread draws what a room draws itself (the Wargame Commander's plan
sheets) and, when the bot has no picture workers (the tests, the console), the map pictures too. It starts a
drawing only when no answer is being worked on (or after :data:`MAX_WAIT` seconds), so a burst of interactions
is answered before the drawings it causes: in one process, a drawing's Python part holds the interpreter's lock.
Why worker processes now: docs/performance.md ("Pictures in worker processes").
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

MAX_WAIT = 3.0
"""The longest a picture waits for the answers in progress, in seconds (a steady stream never starves it)."""


class Renderer:
    """Draws pictures one at a time in a worker thread, giving way to the answers in progress."""

    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="umpire-render")
        self._answering = 0
        self._idle: asyncio.Event | None = None

    def _idle_event(self) -> asyncio.Event:
        if self._idle is None:
            self._idle = asyncio.Event()
            self._idle.set()
        return self._idle

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        """Mark an answer in progress: pictures wait until none is."""
        idle = self._idle_event()
        self._answering += 1
        idle.clear()
        try:
            yield
        finally:
            self._answering -= 1
            if self._answering == 0:
                idle.set()

    async def draw(self, work: Callable[[], T]) -> T:
        """Run ``work`` (a drawing) in the worker thread once no answer is in progress."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle_event().wait(), MAX_WAIT)
        return await asyncio.get_running_loop().run_in_executor(self._executor, work)

    def close(self) -> None:
        """Stop the worker thread (pictures already asked for are finished first)."""
        self._executor.shutdown(wait=True)

    async def aclose(self) -> None:
        """:meth:`close` from the event loop, waiting for a picture being drawn in another thread."""
        await asyncio.to_thread(self.close)
