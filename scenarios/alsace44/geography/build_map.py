"""Rebuild scenarios/alsace44/map.toml from geography.py (standard library only).

    python scenarios/alsace44/geography/build_map.py            # write map.toml and print the checks
    python scenarios/alsace44/geography/build_map.py --check    # checks only, write nothing
    python scenarios/alsace44/geography/build_map.py --png F    # also draw a plain check picture to F (Pillow)

The method (the same as Ardennes 1944's builder) is described in docs/rules/alsace44-map.md.
"""

from __future__ import annotations

import heapq
import math
import sys
from collections import deque
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
if TYPE_CHECKING:
    from scenarios.alsace44.geography import geography as G
else:
    import geography as G

Hex: TypeAlias = tuple[int, int]  # (column, row)
Side: TypeAlias = tuple[Hex, Hex]  # a hexside, smaller hex first
LatLon: TypeAlias = G.LatLon

COLUMNS, ROWS = 34, 22
MAP_TOML = HERE.parent / "map.toml"

# The hexes the rules print, besides the towns (19.2).
FORTS = ["0812", "0816", "1010", "1011", "1110", "1112", "1209", "1210", "1211", "1212"]
FRONT_LINE = ["0901", "0903", "0605", "0609", "0310", "0314", "0415", "0418", "0820", "1120"]
# 19.2 strategic victory: the translator's 2101, 2201, 2601 and 3102; 3102 is one row short of the north edge
# in either parity, so its road leaves the map by 3101.
NORTH_EXITS = ["2101", "2201", "2601", "3101"]
MULHOUSE_GROUP_ROADS = ["2201", "2601"]  # 19.2 turn 3: the 30th SS enters by road 2201 and/or 2601
CHALAMPE = "3103"  # 19.2: German reinforcements enter at Chalampé unless told otherwise
# KG Renschling (19.2 turn 4): "a German-controlled hex north or north-east of Mulhouse".
NORTH_OF_MULHOUSE = ["2504", "2604", "2605", "2704", "2705", "2503", "2603"]

# ---------------------------------------------------------------- grid ----
# Odd columns sit half a hex lower and stop at row 21; even columns run to row 22 (docs: "The grid").


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


def side_key(a: Hex, b: Hex) -> Side:
    return (a, b) if a < b else (b, a)


def centre(h: Hex) -> LatLon:
    """(lat, lon) of a hex centre: the least-squares fit of the printed towns (docs: "The grid")."""
    c, r = h
    return (47.8861 - 0.0248 * (r - 0.25 + (0.5 if c % 2 else 0.0)), 6.4991 + 0.0331 * c)


def to_grid(p: LatLon) -> tuple[float, float]:
    """Plane coordinates in which one unit is one column (x) and one row (y)."""
    lat, lon = p
    return ((lon - 6.4991) / 0.0331 * 0.866, (47.8861 - lat) / 0.0248)


def axial(h: Hex) -> tuple[int, int]:
    c, r = h
    return c, r - c // 2


def hex_distance(a: Hex, b: Hex) -> int:
    q1, r1 = axial(a)
    q2, r2 = axial(b)
    return (abs(q1 - q2) + abs(r1 - r2) + abs((q1 + r1) - (q2 + r2))) // 2


def nearest_hex(p: LatLon) -> Hex | None:
    gx, gy = to_grid(p)
    best: tuple[float, Hex] | None = None
    for c in range(0, COLUMNS + 2):
        for r in range(0, ROWS + 2):
            cx, cy = to_grid(centre((c, r)))
            d = (cx - gx) ** 2 + (cy - gy) ** 2
            if best is None or d < best[0]:
                best = (d, (c, r))
    assert best is not None
    return best[1] if on_map(*best[1]) else None


# ---------------------------------------------------------------- warp ----

_ANCHORS: list[tuple[LatLon, tuple[float, float]]] = []
for _n, _lat, _lon, _hex in G.ANCHORS:
    _t = centre(parse(_hex))
    _ANCHORS.append(((_lat, _lon), (_t[0] - _lat, _t[1] - _lon)))


def warp(p: G.Point) -> LatLon:
    """Bend a point by the inverse-distance-weighted displacements of the anchors."""
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


