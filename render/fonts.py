"""Fonts and text helpers: fonts that ship with the project, so nothing depends on system fonts.

Text is drawn in Pillow's bundled scalable font (Aileron) when it has every letter, else in DejaVu Sans
Condensed (``render/typefaces``, free to redistribute, its licence beside it), which has the accented letters
of the games' names: Montbéliard and Müller/12 print as the game prints them (issue 33).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
RGB = tuple[int, int, int]


TYPEFACE = Path(__file__).parent / "typefaces" / "DejaVuSansCondensed.ttf"
"""The font of text the default font cannot draw: it covers every Latin letter with its accents."""


@lru_cache(maxsize=64)
def _default(size: int) -> Font:
    return ImageFont.load_default(size=max(6, size))


@lru_cache(maxsize=64)
def _accented(size: int) -> Font:
    return ImageFont.truetype(str(TYPEFACE), size=max(6, size))


def font(size: int, text: str = "") -> Font:
    """The font for ``text`` at ``size`` pixels (at least 6): Pillow's default font (a scalable font since
    Pillow 10.1) when it has every letter of ``text``, else the bundled DejaVu Sans Condensed."""
    if all(has_glyph(char) for char in text):
        return _default(size)
    return _accented(size)


GERMAN_SPELLINGS = {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"}
"""How German writes its letters without diacritics, for the glyphs the bundled font lacks."""


@lru_cache(maxsize=2)
def _missing_glyph(accented: bool) -> bytes:
    return bytes((_accented if accented else _default)(20).getmask("\U0010fffd"))


@lru_cache(maxsize=512)
def has_glyph(char: str) -> bool:
    """Whether Pillow's default font draws ``char`` (it covers little beyond ASCII)."""
    return char.isascii() or bytes(_default(20).getmask(char)) != _missing_glyph(False)


@lru_cache(maxsize=512)
def drawable(char: str) -> bool:
    """Whether one of the fonts draws ``char``: the default one, or DejaVu Sans Condensed."""
    return has_glyph(char) or bytes(_accented(20).getmask(char)) != _missing_glyph(True)


def printable(text: str) -> str:
    """``text`` as the game prints it, but for letters no font here has, spelled without them.

    >>> printable("Müller/12")
    'Müller/12'
    """
    return _spelled(text, drawable)


def ascii_only(text: str) -> str:
    """``text`` with the letters Pillow's default font lacks spelled without them ("Böhm" → "Boehm",
    "Liège" → "Liege"), for a picture that draws in that font alone."""
    return _spelled(text, has_glyph)


def _spelled(text: str, known: Callable[[str], bool]) -> str:
    out = []
    for char in text:
        if known(char):
            out.append(char)
        elif char in GERMAN_SPELLINGS:
            out.append(GERMAN_SPELLINGS[char])
        else:
            base = "".join(c for c in unicodedata.normalize("NFKD", char) if c.isascii())
            out.append(base or "?")
    return "".join(out)


@lru_cache(maxsize=4096)
def text_width(text: str, size: int) -> float:
    """The advance width of ``text`` at ``size`` pixels (kept: the same labels are measured picture after
    picture)."""
    text = printable(text)
    return font(size, text).getlength(text)


def text_box(
    xy: tuple[float, float], text: str, size: int, *, anchor: str = "mm", halo_width: int = 0
) -> tuple[float, float, float, float]:
    """Where :func:`draw_text` would put ink (left, top, right, bottom), a pixel wider each way; nothing drawn."""
    left, top, right, bottom = _ink_box(text, size, anchor, halo_width)
    return xy[0] + left - 1, xy[1] + top - 1, xy[0] + right + 1, xy[1] + bottom + 1


@lru_cache(maxsize=4096)
def _ink_box(text: str, size: int, anchor: str, halo_width: int) -> tuple[float, float, float, float]:
    """The ink of ``text`` round its anchor point."""
    text = printable(text)
    left, top, right, bottom = font(size, text).getbbox(text, anchor=anchor, stroke_width=halo_width)
    return left, top, right, bottom


@lru_cache(maxsize=4096)
def fitting_size(text: str, size: int, width: float, smallest: int = 7) -> int:
    """The largest font size from ``size`` down to ``smallest`` at which ``text`` fits in ``width`` pixels."""
    while size > smallest and text_width(text, size) > width:
        size -= 1
    return size


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    *,
    anchor: str = "mm",
    halo: RGB | None = None,
    halo_width: int = 2,
) -> None:
    """Draw ``text`` anchored at ``xy`` (Pillow anchor codes), optionally with a halo for legibility.

    The same pixels as Pillow's ``ImageDraw.text``, with each text's rendered mask kept (:func:`_mask`): a map's
    labels, chips and badges are the same few texts at the same places picture after picture, and rendering
    them was a third of a whole map's drawing (issue 32).
    """
    text = printable(text)
    face = font(size, text)
    if draw.fontmode != "L" or "\n" in text or not isinstance(face, ImageFont.FreeTypeFont):
        if halo is not None:
            draw.text(xy, text, font=face, fill=fill, anchor=anchor, stroke_width=halo_width, stroke_fill=halo)
        else:
            draw.text(xy, text, font=face, fill=fill, anchor=anchor)
        return
    if halo is not None and halo_width:
        _stamp(draw, xy, face, text, anchor, halo, halo_width)
        if halo == fill:
            return
    _stamp(draw, xy, face, text, anchor, fill, 0)


def _stamp(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], face: ImageFont.FreeTypeFont, text: str, anchor: str,
    ink: RGB, stroke: int,
) -> None:  # fmt: skip
    """One pass of ``ImageDraw.text``: the mask of ``text`` (its outline ``stroke`` wide) blended in ``ink``."""
    start = (math.modf(xy[0])[0], math.modf(xy[1])[0])
    mask, (dx, dy) = _mask(face, text, anchor, stroke, start)
    draw.draw.draw_bitmap((int(xy[0]) + dx, int(xy[1]) + dy), mask, draw.draw.draw_ink(ink))


@lru_cache(maxsize=4096)
def _mask(
    face: ImageFont.FreeTypeFont, text: str, anchor: str, stroke: int, start: tuple[float, float]
) -> tuple[Any, tuple[int, int]]:
    """The anti-aliased mask of ``text`` and where it goes from the anchor point, as ``ImageDraw.text`` renders
    it (a mask depends on the fraction of a pixel the text starts at, hence ``start``)."""
    return face.getmask2(text, "L", None, None, None, stroke, anchor, 0, start, stroke_filled=True)
