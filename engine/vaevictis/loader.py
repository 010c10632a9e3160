"""Build a Vae Victis game from its parsed data files and validate every entry and cross-reference.

A game folder holds ``game.toml`` (names the other files), ``map.toml``, ``counters.toml``, ``setup.toml``,
``scenarios.toml`` and ``tables.toml``; ``docs/scenario-format.md`` describes them. The ``scenarios``
package reads the files (the engine does no I/O) and hands their parsed contents to :func:`build_game`.
Every problem found is reported at once, each naming the file, the entry and what is wrong.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar, cast

from engine.hexgrid import Grid, Hex, Hexside, hex_name, hexside, parse_hex
from engine.vaevictis import combat_rules
from engine.vaevictis.data import (
    EVENT_EFFECTS,
    VICTORY_KINDS,
    Army,
    CrtCell,
    DetachmentTemplate,
    EventDef,
    Formation,
    GameData,
    GameMap,
    Place,
    Placement,
    Reinforcement,
    River,
    Road,
    RuleNumbers,
    ScenarioDef,
    Side,
    SupportGrant,
    Tables,
    TurnDef,
    UnitDef,
    VictoryCondition,
)
from engine.vaevictis.detachments import with_detachment_counters
from engine.vaevictis.rule_table_checks import check_rule_tables
from engine.vaevictis.stratagems import data_problems as stratagem_problems
from engine.vaevictis.stratagems import with_commando_counters
from engine.vaevictis.variant import data_problems as variant_problems

T = TypeVar("T")

TERRAIN_LETTERS = {".": "clear", "r": "rough", "f": "forest"}
"""The map letters when a map does not give its own ``[terrain] letters`` (Ardennes 1944's)."""
UNIT_KINDS = ("infantry", "mechanized", "armored", "hq", "strongpoint", "garrison")
SIDES = ("allied", "german")
NATIONALITIES = ("us", "british", "french", "german")
RIVER_KINDS = ("river", "canal", "uncrossable")
EDGES = ("north", "south", "east", "west")
COMMENT_KEYS = frozenset({"note", "basis", "source", "reconstructed", "rule"})


class ScenarioError(ValueError):
    """A game's data is broken. ``problems`` lists each defect as "file: entry: problem"."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s) in the scenario data:\n" + "\n".join(problems))


class Problems:
    """Collects the defects found while loading, each tied to a file and an entry."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, file: str, entry: str, problem: str) -> None:
        self.items.append(f"{file}: {entry}: {problem}")

    def __bool__(self) -> bool:
        return bool(self.items)


class Reader:
    """Typed access to one TOML table, recording a problem instead of raising."""

    def __init__(self, problems: Problems, file: str, entry: str, table: Mapping[str, Any]) -> None:
        self.problems, self.file, self.entry, self.table = problems, file, entry, table

    def fail(self, problem: str) -> None:
        self.problems.add(self.file, self.entry, problem)

    def get(self, key: str, kind: type[T] | tuple[type, ...], default: Any = ..., *, what: str = "") -> Any:
        if key not in self.table:
            if default is ...:
                self.fail(f"missing '{key}'")
                return None
            return default
        value = self.table[key]
        if isinstance(value, bool) and kind in (int, float):
            self.fail(f"'{key}' must be {what or kind}, not {value!r}")
            return None
        if not isinstance(value, kind):
            self.fail(f"'{key}' must be {what or getattr(kind, '__name__', kind)}, not {value!r}")
            return None
        return value

    def hex(self, key: str, grid: Grid, value: Any = None) -> Hex | None:
        text = self.table.get(key) if value is None else value
        return parse_hex_checked(self, key, text, grid)

    def choice(self, key: str, options: Iterable[str], default: Any = ...) -> Any:
        value = self.get(key, str, default)
        options = tuple(options)
        if value is not None and value is not default and value not in options:
            self.fail(f"'{key}' is {value!r}; expected one of {', '.join(options)}")
            return None
        return value

    def no_unknown_keys(self, known: Iterable[str]) -> None:
        unknown = set(self.table) - set(known) - COMMENT_KEYS
        for key in sorted(unknown):
            self.fail(f"unknown key '{key}'")


def parse_hex_checked(reader: Reader, key: str, text: Any, grid: Grid) -> Hex | None:
    if not isinstance(text, str):
        reader.fail(f"'{key}' must be a hex number string such as \"1817\", not {text!r}")
        return None
    try:
        hex_ = parse_hex(text)
    except ValueError as error:
        reader.fail(str(error))
        return None
    if not grid.contains(hex_):
        reader.fail(f"hex {text} is not on the map")
        return None
    return hex_


Documents = Mapping[str, Mapping[str, Any]]
"""Parsed TOML documents by file name."""


def document(documents: Documents, name: str, problems: Problems) -> Mapping[str, Any]:
    if name not in documents:
        problems.add(name, "(file)", "missing file")
        return {}
    return documents[name]


def entries(problems: Problems, file: str, document: Mapping[str, Any], key: str) -> list[Reader]:
    """A Reader for each table of the ``[[key]]`` array of a document, labelled by its id or position."""
    raw = document.get(key, [])
    if not isinstance(raw, list):
        problems.add(file, key, "must be an array of tables ([[" + key + "]])")
        return []
    found = []
    for index, item in enumerate(raw, start=1):
        label = f"{key} #{index}"
        if isinstance(item, dict):
            ident = item.get("id") or item.get("name") or item.get("unit")
            if isinstance(ident, str):
                label = f"{key} '{ident}'"
            found.append(Reader(problems, file, label, item))
        else:
            problems.add(file, label, "must be a table")
    return found


# --- The map ---------------------------------------------------------------------------------------------


def load_map(documents: Documents, file: str, problems: Problems) -> GameMap | None:
    doc = document(documents, file, problems)
    if not doc:
        return None
    head = Reader(problems, file, "[map]", doc.get("map", {}))
    head.no_unknown_keys(("name", "columns", "rows", "lower_columns"))
    Reader(problems, file, "(top level)", doc).no_unknown_keys(
        ("map", "terrain", "overlay", "place", "river", "road", "region", "edges", "entry")
    )
    columns = head.get("columns", int)
    rows = head.get("rows", int)
    lower = head.choice("lower_columns", ("odd", "even"))
    name = head.get("name", str, "")
    if columns is None or rows is None or lower is None:
        return None
    grid = Grid(columns, rows, lower)
    terrain_table = Reader(problems, file, "[terrain]", doc.get("terrain", {}))
    terrain = _map_terrain(terrain_table, grid)
    westwall = frozenset(
        h
        for text in (terrain_table.get("westwall", list, []) or [])
        if (h := terrain_table.hex("westwall", grid, text)) is not None
    )
    overlays = _map_overlays(problems, file, doc, grid, westwall)
    places = _map_places(problems, file, doc, grid)
    rivers = _map_rivers(problems, file, doc, grid)
    roads = _map_roads(problems, file, doc, grid)
    regions = _map_regions(problems, file, doc, grid)
    friendly = _map_friendly_edges(problems, file, doc, grid)
    entry = _map_entry_hexes(problems, file, doc, grid)
    game_map = GameMap(
        name=name,
        grid=grid,
        terrain=terrain,
        westwall=westwall,
        places=tuple(places),
        rivers=tuple(rivers),
        roads=tuple(roads),
        friendly_edges=friendly,
        entry_hexes=entry,
        overlays=overlays,
        regions=regions,
    )
    for road in roads:
        for a, b in road.links:
            river = game_map.river_between(a, b)
            if river and not game_map.is_bridged(a, b):
                problems.add(
                    file,
                    f"road '{road.name}'",
                    f"crosses the {river.kind} between {hex_name(a)} and {hex_name(b)} without a bridge",
                )
    return game_map


def _map_terrain(terrain_table: Reader, grid: Grid) -> dict[Hex, Any]:
    """The terrain of every hex, read from the ``[terrain]`` rows of letters (one row of the map each)."""
    problems, file = terrain_table.problems, terrain_table.file
    terrain: dict[Hex, Any] = {}
    terrain_table.no_unknown_keys(("rows", "westwall", "letters"))
    letters = terrain_table.get("letters", dict, TERRAIN_LETTERS) or TERRAIN_LETTERS
    for letter, terrain_name in letters.items():
        if len(letter) != 1 or letter == " " or not isinstance(terrain_name, str):
            terrain_table.fail(f"letters maps one character to a terrain name, not {letter!r} = {terrain_name!r}")
    terrain_rows = terrain_table.get("rows", list)
    if terrain_rows is None:
        return terrain
    if len(terrain_rows) != grid.rows:
        problems.add(file, "[terrain]", f"has {len(terrain_rows)} rows; the map has {grid.rows}")
    for r, line in enumerate(terrain_rows, start=1):
        if not isinstance(line, str) or len(line) != grid.columns:
            problems.add(file, f"[terrain] row {r:02d}", f"must be a string of {grid.columns} characters")
            continue
        for c, letter in enumerate(line, start=1):
            hex_ = c * 100 + r
            if not grid.contains(hex_):
                if letter != " ":
                    problems.add(file, f"[terrain] row {r:02d}", f"hex {hex_name(hex_)} is off the map: use a space")
                continue
            if letter not in letters:
                problems.add(file, f"[terrain] hex {hex_name(hex_)}", f"unknown terrain letter {letter!r}")
                continue
            terrain[hex_] = letters[letter]
    missing = [h for h in grid.hexes if h not in terrain]
    if missing and not problems:
        problems.add(file, "[terrain]", f"no terrain for {len(missing)} hexes, e.g. {hex_name(missing[0])}")
    return terrain


def _map_overlays(
    problems: Problems, file: str, doc: Mapping[str, Any], grid: Grid, westwall: frozenset[Hex]
) -> dict[str, frozenset[Hex]]:
    """The terrain printed over hexes (``[[overlay]]``), by kind, the Westwall of ``[terrain]`` among them."""
    overlays: dict[str, frozenset[Hex]] = {"westwall": westwall} if westwall else {}
    for reader in entries(problems, file, doc, "overlay"):
        reader.no_unknown_keys(("kind", "hexes"))
        kind = reader.get("kind", str)
        found_hexes = {h for text in reader.get("hexes", list, []) or [] if (h := reader.hex("hexes", grid, text))}
        if kind in overlays:
            reader.fail(f"overlay '{kind}' is listed twice")
        if kind:
            overlays[kind] = frozenset(found_hexes)
    return overlays


def _map_places(problems: Problems, file: str, doc: Mapping[str, Any], grid: Grid) -> list[Place]:
    """The cities, villages and localities (``[[place]]``): a city may cover a chain of hexes; a name is
    given once, and a hex holds at most one settlement."""
    places = []
    for reader in entries(problems, file, doc, "place"):
        reader.no_unknown_keys(("name", "hex", "hexes", "kind"))
        pname = reader.get("name", str)
        kind = reader.choice("kind", ("city", "village", "locality"))
        if "hexes" in reader.table:
            place_hexes = [reader.hex("hexes", grid, text) for text in reader.get("hexes", list, []) or []]
            if "hex" in reader.table or not place_hexes:
                reader.fail("give either 'hex' or a non-empty 'hexes' list")
            if len(place_hexes) > 1 and kind != "city":
                reader.fail("only a city may cover several hexes")
        else:
            place_hexes = [reader.hex("hex", grid)]
        if pname and kind and place_hexes and all(h is not None for h in place_hexes):
            first, *more = cast(list[Hex], place_hexes)
            for a, b in itertools.pairwise(place_hexes):
                if not grid.are_adjacent(cast(Hex, a), cast(Hex, b)):
                    reader.fail(f"the hexes of a city must each touch the previous one, not {a:04d} and {b:04d}")
            places.append(Place(pname, first, kind, tuple(more)))
    seen_names = Counter(p.name for p in places)
    for pname, count in seen_names.items():
        if count > 1:
            problems.add(file, f"place '{pname}'", f"is named {count} times")
    settled = Counter(h for p in places if p.kind != "locality" for h in p.hexes)
    for h, count in settled.items():
        if count > 1:
            problems.add(file, f"hex {hex_name(h)}", f"holds {count} settlements; a hex holds at most one")
    return places


def _hexsides(reader: Reader, key: str, grid: Grid) -> frozenset[Hexside]:
    """The hexsides listed under ``key`` as pairs of adjacent hexes."""
    found = set()
    for pair in reader.get(key, list, []) or []:
        if not (isinstance(pair, list) and len(pair) == 2):
            reader.fail(f"'{key}' entries are pairs of hexes, not {pair!r}")
            continue
        a, b = (parse_hex_checked(reader, key, text, grid) for text in pair)
        if a is None or b is None:
            continue
        if not grid.are_adjacent(a, b):
            reader.fail(f"{hex_name(a)} and {hex_name(b)} are not adjacent, so they share no hexside")
            continue
        found.add(hexside(a, b))
    return frozenset(found)


def _map_rivers(problems: Problems, file: str, doc: Mapping[str, Any], grid: Grid) -> list[River]:
    """The rivers (``[[river]]``) with their hexsides and bridges, each bridge on its river."""
    rivers = []
    for reader in entries(problems, file, doc, "river"):
        reader.no_unknown_keys(("name", "kind", "hexsides", "bridges"))
        sides, bridges = _hexsides(reader, "hexsides", grid), _hexsides(reader, "bridges", grid)
        river_kind = reader.choice("kind", RIVER_KINDS, "river")
        for a, b in sorted(bridges - sides):
            reader.fail(f"bridge {hex_name(a)}-{hex_name(b)} is not on this river")
        if river_kind == "uncrossable" and bridges:
            reader.fail("an uncrossable river has no bridges")
        rivers.append(River(reader.get("name", str, reader.entry), sides, bridges, river_kind or "river"))
    return rivers


def _map_roads(problems: Problems, file: str, doc: Mapping[str, Any], grid: Grid) -> list[Road]:
    """The roads (``[[road]]``), each a chain of at least two adjacent hexes."""
    roads = []
    for reader in entries(problems, file, doc, "road"):
        reader.no_unknown_keys(("name", "hexes"))
        chain = [reader.hex("hexes", grid, text) for text in reader.get("hexes", list, []) or []]
        if any(h is None for h in chain):
            continue
        hexes = tuple(cast(list[Hex], chain))
        if len(hexes) < 2:
            reader.fail("a road links at least two hexes")
        for a, b in itertools.pairwise(hexes):
            if not grid.are_adjacent(a, b):
                reader.fail(f"{hex_name(a)} and {hex_name(b)} are consecutive but not adjacent")
        roads.append(Road(reader.get("name", str, reader.entry), hexes))
    return roads


def _map_regions(problems: Problems, file: str, doc: Mapping[str, Any], grid: Grid) -> dict[str, tuple[Hex, ...]]:
    """The named regions (``[[region]]``), each a set of hexes."""
    regions: dict[str, tuple[Hex, ...]] = {}
    for reader in entries(problems, file, doc, "region"):
        reader.no_unknown_keys(("name", "hexes"))
        region_name = reader.get("name", str)
        chain = [reader.hex("hexes", grid, text) for text in reader.get("hexes", list, []) or []]
        if region_name in regions:
            reader.fail("duplicate region name")
        if not chain:
            reader.fail("a region needs at least one hex")
        if region_name and all(h is not None for h in chain):
            regions[region_name] = tuple(cast(list[Hex], chain))
    return regions


def _map_friendly_edges(
    problems: Problems, file: str, doc: Mapping[str, Any], grid: Grid
) -> dict[Side, frozenset[Hex]]:
    """[10.2] Each side's friendly board edge (``[edges]``): whole edges or parts of them."""
    edges_doc = doc.get("edges", {})
    friendly: dict[Side, frozenset[Hex]] = {}
    for side in SIDES:
        reader = Reader(problems, file, f"[edges] {side}", edges_doc)
        edge_hexes: set[Hex] = set()
        for spec in reader.get(side, list, []) or []:
            edge = spec.get("edge") if isinstance(spec, dict) else None
            if edge not in EDGES:
                reader.fail(f"{spec!r} must name an edge: north, south, east or west")
                continue
            edge_hexes.update(grid.edge_hexes(edge, spec.get("from"), spec.get("to")))
        if not edge_hexes:
            reader.fail("a side needs a friendly board edge (10.2)")
        friendly[cast(Side, side)] = frozenset(edge_hexes)
    return friendly


def _map_entry_hexes(problems: Problems, file: str, doc: Mapping[str, Any], grid: Grid) -> dict[Side, frozenset[Hex]]:
    """[16.1] Each side's entry hexes (``[entry]``): hexes on a map edge, marked ones inside, or edges."""
    entry_doc = doc.get("entry", {})
    entry: dict[Side, frozenset[Hex]] = {}
    for side in SIDES:
        reader = Reader(problems, file, f"[entry] {side}", entry_doc)
        found_entry = set()
        for spec in reader.get(side, list, []) or []:
            # "0105"; { hex = "3103", interior = true } for an entry inside the map; { edge = "west" } for a
            # whole edge or { edge = "south", from = 1, to = 11 } for part of one.
            if isinstance(spec, dict) and "edge" in spec:
                if spec["edge"] not in EDGES:
                    reader.fail(f"{spec!r} must name an edge: north, south, east or west")
                    continue
                found_entry.update(grid.edge_hexes(spec["edge"], spec.get("from"), spec.get("to")))
                continue
            text, interior = (spec.get("hex"), bool(spec.get("interior"))) if isinstance(spec, dict) else (spec, False)
            h = reader.hex(side, grid, text)
            if h is None:
                continue
            if not interior and not grid.is_on_edge(h):
                reader.fail(
                    f"entry hex {text} is not on a map edge (16.1); mark an entry inside the map interior = true"
                )
            found_entry.add(h)
        entry[cast(Side, side)] = frozenset(found_entry)
    return entry


# --- The counters ----------------------------------------------------------------------------------------


def load_counters(
    documents: Documents, file: str, problems: Problems
) -> tuple[dict[str, Army], dict[str, Formation], dict[str, UnitDef], dict[Any, DetachmentTemplate]]:
    doc = document(documents, file, problems)
    armies = _load_armies(problems, file, doc)
    formations = _load_formations(problems, file, doc, armies)
    units = _load_units(problems, file, doc, formations)
    _check_formation_hqs(problems, file, formations, units)
    return armies, formations, units, _load_detachment_templates(problems, file, doc)


def _load_armies(problems: Problems, file: str, doc: Mapping[str, Any]) -> dict[str, Army]:
    """The armies (``[[army]]``), each with its side and nationality."""
    armies: dict[str, Army] = {}
    for reader in entries(problems, file, doc, "army"):
        reader.no_unknown_keys(("id", "name", "side", "nationality"))
        army = Army(
            reader.get("id", str),
            reader.get("name", str),
            reader.choice("side", SIDES),
            reader.choice("nationality", NATIONALITIES),
        )
        if army.id in armies:
            reader.fail("duplicate army id")
        armies[army.id] = army
    return armies


def _load_formations(
    problems: Problems, file: str, doc: Mapping[str, Any], armies: Mapping[str, Army]
) -> dict[str, Formation]:
    """The formations (``[[formation]]``), each of an army, with its HQ unless independent (1.5)."""
    formations: dict[str, Formation] = {}
    for reader in entries(problems, file, doc, "formation"):
        reader.no_unknown_keys(("id", "name", "army", "color", "hq", "independent", "detachments"))
        formation = Formation(
            id=reader.get("id", str),
            name=reader.get("name", str),
            army=reader.get("army", str),
            color=reader.get("color", str),
            hq=reader.get("hq", str, None),
            independent=reader.get("independent", bool, False),
            detachments=reader.get("detachments", int, 0) or 0,
        )
        if formation.id in formations:
            reader.fail("duplicate formation id")
        if formation.army not in armies:
            reader.fail(f"army '{formation.army}' does not exist")
        if formation.color and not (formation.color.startswith("#") and len(formation.color) == 7):
            reader.fail(f"colour {formation.color!r} must be #rrggbb")
        if formation.hq is None and not formation.independent:
            reader.fail("a formation that is not independent needs an HQ (1.5)")
        if formation.detachments < 0:
            reader.fail("detachments cannot be negative")
        formations[formation.id] = formation
    return formations


def _load_units(
    problems: Problems, file: str, doc: Mapping[str, Any], formations: Mapping[str, Formation]
) -> dict[str, UnitDef]:
    """The counters (``[[unit]]``), each of a formation."""
    units: dict[str, UnitDef] = {}
    for reader in entries(problems, file, doc, "unit"):
        reader.no_unknown_keys(
            (
                "id",
                "name",
                "long_name",
                "formation",
                "division",
                "kind",
                "size",
                "steps",
                "strength",
                "reduced_strength",
                "quality",
                "armored_superiority",
                "combat_command",
                "support",
                "c3i",
            )
        )
        reconstructed = reader.table.get("reconstructed", [])
        unit = UnitDef(
            id=reader.get("id", str),
            name=reader.get("name", str),
            long_name=reader.get("long_name", str, ""),
            formation=reader.get("formation", str),
            division=reader.get("division", str, None),
            kind=reader.choice("kind", UNIT_KINDS),
            size=reader.get("size", str, ""),
            steps=reader.get("steps", int) or 0,
            strength=reader.get("strength", int) or 0,
            quality=reader.get("quality", int) or 0,
            reduced_strength=reader.get("reduced_strength", int, None),
            armored_superiority=reader.get("armored_superiority", bool, False) or False,
            combat_command=reader.get("combat_command", str, None),
            support=reader.get("support", int, 0) or 0,
            c3i=reader.choice("c3i", ("A", "B", "C"), None),
            reconstructed=tuple(reconstructed) if isinstance(reconstructed, list) else (),
        )
        if unit.id in units:
            reader.fail("duplicate unit id")
        if unit.formation not in formations:
            reader.fail(f"formation '{unit.formation}' does not exist")
        _check_unit_counter(reader, unit)
        units[unit.id] = unit
    return units


def _check_unit_counter(reader: Reader, unit: UnitDef) -> None:
    """[1.2, 1.3, 16] A counter's steps, strengths, quality and HQ ratings agree with its kind."""
    if unit.steps < 1:
        reader.fail("a unit has at least one step (1.2)")
    if unit.reduced_strength is not None:
        # A counter with a printed back (Alsace 1944 1.2): two steps, the back weaker than the front.
        if unit.steps != 2:
            reader.fail("only a two-step counter has a reduced strength (1.2)")
        elif not 0 <= unit.reduced_strength < unit.strength:
            reader.fail(f"reduced strength {unit.reduced_strength} must be below the full {unit.strength} (1.2)")
    elif unit.kind == "garrison":
        if unit.steps != 1 or unit.strength < 0:
            reader.fail("a garrison has one step and a strength of 0 or more (16)")
    elif unit.strength - 3 * (unit.steps - 1) < 1:
        reader.fail(f"strength {unit.strength} leaves nothing on the last of {unit.steps} steps (1.2: 3 points a step)")
    if unit.kind in ("strongpoint", "garrison") and unit.steps != 1:
        reader.fail(f"a {unit.kind} has a single step (1.2)")
    if not 1 <= unit.quality <= 6:
        reader.fail(f"quality {unit.quality} is outside 1-6 (9.4 rolls a d6 against it)")
    if unit.kind == "hq":
        if unit.steps != 1:
            reader.fail("an HQ has a single step (1.2)")
        if unit.c3i is None:
            reader.fail("an HQ needs a C3I rating (1.3)")
        if unit.support < 0:
            reader.fail("support rating cannot be negative")


def _check_formation_hqs(
    problems: Problems, file: str, formations: Mapping[str, Formation], units: Mapping[str, UnitDef]
) -> None:
    """[1.5, 0.4] Each formation's HQ is an HQ counter of that formation; a Combat Command has three counters."""
    for formation in formations.values():
        if formation.hq is not None:
            hq = units.get(formation.hq)
            if hq is None:
                problems.add(file, f"formation '{formation.id}'", f"HQ '{formation.hq}' does not exist")
            elif hq.kind != "hq":
                problems.add(file, f"formation '{formation.id}'", f"HQ '{formation.hq}' is not an HQ counter")
            elif hq.formation != formation.id:
                problems.add(file, f"formation '{formation.id}'", f"HQ '{formation.hq}' belongs to '{hq.formation}'")
    combat_commands = Counter((u.formation, u.combat_command) for u in units.values() if u.combat_command)
    for (formation_id, cc), count in combat_commands.items():
        if count != 3:
            problems.add(
                file, f"combat command '{cc}' of '{formation_id}'", f"has {count} counters; a CC has three (0.4)"
            )


def _load_detachment_templates(problems: Problems, file: str, doc: Mapping[str, Any]) -> dict[Any, DetachmentTemplate]:
    """The detachment counters of each nationality (``[[detachment]]``)."""
    detachments = {}
    for reader in entries(problems, file, doc, "detachment"):
        reader.no_unknown_keys(("nationality", "steps", "strength_per_step"))
        template = DetachmentTemplate(
            reader.choice("nationality", NATIONALITIES),
            reader.get("steps", int) or 1,
            reader.get("strength_per_step", int) or 3,
        )
        detachments[template.nationality] = template
    return detachments


# --- Setup and scenarios ---------------------------------------------------------------------------------


def support_kinds(tables: Tables) -> dict[str, set[str]]:
    """The support markers of each side, from the chart's ``[support.*]`` entries (1.6)."""
    kinds: dict[str, set[str]] = {side: set() for side in SIDES}
    for entry_name, entry in cast(Mapping[str, Any], tables.raw.get("support", {})).items():
        if isinstance(entry, dict) and entry.get("side") in kinds:
            kinds[entry["side"]].add(entry.get("key", entry_name))
    return kinds


def load_setup(
    documents: Documents,
    file: str,
    problems: Problems,
    game_map: GameMap,
    armies: Mapping[str, Army],
    units: Mapping[str, UnitDef],
    tables: Tables,
) -> tuple[
    tuple[TurnDef, ...],
    tuple[Placement, ...],
    tuple[Reinforcement, ...],
    tuple[SupportGrant, ...],
    dict[str, EventDef],
    dict[str, Any],
]:
    doc = document(documents, file, problems)
    turns = _load_turns(problems, file, doc)
    placements = _load_placements(problems, file, doc, game_map, units)
    reinforcements = _load_reinforcements(problems, file, doc, game_map, units, len(turns))
    support = _load_support_grants(problems, file, doc, armies, tables)
    events = _load_events(problems, file, doc)
    extra = {
        key: value for key, value in doc.items() if key not in ("turn", "setup", "reinforcement", "support", "event")
    }
    check_unit_mentions(problems, file, extra, units)
    return tuple(turns), tuple(placements), tuple(reinforcements), tuple(support), events, extra


def _load_turns(problems: Problems, file: str, doc: Mapping[str, Any]) -> list[TurnDef]:
    """The turns (``[[turn]]``), numbered 1, 2, 3... in order, with a weather for every turn or for none."""
    turns = []
    for reader in entries(problems, file, doc, "turn"):
        reader.no_unknown_keys(("number", "date", "weather"))
        turns.append(
            TurnDef(
                reader.get("number", int) or 0,
                reader.get("date", str, ""),
                reader.choice("weather", ("clear", "overcast"), None),
            )
        )
    if len({t.weather is None for t in turns}) > 1:
        problems.add(file, "[[turn]]", "give every turn a weather, or none (a game without weather)")
    if [t.number for t in turns] != list(range(1, len(turns) + 1)):
        problems.add(file, "[[turn]]", "turns must be numbered 1, 2, 3... in order")
    return turns


def _unit_ref(reader: Reader, unit_id: Any, units: Mapping[str, UnitDef]) -> str | None:
    """The unit id if the counters file has it, else ``None`` (a problem recorded)."""
    if not isinstance(unit_id, str) or unit_id not in units:
        reader.fail(f"unit {unit_id!r} is not in the counters file")
        return None
    return unit_id


def _region_hexes(reader: Reader, game_map: GameMap, key: str = "region") -> tuple[Hex, ...]:
    """The hexes of the map region named under ``key``; none (a problem recorded) if the map lacks it."""
    name = reader.get(key, str)
    if name not in game_map.regions:
        reader.fail(f"region {name!r} is not in the map")
        return ()
    return game_map.regions[name]


def _load_placements(
    problems: Problems, file: str, doc: Mapping[str, Any], game_map: GameMap, units: Mapping[str, UnitDef]
) -> list[Placement]:
    """The initial placements (``[[setup]]``): a suggested hex, within the unit's choices if it has some."""
    grid = game_map.grid
    placements = []
    for reader in entries(problems, file, doc, "setup"):
        reader.no_unknown_keys(("unit", "hex", "improved_position", "region", "choices"))
        unit_id, h = _unit_ref(reader, reader.table.get("unit"), units), reader.hex("hex", grid)
        choices: set[Hex] = set()
        if "region" in reader.table:
            choices.update(_region_hexes(reader, game_map))
        for text in reader.get("choices", list, []) or []:
            if (choice := reader.hex("choices", grid, text)) is not None:
                choices.add(choice)
        if choices and h not in choices:
            reader.fail("the suggested hex is not one of the hexes the unit may be placed in")
        if unit_id and h is not None:
            placements.append(Placement(unit_id, h, reader.get("improved_position", bool, False), frozenset(choices)))
    return placements


def _load_reinforcements(
    problems: Problems,
    file: str,
    doc: Mapping[str, Any],
    game_map: GameMap,
    units: Mapping[str, UnitDef],
    turn_count: int,
) -> list[Reinforcement]:
    """The reinforcements (``[[reinforcement]]``), each on a turn of the game with entry hexes (16.1)."""
    grid = game_map.grid
    reinforcements = []
    for reader in entries(problems, file, doc, "reinforcement"):
        reader.no_unknown_keys(("turn", "units", "hexes", "region", "trucks", "action_points", "controlled"))
        ids = [_unit_ref(reader, u, units) for u in reader.get("units", list, []) or []]
        hexes: list[Hex | None] = [reader.hex("hexes", grid, text) for text in reader.get("hexes", list, []) or []]
        if "region" in reader.table:
            hexes.extend(_region_hexes(reader, game_map))
        turn = reader.get("turn", int) or 0
        if not 1 <= turn <= max(turn_count, 1):
            reader.fail(f"turn {turn} is not a turn of the game")
        if not hexes:
            reader.fail("a reinforcement needs at least one entry hex (16.1)")
        if all(ids) and all(h is not None for h in hexes):
            reinforcements.append(
                Reinforcement(
                    turn,
                    tuple(cast(list[str], ids)),
                    tuple(cast(list[Hex], hexes)),
                    reader.get("trucks", bool, False),
                    reader.get("action_points", int, None),
                    reader.get("controlled", bool, False),
                    reader.get("region", str, None) if not reader.get("hexes", list, []) else None,
                )
            )
    return reinforcements


def _load_support_grants(
    problems: Problems, file: str, doc: Mapping[str, Any], armies: Mapping[str, Army], tables: Tables
) -> list[SupportGrant]:
    """The support markers each army receives (``[[support]]``), of its side's kinds."""
    support = []
    for reader in entries(problems, file, doc, "support"):
        reader.no_unknown_keys(("army", "turn", "markers"))
        army_id = reader.get("army", str)
        markers = reader.get("markers", dict, {}) or {}
        army = armies.get(army_id or "")
        if army is None:
            reader.fail(f"army {army_id!r} does not exist")
            continue
        allowed = sorted(support_kinds(tables)[army.side])
        for kind, count in markers.items():
            if kind not in allowed:
                reader.fail(f"'{kind}' is not a {army.side} support marker; expected one of {', '.join(allowed)}")
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                reader.fail(f"marker count for '{kind}' must be a non-negative integer")
        support.append(SupportGrant(army.id, reader.get("turn", int) or 0, dict(markers)))
    return support


def _load_events(problems: Problems, file: str, doc: Mapping[str, Any]) -> dict[str, EventDef]:
    """The event and stratagem counters (``[[event]]``)."""
    events = {}
    for reader in entries(problems, file, doc, "event"):
        reader.no_unknown_keys(("id", "side", "name", "count", "rule", "effect", "params"))
        event = EventDef(
            reader.get("id", str),
            reader.choice("side", SIDES),
            reader.get("name", str),
            reader.get("count", int, 1),
            str(reader.table.get("rule", "")),
            reader.choice("effect", EVENT_EFFECTS, "") or "",
            dict(reader.get("params", dict, {}) or {}),
        )
        events[event.id] = event
    return events


UNIT_LIST_KEYS = frozenset(
    {"units", "only_units", "except_units", "trucked_units", "reserve_units", "pool", "regiments"}
)


def check_unit_mentions(problems: Problems, file: str, tables: Mapping[str, Any], units: Mapping[str, UnitDef]) -> None:
    """Every unit id named in the further set-up tables (opening-turn limits, garrisons, variant groups) exists."""

    def walk(value: Any, where: str) -> None:
        if isinstance(value, dict):
            for key, sub in value.items():
                if key in UNIT_LIST_KEYS and isinstance(sub, list):
                    # A list of unit ids, or of such lists (the regiments of 19.4).
                    flat = [u for item in sub for u in (item if isinstance(item, list) else [item])]
                    for unit_id in flat:
                        if unit_id not in units:
                            problems.add(file, where, f"unit {unit_id!r} is not in the counters file")
                else:
                    walk(sub, f"{where} {key}")
        elif isinstance(value, list):
            for index, item in enumerate(value, start=1):
                walk(item, f"{where} #{index}")

    for key, value in tables.items():
        walk(value, f"[{key}]")


def load_scenarios(documents: Documents, file: str, problems: Problems, turns: int) -> dict[str, ScenarioDef]:
    doc = document(documents, file, problems)
    scenarios = {}
    for reader in entries(problems, file, doc, "scenario"):
        reader.no_unknown_keys(("id", "name", "turns", "victory", "default_result", "special_rules", "variant"))
        conditions = [
            victory_condition(problems, file, f"{reader.entry} victory #{index}", raw, None)
            for index, raw in enumerate(reader.get("victory", list, []) or [], start=1)
        ]
        scenario = ScenarioDef(
            id=reader.get("id", str),
            name=reader.get("name", str),
            rule=str(reader.table.get("rule", "")),
            turns=reader.get("turns", int) or 0,
            victory=tuple(conditions),
            default_result=reader.get("default_result", str),
            special_rules=tuple(reader.get("special_rules", list, []) or []),
            variant=reader.get("variant", bool, False) or False,
        )
        if not 1 <= scenario.turns <= turns:
            reader.fail(f"lasts {scenario.turns} turns but the turn track has {turns}")
        scenarios[scenario.id] = scenario
    if not scenarios:
        problems.add(file, "[[scenario]]", "no scenario defined")
    return scenarios


VICTORY_KEYS = (
    "kind", "side", "when", "result", "supplied", "cities", "count", "river", "places", "city_hexes", "overlay",
    "region", "hq", "combat_commands", "of",
)  # fmt: skip


def victory_condition(
    problems: Problems, file: str, entry: str, raw: Any, parent: VictoryCondition | None
) -> VictoryCondition:
    """One victory condition; the parts of an ``all`` take their side, timing and result from it."""
    sub = Reader(problems, file, entry, raw if isinstance(raw, dict) else {})
    sub.no_unknown_keys(VICTORY_KEYS)
    if parent is None:
        side, when, result = (
            sub.choice("side", SIDES),
            sub.choice("when", ("any-time", "end-of-turn", "end")),
            sub.get("result", str),
        )
    else:
        side, when, result = parent.side, parent.when, parent.result
    condition = VictoryCondition(
        kind=sub.choice("kind", VICTORY_KINDS),
        side=side,
        when=when,
        result=result,
        supplied=sub.get("supplied", bool, False),
        cities=tuple(sub.get("cities", list, []) or []),
        count=sub.get("count", int, 0) or 0,
        river=sub.get("river", str, ""),
        places=tuple(sub.get("places", list, []) or []),
        city_hexes=sub.choice("city_hexes", ("any", "all"), "any"),
        overlay=sub.get("overlay", str, ""),
        region=sub.get("region", str, ""),
        hq=sub.get("hq", int, 0) or 0,
        combat_commands=sub.get("combat_commands", int, 0) or 0,
    )
    if condition.kind == "all":
        parts = sub.get("of", list, []) or []
        if not parts:
            sub.fail("an 'all' condition lists its parts in 'of'")
        of = tuple(
            victory_condition(problems, file, f"{entry} part #{i}", part, condition)
            for i, part in enumerate(parts, start=1)
        )
        condition = VictoryCondition(**{**condition.__dict__, "of": of})
    return condition


def load_tables(documents: Documents, file: str, problems: Problems) -> Tables:
    doc = document(documents, file, problems)
    crt_doc = doc.get("crt", {})
    reader = Reader(problems, file, "[crt]", crt_doc)
    columns = tuple(reader.get("columns", list, []) or [])
    rows = reader.get("rows", list, []) or []
    if len(rows) != 9:
        reader.fail(f"has {len(rows)} rows; the CRT has rows 0 to 8 (7.6)")
    cells = []
    for r, row_cells in enumerate(rows):
        if not isinstance(row_cells, list) or len(row_cells) != len(columns):
            reader.fail(f"row {r} must have one cell per column ({len(columns)})")
            continue
        parsed = []
        for c, text in enumerate(row_cells):
            cell = parse_crt_cell(text)
            if cell is None:
                reader.fail(
                    f"cell row {r} column {columns[c]} is {text!r}; expected 'attacker/defender' like '1/2', '-/E'"
                )
                continue
            parsed.append(cell)
        cells.append(tuple(parsed))

    # The C3I and SNAFU tables (Ardennes 1944 9.5) are optional: a game without them has none of that rule.
    c3i: dict[str, tuple[bool, ...]] = {}
    for rating, faces in doc.get("c3i", {}).items():
        if not (isinstance(faces, list) and len(faces) == 6 and all(f in ("S", "-") for f in faces)):
            problems.add(file, f"[c3i] {rating}", "needs six entries, 'S' or '-' (9.5)")
            continue
        c3i[rating] = tuple(f == "S" for f in faces)
    if "c3i" in doc and set(c3i) != {"A", "B", "C"}:
        problems.add(file, "[c3i]", "needs ratings A, B and C (9.5)")

    snafu: dict[int, str] = {}
    for sub in entries(problems, file, doc, "snafu"):
        for total in sub.get("roll", list, []) or []:
            if total in snafu:
                sub.fail(f"the roll {total} appears twice")
            snafu[total] = sub.get("effect", str, "none")
    if ("snafu" in doc or "c3i" in doc) and set(snafu) != set(range(2, 13)):
        problems.add(file, "[[snafu]]", f"must cover every 2d6 total from 2 to 12, has {sorted(snafu)}")

    for section in (
        "terrain",
        "crossing",
        "status",
        "actions",
        "movement_allowance",
        "attack_type",
        "support",
        "doctrine",
        "stacking",
    ):
        if section not in doc:
            problems.add(file, f"[{section}]", "missing table")
    combat_rules.check(doc, lambda entry, problem: problems.add(file, entry, problem))
    return Tables(raw=doc, crt_columns=columns, crt=tuple(cells), c3i=c3i, snafu=snafu)


def parse_crt_cell(text: Any) -> CrtCell | None:
    """Read a CRT cell such as ``"1/2"`` or ``"-/E"``; red and bold flags are filled by :func:`mark_crt`."""
    if not isinstance(text, str) or text.count("/") != 1:
        return None

    def part(value: str) -> int | str | None:
        value = value.strip()
        if value == "-":
            return 0
        if value == "E":
            return "E"
        return int(value) if value.isdigit() else None

    attacker, defender = (part(p) for p in text.split("/"))
    if attacker is None or defender is None:
        return None
    a = cast(Any, attacker)
    d = cast(Any, defender)
    # Reconstruction of the lost formatting, argued in docs/rules/ardennes44.md ("The CRT").
    breakthrough = a == 0 and (d == "E" or d >= 2)
    return CrtCell(a, d, breakthrough, attacker_red=a != "E" and a >= 3, defender_red=d != "E" and d >= 3)


# --- The whole game --------------------------------------------------------------------------------------


def check_cross_references(data: GameData, problems: Problems, files: Mapping[str, str]) -> None:
    """The checks that span files: setup hexes, stacking, entry hexes, victory cities."""
    setup_file, scenario_file = files["setup"], files["scenarios"]
    garrisons = cast(Mapping[str, Any], data.extra.get("garrisons", {}))
    _check_every_unit_placed_once(data, problems, setup_file, garrisons)
    _check_setup_stacks(data, problems, setup_file, garrisons)
    # [Alsace 15, 19.4] The stratagems' figures and the variant's table.
    for entry, problem in [*stratagem_problems(data), *variant_problems(data)]:
        problems.add(setup_file, entry, problem)
    _check_reinforcement_entries(data, problems, setup_file)
    for scenario in data.scenarios.values():
        for condition in flat_conditions(scenario.victory):
            _check_victory_condition(data, problems, scenario_file, f"scenario '{scenario.id}'", condition)
    for army_id in {g.army for g in data.support}:
        if army_id not in data.armies:
            problems.add(setup_file, f"support for '{army_id}'", "army does not exist")
    _check_independent_c3i(data, problems, files["counters"])
    check_chart_covers_map(data, problems, files["tables"])


def _check_every_unit_placed_once(
    data: GameData, problems: Problems, setup_file: str, garrisons: Mapping[str, Any]
) -> None:
    """Every counter sets up or arrives once, unless it waits in the garrison pool (16) or a variant's groups."""
    pool = set(garrisons.get("pool", []))
    variant_only = mentioned_units(data.extra.get("variant", {}))
    placed = Counter(p.unit for p in data.setup)
    arriving = Counter(u for r in data.reinforcements for u in r.units)
    for unit_id in data.units:
        total = placed[unit_id] + arriving[unit_id]
        if total > 1:
            problems.add(setup_file, f"unit '{unit_id}'", f"is set up or arrives {total} times")
        if total == 0 and unit_id not in pool and unit_id not in variant_only:
            problems.add(setup_file, f"unit '{unit_id}'", "neither sets up nor arrives")


def _check_setup_stacks(data: GameData, problems: Problems, setup_file: str, garrisons: Mapping[str, Any]) -> None:
    """[5, 16] The set-up within the stacking limit and one side to a hex, the hidden garrisons' slots counted;
    the garrison pool holds garrison counters, enough for its slots."""
    pool = set(garrisons.get("pool", []))
    steps_in: Counter[Hex] = Counter()
    sides_in: dict[Hex, set[Side]] = {}
    for placement in data.setup:
        steps_in[placement.hex] += data.units[placement.unit].steps
        sides_in.setdefault(placement.hex, set()).add(data.side_of(placement.unit))
    # [16] Each hidden garrison slot holds one face-down, one-step counter drawn from the pool.
    slots = []
    for text in garrisons.get("hexes", []):
        try:
            slot = parse_hex(text)
        except (TypeError, ValueError):
            slot = 0
        if not data.map.grid.contains(slot):
            problems.add(setup_file, "[garrisons]", f"hex {text!r} is not on the map")
            continue
        slots.append(slot)
        steps_in[slot] += 1
        sides_in.setdefault(slot, set()).add("german")
    if len(pool) < len(slots):
        problems.add(setup_file, "[garrisons]", f"{len(slots)} places but only {len(pool)} counters in the pool")
    for unit_id in pool:
        if unit_id in data.units and data.units[unit_id].kind != "garrison":
            problems.add(setup_file, "[garrisons]", f"'{unit_id}' is not a garrison counter (16)")
    limit = int(cast(Mapping[str, Any], data.tables.raw.get("stacking", {})).get("max_steps", 6))
    for h, steps in steps_in.items():
        if steps > limit:
            problems.add(setup_file, f"hex {hex_name(h)}", f"sets up {steps} steps; the limit is {limit} (5)")
        if len(sides_in[h]) > 1:
            problems.add(setup_file, f"hex {hex_name(h)}", "holds units of both sides")


def _check_reinforcement_entries(data: GameData, problems: Problems, setup_file: str) -> None:
    """[16.1] Each reinforcement is of one side and enters at that side's entry hexes."""
    for reinforcement in data.reinforcements:
        side = data.side_of(reinforcement.units[0])
        for unit_id in reinforcement.units:
            if data.side_of(unit_id) != side:
                problems.add(setup_file, f"reinforcement turn {reinforcement.turn}", "mixes the two sides")
        for h in reinforcement.hexes:
            if h not in data.map.entry_hexes[side]:
                problems.add(
                    setup_file,
                    f"reinforcement turn {reinforcement.turn} {', '.join(reinforcement.units)}",
                    f"enters at {hex_name(h)}, which is not a {side} entry hex (16.1)",
                )


def _check_victory_condition(
    data: GameData, problems: Problems, scenario_file: str, entry: str, condition: VictoryCondition
) -> None:
    """A victory condition names places, cities, regions, overlays and rivers the map has, and counts within
    its lists."""
    for place_name in condition.places:
        if not any(p.name == place_name for p in data.map.places):
            problems.add(scenario_file, entry, f"victory place {place_name!r} is not on the map")
    if condition.kind == "hold-places" and not 1 <= condition.count <= len(condition.places):
        problems.add(scenario_file, entry, "hold-places needs a count between 1 and the number of places")
    if condition.region and condition.region not in data.map.regions:
        problems.add(scenario_file, entry, f"region {condition.region!r} is not in the map")
    if condition.kind in ("reached-region", "exit-units") and not condition.region:
        problems.add(scenario_file, entry, f"{condition.kind} needs a region")
    if condition.kind == "hold-overlay" and condition.overlay not in data.map.overlays:
        problems.add(scenario_file, entry, f"overlay {condition.overlay!r} is not on the map")
    if condition.kind == "cross-meuse" and not any(r.name == condition.river for r in data.map.rivers):
        # The river to cross is named in the data ("river"), never assumed.
        problems.add(scenario_file, entry, f"river {condition.river!r} is not on the map")
    for city in condition.cities:
        try:
            place = data.map.place(city)
        except KeyError:
            problems.add(scenario_file, entry, f"victory city {city!r} is not on the map")
            continue
        if place.kind != "city":
            problems.add(scenario_file, entry, f"victory city {city!r} is a {place.kind}, not a city")
    if condition.kind == "hold-cities" and not 1 <= condition.count <= len(condition.cities):
        problems.add(scenario_file, entry, "hold-cities needs a count between 1 and the number of cities")


def _check_independent_c3i(data: GameData, problems: Problems, counters_file: str) -> None:
    """[9.5, Ardennes 1944] With the C3I table, an independent's rating comes from its quality: A for 5, B for 4."""
    if not data.tables.c3i:
        return
    for unit in data.units.values():
        owner = data.formations.get(unit.formation)
        if owner and owner.independent and unit.kind != "hq" and unit.quality not in (4, 5):
            problems.add(
                counters_file, f"unit '{unit.id}'", "an independent needs quality 4 or 5 to have a C3I rating (9.5)"
            )


def flat_conditions(conditions: Iterable[VictoryCondition]) -> list[VictoryCondition]:
    """Every condition, the parts of ``all`` conditions included."""
    return [c for condition in conditions for c in (condition, *flat_conditions(condition.of))]


def mentioned_units(value: Any) -> set[str]:
    """Every unit id listed under a unit-list key anywhere in a set-up table."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, sub in value.items():
            if key in UNIT_LIST_KEYS and isinstance(sub, list):
                found.update(u for item in sub for u in (item if isinstance(item, list) else [item]))
            else:
                found |= mentioned_units(sub)
    elif isinstance(value, list):
        for item in value:
            found |= mentioned_units(item)
    return found


def check_chart_covers_map(data: GameData, problems: Problems, tables_file: str) -> None:
    """The Terrain Effects Chart has an entry for every terrain, overlay and water on the map."""
    terrain_chart = cast(Mapping[str, Any], data.tables.raw.get("terrain", {}))
    crossing_chart = cast(Mapping[str, Any], data.tables.raw.get("crossing", {}))
    needed = set(data.map.terrain.values()) | set(data.map.overlays) | {"road"}
    needed |= {p.kind for p in data.map.places if p.kind != "locality"}
    for name in sorted(needed - set(terrain_chart)):
        problems.add(tables_file, f"[terrain.{name}]", "missing: the map uses this terrain")
    kinds: set[str] = {river.kind for river in data.map.rivers}
    if any(river.bridges for river in data.map.rivers):
        kinds.add("bridge")
    for kind in sorted(kinds):
        if kind not in crossing_chart:
            problems.add(tables_file, f"[crossing.{kind}]", "missing: the map has this kind of water")


def load_rule_numbers(documents: Documents, file: str, problems: Problems) -> RuleNumbers:
    """The numbering of the game's rule book; a game without the file cites the shared code's numbers."""
    if file not in documents:
        return RuleNumbers()
    table = Reader(problems, file, "[rule_numbers]", documents[file].get("rule_numbers", {}))
    book = table.get("book", list, [])
    same_rule = table.get("same_rule", dict, {})
    if not all(isinstance(number, str) for number in book):
        problems.add(file, "[rule_numbers] book", "lists rule numbers as strings")
        book = []
    for cited, own in same_rule.items():
        if not isinstance(own, str) or (book and own not in book):
            problems.add(file, f"[rule_numbers.same_rule] {cited}", f"{own!r} is not a rule number of the book")
    return RuleNumbers(frozenset(book), {k: v for k, v in same_rule.items() if isinstance(v, str)})


def build_game(documents: Documents, default_id: str = "game") -> GameData:
    """Build and validate a game from its parsed files (``{"game.toml": {...}, "map.toml": {...}, ...}``).

    :raises ScenarioError: listing every problem found, each with its file and entry.
    """
    problems = Problems()
    index = document(documents, "game.toml", problems)
    if problems:
        raise ScenarioError(problems.items)
    game = Reader(problems, "game.toml", "[game]", index.get("game", {}))
    files = {key: game.get(key, str, f"{key}.toml") for key in ("map", "counters", "setup", "scenarios", "tables")}
    game_map = load_map(documents, files["map"], problems)
    armies, formations, units, detachments = load_counters(documents, files["counters"], problems)
    tables = load_tables(documents, files["tables"], problems)
    if game_map is None:
        raise ScenarioError(problems.items or [f"{files['map']}: (file): no map"])
    turns, setup, reinforcements, support, events, extra = load_setup(
        documents, files["setup"], problems, game_map, armies, units, tables
    )
    scenarios = load_scenarios(documents, files["scenarios"], problems, len(turns))
    rule_numbers = load_rule_numbers(documents, game.get("rule_numbers", str, "rule_numbers.toml"), problems)
    data = GameData(
        id=game.get("id", str, default_id),
        name=game.get("name", str, default_id),
        map=game_map,
        armies=armies,
        formations=formations,
        units=units,
        detachments=detachments,
        turns=turns,
        setup=setup,
        reinforcements=reinforcements,
        support=support,
        events=events,
        scenarios=scenarios,
        tables=tables,
        extra=extra,
        rule_numbers=rule_numbers,
    )
    if not problems:
        check_cross_references(data, problems, files)
        check_rule_tables(data, problems.add, files["tables"], files["setup"])
    if problems:
        raise ScenarioError(problems.items)
    # [18] Each corps' detachment markers become counters the rules can look up once they are created;
    # [Alsace 15.3] so do the Raid's commandos.
    return with_commando_counters(with_detachment_counters(data))
