"""The game service: every game operation, engine-agnostic, over the store and a registry of game systems.

The service knows nothing of Discord or of the terminal. Given a channel (or thread), a caller and what the
caller asks, it checks who may do it, loads the game's state (latest snapshot plus replay), asks the game
system, stores the result in one transaction and returns what happened (:class:`Outcome`). Refusals are
:class:`Refusal` (a :class:`~engine.contract.RulesError`) with a sentence a player reads and, when a rule
forbids it, the rule number; the engine's own :class:`~engine.contract.RulesError` passes through unchanged.

One :class:`asyncio.Lock` per channel serialises everything that changes a game, so a double click or two
players acting at once are applied one after the other, and the second sees the first's result.

The service is a few modules, one idea each: its vocabulary (:mod:`bot.service.game_types`), systems, locks and
states (:mod:`bot.service.core`), what a seat may read (:mod:`bot.service.reading`), correspondence play
(:mod:`bot.service.correspondence`), the after-game check (:mod:`bot.service.verification`); this module keeps the
seats and the actions (together, since creating, seating, acting, previews, undo and corrections share the lock, the
prompt checks and the one-transaction write, and the tests replace :func:`new_seed` here).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.service.caches import ChannelLocks as ChannelLocks
from bot.service.caches import StateCache as StateCache
from bot.service.computer import ComputerSeats
from bot.service.core import DAY as DAY
from bot.service.core import HOUR
from bot.service.game_types import Caller as Caller
from bot.service.game_types import GameEndListener as GameEndListener
from bot.service.game_types import Info as Info
from bot.service.game_types import LogEntry as LogEntry
from bot.service.game_types import Outcome as Outcome
from bot.service.game_types import Preview as Preview
from bot.service.game_types import Refusal as Refusal
from bot.service.game_types import StaleError as StaleError
from bot.service.game_types import SystemAdapter as SystemAdapter
from bot.service.game_types import SystemFactory as SystemFactory
from bot.service.game_types import Table as Table
from bot.service.game_types import check_role, moderator_seats
from bot.service.reading import Reading
from bot.service.verification import Layer, Verification, verify_game
from bot.store.records import (
    ActionRow,
    ChannelBusyError,
    GameRow,
    NewAction,
    NewSecret,
    PendingRow,
    RevisionError,
    snapshot_due,
)
from engine.arguments import ReadArguments, refuse_unread
from engine.contract import Action, Choice, Prompt, Result
from engine.contract import RulesError as RulesError
from engine.dice import commitment, linked, new_seed, recording
from engine.sealing import sealed_answer

RECENT_PAGE = 60
"""How many actions back the picture of the last activation reads first (the store reads from the end)."""

BARRIER_KINDS = frozenset({"roll", "reveal", "secret-reveal", "initiative", "sealed"})
"""Events undo never goes back over: a die rolled, hidden information revealed, the initiative decided, and a
sealed decision whose receipt the channel has seen."""
"""Events after which an action can no longer be undone: a die roll or information revealed."""


class GameService(Reading, ComputerSeats):
    """Every game operation. ``systems`` maps a system id to a factory of its :class:`SystemAdapter`;
    ``limits`` are the limits on creating games; ``state_memory`` is the bytes the games' states kept in memory
    may take (``UMPIRE_STATE_CACHE_MB``) and ``state_cache``, when not 0, how many at most
    (``UMPIRE_STATE_CACHE``); ``picture_workers`` is how many worker processes draw the map pictures
    (``UMPIRE_PICTURE_WORKERS``; 0: a thread of this process)."""

    def _recent_page(self) -> int:
        return RECENT_PAGE

    # --- Creation and seats ---------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild: int | None,
        channel: int,
        caller: Caller,
        system_id: str,
        scenario: str,
        options: Mapping[str, bool] | None = None,
        days_per_move: float = 0.0,
        reserve_days: float = 0.0,
        vacation_days: float | None = None,
    ) -> Table:
        """Create a game in a channel (one live game per channel or thread). Under a time control
        (``days_per_move``), ``vacation_days`` caps the vacation each player may take in the game
        (:data:`bot.service.timekeeping.DEFAULT_VACATION_DAYS` when not given).

        :raises Refusal: for a busy channel, an unknown system, scenario or option, or a bad time control.
        """
        system = self.system(system_id)
        options = dict(options or {})
        if scenario not in system.scenarios:
            raise Refusal(f"{system.name} has no scenario {scenario!r}; choose one of {', '.join(system.scenarios)}")
        unknown = sorted(set(options) - set(system.options))
        if unknown:
            raise Refusal(f"unknown option(s) {', '.join(unknown)}; the options are {', '.join(system.options)}")
        if not (0 <= days_per_move <= 60) or not (0 <= reserve_days <= 120):
            raise Refusal("the time control takes 0 to 60 days per move and a reserve of 0 to 120 days")
        if vacation_days is not None and not 0 <= vacation_days <= 120:
            raise Refusal("a game's cap on vacations is 0 to 120 days per player")
        time_control: dict[str, float] = {}
        if days_per_move:
            time_control = {"days_per_move": days_per_move, "reserve_days": reserve_days}
            if vacation_days is not None:
                time_control["vacation_days"] = vacation_days
        seed = new_seed()
        await asyncio.to_thread(system.new_game, scenario, options, seed)  # the engine checks the setup
        async with self.lock(channel), self._creating:  # one creation at a time: the counts stay true
            await self._check_limits(guild, caller)
            try:
                game = await self.store.create_game(
                    guild=guild,
                    channel=channel,
                    system=system_id,
                    scenario=scenario,
                    options=options,
                    seed=seed.hex(),
                    seed_hash=commitment(seed),
                    seats=system.seats,
                    time_control=time_control,
                    creator=caller.user_id,
                    rules=system.rules_version,
                )
            except ChannelBusyError:
                raise Refusal(
                    "this channel already holds a game: finish it, or create the new one in another channel or thread"
                ) from None
        return Table(game, await self.store.seats(game.id))

    async def _check_limits(self, guild: int | None, caller: Caller) -> None:
        """Refuse a creation past a limit of :class:`~bot.service.config.Limits` (0: no limit)."""
        limits = self.limits
        if limits.games_per_user:
            mine = await self.store.count_games(creator=caller.user_id)
            if mine >= limits.games_per_user:
                raise Refusal(
                    f"you already run {mine} live games, the most this bot allows one player "
                    f"({limits.games_per_user}): finish one, or ask a moderator to abandon one"
                )
        if limits.creations_per_hour:
            since = self.clock() - HOUR
            recent = await self.store.count_games(creator=caller.user_id, live=False, since=since)
            if recent >= limits.creations_per_hour:
                raise Refusal(
                    f"you created {recent} games in the last hour, the most this bot allows "
                    f"({limits.creations_per_hour} an hour): try again later"
                )
        if limits.games_per_server and guild is not None:
            held = await self.store.count_games(guild=guild)
            if held >= limits.games_per_server:
                raise Refusal(
                    f"this server already holds {held} live games, the most this bot allows one server "
                    f"({limits.games_per_server}): finish one, or ask a moderator to abandon one"
                )

    async def join(self, channel: int, caller: Caller, seat: str | None = None) -> Table:
        """Take a seat (the first free one when none is named).

        :raises Refusal: if the game is not open, the seat is unknown or taken, or the caller already sits.
        """
        async with self.lock(channel):
            table = await self.table(channel)
            if table.game.status != "open":
                raise Refusal("the game has started; a moderator may substitute a player")
            if table.seats_of(caller.user_id) and seat is None:
                raise Refusal(f"you already hold the {', '.join(table.seats_of(caller.user_id))} seat")
            roles = moderator_seats(self.system(table.game.system))
            free = [s for s in table.seats if not table.taken(s)]
            if seat is None:
                kept = [s for s in free if s in roles and not caller.moderator]
                free = [s for s in free if s not in kept]
                if kept and not free:
                    raise Refusal(f"the seat left ({', '.join(kept)}) is for a moderator: {roles[kept[0]]}")
                if not free:
                    raise Refusal("every seat is taken")
                seat = free[0]
            self._check_seat(table, seat)
            if seat in roles and not caller.moderator:
                raise Refusal(f"only a moderator holds the {seat} seat ({roles[seat]})")
            holder = table.user_of(seat)
            if holder == caller.user_id:
                raise Refusal(f"you already hold the {seat} seat")
            if holder is not None:
                raise Refusal(f"the {seat} seat is taken")
            if table.computer_of(seat) is not None:
                raise Refusal(
                    f"the computer holds the {seat} seat: the game's creator or a moderator gives it to you "
                    "(`game assign`)"
                )
            game = await self.store.set_seat(table.game, seat, caller.user_id)
            return Table(game, await self.store.seats(game.id))

    async def leave(self, channel: int, caller: Caller) -> Table:
        """Give up one's seats before the start.

        :raises Refusal: after the start (resign instead), or if the caller holds no seat.
        """
        async with self.lock(channel):
            table = await self.table(channel)
            mine = table.seats_of(caller.user_id)
            if not mine:
                raise Refusal("you hold no seat in this game")
            if table.game.status != "open":
                raise Refusal("the game has started: resign instead, or ask a moderator to substitute you")
            game = table.game
            for seat in mine:
                game = await self.store.set_seat(game, seat, None)
            return Table(game, await self.store.seats(game.id))

    async def assign(self, channel: int, caller: Caller, seat: str, user_id: int | None) -> Table:
        """Seat a user (the game's creator before the start, or a moderator at any time: a substitution,
        logged as a correction).

        The creator may re-seat a seat a player took himself, so that a player who vanished does not hold up
        the start; the command layer tells the displaced player in the channel. Only the player himself or a
        moderator may put one user in two seats.

        :raises Refusal: for anybody else, an unknown seat, or a finished game.
        """
        async with self.lock(channel):
            table = await self.table(channel)
            self._check_seat(table, seat)
            creator = caller.user_id == table.game.creator and table.game.status == "open"
            if not (caller.moderator or creator):
                raise Refusal("only a moderator (or the game's creator before the start) may assign seats")
            elsewhere = [s for s in table.seats_of(user_id) if s != seat] if user_id is not None else []
            if elsewhere and not caller.moderator and user_id != caller.user_id:
                raise Refusal(
                    f"<@{user_id}> already holds the {', '.join(elsewhere)} seat: only a player himself (with "
                    "`game join`) or a moderator puts one player in two seats"
                )
            correction = None
            if table.game.status != "open" or (caller.moderator and not creator):
                old = table.user_of(seat)
                text = f"{caller.name or caller.user_id} seated <@{user_id}> at {seat}" + (
                    f" in place of <@{old}>" if old else ""
                )
                correction = (caller.user_id, "substitute", text)
            game = await self.store.set_seat(table.game, seat, user_id, correction)
            table = Table(game, await self.store.seats(game.id))
            if game.status == "active":  # a substitute's clock starts anew (the reserve stays with the seat)
                table = await self._start_clocks(table, await self.prompts(game), restart=[seat])
            return table

    @staticmethod
    def _check_seat(table: Table, seat: str) -> None:
        if seat not in table.seats:
            raise Refusal(f"there is no seat {seat!r}; the seats are {', '.join(table.seats)}")

    # --- Start, resign, abandon -----------------------------------------------------------------------

    async def start(self, channel: int, caller: Caller) -> Outcome:
        """Start a game whose seats are all taken.

        :raises Refusal: if a seat is empty, the game has started, or the caller is not seated (nor a moderator).
        """
        async with self.lock(channel):
            table = await self.table(channel)
            if table.game.status != "open":
                raise Refusal("the game has already started")
            if not (table.seats_of(caller.user_id) or caller.moderator):
                raise Refusal("only a seated player or a moderator may start the game")
            empty = [s for s in table.seats if not table.taken(s)]
            if empty:
                raise Refusal(f"the {', '.join(empty)} seat(s) are empty: `game join` first")
            game = await self.store.set_status(table.game, "active")
            prompts = await self.prompts(game)
            table = await self._start_clocks(Table(game, table.seats), prompts)
            ping = {s: u for s, p in prompts.items() if not p.optional and (u := table.user_of(s)) is not None}
            state = await self.state(game)
            return Outcome(
                table,
                prompts=prompts,
                ping=ping,
                picture_due=getattr(self.system(game.system), "has_map", True),  # none for a campaign kept off-map
                fresh=frozenset(prompts),
                private_prompts=self._private_prompts(self.system(game.system), state),
            )

    async def resign(self, channel: int, caller: Caller) -> Outcome:
        """Resign the caller's seat: the other side wins; the seed is revealed.

        :raises Refusal: if the game is not being played or the caller holds no seat.
        """
        async with self.lock(channel):
            table = await self.table(channel)
            if table.game.status != "active":
                raise Refusal("the game is not being played")
            mine = table.seats_of(caller.user_id)
            if not mine:
                raise Refusal("you hold no seat in this game")
            roles = moderator_seats(self.system(table.game.system))
            if all(s in roles for s in mine):
                raise Refusal(
                    f"{roles[mine[0]]} does not resign: a moderator abandons the game (`mod abandon`) or "
                    "substitutes the seat"
                )
            mine = [s for s in mine if s not in roles]
            others = [s for s in table.seats if s not in mine and s not in roles]
            winner = others[0] if len(others) == 1 else None
            text = f"{' and '.join(mine)} resigned" + (f": {winner} wins" if winner else "")
            game = await self.store.set_status(table.game, "finished", {"winner": winner, "text": text})
            await self._ended(game, "resignation")
            return Outcome(Table(game, table.seats), seat=mine[0], result=Result(winner, text))

    async def abandon(self, channel: int, caller: Caller, reason: str) -> Outcome:
        """A moderator abandons a game (logged); the seed is revealed.

        :raises Refusal: for a non-moderator.
        """
        if not caller.moderator:
            raise Refusal("only a moderator may abandon a game")
        async with self.lock(channel):
            table = await self.table(channel)
            text = f"abandoned by {caller.name or caller.user_id}: {reason or 'no reason given'}"
            game = await self.store.set_status(
                table.game, "abandoned", {"winner": None, "text": text}, (caller.user_id, "abandon", text)
            )
            await self._ended(game, "abandoned")
            return Outcome(Table(game, table.seats), result=Result(None, text))

    async def decide(self, channel: int, caller: Caller, winner: str | None, how: str, reason: str) -> Outcome:
        """A moderator ends a game with a result (``how``: ``forfeit`` or ``adjudicated``; ``winner`` ``None``:
        a draw), logged in the game; the seed is revealed.

        :raises Refusal: for a non-moderator, a game not being played, or an unknown seat.
        """
        if not caller.moderator:
            raise Refusal("only a moderator may forfeit or adjudicate a game")
        async with self.lock(channel):
            table = await self.table(channel)
            if table.game.status != "active":
                raise Refusal("the game is not being played")
            if winner is not None:
                self._check_seat(table, winner)
            verdict = f"{winner} wins" if winner else "a draw"
            text = f"{how} by {caller.name or caller.user_id}: {verdict} ({reason or 'no reason given'})"
            game = await self.store.set_status(
                table.game, "finished", {"winner": winner, "text": text}, (caller.user_id, how, text)
            )
            await self._ended(game, how)
            return Outcome(Table(game, table.seats), result=Result(winner, text))

    # --- Acting ---------------------------------------------------------------------------------------

    def _acting_seat(
        self, table: Table, caller: Caller, prompts: Mapping[str, Prompt], verb: str, seat: str | None
    ) -> str:
        mine = table.seats_of(caller.user_id)
        if not mine:
            raise Refusal("you hold no seat in this game: only a seated player acts for a side")
        if seat is not None:
            if seat not in mine:
                raise Refusal(f"you do not hold the {seat} seat")
            return seat
        if len(mine) == 1:
            return mine[0]
        able = [s for s in mine if s in prompts and _allows(prompts[s], verb)]
        if len(able) == 1:
            return able[0]
        prompted = [s for s in mine if s in prompts]
        if len(able) > 1 or len(prompted) > 1:
            raise Refusal(f"you hold several seats that may decide now ({', '.join(prompted)}): name the seat")
        return prompted[0] if prompted else mine[0]

    async def act(
        self,
        channel: int,
        caller: Caller,
        verb: str,
        args: Mapping[str, Any],
        *,
        seat: str | None = None,
        state_id: int | None = None,
        written: bool = False,
    ) -> Outcome:
        """Apply one seat's action: check, apply, store in one transaction, say what happened and who is next.
        ``written``: the player wrote the arguments' names (``key=value``), so a name the rules never read is
        a misspelling, refused with the names the action takes.

        :raises Refusal: no game, not seated, a stale ``state_id``.
        :raises RulesError: the engine's refusal, with the rule number.
        """
        async with self.lock(channel):
            table = await self.table(channel)
            return await self._act(table, caller, verb, dict(args), seat, state_id, written)

    async def _act(
        self,
        table: Table,
        caller: Caller,
        verb: str,
        args: dict[str, Any],
        seat: str | None,
        state_id: int | None,
        written: bool = False,
        computer: bool = False,
    ) -> Outcome:
        """Apply an action as ``caller`` (``computer``: for the computer seat ``seat``, see
        :mod:`bot.service.computer`) under the channel's lock, held by the caller."""
        game = table.game
        if game.status != "active":
            raise Refusal("the game has not started yet" if game.status == "open" else "the game is over")
        if state_id is not None and state_id != game.revision:
            raise StaleError("that choice belongs to an earlier position (the game has moved on); nothing changed")
        system = self.system(game.system)
        state = await self.state(game)
        before = await self._prompts_of(game, state)
        if computer:
            if seat is None or table.computer_of(seat) is None:
                raise Refusal(f"the computer does not hold the {seat} seat")
            acting = seat
        else:
            acting = self._acting_seat(table, caller, before, verb, seat)
            check_role(system, acting, caller)
        action = Action(acting, verb, args)
        applied = await asyncio.to_thread(_apply, system, state, action, snapshot_due(game), written)
        secret = None
        if acting in before and before[acting].secret and not getattr(system, "seals_own_secrets", False):
            payload, sealed_receipt = sealed_answer(acting, verb, args, secrets.token_hex(16))
            secret = NewSecret(acting, sealed_receipt, payload)
        user = None if computer else caller.user_id
        game, row = await self._record(
            table,
            NewAction(acting, user, verb, args, applied.events, system.rules_version, applied.draws),
            applied,
            secret,
        )
        self._cache[game.id] = (game.revision, row.seq, applied.state)
        self._cache.keep_prompts(game.id, applied.state, applied.prompts)
        if applied.result:
            await self._ended(game, "victory")
        return await self._outcome(Table(game, table.seats), system, row, applied, before, secret)

    async def _record(
        self, table: Table, action: NewAction, applied: _Applied, secret: NewSecret | None
    ) -> tuple[GameRow, ActionRow]:
        """Write an applied action with what it changes: the game's end, the seats' clocks and reminders, the
        reserve its seat spent, its sealed decision and the secrets it reveals.

        :raises StaleError: if the game changed since it was read (nothing is written).
        """
        result, event_json = applied.result, applied.events
        now = self.clock()
        overtime = self._charge(table, action.seat, now)
        if result:
            clocks: dict[str, float | None] = dict.fromkeys(table.seats)
            reminders: dict[str, float] = {}
        else:
            clocks, reminders = await self._clock_plan(table, applied.prompts, now, restart=[action.seat])
        try:
            return await self.store.record_action(
                table.game,
                action,
                state_json=applied.state_json,
                status="finished" if result else None,
                result={"winner": result.winner, "text": result.text, "level": result.level} if result else None,
                reminders=reminders,
                reserve_used=(action.seat, overtime) if overtime else None,
                clocks=clocks,
                secret=secret,
                reveal=bool(result) or any(e["kind"] in ("reveal", "secret-reveal") for e in event_json),
            )
        except RevisionError:
            raise StaleError("the game changed meanwhile; nothing changed, try again") from None

    async def _outcome(
        self,
        table: Table,
        system: SystemAdapter,
        row: ActionRow,
        applied: _Applied,
        before: Mapping[str, Prompt],
        secret: NewSecret | None,
    ) -> Outcome:
        """What an accepted action brings about, for the channel and each seat: its events as each may read
        them, the new prompts, whom to ping, the picture due."""
        game, acting = table.game, row.seat
        new, event_json, result, after = applied.state, applied.events, applied.result, applied.prompts
        picture_due = (bool(result) and getattr(system, "has_map", True)) or system.picture_due(event_json)
        fresh = self._fresh(game.id, before, after, picture_due)
        ping = self._pings(table, acting, before, after)
        public, own = await asyncio.to_thread(
            lambda: (
                self.redact(system, new, None, [e for e in event_json if not e.get("secret_to")]),
                self.redact(system, new, acting, event_json),
            )
        )
        picture_events: list[dict[str, Any]] = []
        if picture_due:  # the whole activation that closed, as the channel may read it
            recent = await self._recent_events(game, None)
            picture_events = await asyncio.to_thread(self.redact, system, new, None, recent)
        return Outcome(
            table,
            seat=acting,
            action=row,
            events=event_json,
            prompts=after,
            ping=ping,
            result=result,
            picture_due=picture_due,
            picture_events=picture_events,
            receipt=secret.receipt if secret else None,
            public_events=public,
            own_events=own,
            fresh=fresh,
            private_prompts=self._private_prompts(system, new),
        )

    def _fresh(
        self, game_id: int, before: Mapping[str, Prompt], after: Mapping[str, Prompt], window_closed: bool
    ) -> frozenset[str]:
        """The seats whose prompt must be posted: a required prompt that is new or changed; an optional one
        (a chance to react) when it appears for the first time since the last activation closed."""
        shown = self._reaction_shown.setdefault(game_id, set())
        if window_closed:
            shown.clear()
        fresh = set()
        for seat, prompt in after.items():
            if not prompt.optional:
                if seat not in before or before[seat] != prompt:
                    fresh.add(seat)
            elif seat not in shown:
                fresh.add(seat)
                shown.add(seat)
        return frozenset(fresh)

    def _pings(
        self, table: Table, acting: str, before: Mapping[str, Prompt], after: Mapping[str, Prompt]
    ) -> dict[str, int]:
        """The seats to ping: another seat's required prompt that is new or changed, or that came from that
        seat's own earlier action (a simultaneous step: it was posted without a ping, and now waits on him)."""
        owed = self._unpinged.setdefault(table.game.id, set())
        ping = {
            s: u
            for s, p in after.items()
            if s != acting
            and not p.optional
            and (u := table.user_of(s)) is not None
            and (s not in before or before[s] != p or s in owed)
        }
        owed.difference_update(ping)
        owed.intersection_update(s for s, p in after.items() if not p.optional)
        if acting in after and not after[acting].optional:
            owed.add(acting)
        return ping

    async def choose(
        self,
        channel: int,
        caller: Caller,
        seat: str,
        number: int,
        state_id: int,
        still_valid: Callable[[Table, Prompt], Awaitable[bool]],
    ) -> tuple[Choice, Outcome]:
        """Answer ``seat``'s prompt with its choice ``number`` (from 1), from a button or menu shown at revision
        ``state_id``; returns the choice and what it did.

        Everything is read and checked under the channel's lock, so two players answering at the same instant
        are applied one after the other exactly as if they had clicked in turn: a button from an earlier
        revision is still accepted when ``still_valid`` says its prompt has not changed for the seat (two
        sealed decisions made at once).

        :raises Refusal: a seat not the caller's, nothing to decide, a number out of range, a stale button.
        """
        async with self.lock(channel):
            table = await self.table(channel)
            if seat not in table.seats:
                raise Refusal(f"there is no seat {seat!r}")
            if seat not in table.seats_of(caller.user_id):
                raise Refusal(f"only the {seat} player may answer this")
            prompt = (await self.prompts(table.game)).get(seat)
            if state_id != table.game.revision and (prompt is None or not await still_valid(table, prompt)):
                raise StaleError("that choice belongs to an earlier position (the game has moved on); nothing changed")
            if prompt is None:
                raise Refusal("you have nothing to decide now")
            if not 1 <= number <= len(prompt.choices):
                raise Refusal(f"choose a number from 1 to {len(prompt.choices)}")
            choice = prompt.choices[number - 1]
            return choice, await self._act(table, caller, choice.verb, dict(choice.args), seat, None)

    async def preview(
        self,
        channel: int,
        caller: Caller,
        verb: str,
        args: Mapping[str, Any],
        seat: str | None = None,
        *,
        text: str | None = None,
    ) -> Preview | None:
        """An action's preview to confirm (an attack's odds, a reactivation that fatigues), kept until confirmed
        or cancelled; ``None`` when the action needs no confirmation. ``text`` asks for a confirmation with
        that text whatever the system says (a choice made by its number, repeated before it is played).

        :raises RulesError: if the action is already known to be illegal.
        """
        async with self.lock(channel):
            table = await self.table(channel)
            if table.game.status != "active":
                raise Refusal("the game is not being played")
            system = self.system(table.game.system)
            state = await self.state(table.game)
            prompts = await self._prompts_of(table.game, state)
            acting = self._acting_seat(table, caller, prompts, verb, seat)
            check_role(system, acting, caller)
            if acting not in prompts:
                raise Refusal(f"it is not your decision now; waiting for: {', '.join(prompts) or 'nobody'}")
            if text is None:
                text = await asyncio.to_thread(system.preview, state, acting, verb, dict(args))
            if text is None:
                return None
            # A preview is a promise: what it shows, Confirm accepts (issue 26); it refuses what Confirm would.
            refused = await asyncio.to_thread(previewed_refusal, system, state, Action(acting, verb, dict(args)))
            if refused is not None:
                raise refused
            token = secrets.token_hex(6)
            await self.store.put_pending(
                PendingRow(token, table.game.id, table.game.revision, acting, caller.user_id, verb, dict(args))
            )
            return Preview(text, token, acting, verb, dict(args))

    async def confirm(self, channel: int, caller: Caller, token: str, go: bool) -> Outcome | None:
        """Confirm (``go``) or cancel an action previewed earlier; ``None`` when cancelled.

        :raises StaleError: for an unknown, used or outdated confirmation.
        """
        async with self.lock(channel):
            table = await self.table(channel)
            pending = await self.store.pending(token)  # read only: the action's own transaction removes it
            if pending is None or pending.game != table.game.id:
                raise StaleError("that confirmation was already used or has expired; nothing changed")
            if pending.user_id != caller.user_id:
                raise Refusal("only the player who asked for this preview may confirm it")
            if not go:
                await self.store.pop_pending(token)
                return None
            try:
                return await self._act(table, caller, pending.verb, pending.args, pending.seat, pending.revision)
            except RulesError:
                await self.store.pop_pending(token)  # a confirmation is used once, refused or not
                raise

    # --- Undo and corrections -------------------------------------------------------------------------

    async def undo(self, channel: int, caller: Caller) -> Outcome:
        """Take back the caller's last action, if nothing was rolled or revealed and nobody else acted since.

        :raises Refusal: when the last action is not the caller's, or a die roll or a reveal bars the way.
        """
        async with self.lock(channel):
            table = await self.table(channel)
            if table.game.status != "active":
                raise Refusal("the game is not being played")
            mine = table.seats_of(caller.user_id)
            if not mine:
                raise Refusal("you hold no seat in this game")
            actions = await self.store.last_actions(table.game.id, 1)
            if not actions:
                raise Refusal("there is nothing to undo")
            last = actions[-1]
            if last.seat not in mine:
                raise Refusal(f"the last action was the {last.seat} player's: you may undo only your own actions")
            check_role(self.system(table.game.system), last.seat, caller)
            if any(e.get("kind") in BARRIER_KINDS for e in last.events):
                raise Refusal(
                    "your last action rolled a die, revealed information or sealed a decision: it cannot be undone"
                )
            return await self._take_back(table, [last], caller, None)

    async def correct(self, channel: int, caller: Caller, count: int, reason: str) -> Outcome:
        """A moderator takes back the last ``count`` actions, whoever made them (logged in the game).

        :raises Refusal: for a non-moderator or a count out of range.
        """
        if not caller.moderator:
            raise Refusal("only a moderator may correct a game")
        async with self.lock(channel):
            table = await self.table(channel)
            logged = sum(table.game.seat_actions.values())
            if not 1 <= count <= logged:
                raise Refusal(f"there are {logged} actions to take back; give a number from 1")
            actions = await self.store.last_actions(table.game.id, count)
            text = f"{caller.name or caller.user_id} took back {count} action(s): {reason or 'no reason given'}"
            return await self._take_back(table, actions[-count:], caller, (caller.user_id, "correct", text))

    async def _take_back(
        self, table: Table, rows: list[ActionRow], caller: Caller, correction: tuple[int | None, str, str] | None
    ) -> Outcome:
        game = table.game
        system = self.system(game.system)
        self._cache.pop(game.id, None)
        first = min(r.seq for r in rows)
        snapshot = await self.store.latest_snapshot(game.id, before=first)
        after = snapshot[0] if snapshot else 0
        actions = [a for a in await self.store.actions(game.id, after=after) if a.seq not in {r.seq for r in rows}]
        state = await asyncio.to_thread(self._replay, system, game, actions, snapshot)
        prompts = await asyncio.to_thread(system.prompts, state)
        own = correction is None  # a player's undo gives his decision back as it was: its start and its charge
        resume = {rows[-1].seat: rows[-1].began} if own and rows[-1].began is not None else None
        clocks, reminders = await self._clock_plan(table, prompts, self.clock(), resume=resume)
        game = await self.store.undo_actions(
            game,
            [r.seq for r in rows],
            reminders=reminders,
            correction=correction,
            clocks=clocks,
            refund=own,
        )
        self._cache[game.id] = (game.revision, actions[-1].seq if actions else after, state)
        self._cache.keep_prompts(game.id, state, prompts)
        if game.status == "finished":  # a correction may reopen a game that ended
            game = await self.store.set_status(game, "active", None)
            await self._ended(game, "reopened")
        undone = [e for row in rows for e in row.events]
        return Outcome(
            Table(game, table.seats),
            seat=rows[-1].seat,
            prompts=prompts,
            undone=rows,
            fresh=frozenset(prompts),
            private_prompts=self._private_prompts(system, state),
            public_events=self.redact(system, state, None, [e for e in undone if not e.get("secret_to")]),
        )

    async def verify(self, game_id: int, posted_heads: Sequence[str] = ()) -> Verification:
        """Check a finished game in four layers (:mod:`bot.service.verification`): the seed and the hash chain
        (with ``posted_heads``, heads posted in the channel, each of which must be a point of the chain), every
        die recomputed from the seed, every sealed decision's receipt, and the rules replay from the set-up,
        comparing events by their data. Never raises on tampered data. The work runs in a worker thread.

        :raises Refusal: for an unknown game or one still being played (its seed is secret).
        """
        try:
            game = await self.store.game(game_id)
        except ValueError:  # the setup's options or result edited into text that is not JSON
            raise Refusal(f"the stored setup of game #{game_id} is not readable: it was edited by hand") from None
        if game is None:
            raise Refusal(f"there is no game #{game_id}")
        if game.live:
            raise Refusal("the game is still being played: its seed stays secret until the end")
        system = self.system(game.system)
        try:
            rows = await self.store.actions(game.id, include_undone=True)
        except ValueError as error:  # a row edited by hand into text that is not JSON
            problem = f"the stored log is not readable: an action's arguments or events are not JSON ({error})"
            return Verification(game, (Layer("chain", "nothing checked", (problem,)),), 0, game.chain_head or "")
        secrets = await self.store.secrets(game.id)
        return await asyncio.to_thread(verify_game, system, game, rows, secrets, posted_heads)


