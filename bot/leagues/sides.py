"""How much a scenario favours a side: the first seat's score share over the rated games played in it, and
what that share is worth in rating points, used in the expected score of every game of that scenario.

The estimate is shrunk toward an even balance by :data:`PRIOR_GAMES` drawn games, so that a few results do
not swing it: with no game the advantage is 0; with 20 games in which the first seat scored 14, the share is
(14 + 5) / (20 + 10) = 0.633 and the advantage is 400 log10(0.633 / 0.367) = 95 points to the first seat.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

PRIOR_GAMES = 10
"""Drawn games the estimate starts from: the weight given to "the scenario is balanced" before any result."""

MOST = 400.0
"""The largest advantage the estimate gives, in rating points (a scenario won 91% of the time by one side)."""


@dataclass(frozen=True)
class SideBalance:
    """A scenario's balance: the rated games played in it, the first seat's points, the estimated share and
    what it is worth in rating points to the first seat (negative: to the second)."""

    games: int
    first_points: float

    @property
    def share(self) -> float:
        """The first seat's expected score between equal players, shrunk toward ½."""
        return (self.first_points + PRIOR_GAMES / 2) / (self.games + PRIOR_GAMES)

    @property
    def advantage(self) -> float:
        """The share in rating points: 400 log10(share / (1 - share)), at most :data:`MOST` either way."""
        share = self.share
        return max(-MOST, min(MOST, 400.0 * math.log10(share / (1.0 - share))))


def side_balances(games: Iterable[tuple[str, float]]) -> dict[str, SideBalance]:
    """Each scenario's balance from (scenario, the first seat's score) of its rated games."""
    tally: dict[str, list[float]] = {}
    for scenario, first_score in games:
        line = tally.setdefault(scenario, [0, 0.0])
        line[0] += 1
        line[1] += first_score
    return {scenario: SideBalance(int(n), points) for scenario, (n, points) in tally.items()}
