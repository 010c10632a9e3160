"""Rebuild scenarios/ardennes44/map.toml from geography.py (the standard library and the shared toolkit,
scenarios/mapmaking.py).

    python scenarios/ardennes44/geography/build_map.py            # write map.toml and print the checks
    python scenarios/ardennes44/geography/build_map.py --check    # checks only, write nothing
    python scenarios/ardennes44/geography/build_map.py --png F    # also draw the map to F (needs Pillow)

The method is described in docs/rules/ardennes44-map.md.
"""

from __future__ import annotations

import math
import os
import sys
import tomllib
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[2])]  # its sibling geography.py, and the repository's packages
if TYPE_CHECKING:
    # mypy checks this folder as part of the `scenarios` package and cannot follow the sys.path line above;
    # at run time the script imports its sibling module directly.
    from scenarios.ardennes44.geography import geography as G
else:
    import geography as G

from engine.hexgrid import Grid, Hex, Hexside, column, hex_name, hexside, make_hex, parse_hex, row  # noqa: E402
from scenarios.mapmaking import (  # noqa: E402
    Dropped,
    GridXY,
    LatLon,
    PlacedTown,
    Polygon,
    Polyline,
    Survey,
    hex_rows,
    point_in_polygon,
    quoted,
    river_of,
    river_table,
    road_bridges,
    road_table,
    terrain_rows,
)

Locality: TypeAlias = tuple[str, Hex]  # (name, hex)
Road: TypeAlias = tuple[str, list[Hex]]  # (name, hexes in order)


@dataclass
class MapData:
    """What build() derives from the geography; check() adds beyond_meuse."""

    terrain: dict[Hex, str]
    places: list[PlacedTown]
    localities: list[Locality]
    dropped: list[Dropped]
    rivers: dict[str, set[Hexside]]  # river -> its hexsides (in G.RIVERS order: bigger rivers first)
    river_lines: dict[str, list[Polyline]]  # river -> its warped polylines
    bridges: dict[str, set[Hexside]]
    roads: list[Road]
    westwall: list[Hex]
    germany: Polygon
    beyond_meuse: list[Hex] = field(default_factory=list)


COLUMNS, ROWS = 34, 22
GRID = Grid(COLUMNS, ROWS, "odd")
MAP_TOML = HERE.parent / "map.toml"


def centre(h: Hex) -> LatLon:
    """(lat, lon) of a hex centre on the game grid (the fit given in the brief)."""
    c, r = column(h), row(h)
    return (50.63 - (r - 1) * 0.041 - (0.0205 if c % 2 else 0.0), 5.86 + (c - 21) * 0.057)


def to_grid(p: LatLon) -> GridXY:
    """Point -> plane coordinates in which one unit is one column (x) / one row (y), scaled to km."""
    lat, lon = p
    return ((lon - 5.86) / 0.057 * 0.89, (50.63 - lat) / 0.041)


SURVEY = Survey(GRID, centre, to_grid, G.ANCHORS)
HEXES = SURVEY.hexes


def dist_point_polyline(p: LatLon, line: Polyline) -> float:
    """The distance in the grid's plane from a point to a line."""
    px, py = to_grid(p)
    best = 1e9
    for a, b in pairwise(line):
        ax, ay = to_grid(a)
        bx, by = to_grid(b)
        dx, dy = bx - ax, by - ay
        t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(px - (ax + t * dx), py - (ay + t * dy)))
    return best


# -------------------------------------------------------------- build ----


