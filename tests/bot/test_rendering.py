"""The picture thread is stopped when the bot or the console closes, after finishing the picture it draws."""

from __future__ import annotations

import asyncio
import io
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from bot.service.rendering import Renderer
from bot.transports.console import play
from tests.bot.console_script import SCRIPT
from tests.bot.discord_play import ANN, BOB, CHANNEL, dm_to, open_fake, seated
from tests.bot.doubles import Duel, duel_systems
from tests.bot.fakediscord import posts


def drawing_threads(monkeypatch: pytest.MonkeyPatch) -> list[threading.Thread]:
    """The thread of every Duel picture drawn from now on."""
    threads: list[threading.Thread] = []
    original = Duel.picture

    def spy(self: Duel, *args: Any) -> bytes | None:
        threads.append(threading.current_thread())
        return original(self, *args)

    monkeypatch.setattr(Duel, "picture", spy)
    return threads


async def test_closing_the_renderer_finishes_the_picture_being_drawn_then_stops_its_thread() -> None:
    renderer = Renderer()
    started = threading.Event()

    def slow() -> threading.Thread:
        started.set()
        time.sleep(0.05)
        return threading.current_thread()

    drawing = asyncio.create_task(renderer.draw(slow))
    await asyncio.to_thread(started.wait)
    await renderer.aclose()
    assert drawing.done()
    thread = await drawing
    assert thread.name.startswith("umpire-render") and not thread.is_alive()
    with pytest.raises(RuntimeError):
        await renderer.draw(lambda: None)


async def test_the_console_stops_the_picture_thread_when_it_exits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads = drawing_threads(monkeypatch)
    console = await play(duel_systems(), scenario="standard", script=SCRIPT, out=io.StringIO(), out_dir=tmp_path)
    assert console.pictures_written and threads
    assert all(t.name.startswith("umpire-render") and not t.is_alive() for t in threads)


async def test_the_bot_stops_the_picture_thread_when_it_closes(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    threads = drawing_threads(monkeypatch)
    fake = await open_fake(db_path)
    try:
        start = await seated(fake)
        await fake.click(ANN, dm_to(start, ANN), "2. Bid 2")
        sent = await fake.click(BOB, dm_to(start, BOB), "1. Bid 1")
        sent = await fake.click(ANN, posts(sent, CHANNEL)[-1], "2. End turn")
        assert sent[-1].files == ["map.png"] and threads and threads[0].is_alive()
    finally:
        await fake.stop()
        await fake.bot.service.store.close()
    assert all(not t.is_alive() for t in threads)
