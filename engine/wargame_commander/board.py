"""The board as data: map, places, airfields, squads, aircraft chart, units and score table, with a validating
reader that lists every problem it finds (``umpire validate``).

The rule text has none of this (it cites a "groundmap", an "airmap", an "a/c step chart" and a "squad a/c"
list); the bundled board is a reconstruction (``scenarios/wargame_commander``) that a league may replace.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from engine.hexgrid import Grid, Hex, hex_name, parse_hex

Side = str
TERRAIN = {".": "plain", "w": "woods", "h": "hills", "r": "river", "s": "sea"}
"""2.3d: the five hex terrain types, by their letter in the board file."""
MOVE_COST = {"plain": 1, "woods": 2, "hills": 3, "river": 2, "sea": 2}
"""2.3d: movement points to enter a hex."""
SIZES = ("tac", "small", "medium", "large")
DAMAGE_LEVELS = ("light", "moderate", "heavy")
CLASSES = ("fighter", "strike", "bomber", "jet", "heavy")
ROLES = ("fighter", "strike", "bomber")


class BoardError(ValueError):
    """A board file with problems; ``problems`` lists each one with its entry."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s) in the board: " + "; ".join(problems[:5]))


@dataclass(frozen=True)
class Place:
    id: str
    name: str
    hex: Hex
    side: Side | None = None
    army: str | None = None
    """The Army HQ a supply depot serves (2.3c)."""
    grid: str | None = None
    """The flight-sim grid of a depot (3.3c)."""


@dataclass(frozen=True)
class Airfield:
    id: str
    name: str
    hex: Hex | None
    side: Side
    area: str
    size: str
    rear: bool
    steps: Mapping[str, int]


@dataclass(frozen=True)
class Aircraft:
    type: str
    side: Side
    klass: str
    flown_by: tuple[str, ...]


@dataclass(frozen=True)
class Squad:
    id: str
    name: str
    side: Side
    role: str
    steps: int
    types: tuple[str, ...]


@dataclass(frozen=True)
class UnitType:
    name: str
    strength: int
    movement: int
    zoc: bool
    blitz: bool


@dataclass(frozen=True)
class UnitSpec:
    id: str
    name: str
    side: Side
    type: str
    army: str
    """The unit's Army HQ (an HQ's is itself)."""
    hex: Hex


@dataclass(frozen=True)
class Area:
    id: str
    side: Side
    name: str
    mainland: bool


@dataclass(frozen=True)
class BasingMinimum:
    side: Side
    areas: tuple[str, ...]
    squad_steps: int


