"""The league room: seasons, registration, pairings turned into games, results, standings, ratings.

A room beside the game systems (DESIGN.md): it creates each pairing's game through the game service, in its
own thread under the league channel, and hears of every game's end through the service's end listeners
(:attr:`bot.service.game_service.GameService.end_listeners`). Standings, ratings and reliability are computed from the
stored results each time they are asked for, so a corrected result corrects everything.

Organisers are the server's moderators (the moderator role). Sides are named by seat position (the first
seat of the round's system, and the second), so a league may change scenario or system between rounds.

One idea: a league's life over the game service (registration, rounds turned into games, results,
deadlines). Its parts are apart: the core it stands on (:mod:`~bot.leagues.core`), the organiser's steering
(:mod:`~bot.leagues.steering`), what the results say (:mod:`~bot.leagues.reading`), and the pure pairing,
standings, ratings, tiebreaks and side balance, and the store.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.leagues.core import CARRY, FORFEIT, rounds_said, shown
from bot.leagues.pairing import (
    PairingError,
    Round,
    round_robin,
    standings_for_pairing,
    swiss_round,
    table_of,
    table_rounds,
)
from bot.leagues.reading import LeagueReading
from bot.leagues.standings import BOTH_SIDES, FORMATS, SWISS
from bot.leagues.steering import LeagueSteering
from bot.leagues.store import Entrant, LeagueRow, LeagueStore, Pairing, RoundRow
from bot.service.game_service import DAY, Caller, GameService, Refusal, Table
from bot.service.game_service import Outcome as GameOutcome
from bot.store.records import GameRow

ThreadOpener = Callable[[int, str], Awaitable[int]]
"""Opens a thread under a channel and returns its id (the transport's: Discord)."""

SWISS_BYE_SCORE = 1.0
"""A Swiss bye scores a win; a round robin bye scores nothing (every player has one per cycle)."""

NEWCOMER_RATING = 1500.0
"""Where a Swiss seeds a player without a rating in the round's system: Glicko-2's starting rating."""


@dataclass(frozen=True)
class Started:
    """A pairing turned into a game, and the game's start (for the thread's first messages)."""

    pairing: Pairing
    outcome: GameOutcome | None
    """``None`` when the game had been started before (a round resumed after a restart)."""


class LeagueService(LeagueSteering, LeagueReading):
    """Every league operation, over the game service and the league tables of its store."""

    def __init__(self, games: GameService, listen: bool = True) -> None:
        self.games = games
        self.store = LeagueStore(games.store)
        if listen:  # one listening room per game service: the command layer's
            games.end_listeners.append(self.game_ended)
            games.timeout_listeners.append(self.game_timed_out)

    async def game_timed_out(self, table: Table, seat: str) -> None:
        """A league game's seat ran out of time and reserve: under a league whose rule for late games is
        ``forfeit`` that seat loses at once (logged in the league); under the other rules the opponent may claim
        the game (``game claim-timeout``) or the organiser decide it."""
        pairing = await self.store.pairing_of_game(table.game.id)
        league = await self.store.league(pairing.league) if pairing is not None else None
        if league is None or league.late_rule != FORFEIT or table.game.status != "active":
            return
        first_seat, second_seat = self.seats(table.game.system)
        winner = second_seat if seat == first_seat else first_seat
        reason = f"the {seat} player ran out of time and reserve"
        organiser = Caller(league.organiser or 0, "the league's rule for late games", moderator=True)
        await self.games.decide(table.game.channel, organiser, winner, "forfeit", reason)
        await self.store.log(league.id, None, "forfeit", f"game #{table.game.id}: {winner} wins, {reason}")

    # --- Seasons and players --------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild: int | None,
        channel: int,
        caller: Caller,
        name: str,
        system_id: str,
        scenario: str,
        options: Mapping[str, bool] | None = None,
        format_: str = SWISS,
        rounds: int = 0,
        days_per_move: float = 0.0,
        reserve_days: float = 0.0,
        round_days: float = 0.0,
        level_scores: Mapping[str, float] | None = None,
        round_every: float = 0.0,
        late_rule: str = CARRY,
        all_at_once: bool = False,
    ) -> LeagueRow:
        """Open a league for registration in a channel; ``level_scores`` gives what the winner scores for a
        victory level worth less than a full win (the loser gets the rest of the point).

        :raises Refusal: for a non-organiser, a league already running here, a name taken, a bad setting.
        """
        self._organiser(caller, "create a league")
        name = name.strip()
        if not 1 <= len(name) <= 40:
            raise Refusal("a league's name has 1 to 40 characters")
        if format_ not in FORMATS:
            raise Refusal(f"the format is one of {', '.join(FORMATS)}")
        if format_ == SWISS and not 1 <= rounds <= 30:
            raise Refusal("a Swiss league plays 1 to 30 rounds: give `rounds`")
        self._check_pace(days_per_move, reserve_days, round_days, round_every, late_rule)
        if all_at_once and format_ == SWISS:
            raise Refusal("only a round robin may start all its games at once: a Swiss pairs by the results")
        self._check_game_setup(system_id, scenario, dict(options or {}))
        self._check_levels(level_scores or {})
        here = await self.store.league_in(channel)
        if here is not None and here.live and here.channel == channel:
            raise Refusal(f"this channel already runs the league {here.name!r}; one running league per channel")
        if await self.store.league_named(guild, name) is not None:
            raise Refusal(f"this server already has a league named {name!r}")
        return await self.store.create(
            guild=guild,
            channel=channel,
            name=name,
            system=system_id,
            scenario=scenario,
            options=dict(options or {}),
            format=format_,
            rounds=rounds if format_ == SWISS else 0,
            days_per_move=days_per_move,
            reserve_days=reserve_days,
            round_days=round_days,
            level_scores=dict(level_scores or {}),
            organiser=caller.user_id,
            round_every=round_every,
            late_rule=late_rule,
            all_at_once=int(all_at_once),
        )

    async def join(self, channel: int, caller: Caller, side: str | None) -> LeagueRow:
        """Register for a league (with a preferred side, or none). A player already registered (an organiser
        may have added him) may join again at any time to set his name and side.

        :raises Refusal: once registration is closed for a player not registered (an organiser may add him).
        """
        league = await self.league(channel)
        registered = any(e.user_id == caller.user_id and not e.withdrawn for e in await self.store.entrants(league.id))
        if league.status != "registration" and not registered:
            raise Refusal("registration is closed; an organiser may add a late player with `league add`")
        await self.store.add_entrant(
            league.id, caller.user_id, caller.name or str(caller.user_id), self.side_index(league, side)
        )
        return league

    async def leave(self, channel: int, caller: Caller) -> LeagueRow:
        """Withdraw one's registration before the league starts.

        :raises Refusal: after the start (an organiser removes a player then), or when not registered.
        """
        league = await self.league(channel)
        if league.status != "registration":
            raise Refusal("the league has started: ask an organiser to remove you (`league remove`)")
        if not any(e.user_id == caller.user_id for e in await self.store.entrants(league.id)):
            raise Refusal("you are not registered in this league")
        await self.store.remove_entrant(league.id, caller.user_id, withdraw=False)
        return league

    async def add(self, channel: int, caller: Caller, user_id: int, name: str, side: str | None) -> LeagueRow:
        """An organiser registers a player under his server name, also late in a Swiss (he is paired from the
        next round).

        :raises Refusal: for a non-organiser, a player already in, or a round robin already under way.
        """
        league = await self.league(channel)
        self._organiser(caller, "add a player")
        if not league.live:
            raise Refusal(f"the league is {league.status}")
        found = next((e for e in await self.store.entrants(league.id) if e.user_id == user_id), None)
        if found is not None:
            if found.withdrawn:
                raise Refusal(f"<@{user_id}> withdrew from {league.name}: `league reinstate` brings him back")
            raise Refusal(f"<@{user_id}> is already registered in {league.name}")
        if league.status == "running" and league.format != SWISS:
            raise Refusal("a round robin's schedule is fixed when registration closes: no late player")
        await self.store.add_entrant(league.id, user_id, name, self.side_index(league, side))
        await self.store.log(league.id, caller.user_id, "add", f"added <@{user_id}>")
        return league

    async def close(self, channel: int, caller: Caller) -> LeagueRow:
        """Close registration: the season can start (`league round`).

        :raises Refusal: for a non-organiser, too few players, or more Swiss rounds than the field allows.
        """
        league = await self.league(channel)
        self._organiser(caller, "close registration")
        if league.status != "registration":
            raise Refusal("registration is already closed")
        players = [e for e in await self.store.entrants(league.id) if not e.withdrawn]
        if len(players) < 2:
            raise Refusal("a league needs at least two players")
        rounds = league.rounds
        schedule = None
        if league.format == SWISS:
            most = math.ceil(len(players) / 2)
            if rounds > most:
                raise Refusal(
                    f"a Swiss of {len(players)} players plays at most {rounds_said(most)} (half the field): beyond "
                    f"that no pairing can promise no rematch and sides within one; `league edit rounds:{most}` (or "
                    "fewer), or a new league as a round robin"
                )
        else:
            table = round_robin([e.user_id for e in players], league.format == BOTH_SIDES)
            rounds, schedule = len(table), table_of(table)
        await self.store.update(league.id, status="running", rounds=rounds, schedule=schedule)
        await self.store.log(league.id, caller.user_id, "close", f"registration closed with {len(players)} players")
        refreshed = await self.store.league(league.id)
        assert refreshed is not None
        return refreshed

    # --- Rounds ---------------------------------------------------------------------------------------

    async def next_round(
        self,
        channel: int,
        caller: Caller,
        opener: ThreadOpener,
        *,
        guild: int | None = None,
        scenario: str | None = None,
        system_id: str | None = None,
        carry: bool = False,
    ) -> tuple[RoundRow, list[Pairing], list[Started]]:
        """Pair the next round and turn each pairing into a started game in its own thread; a round cut short
        (a restart while its games were being made) is finished instead. A round robin whose games all start
        at once pairs every remaining round now. ``carry``: a scheduled round starts while games of the round
        before are still being played (their players are paired again; those results count when they come).

        :raises Refusal: for a non-organiser, a round still being played, a season over, or a Swiss that can
            no longer be paired (the organiser then ends the season or changes its rounds).
        """
        league = await self.league(channel)
        self._organiser(caller, "pair a round")
        if league.status == "registration":
            raise Refusal("registration is still open: `league close` first")
        if league.status == "finished":
            raise Refusal(f"every round is played ({league.rounds}): the season is over (`league standings`)")
        if league.status != "running":
            raise Refusal(f"the league is {league.status}")
        rounds = await self.store.rounds(league.id)
        pairings = await self.store.pairings(league.id)
        unmade = [p for p in pairings if p.second is not None and p.game is None and not p.decided]
        if rounds and unmade:
            started = await self._make_games(league, rounds, unmade, guild, opener)
            numbers = {p.round for p in unmade}
            made = [p for p in await self.store.pairings(league.id) if p.round in numbers]
            return rounds[-1], made, started
        number = len(rounds) + 1
        if number > league.rounds:
            raise Refusal(
                f"every round is paired ({league.rounds}): the season ends with their games (`league standings`)"
            )
        pending = [p for p in pairings if not p.decided]
        if pending and self._round_due(league, rounds):
            carry = await self._apply_late_rule(league, caller, pending)
            pending = [p for p in await self.store.pairings(league.id) if not p.decided]
            pairings = await self.store.pairings(league.id)
        if pending and not carry:
            games = ", ".join(f"#{p.game}" for p in pending if p.game is not None)
            raise Refusal(
                f"round {rounds[-1].number} is not over: game(s) {games} are still being played "
                "(an organiser may forfeit, adjudicate or wait)"
            )
        system_id = system_id or (rounds[-1].system if rounds else league.system)
        scenario = scenario or (rounds[-1].scenario if rounds and rounds[-1].system == system_id else league.scenario)
        self._check_game_setup(system_id, scenario, league.options if system_id == league.system else {})
        entrants = await self.store.entrants(league.id)
        last = league.rounds if league.all_at_once else number
        for each in range(number, last + 1):
            round_ = await self._pair(league, each, entrants, pairings, system_id)
            await self._store_round(league, caller, each, round_, entrants, system_id, scenario)
        if league.fixed:
            await self.store.update(league.id, fixed=[])
        rounds = await self.store.rounds(league.id)
        made = [p for p in await self.store.pairings(league.id) if p.round >= number]
        started = await self._make_games(league, rounds, [p for p in made if not p.decided], guild, opener)
        await self._maybe_finish(league.id)  # a last round of byes and walkovers only is over at once
        made = [p for p in await self.store.pairings(league.id) if p.round >= number]
        return rounds[-1], made, started

    def _round_due(self, league: LeagueRow, rounds: Sequence[RoundRow]) -> bool:
        """Whether a league of scheduled rounds has reached its next round's date."""
        if not league.round_every or not rounds or len(rounds) >= league.rounds:
            return False
        return self.clock() >= rounds[-1].started + league.round_every * DAY

    async def due_rounds(self) -> list[LeagueRow]:
        """The running leagues whose next scheduled round is due now (the deadline loop starts them)."""
        due = []
        for league_id in await self._running():
            league = await self.store.league(league_id)
            if league is not None and self._round_due(league, await self.store.rounds(league_id)):
                due.append(league)
        return due

    async def _apply_late_rule(self, league: LeagueRow, caller: Caller, pending: Sequence[Pairing]) -> bool:
        """The league's rule for the games still being played when a scheduled round starts (logged); returns
        whether they are carried over (the new round is paired while they go on)."""
        if league.late_rule == CARRY:
            games = ", ".join(f"#{p.game}" for p in pending if p.game is not None)
            await self.store.log(league.id, caller.user_id, "carry", f"game(s) {games} carried over to the next round")
            return True
        for pairing in pending:
            if pairing.thread is None:
                continue
            game = await self.games.store.live_game_in(pairing.thread)
            if game is None or game.status != "active":
                continue
            winner = None
            if league.late_rule == FORFEIT:
                waiting = [seat for seat, prompt in (await self.games.prompts(game)).items() if not prompt.optional]
                if len(waiting) == 1:
                    first_seat, second_seat = self.seats(game.system)
                    winner = second_seat if waiting[0] == first_seat else first_seat
            how = "forfeit" if winner is not None else "adjudicated"
            reason = "the next scheduled round started" + ("" if winner else " (a draw)")
            await self.games.decide(pairing.thread, caller, winner, how, reason)
            verdict = f"{winner} wins" if winner else "a draw"
            await self.store.log(league.id, caller.user_id, how, f"game #{pairing.game}: {verdict}, {reason}")
        return False

    async def _store_round(
        self,
        league: LeagueRow,
        caller: Caller,
        number: int,
        round_: Round,
        entrants: Sequence[Entrant],
        system_id: str,
        scenario: str,
    ) -> None:
        """A paired round in the store: a game with a withdrawn player is a walkover (both withdrawn: a double
        forfeit), decided at once and never started."""
        withdrawn = {e.user_id for e in entrants if e.withdrawn}
        rows: list[tuple[int, int | None, float | None, float | None, str | None]] = []
        for first, second in round_.games:
            if first in withdrawn or second in withdrawn:
                both = first in withdrawn and second in withdrawn
                scores = float(first not in withdrawn), float(second not in withdrawn)
                rows.append((first, second, *scores, "double-forfeit" if both else "walkover"))
            else:
                rows.append((first, second, None, None, None))
        if round_.bye is not None:
            rows.append((round_.bye, None, SWISS_BYE_SCORE if league.format == SWISS else 0.0, None, "bye"))
        deadline = self.clock() + league.round_days * DAY if league.round_days else None
        await self.store.add_round(league.id, number, system_id, scenario, deadline, rows, self.clock())
        await self.store.log(league.id, caller.user_id, "round", f"round {number} paired ({system_id}, {scenario})")

    async def _pair(
        self, league: LeagueRow, number: int, entrants: Sequence[Entrant], pairings: Sequence[Pairing], system_id: str
    ) -> Round:
        if league.format != SWISS:
            schedule = (
                table_rounds(league.schedule)
                if league.schedule is not None
                else round_robin([e.user_id for e in entrants], league.format == BOTH_SIDES)
            )
            return schedule[number - 1]
        active = [e for e in entrants if not e.withdrawn]
        rated = await self.ratings(league.guild, system_id)
        history = [(p.first, p.second, p.first_score or 0.0, p.second_score or 0.0) for p in pairings]
        players = [e.user_id for e in active]
        field = standings_for_pairing(
            players,
            {p: rated[p].rating if p in rated else NEWCOMER_RATING for p in players},
            {e.user_id: e.side for e in active},
            history,
        )
        by_player = {s.player: s for s in field}
        for a, b in league.forbidden:  # a forbidden pair is treated as one that has met already
            if a in by_player and b in by_player:
                by_player[a].opponents.add(b)
                by_player[b].opponents.add(a)
        fixed = [(a, b) for a, b in league.fixed if a in by_player and b in by_player]
        taken = {p for pair in fixed for p in pair}
        try:
            found = swiss_round([s for s in field if s.player not in taken], league.rounds - number + 1)
        except PairingError as error:
            raise Refusal(
                f"round {number} cannot be paired: {error} (the field has {len(active)} players). "
                "`league end` makes the season final now, `league edit rounds` plays fewer rounds, "
                "or `league pair` fixes pairings by hand"
            ) from None
        return Round((*fixed, *found.games), found.bye)

    async def _make_games(
        self,
        league: LeagueRow,
        rounds: Sequence[RoundRow],
        pairings: Sequence[Pairing],
        guild: int | None,
        opener: ThreadOpener,
    ) -> list[Started]:
        """Each pairing's thread, game, seats and start; every step is stored before the next, so a round cut
        short by a restart (or a refusal) resumes where it stopped.

        Each game is created in the name of its first-seat player: it is his game, and the bot's limits on
        live games per player and per server apply to league games as to any other."""
        entrants = {e.user_id: e.name for e in await self.store.entrants(league.id)}
        by_number = {r.number: r for r in rounds}
        started: list[Started] = []
        for pairing in pairings:
            assert pairing.second is not None
            round_ = by_number[pairing.round]
            first_seat, second_seat = self.seats(round_.system)
            thread = pairing.thread
            if thread is None:
                title = (
                    f"{league.name} R{round_.number}: {entrants.get(pairing.first, pairing.first)} v "
                    f"{entrants.get(pairing.second, pairing.second)}"
                )
                thread = await opener(league.channel, title[:100])
                await self.store.set_thread(pairing.id, thread)
            player = Caller(pairing.first, entrants.get(pairing.first, ""))
            try:
                game = await self._made_game(league, round_, pairing, thread, player, guild)
            except Refusal as refusal:
                raise Refusal(
                    f"game {pairing.first} v {pairing.second} (<#{thread}>) of round {round_.number} could not be "
                    f"made: {refusal.reason}. Once that is fixed, `league round` again finishes the round"
                ) from None
            outcome = None
            if game.status == "open":
                await self.games.assign(thread, player, first_seat, pairing.first)
                await self.games.assign(thread, player, second_seat, pairing.second)
                outcome = await self.games.start(thread, player)
            fresh = await self.store.pairing(pairing.id)
            assert fresh is not None
            started.append(Started(fresh, outcome))
        return started

    async def _made_game(
        self, league: LeagueRow, round_: RoundRow, pairing: Pairing, thread: int, player: Caller, guild: int | None
    ) -> GameRow:
        """The pairing's game in its thread: made now, or found made before a restart."""
        game = await self.games.store.live_game_in(thread)
        if game is None:
            table = await self.games.create(
                guild=guild,
                channel=thread,
                caller=player,
                system_id=round_.system,
                scenario=round_.scenario,
                options=league.options if round_.system == league.system else {},
                days_per_move=league.days_per_move,
                reserve_days=league.reserve_days,
            )
            game = table.game
        await self.store.set_game(pairing.id, game.id)
        return game

    # --- Results --------------------------------------------------------------------------------------

    async def game_ended(self, game: GameRow, how: str) -> None:
        """The game service's end listener: a league game's result is recorded (or withdrawn, when a
        correction reopens the game)."""
        pairing = await self.store.pairing_of_game(game.id)
        if pairing is None:
            return
        if how == "reopened" or game.live:
            await self.store.set_result(pairing.id, None, None)
            return
        league = await self.store.league(pairing.league)
        scores = self._scores(game, league.level_scores if league else {})
        await self.store.set_result(pairing.id, scores, how, now=self.clock())
        await self._maybe_finish(pairing.league)

    def _scores(self, game: GameRow, level_scores: Mapping[str, float]) -> tuple[float, float]:
        """(first seat's score, second's): 1-0 for a win, or the league's score of the victory level."""
        if game.status == "abandoned":
            return 0.0, 0.0
        result = game.result or {}
        winner = result.get("winner")
        if winner is None:
            return 0.5, 0.5
        won = float(level_scores.get(str(result.get("level")), 1.0))
        first_seat, _ = self.seats(game.system)
        return (won, 1.0 - won) if winner == first_seat else (1.0 - won, won)

    async def pairing_for(self, league: LeagueRow, channel: int, game_id: int | None) -> Pairing:
        """The league pairing of game ``game_id``, or of the thread ``channel`` when no game is given.

        :raises Refusal: when it is not a game of this league.
        """
        pairing = (
            await self.store.pairing_of_game(game_id) if game_id is not None else await self.store.pairing_in(channel)
        )
        if pairing is None or pairing.league != league.id:
            where = f"game #{game_id}" if game_id is not None else "this channel"
            raise Refusal(f"{where} is not a game of the league {league.name!r}; give the game's number")
        return pairing

    async def decide(
        self,
        channel: int,
        caller: Caller,
        game_id: int | None,
        how: str,
        winner: int | None,
        reason: str,
        level: str | None = None,
    ) -> tuple[Pairing, GameOutcome]:
        """An organiser forfeits or adjudicates a league game being played (``winner`` ``None``: a draw; a
        ``level`` of the league's victory levels scores the winner that level's share); the game ends (logged
        in it) and its result reaches the league like any other.

        :raises Refusal: for a non-organiser, a game not of the league, one already decided, or a level the
            league does not score.
        """
        league = await self.league(channel)
        self._organiser(caller, "forfeit or adjudicate a game")
        pairing = await self.pairing_for(league, channel, game_id)
        if pairing.decided or pairing.thread is None:
            raise Refusal("that game is already decided: `league correct` changes its result")
        scores = self._verdict(league, pairing, winner, level)
        seat = None
        if winner is not None:
            seat = self._seat_of(pairing, winner, await self._system_of(pairing))
        outcome = await self.games.decide(pairing.thread, caller, seat, how, reason)
        if level:
            await self.store.set_result(pairing.id, scores, how, now=self.clock())
        text = f"game #{pairing.game}: {self._verdict_text(winner, level)}, {shown(scores[0])}-{shown(scores[1])}"
        await self.store.log(league.id, caller.user_id, how, f"{text} ({reason or 'no reason given'})")
        fresh = await self.store.pairing(pairing.id)
        assert fresh is not None
        return fresh, outcome

    @staticmethod
    def _verdict(league: LeagueRow, pairing: Pairing, winner: int | None, level: str | None) -> tuple[float, float]:
        """(first's score, second's) for a winner (``None``: a draw) at a victory level (``None``: a full win).

        :raises Refusal: for a level without a winner, or one the league does not score."""
        if level:
            if winner is None:
                raise Refusal("a victory level needs a winner")
            if level not in league.level_scores:
                known = ", ".join(league.level_scores) or "none"
                raise Refusal(f"the league scores no victory level {level!r} (its levels: {known})")
        if winner is None:
            return 0.5, 0.5
        won = league.level_scores[level] if level else 1.0
        return (won, 1.0 - won) if winner == pairing.first else (1.0 - won, won)

    @staticmethod
    def _verdict_text(winner: int | None, level: str | None) -> str:
        if winner is None:
            return "a draw"
        return f"<@{winner}> wins" + (f" ({level})" if level else "")

    async def correct(
        self,
        channel: int,
        caller: Caller,
        game_id: int | None,
        winner: int | None,
        reason: str,
        level: str | None = None,
    ) -> Pairing:
        """An organiser corrects a decided result (``winner`` ``None``: a draw; ``level``: a victory level's
        share); logged. Standings and ratings follow, since they are computed from the results.

        :raises Refusal: for a non-organiser, a game not of the league, one still being played or never
            played, or a level the league does not score.
        """
        league = await self.league(channel)
        self._organiser(caller, "correct a result")
        pairing = await self.pairing_for(league, channel, game_id)
        if not pairing.decided:
            raise Refusal("that game is still being played: forfeit or adjudicate it instead")
        if pairing.second is None:
            raise Refusal("a bye has no result to correct")
        if pairing.game is None:
            raise Refusal(f"that pairing was never played ({pairing.how}): there is no game result to correct")
        if winner is not None:
            self._seat_of(pairing, winner, await self._system_of(pairing))
        scores = self._verdict(league, pairing, winner, level)
        text = (
            f"game #{pairing.game} corrected to {self._verdict_text(winner, level)}, "
            f"{shown(scores[0])}-{shown(scores[1])} (was {shown(pairing.first_score or 0.0)}-"
            f"{shown(pairing.second_score or 0.0)}, {pairing.how}): {reason or 'no reason given'}"
        )
        log = (league.id, caller.user_id, "correct", text)
        await self.store.set_result(pairing.id, scores, "corrected", log, now=pairing.ended)
        fresh = await self.store.pairing(pairing.id)
        assert fresh is not None
        return fresh

    async def extend(self, channel: int, caller: Caller, game_id: int | None, days: float) -> Pairing:
        """An organiser gives a game more days (logged).

        :raises Refusal: for a non-organiser, a game not of the league, or one already decided.
        """
        league = await self.league(channel)
        self._organiser(caller, "extend a deadline")
        pairing = await self.pairing_for(league, channel, game_id)
        if pairing.decided:
            raise Refusal("that game is already decided")
        deadline = max(pairing.deadline or self.clock(), self.clock()) + days * DAY
        text = f"game #{pairing.game}: {days:g} more day(s)"
        await self.store.set_deadline(pairing.id, deadline, (league.id, caller.user_id, "extend", text))
        fresh = await self.store.pairing(pairing.id)
        assert fresh is not None
        return fresh

    async def late(self, channel: int) -> tuple[LeagueRow, list[Pairing]]:
        """The league's games still being played past their deadline."""
        league = await self.league(channel)
        now = self.clock()
        pending = [p for p in await self.store.pairings(league.id) if not p.decided and p.second is not None]
        return league, [p for p in pending if p.deadline is not None and p.deadline < now]

    async def newly_late(self) -> list[tuple[LeagueRow, list[Pairing]]]:
        """Games of running leagues that went past their deadline since last asked (each told once)."""
        found = []
        now = self.clock()
        for league_id in await self._running():
            league = await self.store.league(league_id)
            assert league is not None
            late = [
                p
                for p in await self.store.pairings(league.id)
                if not p.decided and not p.late_told and p.deadline is not None and p.deadline < now
            ]
            claimed = set(await self.store.claim_late([p.id for p in late]))
            late = [p for p in late if p.id in claimed]  # another process tells the others
            if late:
                found.append((league, late))
        return found

    async def tell_late_again(self, late: Sequence[Pairing]) -> None:
        """Late games whose notice could not be posted (Discord failing for a while): told at the next round."""
        await self.store.mark_late_told([p.id for p in late], told=False)
