"""What every part of the league room stands on: the game service and the league tables, the league of a
channel, who may steer it, the sides of a system, the checks of a league's settings, the season's end.

The league service (:class:`~bot.leagues.service.LeagueService`) is this core with its parts: the steering
of a season (:mod:`~bot.leagues.steering`) and what the results say (:mod:`~bot.leagues.reading`).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.leagues.store import LeagueRow, LeagueStore, Pairing
from bot.service.game_service import Caller, GameService, Refusal

CARRY, FORFEIT, ADJUDICATE = "carry", "forfeit", "adjudicate"
LATE_RULES = (CARRY, FORFEIT, ADJUDICATE)
"""What happens, when a scheduled round starts, to a game of the round before still being played: it goes on
(``carry``: its players are paired again and its result counts when it comes), the player it waits on
forfeits (``forfeit``; a draw is adjudicated when it waits on both or neither), or it is adjudicated a draw
(``adjudicate``: the organiser may `league correct` it)."""


def shown(value: object) -> str:
    """A setting or a score as the log says it."""
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, dict):
        return ", ".join(f"{k}={v:g}" for k, v in value.items()) or "none"
    return str(value)


def rounds_said(count: int) -> str:
    """``1 round``, ``3 rounds``."""
    return f"{count} round{'' if count == 1 else 's'}"


class LeagueCore:
    """The game service and the league tables, and what every league operation asks of them."""

    games: GameService
    store: LeagueStore

    def clock(self) -> float:
        """Now, by the game service's clock (tests set it)."""
        return self.games.clock()

    async def league(self, channel: int) -> LeagueRow:
        """The league of a channel (or of the game thread ``channel``).

        :raises Refusal: if there is none.
        """
        league = await self.store.league_in(channel)
        if league is None:
            raise Refusal("there is no league in this channel; an organiser creates one with `league create`")
        return league

    @staticmethod
    def _organiser(caller: Caller, what: str) -> None:
        if not caller.moderator:
            raise Refusal(f"only an organiser (the moderator role) may {what}")

    def seats(self, system_id: str) -> tuple[str, str]:
        """The two seats of a system.

        :raises Refusal: for a system that is not for two players.
        """
        seats = self.games.system(system_id).seats
        if len(seats) != 2:
            raise Refusal(f"{system_id} is not a two-player system: a league needs two seats, it has {len(seats)}")
        return seats[0], seats[1]

    def _check_game_setup(self, system_id: str, scenario: str, options: Mapping[str, bool]) -> None:
        system = self.games.system(system_id)
        self.seats(system_id)
        if scenario not in system.scenarios:
            raise Refusal(f"{system.name} has no scenario {scenario!r}; choose one of {', '.join(system.scenarios)}")
        unknown = sorted(set(options) - set(system.options))
        if unknown:
            raise Refusal(f"unknown option(s) {', '.join(unknown)}; the options are {', '.join(system.options)}")

    @staticmethod
    def _check_pace(
        days_per_move: float, reserve_days: float, round_days: float, round_every: float, late_rule: str
    ) -> None:
        if not (0 <= days_per_move <= 60 and 0 <= reserve_days <= 120 and 0 <= round_days <= 365):
            raise Refusal("the time control takes 0 to 60 days per move, 0 to 120 days reserve, 0 to 365 per round")
        if not 0 <= round_every <= 365:
            raise Refusal("scheduled rounds start every 0 (the organiser starts them) to 365 days")
        if late_rule not in LATE_RULES:
            raise Refusal(f"the rule for late games is one of {', '.join(LATE_RULES)}")

    @staticmethod
    def _check_levels(level_scores: Mapping[str, float]) -> None:
        for level, score in level_scores.items():
            if not 0.5 < score <= 1:
                raise Refusal(
                    f"a victory level scores more than ½ and at most 1 for its winner, not {score:g} ({level})"
                )

    def side_index(self, league: LeagueRow, side: str | None) -> int | None:
        """A side named by seat (or ``first``/``second``, or ``none``) as a seat position.

        :raises Refusal: for a side the league's system does not have.
        """
        if side is None or side.strip().lower() in ("", "none", "any"):
            return None
        seats = self.seats(league.system)
        wanted = side.strip().lower()
        for index, seat in enumerate(seats):
            if wanted in (seat.lower(), ("first", "second")[index]):
                return index
        raise Refusal(f"the sides are {seats[0]} and {seats[1]} (or none)")

    async def _maybe_finish(self, league_id: int) -> None:
        league = await self.store.league(league_id)
        if league is None or league.status != "running":
            return
        pairings = await self.store.pairings(league_id)
        rounds = await self.store.rounds(league_id)
        if len(rounds) >= league.rounds and all(p.decided for p in pairings):
            await self.store.set_status(league_id, "finished")
            await self.store.log(league_id, None, "finish", "every round is decided: the season is over")

    async def _system_of(self, pairing: Pairing) -> str:
        if pairing.game is not None:
            game = await self.games.store.game(pairing.game)
            if game is not None:
                return game.system
        rounds = await self.store.rounds(pairing.league)
        return next(r.system for r in rounds if r.number == pairing.round)

    def _seat_of(self, pairing: Pairing, user_id: int, system_id: str) -> str:
        first_seat, second_seat = self.seats(system_id)
        if user_id == pairing.first:
            return first_seat
        if user_id == pairing.second:
            return second_seat
        raise Refusal(f"<@{user_id}> does not play game #{pairing.game}")

    async def _running(self) -> list[int]:
        return await self.store.running()
