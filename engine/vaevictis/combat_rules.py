"""[7, 3.6, 9.5] The combat rules a game's tables may change, read with their defaults, and checked on load.

A Vae Victis game states in its ``tables.toml`` the combat rules that differ between games of the system; a
game that leaves an entry out plays the rule as Ardennes 1944 does. The entries (documented in
docs/scenario-format.md) are:

- ``[attack_type.*] several_targets`` (7.2: one attack may take several hexes) and ``advance``
  (``optional`` or ``mandatory``, 7.7.2);
- ``[modifiers]`` (7.4): ``combined_arms``, ``armored_superiority`` (die modifiers) and
  ``divisional_integrity``;
- ``[losses]`` (7.6): the attacker's minimum loss when the defender loses steps, and whether an attacker
  may still retreat when the defender held his ground;
- ``[retreat]`` (7.7.1, 3.6): the retreat priorities, whether a retreat disorganises, and whether a unit that
  retreats into a friendly stack defends at half;
- ``[snafu_vv60]`` (9.5 of Alsace 1944, from VV60): the optional SNAFU roll.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.vaevictis.data import GameData

PRIORITIES = (
    "out-of-enemy-zoc",
    "toward-friendly-edge",
    "toward-friendly-edge-or-own-hq",
    "farthest-from-enemy",
    "least-costly-terrain",
)
"""The retreat priorities a game may list, in its order (7.7.1)."""

DEFAULT_PRIORITIES = ("out-of-enemy-zoc", "toward-friendly-edge", "farthest-from-enemy", "least-costly-terrain")
"""The four priorities of the system (Ardennes 1944): the default."""

ADVANCES = ("optional", "mandatory")

SNAFU_EVEN = ("other-quality-unit", "die-penalty", "die-bonus")
SNAFU_ODD = ("lose-random-support-else-surprise-support",)


@dataclass(frozen=True)
class Modifiers:
    """[7.4] The die modifiers of a game beyond terrain, quality and supports."""

    combined_arms: int = 0
    """+n to the attacker's die when an attacking hex holds a tank unit with an infantry unit; 0 for none."""
    armored_superiority: int = 0
    """+n for the attacker (-n for the defender) whose armored-superiority tank faces tanks; 0 for none."""
    divisional_integrity: bool = True
    """Whether two armored/mechanized units of one division stacked give +-1 (Ardennes 1944 7.4)."""


@dataclass(frozen=True)
class LossRules:
    """[7.6] How the attacker's result depends on what the defender did."""

    minimum_if_defender_loses: bool = False
    """The attacker loses at least one step of an adverse result when the defender lost any step."""
    holds_if_defender_holds: bool = False
    """When the defender took his whole result as step losses, the attacker takes his as losses too."""


@dataclass(frozen=True)
class RetreatRules:
    """[7.7.1, 3.6] Retreats after combat."""

    priorities: tuple[str, ...] = DEFAULT_PRIORITIES
    disorganizes: bool = False
    """Every unit that retreats is Disorganised, halved in attack and defence until the end of the turn (3.6)."""
    into_friendly_stack_halves: bool = True
    """A unit that retreats into a friendly stack defends at half this turn (Ardennes 1944 7.7.1)."""
    destroyed_kinds: tuple[str, ...] = ()
    """Kinds of unit that never retreat and are destroyed when their stack retreats (Alsace 1944 12.2, 16)."""


def _section(data: GameData, name: str) -> Mapping[str, Any]:
    section: Mapping[str, Any] = data.tables.raw.get(name, {})
    return section


def _die(entry: Any) -> int:
    """A modifier given as a number or as a table with ``die``; ``false`` or absent is 0."""
    if isinstance(entry, Mapping):
        return int(entry.get("die", 0))
    if isinstance(entry, bool):
        return 1 if entry else 0
    return int(entry or 0)


def modifiers(data: GameData) -> Modifiers:
    """[7.4] The game's combat modifiers (``[modifiers]``); Ardennes 1944's without the table."""
    raw = _section(data, "modifiers")
    return Modifiers(
        combined_arms=_die(raw.get("combined_arms", 0)),
        armored_superiority=_die(raw.get("armored_superiority", 0)),
        divisional_integrity=bool(raw.get("divisional_integrity", True)),
    )


def loss_rules(data: GameData) -> LossRules:
    """[7.6] The game's loss rules (``[losses]``)."""
    raw = _section(data, "losses")
    return LossRules(
        minimum_if_defender_loses=bool(raw.get("attacker_minimum_if_defender_loses", False)),
        holds_if_defender_holds=bool(raw.get("attacker_holds_if_defender_holds", False)),
    )


def retreat_rules(data: GameData) -> RetreatRules:
    """[7.7.1, 3.6] The game's retreat rules (``[retreat]``)."""
    raw = _section(data, "retreat")
    return RetreatRules(
        priorities=tuple(raw.get("priorities", DEFAULT_PRIORITIES)),
        disorganizes=bool(raw.get("disorganizes", False)),
        into_friendly_stack_halves=bool(raw.get("into_friendly_stack_halves", True)),
        destroyed_kinds=tuple(raw.get("destroyed_kinds", ())),
    )


def several_targets(data: GameData, kind: str) -> bool:
    """[7.2] Whether an attack of this type may take several hexes at once."""
    return bool(data.tables.raw["attack_type"][kind].get("several_targets", True))


