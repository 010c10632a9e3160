"""A Historical ASL campaign-game module as data: dates, RePh steps, tables, RG chart, schedules.

A module is one TOML document (``scenarios/asl/<id>.toml``; ``docs/rules/asl-cg.md`` describes the format).
:func:`parse_module` turns its parsed contents into frozen dataclasses and reports every defect at once,
each naming the file, the entry and the problem. :func:`load_table_override` lets an organiser load or
correct one or more tables (or the RG chart) from a TOML text, validated the same way.

The engine keeps the module's raw data (plain JSON) inside the campaign state, so a campaign is
self-contained and replays the same even if the bundled file changes later.
"""

from __future__ import annotations

import copy
import itertools
import json
import math
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

Side = str
"""A side of the module, e.g. ``"allied"`` or ``"german"``."""

DiceKind = Literal["dr", "DR"]
"""``"dr"``: one die; ``"DR"``: two dice added (ASL's own notation)."""

Rounding = Literal["up", "down"]
"""FRU (fractions rounded up) or FRD (fractions rounded down)."""

DrmInput = Literal["flag", "count", "number"]
"""How a DRM's quantity is given: present or not; a count of occurrences (>= 0); any signed number."""

STEP_KINDS = (
    "manual",
    "new_date",
    "reinforcements",
    "cpp",
    "rg_purchase",
    "rg_rolls",
    "fortifications",
    "ammo_elr",
    "commencement",
)
"""The kinds of RePh step the engine knows how to run (see :mod:`engine.asl.refit`)."""

ACTORS = ("both", "auto")
COMMENT_KEYS = frozenset({"note", "source", "damaged", "rule", "comment"})

OVERRIDABLE = ("tables", "rg_chart", "sw_charts", "reinforcements", "fortifications", "initiative", "cgs")
"""Top-level keys an organiser's override file may replace (:func:`load_table_override`)."""


