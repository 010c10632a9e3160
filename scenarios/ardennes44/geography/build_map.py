"""Rebuild scenarios/ardennes44/map.toml from geography.py (standard library only).

    python scenarios/ardennes44/geography/build_map.py            # write map.toml and print the checks
    python scenarios/ardennes44/geography/build_map.py --check    # checks only, write nothing
    python scenarios/ardennes44/geography/build_map.py --png F    # also draw the map to F (needs Pillow)

The method is described in docs/rules/ardennes44-map.md.
"""

from __future__ import annotations

import heapq
import math
import os
import sys
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeAlias

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
if TYPE_CHECKING:
    # mypy checks this folder as part of the `scenarios` package and cannot follow the sys.path line above;
    # at run time the script imports its sibling module directly.
    from scenarios.ardennes44.geography import geography as G
else:
    import geography as G

# ---------------------------------------------------------------- types ----

Hex: TypeAlias = tuple[int, int]  # (column, row) on the game grid
Side: TypeAlias = tuple[Hex, Hex]  # a hexside, as side_key() orders it: smaller hex first
LatLon: TypeAlias = G.LatLon
Polyline: TypeAlias = G.Polyline
Polygon: TypeAlias = G.Polygon
GridXY: TypeAlias = tuple[float, float]  # plane coordinates from to_grid()
Offset: TypeAlias = tuple[float, float]  # (dlat, dlon) an anchor is moved by
Place: TypeAlias = tuple[str, Hex, G.SettlementKind]  # (name, hex, kind)
Locality: TypeAlias = tuple[str, Hex]  # (name, hex)
Dropped: TypeAlias = tuple[str, str]  # (name, why)
Road: TypeAlias = tuple[str, list[Hex]]  # (name, hexes in order)
Edge: TypeAlias = Literal["north", "south", "west", "east"]


@dataclass
class MapData:
    """What build() derives from the geography; check() adds beyond_meuse."""

    terrain: dict[Hex, G.TerrainLetter]
    places: list[Place]
    localities: list[Locality]
    dropped: list[Dropped]
    rivers: dict[str, set[Side]]  # river -> its hexsides (in G.RIVERS order: bigger rivers first)
    river_lines: dict[str, list[Polyline]]  # river -> its warped polylines
    bridges: dict[str, set[Side]]
    roads: list[Road]
    westwall: list[Hex]
    germany: Polygon
    beyond_meuse: list[Hex] = field(default_factory=list)


COLUMNS, ROWS = 34, 22
MAP_TOML = HERE.parent / "map.toml"

# ---------------------------------------------------------------- grid ----


def on_map(c: int, r: int) -> bool:
    return 1 <= c <= COLUMNS and 1 <= r <= (ROWS - 1 if c % 2 else ROWS)


HEXES: list[Hex] = [(c, r) for c in range(1, COLUMNS + 1) for r in range(1, ROWS + 1) if on_map(c, r)]


def name(h: Hex) -> str:
    return f"{h[0]:02d}{h[1]:02d}"


def parse(text: str) -> Hex:
    return int(text[:2]), int(text[2:])


def neighbours(h: Hex) -> list[Hex]:
    c, r = h
    if c % 2 == 0:
        cand = [(c, r - 1), (c, r + 1), (c - 1, r - 1), (c - 1, r), (c + 1, r - 1), (c + 1, r)]
    else:
        cand = [(c, r - 1), (c, r + 1), (c - 1, r), (c - 1, r + 1), (c + 1, r), (c + 1, r + 1)]
    return [n for n in cand if on_map(*n)]


def adjacent(a: Hex, b: Hex) -> bool:
    return b in neighbours(a)


def centre(h: Hex) -> LatLon:
    """(lat, lon) of a hex centre on the game grid (the fit given in the brief)."""
    c, r = h
    return (50.63 - (r - 1) * 0.041 - (0.0205 if c % 2 else 0.0), 5.86 + (c - 21) * 0.057)


def to_grid(p: LatLon) -> GridXY:
    """Point -> plane coordinates in which one unit is one column (x) / one row (y), scaled to km."""
    lat, lon = p
    return ((lon - 5.86) / 0.057 * 0.89, (50.63 - lat) / 0.041)


def axial(h: Hex) -> tuple[int, int]:
    c, r = h
    return c, r - c // 2


