"""Map pictures drawn in worker processes (bot/service/picture_pool.py, issue 32): a game's newer picture takes
the place of one still waiting, the newest is always drawn, a dead worker is replaced, the pictures are the
ones the bot's own process draws, and the bot behind the fake Discord still posts them."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.service.config import Settings, default_picture_workers
from bot.service.picture_pool import PictureFailed, PicturePool, PictureRequest, Superseded, request_of
from bot.service.rendering import Renderer
from bot.systems import systems
from engine.contract import IllegalActionError
from tests.bot.discord_ardennes_play import ANN, CHANNEL, prompt_to, to_operations
from tests.bot.doubles import require_ardennes
from tests.bot.fakediscord import bot_behind_fake_discord, posts


class Numbered:
    """A system whose picture is the number in its state: which request was drawn is read off the result.

    ``{"crash": path}`` in a state: the worker drawing it dies, the first time only while ``path`` is missing
    (it is made then), every time when ``path`` is ``""``. ``{"refuse": True}``: the drawing refuses by rule.
    """

    def picture(self, state: dict[str, Any], seat: str | None, events: Sequence[Mapping[str, Any]]) -> bytes:
        crash = state.get("crash")
        if crash is not None and (crash == "" or not os.path.exists(crash)):
            if crash:
                Path(crash).touch()
            os._exit(3)  # a worker that dies in the middle of a picture
        if state.get("refuse"):
            raise IllegalActionError("there is no overlay 'fog'", "6")
        return f"picture {state['n']}".encode()


def numbered(n: int, **more: Any) -> PictureRequest:
    return request_of("numbered", Numbered, {"n": n, **more}, None, [])


def pool(workers: int) -> PicturePool:
    return PicturePool(workers, Renderer(), lambda _system: Numbered())


async def outcome(task: asyncio.Future[bytes | None]) -> bytes | str | None:
    try:
        return await task
    except Superseded:
        return "superseded"


@pytest.mark.parametrize("workers", [1, 0], ids=["worker-process", "own-process"])
async def test_three_quick_pictures_of_a_game_draw_at_most_the_first_and_the_last(workers: int) -> None:
    pictures = pool(workers)
    try:
        tasks = [asyncio.ensure_future(pictures.draw(numbered(n), key=(1, None, "after"))) for n in (1, 2, 3)]
        other = asyncio.ensure_future(pictures.draw(numbered(9), key=(2, None, "after")))
        results = [await outcome(t) for t in tasks]
        assert results[1] == "superseded" and results[2] == b"picture 3"
        assert results[0] in (b"picture 1", "superseded")
        assert await other == b"picture 9"  # another game's picture is its own
        assert pictures.drawn == 1 + (results[0] != "superseded") + 1 and pictures.superseded >= 1
        # A picture asked for without a key (a /map) is never replaced.
        tasks = [asyncio.ensure_future(pictures.draw(numbered(n))) for n in (4, 5, 6)]
        assert [await t for t in tasks] == [b"picture 4", b"picture 5", b"picture 6"]
    finally:
        await pictures.aclose()


async def test_the_newest_picture_of_every_game_is_always_drawn_and_never_an_older_one_after_it() -> None:
    """A property over random interleavings: many games, pictures asked for in bursts, a small queue."""
    for seed in range(20):
        rng = random.Random(seed)
        pictures = PicturePool(0, Renderer(), lambda _system: Numbered(), waiting=3)
        try:
            asked: list[tuple[int, int, asyncio.Future[bytes | None]]] = []
            drawn_order: list[tuple[int, int]] = []
            for n in range(60):
                game = rng.randrange(6)
                task = asyncio.ensure_future(pictures.draw(numbered(n), key=(game, None, "after")))
                task.add_done_callback(
                    lambda t, g=game, k=n, seen=drawn_order: seen.append((g, k)) if not t.exception() else None
                )
                asked.append((game, n, task))
                for _ in range(rng.randrange(3)):
                    await asyncio.sleep(0)
            await asyncio.gather(*(t for _, _, t in asked), return_exceptions=True)
            for game in range(6):
                mine = [(n, t) for g, n, t in asked if g == game]
                if not mine:
                    continue
                last, task = mine[-1]
                assert task.result() == f"picture {last}".encode(), (seed, game)  # the newest, never lost
                order = [n for g, n in drawn_order if g == game]
                assert order == sorted(order), (seed, game)  # never an older picture after a newer one
                for n, t in mine:  # every picture ends drawn (its own) or superseded, nothing else
                    assert t.exception() is None or isinstance(t.exception(), Superseded)
                    assert t.exception() is not None or t.result() == f"picture {n}".encode()
            assert len(pictures) == 0
        finally:
            await pictures.aclose()


async def test_a_worker_that_dies_is_replaced_and_its_picture_tried_once_more(tmp_path: Path) -> None:
    pictures = pool(1)
    try:
        before = await pictures.worker_pids()
        assert len(before) == 1
        # The worker dies while drawing; the picture comes from the new one.
        assert await pictures.draw(numbered(1, crash=str(tmp_path / "died-once"))) == b"picture 1"
        assert pictures.restarts == 1
        after = await pictures.worker_pids()
        assert len(after) == 1 and after != before
        # Killed from outside between pictures: the next picture is drawn all the same.
        os.kill(after[0], signal.SIGKILL)
        assert await pictures.draw(numbered(2)) == b"picture 2"
        assert (await pictures.worker_pids()) not in (before, after)
        # A picture whose worker dies each time is reported, once retried; the pool goes on drawing.
        with pytest.raises(PictureFailed):
            await pictures.draw(numbered(3, crash=""))
        assert await pictures.draw(numbered(4)) == b"picture 4"
    finally:
        await pictures.aclose()


async def test_a_refusal_in_a_worker_comes_back_with_its_rule() -> None:
    pictures = pool(1)
    try:
        with pytest.raises(IllegalActionError) as refused:
            await pictures.draw(numbered(1, refuse=True))
        assert refused.value.rule == "6" and refused.value.reason == "there is no overlay 'fog'"
    finally:
        await pictures.aclose()


async def test_closing_the_pool_ends_the_waiting_pictures_and_stops_the_workers() -> None:
    pictures = pool(1)
    first = asyncio.ensure_future(pictures.draw(numbered(1), key="a"))
    waiting = asyncio.ensure_future(pictures.draw(numbered(2), key="b"))
    await asyncio.sleep(0)
    (pid,) = await pictures.worker_pids()
    await pictures.aclose()
    assert await outcome(first) in (b"picture 1", "superseded") and await outcome(waiting) == "superseded"
    with pytest.raises(ProcessLookupError):
        for _ in range(100):  # the worker has exited (reaped by the pool): no such process
            os.kill(pid, 0)
            await asyncio.sleep(0.05)
    with pytest.raises(RuntimeError):
        await pictures.draw(numbered(3))


def test_the_picture_workers_default_to_one_fewer_than_the_processors() -> None:
    assert [default_picture_workers(n) for n in (1, 2, 4, 16)] == [1, 1, 3, 4]
    assert Settings.from_env({"UMPIRE_PICTURE_WORKERS": "0"}).picture_workers == 0
    assert Settings.from_env({}).picture_workers == default_picture_workers()
    assert Settings(token=None).picture_workers == 0  # settings made in code draw in their own process


async def test_a_worker_draws_the_same_pictures_as_the_bots_own_process() -> None:
    require_ardennes()
    factory = systems()["ardennes44"]
    adapter = factory()
    state = adapter.new_game("initial-assault", {}, b"\x07" * 32)
    asked = [  # close-ups (a whole map takes seconds); the picture after an activation is compared below
        request_of("ardennes44", factory, state, None, [], whole=True, around="2515"),
        request_of("ardennes44", factory, state, "german", [], whole=True, around="2515", overlay="reachable",
                   unit="de-2-pz-cochenhausen"),
    ]  # fmt: skip
    pictures = PicturePool(1, Renderer(), lambda _system: adapter)
    try:
        for request in asked:
            own = adapter.draw(state, request.seat, [], **request.options)
            assert await pictures.draw(request) == own
    finally:
        await pictures.aclose()


async def end_of_activation_map(db_path: Path, picture_workers: int) -> bytes:
    """An activation through the bot behind the fake Discord: the map it posts in the channel at its end."""
    async with bot_behind_fake_discord(db_path, systems(), picture_workers=picture_workers) as fake:
        sent = await to_operations(fake)
        sent = await fake.click(ANN, prompt_to(sent, ANN), "1. Activate XLVII Panzerkorps")
        hexes = await fake.autocomplete(ANN, CHANNEL, "move", "to", units="de-2-pz-cochenhausen", to="")
        await fake.command(ANN, CHANNEL, "move", units="de-2-pz-cochenhausen", to=hexes[0]["value"])
        sent = await fake.command(ANN, CHANNEL, "end-activation")
        picture = next(p for p in posts(sent, CHANNEL) if p.files == ["map.png"])
        assert fake.bot.service.pictures.workers == picture_workers
        return picture.file_data["map.png"]


async def test_the_bot_posts_the_map_after_an_activation_drawn_in_a_worker_process(
    tmp_path: Path, pinned_seed: None
) -> None:
    in_worker = await end_of_activation_map(tmp_path / "workers.sqlite3", 1)
    assert in_worker.startswith(b"\x89PNG")
    assert in_worker == await end_of_activation_map(tmp_path / "own.sqlite3", 0)


@pytest.fixture
def pinned_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.service.game_service

    require_ardennes()
    monkeypatch.setattr(bot.service.game_service, "new_seed", lambda: b"\x07" * 32)