class ModuleError(ValueError):
    """A module's data is broken. ``problems`` lists each defect as "file: entry: problem"."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s) in the module data:\n" + "\n".join(problems))


# --- Value types ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Drm:
    """One die-roll modifier of a table: ``value`` times the (possibly divided and rounded) quantity."""

    id: str
    """Short name used in a roll request, e.g. ``"encircled"``."""
    text: str
    """The modifier as a player reads it."""
    value: int
    """The modifier per unit of quantity (the sign is the modifier's sign)."""
    input: DrmInput = "flag"
    """How the quantity is given (see :data:`DrmInput`)."""
    divisor: int = 1
    """The quantity is divided by this before rounding ("per multiple of two hexes", "x/2")."""
    rounding: Rounding = "down"
    """How a divided quantity is rounded."""
    offset: int = 0
    """Added to the quantity before dividing (``+(y-1)`` has offset -1)."""
    minimum: int | None = None
    """The smallest modifier this DRM can give (``minimum of 0``)."""
    side: Side | None = None
    """The only side this DRM applies to, if any."""
    auto: str | None = None
    """The campaign quantity the engine supplies for this DRM, when the engine runs the table."""
    columns: tuple[str, ...] = ()
    """The only result columns this DRM applies to (empty: all)."""

    def modifier(self, quantity: int) -> int:
        """The DRM for a quantity, e.g. ``+1 per multiple of two hexes (FRU)`` with 3 hexes gives +2.

        >>> Drm("hexes", "", 1, "count", divisor=2, rounding="up").modifier(3)
        2
        >>> Drm("chits", "", 1, "count", offset=-1, minimum=0).modifier(0)
        0
        """
        amount = quantity + self.offset
        if self.divisor != 1:
            ratio = amount / self.divisor
            amount = math.ceil(ratio) if self.rounding == "up" else math.floor(ratio)
        result = self.value * amount
        if self.minimum is not None:
            result = max(self.minimum, result)
        return result


@dataclass(frozen=True)
class Row:
    """One row of a table: the final roll range and the result in each column."""

    low: int | None
    """Lowest final roll of the row (``None``: open below, "≤")."""
    high: int | None
    """Highest final roll of the row (``None``: open above, "≥")."""
    results: Mapping[str, str]
    """The result by column name."""
    effect: str | None = None
    """A machine word the engine uses for tables it runs itself (e.g. ``"depleted"``)."""

    def contains(self, final: int) -> bool:
        """Whether a final roll falls in this row."""
        return (self.low is None or final >= self.low) and (self.high is None or final <= self.high)

    def label(self) -> str:
        """The roll range as printed: ``≤ 8``, ``9``, ``2-4``, ``≥ 12``."""
        if self.low is None and self.high is not None:
            return f"≤ {self.high}"
        if self.high is None and self.low is not None:
            return f"≥ {self.low}"
        if self.low == self.high:
            return str(self.low)
        return f"{self.low}-{self.high}"


@dataclass(frozen=True)
class Table:
    """A die-roll table with its DRMs, notes and any damage found in the source."""

    id: str
    rule: str
    """The rule that holds the table, e.g. ``"9.6054"``."""
    title: str
    dice: DiceKind
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    drms: tuple[Drm, ...] = ()
    notes: Mapping[str, str] = field(default_factory=dict)
    """Footnotes by mark."""
    damaged: tuple[str, ...] = ()
    """Where the source is damaged and the reading chosen."""
    secret: bool = False
    """Rolled by DM and sealed (9.6162, 9.618 tables)."""
    roll_by: Side | None = None
    """The side that makes the roll when the rules say so (e.g. the British for weather)."""

    def row_for(self, final: int) -> Row:
        """The row of a final roll; beyond the printed range the nearest end row applies."""
        for row in self.rows:
            if row.contains(final):
                return row
        first, last = self.rows[0], self.rows[-1]
        if first.low is not None and final < first.low:
            return first
        return last

    def drm(self, drm_id: str) -> Drm:
        """The DRM with this id.

        :raises KeyError: if the table has no such DRM.
        """
        for drm in self.drms:
            if drm.id == drm_id:
                return drm
        raise KeyError(drm_id)


@dataclass(frozen=True)
class CgDate:
    """One CG Date of the CPP Base Number Chart (9.6161)."""

    id: str
    """E.g. ``"18AM"``."""
    night: bool
    """Whether the date's scenario is a Night scenario."""
    cpp: Mapping[Side, int]
    """CPP Base # by side; a side missing here has no replenishment that date ("-" in the chart)."""
    exhaustion: int
    """Campaign Exhaustion DRM."""


@dataclass(frozen=True)
class Step:
    """One RePh step as the engine runs it."""

    rule: str
    title: str
    kind: str
    """One of :data:`STEP_KINDS`."""
    text: str
    """What the step is, in the project's own words."""
    actor: str = "both"
    """``"both"``, ``"auto"`` or one side."""
    initial: bool = False
    """Performed before the CG Initial Scenario (the † steps)."""
    repeat_after_idle: bool = False
    """Repeated after an Idle CG Date (9.62132 note 2: steps 9.612-.620)."""
    tables: tuple[str, ...] = ()
    """Tables a player may roll on during this step."""
    mark: str = ""
    """The mark printed before the step in the source (``†``, ``+``)."""
    areas: bool = False
    """Each side enters its Setup Areas, Strategic Locations and Perimeter before saying done (9.605)."""


@dataclass(frozen=True)
class RgEntry:
    """One line of the RG chart (9.6171-9.6177)."""

    id: str
    side: Side
    type: str
    cost: int
    units_full: int
    units_depleted: int
    unit_type: str
    date_max: int
    cg_max: Mapping[str, int]
    """Maximum per CG id; key ``"*"`` applies to any CG not listed."""
    kg: str = ""
    """The German KG the RG is purchased from (shown as ``I1(K)``)."""
    depletion: bool = True
    """Eligible for Depletion (9.6181)."""
    leader: str = ""
    """``""`` none, ``"infantry"`` or ``"armor"``: a leader is rolled for this RG (9.6183)."""
    leader_class: str = ""
    """The Leader Table DRM that applies (e.g. ``"engineer"``)."""
    composition: str = ""
    """The id of the vehicle composition table rolled for it (9.6184)."""
    fpp: int = 0
    """FPP this RG gives (for fortification purchases, 9.619)."""
    notes: str = ""

    @property
    def key(self) -> str:
        """The ID as recorded on the RG Purchase Record, with its KG: ``I1(K)``."""
        return f"{self.id}({self.kg})" if self.kg else self.id

    def max_in_cg(self, cg: str) -> int | None:
        """The CG maximum (9.6176) for a CG, or ``None`` when the chart gives none."""
        if cg in self.cg_max:
            return self.cg_max[cg]
        return self.cg_max.get("*")


@dataclass(frozen=True)
class SwItem:
    """One SW entry of an Infantry-Type SW Chart (9.6182): ``count(threshold)``."""

    weapon: str
    count: int
    depleted_max: int
    """A Depleted RG receives the weapon on a secret dr ≤ this."""
    choice: tuple[tuple[int, int, str], ...] = ()
    """For a ``*`` entry: ``(low, high, weapon)`` ranges of a secret dr that picks the weapon."""


@dataclass(frozen=True)
class Reinforcement:
    """One cell of the reinforcement schedule (9.6152)."""

    date: str
    side: Side
    rgs: tuple[str, ...] = ()
    fpp: int = 0
    san: int = 0
    san_max: int | None = None
    san_min: int | None = None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Fortification:
    """One line of the Fortification Purchase Table (9.619)."""

    id: str
    name: str
    cost: Mapping[Side, int]
    """FPP cost by side (a side missing may not buy it)."""
    front_line: bool = False
    notes: str = ""


@dataclass(frozen=True)
class CgDef:
    """One campaign game of the module (9.51-.53 in ABtF)."""

    id: str
    title: str
    start: str | None = None
    end: str | None = None
    attack_chits: Mapping[Side, int] | None = None
    idle_chits: Mapping[Side, int] | None = None
    elr: Mapping[Side, int] | None = None
    san: Mapping[Side, int] | None = None


@dataclass(frozen=True)
class Damage:
    """A place where the source is damaged, and the reading chosen."""

    rule: str
    where: str
    reading: str


@dataclass(frozen=True)
class Module:
    """A whole HASL campaign-game module."""

    id: str
    title: str
    source: str
    sides: tuple[Side, ...]
    side_names: Mapping[Side, str]
    dates: tuple[CgDate, ...]
    steps: tuple[Step, ...]
    tables: Mapping[str, Table]
    rg_chart: tuple[RgEntry, ...]
    rg_chart_status: str
    """``"loaded"`` or a sentence saying why the chart is absent."""
    sw_charts: Mapping[Side, Mapping[str, tuple[SwItem, ...]]]
    leader_drms: Mapping[str, int]
    """Leader Table DRM by ``side:class`` (9.6183)."""
    reinforcements: tuple[Reinforcement, ...]
    fortifications: tuple[Fortification, ...]
    initiative: Mapping[str, str]
    """Scenario type by ``"<first side chit>/<second side chit>"``, e.g. ``"attack/idle"``."""
    cgs: Mapping[str, CgDef]
    cgs_status: str
    limits: Mapping[str, int]
    """Campaign-wide bounds such as ``elr_min``, ``elr_max``, ``san_floor``, ``san_check_<side>``."""
    ammo_side: Side | None
    """The side that rolls for Ammunition Shortage (9.6201), if any."""
    ammo_from: str | None
    """The first CG Date of the Ammunition Shortage roll."""
    sudden_death_side: Side | None
    """The side a Sudden Death victory goes to (9.6212), if the module has one."""
    damage: tuple[Damage, ...]
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)

    def date(self, date_id: str) -> CgDate:
        """The CG Date with this id.

        :raises KeyError: if the module has no such date.
        """
        for date in self.dates:
            if date.id == date_id:
                return date
        raise KeyError(date_id)

    def rg(self, side: Side, key: str) -> RgEntry | None:
        """The RG chart entry a side buys as ``key`` (``I1`` or ``I1(K)``), if any."""
        for entry in self.rg_chart:
            if entry.side == side and entry.key.lower() == key.strip().lower():
                return entry
        return None

    def fortification(self, fort_id: str) -> Fortification | None:
        """The Fortification Purchase Table line with this id, if any."""
        for fort in self.fortifications:
            if fort.id == fort_id:
                return fort
        return None

    def side_name(self, side: Side) -> str:
        """The side's name as the rules print it (``British``)."""
        return self.side_names.get(side, side)


