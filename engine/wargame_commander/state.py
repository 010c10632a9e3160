"""The state of a series: a JSON-serialisable dataclass the engine's pure functions turn into the next one."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Any

from engine.wargame_commander.board import Board, parse_board
from engine.wargame_commander.records import (
    AppliedReport,
    Battle,
    BreakthroughAllowance,
    Declaration,
    FrameReport,
    LedgerLine,
    PendingRetreat,
    Phase,
    SealedDecision,
)


@dataclass
class UnitState:
    """One corps or Army HQ on the board."""

    id: str
    hex: int | None
    """``None`` once it has surrendered (2.43 DS)."""
    lost: int = 0
    """Combat strength lost for the rest of the series (3.4d)."""
    damage: int = 0
    """This board phase's tac air damage: 1 (damage) or 2 (heavy damage) CS (2.41)."""
    engaged: bool = False
    """2.47: may not move in breakthrough movement or the next movement phase."""
    blitz_used: bool = False
    """4.2l: once per series for each corps."""
    blitz_active: bool = False
    """3.4b: from the Blitz announcement until the next combat and breakthrough movement are over."""
    blitz_check: bool = False
    """3.4d: out of Army Control at its next movement phase costs a CS."""
    sea_entry: int | None = None
    """2.3f: the hex a unit in a sea hex came from, the only way out."""


@dataclass
class FieldState:
    """One airfield: who holds it and what it holds."""

    side: str
    steps: dict[str, int]
    closed: bool = False
    captured: bool = False


@dataclass
class DepotState:
    side: str
    damaged: bool = False
    """Damaged in the last frame (2.3c, 2.44): the damage report is made anew after each frame."""


@dataclass
class SeriesState:
    """A series of the Ardennes Wargame Commander (see :mod:`engine.wargame_commander.series`)."""

    board: dict[str, Any]
    """The board document the series is played on (a league's own board travels with its games)."""
    seed: str
    rolls_made: int = 0
    phase: Phase = "basing"
    frame: int = 1
    """The next frame to fly."""
    units: dict[str, UnitState] = field(default_factory=dict)
    fields: dict[str, FieldState] = field(default_factory=dict)
    depots: dict[str, DepotState] = field(default_factory=dict)
    basing: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    """Side to squad to airfield to squad steps (1.3)."""
    home_basing: dict[str, dict[str, int]] | None = None
    """The Allied plan a Big Blow or Bodenplatte set aside for its frame (1.4, 3.3b); restored by its report."""
    pool: dict[str, dict[str, int]] = field(default_factory=dict)
    """1.5c: each side's force pool of aircraft steps by type."""
    secrets: list[SealedDecision] = field(default_factory=list)
    """Sealed decisions: id, owner, kind, frame, content, receipt, revealed (and the salt's epoch)."""
    epoch: int = 0
    """How many moderator corrections the series has had: a decision sealed after one gets a fresh salt."""
    report: FrameReport | None = None
    """The frame report awaiting its dispute window."""
    report_answers: dict[str, str] = field(default_factory=dict)
    """Side to ``accepted`` or the dispute's reason."""
    dispute_hours: float = 24.0
    """4.2d: how long the Frame COs may dispute a report (a setting of the series; 0: until the CM closes)."""
    report_at: float | None = None
    """When the report awaiting its window was entered or last corrected (the bot's clock, seconds)."""
    window_closed: bool = False
    """The window's time ran out while a dispute was open: the campaign manager decides."""
    battles: list[Battle] = field(default_factory=list)
    """This board phase's battles, with their dice and results once rolled."""
    retreats: list[PendingRetreat] = field(default_factory=list)
    """Pending retreats: unit, hexes left, path so far."""
    breakthroughs: list[BreakthroughAllowance] = field(default_factory=list)
    """Breakthrough allowances: side, battle, units, hexes left, the vacated hexes."""
    moved: list[str] = field(default_factory=list)
    """Units that have moved in the current movement phase."""
    done: list[str] = field(default_factory=list)
    """Sides that have finished a step both sides take (redeployment)."""
    declaration: Declaration | None = None
    """3.3: ``{"operation": "bodenplatte" | "bigblow", "frame": n}`` once made."""
    pilots: dict[str, dict[str, int]] = field(default_factory=dict)
    """3.3c: German fighter pilots' kills, assists and losses over the series."""
    radar_lost: list[str] = field(default_factory=list)
    ledger: list[LedgerLine] = field(default_factory=list)
    """5.1: one line per scoring event: frame, rule, source, side, points, text. Append only."""
    frontline: dict[str, int] = field(default_factory=dict)
    """Each side's frontline breaks at the last check (2.2c)."""
    reports: list[AppliedReport] = field(default_factory=list)
    """Every frame report applied, as entered."""


_PARSED: dict[int, tuple[dict[str, Any], Board]] = {}
"""Boards parsed, by the id of their document (held here, so the id is never reused while cached)."""


@lru_cache(maxsize=8)
def _board_from_text(text: str) -> Board:
    return parse_board(json.loads(text))


def board_of(state: SeriesState) -> Board:
    """The state's board, parsed once per distinct document (states made by ``apply`` share their document)."""
    cached = _PARSED.get(id(state.board))
    if cached is not None and cached[0] is state.board:
        return cached[1]
    board = _board_from_text(json.dumps(state.board, sort_keys=True))
    if len(_PARSED) >= 32:
        _PARSED.clear()
    _PARSED[id(state.board)] = (state.board, board)
    return board


def state_to_json(state: SeriesState) -> dict[str, Any]:
    return asdict(state)


def state_from_json(data: dict[str, Any]) -> SeriesState:
    values = dict(data)
    values["units"] = {k: UnitState(**v) for k, v in data["units"].items()}
    values["fields"] = {k: FieldState(**v) for k, v in data["fields"].items()}
    values["depots"] = {k: DepotState(**v) for k, v in data["depots"].items()}
    return SeriesState(**values)
