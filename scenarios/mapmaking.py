"""The toolkit the map builders share: a game's real geography (latitude, longitude) laid on its hex grid.

Each Vae Victis game rebuilds its ``map.toml`` from a file of real geography (``scenarios/<game>/geography/``):
its ``build_map.py`` fits the grid to the ground, then uses what is here to bend the geography round the hexes
the rules print, give each hex its terrain, place towns, find the hexsides rivers cross, lay roads hex by hex,
and walk the map. Hexes are :mod:`engine.hexgrid`'s, the same the rules read; the methods are described in
``docs/rules/ardennes44-map.md`` and ``docs/rules/alsace44-map.md``.
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TypeAlias

from engine.hexgrid import Grid, Hex, Hexside, column, hex_name, hexside, make_hex, parse_hex, row

LatLon: TypeAlias = tuple[float, float]
"""A point on the ground: (latitude, longitude) in decimal degrees."""
GridXY: TypeAlias = tuple[float, float]
"""A point in the grid's plane: one unit is one column (x) or one row (y)."""
Polyline: TypeAlias = list[LatLon]
Polygon: TypeAlias = list[LatLon]
Point: TypeAlias = LatLon | str
"""A point of the geography: (lat, lon), or a hex number (``"3103"``) meaning that hex's centre."""
Waypoint: TypeAlias = str | LatLon
"""A road's waypoint: a hex number, a settlement's name, or a point."""
Anchor: TypeAlias = tuple[str, float, float, str]
"""(name, lat, lon, hex number): a town pinned to the hex the rules print for it."""
Dropped: TypeAlias = tuple[str, str]
"""(name, why) of a settlement or locality left off the map."""
PlacedTown: TypeAlias = tuple[str, Hex, str]
"""(name, hex, kind) of a settlement placed on the map."""


# --- Plane geometry ---------------------------------------------------------------------------------------


def _orient(a: LatLon, b: LatLon, c: LatLon) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def segments_cross(p1: LatLon, p2: LatLon, q1: LatLon, q2: LatLon) -> bool:
    """Whether the segments p1-p2 and q1-q2 cross (touching does not count)."""
    d1, d2 = _orient(q1, q2, p1), _orient(q1, q2, p2)
    d3, d4 = _orient(p1, p2, q1), _orient(p1, p2, q2)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0) and d1 != 0 and d2 != 0


def point_in_polygon(p: LatLon, poly: Polygon) -> bool:
    """Whether a point lies inside a polygon (even-odd rule)."""
    x, y = p[1], p[0]
    inside = False
    for i in range(len(poly)):
        y1, x1 = poly[i]
        y2, x2 = poly[(i + 1) % len(poly)]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


# --- A game's grid fitted to the ground -------------------------------------------------------------------


