"""Map symbols drawn at a point and a scale, shared by the base map and the legend."""

from __future__ import annotations

import math

from PIL import ImageDraw

from render import palette
from render.layout import Point

RGB = tuple[int, int, int]


def star(draw: ImageDraw.ImageDraw, center: Point, radius: float, fill: RGB, outline: RGB) -> None:
    """A five-pointed star (the Allied entry hex, 16.1)."""
    cx, cy = center
    points = []
    for k in range(10):
        r = radius if k % 2 == 0 else radius * 0.42
        angle = math.radians(-90 + 36 * k)
        points.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    draw.polygon(points, fill=fill, outline=outline, width=max(1, round(radius / 6)))


def cross(draw: ImageDraw.ImageDraw, center: Point, radius: float, fill: RGB, outline: RGB) -> None:
    """A Balkenkreuz-style cross (the German entry hex, 16.1)."""
    cx, cy = center
    arm = radius * 0.34
    border = max(1.0, radius / 5)
    for grow, colour in ((border, outline), (0.0, fill)):
        draw.rectangle((cx - radius - grow, cy - arm - grow, cx + radius + grow, cy + arm + grow), fill=colour)
        draw.rectangle((cx - arm - grow, cy - radius - grow, cx + arm + grow, cy + radius + grow), fill=colour)


def city(draw: ImageDraw.ImageDraw, center: Point, size: float) -> None:
    """A block of buildings filling most of a hex of radius ``size``."""
    cx, cy = center
    unit = size / 10
    # Blocks as (x, y, width, height) in tenths of the hex radius, around the centre.
    blocks = [(-6, -4, 4, 3), (-1, -5, 3, 4), (3, -4, 3, 3), (-6, 0, 3, 4), (-2, 0, 4, 3), (3, 0, 4, 4), (-3, 4, 5, 2)]
    outline = palette.darker(palette.CITY, 0.6)
    for x, y, w, h in blocks:
        draw.rectangle(
            (cx + x * unit, cy + y * unit, cx + (x + w) * unit, cy + (y + h) * unit),
            fill=palette.CITY,
            outline=outline,
            width=max(1, round(unit / 3)),
        )


def village(draw: ImageDraw.ImageDraw, center: Point, size: float) -> None:
    """A few small houses around the centre of a hex of radius ``size``."""
    cx, cy = center
    unit = size / 10
    for x, y in ((-4, -2), (1, -3), (-1, 2), (3, 1)):
        draw.rectangle((cx + x * unit, cy + y * unit, cx + (x + 2) * unit, cy + (y + 2) * unit), fill=palette.VILLAGE)


def dragon_teeth(draw: ImageDraw.ImageDraw, start: Point, end: Point, tooth: float) -> None:
    """A line of dragon's teeth (the Westwall) from ``start`` to ``end``, teeth of side ``tooth``."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    nx, ny = -uy, ux
    count = max(1, int(length // (tooth * 1.6)))
    draw.line((x0, y0, x1, y1), fill=palette.WESTWALL, width=max(1, round(tooth / 4)))
    for k in range(count + 1):
        t = k * length / count
        bx, by = x0 + ux * t, y0 + uy * t
        half = tooth / 2
        points = [
            (bx - ux * half - nx * half * 0.3, by - uy * half - ny * half * 0.3),
            (bx + ux * half - nx * half * 0.3, by + uy * half - ny * half * 0.3),
            (bx + nx * tooth * 0.8, by + ny * tooth * 0.8),
        ]
        draw.polygon(points, fill=palette.WESTWALL)


def tree(draw: ImageDraw.ImageDraw, center: Point, size: float, fill: RGB) -> None:
    """A small round-crowned tree of height ``size``."""
    cx, cy = center
    r = size * 0.36
    draw.rectangle((cx - size * 0.06, cy, cx + size * 0.06, cy + size * 0.5), fill=palette.darker(fill, 0.7))
    draw.ellipse((cx - r, cy - r * 1.3, cx + r, cy + r * 0.5), fill=fill)