@dataclass(frozen=True)
class _Applied:
    """An action applied, with what follows from it, all worked out off the event loop."""

    state: Any
    events: list[dict[str, Any]]
    result: Result | None
    prompts: dict[str, Prompt]
    state_json: Any
    draws: list[dict[str, Any]]


def previewed_refusal(system: SystemAdapter, state: Any, action: Action) -> RulesError | None:
    """Why Confirm would refuse a previewed action now (the rules' own refusal, tried on the state, which
    ``apply`` never changes), or ``None`` when it would be accepted."""
    try:
        system.apply(state, action)
    except RulesError as refused:
        return refused
    return None


def _apply_read(system: SystemAdapter, state: Any, action: Action) -> tuple[Any, list[Any]]:
    """The system's ``apply``, refusing an argument the accepted action never read (a misspelt name)."""
    args = ReadArguments(action.args)
    try:
        applied = system.apply(state, Action(action.seat, action.verb, args))
    except RulesError:
        refuse_unread(action.verb, args, misspelt_only=True)  # "stepz" before "steps must be a number"
        raise
    refuse_unread(action.verb, args)
    return applied


def _apply(system: SystemAdapter, state: Any, action: Action, snapshot: bool, written: bool = False) -> _Applied:
    """Apply the action, keeping the dice it rolls; the state's JSON only when the action carries a snapshot
    (``snapshot``); with ``written``, an argument the action never read is refused."""
    with recording() as drawn:
        new, events = _apply_read(system, state, action) if written else system.apply(state, action)
    result = system.result(new)
    prompts = {} if result else system.prompts(new)
    state_json = system.state_to_json(new) if snapshot else None
    draws = [d.to_json() for d in linked(drawn, events)]  # each roll with the event it decided
    return _Applied(new, [e.to_json() for e in events], result, prompts, state_json, draws)


def _allows(prompt: Prompt, verb: str) -> bool:
    return verb in prompt.free_verbs or any(c.verb == verb for c in prompt.choices)
