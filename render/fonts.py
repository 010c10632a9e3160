"""Fonts and text helpers: fonts that ship with the project, so nothing depends on system fonts.

Text is drawn in Pillow's bundled scalable font (Aileron) when it has every letter, else in DejaVu Sans
Condensed (``render/typefaces``, free to redistribute, its licence beside it), which has the accented letters
of the games' names: Montbéliard and Müller/12 print as the game prints them (issue 33).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

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


def text_width(text: str, size: int) -> float:
    """The advance width of ``text`` at ``size`` pixels."""
    text = printable(text)
    return font(size, text).getlength(text)


def text_box(
    xy: tuple[float, float], text: str, size: int, *, anchor: str = "mm", halo_width: int = 0
) -> tuple[float, float, float, float]:
    """Where :func:`draw_text` would put ink (left, top, right, bottom), a pixel wider each way; nothing drawn."""
    text = printable(text)
    left, top, right, bottom = font(size, text).getbbox(text, anchor=anchor, stroke_width=halo_width)
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
        draw.text(xy, text, font=font(size, text), fill=fill, anchor=anchor, stroke_width=halo_width, stroke_fill=halo)
    else:
        draw.text(xy, text, font=font(size, text), fill=fill, anchor=anchor)
