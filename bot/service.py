"""The game service: every game operation, engine-agnostic, over the store and a registry of game systems.

The service knows nothing of Discord or of the terminal. Given a channel (or thread), a caller and what the
caller asks, it checks who may do it, loads the game's state (latest snapshot plus replay), asks the game
system, stores the result in one transaction and returns what happened (:class:`Outcome`). Refusals are
:class:`Refusal` (a :class:`~engine.contract.RulesError`) with a sentence a player reads and, when a rule
forbids it, the rule number; the engine's own :class:`~engine.contract.RulesError` passes through unchanged.

One :class:`asyncio.Lock` per channel serialises everything that changes a game, so a double click or two
players acting at once are applied one after the other, and the second sees the first's result.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

from bot import chain
from bot.config import Limits
from bot.rendering import Renderer
from bot.store import (
    ActionRow,
    ChannelBusyError,
    GameRow,
    NewAction,
    NewSecret,
    PendingRow,
    RevisionError,
    SeatRow,
    Store,
    snapshot_due,
)
from engine.contract import Action, Choice, GameSystem, Prompt, Result, RulesError
from engine.dice import commitment, new_seed

BARRIER_KINDS = frozenset({"roll", "reveal", "secret-reveal", "initiative", "sealed"})
"""Events undo never goes back over: a die rolled, hidden information revealed, the initiative decided, and a
sealed decision whose receipt the channel has seen."""
"""Events after which an action can no longer be undone: a die roll or information revealed."""

logger = logging.getLogger(__name__)

DAY = 86400.0
HOUR = 3600.0

LOCK_IDLE_SECONDS = 600.0
"""A channel's lock is forgotten after ten idle minutes (it is made again on the next request)."""
RECENT_PAGE = 60
"""How many actions back the picture of the last activation reads first (the store reads from the end)."""


class Refusal(RulesError):
    """The bot refuses a request; nothing changed. ``str()`` is the sentence shown to the player."""


class StaleError(Refusal):
    """A button or confirmation from an earlier position."""


