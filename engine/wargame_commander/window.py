"""4.2d The frame report's dispute window: both Frame COs may dispute the report within a set time.

The engine keeps no clock. The time is data: the bot passes its clock's reading (``at``, seconds since the
epoch) with the report, each answer and the expiry, so a replay of the log gives the same series. The window
lasts the series' ``dispute_hours`` from the report (or its latest correction); 0 means it is open until the
campaign manager closes it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from engine import arguments
from engine.contract import IllegalActionError, InvalidActionError
from engine.wargame_commander.state import SeriesState

HOUR = 3600.0


def reading(args: Mapping[str, Any]) -> float | None:
    """The clock reading an action carries (``at``), if any.

    :raises InvalidActionError: for a reading that is not a number.
    """
    return arguments.optional_number(args, "at")


def deadline(state: SeriesState) -> float | None:
    """When the open window closes; ``None`` for an untimed window (or none open)."""
    if state.report is None or state.report_at is None or not state.dispute_hours or state.window_closed:
        return None
    return state.report_at + state.dispute_hours * HOUR


def when(moment: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(moment))


def check_answer_in_time(state: SeriesState, at: float | None) -> None:
    """4.2d: an accept or a dispute only while the window is open.

    :raises IllegalActionError: once the window has closed.
    """
    closes = deadline(state)
    if state.window_closed or (closes is not None and at is not None and at >= closes):
        shut = f" at {when(closes)}" if closes is not None else ""
        raise IllegalActionError(
            f"the dispute window of the frame {state.frame} report closed{shut}; the campaign manager decides now",
            "4.2d",
        )


def check_expiry(state: SeriesState, at: float | None) -> None:
    """The window may be closed by the clock only once its time is up.

    :raises IllegalActionError: before the deadline, or for an untimed window.
    """
    closes = deadline(state)
    if closes is None:
        raise IllegalActionError("this dispute window has no time limit: the campaign manager closes it", "4.2d")
    if at is None or at < closes:
        raise IllegalActionError(f"the dispute window is open until {when(closes)}", "4.2d")


def check_hours(value: Any) -> float:
    """A window length in hours: 0 (untimed) up to two weeks.

    :raises InvalidActionError: otherwise.
    """
    try:
        hours = float(value)
    except (TypeError, ValueError):
        raise InvalidActionError(f"the dispute window is a number of hours, not {value!r}") from None
    if not 0 <= hours <= 14 * 24:
        raise InvalidActionError("the dispute window lasts 0 (until the CM closes it) to 336 hours")
    return hours
