"""Fonts and text helpers: Pillow's bundled scalable font only, so nothing depends on system fonts."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from PIL import ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
RGB = tuple[int, int, int]


@lru_cache(maxsize=64)
def font(size: int) -> Font:
    """Pillow's default font at ``size`` pixels (a scalable font since Pillow 10.1), at least 6 px."""
    return ImageFont.load_default(size=max(6, size))


GERMAN_SPELLINGS = {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"}
"""How German writes its letters without diacritics, for the glyphs the bundled font lacks."""


@lru_cache(maxsize=1)
def _missing_glyph() -> bytes:
    return bytes(font(20).getmask("\U0010fffd"))


@lru_cache(maxsize=512)
def has_glyph(char: str) -> bool:
    """Whether the bundled font draws ``char`` (Pillow's default font covers little beyond ASCII)."""
    return char.isascii() or bytes(font(20).getmask(char)) != _missing_glyph()


def printable(text: str) -> str:
    """``text`` with the letters the bundled font lacks spelled without them ("Böhm" → "Boehm", "Liège" → "Liege").

    >>> printable("Müller/12")
    'Mueller/12'
    """
    out = []
    for char in text:
        if has_glyph(char):
            out.append(char)
        elif char in GERMAN_SPELLINGS:
            out.append(GERMAN_SPELLINGS[char])
        else:
            base = "".join(c for c in unicodedata.normalize("NFKD", char) if c.isascii())
            out.append(base or "?")
    return "".join(out)


def text_width(text: str, size: int) -> float:
    """The advance width of ``text`` at ``size`` pixels."""
    return font(size).getlength(printable(text))


def text_box(
    xy: tuple[float, float], text: str, size: int, *, anchor: str = "mm", halo_width: int = 0
) -> tuple[float, float, float, float]:
    """Where :func:`draw_text` would put ink (left, top, right, bottom), a pixel wider each way; nothing drawn."""
    left, top, right, bottom = font(size).getbbox(printable(text), anchor=anchor, stroke_width=halo_width)
    return xy[0] + left - 1, xy[1] + top - 1, xy[0] + right + 1, xy[1] + bottom + 1


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
    """Draw ``text`` anchored at ``xy`` (Pillow anchor codes), optionally with a halo for legibility."""
    text = printable(text)
    if halo is not None:
        draw.text(xy, text, font=font(size), fill=fill, anchor=anchor, stroke_width=halo_width, stroke_fill=halo)
    else:
        draw.text(xy, text, font=font(size), fill=fill, anchor=anchor)