def hex_distance(a: Hex, b: Hex) -> int:
    q1, r1 = axial(a)
    q2, r2 = axial(b)
    return (abs(q1 - q2) + abs(r1 - r2) + abs((q1 + r1) - (q2 + r2))) // 2


def nearest_hex(p: LatLon, allow_off: bool = False) -> Hex | None:
    gx, gy = to_grid(p)
    best: tuple[float, Hex] | None = None
    for c in range(0, COLUMNS + 2):
        for r in range(0, ROWS + 2):
            cx, cy = to_grid(centre((c, r)))
            d = (cx - gx) ** 2 + (cy - gy) ** 2
            if best is None or d < best[0]:
                best = (d, (c, r))
    assert best is not None  # the loops above always run
    h = best[1]
    if not on_map(*h):
        return h if allow_off else None
    return h


# ---------------------------------------------------------------- warp ----
# The towns whose hex the rules print are pinned to it; all geography is bent smoothly with them.

_ANCHORS: list[tuple[LatLon, Offset]] = []
for _n, _lat, _lon, _hex in G.ANCHORS:
    t = centre(parse(_hex))
    _ANCHORS.append(((_lat, _lon), (t[0] - _lat, t[1] - _lon)))


def warp(p: G.Point) -> LatLon:
    if isinstance(p, str):
        return centre(parse(p))
    gx, gy = to_grid(p)
    sw = slat = slon = 0.0
    for (alat, alon), (dlat, dlon) in _ANCHORS:
        ax, ay = to_grid((alat, alon))
        d2 = (ax - gx) ** 2 + (ay - gy) ** 2
        if d2 < 1e-9:
            return (p[0] + dlat, p[1] + dlon)
        w = 1.0 / d2
        sw += w
        slat += w * dlat
        slon += w * dlon
    return (p[0] + slat / sw, p[1] + slon / sw)


# ------------------------------------------------------------ geometry ----


def _orient(a: LatLon, b: LatLon, c: LatLon) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def segments_cross(p1: LatLon, p2: LatLon, q1: LatLon, q2: LatLon) -> bool:
    d1, d2 = _orient(q1, q2, p1), _orient(q1, q2, p2)
    d3, d4 = _orient(p1, p2, q1), _orient(p1, p2, q2)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0) and d1 != 0 and d2 != 0


def point_in_polygon(p: LatLon, poly: Polygon) -> bool:
    x, y = p[1], p[0]
    inside = False
    n = len(poly)
    for i in range(n):
        y1, x1 = poly[i]
        y2, x2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xi = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < xi:
                inside = not inside
    return inside


def dist_point_polyline(p: LatLon, line: Polyline) -> float:
    px, py = to_grid(p)
    best = 1e9
    for a, b in pairwise(line):
        ax, ay = to_grid(a)
        bx, by = to_grid(b)
        dx, dy = bx - ax, by - ay
        t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(px - (ax + t * dx), py - (ay + t * dy)))
    return best


def side_key(a: Hex, b: Hex) -> Side:
    return (a, b) if a < b else (b, a)


# -------------------------------------------------------------- build ----


