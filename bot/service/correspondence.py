"""Correspondence play: the time control of a game (days per move, a reserve of days), the reminders that
ping the player who holds a game up (stored, so they survive restarts), and vacations agreed by the opponent.

:class:`Correspondence` is a part of :class:`bot.service.game_service.GameService`.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.service.core import DAY, ServiceCore
from bot.service.game_types import Caller, Refusal, Table
from engine.contract import Prompt


class Correspondence(ServiceCore):
    """Reminders and vacations (a part of :class:`bot.service.game_service.GameService`)."""

    def _reminder_times(self, table: Table, prompts: Mapping[str, Prompt], now: float) -> dict[str, float]:
        days = float(table.game.time_control.get("days_per_move", 0))
        if not days:
            return {}
        due = {}
        for seat, prompt in prompts.items():
            if prompt.optional:
                continue  # a chance to react holds nobody up
            row = table.seats.get(seat)
            start = max(now, row.vacation_until or 0) if row else now
            due[seat] = start + days * DAY
        return due

    def _overtime(self, table: Table, seat: str, now: float) -> float:
        days = float(table.game.time_control.get("days_per_move", 0))
        if not days:
            return 0.0
        row = table.seats[seat]
        waited = now - max(table.game.updated, row.vacation_until or 0)
        return max(0.0, waited - days * DAY)

    async def _set_reminders(self, table: Table, prompts: Mapping[str, Prompt], revision: int) -> None:
        due = self._reminder_times(table, prompts, self.clock())
        if due:
            await self.store.set_reminders(table.game.id, due)

    async def due_reminders(self) -> list[tuple[Table, str, int, float]]:
        """Reminders due now: (table, seat, user to ping, reserve days left). Each is snoozed by a day."""
        found = []
        now = self.clock()
        for game_id, seat, _due in await self.store.due_reminders(now):
            game = await self.store.game(game_id)
            if game is None or game.status != "active":
                continue
            seats = await self.store.seats(game_id)
            row = seats.get(seat)
            await self.store.snooze_reminder(game_id, seat, max(now, (row.vacation_until or 0) if row else 0) + DAY)
            if row is None or row.user_id is None or (row.vacation_until or 0) > now:
                continue
            reserve = float(game.time_control.get("reserve_days", 0)) - row.reserve_used / DAY
            found.append((Table(game, seats), seat, row.user_id, reserve))
        return found

    async def remind_again(self, game_id: int, seat: str) -> None:
        """A reminder that could not be posted (Discord failing for a while) is due again at the next check,
        not a day later."""
        await self.store.snooze_reminder(game_id, seat, self.clock())

    async def request_vacation(self, channel: int, caller: Caller, days: int) -> Table:
        """Ask for a vacation of ``days`` days; the opponent accepts it with :meth:`accept_vacation`.

        :raises Refusal: if the caller holds no seat or the number of days is out of range.
        """
        if not 1 <= days <= 30:
            raise Refusal("a vacation lasts 1 to 30 days")
        async with self.lock(channel):
            table = await self.table(channel)
            mine = table.seats_of(caller.user_id)
            if not mine:
                raise Refusal("you hold no seat in this game")
            for seat in mine:
                await self.store.set_vacation(table.game.id, seat, request=days * DAY)
            return Table(table.game, await self.store.seats(table.game.id))

    async def accept_vacation(self, channel: int, caller: Caller) -> tuple[Table, list[str]]:
        """Accept the opponents' vacation requests; returns the seats now on vacation.

        :raises Refusal: if the caller holds no seat or nobody asked.
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
            for row in asked:
                await self.store.set_vacation(table.game.id, row.seat, until=now + (row.vacation_request or 0))
            seats = await self.store.seats(table.game.id)
            table = Table(table.game, seats)
            prompts = await self.prompts(table.game)
            await self._set_reminders(table, prompts, table.game.revision)
            return table, [r.seat for r in asked]
