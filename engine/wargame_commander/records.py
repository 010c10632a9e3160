"""The records a series keeps while it waits for something: sealed decisions, battles, retreats, breakthrough
allowances, the frame report, the declared operation and the score ledger.

They are plain dictionaries in the stored state (its JSON form is these very keys); the types name each key,
so a misspelt one fails in the type check rather than in a game.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

Phase = Literal[
    "basing",
    "offensive_corps",
    "offensive_hq",
    "redeploy",
    "report",
    "dispute",
    "designate",
    "retreat",
    "breakthrough_allied",
    "breakthrough_german",
    "move_allied_corps",
    "blitz",
    "move_german_corps",
    "move_allied_hq",
    "move_german_hq",
    "declare",
    "operation_basing",
    "over",
]
"""The board-game phases of a series, in the order of 4.1 and 4.2 (see :data:`series.PHASE_NAMES`)."""


class SealedDecision(TypedDict):
    """A decision sealed with a receipt until both sides' are in (1.3 basing plans, 4.2i designations)."""

    id: str
    owner: str
    kind: str
    frame: int
    rule: str
    content: Any
    """What was decided, as the JSON the receipt is made from."""
    receipt: str
    revealed: bool
    epoch: NotRequired[int]
    """The correction epoch its salt was made in (absent in series stored before corrections existed: 0)."""


class BattleOdds(TypedDict):
    """The exact odds of a battle (2.4g): strengths, the CRT column and the dice modifiers (2.44)."""

    attack: int
    defence: int
    column: str
    column_index: int
    drms: list[list[Any]]
    """``[reason, modifier]`` pairs."""
    drm: int


class Battle(BattleOdds):
    """One designated battle of this board phase (4.2i), with its dice and result once rolled (2.4h)."""

    id: str
    side: str
    """The attacking side."""
    defender: str
    attackers: list[str]
    defender_hex: int | None
    attacker_hexes: list[int | None]
    dice: NotRequired[list[int]]
    total: NotRequired[int]
    result: NotRequired[str]


class PendingRetreat(TypedDict):
    """A retreat still to be made (2.45): the unit, the hexes left and its path so far."""

    unit: str
    left: int
    path: list[int]


class BreakthroughAllowance(TypedDict):
    """The breakthrough movement a won battle gives (2.46): who may move, how far, and the vacated hexes that
    must be entered first."""

    side: str
    battle: str
    units: list[str]
    left: int
    vacated: list[int | None]
    used: bool


class Declaration(TypedDict):
    """The operation the Germans declared (3.3) and the frame it is flown in."""

    operation: str
    """``bodenplatte`` or ``bigblow``."""
    frame: int


class LedgerLine(TypedDict):
    """One scoring event (5.1); the ledger is append only."""

    n: int
    frame: int
    phase: Phase
    side: str
    points: float
    rule: str
    source: str
    text: str


class ShotDown(TypedDict):
    side: str
    type: str
    count: int


class AirfieldDamage(TypedDict):
    airfield: str
    damage: str


class CorpsDamage(TypedDict):
    unit: str
    damage: str


class PilotLine(TypedDict):
    name: str
    kills: int
    assists: int
    losses: int


class FrameReport(TypedDict):
    """A flown frame's results as the campaign manager enters them (4.2d; see :mod:`report`)."""

    shot_down: list[ShotDown]
    airfields: list[AirfieldDamage]
    closed: list[str]
    depots: list[str]
    corps: list[CorpsDamage]
    radar: list[str]
    pilots: list[PilotLine]


class AppliedReport(TypedDict):
    """A frame report once applied: its frame, the report and each side's answer to it."""

    frame: int
    report: FrameReport
    answers: dict[str, str]


def empty_report() -> FrameReport:
    """A frame report with nothing in it."""
    return {"shot_down": [], "airfields": [], "closed": [], "depots": [], "corps": [], "radar": [], "pilots": []}
