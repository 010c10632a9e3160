"""The game record (issue 34, bot/service/record.py, render/record/): what a reader's record holds before and
after the end, that the page fetches nothing, that its pictures keep within their budget and rebuild each frame,
and the commands that make it (`umpire record`, `game record`, the record posted at the end).

What the page's script computes is tested in a real browser (tests/browser)."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from bot.commands.layer import CommandLayer, Context
from bot.commands.replies import draw_picture
from bot.service.game_service import GameService
from bot.service.record import game_record
from bot.store.sqlite import SqliteStore
from bot.transports.cli import main
from render.record import images
from render.record.page import record_page
from tests.bot.conftest import BLUE, CHANNEL, RED, started
from tests.bot.doubles import duel_systems
from tests.bot.verify_games import finished_game


async def test_record_before_the_end_a_player_reads_only_its_own_sealed_bid(service: GameService) -> None:
    await started(service)  # red bids 2, blue 1; the reveal comes only with both bids, which it does
    await service.act(CHANNEL, RED, "roll", {})
    red = await game_record(service, 1, "red")
    spectator = await game_record(service, 1, None)
    assert red.seed is None and spectator.seed is None  # the seed stays secret: the dice checks await it
    texts = [t for e in red.entries for t in e.texts]
    assert "You bid 2." in texts and "You bid 1." not in texts  # red's own sealed bid, never blue's
    assert not any("You bid" in t for e in spectator.entries for t in e.texts)
    assert red.chain is None and spectator.chain is None  # sealed events are hidden: the chain awaits the end
    assert "You bid 1." not in record_page(red)


async def test_record_after_the_end_holds_everything(db_path: Path) -> None:
    await finished_game(db_path)
    store = await SqliteStore.open(db_path)
    try:
        service = GameService(store, duel_systems())
        record = await game_record(service, 1, "red")
        rows = await store.actions(1, include_undone=True)
    finally:
        await store.close()
    assert record.over and record.seed is not None and record.head is not None
    assert record.chain is not None and [r.seq for r in record.chain] == [r.seq for r in rows]
    texts = [t for e in record.entries for t in e.texts]
    assert "You bid 2." in texts and "You bid 1." in texts  # both sealed bids, after the end
    assert record.frames and record.frames[0].seqs == ()  # the set-up, then each picture due
    assert any(c.title == "Dice luck" and c.series for c in record.charts)
    assert any("rules replay" in n for n in record.notes)


async def test_record_page_fetches_nothing(db_path: Path) -> None:
    await finished_game(db_path)
    store = await SqliteStore.open(db_path)
    try:
        page = record_page(await game_record(GameService(store, duel_systems()), 1, None))
    finally:
        await store.close()
    assert "connect-src 'none'" in page and "default-src 'none'" in page
    assert not re.search(r"""(src|href)\s*=\s*["'](?!data:|#)""", page)  # pictures are data: addresses
    assert "<link" not in page and "@import" not in page and "url(" not in page
    assert not re.search(r"https?://", page)


def _frames(count: int, size: tuple[int, int] = (1800, 1200)) -> list[bytes]:
    """A map-like picture with a few counters moving each frame, as PNGs."""
    rng = random.Random(34)
    base = Image.new("RGB", size, (222, 214, 180))
    draw = ImageDraw.Draw(base)
    for _ in range(300):
        x, y = rng.randrange(size[0]), rng.randrange(size[1])
        draw.ellipse((x, y, x + 40, y + 40), fill=(rng.randrange(256), 140, 90))
    found = []
    picture = base
    for _ in range(count):
        picture = picture.copy()
        step = ImageDraw.Draw(picture)
        for _ in range(5):
            x, y = rng.randrange(size[0] - 60), rng.randrange(size[1] - 60)
            step.rectangle((x, y, x + 50, y + 50), fill=(30, 60, rng.randrange(256)), outline=(0, 0, 0))
        out = io.BytesIO()
        picture.save(out, "PNG")
        found.append(out.getvalue())
    return found