# --- Reading ---------------------------------------------------------------------------------------------


class _Reader:
    """Typed access to one TOML table, recording a problem instead of raising."""

    def __init__(self, problems: list[str], file: str, entry: str, table: Any) -> None:
        self.problems, self.file, self.entry = problems, file, entry
        if not isinstance(table, Mapping):
            self.fail(f"must be a table, not {table!r}")
            table = {}
        self.table: Mapping[str, Any] = table

    def fail(self, problem: str) -> None:
        self.problems.append(f"{self.file}: {self.entry}: {problem}")

    def child(self, key: str, value: Any) -> _Reader:
        return _Reader(self.problems, self.file, f"{self.entry}.{key}", value)

    def str_(self, key: str, default: str | None = None) -> str:
        value = self.table.get(key, default)
        if value is None:
            self.fail(f"missing '{key}'")
            return ""
        if not isinstance(value, str):
            self.fail(f"'{key}' must be text, not {value!r}")
            return ""
        return value

    def int_(self, key: str, default: int | None = None) -> int:
        value = self.table.get(key, default)
        if value is None:
            self.fail(f"missing '{key}'")
            return 0
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"'{key}' must be a whole number, not {value!r}")
            return 0
        return value

    def opt_int(self, key: str) -> int | None:
        if key not in self.table:
            return None
        return self.int_(key)

    def bool_(self, key: str, default: bool = False) -> bool:
        value = self.table.get(key, default)
        if not isinstance(value, bool):
            self.fail(f"'{key}' must be true or false, not {value!r}")
            return default
        return value

    def choice(self, key: str, options: Iterable[str], default: str | None = None) -> str:
        options = tuple(options)
        value = self.str_(key, default)
        if value and value not in options:
            self.fail(f"'{key}' is {value!r}; expected one of {', '.join(options)}")
        return value

    def strs(self, key: str) -> tuple[str, ...]:
        value = self.table.get(key, [])
        if isinstance(value, str):
            return (value,)
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            self.fail(f"'{key}' must be a list of text, not {value!r}")
            return ()
        return tuple(value)

    def list_(self, key: str, required: bool = False) -> list[Any]:
        if key not in self.table:
            if required:
                self.fail(f"missing '{key}'")
            return []
        value = self.table[key]
        if not isinstance(value, list):
            self.fail(f"'{key}' must be a list, not {value!r}")
            return []
        return value

    def side_ints(self, key: str, sides: tuple[str, ...], optional: bool = True) -> dict[str, int] | None:
        if key not in self.table:
            if not optional:
                self.fail(f"missing '{key}'")
            return None
        value = self.table[key]
        if not isinstance(value, Mapping):
            self.fail(f"'{key}' must be a table of side = number, not {value!r}")
            return None
        found: dict[str, int] = {}
        for side, number in value.items():
            if side not in sides:
                self.fail(f"'{key}' names unknown side {side!r}; sides are {', '.join(sides)}")
            elif isinstance(number, bool) or not isinstance(number, int):
                self.fail(f"'{key}.{side}' must be a whole number, not {number!r}")
            else:
                found[side] = number
        return found

    def no_unknown_keys(self, known: Iterable[str]) -> None:
        for key in sorted(set(self.table) - set(known) - COMMENT_KEYS):
            self.fail(f"unknown key '{key}'")

    def damaged(self) -> tuple[str, ...]:
        value = self.table.get("damaged", [])
        if isinstance(value, str):
            return (value,)
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return tuple(value)
        self.fail(f"'damaged' must be text or a list of text, not {value!r}")
        return ()


def _parse_drm(reader: _Reader, sides: tuple[str, ...], columns: tuple[str, ...]) -> Drm:
    reader.no_unknown_keys(
        ("id", "text", "value", "input", "divisor", "rounding", "offset", "minimum", "side", "auto", "columns")
    )
    side = reader.table.get("side")
    if side is not None and side not in sides:
        reader.fail(f"'side' is {side!r}; expected one of {', '.join(sides)}")
    drm_columns = reader.strs("columns")
    for column in drm_columns:
        if column not in columns:
            reader.fail(f"'columns' names unknown column {column!r}; the table has {', '.join(columns)}")
    divisor = reader.int_("divisor", 1)
    if divisor < 1:
        reader.fail(f"'divisor' must be at least 1, not {divisor}")
        divisor = 1
    return Drm(
        id=reader.str_("id"),
        text=reader.str_("text"),
        value=reader.int_("value"),
        input=reader.choice("input", ("flag", "count", "number"), "flag"),  # type: ignore[arg-type]
        divisor=divisor,
        rounding=reader.choice("rounding", ("up", "down"), "down"),  # type: ignore[arg-type]
        offset=reader.int_("offset", 0),
        minimum=reader.opt_int("minimum"),
        side=side if isinstance(side, str) else None,
        auto=reader.table.get("auto") if isinstance(reader.table.get("auto"), str) else None,
        columns=drm_columns,
    )


