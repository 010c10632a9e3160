"""Checks of the data keys the movement, command, doctrine and turn rules read (docs/scenario-format.md).

Each problem is reported through ``add(file, entry, problem)`` (the loader's :class:`Problems`), so a typo in
``[zoc]``, ``[static]``, ``[turn_end]``, ``[doctrine.*]``, ``[mines]``, ``[trucks]`` or the opening-turn limits
is found by ``umpire validate`` rather than silently ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.vaevictis.data import SIDES, GameData

Add = Callable[[str, str, str], None]

UNIT_KINDS = ("infantry", "mechanized", "armored", "hq", "strongpoint", "garrison")
MOBILITY_CLASSES = ("infantry", "mechanized")


def _whole(value: Any, low: int = 0) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


def _unknown(add: Add, file: str, entry: str, table: Mapping[str, Any], known: tuple[str, ...]) -> None:
    for key in table:
        if key not in (*known, "rule", "note", "basis", "source", "reconstructed"):
            add(file, entry, f"unknown key '{key}'")


def check_rule_tables(data: GameData, add: Add, tables_file: str, setup_file: str) -> None:
    """Report every malformed key of the rule tables named in the module docstring."""
    raw = data.tables.raw
    _check_tables(raw, add, tables_file)
    _check_setup(data, add, setup_file)


def _check_tables(raw: Mapping[str, Any], add: Add, file: str) -> None:
    turn_end = raw.get("turn_end", {})
    _unknown(add, file, "[turn_end]", turn_end, ("ends_on", "activations"))
    if "activations" in turn_end and not _whole(turn_end["activations"], 1):
        add(file, "[turn_end]", "activations must be a whole number of at least 1 (2.2)")
    if any(not _whole(t) or not 2 <= t <= 12 for t in turn_end.get("ends_on", [])):
        add(file, "[turn_end]", "ends_on lists 2d6 totals, from 2 to 12 (2.2)")

    sequence = raw.get("sequence", {})
    _unknown(add, file, "[sequence]", sequence, ("hq_returns",))
    if sequence.get("hq_returns", "before-statuses") not in ("before-statuses", "end-of-supply-phase"):
        add(file, "[sequence]", "hq_returns is 'before-statuses' or 'end-of-supply-phase' (1.3)")

    static = raw.get("static", {})
    _unknown(add, file, "[static]", static, ("kinds",))
    for kind in static.get("kinds", {}):
        if kind not in UNIT_KINDS:
            add(file, "[static] kinds", f"'{kind}' is not a unit kind ({', '.join(UNIT_KINDS)})")

    zoc = raw.get("zoc", {})
    _unknown(add, file, "[zoc]", zoc, ("none", "full", "along_river_hexside"))
    for key in ("none", "full"):
        for kind in zoc.get(key, []):
            if kind not in UNIT_KINDS:
                add(file, f"[zoc] {key}", f"'{kind}' is not a unit kind ({', '.join(UNIT_KINDS)})")
    if not isinstance(zoc.get("along_river_hexside", False), bool):
        add(file, "[zoc]", "along_river_hexside is true or false (4.1)")

    refused_in = raw.get("status", {}).get("improved_position", {}).get("refused_in", "enemy-zoc")
    if refused_in not in ("enemy-zoc", "attack-required"):
        add(file, "[status.improved_position]", "refused_in is 'enemy-zoc' or 'attack-required' (12.1)")

    for mobility in raw.get("terrain", {}).get("road", {}).get("alone_counts", []):
        if mobility not in MOBILITY_CLASSES:
            add(file, "[terrain.road] alone_counts", f"'{mobility}' is not a movement class (6.2)")

    for side, doctrine in raw.get("doctrine", {}).items():
        entry = f"[doctrine.{side}]"
        extra = doctrine.get("formation_extra_independents")
        if extra is not None and extra != "all-in-command-range" and not _whole(extra):
            add(file, entry, "formation_extra_independents is a number or 'all-in-command-range' (9.2, 9.3)")
        if not _whole(doctrine.get("attached_combat_commands", 0)):
            add(file, entry, "attached_combat_commands is a whole number (9.2)")
        if not isinstance(doctrine.get("in_command_through_other_hq", False), bool):
            add(file, entry, "in_command_through_other_hq is true or false (9.3)")
        if not isinstance(doctrine.get("hq_supports_independents", True), bool):
            add(file, entry, "hq_supports_independents is true or false (1.3)")


def _check_setup(data: GameData, add: Add, file: str) -> None:
    extra = data.extra
    for key in ("activation_limit", "action_point_limit"):
        for index, limit in enumerate(extra.get(key, []), start=1):
            for scenario in limit.get("scenarios", []):
                if scenario not in data.scenarios:
                    add(file, f"[[{key}]] {index}", f"scenario '{scenario}' does not exist")
    mines = extra.get("mines")
    if mines is not None:
        _unknown(add, file, "[mines]", mines, ("side", "count"))
        if mines.get("side") not in SIDES or not _whole(mines.get("count")):
            add(file, "[mines]", "needs the mining side and a whole count of markers (14)")
    held = extra.get("control")
    if held is not None:
        _unknown(add, file, "[control]", held, ("held_from_start",))
        for side, region in dict(held.get("held_from_start", {})).items():
            if side not in SIDES or region not in data.map.regions:
                add(file, "[control] held_from_start", f"'{side}' must be a side and '{region}' a map region (15.2)")
    trucks = extra.get("trucks")
    if trucks is not None:
        truck_keys = ("side", "count", "from_turn", "action_points", "movement_allowance", "pays_as")
        _unknown(add, file, "[trucks]", trucks, truck_keys)
        numbers = ("count", "from_turn", "action_points", "movement_allowance")
        if trucks.get("side") not in SIDES or not all(_whole(trucks.get(k), 1) for k in numbers):
            add(file, "[trucks]", "needs a side and whole count, from_turn, action_points, movement_allowance (17)")
        if trucks.get("pays_as", "mechanized") != "mechanized":
            add(file, "[trucks]", "pays_as is 'mechanized' (17)")
    for index, limit in enumerate(extra.get("activation_limit", []), start=1):
        entry = f"[[activation_limit]] {index}"
        keys = (
            "side",
            "turn",
            "from_turn",
            "only_formations",
            "only_units",
            "formations",
            "units",
            "except_units",
            "scenarios",
        )
        _unknown(add, file, entry, limit, keys)
        if limit.get("side") not in SIDES or ("turn" in limit) == ("from_turn" in limit):
            add(file, entry, "needs a side and either a turn or a from_turn (19.2)")
        for key in ("only_formations", "formations"):
            for formation in limit.get(key, []):
                if formation not in data.formations:
                    add(file, entry, f"formation '{formation}' does not exist")
    for index, limit in enumerate(extra.get("action_point_limit", []), start=1):
        entry = f"[[action_point_limit]] {index}"
        _unknown(add, file, entry, limit, ("side", "turn", "action_points", "scenarios"))
        if limit.get("side") not in SIDES or not _whole(limit.get("turn"), 1) or not _whole(limit.get("action_points")):
            add(file, entry, "needs a side, a turn and a whole number of action points (19.2)")