def advance_is_mandatory(data: GameData, kind: str) -> bool:
    """[7.7.2] Whether at least one unit must advance after an attack of this type, when one can."""
    return bool(data.tables.raw["attack_type"][kind].get("advance", "optional") == "mandatory")


def has_snafu_vv60(data: GameData) -> bool:
    """[9.5] Whether the game offers the VV60 SNAFU option."""
    return "snafu_vv60" in data.tables.raw


# --- Checks -------------------------------------------------------------------------------------------------

Complain = Callable[[str, str], None]


def check(doc: Mapping[str, Any], complain: Complain) -> None:
    """Check the entries this module reads; ``complain(entry, problem)`` records each problem."""
    for kind, row in doc.get("attack_type", {}).items():
        if not isinstance(row, Mapping):
            continue
        if "several_targets" in row and not isinstance(row["several_targets"], bool):
            complain(f"[attack_type.{kind}]", "several_targets must be true or false (7.2)")
        if row.get("advance", "optional") not in ADVANCES:
            complain(f"[attack_type.{kind}]", f"advance must be one of {', '.join(ADVANCES)} (7.7.2)")
    _check_modifiers(doc.get("modifiers"), complain)
    _check_flags(
        doc.get("losses"),
        "[losses]",
        ("attacker_minimum_if_defender_loses", "attacker_holds_if_defender_holds"),
        complain,
    )
    retreat = doc.get("retreat")
    if retreat is not None:
        _check_flags(retreat, "[retreat]", ("disorganizes", "into_friendly_stack_halves"), complain)
        priorities = retreat.get("priorities", []) if isinstance(retreat, Mapping) else []
        if not isinstance(priorities, list) or any(p not in PRIORITIES for p in priorities):
            complain("[retreat]", f"priorities must be a list among {', '.join(PRIORITIES)} (7.7.1)")
        if isinstance(retreat, Mapping) and retreat.get("disorganizes") and "disorganized" not in doc.get("status", {}):
            complain("[retreat]", "disorganizes needs a [status.disorganized] entry (3.6)")
        kinds = retreat.get("destroyed_kinds", []) if isinstance(retreat, Mapping) else []
        if not isinstance(kinds, list) or any(not isinstance(k, str) for k in kinds):
            complain("[retreat]", "destroyed_kinds must be a list of unit kinds (12.2, 16)")
    for name, entry in doc.get("support", {}).items():
        _check_support(name, entry, complain)
    snafu = doc.get("snafu_vv60")
    if snafu is not None:
        _check_snafu_vv60(snafu, complain)


def _check_flags(table: Any, entry: str, keys: tuple[str, ...], complain: Complain) -> None:
    if table is None:
        return
    if not isinstance(table, Mapping):
        complain(entry, "must be a table")
        return
    for key in keys:
        if key in table and not isinstance(table[key], bool):
            complain(entry, f"{key} must be true or false")


def _check_modifiers(table: Any, complain: Complain) -> None:
    if table is None:
        return
    if not isinstance(table, Mapping):
        complain("[modifiers]", "must be a table")
        return
    for key in ("combined_arms", "armored_superiority"):
        entry = table.get(key, 0)
        if isinstance(entry, Mapping):
            entry = entry.get("die")
        if isinstance(entry, bool) or not isinstance(entry, int) or entry < 0:
            complain("[modifiers]", f"{key} must be a die modifier (a whole number, 0 for none) (7.4)")
    if not isinstance(table.get("divisional_integrity", True), bool):
        complain("[modifiers]", "divisional_integrity must be true or false (7.4)")


def _check_support(name: str, entry: Any, complain: Complain) -> None:
    if not isinstance(entry, Mapping):
        return
    where = f"[support.{name}]"
    for key in ("defence_only", "needs_tank_terrain", "combat_command_exception", "may_absorb_step_loss"):
        if key in entry and not isinstance(entry[key], bool):
            complain(where, f"{key} must be true or false (1.6)")
    if "only_against" in entry and entry["only_against"] not in ("armored", "mechanized"):
        complain(where, "only_against must be 'armored' or 'mechanized' (1.6.1)")
    kept = entry.get("kept_on", [])
    if not isinstance(kept, list) or any(not isinstance(f, int) or not 1 <= f <= 6 for f in kept):
        complain(where, "kept_on must list die faces from 1 to 6 (1.6)")


def _check_snafu_vv60(table: Any, complain: Complain) -> None:
    if not isinstance(table, Mapping):
        complain("[snafu_vv60]", "must be a table")
        return
    for key in ("attacker_snafu_below", "defender_snafu_above"):
        if not isinstance(table.get(key), int):
            complain("[snafu_vv60]", f"{key} must be a 2d6 total (9.5)")
    quality = table.get("hq_quality")
    if not isinstance(quality, Mapping) or any(not isinstance(v, int) for v in quality.values()):
        complain("[snafu_vv60]", "hq_quality must give a quality per C3I rating, e.g. { A = 5, B = 4, C = 3 } (9.5)")
    for key in ("attacker_hq_quality", "defender_hq_quality", "defender_out_of_command", "attacker_out_of_command"):
        if not isinstance(table.get(key, 0), int):
            complain("[snafu_vv60]", f"{key} must be a whole number (9.5)")
    if any(e not in SNAFU_EVEN for e in table.get("even", [])):
        complain("[snafu_vv60]", f"even must list effects among {', '.join(SNAFU_EVEN)} (9.5)")
    if table.get("odd") not in SNAFU_ODD:
        complain("[snafu_vv60]", f"odd must be one of {', '.join(SNAFU_ODD)} (9.5)")
