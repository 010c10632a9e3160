"""Pixel geometry of a map at one zoom: hex centres, corners, hexsides and the counter box.

Everything else in the renderer asks this module where things are, so a hex is in the same place on
every layer. Coordinates are in the map's own pixel space (the base layer image), with ``PADDING``
around the hexes for the board-edge bands.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from engine.hexgrid import Grid, Hex, make_hex

HEX_SIZE = 50.0
"""Corner-to-centre radius of a hex at zoom 1, in pixels."""

Point = tuple[float, float]


@dataclass(frozen=True)
class Layout:
    """Where the hexes of one grid are drawn at one zoom."""

    grid: Grid
    zoom: float = 1.0
    origin: tuple[int, int] = (0, 0)
    """The map pixel drawn at (0, 0): a part of the map drawn on its own image (a band of the base layer)."""

    def __post_init__(self) -> None:
        if self.zoom <= 0:
            raise ValueError(f"zoom must be positive, not {self.zoom!r}")

    @property
    def size(self) -> float:
        """Corner-to-centre radius of a hex, in pixels."""
        return HEX_SIZE * self.zoom

    @property
    def height(self) -> float:
        """Flat-side-to-flat-side height of a hex, in pixels."""
        return math.sqrt(3) * self.size

    @property
    def padding(self) -> float:
        """Margin around the hexes, wide enough for the board-edge bands."""
        return round(0.3 * self.size)

    @cached_property
    def pixel_size(self) -> tuple[int, int]:
        """Width and height of the map image."""
        xs = [self.grid.center(h, self.size)[0] for h in self.grid.hexes]
        ys = [self.grid.center(h, self.size)[1] for h in self.grid.hexes]
        width = max(xs) + self.size + 2 * self.padding
        height = max(ys) + self.height / 2 + 2 * self.padding
        return math.ceil(width), math.ceil(height)

    def center(self, hex_: Hex) -> Point:
        """The pixel centre of a hex."""
        x, y = self.grid.center(hex_, self.size)
        return x + self.padding - self.origin[0], y + self.padding - self.origin[1]

    def corners(self, hex_: Hex, scale: float = 1.0) -> list[Point]:
        """The six corners of a hex, clockwise from the east one; ``scale`` shrinks or grows the hex."""
        cx, cy = self.center(hex_)
        radius = self.size * scale
        return [
            (cx + radius * math.cos(math.radians(60 * k)), cy + radius * math.sin(math.radians(60 * k)))
            for k in range(6)
        ]

    def hexside_points(self, a: Hex, b: Hex) -> tuple[Point, Point]:
        """The two corner points of the side shared by adjacent hexes ``a`` and ``b``.

        The side is perpendicular to the line between the centres, through its midpoint, one hex
        radius long.
        """
        (ax, ay), (bx, by) = self.center(a), self.center(b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy)
        px, py = -dy / length * self.size / 2, dx / length * self.size / 2
        return (mx + px, my + py), (mx - px, my - py)

    def side_neighbour(self, hex_: Hex, side: int) -> Hex | None:
        """The hex across side ``side`` (0-5, the side after corner ``side``), or None off the map."""
        cx, cy = self.center(hex_)
        angle = math.radians(60 * side + 30)
        x = cx + self.height * math.cos(angle) - self.padding + self.origin[0]
        y = cy + self.height * math.sin(angle) - self.padding + self.origin[1]
        col = round((x - self.size) / (1.5 * self.size)) + 1
        if not 1 <= col <= self.grid.columns:
            return None
        shift = self.height / 2 if self.grid.is_lower(col) else 0.0
        row_ = round((y - self.height / 2 - shift) / self.height) + 1
        if row_ < 1:
            return None
        neighbour = make_hex(col, row_)
        return neighbour if self.grid.contains(neighbour) else None

    def outer_sides(self, hex_: Hex) -> list[tuple[Point, Point]]:
        """The sides of a hex that face off the map, as corner pairs."""
        corners = self.corners(hex_)
        return [(corners[k], corners[(k + 1) % 6]) for k in range(6) if self.side_neighbour(hex_, k) is None]

    @property
    def counter_size(self) -> int:
        """Side of a counter square, in pixels."""
        return round(0.635 * self.height)

    def counter_box(self, hex_: Hex) -> tuple[int, int, int, int]:
        """The counter's square in a hex: a little above centre, leaving room for the name below."""
        cx, cy = self.center(hex_)
        side = self.counter_size
        left = round(cx - side / 2)
        top = round(cy - side / 2 - 0.045 * self.height)
        return left, top, left + side, top + side