def _orient(a: LatLon, b: LatLon, c: LatLon) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def segments_cross(p1: LatLon, p2: LatLon, q1: LatLon, q2: LatLon) -> bool:
    d1, d2 = _orient(q1, q2, p1), _orient(q1, q2, p2)
    d3, d4 = _orient(p1, p2, q1), _orient(p1, p2, q2)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0) and d1 != 0 and d2 != 0


def point_in_polygon(p: LatLon, poly: G.Polygon) -> bool:
    x, y = p[1], p[0]
    inside = False
    for i in range(len(poly)):
        y1, x1 = poly[i]
        y2, x2 = poly[(i + 1) % len(poly)]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def hex_line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes of the straight line from a to b (centre sampling), both ends included."""
    n = hex_distance(a, b)
    (ax, ay), (bx, by) = to_grid(centre(a)), to_grid(centre(b))
    out: list[Hex] = []
    for i in range(n + 1):
        t = i / n if n else 0.0
        x, y = ax + (bx - ax) * t + 1e-6, ay + (by - ay) * t + 1e-6
        best = min(HEXES, key=lambda h: (to_grid(centre(h))[0] - x) ** 2 + (to_grid(centre(h))[1] - y) ** 2)
        if not out or out[-1] != best:
            out.append(best)
    return out


# -------------------------------------------------------------- build ----


@dataclass
class MapData:
    terrain: dict[Hex, str]
    places: list[tuple[str, list[Hex], str]]  # (name, hexes, kind)
    dropped: list[tuple[str, str]]
    rivers: dict[str, set[Side]]
    bridges: dict[str, set[Side]]
    roads: list[tuple[str, list[Hex]]]
    forts: list[Hex]
    factories: list[Hex]
    peaks: dict[str, Hex]
    regions: dict[str, list[Hex]]


def build() -> MapData:
    areas = [(t, n, [warp(p) for p in poly]) for t, n, poly in G.TERRAIN_AREAS]
    terrain: dict[Hex, str] = {}
    for h in HEXES:
        letter = "."
        for area_letter, _n, poly in areas:
            if point_in_polygon(centre(h), poly):
                letter = "." if area_letter == "c" else area_letter
        terrain[h] = letter
    peaks: dict[str, Hex] = {}
    for pname, lat, lon in G.PEAKS:
        ph = nearest_hex(warp((lat, lon)))
        if ph is not None:
            terrain[ph] = "m"
            peaks[pname] = ph

    placed: list[tuple[str, list[Hex], str]] = []
    dropped: list[tuple[str, str]] = []
    taken: dict[Hex, str] = {}
    for extra_city, extra in G.CITY_EXTRA_HEXES.items():
        for text in extra:
            taken[parse(text)] = extra_city
    coords = {n: (lat, lon) for n, lat, lon, _k, _p in G.SETTLEMENTS}
    for n, lat, lon, kind, _prio in sorted(G.SETTLEMENTS, key=lambda s: (s[4], G.SETTLEMENTS.index(s))):
        sh: Hex | None = parse(G.HEX_OVERRIDES[n]) if n in G.HEX_OVERRIDES else nearest_hex(warp((lat, lon)))
        if sh is None:
            dropped.append((n, "off the map"))
            continue
        if sh in taken:
            dropped.append((n, f"hex {name(sh)} already holds {taken[sh]}"))
            continue
        if terrain[sh] == "s":
            dropped.append((n, f"hex {name(sh)} is Swiss"))
            continue
        taken[sh] = n
        placed.append((n, [sh] + [parse(t) for t in G.CITY_EXTRA_HEXES.get(n, [])], kind))
    town_hex = {n: hexes[0] for n, hexes, _k in placed}
    swiss = {h for h in HEXES if terrain[h] == "s"}

    rivers: dict[str, set[Side]] = {}
    for rname, (_kind, lines) in G.RIVERS.items():
        wl = [[warp(p) for p in line] for line in lines]
        sides: set[Side] = set()
        for a in HEXES:
            for b in neighbours(a):
                if a < b and any(segments_cross(centre(a), centre(b), p, q) for line in wl for p, q in pairwise(line)):
                    sides.add(side_key(a, b))
        for other in rivers.values():
            sides -= other
        # Water inside Switzerland is no part of the game.
        rivers[rname] = {s for s in sides if not (s[0] in swiss and s[1] in swiss)}
    river_of: dict[Side, str] = {s: rname for rname, sides in rivers.items() for s in sides}
    rhine = rivers["Rhine"]

    def wp_hex(w: G.Waypoint) -> Hex | None:
        if isinstance(w, str) and w[:1].isdigit():
            return parse(w)
        if isinstance(w, str):
            if w in town_hex:
                return town_hex[w]
            if w not in coords:
                raise SystemExit(f"road waypoint {w!r} is not a settlement")
            w = coords[w]
        return nearest_hex(warp(w))

    def route(a: Hex, b: Hex) -> list[Hex]:
        ga, gb = to_grid(centre(a)), to_grid(centre(b))
        length = math.hypot(gb[0] - ga[0], gb[1] - ga[1]) or 1.0

        def dev(h: Hex) -> float:
            g = to_grid(centre(h))
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
            for n in neighbours(h):
                k = side_key(h, n)
                if k in rhine or n in swiss:
                    continue
                cost = 1.0 + 0.6 * dev(n) ** 2 + (4.0 if k in river_of else 0.0)
                if d + cost < dist.get(n, 1e18):
                    dist[n] = d + cost
                    prev[n] = h
                    heapq.heappush(heap, (d + cost, n))
        path = [b]
        while path[-1] != a:
            path.append(prev[path[-1]])
        return path[::-1]

    roads: list[tuple[str, list[Hex]]] = []
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
        if len(hexes) >= 2:
            roads.append((rname, hexes))

    bridges: dict[str, set[Side]] = {rname: set() for rname in rivers}
    for _rname, hexes in roads:
        for a, b in pairwise(hexes):
            k = side_key(a, b)
            if k in river_of:
                bridges[river_of[k]].add(k)
    for rname, ba, bb in G.EXTRA_BRIDGES:
        bridges[rname].add(side_key(parse(ba), parse(bb)))

    factory_hexes = (nearest_hex(warp((lat, lon))) for _n, lat, lon in G.FACTORIES)
    factories = sorted({f for f in factory_hexes if f is not None})
    bank_poly = [warp(p) for p in G.GERMAN_BANK]
    german_bank = {h for h in HEXES if point_in_polygon(centre(h), bank_poly)}
    regions = derive_regions(terrain, rivers, roads, german_bank)
    return MapData(
        terrain, placed, dropped, rivers, bridges, roads, [parse(f) for f in FORTS], factories, peaks, regions
    )


def reach(start: list[Hex], blocked: set[Side], allowed: set[Hex]) -> set[Hex]:
    seen = set(start)
    queue = deque(start)
    while queue:
        h = queue.popleft()
        for n in neighbours(h):
            if n not in seen and n in allowed and side_key(h, n) not in blocked:
                seen.add(n)
                queue.append(n)
    return seen


def derive_regions(
    terrain: dict[Hex, str], rivers: dict[str, set[Side]], roads: list[tuple[str, list[Hex]]], german_bank: set[Hex]
) -> dict[str, list[Hex]]:
    """The named areas the rules place units in or score, as hex lists."""
    playable = {h for h in HEXES if terrain[h] != "s"} - german_bank
    front: list[Hex] = []
    for a, b in pairwise([parse(x) for x in FRONT_LINE]):
        for h in hex_line(a, b):
            if not front or front[-1] != h:
                front.append(h)
    rhine = rivers["Rhine"]
    rhine_bank = sorted(h for h in playable if any(side_key(h, n) in rhine for n in neighbours(h)))
    # "east of Belfort and north of the Allaine" (19.2) and "west of the Savoureuse and the Allaine" (19.4):
    # the hexes a walk from Belfort's east side / from the front reaches without crossing the river.
    allaine, savoureuse = rivers["Allaine"], rivers["Savoureuse"]
    east_start = [parse("1210"), parse("1209")]
    north_of_allaine = reach(east_start, allaine | savoureuse | rhine, playable)
    east_of_belfort = sorted(h for h in north_of_allaine if h[0] >= 12)
    # [19.4.1] The Savoureuse rises inside the map: north of its source, its line runs on up the source's
    # hex column to the north edge, or a walk would go round the source and take the whole German side.
    source = min(savoureuse, key=lambda side: min(side[0][1], side[1][1]))
    source_row, east_col = min(source[0][1], source[1][1]), max(source[0][0], source[1][0])
    east_of_source = {h for h in playable if h[1] <= source_row and h[0] >= east_col}
    west_of_rivers = sorted(reach([parse("0810")], allaine | savoureuse, playable - east_of_source))
    road_hexes = {h for _n, hexes in roads for h in hexes}
    north_roads = sorted(h for h in road_hexes if h[1] == 1)
    # "strictly west of the front line" (19.4): reached from the west edge without entering a front-line hex.
    line = set(front)
    west_edge = [h for h in playable if h[0] == 1 and h not in line]
    west_of_front = reach(west_edge, set(), playable - line)
    german_side = playable - west_of_front
    german_variant = sorted(german_side & set(west_of_rivers))
    # [19.2] the free strongpoints: "not more than 5 hexes from the front line", on the German side of it.
    near_front = sorted(h for h in german_side if min(hex_distance(h, f) for f in front) <= 5)
    french_entry = sorted(h for h in playable if h[0] == 1 or (h[1] == (ROWS - 1 if h[0] % 2 else ROWS) and h[0] <= 11))
    return {
        "front line": front,
        "rhine bank": rhine_bank,
        "east of Belfort, north of the Allaine": east_of_belfort,
        "west of the Savoureuse and the Allaine": west_of_rivers,
        "north-edge roads": north_roads,
        "northern exit roads": [parse(x) for x in NORTH_EXITS],
        "north or north-east of Mulhouse": [parse(x) for x in NORTH_OF_MULHOUSE],
        "east bank of the Rhine": sorted(german_bank),
        "Switzerland": sorted(h for h in HEXES if terrain[h] == "s"),
        "west of the front line": sorted(west_of_front),
        "German variant set-up area": german_variant,
        "east of the front line": sorted(german_side),
        "within 5 hexes of the front line, German side": near_front,
        "French entry edges": french_entry,
    }


# -------------------------------------------------------------- write ----


def q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def hex_list(hexes: list[Hex], per_line: int = 14) -> list[str]:
    names = [q(name(h)) for h in hexes]
    return ["  " + ", ".join(names[i : i + per_line]) + "," for i in range(0, len(names), per_line)]


def write(out: MapData) -> str:
    lines: list[str] = [
        "# Alsace 1944 (Vae Victis 59): the map, rebuilt from geography.",
        "# GENERATED by scenarios/alsace44/geography/build_map.py from geography.py: edit those, not this.",
        "# Method, grid fit and every judgement call: docs/rules/alsace44-map.md.",
        "",
        "[map]",
        'name = "Alsace 1944"',
        "columns = 34",
        "rows = 22",
        'lower_columns = "odd"        # odd columns sit half a hex lower and stop at row 21',
        'source = "Rebuilt from geography; see docs/rules/alsace44-map.md"',
        "",
        "[terrain]",
        "# One string per row (01 first), one character per column (01 first); off-map cells are spaces.",
        'letters = { "." = "clear", d = "difficult", f = "forest", m = "mountain", s = "switzerland" }',
        "#        " + "".join(str(c // 10) for c in range(1, COLUMNS + 1)),
        "#        " + "".join(str(c % 10) for c in range(1, COLUMNS + 1)),
        "rows = [",
    ]
    for r in range(1, ROWS + 1):
        row = "".join(out.terrain.get((c, r), " ") if on_map(c, r) else " " for c in range(1, COLUMNS + 1))
        lines.append(f'  "{row}",   # row {r:02d}')
    lines += ["]", ""]
    lines += ["[[overlay]]", 'kind = "fort"', 'rule = "12.3, 19.2"', "hexes = [", *hex_list(out.forts), "]", ""]
    lines += [
        "[[overlay]]",
        'kind = "factory"',
        'rule = "TEC"',
        'reconstructed = ["hexes"]',
        "hexes = [",
        *hex_list(out.factories),
        "]",
        "",
    ]
    for n, hexes, kind in sorted(out.places, key=lambda p: p[1][0]):
        lines += ["[[place]]", f"name = {q(n)}"]
        if len(hexes) == 1:
            lines.append(f'hex = "{name(hexes[0])}"')
        else:
            lines.append("hexes = [" + ", ".join(q(name(h)) for h in hexes) + "]")
        lines += [f'kind = "{kind}"', ""]
    for pname, h in out.peaks.items():
        lines += ["[[place]]", f"name = {q(pname)}", f'hex = "{name(h)}"', 'kind = "locality"', ""]
    for rname, sides in out.rivers.items():
        if not sides:
            continue
        kind = G.RIVERS[rname][0]
        lines += ["[[river]]", f"name = {q(rname)}", f'kind = "{kind}"', "hexsides = ["]
        ss = sorted(sides)
        for i in range(0, len(ss), 8):
            lines.append("  " + ", ".join(f'["{name(a)}", "{name(b)}"]' for a, b in ss[i : i + 8]) + ",")
        lines.append("]")
        bs = sorted(out.bridges[rname])
        lines += ["bridges = [" + ", ".join(f'["{name(a)}", "{name(b)}"]' for a, b in bs) + "]", ""]
    for rname, hexes in out.roads:
        lines += ["[[road]]", f"name = {q(rname)}", "hexes = [" + ", ".join(q(name(h)) for h in hexes) + "]", ""]
    for rname, hexes in out.regions.items():
        lines += ["[[region]]", f"name = {q(rname)}", "hexes = [", *hex_list(hexes), "]", ""]
    lines += [
        "[edges]",
        '# 10.2: German "1701 to 3412 on the east", French "1121 to 0701 on the west" (docs: "Board edges").',
        'german = [{ edge = "north", from = 17, to = 34 }, { edge = "east", from = 1, to = 12 }]',
        'allied = [{ edge = "north", from = 1, to = 7 }, { edge = "west" }, { edge = "south", from = 1, to = 11 }]',
        "",
        "[entry]",
        "# 19.2: French reinforcements enter along the west or south edge; German ones at Chalampé (3103, on the",
        "# Rhine bank, inside the map), the 30th SS by road 2201 or 2601, the 198th ID and the 269th ID's",
        "# battalions by a north-edge road hex, KG Renschling north or north-east of Mulhouse.",
        'allied = [{ edge = "west" }, { edge = "south", from = 1, to = 11 }]',
        "german = [",
        f'  {{ hex = "{CHALAMPE}", interior = true }},',
        *[f'  {{ hex = "{name(h)}" }},' for h in out.regions["north-edge roads"]],
        *[f'  {{ hex = "{x}", interior = true }},' for x in NORTH_OF_MULHOUSE],
        "]",
    ]
    return "\n".join(lines) + "\n"


# -------------------------------------------------------------- check ----

# The fixed set-up hexes of 19.2 (units and strongpoints).
# fmt: off
GERMAN_SETUP = [
    "1006", "0810", "0811", "0707", "0706", "0609", "0705", "0612", "0411", "0410", "0312", "0311", "0313", "0415",
    "1103", "0902", "0804", "0904", "0915", "1120", "0920", "0416", "0517", "0616", "0718", "0713", "2606", "0514",
    "0820", "1414", "1506", "1608", "1610",
]
FRENCH_SETUP = [
    "0115", "0315", "0214", "0317", "0218", "0316", "0217", "0215", "0305", "0407", "0701", "0602", "0604", "0504",
    "0505", "0507", "0408", "0603", "0506", "0503", "0508", "0520", "0419", "0720", "0620", "0519", "0821", "1021",
    "0220", "0110", "0207", "0210", "0212", "0213", "0306", "0921", "1121",
]
# fmt: on


def check(out: MapData) -> list[str]:
    problems: list[str] = []
    swiss = set(out.regions["Switzerland"])
    bank = set(out.regions["east bank of the Rhine"])
    places = {n: (hexes, kind) for n, hexes, kind in out.places}
    for n, want in {
        "Belfort": ["1110", "1109"],
        "Mulhouse": ["2506", "2505", "2606"],
        "Montbéliard": ["0915"],
        "Sochaux": ["1015"],
        "Chalampé": ["3103"],
        "Huningue": ["3312"],
        "Sainte-Marie": ["0616"],
    }.items():
        got = [name(h) for h in places.get(n, ([], ""))[0]]
        if got != want:
            problems.append(f"{n} is at {got}, the rules print {want}")
    for n in ("Belfort", "Mulhouse", "Montbéliard", "Sochaux"):
        if places.get(n, ([], ""))[1] != "city":
            problems.append(f"{n} must be a city (19.1, 19.2)")
    for f in FORTS:
        if parse(f) in swiss:
            problems.append(f"fort {f} is in Switzerland")
    for label, numbers in (("German", GERMAN_SETUP), ("French", FRENCH_SETUP)):
        for x in numbers:
            h = parse(x)
            if not on_map(*h):
                problems.append(f"{label} set-up hex {x} is off the map")
            elif h in swiss or h in bank:
                problems.append(f"{label} set-up hex {x} is in Switzerland or across the Rhine")
            elif out.terrain[h] == "m":
                problems.append(f"{label} set-up hex {x} is a mountain peak")
    road_hexes = {h for _n, chain in out.roads for h in chain}
    for x in NORTH_EXITS + MULHOUSE_GROUP_ROADS + [CHALAMPE]:
        if parse(x) not in road_hexes:
            problems.append(f"{x} must be a road hex (19.2)")
    for rname, chain in out.roads:
        for a, b in pairwise(chain):
            if b not in neighbours(a):
                problems.append(f"road {rname}: {name(a)}-{name(b)} not adjacent")
            if side_key(a, b) in out.rivers["Rhine"]:
                problems.append(f"road {rname} crosses the Rhine at {name(a)}-{name(b)}")
            if a in swiss or b in swiss:
                problems.append(f"road {rname} enters Switzerland at {name(a)}-{name(b)}")
    # Every playable hex west of the Rhine is reachable from the French edge (nothing cut off).
    playable = {h for h in HEXES if h not in swiss and h not in bank}
    french_edge = [h for h in playable if h[0] == 1 or (h[1] == 1 and h[0] <= 7)]
    cut = playable - reach(french_edge, out.rivers["Rhine"], playable)
    if cut:
        problems.append(f"hexes cut off from the French edge: {sorted(name(h) for h in cut)}")
    # The front line of 19.2 must part the two set-ups: French hexes west of it, German hexes on it or east.
    west = set(out.regions["west of the front line"])
    problems += [f"French set-up hex {x} is not west of the front line" for x in FRENCH_SETUP if parse(x) not in west]
    problems += [f"German set-up hex {x} is west of the front line" for x in GERMAN_SETUP if parse(x) in west]
    if not out.regions["rhine bank"]:
        problems.append("no Rhine-bank hexes")
    for h in out.regions["front line"]:
        if h in swiss:
            problems.append(f"front line hex {name(h)} is Swiss")
    return problems


def report(out: MapData) -> None:
    n = len(HEXES)
    counts = {k: sum(1 for v in out.terrain.values() if v == k) for k in ".dfms"}
    print(f"hexes {n}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"places {len(out.places)}, forts {len(out.forts)}, factories {len(out.factories)}, peaks {out.peaks}")
    for dn, why in out.dropped:
        print(f"  dropped {dn}: {why}")
    for rname, sides in out.rivers.items():
        print(f"river {rname}: {len(sides)} hexsides, {len(out.bridges[rname])} bridges")
    print(f"roads {len(out.roads)}, links {sum(len(h) - 1 for _n, h in out.roads)}")
    for rname, hexes in out.regions.items():
        print(f"region {rname}: {len(hexes)} hexes")


def main(argv: list[str]) -> int:
    out = build()
    problems = check(out)
    report(out)
    for p in problems:
        print("PROBLEM:", p)
    if "--check" not in argv:
        MAP_TOML.write_text(write(out), encoding="utf-8")
        print(f"wrote {MAP_TOML}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
