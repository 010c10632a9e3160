"""What a player's league games say about him: Glicko-2 ratings, a record split by side, reliability.

Pure functions over decided games (:class:`RatedGame`), so a corrected result changes every figure after it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.leagues.glicko2 import Game, Rating, rate

PERIOD = 7 * 86400.0
"""A rating period lasts a week: the games that end in one week are rated together."""

RATED_WAYS = frozenset({"victory", "resignation", "forfeit", "adjudicated", "corrected"})
"""How a game may have ended to be rated: it was played (a forfeit here is of a game under way)."""

UNPLAYED_WAYS = frozenset({"abandoned", "walkover", "double-forfeit", "bye"})
"""Pairings that were not played out: not rated, not in a record, not in the tiebreaks or the reliability
(as FIDE and Lichess leave unplayed games unrated). An abandoned game scores 0 to both; a walkover scores
the player whose opponent had withdrawn before it started; a double forfeit scores nobody."""


@dataclass(frozen=True)
class RatedGame:
    """A decided league game: who held the first and the second seat, their scores, how and when it ended,
    and the deadline it had."""

    first: int
    second: int
    first_score: float
    second_score: float
    how: str
    ended: float
    deadline: float | None = None
    scenario: str = ""
    """The scenario it played (its side balance enters the expected score)."""


def ratings(
    games: Iterable[RatedGame], now: float | None = None, advantage: Mapping[str, float] | None = None
) -> dict[int, Rating]:
    """Every player's rating after the rated ``games`` (of one game system), one rating period per week.

    Weeks without a game widen the deviation of everybody already rated, up to the week of ``now``.
    ``advantage`` gives, per scenario, what the first seat is worth in rating points
    (:mod:`bot.leagues.sides`): each player is rated against his opponent's rating moved by it, so that a win
    on the favoured side earns less and a win on the other side more."""
    advantage = advantage or {}
    rated = sorted((g for g in games if g.how in RATED_WAYS), key=lambda g: g.ended)
    if not rated:
        return {}
    by_period: dict[int, list[RatedGame]] = defaultdict(list)
    for game in rated:
        by_period[math.floor(game.ended / PERIOD)].append(game)
    first = min(by_period)
    last = max(max(by_period), math.floor(now / PERIOD) if now is not None else first)
    current: dict[int, Rating] = {}
    for period in range(first, last + 1):
        played: dict[int, list[Game]] = defaultdict(list)
        for game in by_period.get(period, []):
            a = current.get(game.first, Rating())
            b = current.get(game.second, Rating())
            edge = advantage.get(game.scenario, 0.0)
            played[game.first].append(Game(Rating(b.rating - edge, b.deviation, b.volatility), game.first_score))
            played[game.second].append(Game(Rating(a.rating + edge, a.deviation, a.volatility), game.second_score))
        current = {p: rate(current.get(p, Rating()), played.get(p, [])) for p in {*current, *played}}
    return current


@dataclass(frozen=True)
class SideRecord:
    """Wins, draws and losses on one side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    def __str__(self) -> str:
        return f"{self.wins}-{self.draws}-{self.losses}"


def side_records(player: int, games: Iterable[RatedGame]) -> tuple[SideRecord, SideRecord]:
    """The player's record on the first seat and on the second (abandoned games and byes aside)."""
    tallies = [[0, 0, 0], [0, 0, 0]]
    for game in games:
        if game.how not in RATED_WAYS:
            continue
        for side, (who, mine, theirs) in enumerate(
            ((game.first, game.first_score, game.second_score), (game.second, game.second_score, game.first_score))
        ):
            if who == player:
                tallies[side][0 if mine > theirs else 1 if mine == theirs else 2] += 1
    return SideRecord(*tallies[0]), SideRecord(*tallies[1])


@dataclass(frozen=True)
class Reliability:
    """How dependably a player finishes his league games."""

    games: int
    """Games decided with him at the table (byes aside)."""
    on_time: int
    """Games decided by their deadline (or without one), and games his opponent forfeited."""
    resigned: int
    forfeited: int
    """Games he lost by forfeit."""

    @property
    def figure(self) -> float | None:
        """The share of his games finished on time (``None`` before any game)."""
        return self.on_time / self.games if self.games else None


def reliability(player: int, games: Sequence[RatedGame]) -> Reliability:
    """The player's reliability over his decided games that were played (not those abandoned by a moderator,
    nor the games never started because a player had withdrawn)."""
    mine = [g for g in games if player in (g.first, g.second) and g.how not in UNPLAYED_WAYS]
    on_time = resigned = forfeited = 0
    for game in mine:
        mine_score, theirs = (
            (game.first_score, game.second_score) if player == game.first else (game.second_score, game.first_score)
        )
        lost = mine_score < theirs
        if game.how == "resignation" and lost:
            resigned += 1
        if game.how == "forfeit":  # the forfeit is the loser's doing alone
            forfeited += lost
            on_time += not lost
        elif game.deadline is None or game.ended <= game.deadline:
            on_time += 1
    return Reliability(len(mine), on_time, resigned, forfeited)
