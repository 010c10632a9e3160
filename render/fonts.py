"""Fonts and text helpers: Pillow's bundled scalable font only, so nothing depends on system fonts."""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
RGB = tuple[int, int, int]


@lru_cache(maxsize=64)
def font(size: int) -> Font:
    """Pillow's default font at ``size`` pixels (a scalable font since Pillow 10.1), at least 6 px."""
    return ImageFont.load_default(size=max(6, size))


def text_width(text: str, size: int) -> float:
    """The advance width of ``text`` at ``size`` pixels."""
    return font(size).getlength(text)


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
    if halo is not None:
        draw.text(xy, text, font=font(size), fill=fill, anchor=anchor, stroke_width=halo_width, stroke_fill=halo)
    else:
        draw.text(xy, text, font=font(size), fill=fill, anchor=anchor)