def build() -> MapData:
    # terrain
    areas = [(t, n, [warp(p) for p in poly]) for t, n, poly in G.TERRAIN_AREAS]
    terrain: dict[Hex, G.TerrainLetter] = {}
    for h in HEXES:
        t: G.TerrainLetter = "."
        for letter, _n, poly in areas:
            if point_in_polygon(centre(h), poly):
                t = "." if letter == "c" else letter
        terrain[h] = t
    for text, override in G.TERRAIN_OVERRIDES.items():
        terrain[parse(text)] = override

    # settlements
    coords: dict[str, LatLon] = {}
    for n, lat, lon, _kind, _prio in G.SETTLEMENTS:
        coords[n] = (lat, lon)
    placed: list[Place] = []
    dropped: list[Dropped] = []
    taken: dict[Hex, str] = {}
    for n, lat, lon, kind, _prio in sorted(G.SETTLEMENTS, key=lambda s: (s[4], G.SETTLEMENTS.index(s))):
        sh = parse(G.HEX_OVERRIDES[n]) if n in G.HEX_OVERRIDES else nearest_hex(warp((lat, lon)))
        if sh is None:
            dropped.append((n, "off the map"))
            continue
        if sh in taken:
            dropped.append((n, f"hex {name(sh)} already holds {taken[sh]}"))
            continue
        taken[sh] = n
        placed.append((n, sh, kind))
    localities: list[Locality] = []
    for item in G.LOCALITIES:
        n = item[0]
        lh = parse(item[1]) if len(item) == 2 else nearest_hex(warp((item[1], item[2])))
        if lh is None:
            dropped.append((n, "off the map"))
            continue
        localities.append((n, lh))
    town_hex = {n: h for n, h, _k in placed}

    # rivers
    rivers: dict[str, set[Side]] = {}
    river_lines: dict[str, list[Polyline]] = {}
    for rname, lines in G.RIVERS.items():
        wl = [[warp(p) for p in line] for line in lines]
        river_lines[rname] = wl
        sides: set[Side] = set()
        for a in HEXES:
            for b in neighbours(a):
                if a >= b:
                    continue
                ca, cb = centre(a), centre(b)
                if any(segments_cross(ca, cb, p, q) for line in wl for p, q in pairwise(line)):
                    sides.add(side_key(a, b))
        # a hexside already on a bigger river (listed earlier) stays with it: tributaries end there
        for other in rivers.values():
            sides -= other
        rivers[rname] = sides
    river_of: dict[Side, list[str]] = {}
    for rname, sides in rivers.items():
        for s in sides:
            river_of.setdefault(s, []).append(rname)

    # roads: cheapest chain of adjacent hexes between waypoints; a river crossing costs extra so a road
    # crosses a river where the real road does (at the waypoint towns) rather than zig-zagging.
    def wp_hex(w: G.Waypoint) -> Hex | None:
        if isinstance(w, str) and w[:1].isdigit():
            return parse(w)
        if isinstance(w, str):
            if w in town_hex:
                return town_hex[w]
            if w not in coords:
                raise SystemExit(f"road waypoint {w!r} is not a settlement")
            w = coords[w]  # a settlement that lost its hex to a bigger one: its own position
        h = nearest_hex(warp(w))
        if h is None:
            print(f"warning: road waypoint {w} is off the map; skipped")
        return h

    def route(a: Hex, b: Hex) -> list[Hex]:
        ga, gb = to_grid(centre(a)), to_grid(centre(b))
        L = math.hypot(gb[0] - ga[0], gb[1] - ga[1]) or 1.0

        def dev(h: Hex) -> float:
            g = to_grid(centre(h))
            return abs((gb[0] - ga[0]) * (ga[1] - g[1]) - (ga[0] - g[0]) * (gb[1] - ga[1])) / L

        dist: dict[Hex, float] = {a: 0.0}
        prev: dict[Hex, Hex] = {}
        heap: list[tuple[float, Hex]] = [(0.0, a)]
        while heap:
            d, h = heapq.heappop(heap)
            if h == b:
                break
            if d > dist[h]:
                continue
            for n in neighbours(h):
                cost = 1.0 + 0.6 * dev(n) ** 2 + (4.0 if side_key(h, n) in river_of else 0.0)
                if d + cost < dist.get(n, 1e18):
                    dist[n] = d + cost
                    prev[n] = h
                    heapq.heappush(heap, (d + cost, n))
        path = [b]
        while path[-1] != a:
            path.append(prev[path[-1]])
        return path[::-1]

    roads: list[Road] = []
    for rname, wps in G.ROADS:
        start = wp_hex(wps[0])
        if start is None:
            raise SystemExit(f"road {rname!r} starts off the map")
        hexes = [start]
        for w in wps[1:]:
            wh = wp_hex(w)
            if wh is None or wh == hexes[-1]:
                continue
            hexes.extend(route(hexes[-1], wh)[1:])
        if len(hexes) < 2:
            print(f"warning: road {rname!r} collapses to one hex; left out")
            continue
        roads.append((rname, hexes))

    # bridges: every road link over a river, plus the extra named ones
    bridges: dict[str, set[Side]] = {rname: set() for rname in rivers}
    for _rname, hexes in roads:
        for a, b in pairwise(hexes):
            for rname in river_of.get(side_key(a, b), []):
                bridges[rname].add(side_key(a, b))
    for rname, ba, bb in G.EXTRA_BRIDGES:
        k = side_key(parse(ba), parse(bb))
        if k not in rivers[rname]:
            raise SystemExit(f"extra bridge {ba}-{bb} is not on the {rname}")
        bridges[rname].add(k)

    # westwall
    ww = [warp(p) for p in G.WESTWALL_LINE]
    border = [warp(p) for p in G.BORDER_LINE]
    germany = [*border, (border[-1][0], 8.0), (border[0][0], 8.0)]
    westwall = sorted(
        h
        for h in HEXES
        if dist_point_polyline(centre(h), ww) <= G.WESTWALL_WIDTH and point_in_polygon(centre(h), germany)
    )
    return MapData(
        terrain=terrain,
        places=placed,
        localities=localities,
        dropped=dropped,
        rivers=rivers,
        river_lines=river_lines,
        bridges=bridges,
        roads=roads,
        westwall=westwall,
        germany=germany,
    )