class SystemAdapter(GameSystem, Protocol):
    """A game system as the bot uses it: the engine contract (:class:`engine.contract.GameSystem`) plus what
    the bot needs around it: state serialisation, autocomplete, odds previews, information and pictures."""

    id: str
    name: str
    scenarios: tuple[str, ...]
    options: Mapping[str, str]
    """Optional rules: name to a description with its rule number."""

    def state_to_json(self, state: Any) -> Any: ...

    def state_from_json(self, data: Any) -> Any: ...

    def suggest(
        self, state: Any, seat: str | None, source: str, typed: str, given: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        """Autocomplete: up to 25 (label, value) pairs legal now for ``source`` (unit, hex, target, ...)."""
        ...

    def preview(self, state: Any, seat: str, verb: str, args: Mapping[str, Any]) -> str | None:
        """The text to confirm before ``verb`` is applied (an attack's odds), or ``None`` to apply at once.

        :raises RulesError: if the action is already known to be illegal.
        """
        ...

    def describe(self, state: Any, seat: str | None, topic: str, key: str) -> str:
        """Text for an information command (``hex``, ``unit``, ``stack``, ``oob``, ``status``) as ``seat`` sees it.

        :raises RulesError: for an unknown key.
        """
        ...

    def picture(self, state: Any, seat: str | None, events: Sequence[Mapping[str, Any]]) -> bytes | None:
        """A PNG of the map as ``seat`` sees it (``None``: the public view), highlighting what ``events`` changed.

        Runs in a worker thread. ``None`` when the system has no picture.
        """
        ...

    def picture_due(self, events: Sequence[Mapping[str, Any]]) -> bool:
        """Whether these events close an activation (or a turn), so the channel gets the map picture."""
        ...


SystemFactory = Callable[[], SystemAdapter]

GameEndListener = Callable[[GameRow, str], Awaitable[None]]
"""Told of every game that ends, with how (``victory``, ``resignation``, ``abandoned``, or a moderator's
``forfeit`` or ``adjudicated``), and of every ended game a correction reopens (``reopened``). Rooms beside the
systems (leagues) register one in :attr:`GameService.end_listeners`."""


class ChannelLocks:
    """One :class:`asyncio.Lock` per channel, forgotten once idle so that a bot serving thousands of channels
    keeps only the busy ones.

    A lock is dropped only while nobody holds it or waits for it, and the sweep runs inside :meth:`get`,
    which never yields to the event loop: a caller that got a lock acquires it before any sweep can run.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic, idle: float = LOCK_IDLE_SECONDS) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, float]] = {}
        self._clock = clock
        self._idle = idle
        self._next_sweep = clock() + idle

    def __len__(self) -> int:
        return len(self._locks)

    def get(self, channel: int) -> asyncio.Lock:
        """The lock of a channel (a new one if it was forgotten)."""
        now = self._clock()
        if now >= self._next_sweep:
            self._sweep(now)
        lock = self._locks[channel][0] if channel in self._locks else asyncio.Lock()
        self._locks[channel] = (lock, now)
        return lock

    def _sweep(self, now: float) -> None:
        self._next_sweep = now + self._idle
        for channel, (lock, used) in list(self._locks.items()):
            if now - used >= self._idle and not lock.locked() and not getattr(lock, "_waiters", None):
                del self._locks[channel]


@dataclass(frozen=True)
class Caller:
    """Who asks: a user id, a name to show, and whether they are a moderator of the server."""

    user_id: int
    name: str = ""
    moderator: bool = False


@dataclass(frozen=True)
class Table:
    """A game with its seats: what every answer about a game starts from."""

    game: GameRow
    seats: dict[str, SeatRow]

    def user_of(self, seat: str) -> int | None:
        """The user holding ``seat``, if any."""
        row = self.seats.get(seat)
        return row.user_id if row else None

    def seats_of(self, user_id: int) -> list[str]:
        """The seats ``user_id`` holds."""
        return [s for s, row in self.seats.items() if row.user_id == user_id]


@dataclass(frozen=True)
class Outcome:
    """What an accepted request did, for the transport to post."""

    table: Table
    seat: str | None = None
    """The seat that acted."""
    action: ActionRow | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    prompts: dict[str, Prompt] = field(default_factory=dict)
    """What each seat must or may decide now."""
    ping: dict[str, int] = field(default_factory=dict)
    """Seats whose input is needed now and was not before, with their user ids: ping exactly these."""
    result: Result | None = None
    picture_due: bool = False
    """Whether an activation closed: post the map picture of what changed."""
    picture_events: list[dict[str, Any]] = field(default_factory=list)
    """What the picture posted after this action shows as just happened (when ``picture_due``): the public
    events of the whole activation that closed, from its opening action to this one, as the channel may read
    them (not sealed, redacted under fog of war)."""
    public_events: list[dict[str, Any]] = field(default_factory=list)
    """The events the channel may read: not sealed, and under fog of war without the names of hidden units."""
    fresh: frozenset[str] = frozenset()
    """Seats whose prompt is new (or, for a required prompt, changed): optional prompts are posted only then."""
    private_prompts: bool = False
    """Whether prompts name what the other side may not see (fog of war): shown to their seat only."""
    own_events: list[dict[str, Any]] = field(default_factory=list)
    """The events as the acting seat may read them (under fog of war, more than the channel)."""
    receipt: str | None = None
    """The receipt hash of a sealed decision."""
    undone: list[ActionRow] = field(default_factory=list)
    note: str = ""

    @property
    def state_id(self) -> int:
        """The game's revision: buttons and confirmations carry it."""
        return self.table.game.revision


@dataclass(frozen=True)
class Preview:
    """An action waiting for its player's confirmation."""

    text: str
    token: str
    seat: str
    verb: str
    args: dict[str, Any]


@dataclass(frozen=True)
class Info:
    """An answer to an information command (``hex``, ``unit``, ``stats`` ...) from a system's ``inform``: its
    text (any length: the command layer pages it), a picture, and the next steps it offers."""

    text: str
    picture: bytes | None = None
    buttons: tuple[tuple[str, str, str], ...] = ()
    """(label, press verb, argument) of each button (see :mod:`bot.info`)."""
    menu: tuple[tuple[str, str], ...] = ()
    """(label, value) entries of one select menu, pressed with ``menu_verb``."""
    menu_verb: str = ""
    menu_placeholder: str = ""


@dataclass(frozen=True)
class LogEntry:
    """One line of a game's log as a seat sees it."""

    seq: int
    seat: str
    verb: str
    texts: list[str]
    rolls: list[str]


class StateCache:
    """The latest state of the most recently used games, at most ``size`` of them (least recently used dropped).

    Each entry is (the game's revision, its last live action's number, the state). The prompts of a cached
    state are kept beside it (:meth:`prompts_of`): an action's prompts are worked out once, when it is
    applied, and serve as the prompts "before" the next action.
    """

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self._entries: OrderedDict[int, tuple[int, int, Any]] = OrderedDict()
        self._prompts: dict[int, tuple[Any, dict[str, Prompt]]] = {}

    def prompts_of(self, game_id: int, state: Any) -> dict[str, Prompt] | None:
        """The prompts kept for this very state of the game, if any (a copy)."""
        kept = self._prompts.get(game_id)
        return dict(kept[1]) if kept is not None and kept[0] is state else None

    def keep_prompts(self, game_id: int, state: Any, prompts: Mapping[str, Prompt]) -> None:
        """Keep the prompts of the game's cached ``state`` (dropped with it)."""
        if game_id in self._entries:
            self._prompts[game_id] = (state, dict(prompts))

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, game_id: int) -> tuple[int, int, Any] | None:
        entry = self._entries.get(game_id)
        if entry is not None:
            self._entries.move_to_end(game_id)
        return entry

    def __setitem__(self, game_id: int, entry: tuple[int, int, Any]) -> None:
        self._entries[game_id] = entry
        self._entries.move_to_end(game_id)
        while len(self._entries) > self.size:
            dropped, _ = self._entries.popitem(last=False)
            self._prompts.pop(dropped, None)

    def pop(self, game_id: int, default: Any = None) -> Any:
        self._prompts.pop(game_id, None)
        return self._entries.pop(game_id, default)


