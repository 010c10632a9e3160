"""The record's pictures made compact: every frame scaled to at most :data:`MAX_WIDTH` pixels, then kept as the
tiles that changed since the frame before, packed into one WebP picture per frame.

Between two activations most of the map stays as it was (its terrain, the counters that did not move), so a
frame is a handful of tiles: the page paints a key frame whole and lays each later frame's tiles over it. A key
frame (the first, one whose size differs, one where most tiles changed, and one every :data:`KEY_EVERY` frames,
so that a jump back repaints a bounded number of frames) is kept whole. Tiles are kept exactly as the frame
shows them (never as differences), so lossy compression never accumulates from frame to frame.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageChops

MAX_WIDTH = 1600
"""The widest a record's picture is, in pixels: the whole Ardennes map (2,905 pixels drawn) at 0.55, where
counters' values still read on a laptop's screen and a whole Entire Battle stays within :data:`BUDGET`."""
TILE = 32
"""The side of a tile in pixels (a multiple of WebP's 16-pixel blocks, so tiles barely bleed into each other): a
counter that moved changes a few tiles this size, and 32 keeps 40% fewer bytes than 64 on an Entire Battle."""
QUALITY = 50
"""WebP quality of the pictures: the counters' values and the place names still read, a frame's tiles a few KiB
(quality 60 costs 10% more bytes for no difference a reader sees at this size)."""
KEY_EVERY = 100
"""At most this many frames from one key frame to the next."""
KEY_SHARE = 0.5
"""A frame where more than this share of the tiles changed is kept whole."""
SPRITE_COLUMNS = 32
"""Tiles per row of a frame's packed picture."""
CHANGE = 24
"""A pixel counts as changed when its grey level moves by more than this: each map PNG has its own 256-colour
palette, so a colour nobody touched can shift by a few levels from one frame to the next."""


@dataclass(frozen=True)
class CompactFrame:
    """One frame as the page paints it: a whole picture (``key``), or tiles laid over the frame before, each
    ``(x, y, width, height)`` on the map and taken in order from the packed picture, :data:`TILE` pixels per cell,
    :data:`SPRITE_COLUMNS` cells a row."""

    key: bool
    width: int
    height: int
    image: bytes
    """WebP: the whole frame, or its changed tiles packed (empty when nothing changed)."""
    tiles: tuple[tuple[int, int, int, int], ...] = ()


def webp(picture: Image.Image, quality: int | None = None) -> bytes:
    """A picture as WebP bytes (at :data:`QUALITY` unless told)."""
    out = io.BytesIO()
    picture.save(out, "WEBP", quality=QUALITY if quality is None else quality, method=4)
    return out.getvalue()


def scaled(png: bytes, max_width: int = MAX_WIDTH) -> Image.Image:
    """A picture (PNG or any format Pillow reads) in RGB, no wider than ``max_width``."""
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    if picture.width > max_width:
        height = round(picture.height * max_width / picture.width)
        picture = picture.resize((max_width, height), Image.Resampling.LANCZOS)
    return picture


def changed_tiles(before: Image.Image, after: Image.Image) -> list[tuple[int, int, int, int]]:
    """The tiles (x, y, width, height) where two pictures of the same size differ."""
    difference = ImageChops.difference(before, after).convert("L").point(lambda level: 255 if level > CHANGE else 0)
    found = []
    for y in range(0, after.height, TILE):
        for x in range(0, after.width, TILE):
            box = (x, y, min(x + TILE, after.width), min(y + TILE, after.height))
            if difference.crop(box).getbbox() is not None:
                found.append((x, y, box[2] - x, box[3] - y))
    return found


BUDGET = 4 * 1024 * 1024
"""The most bytes a record's pictures take: a record that would exceed it is drawn again narrower."""
MIN_WIDTH = 800
"""The narrowest a record's pictures get to keep within :data:`BUDGET` (a game longer than any bundled one)."""


def compact_within(pictures: Sequence[bytes], budget: int = BUDGET) -> list[CompactFrame]:
    """:func:`compact_frames` at :data:`MAX_WIDTH`, or narrower where that would exceed ``budget`` bytes (the
    bytes of a WebP picture go roughly with its area, so the width shrinks with the square root of the excess)."""
    width = MAX_WIDTH
    while True:
        frames = compact_frames(pictures, width)
        size = sum(len(f.image) for f in frames)
        if size <= budget or width <= MIN_WIDTH:
            return frames
        width = max(MIN_WIDTH, int(width * (budget / size) ** 0.5 * 0.95))


def compact_frames(pictures: Sequence[bytes], max_width: int = MAX_WIDTH) -> list[CompactFrame]:
    """Every picture as the page paints it (see the module docstring), in order."""
    frames: list[CompactFrame] = []
    previous: Image.Image | None = None
    since_key = 0
    for png in pictures:
        picture = scaled(png, max_width)
        tiles = changed_tiles(previous, picture) if previous is not None and previous.size == picture.size else None
        total = -(-picture.width // TILE) * -(-picture.height // TILE)
        if tiles is None or since_key >= KEY_EVERY or len(tiles) > KEY_SHARE * total:
            frames.append(CompactFrame(True, picture.width, picture.height, webp(picture)))
            since_key = 0
        else:
            frames.append(CompactFrame(False, picture.width, picture.height, _packed(picture, tiles), tuple(tiles)))
            since_key += 1
        previous = picture
    return frames


def _packed(picture: Image.Image, tiles: Sequence[tuple[int, int, int, int]]) -> bytes:
    if not tiles:
        return b""
    columns = min(len(tiles), SPRITE_COLUMNS)
    rows = -(-len(tiles) // SPRITE_COLUMNS)
    sprite = Image.new("RGB", (columns * TILE, rows * TILE), (255, 255, 255))
    for index, (x, y, width, height) in enumerate(tiles):
        cell = ((index % SPRITE_COLUMNS) * TILE, (index // SPRITE_COLUMNS) * TILE)
        sprite.paste(picture.crop((x, y, x + width, y + height)), cell)
    return webp(sprite)