def _parse_table(reader: _Reader, table_id: str, sides: tuple[str, ...]) -> Table:
    reader.no_unknown_keys(("title", "dice", "columns", "rows", "drm", "notes", "secret", "roll_by", "status"))
    columns = reader.strs("columns") or ("result",)
    rows: list[Row] = []
    for index, raw_row in enumerate(reader.list_("rows", required=True), start=1):
        row_reader = reader.child(f"rows[{index}]", raw_row)
        row_reader.no_unknown_keys(("min", "max", "effect", *columns))
        low, high = row_reader.opt_int("min"), row_reader.opt_int("max")
        if low is not None and high is not None and high < low:
            row_reader.fail(f"max {high} is below min {low}")
        results = {}
        for column in columns:
            results[column] = row_reader.str_(column)
        effect = row_reader.table.get("effect")
        rows.append(Row(low, high, results, effect if isinstance(effect, str) else None))
    if not rows:
        reader.fail("a table needs at least one row")
    for index, (before, after) in enumerate(itertools.pairwise(rows), start=2):
        if before.high is None or after.low is None:
            reader.fail(f"rows[{index}]: only the first row may be open below and only the last open above")
        elif after.low != before.high + 1:
            reader.fail(
                f"rows[{index}]: starts at {after.low} but the row before ends at {before.high}"
                " (rows must follow each other without gap or overlap)"
            )
    drms = tuple(
        _parse_drm(reader.child(f"drm[{index}]", raw), sides, columns)
        for index, raw in enumerate(reader.list_("drm"), start=1)
    )
    ids = [drm.id for drm in drms]
    for drm_id in sorted({i for i in ids if ids.count(i) > 1}):
        reader.fail(f"DRM id {drm_id!r} is used twice")
    notes_raw = reader.table.get("notes", {})
    notes: dict[str, str] = {}
    if isinstance(notes_raw, Mapping):
        for mark, text in notes_raw.items():
            if isinstance(text, str):
                notes[str(mark)] = text
            else:
                reader.fail(f"note {mark!r} must be text")
    else:
        reader.fail("'notes' must be a table of mark = text")
    roll_by = reader.table.get("roll_by")
    if roll_by is not None and roll_by not in sides:
        reader.fail(f"'roll_by' is {roll_by!r}; expected one of {', '.join(sides)}")
    return Table(
        id=table_id,
        rule=reader.str_("rule"),
        title=reader.str_("title"),
        dice=reader.choice("dice", ("dr", "DR")),  # type: ignore[arg-type]
        columns=columns,
        rows=tuple(rows),
        drms=drms,
        notes=notes,
        damaged=reader.damaged(),
        secret=reader.bool_("secret"),
        roll_by=roll_by if isinstance(roll_by, str) else None,
    )


def _parse_rg(reader: _Reader, sides: tuple[str, ...]) -> RgEntry:
    reader.no_unknown_keys(
        (
            "id",
            "side",
            "type",
            "cost",
            "units",
            "unit_type",
            "date_max",
            "cg_max",
            "kg",
            "depletion",
            "leader",
            "leader_class",
            "composition",
            "fpp",
            "notes",
        )
    )
    units = reader.str_("units")
    full, depleted = 0, 0
    try:
        parts = units.split("/")
        full = int(parts[0])
        depleted = int(parts[1]) if len(parts) > 1 else full
    except (ValueError, IndexError):
        reader.fail(f"'units' must read full/depleted such as \"3/2\", not {units!r}")
    cg_max_raw = reader.table.get("cg_max")
    cg_max: dict[str, int] = {}
    if isinstance(cg_max_raw, int) and not isinstance(cg_max_raw, bool):
        cg_max["*"] = cg_max_raw
    elif isinstance(cg_max_raw, Mapping):
        for cg, number in cg_max_raw.items():
            if isinstance(number, bool) or not isinstance(number, int):
                reader.fail(f"'cg_max.{cg}' must be a whole number, not {number!r}")
            else:
                cg_max[str(cg)] = number
    else:
        reader.fail(f"'cg_max' must be a number or a table of CG id = number, not {cg_max_raw!r}")
    side = reader.choice("side", sides)
    leader = reader.choice("leader", ("", "infantry", "armor"), "")
    return RgEntry(
        id=reader.str_("id"),
        side=side,
        type=reader.str_("type"),
        cost=reader.int_("cost"),
        units_full=full,
        units_depleted=depleted,
        unit_type=reader.str_("unit_type", ""),
        date_max=reader.int_("date_max"),
        cg_max=cg_max,
        kg=reader.str_("kg", ""),
        depletion=reader.bool_("depletion", full != depleted),
        leader=leader,
        leader_class=reader.str_("leader_class", ""),
        composition=reader.str_("composition", ""),
        fpp=reader.int_("fpp", 0),
        notes=reader.str_("notes", ""),
    )


