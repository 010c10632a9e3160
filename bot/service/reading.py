"""What a seat may read of a game: descriptions and information answers (through the adapter's ``describe``
and ``inform``), the log as the seat sees it, suggestions, and the map pictures (drawn off the event loop).
Under fog of war the channel reads redacted events and prompts go to their seat only.

:class:`Reading` is a part of :class:`bot.service.game_service.GameService`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from bot.service.core import ServiceCore
from bot.service.game_types import Caller, Info, LogEntry, Refusal, SystemAdapter, Table
from bot.service.picture_pool import picture_key, request_of
from bot.store.records import ActionRow, GameRow
from engine.contract import RulesError


class Reading(ServiceCore):
    """What a seat may read of a game (a part of :class:`bot.service.game_service.GameService`)."""

    def _recent_page(self) -> int:
        """How many actions back the picture of the last activation reads first
        (``bot.service.game_service.RECENT_PAGE``, read where it is set, so that a test may change it there)."""
        raise NotImplementedError

    async def describe(self, channel: int, caller: Caller, topic: str, key: str = "") -> str:
        """An information answer as the caller's seat sees it (public view for a spectator).

        :raises RulesError: for an unknown key.
        """
        table = await self.table(channel, live=False)
        system = self.system(table.game.system)
        state = await self.state(table.game)
        seat = self._viewer(table, caller)
        return await asyncio.to_thread(system.describe, state, seat, topic, key)

    async def info(self, channel: int, caller: Caller, topic: str, key: str = "", seat: str | None = None) -> Info:
        """An information answer as the caller's seat sees it (``seat``: one of the caller's seats, or after the
        game any seat), from the system's optional ``inform(state, seat, topic, key, log, over)``; the log is
        each action's events the seat may read (sealed ones only to their owner until revealed), with its
        verb and arguments.

        :raises Refusal: when the system answers no such question, or ``seat`` is not the caller's.
        :raises RulesError: for an unknown key.
        """
        table = await self.table(channel, live=False)
        system = self.system(table.game.system)
        inform = getattr(system, "inform", None)
        if inform is None:
            raise Refusal(f"{system.name} does not answer `{topic}`")
        over = not table.game.live
        if seat is not None and seat not in table.seats_of(caller.user_id) and not over:
            raise Refusal(f"only the {seat} player may see that side's view while the game is played")
        if seat is not None and seat not in table.seats:
            raise Refusal(f"there is no seat {seat!r}; the seats are {', '.join(table.seats)}")
        viewer = seat or self._viewer(table, caller)
        state = await self.state(table.game)
        log = await self.seat_log(table.game, viewer)
        answer: Info = await asyncio.to_thread(inform, state, viewer, topic, key, log, over)
        return answer

    async def seat_log(self, game: GameRow, seat: str | None) -> list[dict[str, Any]]:
        """Each action of the game with the events ``seat`` may read (sealed ones only to their owner until the
        game ends): ``{"seq", "seat", "verb", "args", "events"}``."""
        over = not game.live

        def readable(event: Mapping[str, Any]) -> bool:
            return over or not event.get("secret_to") or (seat is not None and seat in event["secret_to"])

        return [
            {
                "seq": row.seq,
                "seat": row.seat,
                "verb": row.verb,
                "args": row.args,
                "events": [e for e in row.events if readable(e)],
            }
            for row in await self.store.actions(game.id)
        ]

    async def picture(
        self,
        channel: int,
        caller: Caller | None,
        events: Sequence[Mapping[str, Any]] | None = None,
        *,
        overlay: str | None = None,
        unit: str | None = None,
        around: str | None = None,
    ) -> bytes:
        """The map picture as the caller's seat sees it (``caller=None``: the public view, which under fog of war
        shows only what both sides may see), drawn off the event loop.

        ``events``: what to show as just happened (``None``: the last activation's events the seat may read,
        as a whole map). With ``events`` given the system may draw a close-up of what changed (the picture
        posted after an activation). ``overlay``, ``unit`` and ``around`` ask for an overlay or a close-up round
        a hex, when the system draws them (:meth:`SystemAdapter.draw`, optional).

        :raises Refusal: when the system draws no picture (or not the one asked for).
        """
        draw = await self.picture_job(channel, caller, events, overlay=overlay, unit=unit, around=around)
        return await draw()

    async def picture_job(
        self,
        channel: int,
        caller: Caller | None,
        events: Sequence[Mapping[str, Any]] | None = None,
        *,
        overlay: str | None = None,
        unit: str | None = None,
        around: str | None = None,
        newest: str | None = None,
    ) -> Callable[[], Awaitable[bytes]]:
        """:meth:`picture` in two steps: what to draw is decided now (the position now, as the caller's seat
        sees it), the drawing happens when the returned function is awaited, in :attr:`pictures`.

        ``newest`` names a picture of which only the newest matters (``"after"``: the picture posted after an
        activation): while it waits to be drawn, a newer one of the same name, game and view takes its place,
        and awaiting the older one raises :class:`bot.service.picture_pool.Superseded`.

        :raises Refusal: when the system draws no overlays or close-ups and one is asked for; awaiting the
            function raises it when the system draws no picture.
        """
        table = await self.table(channel, live=False)
        system_id = table.game.system
        system = self.system(system_id)
        state = await self.state(table.game)
        seat = self._viewer(table, caller) if caller else None
        draw = getattr(system, "draw", None)
        factory = self._factories[system_id]
        options = {"overlay": overlay, "unit": unit, "around": around}
        if events is None:
            events = await self._recent_events(table.game, seat)
            request = request_of(system_id, factory, state, seat, events, whole=draw is not None, **options)
        elif overlay or around:
            if draw is None:
                raise Refusal(f"{system.name} draws no overlays or close-ups")
            request = request_of(system_id, factory, state, seat, events, whole=True, **options)
        else:
            request = request_of(system_id, factory, state, seat, events)
        key = picture_key(table.game.id, seat, newest) if newest else None

        async def drawn() -> bytes:
            png = await self.pictures.draw(request, key)
            if png is None:
                raise Refusal(f"{system.name} has no map picture")
            return png

        return drawn

    async def _recent_events(self, game: GameRow, seat: str | None) -> list[dict[str, Any]]:
        """The events of the last activation (from the last ``activation`` event on) that ``seat`` may read,
        however long it was: the log is read from its end, a page of :meth:`_recent_page` actions first and
        four times more each time the activation began earlier still."""
        count = self._recent_page()
        while True:
            rows = await self.store.last_actions(game.id, count)
            found: list[dict[str, Any]] = []
            for row in reversed(rows):
                visible = [e for e in row.events if not e.get("secret_to") or (seat and seat in e["secret_to"])]
                found[:0] = visible
                if any(e.get("kind") == "activation" for e in visible):
                    return found
            if len(rows) < count:
                return found
            count *= 4

    @staticmethod
    def redact(
        system: SystemAdapter, state: Any, seat: str | None, events: Sequence[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        """The events as ``seat`` may read them (``None``: the channel), when the system hides things (fog of
        war: :meth:`SystemAdapter.redact`, optional); otherwise unchanged."""
        redact = getattr(system, "redact", None)
        if redact is None:
            return [dict(e) for e in events]
        return list(redact(state, seat, events))

    async def private_prompts(self, game: GameRow) -> bool:
        """Whether the game's prompts are shown to their seat only (fog of war)."""
        if game.status != "active":
            return False
        return self._private_prompts(self.system(game.system), await self.state(game))

    @staticmethod
    def _private_prompts(system: SystemAdapter, state: Any) -> bool:
        private = getattr(system, "private_prompts", None)
        return bool(private(state)) if private is not None else False

    @staticmethod
    def _viewer(table: Table, caller: Caller) -> str | None:
        mine = table.seats_of(caller.user_id)
        return mine[0] if len(mine) == 1 else None

    async def suggest(
        self, channel: int, caller: Caller, source: str, typed: str, given: Mapping[str, Any], limit: int = 25
    ) -> list[tuple[str, str]]:
        """Autocomplete suggestions: legal now, for the caller's seat, at most ``limit``. Never raises."""
        try:
            table = await self.table(channel, live=False)
            system = self.system(table.game.system)
            if source == "seat":
                pairs = [(s, s) for s in table.seats]
            elif source == "option":
                pairs = [(f"{k}: {v}", k) for k, v in system.options.items()]
            else:
                state = await self.state(table.game)
                mine = table.seats_of(caller.user_id)
                prompts = await self.prompts(table.game)
                seat = next((s for s in mine if s in prompts), mine[0] if mine else None)
                pairs = await asyncio.to_thread(system.suggest, state, seat, source, typed, given)
        except (RulesError, LookupError, ValueError, TypeError):
            return []
        typed = typed.lower()
        found = [(label[:100], value[:100]) for label, value in pairs if typed in label.lower() or typed in value]
        return found[:limit]

    async def log(self, channel: int, caller: Caller) -> tuple[list[LogEntry], list[str]]:
        """The game log as the caller's seat may see it (sealed events hidden), and the moderators' corrections.

        The log is sorted out in a worker thread, and redacted in one pass (the seat's view is worked out once,
        not once per action): a long game's log never holds up the other games."""
        table = await self.table(channel, live=False)
        mine = frozenset(table.seats_of(caller.user_id))
        over = not table.game.live
        system = self.system(table.game.system)
        state = await self.state(table.game)
        seat = self._viewer(table, caller)
        rows = await self.store.actions(table.game.id)
        entries = await asyncio.to_thread(self._log_entries, system, state, seat, mine, over, rows)
        corrections = [f"{c.kind}: {c.text}" for c in await self.store.corrections(table.game.id)]
        return entries, corrections

    @classmethod
    def _log_entries(
        cls,
        system: SystemAdapter,
        state: Any,
        seat: str | None,
        mine: frozenset[str],
        over: bool,
        rows: Sequence[ActionRow],
    ) -> list[LogEntry]:
        visible = [
            [e for e in row.events if over or not e.get("secret_to") or mine & set(e["secret_to"])] for row in rows
        ]
        if not over:
            flat = cls.redact(system, state, seat, [e for events in visible for e in events])
            start = 0
            for index, events in enumerate(visible):
                visible[index] = flat[start : start + len(events)]
                start += len(events)
        return [
            LogEntry(
                row.seq,
                row.seat,
                row.verb,
                [e["text"] for e in events],
                [e["text"] for e in events if e.get("kind") == "roll"],
            )
            for row, events in zip(rows, visible, strict=True)
        ]
