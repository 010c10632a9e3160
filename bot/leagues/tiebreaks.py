"""Tiebreaks: Buchholz and Sonneborn-Berger (Swiss), head-to-head (round robin).

A :class:`Game` is one decided pairing with both scores. Byes and games without an opponent count in a
player's score but not in these tiebreaks: they bring no opponent whose strength could be measured.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

Player = int


@dataclass(frozen=True)
class Game:
    """A decided game: (first seat, second seat) and their scores (1, 0.5 or 0; a double forfeit is 0-0)."""

    first: Player
    second: Player
    first_score: float
    second_score: float

    def of(self, player: Player) -> tuple[Player, float] | None:
        """(opponent, the player's score) when ``player`` played this game."""
        if player == self.first:
            return self.second, self.first_score
        if player == self.second:
            return self.first, self.second_score
        return None


def buchholz(player: Player, games: Iterable[Game], scores: Mapping[Player, float]) -> float:
    """The sum of the final scores of the player's opponents."""
    return sum(scores.get(found[0], 0.0) for g in games if (found := g.of(player)) is not None)


def sonneborn_berger(player: Player, games: Iterable[Game], scores: Mapping[Player, float]) -> float:
    """The final scores of the opponents the player beat, plus half those of the opponents he drew with."""
    total = 0.0
    for game in games:
        found = game.of(player)
        if found is None:
            continue
        opponent, score = found
        total += scores.get(opponent, 0.0) * score
    return total


def head_to_head(player: Player, group: Sequence[Player], games: Iterable[Game]) -> float:
    """The player's score in the games between the players of ``group`` (those tied with him)."""
    among = set(group)
    total = 0.0
    for game in games:
        found = game.of(player)
        if found is not None and found[0] in among:
            total += found[1]
    return total