def build() -> MapData:
    terrain = SURVEY.terrain(G.TERRAIN_AREAS)
    for text, override in G.TERRAIN_OVERRIDES.items():
        terrain[parse_hex(text)] = override
    placed, dropped = SURVEY.place_towns(G.SETTLEMENTS, G.HEX_OVERRIDES, {})
    localities = place_localities(dropped)
    rivers, river_lines = lay_rivers()
    coords = {n: (lat, lon) for n, lat, lon, _kind, _prio in G.SETTLEMENTS}
    town_hex = {n: h for n, h, _k in placed}
    # A river crossing costs extra, so a road crosses where the real road does (at the waypoint towns).
    crossings = river_of(rivers)
    roads = SURVEY.lay_roads(G.ROADS, town_hex, coords, crossings, warn=True)
    bridges = road_bridges(rivers, roads)
    for rname, ba, bb in G.EXTRA_BRIDGES:
        k = hexside(parse_hex(ba), parse_hex(bb))
        if k not in rivers[rname]:
            raise SystemExit(f"extra bridge {ba}-{bb} is not on the {rname}")
        bridges[rname].add(k)
    westwall, germany = lay_westwall()
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


def place_localities(dropped: list[Dropped]) -> list[Locality]:
    """The localities (named places that are no settlement), in their hex or nearest their point; one off the
    map joins ``dropped``."""
    localities: list[Locality] = []
    for item in G.LOCALITIES:
        n = item[0]
        lh = parse_hex(item[1]) if len(item) == 2 else SURVEY.nearest_hex(SURVEY.warp((item[1], item[2])))
        if lh is None:
            dropped.append((n, "off the map"))
            continue
        localities.append((n, lh))
    return localities


def lay_rivers() -> tuple[dict[str, set[Hexside]], dict[str, list[Polyline]]]:
    """Each river's hexsides and bent lines; a hexside already on a bigger river (listed earlier) stays with
    it: tributaries end there."""
    rivers: dict[str, set[Hexside]] = {}
    river_lines: dict[str, list[Polyline]] = {}
    for rname, lines in G.RIVERS.items():
        river_lines[rname] = [SURVEY.warp_all(line) for line in lines]
        sides = SURVEY.crossed_hexsides(river_lines[rname])
        for other in rivers.values():
            sides -= other
        rivers[rname] = sides
    return rivers, river_lines


def lay_westwall() -> tuple[list[Hex], Polygon]:
    """The Westwall's hexes (near its line, inside Germany) and Germany as a polygon."""
    ww = SURVEY.warp_all(G.WESTWALL_LINE)
    border = SURVEY.warp_all(G.BORDER_LINE)
    germany = [*border, (border[-1][0], 8.0), (border[0][0], 8.0)]
    westwall = sorted(
        h
        for h in HEXES
        if dist_point_polyline(centre(h), ww) <= G.WESTWALL_WIDTH and point_in_polygon(centre(h), germany)
    )
    return westwall, germany


# -------------------------------------------------------------- write ----

ENTRY_GERMAN: list[str] = ["3403", "3407", "3411", "3413", "3417"]
ENTRY_ALLIED: list[str] = ["0105", "0116", "0921", "1301", "1321", "2022", "2101", "2501", "2521", "2921", "3022"]


def write(out: MapData) -> str:
    L: list[str] = [
        "# Ardennes 1944 (Vae Victis 48): the map, rebuilt from geography.",
        "# GENERATED by scenarios/ardennes44/geography/build_map.py from geography.py: edit those, not this.",
        "# Method, grid fit and every judgement call: docs/rules/ardennes44-map.md.",
        "",
        "[map]",
        'name = "Ardennes 1944"',
        "columns = 34",
        "rows = 22",
        'lower_columns = "odd"        # odd columns sit half a hex lower and stop at row 21',
        'source = "Rebuilt from geography; see docs/rules/ardennes44-map.md"',
        "",
        "[terrain]",
        '# One string per row (01 first), one character per column (01 first). "." clear, "r" rough, "f" forest.',
        "# Odd columns have no row 22: a space there.",
        *terrain_rows(GRID, out.terrain),
        "",
        "westwall = [",
        *hex_rows(out.westwall, 12),
        "]",
        "",
    ]
    for n, h, kind in sorted(out.places, key=lambda p: p[1]):
        L += ["[[place]]", f"name = {quoted(n)}", f'hex = "{hex_name(h)}"', f'kind = "{kind}"', ""]
    for n, h in out.localities:
        L += ["[[place]]", f"name = {quoted(n)}", f'hex = "{hex_name(h)}"', 'kind = "locality"', ""]
    for rname, sides in out.rivers.items():
        if sides:
            L += river_table([f"name = {quoted(rname)}"], sides, out.bridges[rname])
    for rname, hexes in out.roads:
        L += road_table(rname, hexes)
    L += [
        "[edges]",
        "# 10.2 prints impossible ranges (3201-3221, 3101-3121); see docs/rules/ardennes44-map.md.",
        'german = [{ edge = "east" }]',
        'allied = [{ edge = "west" }, { edge = "north", from = 1, to = 28 }, { edge = "south", from = 1, to = 31 }]',
        "",
        "[entry]",
        "german = [" + ", ".join(quoted(x) for x in ENTRY_GERMAN) + "]",
        "allied = [" + ", ".join(quoted(x) for x in ENTRY_ALLIED) + "]",
    ]
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