class GameService:
    """Every game operation. ``systems`` maps a system id to a factory of its :class:`SystemAdapter`;
    ``limits`` are the limits on creating games; ``state_cache`` is how many games' states stay in memory (the
    ``UMPIRE_STATE_CACHE`` setting)."""

    def __init__(
        self,
        store: Store,
        systems: Mapping[str, SystemFactory],
        clock: Callable[[], float] = time.time,
        limits: Limits | None = None,
        state_cache: int = 100,
    ):
        self.store = store
        self._factories = dict(systems)
        self._systems: dict[str, SystemAdapter] = {}
        self.locks = ChannelLocks()
        self.limits = limits if limits is not None else Limits(0, 0, 0)
        """The limits on creating games (the bot's come from its settings; none by default)."""
        self._creating = asyncio.Lock()
        self._cache = StateCache(state_cache)
        """Each game's latest state: (revision, last action's number, state)."""
        self._unpinged: dict[int, set[str]] = {}
        """Per game, the seats whose current required prompt was posted without a ping (it came from their own
        action): the next action by another seat pings them, so a simultaneous step never waits unseen."""
        self._reaction_shown: dict[int, set[str]] = {}
        """Per game, the seats whose optional prompt (a chance to react) was posted since the last activation
        closed: it is posted once per window, not again each time it reappears."""
        self.clock = clock
        self.renderer = Renderer()
        """Where pictures are drawn: a worker thread that gives way to answers in progress."""
        self.end_listeners: list[GameEndListener] = []

    async def _ended(self, game: GameRow, how: str) -> None:
        """Tell the listeners of a game's end; one that fails is logged and never undoes the game's change."""
        for listener in self.end_listeners:
            try:
                await listener(game, how)
            except Exception:
                logger.exception("a game-end listener failed for game %s", game.id)

    # --- Systems, locks, loading ----------------------------------------------------------------------

    @property
    def system_ids(self) -> tuple[str, ...]:
        """The game systems this service offers."""
        return tuple(self._factories)

    def system(self, system_id: str) -> SystemAdapter:
        """The adapter of a system (built once).

        :raises Refusal: for an unknown system.
        """
        if system_id not in self._factories:
            raise Refusal(f"there is no game system {system_id!r}; choose one of {', '.join(self._factories)}")
        if system_id not in self._systems:
            try:
                self._systems[system_id] = self._factories[system_id]()
            except ImportError as error:
                raise Refusal(f"the game system {system_id!r} is not installed on this bot ({error})") from None
        return self._systems[system_id]

    def lock(self, channel: int) -> asyncio.Lock:
        """The lock of a channel's game."""
        return self.locks.get(channel)

    async def table(self, channel: int, live: bool = True) -> Table:
        """The game of a channel with its seats.

        :raises Refusal: if the channel has no (live) game.
        """
        game = await (self.store.live_game_in(channel) if live else self.store.latest_game_in(channel))
        if game is None:
            raise Refusal("there is no game in this channel; create one with `game create`")
        return Table(game, await self.store.seats(game.id))

    async def state(self, game: GameRow) -> Any:
        """The current state of a game: the latest snapshot plus the actions after it (read alone), replayed."""
        cached = self._cache.get(game.id)
        if cached is not None and cached[0] == game.revision:
            return cached[2]  # every change of a game bumps its revision: no need to read its log
        if cached is not None and cached[1] == await self.store.last_seq(game.id):
            self._cache[game.id] = (game.revision, cached[1], cached[2])
            return cached[2]
        snapshot = await self.store.latest_snapshot(game.id)
        actions = await self.store.actions(game.id, after=snapshot[0] if snapshot else 0)
        last = actions[-1].seq if actions else (snapshot[0] if snapshot else 0)
        system = self.system(game.system)
        state = await asyncio.to_thread(self._replay, system, game, actions, snapshot)
        self._cache[game.id] = (game.revision, last, state)
        return state

    @staticmethod
    def _replay(
        system: SystemAdapter, game: GameRow, actions: Sequence[ActionRow], snapshot: tuple[int, Any] | None
    ) -> Any:
        """The state after ``actions``, which follow the ``snapshot`` (or the setup when there is none)."""
        if snapshot is not None:
            state = system.state_from_json(snapshot[1])
        else:
            state = system.new_game(game.scenario, game.options, bytes.fromhex(game.seed))
        for row in actions:
            state, _ = system.apply(state, Action(row.seat, row.verb, row.args))
        return state

    async def prompts(self, game: GameRow) -> dict[str, Prompt]:
        """What each seat must or may decide now (nothing unless the game is being played)."""
        if game.status != "active":
            return {}
        return await self._prompts_of(game, await self.state(game))

    async def _prompts_of(self, game: GameRow, state: Any) -> dict[str, Prompt]:
        """The prompts of a game's state, worked out once per state while it stays cached."""
        prompts = self._cache.prompts_of(game.id, state)
        if prompts is None:
            prompts = await asyncio.to_thread(self.system(game.system).prompts, state)
            self._cache.keep_prompts(game.id, state, prompts)
        return prompts

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
    ) -> Table:
        """Create a game in a channel (one live game per channel or thread).

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
        time_control = {"days_per_move": days_per_move, "reserve_days": reserve_days} if days_per_move else {}
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
                )
            except ChannelBusyError:
                raise Refusal(
                    "this channel already holds a game: finish it, or create the new one in another channel or thread"
                ) from None
        return Table(game, await self.store.seats(game.id))

    async def _check_limits(self, guild: int | None, caller: Caller) -> None:
        """Refuse a creation past a limit of :class:`~bot.config.Limits` (0: no limit)."""
        limits = self.limits
        if limits.games_per_user:
            mine = await self.store.count_games(creator=caller.user_id)
            if mine >= limits.games_per_user:
                raise Refusal(
                    f"you already run {mine} live games, the most this bot allows one player "
                    f"({limits.games_per_user}): finish one, or ask a moderator to abandon one"
                )
        if limits.creations_per_hour:
            since = time.time() - HOUR  # the store stamps a game's creation with the wall clock
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
            free = [s for s, row in table.seats.items() if row.user_id is None]
            if seat is None:
                if not free:
                    raise Refusal("every seat is taken")
                seat = free[0]
            self._check_seat(table, seat)
            holder = table.user_of(seat)
            if holder == caller.user_id:
                raise Refusal(f"you already hold the {seat} seat")
            if holder is not None:
                raise Refusal(f"the {seat} seat is taken")
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
            return Table(game, await self.store.seats(game.id))

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
            empty = [s for s, row in table.seats.items() if row.user_id is None]
            if empty:
                raise Refusal(f"the {', '.join(empty)} seat(s) are empty: `game join` first")
            game = await self.store.set_status(table.game, "active")
            prompts = await self.prompts(game)
            table = Table(game, table.seats)
            await self._set_reminders(table, prompts, game.revision)
            ping = {s: u for s, p in prompts.items() if not p.optional and (u := table.user_of(s)) is not None}
            state = await self.state(game)
            return Outcome(
                table,
                prompts=prompts,
                ping=ping,
                picture_due=True,
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
            others = [s for s in table.seats if s not in mine]
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
    ) -> Outcome:
        """Apply one seat's action: check, apply, store in one transaction, say what happened and who is next.

        :raises Refusal: no game, not seated, a stale ``state_id``.
        :raises RulesError: the engine's refusal, with the rule number.
        """
        async with self.lock(channel):
            table = await self.table(channel)
            return await self._act(table, caller, verb, dict(args), seat, state_id)

    async def _act(
        self,
        table: Table,
        caller: Caller,
        verb: str,
        args: dict[str, Any],
        seat: str | None,
        state_id: int | None,
    ) -> Outcome:
        game = table.game
        if game.status != "active":
            raise Refusal("the game has not started yet" if game.status == "open" else "the game is over")
        if state_id is not None and state_id != game.revision:
            raise StaleError("that choice belongs to an earlier position (the game has moved on); nothing changed")
        system = self.system(game.system)
        state = await self.state(game)
        before = await self._prompts_of(game, state)
        acting = self._acting_seat(table, caller, before, verb, seat)
        applied = await asyncio.to_thread(_apply, system, state, Action(acting, verb, args), snapshot_due(game))
        new, event_json, result, after = applied.state, applied.events, applied.result, applied.prompts
        now = self.clock()
        overtime = self._overtime(table, acting, now)
        secret = None
        if acting in before and before[acting].secret and not getattr(system, "seals_own_secrets", False):
            salt = secrets.token_hex(16)
            payload = json.dumps({"salt": salt, "seat": acting, "verb": verb, "args": args}, sort_keys=True)
            secret = NewSecret(acting, hashlib.sha256(payload.encode()).hexdigest(), payload)
        try:
            game, row = await self.store.record_action(
                game,
                NewAction(acting, caller.user_id, verb, args, event_json),
                state_json=applied.state_json,
                status="finished" if result else None,
                result={"winner": result.winner, "text": result.text, "level": result.level} if result else None,
                reminders=self._reminder_times(table, after, now) if not result else {},
                reserve_used=(acting, overtime) if overtime else None,
                secret=secret,
                reveal=bool(result) or any(e["kind"] in ("reveal", "secret-reveal") for e in event_json),
            )
        except RevisionError:
            raise StaleError("the game changed meanwhile; nothing changed, try again") from None
        self._cache[game.id] = (game.revision, row.seq, new)
        self._cache.keep_prompts(game.id, new, after)
        if result:
            await self._ended(game, "victory")
        receipt = secret.receipt if secret else None
        table = Table(game, table.seats)
        picture_due = bool(result) or system.picture_due(event_json)
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
            receipt=receipt,
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
            if acting not in prompts:
                raise Refusal(f"it is not your decision now; waiting for: {', '.join(prompts) or 'nobody'}")
            if text is None:
                text = await asyncio.to_thread(system.preview, state, acting, verb, dict(args))
            if text is None:
                return None
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
        game = await self.store.undo_actions(
            game,
            [r.seq for r in rows],
            reminders=self._reminder_times(table, prompts, self.clock()),
            correction=correction,
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

    # --- Information ----------------------------------------------------------------------------------

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
    ) -> Callable[[], Awaitable[bytes]]:
        """:meth:`picture` in two steps: what to draw is decided now (the position now, as the caller's seat
        sees it), the drawing happens when the returned function is awaited, in :attr:`renderer`.

        :raises Refusal: when the system draws no overlays or close-ups and one is asked for; awaiting the
            function raises it when the system draws no picture.
        """
        table = await self.table(channel, live=False)
        system = self.system(table.game.system)
        state = await self.state(table.game)
        seat = self._viewer(table, caller) if caller else None
        draw = getattr(system, "draw", None)
        work: Callable[[], bytes | None]
        if events is None:
            events = await self._recent_events(table.game, seat)
            if draw is not None:
                work = partial(draw, state, seat, list(events), overlay=overlay, unit=unit, around=around)
            else:
                work = partial(system.picture, state, seat, list(events))
        elif overlay or around:
            if draw is None:
                raise Refusal(f"{system.name} draws no overlays or close-ups")
            work = partial(draw, state, seat, list(events), overlay=overlay, unit=unit, around=around)
        else:
            work = partial(system.picture, state, seat, list(events))

        async def drawn() -> bytes:
            png = await self.renderer.draw(work)
            if png is None:
                raise Refusal(f"{system.name} has no map picture")
            return bytes(png)

        return drawn

    async def _recent_events(self, game: GameRow, seat: str | None) -> list[dict[str, Any]]:
        """The events of the last activation (from the last ``activation`` event on) that ``seat`` may read,
        however long it was: the log is read from its end, a page of :data:`RECENT_PAGE` actions first and
        four times more each time the activation began earlier still."""
        count = RECENT_PAGE
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

    async def verify(self, game_id: int) -> tuple[GameRow, int, list[str]]:
        """Check a finished game: (game, rolls recomputed, problems), never raising on tampered data.

        In order: the revealed seed against the hash published at creation; the hash chain of the stored
        log (:mod:`bot.chain`: an action or an event changed, a row deleted or inserted, the head kept with
        the game); then the whole game replayed from the seed, which must give exactly the events (dice
        included) that were announced: every die is derived from the seed and the game's roll counter
        (:mod:`engine.dice`), so the replay recomputes every roll. A replay that the rules refuse stops there,
        and says so. Events that carry ``{"number", "sides", "die"}`` are also checked one by one against the
        seed. The work runs in a worker thread.

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
            return game, 0, [f"the stored log is not readable: an action's arguments or events are not JSON ({error})"]
        return await asyncio.to_thread(_verify, system, game, rows)

    # --- Time control, reminders, vacations -----------------------------------------------------------

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
            async with self.store.transaction() as db:
                await db.execute("DELETE FROM reminders WHERE game = ?", (table.game.id,))
                await db.executemany(
                    "INSERT INTO reminders (game, seat, due) VALUES (?, ?, ?)",
                    [(table.game.id, s, t) for s, t in due.items()],
                )

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