def _painted(frames: list[images.CompactFrame]) -> list[Image.Image]:
    """Every frame as the page's script paints it: a key frame whole, then each frame's tiles over the last."""
    shown: list[Image.Image] = []
    canvas: Image.Image | None = None
    for frame in frames:
        if frame.key:
            canvas = Image.open(io.BytesIO(frame.image)).convert("RGB")
        else:
            assert canvas is not None
            canvas = canvas.copy()
            if frame.image:
                sprite = Image.open(io.BytesIO(frame.image)).convert("RGB")
                for index, (x, y, w, h) in enumerate(frame.tiles):
                    row, column = divmod(index, images.SPRITE_COLUMNS)
                    cx, cy = column * images.TILE, row * images.TILE
                    canvas.paste(sprite.crop((cx, cy, cx + w, cy + h)), (x, y))
        shown.append(canvas)
    return shown


def test_record_pictures_each_frame_painted_from_tiles_is_the_frame() -> None:
    pictures = _frames(12)
    compact = images.compact_frames(pictures)
    assert compact[0].key and not any(f.key for f in compact[1:])  # a few counters moved: tiles only
    for shown, png in zip(_painted(compact), pictures, strict=True):
        wanted = images.scaled(png)
        assert shown.size == wanted.size
        error = ImageStat.Stat(ImageChops.difference(shown, wanted).convert("L"))
        assert error.mean[0] < 3 and error.extrema[0][1] < 140  # WebP's loss, never a counter left behind


def test_record_pictures_keep_within_their_budget() -> None:
    pictures = _frames(6)
    budget = sum(len(f.image) for f in images.compact_frames(pictures, 1200)) + 1
    assert sum(len(f.image) for f in images.compact_frames(pictures)) > budget
    squeezed = images.compact_within(pictures, budget=budget)
    assert sum(len(f.image) for f in squeezed) <= budget  # drawn again narrower
    assert images.MIN_WIDTH <= squeezed[0].width < images.MAX_WIDTH


async def test_record_game_record_command_a_player_may_not_have_the_other_sides_view(layer: CommandLayer) -> None:
    await started(layer.service)
    ctx = Context(RED, CHANNEL, 1)
    refused = await layer.run("game record", ctx, {"seat": "blue"})
    assert refused[0].text == "Only the blue player may have that side's record while the game is played."
    [reply] = await layer.run("game record", ctx, {})
    assert "the red side's view" in reply.text and "await the seed's reveal" in reply.text and reply.ephemeral
    drawn = await draw_picture(reply)
    [attached] = drawn.files
    assert attached.name == "game-1-record.html" and b'id="viewer">red<' in attached.data


async def test_record_posted_in_the_channel_when_the_game_ends(service: GameService) -> None:
    layer = CommandLayer(service, "duel", records=True)
    await started(service)
    replies = await layer.run("game resign", Context(BLUE, CHANNEL, 1), {})
    confirm = replies[-1].buttons[0]
    replies = await layer.press(confirm.custom_id, Context(BLUE, CHANNEL, 1))
    [record] = [r for r in replies if r.picture is not None]
    assert record.to == "channel" and record.picture_name == "game-1-record.html"
    page = (await draw_picture(record)).files[0].data
    assert b'id="viewer">spectator<' in page and b"Seed (revealed)" in page


def test_record_umpire_record_writes_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    from bench.bench_verify import stored_game
    from bot.systems import systems

    db = tmp_path / "game.sqlite3"

    async def store_one() -> int:
        store = await SqliteStore.open(db)
        try:
            return await stored_game(store, "ardennes44", 40)
        finally:
            await store.close()

    game = asyncio.run(store_one())
    assert systems()["ardennes44"]
    out = tmp_path / "game.html"
    assert main(["record", str(game), "--db", str(db), "--out", str(out), "--seat", "allied"]) == 0
    page = out.read_text(encoding="utf-8")
    assert "wrote" in capsys.readouterr().out and '<canvas id="map"' in page and "Steps lost per turn" in page
    assert main(["record", str(game), "--db", str(db), "--out", str(out), "--seat", "french"]) == 1
    assert "there is no seat 'french'; the seats are german, allied" in capsys.readouterr().err