def check(out: MapData) -> list[str]:
    """Every problem of the map as written; fills in ``out.beyond_meuse``."""
    doc = tomllib.loads(write(out))
    problems = check_terrain(doc["terrain"]["rows"])
    problems += check_rivers_and_roads(doc)
    problems += check_places(doc)
    problems += check_entries(out)
    problems += check_meuse(out)
    problems += check_set_ups(out)
    return problems


def check_terrain(rows: list[str]) -> list[str]:
    """The terrain rows: one letter per hex, a space off the map."""
    problems: list[str] = []
    if len(rows) != ROWS:
        problems.append("wrong number of terrain rows")
    for r, letters in enumerate(rows, start=1):
        if len(letters) != COLUMNS:
            problems.append(f"row {r} has {len(letters)} characters")
        for c, ch in enumerate(letters, start=1):
            on_map = GRID.contains(make_hex(c, r))
            if on_map and ch not in ".rf":
                problems.append(f"{c:02d}{r:02d} bad letter {ch!r}")
            if not on_map and ch != " ":
                problems.append(f"{c:02d}{r:02d} off map but not a space")
    return problems


def check_rivers_and_roads(doc: dict[str, Any]) -> list[str]:
    """River hexsides and road links join adjacent hexes; bridges are river hexsides; no road crosses a river
    unbridged."""
    problems: list[str] = []
    all_sides: set[Hexside] = set()
    for rv in doc["river"]:
        sides = {hexside(parse_hex(a), parse_hex(b)) for a, b in rv["hexsides"]}
        all_sides |= sides
        for a, b in sides:
            if not GRID.are_adjacent(a, b):
                problems.append(f"river {rv['name']}: {hex_name(a)}-{hex_name(b)} not adjacent")
        for a, b in rv["bridges"]:
            if hexside(parse_hex(a), parse_hex(b)) not in sides:
                problems.append(f"river {rv['name']}: bridge {a}-{b} not a hexside")
    bridged = {hexside(parse_hex(a), parse_hex(b)) for rv in doc["river"] for a, b in rv["bridges"]}
    for rd in doc["road"]:
        for a, b in pairwise([parse_hex(x) for x in rd["hexes"]]):
            if not GRID.are_adjacent(a, b):
                problems.append(f"road {rd['name']}: {hex_name(a)}-{hex_name(b)} not adjacent")
            if hexside(a, b) in all_sides and hexside(a, b) not in bridged:
                problems.append(f"road {rd['name']}: {hex_name(a)}-{hex_name(b)} crosses a river unbridged")
    return problems


def check_places(doc: dict[str, Any]) -> list[str]:
    """The towns the rules name are there, of their kind, and in the hexes the rules print."""
    problems: list[str] = []
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
    return problems


def check_entries(out: MapData) -> list[str]:
    """Entry hexes on their side's edges, and on a road."""
    problems: list[str] = []
    for h in ENTRY_GERMAN:
        if not SURVEY.on_edge(parse_hex(h), "east"):
            problems.append(f"German entry {h} not on the east edge")
    for h in ENTRY_ALLIED:
        if not on_allied_edge(parse_hex(h)):
            problems.append(f"Allied entry {h} not on an Allied edge")
    onroad = {h for _n, hexes in out.roads for h in hexes}
    for h in ENTRY_ALLIED + ENTRY_GERMAN:
        if parse_hex(h) not in onroad:
            problems.append(f"entry hex {h} is on no road")
    return problems


