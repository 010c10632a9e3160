"""Seats the computer holds: giving it a seat, and its moves.

A game system that offers a computer player names it as its ``computer_player`` attribute
(:class:`engine.contract.ComputerPlayer`); a system without one cannot seat the computer and says so. A computer
seat is stored with the game (:attr:`bot.store.records.SeatRow.computer`, its level), holds no user, is never
pinged, and has no clock and no reminders.

:meth:`ComputerSeats.computer_move` plays one decision of a computer seat whose prompt is waiting, required or
optional (a chance to react), sealed or not: it reads the game, decides from :meth:`GameSystem.view` of the seat
and the seat's own prompt only, in a worker process (:mod:`bot.service.thinking`) and with no lock or store
transaction held meanwhile, then takes the channel's lock and applies the decision through the same path as a
human's action (the same checks, log, dice and sealing). If the game moved on while it thought (its revision
changed), the decision is discarded and made again from the new position. The transports call it until it
answers ``None`` after every change of a game (:mod:`bot.commands.computer_turns`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.service.correspondence import Correspondence
from bot.service.game_types import Caller, ComputerGuard, Outcome, Refusal, SystemAdapter, Table, moderator_seats
from bot.service.thinking import ThinkingPool, decision_seed, fallback
from engine.contract import ComputerDecision, ComputerPlayer, Prompt, RulesError

logger = logging.getLogger("bot.service.computer")

COMPUTER = Caller(0, "the computer")
"""Who acts for a computer seat (its actions are logged with no user)."""

DEFAULT_LEVEL = "normal"
"""The level a computer seat gets when none is named (its player's middle level if it has no ``normal``)."""

RETRIES = 8
"""How many times a decision is made again when the game moved on while the computer thought."""


@dataclass(frozen=True)
class ComputerMove:
    """One decision of a computer seat, applied (``outcome``) or not (``note`` says why)."""

    seat: str
    level: str
    outcome: Outcome | None
    explanation: str = ""
    """The player's own line: its plan and main reasons (empty when it has nothing worth saying)."""
    note: str = ""
    """What went amiss, for the channel: a decision refused and replaced, or none that could be made."""
    sealed: bool = False
    """Whether it answered a sealed prompt (its reasons are not told: they would tell the decision)."""


def computer_player(system: SystemAdapter) -> ComputerPlayer | None:
    """The system's computer player, if it offers one."""
    player: ComputerPlayer | None = getattr(system, "computer_player", None)
    return player


def default_level(levels: tuple[str, ...]) -> str:
    """``normal`` when the player offers it, else its middle level."""
    return DEFAULT_LEVEL if DEFAULT_LEVEL in levels else levels[len(levels) // 2]


def _offered(prompt: Prompt, decision: ComputerDecision) -> bool:
    """Whether the decision answers the prompt with one of its verbs (a choice's, or a free verb)."""
    verb = decision.action.verb
    return verb in prompt.free_verbs or any(c.verb == verb for c in prompt.choices)


class ComputerSeats(Correspondence):
    """Giving a seat to the computer, and its moves (a part of :class:`bot.service.game_service.GameService`)."""

    computer_guards: list[ComputerGuard]
    """Asked before a seat is given to the computer; a guard returning a sentence refuses it (a league: its games
    are between its players)."""
    thinking: ThinkingPool

    def _setup_computer(self, processes: int) -> None:
        self.computer_guards = []
        self.thinking = ThinkingPool(processes)
        self._passed: dict[int, tuple[int, frozenset[str]]] = {}
        """Per game, the revision and the computer seats that let its optional prompt go (or could not answer)."""

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
        raise NotImplementedError  # the service's own (bot.service.game_service.GameService._act)

    def check_computer(self, system: SystemAdapter, seat: str | None, level: str | None) -> str:
        """The level the computer would play ``seat`` of a game of ``system`` at (``level``, or its default).

        :raises Refusal: a system without a computer player, an unknown seat or level, a moderator's seat.
        """
        player = computer_player(system)
        if player is None:
            raise Refusal(f"{system.name} has no computer player: every seat needs a person")
        if seat is not None and seat not in system.seats:
            raise Refusal(f"there is no seat {seat!r}; the seats are {', '.join(system.seats)}")
        roles = moderator_seats(system)
        if seat is not None and seat in roles:
            raise Refusal(f"the {seat} seat is for a moderator ({roles[seat]}): the computer cannot hold it")
        levels = tuple(player.levels)
        chosen = level or default_level(levels)
        if chosen not in levels:
            raise Refusal(f"the computer plays at the levels {', '.join(levels)}; not {chosen!r}")
        return chosen

    async def seat_computer(self, channel: int, caller: Caller, seat: str, level: str | None = None) -> Table:
        """Give ``seat`` to the computer at ``level`` (its default when ``None``). Before the start: the game's
        creator, a seated player or a moderator, for an empty seat or the caller's own; after it, a moderator only
        (a substitution, logged as a correction).

        :raises Refusal: a system without a computer player, an unknown seat or level, a moderator's seat, a seat
        another person holds, a game over, a caller without the right, or a guard's reason (a league game).
        """
        async with self.lock(channel):
            table = await self.table(channel)
            game = table.game
            level = self.check_computer(self.system(game.system), seat, level)
            for guard in self.computer_guards:
                reason = await guard(table)
                if reason:
                    raise Refusal(reason)
            if game.status != "open":
                if game.status != "active" or not caller.moderator:
                    raise Refusal(
                        "the game has started: only a moderator may give a seat to the computer now (a substitution)"
                    )
            elif not (caller.moderator or caller.user_id == game.creator or table.seats_of(caller.user_id)):
                raise Refusal(
                    "only the game's creator, one of its players or a moderator may give a seat to the computer"
                )
            holder = table.user_of(seat)
            if holder is not None and holder != caller.user_id and not caller.moderator:
                raise Refusal(f"the {seat} seat is held by <@{holder}>: only that player or a moderator gives it up")
            if table.computer_of(seat) == level:
                raise Refusal(f"the computer already holds the {seat} seat at level {level}")
            correction = None
            if game.status != "open":
                old = f"<@{holder}>" if holder is not None else (table.computer_of(seat) or "nobody")
                who = caller.name or caller.user_id
                text = f"{who} gave the {seat} seat to the computer ({level}) in place of {old}"
                correction = (caller.user_id, "substitute", text)
            game = await self.store.set_seat(game, seat, None, correction, computer=level)
            table = Table(game, await self.store.seats(game.id))
            if game.status == "active":  # the computer's clock is never kept: its seat's clock stops
                table = await self._start_clocks(table, await self.prompts(game), restart=[seat])
            return table

    async def computer_waiting(self, channel: int) -> bool:
        """Whether a computer seat of the channel's game has a prompt it has not answered yet."""
        try:
            table = await self.table(channel)
        except Refusal:
            return False
        return await self._computer_prompt(table) is not None

    async def _computer_prompt(self, table: Table) -> tuple[str, Prompt] | None:
        """The computer seat to decide now with its prompt: a required prompt first, then a chance to react not
        yet let go at this position."""
        game = table.game
        computers = table.computer_seats
        if game.status != "active" or not computers:
            return None
        prompts = await self.prompts(game)
        revision, passed = self._passed.get(game.id, (game.revision, frozenset()))
        if revision != game.revision:
            passed = frozenset()
        waiting = [(s, p) for s, p in prompts.items() if s in computers and s not in passed]
        waiting.sort(key=lambda sp: sp[1].optional)
        return waiting[0] if waiting else None

    def _let_go(self, table: Table, seat: str) -> None:
        revision, passed = self._passed.get(table.game.id, (table.game.revision, frozenset()))
        if revision != table.game.revision:
            passed = frozenset()
        self._passed[table.game.id] = (table.game.revision, passed | {seat})

    async def computer_move(self, channel: int) -> ComputerMove | None:
        """Make and apply one decision of a computer seat of the channel's game; ``None`` when no computer seat
        has anything to decide (or the channel has no game being played)."""
        for _ in range(RETRIES):
            try:
                table = await self.table(channel)
            except Refusal:
                return None
            waiting = await self._computer_prompt(table)
            if waiting is None:
                return None
            seat, prompt = waiting
            game = table.game
            system = self.system(game.system)
            player = computer_player(system)
            if player is None:
                return None
            level = table.computer_seats[seat]
            state = await self.state(game)
            view = await asyncio.to_thread(system.view, state, seat)
            seed = decision_seed(game.seed, seat, level, sum(game.seat_actions.values()))
            decided = await self.thinking.decide(player, view, prompt, level, seed)
            async with self.lock(channel):
                table = await self.table(channel)
                if table.game.revision != game.revision or table.computer_of(seat) != level:
                    continue  # the game moved on while the computer thought: decide again from where it stands
                return await self._apply_decision(table, seat, level, prompt, decided)
        return None

    async def _apply_decision(
        self, table: Table, seat: str, level: str, prompt: Prompt, decided: ComputerDecision | None
    ) -> ComputerMove:
        """Apply the computer's decision under the channel's lock (a refused one is replaced by
        :func:`~bot.service.thinking.fallback`; a chance to react it lets go is remembered for this position)."""
        note = ""
        if decided is None and not prompt.optional:
            note = "The computer's decision did not come in time: it passes."
        elif decided is not None and not _offered(prompt, decided):
            # A verb the prompt does not offer: a chance to react let go (or, for a decision the game waits for,
            # a mistake of the player's, answered by the fallback).
            decided = None
            note = "" if prompt.optional else "The computer's decision was not one it was offered: it passes."
        chosen = decided if decided is not None else fallback(prompt)
        if chosen is None:
            self._let_go(table, seat)
            if not prompt.optional:
                note = f"The computer cannot answer the {seat} prompt: a moderator may substitute the seat."
            return ComputerMove(seat, level, None, "", note)
        try:
            outcome = await self._applied(table, seat, chosen)
        except RulesError as refused:
            logger.warning("the computer's decision %s for %s was refused: %s", chosen.action, seat, refused)
            backup = fallback(prompt)
            if backup is None or backup.action == chosen.action:
                self._let_go(table, seat)
                why = "" if prompt.optional else f"; a moderator may substitute the seat ({refused})"
                return ComputerMove(seat, level, None, "", "" if prompt.optional else f"The computer is stuck{why}.")
            outcome = await self._applied(table, seat, backup)
            return ComputerMove(seat, level, outcome, "", f"The computer's first choice was refused ({refused}).")
        return ComputerMove(seat, level, outcome, chosen.explanation.strip(), note, prompt.secret)

    async def _applied(self, table: Table, seat: str, decision: ComputerDecision) -> Outcome:
        action = decision.action
        args: Mapping[str, Any] = action.args
        return await self._act(table, COMPUTER, action.verb, dict(args), seat, table.game.revision, computer=True)

    async def computer_games(self) -> list[int]:
        """The channels of the games being played that have a computer seat (to resume after a restart)."""
        channels = []
        for game in await self.store.games(("active",)):
            seats = await self.store.seats(game.id)
            if any(r.computer is not None and r.user_id is None for r in seats.values()):
                channels.append(game.channel)
        return channels