@dataclass(frozen=True)
class _Applied:
    """An action applied, with what follows from it, all worked out off the event loop."""

    state: Any
    events: list[dict[str, Any]]
    result: Result | None
    prompts: dict[str, Prompt]
    state_json: Any


def _apply(system: SystemAdapter, state: Any, action: Action, snapshot: bool) -> _Applied:
    """Apply the action; the state's JSON only when the action carries a snapshot (``snapshot``)."""
    new, events = system.apply(state, action)
    result = system.result(new)
    prompts = {} if result else system.prompts(new)
    state_json = system.state_to_json(new) if snapshot else None
    return _Applied(new, [e.to_json() for e in events], result, prompts, state_json)


def _verify(system: SystemAdapter, game: GameRow, rows: Sequence[ActionRow]) -> tuple[GameRow, int, list[str]]:
    from engine.dice import verify as verify_rolls

    problems: list[str] = []
    try:
        seed = bytes.fromhex(game.seed)
    except ValueError:
        return game, 0, ["the revealed seed is not hexadecimal: it cannot be the game's seed"]
    if commitment(seed) != game.seed_hash:
        problems.append("the revealed seed does not match the hash published at the game's creation")
    links = [
        chain.StoredLink(
            r.seq, r.seat, r.user_id, r.verb, r.args, r.events, r.events_hash, r.chain, r.undone, r.undone_after
        )
        for r in rows
    ]
    problems += chain.check(game.seed_hash, links, game.chain_head)
    try:
        state = system.new_game(game.scenario, game.options, seed)
    except Exception as error:  # tampered setup: say so, never crash
        return game, 0, [*problems, f"the game's setup does not load: {error}"]
    rolls = 0
    recorded: list[tuple[int, int, int]] = []
    for row in rows:
        if row.undone:
            continue
        try:
            state, events = system.apply(state, Action(row.seat, row.verb, row.args))
        except Exception as error:  # a refused or broken action: report and stop, the rest cannot replay
            reason = getattr(error, "reason", str(error))
            problems.append(
                f"action #{row.seq} ({row.seat} {row.verb}) is refused by the rules on replay: {reason}; "
                "the replay stops there"
            )
            break
        again = json.loads(json.dumps([e.to_json() for e in events]))
        rolls += sum(1 for e in again if e["kind"] == "roll" or {"die", "dice"} & set(e["data"]))
        recorded += [
            (int(e["data"]["number"]), int(e["data"].get("sides", 6)), int(e["data"]["die"]))
            for e in (row.events if isinstance(row.events, list) else [])
            if isinstance(e, dict)
            and e.get("kind") == "roll"
            and isinstance(e.get("data"), dict)
            and {"number", "die"} <= set(e["data"])
            and all(isinstance(e["data"].get(k, 6), int) for k in ("number", "die", "sides"))
        ]
        if again != row.events:
            problems.append(_difference(row, again))
    try:
        problems += verify_rolls(game.seed, game.seed_hash, recorded)
    except (ValueError, TypeError) as error:
        problems.append(f"the recorded rolls cannot be checked: {error}")
    return game, rolls, list(dict.fromkeys(problems))