@dataclass
class Survey:
    """A game's hex grid with its fit to the ground: where each hex's centre lies, and the plane distances
    are measured in. ``anchors`` pin the towns the rules place; :meth:`warp` bends everything else with them."""

    grid: Grid
    centre: Callable[[Hex], LatLon]
    """The (lat, lon) of a hex's centre (also of a hex just off the map)."""
    to_grid: Callable[[LatLon], GridXY]
    """A point in the grid's plane, for distances."""
    anchors: Sequence[Anchor]
    hexes: list[Hex] = field(init=False)
    """Every hex of the map, column by column."""
    _shifts: list[tuple[LatLon, LatLon]] = field(init=False)

    def __post_init__(self) -> None:
        self.hexes = list(self.grid.hexes)
        self._shifts = []
        for _name, lat, lon, number in self.anchors:
            target = self.centre(parse_hex(number))
            self._shifts.append(((lat, lon), (target[0] - lat, target[1] - lon)))

    def neighbours(self, hex_: Hex) -> tuple[Hex, ...]:
        """The hexes on the map next to ``hex_``."""
        return self.grid.neighbours(hex_)

    def nearest_hex(self, p: LatLon, allow_off: bool = False) -> Hex | None:
        """The hex whose centre is nearest the point; ``None`` off the map (or the off-map hex, with
        ``allow_off``)."""
        gx, gy = self.to_grid(p)
        best: tuple[float, Hex] | None = None
        for c in range(0, self.grid.columns + 2):
            for r in range(0, self.grid.rows + 2):
                cx, cy = self.to_grid(self.centre(make_hex(c, r)))
                d = (cx - gx) ** 2 + (cy - gy) ** 2
                if best is None or d < best[0]:
                    best = (d, make_hex(c, r))
        assert best is not None  # the loops above always run
        if not self.grid.contains(best[1]):
            return best[1] if allow_off else None
        return best[1]

    def warp(self, p: Point) -> LatLon:
        """Bend a point by the anchors' displacements, weighted by the inverse square of the distance (a hex
        number is that hex's centre)."""
        if isinstance(p, str):
            return self.centre(parse_hex(p))
        gx, gy = self.to_grid(p)
        sw = slat = slon = 0.0
        for (alat, alon), (dlat, dlon) in self._shifts:
            ax, ay = self.to_grid((alat, alon))
            d2 = (ax - gx) ** 2 + (ay - gy) ** 2
            if d2 < 1e-9:
                return (p[0] + dlat, p[1] + dlon)
            w = 1.0 / d2
            sw += w
            slat += w * dlat
            slon += w * dlon
        return (p[0] + slat / sw, p[1] + slon / sw)

    def warp_all(self, points: Iterable[Point]) -> list[LatLon]:
        """Every point of a line or polygon, bent."""
        return [self.warp(p) for p in points]

    # --- Terrain, towns, rivers -------------------------------------------------------------------------

    def terrain(self, areas: Iterable[tuple[str, str, Sequence[Point]]]) -> dict[Hex, str]:
        """Each hex's letter: that of the last area its centre lies in, ``"."`` for none; an area of letter
        ``c`` (clear) cuts a clearing out of the earlier ones."""
        bent = [(letter, self.warp_all(poly)) for letter, _name, poly in areas]
        terrain: dict[Hex, str] = {}
        for h in self.hexes:
            letter = "."
            for area_letter, poly in bent:
                if point_in_polygon(self.centre(h), poly):
                    letter = "." if area_letter == "c" else area_letter
            terrain[h] = letter
        return terrain

    def place_towns(
        self,
        settlements: Sequence[tuple[str, float, float, str, int]],
        overrides: Mapping[str, str],
        taken: dict[Hex, str],
        unfit: Callable[[Hex], str | None] = lambda h: None,
    ) -> tuple[list[PlacedTown], list[Dropped]]:
        """Place the settlements, most important first (then in the order given), each in its nearest hex or
        the hex ``overrides`` names; one a hex already holds, off the map or in a hex ``unfit`` explains is
        dropped with the reason. ``taken`` (hex -> holder) is filled in."""
        placed: list[PlacedTown] = []
        dropped: list[Dropped] = []
        for n, lat, lon, kind, _priority in sorted(settlements, key=lambda s: (s[4], settlements.index(s))):
            spot = parse_hex(overrides[n]) if n in overrides else self.nearest_hex(self.warp((lat, lon)))
            if spot is None:
                dropped.append((n, "off the map"))
                continue
            if spot in taken:
                dropped.append((n, f"hex {hex_name(spot)} already holds {taken[spot]}"))
                continue
            why = unfit(spot)
            if why is not None:
                dropped.append((n, f"hex {hex_name(spot)} {why}"))
                continue
            taken[spot] = n
            placed.append((n, spot, kind))
        return placed, dropped

    def crossed_hexsides(self, lines: Sequence[Polyline]) -> set[Hexside]:
        """The hexsides whose centre-to-centre segment a (bent) line crosses."""
        sides: set[Hexside] = set()
        for a in self.hexes:
            for b in self.neighbours(a):
                if a < b and any(
                    segments_cross(self.centre(a), self.centre(b), p, q) for line in lines for p, q in pairwise(line)
                ):
                    sides.add(hexside(a, b))
        return sides

    # --- Roads ------------------------------------------------------------------------------------------

    def route(self, a: Hex, b: Hex, river: Collection[Hexside], barred: Callable[[Hex, Hex], bool]) -> list[Hex]:
        """The cheapest chain of adjacent hexes from ``a`` to ``b``: a step costs more the further it strays from
        the straight line, and more again over a river hexside (so a road crosses where the real one does,
        at its waypoints); a step ``barred`` rules out is never taken."""
        ga, gb = self.to_grid(self.centre(a)), self.to_grid(self.centre(b))
        length = math.hypot(gb[0] - ga[0], gb[1] - ga[1]) or 1.0

        def deviation(h: Hex) -> float:
            g = self.to_grid(self.centre(h))
            return abs((gb[0] - ga[0]) * (ga[1] - g[1]) - (ga[0] - g[0]) * (gb[1] - ga[1])) / length

        dist: dict[Hex, float] = {a: 0.0}
        prev: dict[Hex, Hex] = {}
        heap: list[tuple[float, Hex]] = [(0.0, a)]
        while heap:
            d, h = heapq.heappop(heap)
            if h == b:
                break
            if d > dist[h]:
                continue
            for n in self.neighbours(h):
                if barred(h, n):
                    continue
                cost = 1.0 + 0.6 * deviation(n) ** 2 + (4.0 if hexside(h, n) in river else 0.0)
                if d + cost < dist.get(n, 1e18):
                    dist[n] = d + cost
                    prev[n] = h
                    heapq.heappush(heap, (d + cost, n))
        path = [b]
        while path[-1] != a:
            path.append(prev[path[-1]])
        return path[::-1]

    def waypoint_hex(self, w: Waypoint, town_hex: Mapping[str, Hex], coords: Mapping[str, LatLon]) -> Hex | None:
        """The hex of a road's waypoint: a hex number, a placed town's hex, else the nearest hex to a
        settlement that lost its hex to a bigger one, or to a point; ``None`` off the map."""
        if isinstance(w, str) and w[:1].isdigit():
            return parse_hex(w)
        if isinstance(w, str):
            if w in town_hex:
                return town_hex[w]
            if w not in coords:
                raise SystemExit(f"road waypoint {w!r} is not a settlement")
            w = coords[w]
        return self.nearest_hex(self.warp(w))

    def lay_roads(
        self,
        roads: Iterable[tuple[str, Sequence[Waypoint]]],
        town_hex: Mapping[str, Hex],
        coords: Mapping[str, LatLon],
        river: Collection[Hexside],
        barred: Callable[[Hex, Hex], bool] = lambda a, b: False,
        warn: bool = False,
    ) -> list[tuple[str, list[Hex]]]:
        """Each road as its chain of hexes, routed waypoint to waypoint (:meth:`route`); a waypoint off the map
        is skipped, a road that collapses to one hex left out (said, with ``warn``)."""
        laid: list[tuple[str, list[Hex]]] = []
        for name, waypoints in roads:
            ends = [self.waypoint_hex(w, town_hex, coords) for w in waypoints]
            for w, end in zip(waypoints, ends, strict=True):
                if warn and end is None:
                    where = coords.get(w, w) if isinstance(w, str) else w
                    print(f"warning: road waypoint {where} is off the map; skipped")
            if ends[0] is None:
                raise SystemExit(f"road {name!r} starts off the map")
            hexes = [ends[0]]
            for end in ends[1:]:
                if end is None or end == hexes[-1]:
                    continue
                hexes.extend(self.route(hexes[-1], end, river, barred)[1:])
            if len(hexes) < 2:
                if warn:
                    print(f"warning: road {name!r} collapses to one hex; left out")
                continue
            laid.append((name, hexes))
        return laid

    # --- Walking the map --------------------------------------------------------------------------------

    def reach(
        self, start: Iterable[Hex], blocked: Collection[Hexside], allowed: Collection[Hex] | None = None
    ) -> set[Hex]:
        """The hexes a walk from ``start`` reaches without crossing a ``blocked`` hexside or leaving ``allowed``
        (the whole map when ``None``)."""
        seen = set(start)
        queue = deque(seen)
        while queue:
            h = queue.popleft()
            for n in self.neighbours(h):
                if n not in seen and (allowed is None or n in allowed) and hexside(h, n) not in blocked:
                    seen.add(n)
                    queue.append(n)
        return seen

    def hex_line(self, a: Hex, b: Hex) -> list[Hex]:
        """The hexes of the straight line from ``a`` to ``b``, sampled at hex-centre steps, both ends included."""
        n = self.grid.distance(a, b)
        (ax, ay), (bx, by) = self.to_grid(self.centre(a)), self.to_grid(self.centre(b))
        out: list[Hex] = []
        for i in range(n + 1):
            t = i / n if n else 0.0
            x, y = ax + (bx - ax) * t + 1e-6, ay + (by - ay) * t + 1e-6
            best = min(
                self.hexes,
                key=lambda h: (self.to_grid(self.centre(h))[0] - x) ** 2 + (self.to_grid(self.centre(h))[1] - y) ** 2,
            )
            if not out or out[-1] != best:
                out.append(best)
        return out

    def on_edge(self, hex_: Hex, edge: str) -> bool:
        """Whether a hex lies on an edge of the map (``north``, ``south``, ``west``, ``east``)."""
        c, r = column(hex_), row(hex_)
        at = {"north": r == 1, "south": r == self.grid.last_row(c), "west": c == 1, "east": c == self.grid.columns}
        return at[edge]


