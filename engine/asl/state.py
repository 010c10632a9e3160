"""The campaign state: a JSON-serialisable record of one HASL campaign game between its scenarios.

The state holds the module's data (so a campaign replays the same even if the bundled file changes),
the game seed (never shown in any view; only its SHA-256 commitment is), the dice counters, where the
campaign stands in the RePh, each side's roster, the history of CG Dates and every sealed secret.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, TypedDict

from engine.asl.roster import Roster
from engine.contract import Seat

STATE_VERSION = 1

Phase = Literal["created", "refit", "scenario", "confirm_end", "victory", "over"]
"""``"created"`` (waiting for a player to begin), ``"refit"`` (a RePh is running), ``"scenario"`` (a CG
Scenario is being played, off the bot),
``"confirm_end"`` (its end was reported and awaits the other side's confirmation), ``"victory"`` (the CG's
last date was Idle: the sides report the CG winner per the CG Victory Conditions) or ``"over"``."""

Chit = Literal["attack", "idle"]
"""An Initiative chit (9.6213)."""


class CgRecord(TypedDict):
    """The CG played: its id and title, its first and last CG Dates, and each side's chit limits (9.62131),
    ``None`` while they are not known."""

    id: str
    title: str
    start: str
    end: str
    attack_chits: dict[Seat, int] | None
    idle_chits: dict[Seat, int] | None


CvpAward = TypedDict("CvpAward", {"by": Seat, "amount": int, "from": Seat, "note": str})
"""CVP awarded during the RePh, waiting for the other side's confirmation (9.6202): the side credited
(``by``), the amount, the side that awarded it (``from``) and its note."""


class StepData(TypedDict, total=False):
    """What the RePh step running waits for (empty before the step has started)."""

    waiting: list[Seat]
    """The sides the step waits for."""
    sub: Literal["setup", "chits"]
    """In 9.621: choosing Initiative chits (9.6213) or setting up (9.6214)."""
    chits: dict[Seat, Chit]
    """In 9.6213: the chits chosen so far, sealed until both are in."""
    secrets: dict[Seat, str]
    """In 9.6213: the id of the secret sealing each side's chit."""
    then: list[Seat]
    """In 9.6214: the side that sets up once the first is done."""
    pending_cvp: CvpAward


class EndReport(TypedDict):
    """A reported end of a CG Scenario (or of the CG) awaiting the other side's confirmation (9.6211)."""

    conditions: dict[str, str]
    """The Initial Scenario's weather, EC and wind as its card gives them (9.6216), if reported."""
    back_to: Phase
    """The phase the campaign returns to if the report is rejected."""
    by: Seat
    confirm_by: Seat
    cvp: dict[Seat, int]
    sudden_death: bool
    winner: str | None
    """A side, ``"draw"`` or ``None``."""
    notes: str
    summary: str


def chit_limits(cg: CgRecord, chit: Chit) -> dict[Seat, int] | None:
    """The CG's limit of ``chit`` chits for each side (9.62131), ``None`` while unknown."""
    return cg["attack_chits"] if chit == "attack" else cg["idle_chits"]


class CampaignResult(TypedDict):
    """How the CG ended: the winning side (``None`` for a draw) and the words saying so."""

    winner: Seat | None
    text: str


@dataclass
class Secret:
    """A sealed decision or secret roll: its content stays out of every public view until revealed."""

    id: str
    owner: Seat
    kind: str
    """``cpp``, ``rg_purchase``, ``rg_rolls``, ``fortifications`` or ``chit``."""
    rule: str
    date: str
    content: dict[str, Any]
    receipt: str
    revealed: bool = False
    epoch: int = 0
    """The correction epoch it was sealed in (its salt depends on it)."""


@dataclass
class DateRecord:
    """What happened on one CG Date of the campaign."""

    date: str
    kind: str = "pending"
    """``pending`` (being prepared), ``scenario`` (a CG Scenario was generated) or ``idle``."""
    initial: bool = False
    """The CG Initial Scenario."""
    scenario_type: str | None = None
    """``dual`` or ``<side>_assault`` (9.62133)."""
    chits: dict[str, str] = field(default_factory=dict)
    """Revealed Initiative chits by side."""
    setup_first: Seat | None = None
    move_first: Seat | None = None
    weather: str | None = None
    ec: str | None = None
    wind: str | None = None
    wind_direction: str | None = None
    """The Random Direction Indicator direction the wind blows toward (9.62164 note 1, B26.52), if any wind."""
    cvp: dict[str, int] = field(default_factory=dict)
    """CVP inflicted by each side in this date's scenario and the RePh after it."""
    entered: dict[str, list[str]] = field(default_factory=dict)
    """The ids of each side's units Retained when this date's scenario began (what entered it)."""
    returned: dict[str, list[str]] = field(default_factory=dict)
    """Of those, the ids still Retained when the next CG Date began (what came back from it)."""
    notes: str = ""


@dataclass
class CampaignState:
    """One campaign game. Pure data: every rule lives in :mod:`engine.asl.refit`."""

    module: dict[str, Any]
    """The module's raw data (see :mod:`engine.asl.module`)."""
    cg: CgRecord
    """The CG played: id, title, start, end, chit limits."""
    seed: str
    """The game seed (hex). Secret: never in a view."""
    rosters: dict[Seat, Roster]
    date: str
    rolls_made: int = 0
    """Public dice rolled so far (engine.dice numbering)."""
    secret_rolls: dict[Seat, int] = field(default_factory=dict)
    """Secret dice rolled so far in each side's own stream (never in a public view)."""
    phase: Phase = "created"
    initial: bool = True
    """The RePh running prepares the CG Initial Scenario (only † steps)."""
    after_idle: bool = False
    """The RePh running repeats 9.612-.620 after an Idle CG Date."""
    step: int = 0
    step_data: StepData = field(default_factory=lambda: StepData())
    history: list[DateRecord] = field(default_factory=list)
    secrets: list[Secret] = field(default_factory=list)
    report: EndReport | None = None
    """A reported scenario end awaiting confirmation."""
    result: CampaignResult | None = None
    overrides: list[str] = field(default_factory=list)
    """What organisers loaded or corrected, in order."""
    epoch: int = 0
    """How many moderator corrections the campaign has had: salts and secret dice depend on it."""
    version: int = STATE_VERSION

    def copy(self) -> CampaignState:
        """A deep copy (``apply`` never mutates its input)."""
        return copy.deepcopy(self)

    def record(self) -> DateRecord:
        """The record of the current CG Date."""
        return self.history[-1]

    def revealed_ids(self) -> set[str]:
        """The ids of the secrets revealed so far."""
        return {secret.id for secret in self.secrets if secret.revealed}


def state_to_json(state: CampaignState) -> dict[str, Any]:
    """The state as plain JSON data (for storage and snapshots)."""
    data = asdict(state)
    data["rosters"] = {seat: roster.to_json() for seat, roster in state.rosters.items()}
    return data


def state_from_json(data: Mapping[str, Any]) -> CampaignState:
    """Read a state back from :func:`state_to_json` output.

    :raises ValueError: if the data was written by a newer, unknown state version.
    """
    values = copy.deepcopy(dict(data))
    if values.get("version", STATE_VERSION) > STATE_VERSION:
        raise ValueError(f"campaign state version {values['version']} is newer than this engine's {STATE_VERSION}")
    values["rosters"] = {seat: Roster.from_json(roster) for seat, roster in values["rosters"].items()}
    values["history"] = [DateRecord(**record) for record in values.get("history", [])]
    values["secrets"] = [Secret(**secret) for secret in values.get("secrets", [])]
    return CampaignState(**values)