def _difference(row: ActionRow, again: list[dict[str, Any]]) -> str:
    """What differs between an action's recorded events and the replay's, in one sentence."""
    head = f"action #{row.seq} ({row.seat} {row.verb})"
    if not isinstance(row.events, list):
        return f"{head}: the events announced are not a list of events"
    for index, (told, replayed) in enumerate(zip(row.events, again, strict=False), 1):
        if told == replayed:
            continue
        data = told.get("data") if isinstance(told, dict) else None
        was = (data or {}).get("die", (data or {}).get("dice")) if isinstance(data, dict) else None
        now = replayed["data"].get("die", replayed["data"].get("dice"))
        if now is not None and was is not None and was != now:
            rule = replayed["data"].get("rule") or replayed.get("rule") or ""
            about = f" ({rule})" if rule else ""
            return f"{head}: a die{about} was announced as {was} but the seed gives {now}"
        text = str(told.get("text", told) if isinstance(told, dict) else told)[:80]
        return f"{head}: event {index} was announced as {text!r} but the replay gives {replayed['text'][:80]!r}"
    return f"{head}: {len(row.events)} event(s) were announced but the replay gives {len(again)}"


def _allows(prompt: Prompt, verb: str) -> bool:
    return verb in prompt.free_verbs or any(c.verb == verb for c in prompt.choices)