def _parse_sw_item(reader: _Reader) -> SwItem:
    reader.no_unknown_keys(("weapon", "count", "depleted_max", "choice"))
    choice: list[tuple[int, int, str]] = []
    for index, raw in enumerate(reader.list_("choice"), start=1):
        sub = reader.child(f"choice[{index}]", raw)
        sub.no_unknown_keys(("min", "max", "weapon"))
        choice.append((sub.int_("min"), sub.int_("max"), sub.str_("weapon")))
    covered = sorted(v for low, high, _ in choice for v in range(low, high + 1))
    if choice and covered != list(range(1, 7)):
        reader.fail("'choice' must cover each dr from 1 to 6 exactly once")
    count = reader.int_("count")
    if count < 1:
        reader.fail(f"'count' must be at least 1, not {count}")
    return SwItem(reader.str_("weapon"), count, reader.int_("depleted_max"), tuple(choice))


def parse_module(data: Mapping[str, Any], file: str = "module.toml") -> Module:
    """Build a :class:`Module` from a parsed TOML document and check every entry and cross-reference.

    :raises ModuleError: listing every problem, each as "file: entry: problem".
    """
    problems: list[str] = []
    top = _Reader(problems, file, "(top)", data)
    top.no_unknown_keys(
        (
            "module",
            "limits",
            "dates",
            "steps",
            "tables",
            "rg_chart",
            "sw_charts",
            "leader_drms",
            "reinforcements",
            "fortifications",
            "initiative",
            "cgs",
            "damage",
        )
    )
    head = _Reader(problems, file, "module", data.get("module", {}))
    head.no_unknown_keys(
        ("id", "title", "source", "sides", "side_names", "ammo_side", "ammo_from", "sudden_death_side")
    )
    sides = head.strs("sides")
    if len(sides) != 2:
        head.fail(f"'sides' must name exactly two sides, not {list(sides)!r}")
    names_raw = head.table.get("side_names", {})
    side_names = {str(k): str(v) for k, v in names_raw.items()} if isinstance(names_raw, Mapping) else {}
    limits = _read_limits(problems, file, data)
    dates = _read_dates(problems, file, data, sides)
    date_ids = [d.id for d in dates]
    tables = _read_tables(problems, file, data, sides)
    steps = _read_steps(problems, file, data, sides, tables)
    cgs, cgs_status = _read_cgs(problems, file, data, sides, date_ids)
    rg_chart, rg_status = _read_rg_chart(problems, file, data, sides, cgs, tables)
    sw_charts = _read_sw_charts(problems, file, data, sides)
    leader_drms = _read_leader_drms(problems, file, data, sides, rg_chart)
    reinforcements = _read_reinforcements(problems, file, data, sides, date_ids)
    fortifications = _read_fortifications(problems, file, data, sides)
    initiative = _read_initiative(problems, file, data, sides)
    damage = _read_damage(problems, file, data)
    for key in ("ammo_side", "ammo_from", "sudden_death_side"):
        value = head.table.get(key)
        if value is not None and value not in (date_ids if key == "ammo_from" else sides):
            head.fail(f"'{key}' is {value!r}, which is not a {'CG Date' if key == 'ammo_from' else 'side'}")
    if problems:
        raise ModuleError(problems)
    return Module(
        id=head.str_("id"),
        title=head.str_("title"),
        source=head.str_("source", ""),
        sides=sides,
        side_names=side_names,
        dates=tuple(dates),
        steps=tuple(steps),
        tables=tables,
        rg_chart=rg_chart,
        rg_chart_status=rg_status,
        sw_charts=sw_charts,
        leader_drms=leader_drms,
        reinforcements=tuple(reinforcements),
        fortifications=tuple(fortifications),
        initiative=initiative,
        cgs=cgs,
        cgs_status=cgs_status,
        limits=limits,
        ammo_side=head.table.get("ammo_side") if head.table.get("ammo_side") in sides else None,
        ammo_from=head.table.get("ammo_from") if head.table.get("ammo_from") in date_ids else None,
        sudden_death_side=head.table.get("sudden_death_side") if head.table.get("sudden_death_side") in sides else None,
        damage=tuple(damage),
        raw=data,
    )


def _read_limits(problems: list[str], file: str, data: Mapping[str, Any]) -> dict[str, int]:
    """The module's limits (SAN floor, ELR bounds ...), whole numbers by name."""
    limits_reader = _Reader(problems, file, "limits", data.get("limits", {}))
    limits = {}
    for key, value in limits_reader.table.items():
        if key in COMMENT_KEYS:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            limits_reader.fail(f"'{key}' must be a whole number, not {value!r}")
        else:
            limits[key] = value
    return limits


def _read_dates(problems: list[str], file: str, data: Mapping[str, Any], sides: tuple[str, ...]) -> list[CgDate]:
    """The CG Dates in order, each read once."""
    dates: list[CgDate] = []
    for index, raw in enumerate(_Reader(problems, file, "(top)", data).list_("dates", required=True), 1):
        reader = _Reader(problems, file, f"dates[{index}]", raw)
        reader.no_unknown_keys(("id", "night", "cpp", "exhaustion"))
        date_id = reader.str_("id")
        reader.entry = f"dates '{date_id}'"
        dates.append(
            CgDate(
                date_id,
                reader.bool_("night"),
                reader.side_ints("cpp", sides) or {},
                reader.int_("exhaustion"),
            )
        )
    date_ids = [d.id for d in dates]
    for date_id in sorted({d for d in date_ids if date_ids.count(d) > 1}):
        problems.append(f"{file}: dates '{date_id}': the date is listed twice")
    return dates


def _read_tables(problems: list[str], file: str, data: Mapping[str, Any], sides: tuple[str, ...]) -> dict[str, Table]:
    """The module's tables by id."""
    tables: dict[str, Table] = {}
    tables_raw = data.get("tables", {})
    if not isinstance(tables_raw, Mapping):
        problems.append(f"{file}: tables: must be a table of tables")
        tables_raw = {}
    for table_id, raw in tables_raw.items():
        tables[table_id] = _parse_table(_Reader(problems, file, f"tables.{table_id}", raw), table_id, sides)
    return tables


