"""Correspondence play: each seat's clock (days per move, a reserve of days: :mod:`bot.service.timekeeping`), the
notices that warn and remind the player who holds a game up (stored, so they survive restarts), the claim of a
game whose opponent ran out of time, and vacations agreed by the opponent.

:class:`Correspondence` is a part of :class:`bot.service.game_service.GameService`.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace

from bot.service.core import DAY, ServiceCore
from bot.service.game_types import Caller, Outcome, Refusal, Table
from bot.service.reading import Reading
from bot.service.timekeeping import (
    Stage,
    TimeControl,
    first_notice,
    next_notice,
    out_of_time,
    overtime,
    paused,
    reserve_left,
    stage,
    used,
)
from bot.store.records import GameRow, SeatRow
from engine.contract import Prompt, Result

logger = logging.getLogger("bot.service")

REMINDER_LEASE = 15 * 60.0
"""How long a claimed reminder stays with the process that claimed it (seconds) before another may take it: it
moves the reminder on at once, so only a process that died in between leaves one for the lease to bring back."""

DIGEST_LINES = 12
"""The most lines of the opponent's doings a notice's digest tells (the latest ones)."""

DIGEST_ACTIONS = 200
"""How far back in the log a digest looks for the seat's own last action."""


@dataclass(frozen=True)
class Notice:
    """A clock's notice due now for one seat: what to tell its player, in the channel and by DM."""

    table: Table
    seat: str
    user: int
    stage: Stage
    time_left: float
    """Seconds of the time per move left (a warning)."""
    reserve_left: float
    """Seconds of reserve really left now (negative once spent)."""
    first_timeout: bool
    """The seat has just run out of time: the moderators are told (once per seat and game)."""
    digest: tuple[str, ...]
    """What the opponents did since the seat last acted, as the seat may read it."""
    waiting_games: int
    """In how many games being played this player has a decision to make."""
    decided: str | None = None
    """How a timeout listener decided the game when the seat ran out (a league's forfeit), else ``None``."""


@dataclass(frozen=True)
class SeatClock:
    """A seat's clock as ``game status`` shows it."""

    seat: str
    running: bool
    time_left: float
    """Seconds of the time per move left (0 once spent)."""
    reserve_left: float
    """Seconds of reserve really left now, the running decision counted (negative once spent)."""
    vacation_until: float | None
    out_of_time: bool


