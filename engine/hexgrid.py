"""The hex grid of the Vae Victis maps: flat-topped hexes in vertical columns, numbered ``CCRR``.

A hex is a plain ``int`` whose decimal digits are its column and row: ``1817`` is column 18, row 17.
Columns run west to east from 01, rows north to south from 01. Every other column sits half a hex
lower; which parity is lower is a property of the map (:class:`Grid`), because the two Vae Victis
maps are drawn that way round differently, or may be.

>>> grid = Grid(columns=34, rows=22, lower_columns="odd")
>>> sorted(grid.neighbours(2813))
[2712, 2713, 2812, 2814, 2912, 2913]
>>> grid.distance(1817, 2101)
17
>>> hex_name(305)
'0305'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

Hex = int
"""A hex number ``CCRR`` held as an int (``1817``)."""

Hexside = tuple[Hex, Hex]
"""The side two adjacent hexes share, as the pair of hexes in ascending order."""

Parity = Literal["odd", "even"]
Edge = Literal["north", "south", "east", "west"]


def column(hex_: Hex) -> int:
    """The column of a hex (``1817`` → ``18``)."""
    return hex_ // 100


def row(hex_: Hex) -> int:
    """The row of a hex (``1817`` → ``17``)."""
    return hex_ % 100


def make_hex(col: int, row_: int) -> Hex:
    """The hex at a column and row."""
    return col * 100 + row_


def hex_name(hex_: Hex) -> str:
    """The four-digit name of a hex, as printed on the map (``305`` → ``"0305"``)."""
    return f"{hex_:04d}"


def parse_hex(text: str) -> Hex:
    """Parse a four-digit hex number such as ``"0305"``.

    :raises ValueError: if the text is not four digits.
    """
    cleaned = text.strip()
    if len(cleaned) != 4 or not cleaned.isdigit():
        raise ValueError(f"{text!r} is not a hex number: hexes are four digits, column then row (e.g. 1817)")
    return int(cleaned)


def hexside(a: Hex, b: Hex) -> Hexside:
    """The hexside between two hexes, normalised so that ``hexside(a, b) == hexside(b, a)``."""
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class Grid:
    """The shape of one map: its size and which columns sit half a hex lower.

    The lower columns lose their last row to the map's bottom edge, so they hold ``rows - 1`` hexes.
    """

    columns: int
    """Number of columns, numbered from 1."""
    rows: int
    """Rows of the higher columns, numbered from 1."""
    lower_columns: Parity = "odd"
    """Which columns sit half a hex lower than their neighbours."""
    _neighbours: dict[Hex, tuple[Hex, ...]] = field(init=False, repr=False, compare=False, default_factory=dict)
    _within: dict[tuple[Hex, int], tuple[Hex, ...]] = field(init=False, repr=False, compare=False, default_factory=dict)
    """:meth:`within`'s answers, kept: the events' reach (15.2) asks for six hexes round every unit each prompt."""

    def __post_init__(self) -> None:
        if not 1 <= self.columns <= 99 or not 1 <= self.rows <= 99:
            raise ValueError(f"a grid has 1-99 columns and rows, not {self.columns} x {self.rows}")
        table = {h: tuple(n for n in self._raw_neighbours(h) if self.contains(n)) for h in self.hexes}
        object.__setattr__(self, "_neighbours", table)

    def is_lower(self, col: int) -> bool:
        """Whether a column sits half a hex lower than its neighbours."""
        return (col % 2 == 1) == (self.lower_columns == "odd")

    def last_row(self, col: int) -> int:
        """The last row of a column."""
        return self.rows - 1 if self.is_lower(col) else self.rows

    def contains(self, hex_: Hex) -> bool:
        """Whether the hex is on the map."""
        col, r = column(hex_), row(hex_)
        return 1 <= col <= self.columns and 1 <= r <= self.last_row(col)

    @cached_property
    def hexes(self) -> tuple[Hex, ...]:
        """Every hex of the map, column by column."""
        return tuple(make_hex(c, r) for c in range(1, self.columns + 1) for r in range(1, self.last_row(c) + 1))

    def _raw_neighbours(self, hex_: Hex) -> Iterator[Hex]:
        col, r = column(hex_), row(hex_)
        side_rows = (r, r + 1) if self.is_lower(col) else (r - 1, r)
        yield make_hex(col, r - 1)
        yield make_hex(col, r + 1)
        for side_col in (col - 1, col + 1):
            if side_col < 1:
                continue
            for side_row in side_rows:
                if side_row >= 1:
                    yield make_hex(side_col, side_row)

    def neighbours(self, hex_: Hex) -> tuple[Hex, ...]:
        """The hexes on the map adjacent to ``hex_`` (fewer than six at the edges).

        :raises KeyError: if ``hex_`` is not on the map.
        """
        return self._neighbours[hex_]

    def are_adjacent(self, a: Hex, b: Hex) -> bool:
        """Whether two hexes share a side."""
        return b in self._neighbours.get(a, ())

    def cube(self, hex_: Hex) -> tuple[int, int, int]:
        """Cube coordinates ``(x, y, z)`` with ``x + y + z == 0``, for distances and lines."""
        col, r = column(hex_), row(hex_)
        # Shift rows so the lower columns line up with their upper neighbours.
        offset = (col + (0 if self.lower_columns == "odd" else 1)) // 2
        x = col
        z = r - offset
        return x, -x - z, z

    def distance(self, a: Hex, b: Hex) -> int:
        """The number of hexes from ``a`` to ``b`` (0 for the same hex)."""
        ax, ay, az = self.cube(a)
        bx, by, bz = self.cube(b)
        return max(abs(ax - bx), abs(ay - by), abs(az - bz))

    def within(self, center: Hex, radius: int) -> list[Hex]:
        """Every hex on the map at distance ``radius`` or less from ``center``, the centre included."""
        known = self._within.get((center, radius))
        if known is None:
            known = self._within[center, radius] = tuple(self._search_within(center, radius))
        return list(known)

    def _search_within(self, center: Hex, radius: int) -> list[Hex]:
        found = [center]
        seen = {center}
        frontier = [center]
        for _ in range(radius):
            next_frontier = []
            for h in frontier:
                for n in self._neighbours[h]:
                    if n not in seen:
                        seen.add(n)
                        found.append(n)
                        next_frontier.append(n)
            frontier = next_frontier
        return found

    def line(self, a: Hex, b: Hex) -> list[Hex]:
        """The hexes a straight line from ``a``'s centre to ``b``'s centre passes through, both ends included.

        Where the line runs exactly along a hexside it is nudged the same way every time, so the
        result is deterministic.
        """
        n = self.distance(a, b)
        if n == 0:
            return [a]
        hexes = self._line(a, b, n, 1e-6)
        if not all(self.contains(h) for h in hexes):
            # Along the map's border the nudge may step off it; the other side of the hexside is on it.
            hexes = self._line(a, b, n, -1e-6)
        return hexes

    def _line(self, a: Hex, b: Hex, n: int, eps: float) -> list[Hex]:
        ax, ay, az = self.cube(a)
        bx, by, bz = self.cube(b)
        return [
            self._cube_round(
                ax + (bx - ax) * i / n + eps, ay + (by - ay) * i / n + eps, az + (bz - az) * i / n - 2 * eps
            )
            for i in range(n + 1)
        ]

    def _cube_round(self, x: float, y: float, z: float) -> Hex:
        rx, ry, rz = round(x), round(y), round(z)
        dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
        if dx > dy and dx > dz:
            rx = -ry - rz
        elif dy > dz:
            ry = -rx - rz
        else:
            rz = -rx - ry
        col = rx
        offset = (col + (0 if self.lower_columns == "odd" else 1)) // 2
        return make_hex(col, rz + offset)

    def hexsides_of(self, hex_: Hex) -> list[Hexside]:
        """The hexsides of a hex that it shares with hexes on the map."""
        return [hexside(hex_, n) for n in self._neighbours[hex_]]

    def edge_hexes(self, edge: Edge, first: int | None = None, last: int | None = None) -> list[Hex]:
        """The hexes along one edge of the map, optionally between two columns (north, south) or rows.

        The north edge is row 1 of every column and the south edge the last row of every column;
        ``first`` and ``last`` bound the columns for those, the rows for east and west.
        """
        if edge in ("north", "south"):
            lo, hi = first or 1, last or self.columns
            if edge == "north":
                return [make_hex(c, 1) for c in range(lo, hi + 1)]
            return [make_hex(c, self.last_row(c)) for c in range(lo, hi + 1)]
        col = 1 if edge == "west" else self.columns
        lo, hi = first or 1, last or self.last_row(col)
        return [make_hex(col, r) for r in range(lo, hi + 1)]

    def is_on_edge(self, hex_: Hex) -> bool:
        """Whether a hex touches the map's border."""
        col, r = column(hex_), row(hex_)
        return col in (1, self.columns) or r == 1 or r == self.last_row(col)

    def center(self, hex_: Hex, size: float = 1.0) -> tuple[float, float]:
        """Pixel centre of a hex whose corner-to-centre radius is ``size``; hex 0101's column at x = size.

        Flat-topped layout: columns are ``1.5 * size`` apart, rows ``sqrt(3) * size``; lower columns
        are shifted down by half a row.
        """
        height = 3**0.5 * size
        col, r = column(hex_), row(hex_)
        x = size + (col - 1) * 1.5 * size
        y = height / 2 + (r - 1) * height + (height / 2 if self.is_lower(col) else 0.0)
        return x, y