def _read_steps(
    problems: list[str], file: str, data: Mapping[str, Any], sides: tuple[str, ...], tables: Mapping[str, Table]
) -> list[Step]:
    """The RePh steps in order, each naming known tables."""
    steps: list[Step] = []
    for index, raw in enumerate(_Reader(problems, file, "(top)", data).list_("steps", required=True), 1):
        reader = _Reader(problems, file, f"steps[{index}]", raw)
        reader.no_unknown_keys(
            ("rule", "title", "kind", "text", "actor", "initial", "repeat_after_idle", "tables", "mark", "areas")
        )
        rule = reader.str_("rule")
        reader.entry = f"steps '{rule}'"
        step_tables = reader.strs("tables")
        for table_id in step_tables:
            if table_id not in tables:
                reader.fail(f"'tables' names unknown table {table_id!r}")
        steps.append(
            Step(
                rule=rule,
                title=reader.str_("title"),
                kind=reader.choice("kind", STEP_KINDS),
                text=reader.str_("text"),
                actor=reader.choice("actor", (*ACTORS, *sides), "both"),
                initial=reader.bool_("initial"),
                repeat_after_idle=reader.bool_("repeat_after_idle"),
                tables=step_tables,
                mark=reader.str_("mark", ""),
                areas=reader.bool_("areas"),
            )
        )
    return steps


def _read_cgs(
    problems: list[str], file: str, data: Mapping[str, Any], sides: tuple[str, ...], date_ids: list[str]
) -> tuple[dict[str, CgDef], str]:
    """The CGs the module defines, and whether they are loaded."""
    cgs_block = _Reader(problems, file, "cgs", data.get("cgs", {}))
    cgs: dict[str, CgDef] = {}
    for index, raw in enumerate(cgs_block.list_("cg"), start=1):
        reader = _Reader(problems, file, f"cgs.cg[{index}]", raw)
        reader.no_unknown_keys(("id", "title", "start", "end", "attack_chits", "idle_chits", "elr", "san"))
        cg_id = reader.str_("id")
        reader.entry = f"cgs.cg '{cg_id}'"
        cg = CgDef(
            id=cg_id,
            title=reader.str_("title", cg_id),
            start=reader.table.get("start"),
            end=reader.table.get("end"),
            attack_chits=reader.side_ints("attack_chits", sides),
            idle_chits=reader.side_ints("idle_chits", sides),
            elr=reader.side_ints("elr", sides),
            san=reader.side_ints("san", sides),
        )
        for key in ("start", "end"):
            value = getattr(cg, key)
            if value is not None and value not in date_ids:
                reader.fail(f"'{key}' is {value!r}, which is not a CG Date of the module")
        cgs[cg_id] = cg
    cgs_status = cgs_block.str_("status", "loaded")
    return cgs, cgs_status


def _read_rg_chart(
    problems: list[str],
    file: str,
    data: Mapping[str, Any],
    sides: tuple[str, ...],
    cgs: Mapping[str, CgDef],
    tables: Mapping[str, Table],
) -> tuple[tuple[RgEntry, ...], str]:
    """The RG chart (9.617), each RG once and its composition table known, and its status."""
    rg_block = _Reader(problems, file, "rg_chart", data.get("rg_chart", {}))
    rg_block.no_unknown_keys(("status", "entry"))
    rg_chart = tuple(
        _parse_rg(_Reader(problems, file, f"rg_chart.entry[{index}]", raw), sides)
        for index, raw in enumerate(rg_block.list_("entry"), start=1)
    )
    keys = [(entry.side, entry.key.lower()) for entry in rg_chart]
    for side, key in sorted({k for k in keys if keys.count(k) > 1}):
        problems.append(f"{file}: rg_chart: RG {key!r} of side {side!r} is listed twice")
    for entry in rg_chart:
        if entry.composition and entry.composition not in tables:
            problems.append(f"{file}: rg_chart '{entry.key}': 'composition' names unknown table {entry.composition!r}")
    rg_status = rg_block.str_("status", "loaded" if rg_chart else "absent")
    return rg_chart, rg_status


def _read_sw_charts(
    problems: list[str], file: str, data: Mapping[str, Any], sides: tuple[str, ...]
) -> dict[str, dict[str, tuple[SwItem, ...]]]:
    """Each side's SW allotment chart (9.6182), by RG id."""
    sw_charts: dict[str, dict[str, tuple[SwItem, ...]]] = {}
    sw_raw = data.get("sw_charts", {})
    if isinstance(sw_raw, Mapping):
        for side, chart in sw_raw.items():
            reader = _Reader(problems, file, f"sw_charts.{side}", chart)
            if side not in sides:
                reader.fail(f"unknown side {side!r}")
            reader.no_unknown_keys(("row",))
            rows: dict[str, tuple[SwItem, ...]] = {}
            for index, raw in enumerate(reader.list_("row"), start=1):
                row_reader = reader.child(f"row[{index}]", raw)
                row_reader.no_unknown_keys(("rg", "sw"))
                rg_id = row_reader.str_("rg")
                rows[rg_id] = tuple(
                    _parse_sw_item(row_reader.child(f"sw[{n}]", item))
                    for n, item in enumerate(row_reader.list_("sw"), start=1)
                )
            sw_charts[side] = rows
    return sw_charts