class Correspondence(ServiceCore):
    """Clocks, notices, timeouts and vacations (a part of :class:`bot.service.game_service.GameService`)."""

    # --- Each seat's clock ----------------------------------------------------------------------------

    async def _clock_plan(
        self,
        table: Table,
        prompts: Mapping[str, Prompt],
        now: float,
        *,
        restart: Collection[str] = (),
        resume: Mapping[str, float] | None = None,
    ) -> tuple[dict[str, float | None], dict[str, float]]:
        """When each seat's required decision began after a change, and the reminders then.

        A seat that was deciding and still must keeps its start (another seat acting, a simultaneous step, an undo
        or a correction do not restart it); ``restart`` seats (the one that acted, a substitute) start anew;
        ``resume`` gives back a seat's earlier start (its own action undone). A seat that keeps its start keeps its
        reminder too, so none is lost or sent twice."""
        required = {s for s, p in prompts.items() if not p.optional}
        began: dict[str, float | None] = {}
        for seat, row in table.seats.items():
            if seat not in required:
                began[seat] = None
            elif resume is not None and seat in resume:
                began[seat] = resume[seat]
            elif row.began is not None and seat not in restart:
                began[seat] = row.began
            else:
                began[seat] = now
        control = TimeControl.of(table.game.time_control)
        if control is None:
            return began, {}
        current = await self.store.reminders(table.game.id)
        due: dict[str, float] = {}
        for seat in required:
            row = table.seats[seat]
            if began[seat] == row.began and seat in current:
                due[seat] = current[seat]
            elif began[seat] == now:
                due[seat] = first_notice(control, replace(row, began=now))
            else:
                due[seat] = next_notice(control, replace(row, began=began[seat]), now)
        return began, due

    def _charge(self, table: Table, seat: str, now: float) -> float:
        """What acting now charges the seat's reserve: its running decision's time beyond the time per move."""
        control = TimeControl.of(table.game.time_control)
        row = table.seats.get(seat)
        return overtime(control, row, now) if control is not None and row is not None else 0.0

    async def _start_clocks(self, table: Table, prompts: Mapping[str, Prompt], restart: Collection[str] = ()) -> Table:
        """Write the seats' clocks after a change that is not an action (a start, a substitution)."""
        began, due = await self._clock_plan(table, prompts, self.clock(), restart=restart)
        rows = [
            replace(row, began=began[seat], timed_out=row.timed_out and seat not in restart)
            for seat, row in table.seats.items()
        ]
        await self.store.update_seats(table.game.id, rows, due)
        return Table(table.game, await self.store.seats(table.game.id))

    async def seat_clocks(self, table: Table) -> list[SeatClock]:
        """Each seat's clock now (nothing for a game without a time control)."""
        control = TimeControl.of(table.game.time_control)
        if control is None:
            return []
        now = self.clock()
        on_vacation = {s: r.vacation_until for s, r in table.seats.items() if (r.vacation_until or 0) > now}
        return [
            SeatClock(
                seat,
                row.began is not None,
                max(0.0, control.per_move - used(row, now)) if row.began is not None else control.per_move,
                reserve_left(control, row, now),
                on_vacation.get(seat),
                table.game.status == "active" and out_of_time(control, row, now),
            )
            for seat, row in table.seats.items()
        ]

    # --- Notices --------------------------------------------------------------------------------------

    async def due_reminders(self) -> list[Notice]:
        """The clocks' notices due now, each moved on to its next time first (so none is sent twice): a warning
        when three quarters of the time per move are used, a reminder when it is spent, then daily and at the
        moment the reserve runs out. A seat out of time is marked once (the moderators are told) and the
        :attr:`timeout_listeners` are told then."""
        found = []
        now = self.clock()
        for game_id, seat, _due in await self.store.claim_due_reminders(now, REMINDER_LEASE):
            game = await self.store.game(game_id)
            if game is None or game.status != "active":
                continue
            seats = await self.store.seats(game_id)
            row = seats.get(seat)
            control = TimeControl.of(game.time_control)
            if row is None or control is None or row.began is None:
                await self.store.snooze_reminder(game_id, seat, now + DAY)
                continue
            at = stage(control, row, now)
            first_timeout = at == "timeout" and not row.timed_out
            if first_timeout:
                row = replace(row, timed_out=True)
                await self.store.update_seats(game_id, [row])
                seats[seat] = row
            await self.store.snooze_reminder(game_id, seat, next_notice(control, row, now))
            table = Table(game, seats)
            if first_timeout:
                for listener in self.timeout_listeners:
                    try:
                        await listener(table, seat)
                    except Exception:
                        logger.exception("a timeout listener failed for game %s", game_id)
                after = await self.store.game(game_id)
                if after is not None and after.status != "active":  # a listener decided it (a league's forfeit)
                    if row.user_id is not None:
                        decided = str((after.result or {}).get("text") or "the game is decided")
                        table = Table(after, seats)
                        found.append(Notice(table, seat, row.user_id, at, 0.0, 0.0, True, (), 0, decided))
                    continue
            if row.user_id is None or (row.vacation_until or 0) > now:
                continue
            found.append(
                Notice(
                    table,
                    seat,
                    row.user_id,
                    at,
                    max(0.0, control.per_move - used(row, now)),
                    reserve_left(control, row, now),
                    first_timeout,
                    tuple(await self.digest(game, seat)),
                    len(await self.store.waiting_seats(row.user_id)),
                )
            )
        return found

    async def remind_again(self, game_id: int, seat: str) -> None:
        """A reminder that could not be posted (Discord failing for a while) is due again at the next check,
        not a day later."""
        await self.store.snooze_reminder(game_id, seat, self.clock())

    async def digest(self, game: GameRow, seat: str) -> list[str]:
        """What the other seats did since ``seat`` last acted, as ``seat`` may read it (sealed decisions and
        what fog of war hides left out): the latest :data:`DIGEST_LINES` lines."""
        rows = await self.store.last_actions(game.id, DIGEST_ACTIONS)
        mine = [i for i, r in enumerate(rows) if r.seat == seat]
        since = rows[mine[-1] + 1 :] if mine else rows
        events = [
            e for r in since if r.seat != seat for e in r.events if not e.get("secret_to") or seat in e["secret_to"]
        ]
        if not events:
            return []
        readable = Reading.redact(self.system(game.system), await self.state(game), seat, events)
        lines = [str(e["text"]) for e in readable if e.get("text")]
        return lines[-DIGEST_LINES:]

    # --- Timeout --------------------------------------------------------------------------------------

    async def claim_timeout(self, channel: int, caller: Caller) -> Outcome:
        """Claim the game of an opponent whose time per move and reserve are both spent: the claimant's side wins
        on time (a game of more seats ends without a winner); the seed is revealed.

        :raises Refusal: no time control, not seated, or no opponent out of time (with the time they have left).
        """
        async with self.lock(channel):
            table = await self.table(channel)
            if table.game.status != "active":
                raise Refusal("the game is not being played")
            control = TimeControl.of(table.game.time_control)
            if control is None:
                raise Refusal("this game has no time control (`days_per_move`): nobody runs out of time")
            mine = table.seats_of(caller.user_id)
            if not mine:
                raise Refusal("you hold no seat in this game")
            now = self.clock()
            others = {s: r for s, r in table.seats.items() if s not in mine}
            out = [s for s, r in others.items() if out_of_time(control, r, now)]
            if not out:
                waiting = [
                    f"{s} has {_days(_time_left(control, r, now))} left"
                    for s, r in others.items()
                    if r.began is not None
                ]
                raise Refusal(
                    "no opponent has run out of time (the time per move and the whole reserve): "
                    + ("; ".join(waiting) if waiting else "none of them has a decision to make")
                )
            winner = mine[0] if len(mine) == 1 and set(out) == set(others) else None
            text = f"{' and '.join(out)} ran out of time; {caller.name or caller.user_id} claimed the game" + (
                f": {winner} wins on time" if winner else ""
            )
            game = await self.store.set_status(table.game, "finished", {"winner": winner, "text": text})
            await self._ended(game, "timeout")
            return Outcome(Table(game, table.seats), seat=mine[0], result=Result(winner, text))

    # --- Vacations ------------------------------------------------------------------------------------

    async def request_vacation(self, channel: int, caller: Caller, days: int) -> tuple[Table, list[int]]:
        """Ask for a vacation of ``days`` days (or to extend the running one by that much); the opponent accepts
        it with :meth:`accept_vacation`. Returns the table and the opponents to ping.

        :raises Refusal: if the caller holds no seat, or the days are out of range or past the game's cap.
        """
        if not 1 <= days <= 30:
            raise Refusal("a vacation lasts 1 to 30 days")
        async with self.lock(channel):
            table = await self.table(channel)
            mine = table.seats_of(caller.user_id)
            if not mine:
                raise Refusal("you hold no seat in this game")
            rows = [replace(table.seats[s], vacation_request=days * DAY) for s in mine]
            for row in rows:
                self._check_cap(table, row, days * DAY)
            await self.store.update_seats(table.game.id, rows)
            table = Table(table.game, await self.store.seats(table.game.id))
            return table, self._opponents(table, mine)

    def _check_cap(self, table: Table, row: SeatRow, asked: float) -> None:
        control = TimeControl.of(table.game.time_control)
        cap = control.vacation_cap if control is not None else 30 * DAY
        if row.vacation_used + asked > cap:
            raise Refusal(
                f"this game allows {_days(cap)} of vacation per player (set by its host or league); "
                f"{row.seat} has {_days(max(0.0, cap - row.vacation_used))} left"
            )

    @staticmethod
    def _opponents(table: Table, mine: Collection[str]) -> list[int]:
        return sorted({r.user_id for s, r in table.seats.items() if s not in mine and r.user_id is not None})

    async def accept_vacation(self, channel: int, caller: Caller) -> tuple[Table, list[str]]:
        """Accept the opponents' vacation requests; returns the seats now on vacation. A running vacation is
        extended from its end; the clock of a seat on vacation stops and resumes where it stopped.

        :raises Refusal: if the caller holds no seat, nobody asked, or a request is now past the game's cap.
        """
        async with self.lock(channel):
            table = await self.table(channel)
            mine = table.seats_of(caller.user_id)
            if not mine:
                raise Refusal("you hold no seat in this game")
            asked = [r for s, r in table.seats.items() if s not in mine and r.vacation_request]
            if not asked:
                raise Refusal("no opponent has asked for a vacation")
            now = self.clock()
            granted = []
            for row in asked:
                request = row.vacation_request or 0.0
                self._check_cap(table, row, request)
                if row.vacation_until is not None and row.vacation_until <= now:
                    row = _fold(row)
                if row.vacation_until is not None:  # running: extended from its end
                    row = replace(row, vacation_until=row.vacation_until + request)
                else:
                    row = replace(row, vacation_from=now, vacation_until=now + request)
                granted.append(replace(row, vacation_request=None, vacation_used=row.vacation_used + request))
            await self._write_vacations(table, granted, now)
            return Table(table.game, await self.store.seats(table.game.id)), [r.seat for r in asked]

    async def end_vacation(self, channel: int, caller: Caller) -> tuple[Table, list[str], list[int]]:
        """End the caller's running vacation now: the days not taken go back to the cap, the clock resumes.
        Returns the table, the seats back, and the opponents to ping.

        :raises Refusal: if the caller holds no seat or is not on vacation.
        """
        async with self.lock(channel):
            table = await self.table(channel)
            mine = table.seats_of(caller.user_id)
            if not mine:
                raise Refusal("you hold no seat in this game")
            now = self.clock()
            away = [table.seats[s] for s in mine if (table.seats[s].vacation_until or 0) > now]
            if not away:
                raise Refusal("you are not on vacation")
            back = [
                _fold(replace(r, vacation_until=now, vacation_used=r.vacation_used - ((r.vacation_until or now) - now)))
                for r in away
            ]
            await self._write_vacations(table, back, now)
            table = Table(table.game, await self.store.seats(table.game.id))
            return table, [r.seat for r in back], self._opponents(table, mine)

    async def vacations_over(self) -> list[tuple[Table, str]]:
        """The vacations that ended by now, each folded into its seat's clock (the clock resumes where it
        stopped): (table, seat), to tell the players."""
        over = []
        now = self.clock()
        for game_id, seat in await self.store.ended_vacations(now):
            game = await self.store.game(game_id)
            if game is None:
                continue
            table = Table(game, await self.store.seats(game_id))
            if not await self.store.claim_once(f"vacation:{game_id}:{seat}:{table.seats[seat].vacation_until}"):
                continue  # another process sharing the store folds it and tells the players
            await self._write_vacations(table, [_fold(table.seats[seat])], now)
            over.append((Table(game, await self.store.seats(game_id)), seat))
        return over

    async def _write_vacations(self, table: Table, rows: list[SeatRow], now: float) -> None:
        """Write seats' vacations with their reminders moved to match."""
        control = TimeControl.of(table.game.time_control)
        due = await self.store.reminders(table.game.id)
        for row in rows:
            if control is not None and row.began is not None and row.seat in due:
                due[row.seat] = next_notice(control, row, now) if used(row, now) else first_notice(control, row)
        await self.store.update_seats(table.game.id, rows, due)


def _fold(row: SeatRow) -> SeatRow:
    """A seat whose vacation is over, the vacation folded into its running decision's start."""
    if row.vacation_from is None or row.vacation_until is None:
        return row
    began = row.began + paused(row, row.began, row.vacation_until) if row.began is not None else None
    return replace(row, began=began, vacation_from=None, vacation_until=None)


def _time_left(control: TimeControl, row: SeatRow, now: float) -> float:
    """The time per move and the reserve a seat has left now."""
    return max(0.0, control.per_move - used(row, now)) + max(0.0, reserve_left(control, row, now))


def _days(seconds: float) -> str:
    return f"{seconds / DAY:.1f} day(s)"
