"""A correspondence game's clock, seat by seat: pure arithmetic over a seat's stored clock and the game's time
control, so the service, ``/game status`` and the reminders all read the same figures.

Each seat's clock runs from when its current required decision began (:attr:`~bot.store.records.SeatRow.began`)
until the seat acts; another seat's action, a simultaneous step answered by the opponent, an undo or a
correction leave it running. A granted vacation stops it: the time inside the vacation is not counted, and the
clock resumes where it stopped. Time beyond :attr:`TimeControl.per_move` comes out of the reserve; when the time
and the reserve are both gone, the seat has run out of time (:func:`out_of_time`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from bot.store.records import SeatRow

DAY = 86400.0

WARNING_SHARE = 0.75
"""The first warning is sent when three quarters of the time per move are used."""

SLACK = 1.0
"""A reserve within a second of its end counts as spent (the notice due at that moment is not missed by a
rounding of the sums of times)."""

DEFAULT_VACATION_DAYS = 30.0
"""The vacation each seat may take in one game when the host or league sets no cap."""

Stage = Literal["warning", "overdue", "timeout"]
"""Where a seat's running decision stands: time per move still left (a first warning), the time per move spent
(the reserve running), the reserve spent too."""


@dataclass(frozen=True)
class TimeControl:
    """A game's time control, in seconds."""

    per_move: float
    reserve: float
    vacation_cap: float

    @classmethod
    def of(cls, time_control: dict[str, Any]) -> TimeControl | None:
        """The time control of a game's setting (``None``: live play, no clock)."""
        days = float(time_control.get("days_per_move", 0) or 0)
        if not days:
            return None
        cap = time_control.get("vacation_days")
        return cls(
            days * DAY,
            float(time_control.get("reserve_days", 0) or 0) * DAY,
            (DEFAULT_VACATION_DAYS if cap is None else float(cap)) * DAY,
        )


def paused(row: SeatRow, start: float, end: float) -> float:
    """How much of ``[start, end]`` the seat's vacation covers."""
    if row.vacation_from is None or row.vacation_until is None:
        return 0.0
    return max(0.0, min(end, row.vacation_until) - max(start, row.vacation_from))


def used(row: SeatRow, now: float) -> float:
    """The time the seat's running decision has taken so far, its vacation left out (0 when it has none)."""
    if row.began is None:
        return 0.0
    return max(0.0, now - row.began - paused(row, row.began, now))


def moment(row: SeatRow, spent: float) -> float:
    """When the seat's running decision will have taken ``spent`` seconds, its vacation left out."""
    began = row.began if row.began is not None else 0.0
    plain = began + spent
    if row.vacation_from is None or row.vacation_until is None or row.vacation_until <= began:
        return plain
    start = max(began, row.vacation_from)
    return plain if plain <= start else plain + (row.vacation_until - start)


def overtime(control: TimeControl, row: SeatRow, now: float) -> float:
    """The running decision's time beyond the time per move: what acting now charges to the reserve."""
    return max(0.0, used(row, now) - control.per_move)


def reserve_left(control: TimeControl, row: SeatRow, now: float) -> float:
    """The reserve really left now: the reserve, less what earlier moves charged, less the running overtime
    (negative once spent)."""
    return control.reserve - row.reserve_used - overtime(control, row, now)


def out_of_time(control: TimeControl, row: SeatRow, now: float) -> bool:
    """Whether the seat's running decision has used its time per move and the whole reserve."""
    return (
        row.began is not None
        and used(row, now) >= control.per_move - SLACK
        and reserve_left(control, row, now) <= SLACK
    )


def stage(control: TimeControl, row: SeatRow, now: float) -> Stage:
    """Where the seat's running decision stands now."""
    spent = used(row, now)
    if spent < control.per_move - SLACK:
        return "warning"
    if reserve_left(control, row, now) <= SLACK:
        return "timeout"
    return "overdue"


def first_notice(control: TimeControl, row: SeatRow) -> float:
    """When a decision that just began is first noticed: the warning, three quarters into its time."""
    return moment(row, control.per_move * WARNING_SHARE)


def next_notice(control: TimeControl, row: SeatRow, now: float) -> float:
    """When the seat is reminded next, after a notice sent ``now`` (or its clock changed then): the time per
    move's end after a warning, then daily, and at the moment the reserve runs out."""
    spent = used(row, now)
    if spent < control.per_move * WARNING_SHARE - SLACK:
        return first_notice(control, row)
    if spent < control.per_move - SLACK:
        return moment(row, control.per_move)
    daily = max(now, row.vacation_until or 0.0) + DAY
    timeout = moment(row, control.per_move + control.reserve - row.reserve_used)
    return timeout if now + SLACK < timeout < daily else daily
