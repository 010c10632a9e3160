"""The records of the procedures in progress on ``state.pending``, typed key by key.

A decision that interrupts the sequence of play (a combat's supports, losses, retreats and advance; a
reactivation window of 15.3; an overstacked hex of 5) leaves a record on ``state.pending`` until it is
settled. The records are stored in the game state's JSON exactly as typed here, so games already stored
replay from them: a key is added as ``NotRequired``, and never renamed.

``state.pending`` holds plain dictionaries; :func:`pending_records` reads them as the union of the records
below, which ``record["kind"]`` tells apart, and :func:`push` puts a typed record on the stack.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NotRequired, TypedDict, cast

from engine.hexgrid import Hex
from engine.vaevictis.data import Side
from engine.vaevictis.state import GameState

AttackKind = Literal["normal", "prepared"]
"""[7.3] A normal (7.3.1) or a prepared (7.3.2) attack."""

Role = Literal["attacker", "defender"]
"""A side's part in a combat."""

CrtLoss = int | Literal["E"]
"""[7.6] One side's half of a CRT result: steps to lose or retreat, or ``"E"`` (the whole stack eliminated)."""

CombatStage = Literal[
    "defender_supports",
    "c3i",
    "snafu_choice",
    "snafu_vv60_choice",
    "roll",
    "reroll",
    "defender",
    "attacker",
    "advance",
    "done",
]
"""Where a combat stands, in the order of 7.5 and 7.6: the defender's supports (7.5), the C3I or VV60 SNAFU
roll (9.5), the defender's choice of the unit SNAFU 9 or 11 strikes, the other player's choice of an even
VV60 SNAFU's effect, the combat die, the Christmas re-roll (15.4), the defender's then the attacker's losses
and retreat (7.6, 7.7.1), the advance (7.7.2), and the end."""


class PlanRecord(TypedDict):
    """[7.5] An attack plan as plain JSON data (:meth:`engine.vaevictis.odds.AttackPlan.to_json`)."""

    side: Side
    kind: AttackKind
    attackers: list[str]
    target: Hex | None
    """The first target hex, kept beside ``targets`` for readers of one-hex plans."""
    targets: list[Hex]
    supports: list[list[str]]
    """The attacker's HQ support markers, each ``[hq id, marker kind]``."""
    air: int
    defender_supports: list[list[str]]
    defender_air: int
    attacker_quality: str | None
    defender_quality: str | None
    snafu: str | None
    snafu_unit: str | None
    snafu_die: NotRequired[int]
    """VV60 SNAFU (9.5): the die shift chosen, only once set."""
    surprise_support: NotRequired[list[str]]
    """VV60 SNAFU (9.5): ``[army, marker kind]`` of the surprise support, only once drawn."""


class ModifierRecord(TypedDict):
    """One column shift or die modifier with its reason and rule."""

    amount: int
    reason: str
    rule: str


class AssessmentRecord(TypedDict):
    """[7.4, 7.5] The figures of the assessment the combat die was rolled against."""

    column: int
    column_name: str
    drm: int
    attacker_quality: str
    defender_quality: str
    cancelled: list[str]
    attack_total: int
    defence_total: int
    ratio: str
    shifts: list[ModifierRecord]
    drm_detail: list[ModifierRecord]


class ResultRecord(TypedDict):
    """[7.6, 7.8] The CRT result read for the combat."""

    text: str
    attacker: CrtLoss
    defender: CrtLoss
    attacker_red: bool
    defender_red: bool
    breakthrough: bool
    row: int


class RetreatGroup(TypedDict):
    """[7.7.1] Units of one side that retreat together, and the hexes they have crossed."""

    units: list[str]
    path: list[Hex]
    """The hex the group started from, then each hex it retreated into."""
    zoc_owed: int
    """Steps the group owes for enemy-ZoC hexes entered, or for a retreat it could not make."""
    blocked: bool
    """No further retreat was possible: the rest was taken as step losses."""