def _read_leader_drms(
    problems: list[str], file: str, data: Mapping[str, Any], sides: tuple[str, ...], rg_chart: tuple[RgEntry, ...]
) -> dict[str, int]:
    """The Leader Table DRM of each side's RG class (9.6183), one for every class the RG chart names."""
    leader_drms: dict[str, int] = {}
    ld_raw = data.get("leader_drms", {})
    if isinstance(ld_raw, Mapping):
        for side, classes in ld_raw.items():
            reader = _Reader(problems, file, f"leader_drms.{side}", classes)
            if side not in sides:
                reader.fail(f"unknown side {side!r}")
            for cls, value in reader.table.items():
                if cls in COMMENT_KEYS:
                    continue
                if isinstance(value, bool) or not isinstance(value, int):
                    reader.fail(f"'{cls}' must be a whole number, not {value!r}")
                else:
                    leader_drms[f"{side}:{cls}"] = value
    for entry in rg_chart:
        if entry.leader_class and f"{entry.side}:{entry.leader_class}" not in leader_drms:
            problems.append(
                f"{file}: rg_chart '{entry.key}': 'leader_class' {entry.leader_class!r} has no Leader Table DRM"
            )
    return leader_drms


def _read_reinforcements(
    problems: list[str], file: str, data: Mapping[str, Any], sides: tuple[str, ...], date_ids: list[str]
) -> list[Reinforcement]:
    """The OB-given reinforcement schedule (9.6152)."""
    reinforcements: list[Reinforcement] = []
    for index, raw in enumerate(_Reader(problems, file, "(top)", data).list_("reinforcements"), start=1):
        reader = _Reader(problems, file, f"reinforcements[{index}]", raw)
        reader.no_unknown_keys(("date", "side", "rgs", "fpp", "san", "san_max", "san_min", "notes"))
        date_id = reader.str_("date")
        if date_id and date_id not in date_ids:
            reader.fail(f"'date' is {date_id!r}, which is not a CG Date of the module")
        reinforcements.append(
            Reinforcement(
                date=date_id,
                side=reader.choice("side", sides),
                rgs=reader.strs("rgs"),
                fpp=reader.int_("fpp", 0),
                san=reader.int_("san", 0),
                san_max=reader.opt_int("san_max"),
                san_min=reader.opt_int("san_min"),
                notes=reader.strs("notes"),
            )
        )
    return reinforcements


def _read_fortifications(
    problems: list[str], file: str, data: Mapping[str, Any], sides: tuple[str, ...]
) -> list[Fortification]:
    """The Fortifications and their FPP costs (9.619)."""
    fortifications: list[Fortification] = []
    for index, raw in enumerate(_Reader(problems, file, "(top)", data).list_("fortifications"), start=1):
        reader = _Reader(problems, file, f"fortifications[{index}]", raw)
        reader.no_unknown_keys(("id", "name", "cost", "front_line", "notes"))
        fortifications.append(
            Fortification(
                id=reader.str_("id"),
                name=reader.str_("name"),
                cost=reader.side_ints("cost", sides, optional=False) or {},
                front_line=reader.bool_("front_line"),
                notes=reader.str_("notes", ""),
            )
        )
    return fortifications


def _read_initiative(problems: list[str], file: str, data: Mapping[str, Any], sides: tuple[str, ...]) -> dict[str, str]:
    """The Initiative matrix (9.62133): the four chit pairs and what each gives."""
    initiative: dict[str, str] = {}
    init_reader = _Reader(problems, file, "initiative", data.get("initiative", {}))
    for key, value in init_reader.table.items():
        if key in COMMENT_KEYS:
            continue
        if key.count("/") != 1 or not all(part in ("attack", "idle") for part in key.split("/")):
            init_reader.fail(f"key {key!r} must read '<{sides[0] if sides else 'side'} chit>/<other chit>'")
        elif value not in ("dual", "idle", *(f"{side}_assault" for side in sides)):
            expected = ", ".join(("dual", "idle", *(f"{side}_assault" for side in sides)))
            init_reader.fail(f"'{key}' is {value!r}; expected one of {expected}")
        else:
            initiative[key] = value
    if data.get("initiative") is not None and len(initiative) != 4:
        init_reader.fail("the matrix needs the four cells attack/attack, attack/idle, idle/attack, idle/idle")
    return initiative


def _read_damage(problems: list[str], file: str, data: Mapping[str, Any]) -> list[Damage]:
    """Where the source's text is damaged, and how the module reads it."""
    damage: list[Damage] = []
    for index, raw in enumerate(_Reader(problems, file, "(top)", data).list_("damage"), start=1):
        reader = _Reader(problems, file, f"damage[{index}]", raw)
        reader.no_unknown_keys(("rule", "where", "reading"))
        damage.append(Damage(reader.str_("rule"), reader.str_("where"), reader.str_("reading")))
    return damage