# -------------------------------------------------------------- write ----

ENTRY_GERMAN: list[str] = ["3403", "3407", "3411", "3413", "3417"]
ENTRY_ALLIED: list[str] = ["0105", "0116", "0921", "1301", "1321", "2022", "2101", "2501", "2521", "2921", "3022"]


def q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write(out: MapData) -> str:
    L: list[str] = []
    L.append("# Ardennes 1944 (Vae Victis 48): the map, rebuilt from geography.")
    L.append("# GENERATED by scenarios/ardennes44/geography/build_map.py from geography.py: edit those, not this.")
    L.append("# Method, grid fit and every judgement call: docs/rules/ardennes44-map.md.")
    L.append("")
    L.append("[map]")
    L.append('name = "Ardennes 1944"')
    L.append("columns = 34")
    L.append("rows = 22")
    L.append('lower_columns = "odd"        # odd columns sit half a hex lower and stop at row 21')
    L.append('source = "Rebuilt from geography; see docs/rules/ardennes44-map.md"')
    L.append("")
    L.append("[terrain]")
    L.append('# One string per row (01 first), one character per column (01 first). "." clear, "r" rough, "f" forest.')
    L.append("# Odd columns have no row 22: a space there.")
    L.append("#        " + "".join(str(c // 10) for c in range(1, 35)))
    L.append("#        " + "".join(str(c % 10) for c in range(1, 35)))
    L.append("rows = [")
    t = out.terrain
    for r in range(1, ROWS + 1):
        row = "".join(t.get((c, r), " ") if on_map(c, r) else " " for c in range(1, COLUMNS + 1))
        L.append(f'  "{row}",   # row {r:02d}')
    L.append("]")
    L.append("")
    L.append("westwall = [")
    ww = [q(name(h)) for h in out.westwall]
    for i in range(0, len(ww), 12):
        L.append("  " + ", ".join(ww[i : i + 12]) + ",")
    L.append("]")
    L.append("")
    for n, h, kind in sorted(out.places, key=lambda p: (p[1][0], p[1][1])):
        L.append("[[place]]")
        L.append(f"name = {q(n)}")
        L.append(f'hex = "{name(h)}"')
        L.append(f'kind = "{kind}"')
        L.append("")
    for n, h in out.localities:
        L.append("[[place]]")
        L.append(f"name = {q(n)}")
        L.append(f'hex = "{name(h)}"')
        L.append('kind = "locality"')
        L.append("")
    for rname, sides in out.rivers.items():
        if not sides:
            continue
        L.append("[[river]]")
        L.append(f"name = {q(rname)}")
        L.append("hexsides = [")
        ss = sorted(sides)
        for i in range(0, len(ss), 8):
            L.append("  " + ", ".join(f'["{name(a)}", "{name(b)}"]' for a, b in ss[i : i + 8]) + ",")
        L.append("]")
        bs = sorted(out.bridges[rname])
        L.append("bridges = [" + ", ".join(f'["{name(a)}", "{name(b)}"]' for a, b in bs) + "]")
        L.append("")
    for rname, hexes in out.roads:
        L.append("[[road]]")
        L.append(f"name = {q(rname)}")
        L.append("hexes = [" + ", ".join(f'"{name(h)}"' for h in hexes) + "]")
        L.append("")
    L.append("[edges]")
    L.append("# 10.2 prints impossible ranges (3201-3221, 3101-3121); see docs/rules/ardennes44-map.md.")
    L.append('german = [{ edge = "east" }]')
    L.append(
        'allied = [{ edge = "west" }, { edge = "north", from = 1, to = 28 }, { edge = "south", from = 1, to = 31 }]'
    )
    L.append("")
    L.append("[entry]")
    L.append("german = [" + ", ".join(q(x) for x in ENTRY_GERMAN) + "]")
    L.append("allied = [" + ", ".join(q(x) for x in ENTRY_ALLIED) + "]")
    return "\n".join(L) + "\n"


# -------------------------------------------------------------- check ----

# fmt: off
GERMAN_SETUP: list[str] = [
    "3015", "2615", "2715", "2815", "2915", "2616", "3113", "2813", "2912", "2713", "3111", "3010",
    "2911", "3308", "3208", "3207", "3206", "3205", "3107", "3106", "3105", "3102", "3002", "2903",
    "3118", "3221", "3020", "2914", "2819", "2717",
]
US_SETUP: list[str] = [
    "2501", "2803", "2901", "3006", "3007", "3005", "2706", "1817", "3008", "2719", "2515", "2712",
    "2910", "2812", "2920", "2215", "3121",
]
# fmt: on
MUST: dict[str, list[str]] = {
    "city": [
        "Liege",
        "Verviers",
        "Eupen",
        "Spa",
        "Malmedy",
        "St. Vith",
        "Bastogne",
        "Marche",
        "Rochefort",
        "Namur",
        "Dinant",
        "Huy",
        "Neufchateau",
    ],
    "village": [
        "Stavelot",
        "Trois-Ponts",
        "Vielsalm",
        "La Roche",
        "Clervaux",
        "Wiltz",
        "Diekirch",
        "Ettelbruck",
        "Echternach",
        "Beaufort",
        "Monschau",
        "Butgenbach",
        "Elsenborn",
        "Stadtkyll",
        "Prum",
        "Bitburg",
        "Dasburg",
        "Vianden",
        "Celles",
        "Ciney",
        "Hotton",
        "Manhay",
        "Baraque de Fraiture",
        "Werbomont",
        "Givet",
        "Libramont",
        "St-Hubert",
        "Bouillon",
        "Andenne",
        "Stoumont",
        "La Gleize",
        "Losheim",
        "Krinkelt",
        "Sibret",
        "Noville",
        "Ortheuville",
        "Tenneville",
    ],
}
FIXED: dict[str, str] = {
    "Verviers": "2101",
    "Eupen": "2501",
    "Monschau": "2803",
    "Bastogne": "1817",
    "Beaufort": "2920",
    "Echternach": "3121",
    "Neufchateau": "1321",
    "Stadtkyll": "3308",
}


def on_edge(h: Hex, edge: Edge) -> bool:
    c, r = h
    return {"north": r == 1, "south": r == (ROWS - 1 if c % 2 else ROWS), "west": c == 1, "east": c == COLUMNS}[edge]


def check(out: MapData) -> list[str]:
    problems: list[str] = []
    text = write(out)
    import tomllib

    doc = tomllib.loads(text)
    rows: list[str] = doc["terrain"]["rows"]
    if len(rows) != ROWS:
        problems.append("wrong number of terrain rows")
    for r, row in enumerate(rows, start=1):
        if len(row) != COLUMNS:
            problems.append(f"row {r} has {len(row)} characters")
        for c, ch in enumerate(row, start=1):
            if on_map(c, r) and ch not in ".rf":
                problems.append(f"{c:02d}{r:02d} bad letter {ch!r}")
            if not on_map(c, r) and ch != " ":
                problems.append(f"{c:02d}{r:02d} off map but not a space")
    all_sides: set[Side] = set()
    for rv in doc["river"]:
        sides = {side_key(parse(a), parse(b)) for a, b in rv["hexsides"]}
        all_sides |= sides
        for a, b in sides:
            if not adjacent(a, b):
                problems.append(f"river {rv['name']}: {name(a)}-{name(b)} not adjacent")
        for a, b in rv["bridges"]:
            if side_key(parse(a), parse(b)) not in sides:
                problems.append(f"river {rv['name']}: bridge {a}-{b} not a hexside")
    bridged = {side_key(parse(a), parse(b)) for rv in doc["river"] for a, b in rv["bridges"]}
    for rd in doc["road"]:
        hx = [parse(x) for x in rd["hexes"]]
        for a, b in pairwise(hx):
            if not adjacent(a, b):
                problems.append(f"road {rd['name']}: {name(a)}-{name(b)} not adjacent")
            if side_key(a, b) in all_sides and side_key(a, b) not in bridged:
                problems.append(f"road {rd['name']}: {name(a)}-{name(b)} crosses a river unbridged")
    kinds: dict[str, tuple[str, str]] = {p["name"]: (p["hex"], p["kind"]) for p in doc["place"]}
    for kind, names in MUST.items():
        for n in names:
            if n not in kinds:
                problems.append(f"{n} missing")
            elif kinds[n][1] != kind:
                problems.append(f"{n} is {kinds[n][1]}, expected {kind}")
    for n, h in FIXED.items():
        if kinds.get(n, (None,))[0] != h:
            problems.append(f"{n} should be at {h}, is at {kinds.get(n)}")
    for h in ENTRY_GERMAN:
        if not on_edge(parse(h), "east"):
            problems.append(f"German entry {h} not on the east edge")
    for h in ENTRY_ALLIED:
        ph = parse(h)
        if not (
            on_edge(ph, "west") or (on_edge(ph, "north") and ph[0] <= 28) or (on_edge(ph, "south") and ph[0] <= 31)
        ):
            problems.append(f"Allied entry {h} not on an Allied edge")
    # the Meuse as a barrier
    meuse = out.rivers["Meuse"]
    seen: set[Hex] = set((COLUMNS, r) for r in range(1, ROWS + 1) if on_map(COLUMNS, r))
    dq = deque(seen)
    while dq:
        cur = dq.popleft()
        for nb in neighbours(cur):
            if nb not in seen and side_key(cur, nb) not in meuse:
                seen.add(nb)
                dq.append(nb)
    beyond = [h for h in HEXES if h not in seen]
    out.beyond_meuse = beyond
    for h in ["0105", "1601", "0405"]:
        if parse(h) not in beyond:
            problems.append(f"{h} should be beyond the Meuse")
    for h in ["0116", "0921", "0410", "1004", "0313", "3407"]:
        if parse(h) in beyond:
            problems.append(f"{h} should be east of the Meuse")
    onroad = {h for _n, hexes in out.roads for h in hexes}
    for h in ENTRY_ALLIED + ENTRY_GERMAN:
        if parse(h) not in onroad:
            problems.append(f"entry hex {h} is on no road")
    # setup hexes on their side of every barrier: reach own edges without crossing an unbridged river
    # hexside (the route a supply line or mechanized unit would need).
    allsides: set[Side] = set().union(*out.rivers.values())
    allbridges: set[Side] = set().union(*out.bridges.values())

    def reach(start_edges: list[tuple[Edge, Callable[[Hex], bool]]]) -> set[Hex]:
        start = [h for h in HEXES if any(on_edge(h, e) and cond(h) for e, cond in start_edges)]
        s = set(start)
        dq = deque(start)
        while dq:
            h = dq.popleft()
            for n in neighbours(h):
                k = side_key(h, n)
                if n not in s and (k not in allsides or k in allbridges):
                    s.add(n)
                    dq.append(n)
        return s

    german_reach = reach([("east", lambda h: True)])
    allied_reach = reach([("west", lambda h: True), ("north", lambda h: h[0] <= 28), ("south", lambda h: h[0] <= 31)])
    for h in GERMAN_SETUP:
        if not on_map(*parse(h)):
            problems.append(f"German setup {h} off map")
        elif parse(h) not in german_reach:
            problems.append(f"German setup {h} cut off from the east edge")
    for h in US_SETUP:
        if not on_map(*parse(h)):
            problems.append(f"US setup {h} off map")
        elif parse(h) not in allied_reach:
            problems.append(f"US setup {h} cut off from the Allied edges")
    unreached = [name(h) for h in HEXES if h not in allied_reach or h not in german_reach]
    if unreached:
        problems.append(f"hexes cut off by unbridged rivers: {unreached}")
    return problems


def report(out: MapData) -> None:
    t = out.terrain
    n = len(HEXES)
    counts = {k: sum(1 for v in t.values() if v == k) for k in ".rf"}
    print(
        f"hexes {n}: clear {counts['.']} ({100 * counts['.'] / n:.0f}%),"
        f" rough {counts['r']} ({100 * counts['r'] / n:.0f}%),"
        f" forest {counts['f']} ({100 * counts['f'] / n:.0f}%); westwall {len(out.westwall)}"
    )
    kinds: dict[str, int] = {}
    for _n, _h, k in out.places:
        kinds[k] = kinds.get(k, 0) + 1
    print(f"places: {kinds}, localities {len(out.localities)}")
    for dn, why in out.dropped:
        print(f"  dropped {dn}: {why}")
    tb = 0
    for rname, sides in out.rivers.items():
        b = out.bridges[rname]
        tb += len(b)
        print(f"river {rname}: {len(sides)} hexsides, {len(b)} bridges")
    links = sum(len(h) - 1 for _n, h in out.roads)
    print(f"bridges {tb}; roads {len(out.roads)}, links {links}")


def bridge_names(out: MapData) -> None:
    town = {h: n for n, h, _k in out.places}
    for rname, bs in out.bridges.items():
        items = []
        for a, b in sorted(bs):
            items.append(f"{name(a)}({town.get(a, '')})-{name(b)}({town.get(b, '')})")
        print(f"{rname} bridges: " + "; ".join(items))


def draw(out: MapData, path: str) -> None:
    from PIL import Image, ImageDraw

    S = int(os.environ.get("HEXPX", "34"))
    W, H = int(COLUMNS * S * 0.87 + S * 2), int((ROWS + 1) * S + S)
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)

    def px(h: Hex) -> tuple[float, float]:
        c, r = h
        return (S + (c - 1) * S * 0.87, S + (r - 1) * S + (S / 2 if c % 2 else 0))

    def pxll(p: LatLon) -> tuple[float, float]:
        gx = 21 + (p[1] - 5.86) / 0.057
        gy = 1 + (50.63 - p[0]) / 0.041
        return (S + (gx - 1) * S * 0.87, S + (gy - 1) * S)

    col: dict[str, tuple[int, int, int]] = {".": (235, 230, 200), "r": (190, 160, 120), "f": (90, 150, 80)}
    ww = set(out.westwall)
    for h in HEXES:
        x, y = px(h)
        rr = S * 0.58
        pts = [(x + rr * math.cos(math.radians(a)), y + rr * math.sin(math.radians(a))) for a in range(0, 360, 60)]
        d.polygon(pts, fill=col[out.terrain[h]], outline=(120, 120, 120))
        if h in ww:
            d.line([*pts, pts[0]], fill=(80, 80, 80), width=3)
        d.text((x - 10, y + 6), name(h), fill=(90, 90, 90))
    for rname, sides in out.rivers.items():
        for a, b in sides:
            (xa, ya), (xb, yb) = px(a), px(b)
            mx, my = (xa + xb) / 2, (ya + yb) / 2
            dx, dy = (yb - ya), -(xb - xa)
            L = math.hypot(dx, dy)
            dx, dy = dx / L * S * 0.3, dy / L * S * 0.3
            bridged = (a, b) in out.bridges[rname]
            d.line([(mx - dx, my - dy), (mx + dx, my + dy)], fill=(230, 0, 0) if bridged else (0, 60, 220), width=4)
    for _n, hexes in out.roads:
        d.line([px(h) for h in hexes], fill=(60, 60, 60), width=2)
    for n, h, k in out.places:
        x, y = px(h)
        d.ellipse([x - 4, y - 4, x + 4, y + 4], fill=(200, 0, 0) if k == "city" else (0, 0, 0))
        d.text((x - 15, y - 16), n[:12], fill=(0, 0, 0))
    for n, h in out.localities:
        x, y = px(h)
        d.text((x - 15, y - 26), n[:14], fill=(0, 0, 160))
    img.save(path)


def main(argv: list[str]) -> int:
    out = build()
    problems = check(out)
    report(out)
    if "-v" in argv:
        bridge_names(out)
    if "--png" in argv:
        draw(out, argv[argv.index("--png") + 1])
    for p in problems:
        print("PROBLEM:", p)
    print(f"beyond the Meuse: {len(out.beyond_meuse)} hexes")
    if "--check" not in argv:
        MAP_TOML.write_text(write(out), encoding="utf-8")
        print(f"wrote {MAP_TOML}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