class SideResult(TypedDict):
    """[7.6, 7.7.1] One side's part of the result while it is being taken."""

    owed: CrtLoss
    min_losses: int
    """Steps to lose before any retreat (a red result, a prepared attack's attacker)."""
    losses: int
    steps_lost: int
    retreat: int | None
    """Hexes of retreat, fixed at the first hex retreated; ``None`` before."""
    groups: list[RetreatGroup]
    unfulfilled: int
    """Steps and hexes of the result left untaken when the side was gone (7.7.2 advance)."""
    done: bool
    held_by_defender: NotRequired[bool]
    """[7.6] The defender held his ground and lost steps: the attacker takes his whole result as losses."""
    defender_lost: NotRequired[bool]
    """[7.6] The defender lost steps: the attacker loses at least one step."""


class ArmorMarkers(TypedDict):
    """[1.6.1] Each side's armor markers kept aside until its losses are taken, each ``[hq id, kind]``."""

    attacker: list[list[str]]
    defender: list[list[str]]


class AdvancingUnit(TypedDict):
    """[7.7.2] Where an attacker stands in the advance after combat."""

    hex: Hex
    moved: int
    stopped: bool


class AdvanceRecord(TypedDict):
    """[7.7.2] The attacker's advance after combat."""

    allowance: int
    vacated: list[Hex]
    """The target hexes the defender left, entered first."""
    paths: list[list[Hex]]
    """The defender's retreat paths, which the advance follows."""
    units: dict[str, AdvancingUnit]


class SnafuVV60Record(TypedDict):
    """[9.5, Alsace 1944] The VV60 SNAFU roll of the combat."""

    total: int
    afflicted: Role | None
    chooser: NotRequired[Side]
    """An even total: the player who chooses the effect."""


class CombatRecord(TypedDict):
    """[7] A combat from its declaration to the end of the advance."""

    kind: Literal["combat"]
    plan: PlanRecord
    """The plan as declared, with the defender's supports and quality unit as he adds them."""
    side: Side
    """The attacking side."""
    target: Hex
    targets: list[Hex]
    attackers: list[str]
    defenders: list[str]
    armor_on_both_sides: bool
    """[7.6] Armored or mechanized units attack and defend: the first or second loss is theirs."""
    snafu: str | None
    """[9.5] The SNAFU effect code rolled, if any."""
    stage: CombatStage
    snafu_unit: NotRequired[str]
    snafu_choices: NotRequired[list[str]]
    defender_quality: NotRequired[str]
    snafu_vv60: NotRequired[SnafuVV60Record]
    die: NotRequired[int]
    assessment: NotRequired[AssessmentRecord]
    result: NotRequired[ResultRecord]
    armor_markers: NotRequired[ArmorMarkers]
    defender: NotRequired[SideResult]
    attacker: NotRequired[SideResult]
    advance: NotRequired[AdvanceRecord]


class ReactionRecord(TypedDict):
    """[15.3 Lack of SS Elan] An action held while the enemy decides whether to stop the reactivation."""

    kind: Literal["reaction"]
    event: str
    """The stratagem the enemy may play."""
    side: Side
    """The side whose action is held."""
    verb: str
    args: dict[str, Any]
    units: list[str]
    """The units the action would reactivate."""


class StackingRecord(TypedDict):
    """[5] Hexes a side must bring down to the stacking limit at the end of an activation."""

    kind: Literal["stacking"]
    side: Side
    hexes: list[Hex]


PendingRecord = CombatRecord | ReactionRecord | StackingRecord
"""Any record on ``state.pending``; ``record["kind"]`` tells which."""


def pending_records(state: GameState) -> list[PendingRecord]:
    """The records on ``state.pending``, oldest first: the very list, typed (changing it changes the state)."""
    return cast(list[PendingRecord], state.pending)


def push(state: GameState, record: PendingRecord) -> None:
    """Put a record on top of ``state.pending``."""
    state.pending.append(cast(dict[str, Any], record))


def advancing_units(state: GameState, units: Sequence[str]) -> dict[str, AdvancingUnit]:
    """[7.7.2] The attackers that may advance, each where it stands (on the map), not moved yet."""
    advancing: dict[str, AdvancingUnit] = {}
    for unit_id in units:
        hex_ = state.units[unit_id].hex
        assert hex_ is not None, unit_id
        advancing[unit_id] = {"hex": hex_, "moved": 0, "stopped": False}
    return advancing
