"""Rebuild scenarios/alsace44/map.toml from geography.py (the standard library and the shared toolkit,
scenarios/mapmaking.py).

    python scenarios/alsace44/geography/build_map.py            # write map.toml and print the checks
    python scenarios/alsace44/geography/build_map.py --check    # checks only, write nothing

The method (the same as Ardennes 1944's builder) is described in docs/rules/alsace44-map.md.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[2])]  # its sibling geography.py, and the repository's packages
if TYPE_CHECKING:
    from scenarios.alsace44.geography import geography as G
else:
    import geography as G

from engine.hexgrid import Grid, Hex, Hexside, column, hex_name, hexside, parse_hex, row  # noqa: E402
from scenarios.mapmaking import (  # noqa: E402
    Dropped,
    GridXY,
    LatLon,
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

COLUMNS, ROWS = 34, 22
# Odd columns sit half a hex lower and stop at row 21; even columns run to row 22 (docs: "The grid").
GRID = Grid(COLUMNS, ROWS, "odd")
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


def centre(h: Hex) -> LatLon:
    """(lat, lon) of a hex centre: the least-squares fit of the printed towns (docs: "The grid")."""
    c, r = column(h), row(h)
    return (47.8861 - 0.0248 * (r - 0.25 + (0.5 if c % 2 else 0.0)), 6.4991 + 0.0331 * c)


def to_grid(p: LatLon) -> GridXY:
    """Plane coordinates in which one unit is one column (x) and one row (y)."""
    lat, lon = p
    return ((lon - 6.4991) / 0.0331 * 0.866, (47.8861 - lat) / 0.0248)


SURVEY = Survey(GRID, centre, to_grid, G.ANCHORS)
HEXES = SURVEY.hexes


# -------------------------------------------------------------- build ----


@dataclass
class MapData:
    terrain: dict[Hex, str]
    places: list[tuple[str, list[Hex], str]]  # (name, hexes, kind)
    dropped: list[Dropped]
    rivers: dict[str, set[Hexside]]
    bridges: dict[str, set[Hexside]]
    roads: list[tuple[str, list[Hex]]]
    forts: list[Hex]
    factories: list[Hex]
    peaks: dict[str, Hex]
    regions: dict[str, list[Hex]]


def build() -> MapData:
    terrain = SURVEY.terrain(G.TERRAIN_AREAS)
    peaks = raise_peaks(terrain)
    taken = {parse_hex(text): city for city, extra in G.CITY_EXTRA_HEXES.items() for text in extra}
    towns, dropped = SURVEY.place_towns(
        G.SETTLEMENTS, G.HEX_OVERRIDES, taken, lambda h: "is Swiss" if terrain[h] == "s" else None
    )
    placed = [(n, [h] + [parse_hex(t) for t in G.CITY_EXTRA_HEXES.get(n, [])], kind) for n, h, kind in towns]
    swiss = {h for h in HEXES if terrain[h] == "s"}
    rivers = lay_rivers(swiss)
    rhine = rivers["Rhine"]
    coords = {n: (lat, lon) for n, lat, lon, _k, _p in G.SETTLEMENTS}
    roads = SURVEY.lay_roads(
        G.ROADS,
        {n: h for n, h, _k in towns},
        coords,
        river_of(rivers),
        barred=lambda h, n: hexside(h, n) in rhine or n in swiss,
    )
    bridges = road_bridges(rivers, roads)
    for rname, ba, bb in G.EXTRA_BRIDGES:
        bridges[rname].add(hexside(parse_hex(ba), parse_hex(bb)))
    factory_hexes = (SURVEY.nearest_hex(SURVEY.warp((lat, lon))) for _n, lat, lon in G.FACTORIES)
    factories = sorted({f for f in factory_hexes if f is not None})
    bank_poly = SURVEY.warp_all(G.GERMAN_BANK)
    german_bank = {h for h in HEXES if point_in_polygon(centre(h), bank_poly)}
    regions = derive_regions(terrain, rivers, roads, german_bank)
    forts = [parse_hex(f) for f in FORTS]
    return MapData(terrain, placed, dropped, rivers, bridges, roads, forts, factories, peaks, regions)


def raise_peaks(terrain: dict[Hex, str]) -> dict[str, Hex]:
    """Mark each mountain peak's hex ``m`` in ``terrain``; the peaks' hexes by name."""
    peaks: dict[str, Hex] = {}
    for pname, lat, lon in G.PEAKS:
        ph = SURVEY.nearest_hex(SURVEY.warp((lat, lon)))
        if ph is not None:
            terrain[ph] = "m"
            peaks[pname] = ph
    return peaks


def lay_rivers(swiss: set[Hex]) -> dict[str, set[Hexside]]:
    """Each river's hexsides: a hexside already on a bigger river (listed earlier) stays with it, and water
    inside Switzerland is no part of the game."""
    rivers: dict[str, set[Hexside]] = {}
    for rname, (_kind, lines) in G.RIVERS.items():
        sides = SURVEY.crossed_hexsides([SURVEY.warp_all(line) for line in lines])
        for other in rivers.values():
            sides -= other
        rivers[rname] = {s for s in sides if not (s[0] in swiss and s[1] in swiss)}
    return rivers


def derive_regions(
    terrain: dict[Hex, str], rivers: dict[str, set[Hexside]], roads: list[tuple[str, list[Hex]]], german_bank: set[Hex]
) -> dict[str, list[Hex]]:
    """The named areas the rules place units in or score, as hex lists."""
    playable = {h for h in HEXES if terrain[h] != "s"} - german_bank
    front: list[Hex] = []
    for a, b in pairwise([parse_hex(x) for x in FRONT_LINE]):
        for h in SURVEY.hex_line(a, b):
            if not front or front[-1] != h:
                front.append(h)
    rhine = rivers["Rhine"]
    rhine_bank = sorted(h for h in playable if any(hexside(h, n) in rhine for n in SURVEY.neighbours(h)))
    # "east of Belfort and north of the Allaine" (19.2) and "west of the Savoureuse and the Allaine" (19.4):
    # the hexes a walk from Belfort's east side / from the front reaches without crossing the river.
    allaine, savoureuse = rivers["Allaine"], rivers["Savoureuse"]
    east_start = [parse_hex("1210"), parse_hex("1209")]
    north_of_allaine = SURVEY.reach(east_start, allaine | savoureuse | rhine, playable)
    east_of_belfort = sorted(h for h in north_of_allaine if column(h) >= 12)
    # [19.4.1] The Savoureuse rises inside the map: north of its source, its line runs on up the source's
    # hex column to the north edge, or a walk would go round the source and take the whole German side.
    source = min(savoureuse, key=lambda side: min(row(side[0]), row(side[1])))
    source_row, east_col = min(row(source[0]), row(source[1])), max(column(source[0]), column(source[1]))
    east_of_source = {h for h in playable if row(h) <= source_row and column(h) >= east_col}
    west_of_rivers = sorted(SURVEY.reach([parse_hex("0810")], allaine | savoureuse, playable - east_of_source))
    road_hexes = {h for _n, hexes in roads for h in hexes}
    north_roads = sorted(h for h in road_hexes if row(h) == 1)
    # "strictly west of the front line" (19.4): reached from the west edge without entering a front-line hex.
    line = set(front)
    west_edge = [h for h in playable if column(h) == 1 and h not in line]
    west_of_front = SURVEY.reach(west_edge, set(), playable - line)
    german_side = playable - west_of_front
    german_variant = sorted(german_side & set(west_of_rivers))
    # [19.2] the free strongpoints: "not more than 5 hexes from the front line", on the German side of it.
    near_front = sorted(h for h in german_side if min(GRID.distance(h, f) for f in front) <= 5)
    french_entry = sorted(h for h in playable if column(h) == 1 or (SURVEY.on_edge(h, "south") and column(h) <= 11))
    return {
        "front line": front,
        "rhine bank": rhine_bank,
        "east of Belfort, north of the Allaine": east_of_belfort,
        "west of the Savoureuse and the Allaine": west_of_rivers,
        "north-edge roads": north_roads,
        "northern exit roads": [parse_hex(x) for x in NORTH_EXITS],
        "north or north-east of Mulhouse": [parse_hex(x) for x in NORTH_OF_MULHOUSE],
        "east bank of the Rhine": sorted(german_bank),
        "Switzerland": sorted(h for h in HEXES if terrain[h] == "s"),
        "west of the front line": sorted(west_of_front),
        "German variant set-up area": german_variant,
        "east of the front line": sorted(german_side),
        "within 5 hexes of the front line, German side": near_front,
        "French entry edges": french_entry,
    }


# -------------------------------------------------------------- write ----


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
        *terrain_rows(GRID, out.terrain),
        "",
    ]
    lines += ["[[overlay]]", 'kind = "fort"', 'rule = "12.3, 19.2"', "hexes = [", *hex_rows(out.forts, 14), "]", ""]
    lines += ["[[overlay]]", 'kind = "factory"', 'rule = "TEC"', 'reconstructed = ["hexes"]', "hexes = ["]
    lines += [*hex_rows(out.factories, 14), "]", ""]
    for n, hexes, kind in sorted(out.places, key=lambda p: p[1][0]):
        lines += ["[[place]]", f"name = {quoted(n)}"]
        if len(hexes) == 1:
            lines.append(f'hex = "{hex_name(hexes[0])}"')
        else:
            lines.append("hexes = [" + ", ".join(quoted(hex_name(h)) for h in hexes) + "]")
        lines += [f'kind = "{kind}"', ""]
    for pname, h in out.peaks.items():
        lines += ["[[place]]", f"name = {quoted(pname)}", f'hex = "{hex_name(h)}"', 'kind = "locality"', ""]
    for rname, sides in out.rivers.items():
        if sides:
            header = [f"name = {quoted(rname)}", f'kind = "{G.RIVERS[rname][0]}"']
            lines += river_table(header, sides, out.bridges[rname])
    for rname, hexes in out.roads:
        lines += road_table(rname, hexes)
    for rname, hexes in out.regions.items():
        lines += ["[[region]]", f"name = {quoted(rname)}", "hexes = [", *hex_rows(hexes, 14), "]", ""]
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
        *[f'  {{ hex = "{hex_name(h)}" }},' for h in out.regions["north-edge roads"]],
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
    """Every problem of the map against what the rules print."""
    swiss = set(out.regions["Switzerland"])
    bank = set(out.regions["east bank of the Rhine"])
    problems = check_places(out, swiss)
    problems += check_set_ups(out, swiss | bank)
    problems += check_roads(out, swiss)
    # Every playable hex west of the Rhine is reachable from the French edge (nothing cut off).
    playable = {h for h in HEXES if h not in swiss and h not in bank}
    french_edge = [h for h in playable if column(h) == 1 or (row(h) == 1 and column(h) <= 7)]
    cut = playable - SURVEY.reach(french_edge, out.rivers["Rhine"], playable)
    if cut:
        problems.append(f"hexes cut off from the French edge: {sorted(hex_name(h) for h in cut)}")
    if not out.regions["rhine bank"]:
        problems.append("no Rhine-bank hexes")
    for h in out.regions["front line"]:
        if h in swiss:
            problems.append(f"front line hex {hex_name(h)} is Swiss")
    return problems


def check_places(out: MapData, swiss: set[Hex]) -> list[str]:
    """The towns in the hexes the rules print (19.1, 19.2), the cities cities, no fort in Switzerland."""
    problems: list[str] = []
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
        got = [hex_name(h) for h in places.get(n, ([], ""))[0]]
        if got != want:
            problems.append(f"{n} is at {got}, the rules print {want}")
    for n in ("Belfort", "Mulhouse", "Montbéliard", "Sochaux"):
        if places.get(n, ([], ""))[1] != "city":
            problems.append(f"{n} must be a city (19.1, 19.2)")
    for f in FORTS:
        if parse_hex(f) in swiss:
            problems.append(f"fort {f} is in Switzerland")
    return problems


def check_set_ups(out: MapData, outside: set[Hex]) -> list[str]:
    """The set-up hexes of 19.2 on the map, in play (not ``outside``: Switzerland, across the Rhine), on no
    peak, and parted by the front line: French hexes west of it, German hexes on it or east."""
    problems: list[str] = []
    for label, numbers in (("German", GERMAN_SETUP), ("French", FRENCH_SETUP)):
        for x in numbers:
            h = parse_hex(x)
            if not GRID.contains(h):
                problems.append(f"{label} set-up hex {x} is off the map")
            elif h in outside:
                problems.append(f"{label} set-up hex {x} is in Switzerland or across the Rhine")
            elif out.terrain[h] == "m":
                problems.append(f"{label} set-up hex {x} is a mountain peak")
    west = set(out.regions["west of the front line"])
    problems += [
        f"French set-up hex {x} is not west of the front line" for x in FRENCH_SETUP if parse_hex(x) not in west
    ]
    problems += [f"German set-up hex {x} is west of the front line" for x in GERMAN_SETUP if parse_hex(x) in west]
    return problems


def check_roads(out: MapData, swiss: set[Hex]) -> list[str]:
    """The road hexes 19.2 names are on roads; roads join adjacent hexes, never cross the Rhine nor enter
    Switzerland."""
    problems: list[str] = []
    road_hexes = {h for _n, chain in out.roads for h in chain}
    for x in NORTH_EXITS + MULHOUSE_GROUP_ROADS + [CHALAMPE]:
        if parse_hex(x) not in road_hexes:
            problems.append(f"{x} must be a road hex (19.2)")
    for rname, chain in out.roads:
        for a, b in pairwise(chain):
            if not GRID.are_adjacent(a, b):
                problems.append(f"road {rname}: {hex_name(a)}-{hex_name(b)} not adjacent")
            if hexside(a, b) in out.rivers["Rhine"]:
                problems.append(f"road {rname} crosses the Rhine at {hex_name(a)}-{hex_name(b)}")
            if a in swiss or b in swiss:
                problems.append(f"road {rname} enters Switzerland at {hex_name(a)}-{hex_name(b)}")
    return problems


def report(out: MapData) -> None:
    n = len(HEXES)
    counts = {k: sum(1 for v in out.terrain.values() if v == k) for k in ".dfms"}
    print(f"hexes {n}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    peaks = {n: hex_name(h) for n, h in out.peaks.items()}
    print(f"places {len(out.places)}, forts {len(out.forts)}, factories {len(out.factories)}, peaks {peaks}")
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