def river_of(rivers: Mapping[str, set[Hexside]]) -> dict[Hexside, str]:
    """Which river each river hexside is on."""
    return {side: name for name, sides in rivers.items() for side in sides}


def road_bridges(rivers: Mapping[str, set[Hexside]], roads: Iterable[tuple[str, list[Hex]]]) -> dict[str, set[Hexside]]:
    """Each river's bridges: every hexside a road crosses it by."""
    on = river_of(rivers)
    bridges: dict[str, set[Hexside]] = {name: set() for name in rivers}
    for _name, hexes in roads:
        for a, b in pairwise(hexes):
            if hexside(a, b) in on:
                bridges[on[hexside(a, b)]].add(hexside(a, b))
    return bridges


# --- Writing map.toml -------------------------------------------------------------------------------------


def quoted(s: str) -> str:
    """A TOML basic string."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def hex_rows(hexes: Sequence[Hex], per_line: int) -> list[str]:
    """Hex names as the indented lines of a TOML array, ``per_line`` to a line."""
    names = [quoted(hex_name(h)) for h in hexes]
    return ["  " + ", ".join(names[i : i + per_line]) + "," for i in range(0, len(names), per_line)]


def terrain_rows(grid: Grid, terrain: Mapping[Hex, str]) -> list[str]:
    """The ``[terrain]`` table's column ruler and rows: one string per row, one letter per column, a space
    where a lower column has no hex."""
    lines = [
        "#        " + "".join(str(c // 10) for c in range(1, grid.columns + 1)),
        "#        " + "".join(str(c % 10) for c in range(1, grid.columns + 1)),
        "rows = [",
    ]
    for r in range(1, grid.rows + 1):
        cells = (
            terrain.get(make_hex(c, r), " ") if grid.contains(make_hex(c, r)) else " "
            for c in range(1, grid.columns + 1)
        )
        lines.append(f'  "{"".join(cells)}",   # row {r:02d}')
    return [*lines, "]"]


def pairs(sides: Iterable[Hexside]) -> str:
    """Hexsides as TOML pairs of hex names, in order."""
    return ", ".join(f'["{hex_name(a)}", "{hex_name(b)}"]' for a, b in sorted(sides))


def river_table(header: Sequence[str], sides: set[Hexside], bridges: set[Hexside]) -> list[str]:
    """A ``[[river]]`` table: its ``header`` lines (name, kind), its hexsides eight to a line, its bridges."""
    ordered = sorted(sides)
    lines = ["[[river]]", *header, "hexsides = ["]
    lines += ["  " + pairs(ordered[i : i + 8]) + "," for i in range(0, len(ordered), 8)]
    return [*lines, "]", f"bridges = [{pairs(bridges)}]", ""]


def road_table(name: str, hexes: Sequence[Hex]) -> list[str]:
    """A ``[[road]]`` table."""
    return ["[[road]]", f"name = {quoted(name)}", "hexes = [" + ", ".join(quoted(hex_name(h)) for h in hexes) + "]", ""]