def on_allied_edge(h: Hex) -> bool:
    """Whether a hex is on the Allied edges (10.2): the west edge, the north edge to column 28, the south edge
    to column 31."""
    return (
        SURVEY.on_edge(h, "west")
        or (SURVEY.on_edge(h, "north") and column(h) <= 28)
        or (SURVEY.on_edge(h, "south") and column(h) <= 31)
    )


def check_meuse(out: MapData) -> list[str]:
    """The Meuse as a barrier: the hexes a walk from the east edge cannot reach without crossing it are beyond
    it (kept in ``out.beyond_meuse``)."""
    problems: list[str] = []
    east = [h for h in HEXES if SURVEY.on_edge(h, "east")]
    seen = SURVEY.reach(east, out.rivers["Meuse"])
    beyond = [h for h in HEXES if h not in seen]
    out.beyond_meuse = beyond
    for h in ["0105", "1601", "0405"]:
        if parse_hex(h) not in beyond:
            problems.append(f"{h} should be beyond the Meuse")
    for h in ["0116", "0921", "0410", "1004", "0313", "3407"]:
        if parse_hex(h) in beyond:
            problems.append(f"{h} should be east of the Meuse")
    return problems


def check_set_ups(out: MapData) -> list[str]:
    """Set-up hexes on their side of every barrier: each reaches its own edges without crossing an unbridged
    river hexside (the route a supply line or mechanized unit would need), and no hex is cut off."""
    problems: list[str] = []
    unbridged = set().union(*out.rivers.values()) - set().union(*out.bridges.values())
    german_reach = SURVEY.reach([h for h in HEXES if SURVEY.on_edge(h, "east")], unbridged)
    allied_reach = SURVEY.reach([h for h in HEXES if on_allied_edge(h)], unbridged)
    for label, numbers, reached, edge in (
        ("German", GERMAN_SETUP, german_reach, "the east edge"),
        ("US", US_SETUP, allied_reach, "the Allied edges"),
    ):
        for h in numbers:
            if not GRID.contains(parse_hex(h)):
                problems.append(f"{label} setup {h} off map")
            elif parse_hex(h) not in reached:
                problems.append(f"{label} setup {h} cut off from {edge}")
    unreached = [hex_name(h) for h in HEXES if h not in allied_reach or h not in german_reach]
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
            items.append(f"{hex_name(a)}({town.get(a, '')})-{hex_name(b)}({town.get(b, '')})")
        print(f"{rname} bridges: " + "; ".join(items))


def draw(out: MapData, path: str) -> None:
    from PIL import Image, ImageDraw

    S = int(os.environ.get("HEXPX", "34"))
    W, H = int(COLUMNS * S * 0.87 + S * 2), int((ROWS + 1) * S + S)
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)

    def px(h: Hex) -> tuple[float, float]:
        c, r = column(h), row(h)
        return (S + (c - 1) * S * 0.87, S + (r - 1) * S + (S / 2 if c % 2 else 0))

    col: dict[str, tuple[int, int, int]] = {".": (235, 230, 200), "r": (190, 160, 120), "f": (90, 150, 80)}
    ww = set(out.westwall)
    for h in HEXES:
        x, y = px(h)
        rr = S * 0.58
        pts = [(x + rr * math.cos(math.radians(a)), y + rr * math.sin(math.radians(a))) for a in range(0, 360, 60)]
        d.polygon(pts, fill=col[out.terrain[h]], outline=(120, 120, 120))
        if h in ww:
            d.line([*pts, pts[0]], fill=(80, 80, 80), width=3)
        d.text((x - 10, y + 6), hex_name(h), fill=(90, 90, 90))
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
