"""A table as a PNG narrow enough for a phone (league standings): a title, a header row, striped rows.

The picture is 640 pixels wide whatever the table; long names are cut to fit their column. It draws only the
strings it is given and decides nothing.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from render.fonts import draw_text, fitting_size, text_width

WIDTH = 640
ROW = 34
MARGIN = 16
INK = (30, 30, 30)
HEADER = (60, 70, 90)
STRIPE = (236, 239, 244)
PAPER = (255, 255, 255)


def table_picture(title: str, header: Sequence[str], rows: Sequence[Sequence[str]], first_width: float = 0.34) -> bytes:
    """The PNG of a table; the second column (names) takes ``first_width`` of the width, the others share
    the rest, right-aligned except the first two."""
    columns = len(header)
    inner = WIDTH - 2 * MARGIN
    narrow = (inner * (1 - first_width) - 40) / max(1, columns - 2)
    widths = [40.0, inner * first_width] + [narrow] * (columns - 2)
    height = MARGIN * 2 + ROW * (len(rows) + 2)
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    size = fitting_size(title, 22, inner)
    draw_text(draw, (MARGIN, MARGIN + ROW / 2), title, size, INK, anchor="lm")
    for index, line in enumerate([list(header), *[list(r) for r in rows]]):
        top = MARGIN + ROW * (index + 1)
        if index == 0:
            draw.rectangle((MARGIN, top, WIDTH - MARGIN, top + ROW), fill=HEADER)
        elif index % 2 == 0:
            draw.rectangle((MARGIN, top, WIDTH - MARGIN, top + ROW), fill=STRIPE)
        x = float(MARGIN)
        for column, (cell, width) in enumerate(zip(line, widths, strict=False)):
            colour = PAPER if index == 0 else INK
            text = _cut(str(cell), 18, width - 8)
            if column < 2:
                draw_text(draw, (x + 4, top + ROW / 2), text, 18, colour, anchor="lm")
            else:
                draw_text(draw, (x + width - 4, top + ROW / 2), text, 18, colour, anchor="rm")
            x += width
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=True)
    return buffer.getvalue()


def _cut(text: str, size: int, width: float) -> str:
    """``text``, or as much of it as fits in ``width`` followed by an ellipsis."""
    if text_width(text, size) <= width:
        return text
    while len(text) > 1 and text_width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"
