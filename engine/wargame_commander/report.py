"""4.2d The frame report: the flown frame's results as the campaign manager enters them, in CSV or JSON.

Both formats give the same content (docs/wargame-commander.md):

- ``shot_down,<side that lost them>,<aircraft type>,<aircraft>`` (1.5a, 5.1)
- ``airfield,<airfield id>,<light|moderate|heavy>`` (1.5b)
- ``closed,<airfield id>`` (1.5d)
- ``depot,<depot id>`` - ruled damaged (1.6b, 2.3c)
- ``corps,<unit id>,<damage|heavy>`` (1.6c, 2.41)
- ``radar,<site id>`` (1.6a)
- ``pilot,<name>,<kills>,<assists>,<losses>`` - German fighter pilots (3.3c)

JSON is an object with the lists ``shot_down`` (``side``, ``type``, ``count``), ``airfields`` (``airfield``,
``damage``), ``closed``, ``depots``, ``corps`` (``unit``, ``damage``), ``radar`` and ``pilots`` (``name``,
``kills``, ``assists``, ``losses``).
"""

from __future__ import annotations

import csv
import io
import json

from engine.contract import InvalidActionError
from engine.wargame_commander.board import DAMAGE_LEVELS, Board
from engine.wargame_commander.records import FrameReport, empty_report


class ReportError(InvalidActionError):
    """A frame report with bad lines; ``problems`` has one sentence per bad line."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("the frame report has problems:\n" + "\n".join(problems), "4.2d")


def parse_report(text: str, board: Board) -> FrameReport:
    """Read a frame report (JSON if it starts with ``{``, else CSV) and check every line against the board.

    :raises ReportError: listing every bad line.
    """
    rows = _json_rows(text) if text.lstrip().startswith("{") else _csv_rows(text)
    report = empty_report()
    problems: list[str] = []
    for where, row in rows:
        if isinstance(row, str):
            problems.append(f"{where}: {row}")
            continue
        try:
            _add(report, row, board)
        except ValueError as error:
            problems.append(f"{where}: {error}")
    if problems:
        raise ReportError(problems)
    return report


def _json_rows(text: str) -> list[tuple[str, list[str] | str]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        return [("JSON", f"not valid JSON: {error}")]
    if not isinstance(data, dict):
        return [("JSON", "the report is an object with lists such as shot_down and airfields")]
    rows: list[tuple[str, list[str] | str]] = []
    fields = {
        "shot_down": ("shot_down", ["side", "type", "count"]),
        "airfields": ("airfield", ["airfield", "damage"]),
        "closed": ("closed", None),
        "depots": ("depot", None),
        "corps": ("corps", ["unit", "damage"]),
        "radar": ("radar", None),
        "pilots": ("pilot", ["name", "kills", "assists", "losses"]),
    }
    for key in data:
        if key not in fields:
            rows.append((f"JSON {key}", f"unknown list {key!r}; the lists are {', '.join(fields)}"))
    for key, (kind, names) in fields.items():
        for i, item in enumerate(data.get(key, [])):
            where = f"JSON {key}[{i}]"
            if names is None:
                rows.append((where, [kind, str(item)]))
            elif not isinstance(item, dict):
                rows.append((where, f"an object with {', '.join(names)} is needed"))
            else:
                rows.append((where, [kind, *(str(item.get(n, "")) for n in names)]))
    return rows


def _csv_rows(text: str) -> list[tuple[str, list[str] | str]]:
    rows: list[tuple[str, list[str] | str]] = []
    for number, row in enumerate(csv.reader(io.StringIO(text)), start=1):
        cells = [c.strip() for c in row]
        if not cells or not any(cells) or cells[0].startswith("#") or cells[0].lower() == "kind":
            continue
        rows.append((f"line {number}", cells))
    return rows


def _whole(value: str, what: str) -> int:
    if not value.isdigit():
        raise ValueError(f"{what} must be a whole number, not {value!r}")
    return int(value)


def _check_field(board: Board, field_id: str, what: str) -> None:
    """An airfield the report may name: on the board, and not one of the 8th AF's fields in England."""
    if field_id not in board.airfields:
        raise ValueError(f"no airfield {field_id!r}")
    spec = board.airfields[field_id]
    if not board.areas[spec.area].mainland:
        raise ValueError(
            f"{spec.name} is an 8th AF field in England and cannot be {what}: the 8th AF is left out of the "
            "board's airfield losses and closures (1.5a, 1.5d exceptions), and the German raids on airfields "
            "are on the mainland (3.3a)"
        )


def _add(report: FrameReport, row: list[str], board: Board) -> None:
    kind, args = row[0].lower(), row[1:]
    sizes = {
        "shot_down": 3,
        "airfield": 2,
        "closed": 1,
        "depot": 1,
        "corps": 2,
        "radar": 1,
        "pilot": 4,
    }
    if kind not in sizes:
        raise ValueError(f"unknown kind {row[0]!r}; the kinds are {', '.join(sizes)}")
    if len(args) != sizes[kind]:
        raise ValueError(f"a {kind} line has {sizes[kind]} value(s) after the kind, not {len(args)}")
    if kind == "shot_down":
        side, type_, count = args
        plane = board.aircraft.get(type_)
        if side not in board.sides:
            raise ValueError(f"no side {side!r}")
        if plane is None or plane.side != side:
            raise ValueError(f"no {side} aircraft type {type_!r} in the step chart")
        report["shot_down"].append({"side": side, "type": type_, "count": _whole(count, "the count")})
    elif kind == "airfield":
        field, level = args
        _check_field(board, field, "damaged")
        if level not in DAMAGE_LEVELS:
            raise ValueError(f"the damage level is one of {', '.join(DAMAGE_LEVELS)}, not {level!r}")
        report["airfields"].append({"airfield": field, "damage": level})
    elif kind == "closed":
        _check_field(board, args[0], "closed")
        report["closed"].append(args[0])
    elif kind == "depot":
        if args[0] not in board.depots:
            raise ValueError(f"no supply depot {args[0]!r}")
        report["depots"].append(args[0])
    elif kind == "corps":
        unit, level = args
        if unit not in board.units or board.units[unit].type == "hq":
            raise ValueError(f"no corps {unit!r} (Army HQs cannot be attacked from the air, 1.6a)")
        if level not in ("damage", "heavy"):
            raise ValueError(f"corps damage is damage or heavy (2.41), not {level!r}")
        report["corps"].append({"unit": unit, "damage": level})
    elif kind == "radar":
        if args[0] not in {r.id for r in board.radar}:
            raise ValueError(f"no radar site {args[0]!r}")
        report["radar"].append(args[0])
    else:
        name, kills, assists, losses = args
        if not name:
            raise ValueError("a pilot line needs the pilot's name")
        report["pilots"].append(
            {
                "name": name,
                "kills": _whole(kills, "kills"),
                "assists": _whole(assists, "assists"),
                "losses": _whole(losses, "losses"),
            }
        )


# --- The report as a form --------------------------------------------------------------------------------

FORM_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("shot_down", "Aircraft shot down (1.5a)", "side, type, aircraft - one a line: german, Bf 109G, 3"),
    ("airfields", "Airfields damaged or closed (1.5b, 1.5d)", "field, light|moderate|heavy|closed: Y29, moderate"),
    ("targets", "Depots damaged, radar sites hit (1.6)", "ids, by commas or lines: cologne, verviers"),
    ("corps", "Corps hit by tac air (2.41)", "unit, damage|heavy - one a line: us-8, damage"),
    ("pilots", "German pilots (3.3c)", "name, kills, assists, losses: Hartmann, 4, 1, 0"),
)
"""The frame report as five form fields (a Discord form holds five): key, label, how to fill it."""