@dataclass(frozen=True)
class Scoring:
    classes: Mapping[str, tuple[float, float]]
    """5.1 points by scoring class: (shot down, destroyed on the ground)."""
    depot_damaged: float
    depot_captured: float
    frontline_break: float
    engagement: float
    retreat: float
    surrender: float
    aircraft_per_step: int
    bands: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class Board:
    """Everything a series is played on, read from one board file."""

    id: str
    title: str
    sides: tuple[Side, Side]
    frames: int
    grid: Grid
    terrain: Mapping[Hex, str]
    tac_towns: tuple[Place, ...]
    bridges: tuple[Place, ...]
    depots: Mapping[str, Place]
    radar: tuple[Place, ...]
    field_sizes: Mapping[str, tuple[int, int]]
    """1.3: size to (squad steps, aircraft steps)."""
    airfield_damage: Mapping[str, Mapping[str, int]]
    areas: Mapping[str, Area]
    basing_minimums: tuple[BasingMinimum, ...]
    aircraft: Mapping[str, Aircraft]
    scoring: Scoring
    airfields: Mapping[str, Airfield]
    squads: Mapping[str, Squad]
    unit_types: Mapping[str, UnitType]
    units: Mapping[str, UnitSpec]

    def enemy(self, side: Side) -> Side:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def is_sea(self, hex_: Hex) -> bool:
        return self.terrain.get(hex_) == "sea"

    @cached_property
    def land_hexes(self) -> tuple[Hex, ...]:
        return tuple(h for h in self.grid.hexes if not self.is_sea(h))

    @cached_property
    def north_anchor(self) -> frozenset[Hex]:
        """2.2c: where a frontline may start: the north edge, or a land hex next to the sea (a board edge)."""
        return frozenset(
            h for h in self.land_hexes if h % 100 == 1 or any(self.is_sea(n) for n in self.grid.neighbours(h))
        )

    @cached_property
    def south_anchor(self) -> frozenset[Hex]:
        """2.2c: where a frontline ends: the last row of each column."""
        return frozenset(h for h in self.land_hexes if h % 100 == self.grid.last_row(h // 100))

    def place_names(self, hex_: Hex) -> list[str]:
        names = [p.name for p in (*self.tac_towns, *self.depots.values()) if p.hex == hex_]
        return list(dict.fromkeys(names))


# --- Reading -------------------------------------------------------------------------------------------------


class _Reader:
    def __init__(self) -> None:
        self.problems: list[str] = []

    def problem(self, where: str, text: str) -> None:
        self.problems.append(f"{where}: {text}")

    def text(self, raw: Mapping[str, Any], key: str, where: str, default: str | None = None) -> str:
        value = raw.get(key, default)
        if not isinstance(value, str) or not value:
            self.problem(where, f"`{key}` must be a non-empty text")
            return ""
        return value

    def number(self, raw: Mapping[str, Any], key: str, where: str, low: float = 0) -> float:
        value = raw.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float) or value < low:
            self.problem(where, f"`{key}` must be a number of at least {low}, not {value!r}")
            return low
        return float(value)

    def whole(self, raw: Mapping[str, Any], key: str, where: str, low: int = 0) -> int:
        value = raw.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            self.problem(where, f"`{key}` must be a whole number of at least {low}, not {value!r}")
            return low
        return value

    def hex(self, raw: Mapping[str, Any], where: str, grid: Grid, optional: bool = False) -> Hex | None:
        value = raw.get("hex")
        if value is None and optional:
            return None
        try:
            hex_ = parse_hex(str(value))
        except ValueError as error:
            self.problem(where, str(error))
            return None
        if not grid.contains(hex_):
            self.problem(where, f"hex {hex_name(hex_)} is not on the map")
            return None
        return hex_


def parse_board(raw: Mapping[str, Any]) -> Board:
    """Read and check a board document (the parsed TOML).

    :raises BoardError: listing every problem found, each with its entry.
    """
    r = _Reader()
    sides_raw = raw.get("sides", ["allied", "german"])
    if not isinstance(sides_raw, list) or len(sides_raw) != 2:
        r.problem("sides", "two sides are needed")
        sides_raw = ["allied", "german"]
    sides = (str(sides_raw[0]), str(sides_raw[1]))
    grid, terrain = _read_map(r, raw.get("map", {}))
    tac_towns = _read_places(r, raw, "tac_towns", sides, grid, terrain)
    bridges = _read_places(r, raw, "bridges", sides, grid, terrain)
    radar = _read_places(r, raw, "radar", sides, grid, terrain)
    depots = {p.id: p for p in _read_places(r, raw, "depots", sides, grid, terrain, depot=True)}
    field_sizes = _read_field_sizes(r, raw)
    damage = _read_airfield_damage(r, raw)
    areas = _read_areas(r, raw, sides)
    minimums = _read_basing_minimums(r, raw, areas)
    aircraft = _read_aircraft(r, raw, sides)
    scoring = _read_scoring(r, raw.get("scoring", {}))
    airfields = _read_airfields(r, raw, grid, terrain, areas, aircraft, field_sizes)
    squads = _read_squads(r, raw, aircraft)
    for side in sides:
        _check_operation_room(r, side, areas, airfields, squads, aircraft, field_sizes)
    unit_types = _read_unit_types(r, raw)
    units = _read_units(r, raw, sides, grid, terrain, unit_types)
    _check_armies(r, units, depots)
    frames = _read_frames(r, raw)
    if r.problems:
        raise BoardError(r.problems)
    return Board(
        id=str(raw.get("id", "board")),
        title=str(raw.get("title", raw.get("id", "board"))),
        sides=sides,
        frames=frames,
        grid=grid,
        terrain=terrain,
        tac_towns=tuple(tac_towns),
        bridges=tuple(bridges),
        depots=depots,
        radar=tuple(radar),
        field_sizes=field_sizes,
        airfield_damage=damage,
        areas=areas,
        basing_minimums=tuple(minimums),
        aircraft=aircraft,
        scoring=scoring,
        airfields=airfields,
        squads=squads,
        unit_types=unit_types,
        units=units,
    )




def _read_places(
    r: _Reader,
    raw: Mapping[str, Any],
    key: str,
    sides: tuple[str, str],
    grid: Grid,
    terrain: dict[Hex, str],
    depot: bool = False,
) -> list[Place]:
    """The places of one list (tac towns, bridges, radar sites, depots): each named, on a land hex."""
    found = []
    for i, item in enumerate(raw.get(key, [])):
        where = f"{key}[{i}] {item.get('id') or item.get('name', '')}".rstrip()
        hex_ = r.hex(item, where, grid)
        side = item.get("side")
        if side is not None and side not in sides:
            r.problem(where, f"no side {side!r}")
        if hex_ is not None and terrain.get(hex_) == "sea":
            r.problem(where, f"hex {hex_name(hex_)} is sea")
        name = r.text(item, "name", where)
        found.append(
            Place(
                id=str(item.get("id", name)),
                name=name,
                hex=hex_ or 0,
                side=side,
                army=item.get("army") if depot else None,
                grid=str(item["grid"]) if depot and "grid" in item else None,
            )
        )
    return found


def _read_field_sizes(r: _Reader, raw: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    """1.3: the squad steps and aircraft steps each size of airfield holds."""
    field_sizes = {}
    for size in SIZES:
        item = raw.get("field_sizes", {}).get(size, {})
        field_sizes[size] = (
            r.whole(item, "squad_steps", f"field_sizes.{size}", 1),
            r.whole(item, "aircraft_steps", f"field_sizes.{size}", 1),
        )
    return field_sizes


def _read_airfield_damage(r: _Reader, raw: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """1.5b: the aircraft steps each level of damage costs each size of airfield."""
    damage = {}
    for size in SIZES:
        item = raw.get("airfield_damage", {}).get(size, {})
        damage[size] = {level: r.whole(item, level, f"airfield_damage.{size}") for level in DAMAGE_LEVELS}
    return damage


def _read_areas(r: _Reader, raw: Mapping[str, Any], sides: tuple[str, str]) -> dict[str, Area]:
    """1.4: the air force ops areas, each of one side."""
    areas = {}
    for area_id, item in raw.get("areas", {}).items():
        side = item.get("side")
        if side not in sides:
            r.problem(f"areas.{area_id}", f"no side {side!r}")
        areas[area_id] = Area(area_id, str(side), str(item.get("name", area_id)), bool(item.get("mainland", True)))
    return areas


def _read_basing_minimums(r: _Reader, raw: Mapping[str, Any], areas: dict[str, Area]) -> list[BasingMinimum]:
    """1.4: the squad steps each side must base in some of its ops areas."""
    minimums = []
    for i, item in enumerate(raw.get("basing_minimums", [])):
        where = f"basing_minimums[{i}]"
        listed = tuple(item.get("areas", []))
        for area in listed:
            if area not in areas or areas[area].side != item.get("side"):
                r.problem(where, f"no area {area!r} of side {item.get('side')!r}")
        minimums.append(BasingMinimum(str(item.get("side")), listed, r.whole(item, "squad_steps", where)))
    return minimums


def _read_aircraft(r: _Reader, raw: Mapping[str, Any], sides: tuple[str, str]) -> dict[str, Aircraft]:
    """1.2: the aircraft step chart: each type's side, class and the roles that fly it."""
    aircraft = {}
    for i, item in enumerate(raw.get("aircraft", [])):
        where = f"aircraft[{i}] {item.get('type', '')}"
        type_ = r.text(item, "type", where)
        klass = item.get("class")
        if klass not in CLASSES:
            r.problem(where, f"`class` must be one of {', '.join(CLASSES)}, not {klass!r}")
        flown_by = tuple(item.get("flown_by", []))
        if not flown_by or any(role not in ROLES for role in flown_by):
            r.problem(where, f"`flown_by` must list roles among {', '.join(ROLES)}")
        if item.get("side") not in sides:
            r.problem(where, f"no side {item.get('side')!r}")
        if type_ in aircraft:
            r.problem(where, "this type is listed twice")
        aircraft[type_] = Aircraft(type_, str(item.get("side")), str(klass), flown_by)
    return aircraft


def _read_airfields(
    r: _Reader,
    raw: Mapping[str, Any],
    grid: Grid,
    terrain: dict[Hex, str],
    areas: dict[str, Area],
    aircraft: dict[str, Aircraft],
    field_sizes: dict[str, tuple[int, int]],
) -> dict[str, Airfield]:
    """1.1, 1.3: the airfields, each holding the aircraft steps of its size."""
    airfields = {}
    for i, item in enumerate(raw.get("airfields", [])):
        where = f"airfields[{i}] {item.get('id', '')}"
        field_id = r.text(item, "id", where)
        size = item.get("size")
        if size not in SIZES:
            r.problem(where, f"`size` must be one of {', '.join(SIZES)}, not {size!r}")
            size = "tac"
        side = str(item.get("side"))
        area = str(item.get("area"))
        if area not in areas or areas[area].side != side:
            r.problem(where, f"no ops area {area!r} of side {side!r}")
        hex_ = r.hex(item, where, grid, optional=True)
        if hex_ is not None and terrain.get(hex_) == "sea":
            r.problem(where, f"hex {hex_name(hex_)} is sea")
        steps = {str(k): v for k, v in dict(item.get("steps", {})).items()}
        for type_, count in steps.items():
            if type_ not in aircraft or aircraft[type_].side != side:
                r.problem(where, f"no {side} aircraft type {type_!r} in the step chart")
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                r.problem(where, f"steps of {type_!r} must be a whole number, not {count!r}")
        total = sum(v for v in steps.values() if isinstance(v, int))
        if total != field_sizes[size][1]:
            r.problem(where, f"a {size} field holds {field_sizes[size][1]} aircraft steps (1.3), not {total}")
        if field_id in airfields:
            r.problem(where, "this id is used twice")
        airfields[field_id] = Airfield(
            field_id, str(item.get("name", field_id)), hex_, side, area, str(size), bool(item.get("rear", False)), steps
        )
    return airfields


def _read_squads(r: _Reader, raw: Mapping[str, Any], aircraft: dict[str, Aircraft]) -> dict[str, Squad]:
    """1.2: the squads, each flying types its role may."""
    squads = {}
    for i, item in enumerate(raw.get("squads", [])):
        where = f"squads[{i}] {item.get('id', '')}"
        squad_id = r.text(item, "id", where)
        role = item.get("role")
        if role not in ROLES:
            r.problem(where, f"`role` must be one of {', '.join(ROLES)}, not {role!r}")
        side = str(item.get("side"))
        types = tuple(item.get("types", []))
        for type_ in types:
            plane = aircraft.get(type_)
            if plane is None or plane.side != side:
                r.problem(where, f"no {side} aircraft type {type_!r} in the step chart")
            elif role not in plane.flown_by:
                r.problem(where, f"a {role} squad may not fly the {type_} (1.2)")
        if not types:
            r.problem(where, "a squad flies at least one aircraft type")
        squads[squad_id] = Squad(
            squad_id, str(item.get("name", squad_id)), side, str(role), r.whole(item, "steps", where, 1), types
        )
    return squads


def _read_unit_types(r: _Reader, raw: Mapping[str, Any]) -> dict[str, UnitType]:
    """2.1: the ground unit types: strength, movement, zone of control, Blitz."""
    unit_types = {}
    for type_id, item in raw.get("unit_types", {}).items():
        where = f"unit_types.{type_id}"
        unit_types[type_id] = UnitType(
            str(item.get("name", type_id)),
            r.whole(item, "strength", where, 1),
            r.whole(item, "movement", where, 1),
            bool(item.get("zoc", True)),
            bool(item.get("blitz", False)),
        )
    if "hq" not in unit_types:
        r.problem("unit_types", "an `hq` type (Army HQ) is needed")
    return unit_types


def _read_units(
    r: _Reader,
    raw: Mapping[str, Any],
    sides: tuple[str, str],
    grid: Grid,
    terrain: dict[Hex, str],
    unit_types: dict[str, UnitType],
) -> dict[str, UnitSpec]:
    """2.1, 2.3g: the ground units, one a land hex."""
    units: dict[str, UnitSpec] = {}
    occupied: dict[Hex, str] = {}
    for i, item in enumerate(raw.get("units", [])):
        where = f"units[{i}] {item.get('id', '')}"
        unit_id = r.text(item, "id", where)
        type_id = str(item.get("type"))
        if type_id not in unit_types:
            r.problem(where, f"no unit type {type_id!r}")
        side = str(item.get("side"))
        if side not in sides:
            r.problem(where, f"no side {side!r}")
        hex_ = r.hex(item, where, grid)
        if hex_ is not None:
            if terrain.get(hex_) == "sea":
                r.problem(where, f"hex {hex_name(hex_)} is sea")
            if hex_ in occupied:
                r.problem(where, f"hex {hex_name(hex_)} already holds {occupied[hex_]} (2.3g: one unit per hex)")
            occupied[hex_] = unit_id
        army = unit_id if type_id == "hq" else str(item.get("army"))
        if unit_id in units:
            r.problem(where, "this id is used twice")
        units[unit_id] = UnitSpec(unit_id, str(item.get("name", unit_id)), side, type_id, army, hex_ or 0)
    return units


def _check_armies(r: _Reader, units: dict[str, UnitSpec], depots: dict[str, Place]) -> None:
    """Every unit and depot belongs to an Army HQ of its side."""
    for unit in units.values():
        hq = units.get(unit.army)
        if hq is None or hq.type != "hq" or hq.side != unit.side:
            r.problem(f"units {unit.id}", f"`army` must name an Army HQ of its side, not {unit.army!r}")
    for depot in depots.values():
        hq = units.get(depot.army or "")
        if hq is None or hq.type != "hq" or hq.side != depot.side:
            r.problem(f"depots {depot.id}", f"`army` must name an Army HQ of its side, not {depot.army!r}")


def _read_frames(r: _Reader, raw: Mapping[str, Any]) -> int:
    """How many frames a series has (at least 2)."""
    frames = raw.get("frames", 5)
    if not isinstance(frames, int) or frames < 2:
        r.problem("frames", "a series has at least 2 frames")
        frames = 5
    return frames


def _check_operation_room(
    r: _Reader,
    side: Side,
    areas: Mapping[str, Area],
    airfields: Mapping[str, Airfield],
    squads: Mapping[str, Squad],
    aircraft: Mapping[str, Aircraft],
    field_sizes: Mapping[str, tuple[int, int]],
) -> None:
    """1.4, 3.3b: a side with fields off the mainland (the 8th AF in England) must have room for its forced
    moves: every strike and bomber squad at the heavy bomber fields there (The Big Blow), and every squad on
    the mainland (Bodenplatte)."""
    own = [f for f in airfields.values() if f.side == side and f.area in areas]
    if all(areas[f.area].mainland for f in own):
        return
    heavy_fields = [
        f
        for f in own
        if not areas[f.area].mainland and any(t in aircraft and aircraft[t].klass == "heavy" for t in f.steps)
    ]
    room = sum(field_sizes[f.size][0] for f in heavy_fields)
    strike_and_bombers = sum(s.steps for s in squads.values() if s.side == side and s.role in ("strike", "bomber"))
    if room < strike_and_bombers:
        r.problem(
            "airfields",
            f"1.4: in a Big Blow the {side} strike and bomber squads ({strike_and_bombers} squad steps) fly heavies "
            f"from England, but the heavy bomber fields there take {room}",
        )
    mainland_room = sum(field_sizes[f.size][0] for f in own if areas[f.area].mainland)
    every_step = sum(s.steps for s in squads.values() if s.side == side)
    if mainland_room < every_step:
        r.problem(
            "airfields",
            f"3.3b: in Bodenplatte every {side} squad ({every_step} squad steps) is based on the mainland, but the "
            f"mainland fields take {mainland_room}",
        )


def _read_map(r: _Reader, raw: Mapping[str, Any]) -> tuple[Grid, dict[Hex, str]]:
    try:
        grid = Grid(int(raw.get("columns", 0)), int(raw.get("rows", 0)), raw.get("lower_columns", "odd"))
    except (ValueError, TypeError) as error:
        r.problem("map", str(error))
        grid = Grid(1, 1)
    rows = raw.get("terrain", [])
    terrain: dict[Hex, str] = {}
    if not isinstance(rows, list) or len(rows) != grid.rows:
        r.problem("map.terrain", f"one line per row is needed ({grid.rows})")
        return grid, {h: "plain" for h in grid.hexes}
    for row_number, line in enumerate(rows, start=1):
        if not isinstance(line, str) or len(line) != grid.columns:
            r.problem(f"map.terrain row {row_number}", f"one letter per column is needed ({grid.columns})")
            continue
        for col, letter in enumerate(line, start=1):
            hex_ = col * 100 + row_number
            if not grid.contains(hex_):
                continue
            if letter not in TERRAIN:
                r.problem(f"map.terrain row {row_number}", f"unknown terrain letter {letter!r} in column {col}")
                continue
            terrain[hex_] = TERRAIN[letter]
    return grid, terrain


def _read_scoring(r: _Reader, raw: Mapping[str, Any]) -> Scoring:
    classes = {}
    for klass in CLASSES:
        item = raw.get("classes", {}).get(klass, {})
        where = f"scoring.classes.{klass}"
        classes[klass] = (r.number(item, "shot_down", where), r.number(item, "on_ground", where))
    bands_raw = raw.get("bands", [])
    bands = []
    for band in bands_raw:
        if not isinstance(band, list) or len(band) != 2 or not isinstance(band[0], int):
            r.problem("scoring.bands", f"each band is [lowest difference, name], not {band!r}")
            continue
        bands.append((band[0], str(band[1])))
    if not bands or bands[0][0] != 0:
        r.problem("scoring.bands", "the first band starts at a difference of 0")
    return Scoring(
        classes=classes,
        depot_damaged=r.number(raw, "depot_damaged", "scoring"),
        depot_captured=r.number(raw, "depot_captured", "scoring"),
        frontline_break=r.number(raw, "frontline_break", "scoring"),
        engagement=r.number(raw, "engagement", "scoring"),
        retreat=r.number(raw, "retreat", "scoring"),
        surrender=r.number(raw, "surrender", "scoring"),
        aircraft_per_step=r.whole(raw, "aircraft_per_step", "scoring", 1),
        bands=tuple(sorted(bands)),
    )
