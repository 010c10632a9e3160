"""The words of a correspondence clock: its notices (a warning before the time per move is spent, a reminder
after, the reserve running out) in the channel and by DM with a digest, and each seat's clock in ``game status``.
"""

from __future__ import annotations

from bot.service.correspondence import Notice, SeatClock
from bot.service.timekeeping import DAY

HOUR = 3600.0


def span(seconds: float) -> str:
    """A time span as a player reads it: hours under two days, days beyond."""
    if abs(seconds) < 2 * DAY:
        return f"{seconds / HOUR:.0f} hour(s)"
    return f"{seconds / DAY:.1f} day(s)"


def clock_notice(notice: Notice) -> tuple[str, str]:
    """A notice's channel message (pinging the player) and its DM (with the digest and the player's games)."""
    game = notice.table.game
    head = f"<@{notice.user}>: game #{game.id} is waiting for your decision as **{notice.seat}**."
    if notice.stage == "warning":
        state = (
            f"Your time for this move runs out in {span(notice.time_left)}; after that the reserve runs "
            f"({span(max(0.0, notice.reserve_left))} left)."
        )
    elif notice.stage == "overdue":
        state = f"Your time for this move is up: the reserve is running, {span(notice.reserve_left)} left."
    elif notice.decided:
        state = f"Your time and your reserve are used up, and the league's rule decided the game: {notice.decided}"
    else:
        state = (
            "Your time and your reserve are used up: your opponent may claim the game (`/game claim-timeout`), "
            "or the league's rule applies."
        )
    channel = f"{head} {state}"
    lines = [f"Game #{game.id} ({game.system}, {game.scenario}) in <#{game.channel}>, seat **{notice.seat}**: {state}"]
    if notice.digest:
        lines.append("Since your last action:")
        lines += [f"- {line}" for line in notice.digest]
    else:
        lines.append("Nothing new from your opponent since your last action.")
    lines.append(f"Your move in {notice.waiting_games} game(s).")
    return channel, "\n".join(lines)[:1900]


def clock_lines(clocks: list[SeatClock]) -> list[str]:
    """Each seat's clock for ``game status``: the time per move and the reserve really left now."""
    lines = []
    for clock in clocks:
        if clock.vacation_until is not None:
            until = int(clock.vacation_until)
            lines.append(f"{clock.seat} is on vacation: the clock stands still until <t:{until}:f>.")
        reserve = (
            f"reserve left {clock.reserve_left / DAY:.1f} day(s)"
            if clock.reserve_left > 0
            else "no reserve left"
            if clock.reserve_left == 0
            else f"the reserve is used up ({-clock.reserve_left / DAY:.1f} day(s) over)"
        )
        if clock.out_of_time:
            lines.append(f"{clock.seat}: out of time, {reserve}: the opponent may `/game claim-timeout`.")
        elif clock.running:
            lines.append(f"{clock.seat}: {span(clock.time_left)} left for this move, {reserve}.")
        else:
            lines.append(f"{clock.seat}: {reserve}.")
    return lines
