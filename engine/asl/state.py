"""The campaign state: a JSON-serialisable record of one HASL campaign game between its scenarios.

The state holds the module's data (so a campaign replays the same even if the bundled file changes),
the game seed (never shown in any view; only its SHA-256 commitment is), the dice counters, where the
campaign stands in the RePh, each side's roster, the history of CG Dates and every sealed secret.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.asl.roster import Roster
from engine.contract import Seat

STATE_VERSION = 1

Phase = str
"""``"created"`` (waiting for a player to begin), ``"refit"`` (a RePh is running), ``"scenario"`` (a CG
Scenario is being played, off the bot),
``"confirm_end"`` (its end was reported and awaits the other side's confirmation), ``"victory"`` (the CG's
last date was Idle: the sides report the CG winner per the CG Victory Conditions) or ``"over"``."""


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
    cg: dict[str, Any]
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
    step_data: dict[str, Any] = field(default_factory=dict)
    history: list[DateRecord] = field(default_factory=list)
    secrets: list[Secret] = field(default_factory=list)
    report: dict[str, Any] | None = None
    """A reported scenario end awaiting confirmation."""
    result: dict[str, Any] | None = None
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