def parse_module_text(text: str, file: str = "module.toml") -> Module:
    """Parse and validate a module from TOML text.

    :raises ModuleError: naming the file when the text is not valid TOML or the data is broken.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ModuleError([f"{file}: (file): not valid TOML: {error}"]) from error
    return parse_module(data, file)


@lru_cache(maxsize=32)
def _module_from_json(canonical: str) -> Module:
    return parse_module(json.loads(canonical), "campaign state")


def module_from_raw(raw: Mapping[str, Any]) -> Module:
    """The module a campaign state holds (parsed once per distinct content)."""
    return _module_from_json(json.dumps(raw, sort_keys=True))


def load_table_override(module: Module, text: str, file: str = "override.toml", side: Side | None = None) -> Module:
    """[9.617, tables] A module with tables, the RG chart or other data replaced from an organiser's file.

    The file may hold any of the keys in :data:`OVERRIDABLE`. Each ``[tables.<id>]`` replaces (or adds)
    that one table; each ``[[rg_chart.entry]]`` replaces the entry of the same side and id (or adds it), the
    chart's other entries staying, so a chart can be built a file (or a short text) at a time; with ``side``
    the RG and SW charts of that side are replaced whole; ``[sw_charts]``, ``[initiative]`` and ``[cgs]``
    replace the whole block; ``[[reinforcements]]`` and ``[[fortifications]]`` replace the whole list. The
    result is validated as a whole module, so a table the steps still need cannot be removed.

    :raises ModuleError: naming the file, the entry and the problem; the module is left unchanged.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ModuleError([f"{file}: (file): not valid TOML: {error}"]) from error
    unknown = sorted(set(data) - set(OVERRIDABLE) - COMMENT_KEYS)
    if unknown:
        raise ModuleError(
            [f"{file}: {key}: cannot be overridden; an override may hold {', '.join(OVERRIDABLE)}" for key in unknown]
        )
    if not any(key in data for key in OVERRIDABLE):
        raise ModuleError([f"{file}: (file): holds nothing to load; expected one of {', '.join(OVERRIDABLE)}"])
    if side is not None and side not in module.sides:
        raise ModuleError([f"{file}: (file): no side {side!r}; the sides are {', '.join(module.sides)}"])
    merged = copy.deepcopy(dict(module.raw))
    for key, value in data.items():
        if key in COMMENT_KEYS:
            continue
        if side is not None and key in ("rg_chart", "sw_charts"):
            merged[key] = _one_side(merged.get(key), value, key, side, file)
        elif key == "rg_chart" and isinstance(value, Mapping) and value.get("entry"):
            merged[key] = _by_entry(merged.get(key), value, file)
        elif key == "tables":
            if not isinstance(value, Mapping):
                raise ModuleError([f"{file}: tables: must be a table of tables"])
            merged.setdefault("tables", {})
            merged["tables"] = {**merged["tables"], **value}
        else:
            merged[key] = value
    try:
        return parse_module(merged, file)
    except ModuleError as error:
        raise ModuleError(error.problems) from None


def _one_side(current: Any, value: Any, key: str, side: Side, file: str) -> Any:
    """[9.617] The RG or SW chart with one side's part replaced by ``value`` and the other side's kept."""
    if key == "sw_charts":
        if not isinstance(value, Mapping) or set(value) - {side}:
            raise ModuleError(
                [f"{file}: sw_charts: loading for the {side} side, the file may hold only [sw_charts.{side}]"]
            )
        return {**(current if isinstance(current, Mapping) else {}), side: value.get(side, {})}
    if not isinstance(value, Mapping):
        raise ModuleError([f"{file}: rg_chart: must be a table"])
    entries = value.get("entry", [])
    for index, entry in enumerate(entries if isinstance(entries, list) else [], start=1):
        if isinstance(entry, Mapping) and entry.get("side") != side:
            raise ModuleError(
                [f"{file}: rg_chart.entry[{index}]: is for the {entry.get('side')!r} side, not the {side} side"]
            )
    kept = [
        entry for entry in (current or {}).get("entry", []) if isinstance(entry, Mapping) and entry.get("side") != side
    ]
    merged = dict(value)
    merged["entry"] = kept + list(entries if isinstance(entries, list) else [])
    merged["status"] = "loaded" if merged["entry"] else value.get("status", "absent")
    return merged


def _entry_key(entry: Any) -> tuple[str, str]:
    return (str(entry.get("side")), str(entry.get("id"))) if isinstance(entry, Mapping) else ("", "")


def _by_entry(current: Any, value: Mapping[str, Any], file: str) -> dict[str, Any]:
    """[9.617] The RG chart with each entry of ``value`` put in place of the entry of the same side and id (or
    added after the others); every other entry kept; the chart's other keys (``status``) taken from ``value``."""
    entries = value.get("entry")
    if not isinstance(entries, list):
        raise ModuleError([f"{file}: rg_chart.entry: must be a list of entries ([[rg_chart.entry]])"])
    new = {_entry_key(e): e for e in entries}
    old = [e for e in current.get("entry", []) if isinstance(e, Mapping)] if isinstance(current, Mapping) else []
    kept = [new.pop(_entry_key(e)) if _entry_key(e) in new else e for e in old]
    merged = {**(current if isinstance(current, Mapping) else {}), **value}
    merged["entry"] = kept + list(new.values())
    merged["status"] = value.get("status", "loaded")
    return merged


def rg_chart_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """What a load did to the RG chart's entries, in words: replaced, added, kept, removed (by side and id)."""
    old = {_entry_key(e): e for e in (before.get("rg_chart") or {}).get("entry", [])}
    new = {_entry_key(e): e for e in (after.get("rg_chart") or {}).get("entry", [])}
    parts = []
    for label, keys in (
        ("replaced", [k for k in new if k in old and new[k] != old[k]]),
        ("added", [k for k in new if k not in old]),
        ("removed", [k for k in old if k not in new]),
    ):
        if keys:
            parts.append(f"{label} {', '.join(f'{side} {id_}' for side, id_ in keys)}")
    unchanged = sum(1 for k in new if k in old and new[k] == old[k])
    parts.append(f"{unchanged} unchanged")
    return "RG chart entries: " + "; ".join(parts)


def overridden_keys(text: str) -> list[str]:
    """The entries an override text replaces, for the organiser's confirmation message."""
    data = tomllib.loads(text)
    found: list[str] = []
    for key, value in data.items():
        if key == "tables" and isinstance(value, Mapping):
            found.extend(f"tables.{table_id}" for table_id in value)
        elif key in OVERRIDABLE:
            found.append(key)
    return found