def parse_form(fields: dict[str, str], board: Board) -> FrameReport:
    """Read the frame report from its form (:data:`FORM_FIELDS`), one item a line, and check every line.

    :raises ReportError: listing every bad line by its field and line number.
    """
    report = empty_report()
    problems: list[str] = []
    labels = {key: label.split(" (")[0] for key, label, _ in FORM_FIELDS}
    for key, text in fields.items():
        if key not in labels:
            problems.append(f"the form has no field {key!r}")
            continue
        for number, line in enumerate(str(text).splitlines(), start=1):
            cells = [c.strip() for c in line.split(",")]
            if not any(cells):
                continue
            for row in _form_rows(key, cells, board):
                try:
                    _add(report, row, board)
                except ValueError as error:
                    problems.append(f"{labels[key]}, line {number}: {error}")
    if problems:
        raise ReportError(problems)
    return report


def _form_rows(key: str, cells: list[str], board: Board) -> list[list[str]]:
    if key == "shot_down":
        return [["shot_down", *cells]]
    if key == "airfields":
        if len(cells) == 2 and cells[1].lower() == "closed":
            return [["closed", cells[0]]]
        return [["airfield", *cells]]
    if key == "corps":
        return [["corps", *cells]]
    if key == "pilots":
        return [["pilot", *cells]]
    radar = {r.id for r in board.radar}
    return [["radar" if c in radar else "depot", c] for c in cells if c]


def report_csv(report: FrameReport) -> str:
    """A checked report as the CSV the log keeps (what :func:`parse_report` reads back to the same report)."""
    lines = ["kind,a,b,c,d"]
    lines += [f"shot_down,{x['side']},{x['type']},{x['count']}" for x in report.get("shot_down", [])]
    lines += [f"airfield,{x['airfield']},{x['damage']}" for x in report.get("airfields", [])]
    lines += [f"closed,{x}" for x in report.get("closed", [])]
    lines += [f"depot,{x}" for x in report.get("depots", [])]
    lines += [f"corps,{x['unit']},{x['damage']}" for x in report.get("corps", [])]
    lines += [f"radar,{x}" for x in report.get("radar", [])]
    lines += [f"pilot,{x['name']},{x['kills']},{x['assists']},{x['losses']}" for x in report.get("pilots", [])]
    return "\n".join(lines) + "\n"


def form_values(report: FrameReport | None) -> dict[str, str]:
    """A report as the form's fields (to correct it in the same form)."""
    report = report or empty_report()
    airfields = [f"{x['airfield']}, {x['damage']}" for x in report.get("airfields", [])]
    return {
        "shot_down": "\n".join(f"{x['side']}, {x['type']}, {x['count']}" for x in report.get("shot_down", [])),
        "airfields": "\n".join([*airfields, *(f"{x}, closed" for x in report.get("closed", []))]),
        "targets": ", ".join([*report.get("depots", []), *report.get("radar", [])]),
        "corps": "\n".join(f"{x['unit']}, {x['damage']}" for x in report.get("corps", [])),
        "pilots": "\n".join(
            f"{x['name']}, {x['kills']}, {x['assists']}, {x['losses']}" for x in report.get("pilots", [])
        ),
    }
