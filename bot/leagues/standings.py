"""Standings of a league from its stored results: score, tiebreaks, rank.

Swiss: score, then Buchholz, then Sonneborn-Berger. Round robin: score, then head-to-head among the players
tied on score, then Sonneborn-Berger. Players still level share a rank.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from bot.leagues.records import UNPLAYED_WAYS
from bot.leagues.tiebreaks import Game, Player, buchholz, head_to_head, sonneborn_berger

SWISS = "swiss"
ROUND_ROBIN = "round-robin"
BOTH_SIDES = "both-sides"
"""A double round robin, the second cycle with sides swapped."""
FORMATS = (SWISS, ROUND_ROBIN, BOTH_SIDES)


@dataclass(frozen=True)
class Outcome:
    """One pairing's result: ``second`` is ``None`` for a bye; scores are ``None`` while it is undecided."""

    first: Player
    second: Player | None
    first_score: float | None
    second_score: float | None
    how: str | None = None
    """How it ended (:attr:`bot.leagues.store.Pairing.how`): an unplayed one counts in the score only."""


@dataclass(frozen=True)
class Row:
    """One line of the standings."""

    rank: int
    player: Player
    score: float
    wins: int
    draws: int
    losses: int
    byes: int
    tiebreaks: tuple[float, float]
    """(Buchholz, Sonneborn-Berger) in a Swiss; (head-to-head, Sonneborn-Berger) in a round robin."""
    unplayed: int = 0
    """Games not played out, byes aside: abandoned, walkovers either way, double forfeits."""
    withdrawn: bool = False

    @property
    def played(self) -> int:
        """Games played out (byes and unplayed games aside)."""
        return self.wins + self.draws + self.losses


TIEBREAK_NAMES = {SWISS: ("Buchholz", "S-B"), ROUND_ROBIN: ("H2H", "S-B"), BOTH_SIDES: ("H2H", "S-B")}


def standings(
    players: Sequence[Player], outcomes: Sequence[Outcome], format_: str, withdrawn: Collection[Player] = ()
) -> list[Row]:
    """The standings of ``players`` from every decided outcome; ``withdrawn`` players are marked.

    A game not played out (:data:`~bot.leagues.records.UNPLAYED_WAYS`) counts in the score only: it is
    not a win, draw or loss, and brings no opponent to the tiebreaks (like a bye)."""
    scores = dict.fromkeys(players, 0.0)
    record = {p: [0, 0, 0, 0, 0] for p in players}  # wins, draws, losses, byes, unplayed
    games: list[Game] = []
    for o in outcomes:
        if o.first_score is None:
            continue
        if o.second is None:
            scores[o.first] = scores.get(o.first, 0.0) + o.first_score
            record.setdefault(o.first, [0, 0, 0, 0, 0])[3] += 1
            continue
        second_score = o.second_score or 0.0
        played = o.how not in UNPLAYED_WAYS
        if played:
            games.append(Game(o.first, o.second, o.first_score, second_score))
        for player, mine, theirs in ((o.first, o.first_score, second_score), (o.second, second_score, o.first_score)):
            scores[player] = scores.get(player, 0.0) + mine
            line = record.setdefault(player, [0, 0, 0, 0, 0])
            line[(0 if mine > theirs else 1 if mine == theirs else 2) if played else 4] += 1
    keys: dict[Player, tuple[float, float]] = {}
    for player in players:
        sb = sonneborn_berger(player, games, scores)
        if format_ == SWISS:
            keys[player] = (buchholz(player, games, scores), sb)
        else:
            tied = [p for p in players if scores[p] == scores[player]]
            keys[player] = (head_to_head(player, tied, games), sb)
    ordered = sorted(players, key=lambda p: (-scores[p], -keys[p][0], -keys[p][1], p))
    rows: list[Row] = []
    for index, player in enumerate(ordered):
        previous = rows[-1] if rows else None
        same = previous is not None and (previous.score, previous.tiebreaks) == (scores[player], keys[player])
        rank = previous.rank if same and previous is not None else index + 1
        wins, draws, losses, byes, unplayed = record[player]
        rows.append(
            Row(rank, player, scores[player], wins, draws, losses, byes, keys[player], unplayed, player in withdrawn)
        )
    return rows
