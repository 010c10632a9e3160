"""Pairings: round robin (Berger tables, once or twice with sides swapped) and Swiss, round by round.

A pairing is (first, second): the player of the system's first seat (Ardennes 1944: german) and of its
second (allied); the sides of a league are named by seat position so that one league may change system or
scenario between rounds. Everything here is pure: players are user ids, and the history comes from stored
results.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

Player = int
"""A player: the Discord user id."""

SEARCH_BUDGET = 50_000
"""How many partial pairings the Swiss search tries before it relaxes side balance."""


class PairingError(ValueError):
    """No pairing is possible (every remaining pairing would be a rematch)."""


@dataclass(frozen=True)
class Round:
    """The games of one round, and the player with the bye (an odd field), if any."""

    games: tuple[tuple[Player, Player], ...]
    bye: Player | None = None


# --- Round robin ------------------------------------------------------------------------------------------


def round_robin(players: Sequence[Player], both_sides: bool = False) -> list[Round]:
    """Every round of a round robin by FIDE's Berger tables: each pair meets once (``both_sides``: twice,
    the second cycle with sides swapped). ``players`` are in the order of their numbers in the table (1, 2,
    ...). An odd field adds a bye (the table's last number), which each player gets once per cycle.

    Round 1 pairs 1 with n, 2 with n-1, ...; each next round adds n/2 to every number but n (counted round
    1..n-1) and swaps the sides of n's game. So the last player alternates sides, and every other player's
    sides alternate too but once per cycle (the published tables of FIDE's Handbook, C.05 Annex 1).
    """
    numbered: list[Player | None] = list(players)
    if len(numbered) % 2:
        numbered.append(None)
    n = len(numbered)
    if n < 2:
        return []
    table: list[list[tuple[int, int]]] = [[(i, n + 1 - i) for i in range(1, n // 2 + 1)]]
    for _ in range(n - 2):
        shifted = []
        for a, b in table[-1]:
            if n in (a, b):
                other = _turned(a if b == n else b, n)
                shifted.append((n, other) if b == n else (other, n))
            else:
                shifted.append((_turned(a, n), _turned(b, n)))
        table.append(shifted)
    rounds = [_seated(pairs, numbered) for pairs in table]
    if both_sides:
        rounds += [Round(tuple((b, a) for a, b in r.games), r.bye) for r in rounds]
    return rounds


def _turned(number: int, n: int) -> int:
    """A number of the table in the next round: n/2 more, counted round 1..n-1."""
    return (number - 1 + n // 2) % (n - 1) + 1


def _seated(pairs: Sequence[tuple[int, int]], numbered: Sequence[Player | None]) -> Round:
    """A round of table numbers as a round of players (the missing player's opponent has the bye)."""
    games: list[tuple[Player, Player]] = []
    bye: Player | None = None
    for a, b in pairs:
        first, second = numbered[a - 1], numbered[b - 1]
        if first is None or second is None:
            bye = first if second is None else second
        else:
            games.append((first, second))
    return Round(tuple(games), bye)


def table_rounds(schedule: Sequence[Sequence[Sequence[Player | None]]]) -> list[Round]:
    """A stored table (rounds of [first, second] pairs, ``None`` for a bye's missing opponent) as rounds."""
    rounds = []
    for pairs in schedule:
        games = tuple((a, b) for a, b in pairs if a is not None and b is not None)
        bye = next((a if b is None else b for a, b in pairs if a is None or b is None), None)
        rounds.append(Round(games, bye))
    return rounds


def table_of(rounds: Sequence[Round]) -> list[list[list[Player | None]]]:
    """Rounds as a table to store (the inverse of :func:`table_rounds`)."""
    table: list[list[list[Player | None]]] = []
    for r in rounds:
        pairs: list[list[Player | None]] = [[a, b] for a, b in r.games]
        if r.bye is not None:
            pairs.append([r.bye, None])
        table.append(pairs)
    return table


# --- Swiss ------------------------------------------------------------------------------------------------


@dataclass
class Standing:
    """What the Swiss pairing knows of a player before a round."""

    player: Player
    score: float = 0.0
    rating: float = 0.0
    opponents: set[Player] = field(default_factory=set)
    firsts: int = 0
    """Games played on the first seat."""
    seconds: int = 0
    had_bye: bool = False
    prefers: int | None = None
    """The preferred side (0: first seat, 1: second), used only to break an even balance."""

    @property
    def balance(self) -> int:
        """First-seat games minus second-seat games."""
        return self.firsts - self.seconds


def swiss_round(standings: Sequence[Standing], rounds_left: int = 1) -> Round:
    """Pair one Swiss round: no rematch, each player's sides balanced within one, a bye (odd field) to the
    lowest-placed player who has not had one, players paired by score then rating.

    Players are ranked by score, then rating; the search pairs the top unpaired player with the highest
    ranked opponent allowed, backtracking when the rest cannot be paired. When more rounds follow
    (``rounds_left`` counts this one), a pairing is taken only if the next round can still be paired within
    the same limits: a player one game up on a side must next meet one game down, and a careless round can
    leave him nobody new. When no pairing keeps every side balance within one, it allows two rather than a
    rematch.

    :raises PairingError: if every pairing would need a rematch or a second bye.
    """
    ranked = _ranked(standings)
    for tolerance, ahead in ((1, rounds_left > 1), (1, False), (2, False)):
        found = _pair_with_bye(ranked, tolerance, ahead)
        if found is not None:
            return found
    raise PairingError("every possible pairing of this round would be a rematch or a second bye")


def _ranked(standings: Sequence[Standing]) -> list[Standing]:
    return sorted(standings, key=lambda s: (-s.score, -s.rating, s.player))


def _pair_with_bye(
    ranked: list[Standing], tolerance: int, ahead: bool, budget: list[int] | None = None
) -> Round | None:
    """A round's pairing within ``tolerance``, looking ``ahead`` one round if asked; ``budget`` counts the
    partial pairings tried, the look-ahead's included, so that a hard field cannot make the search run away."""
    budget = budget if budget is not None else [SEARCH_BUDGET]

    def next_round_possible(games: list[tuple[Player, Player]], bye: Player | None) -> bool:
        if not ahead:
            return True
        after = _played(ranked, games, bye)
        return _pair_with_bye(_ranked(after), tolerance, False, budget) is not None

    if len(ranked) % 2 == 0:
        games = _search(ranked, tolerance, budget, lambda g: next_round_possible(g, None))
        return Round(tuple(games)) if games is not None else None
    for candidate in reversed(ranked):  # the lowest placed first
        if candidate.had_bye:
            continue
        rest = [s for s in ranked if s is not candidate]
        bye = candidate.player

        def with_bye(games: list[tuple[Player, Player]], bye: Player = bye) -> bool:
            return next_round_possible(games, bye)

        games = _search(rest, tolerance, budget, with_bye)
        if games is not None:
            return Round(tuple(games), candidate.player)
    return None


def _played(ranked: Sequence[Standing], games: Sequence[tuple[Player, Player]], bye: Player | None) -> list[Standing]:
    """The field after a round is played (scores aside: the next round's feasibility does not depend on them)."""
    after = {
        s.player: Standing(s.player, s.score, s.rating, set(s.opponents), s.firsts, s.seconds, s.had_bye, s.prefers)
        for s in ranked
    }
    for first, second in games:
        after[first].opponents.add(second)
        after[first].firsts += 1
        after[second].opponents.add(first)
        after[second].seconds += 1
    if bye is not None:
        after[bye].had_bye = True
    return list(after.values())


def _search(
    ranked: list[Standing],
    tolerance: int,
    budget: list[int],
    accept: Callable[[list[tuple[Player, Player]]], bool],
    done: tuple[tuple[Player, Player], ...] = (),
) -> list[tuple[Player, Player]] | None:
    if not ranked:
        return list(done) if accept(list(done)) else None
    budget[0] -= 1
    if budget[0] < 0 or (tolerance == 1 and not _sides_can_match(ranked)):
        return None
    top, rest = ranked[0], ranked[1:]
    for opponent in rest:
        if opponent.player in top.opponents:
            continue
        sides = _sides(top, opponent, tolerance)
        if sides is None:
            continue
        found = _search([s for s in rest if s is not opponent], tolerance, budget, accept, (*done, sides))
        if found is not None:
            return found
    return None


def _sides_can_match(field: Sequence[Standing]) -> bool:
    """Whether the sides of these players can all stay within one: each player a game up on a side needs an
    opponent a game down or level, and the level ones must make up the difference."""
    up = sum(1 for s in field if s.balance > 0)
    down = sum(1 for s in field if s.balance < 0)
    return abs(up - down) <= len(field) - up - down


def _sides(a: Standing, b: Standing, tolerance: int) -> tuple[Player, Player] | None:
    """(first, second) for a pair, or ``None`` when either way breaks the side balance tolerance."""
    options = []
    for first, second in ((a, b), (b, a)):
        after_first, after_second = first.balance + 1, second.balance - 1
        if abs(after_first) <= tolerance and abs(after_second) <= tolerance:
            options.append((first, second))
    if not options:
        return None
    if len(options) == 2:
        # Both are balanced: the one who played the first seat less takes it, then a preference, then rank.
        if a.balance != b.balance:
            first, second = (a, b) if a.balance < b.balance else (b, a)
            return first.player, second.player
        for first, second in ((a, b), (b, a)):
            if (first.prefers == 0 and second.prefers != 0) or (second.prefers == 1 and first.prefers != 1):
                return first.player, second.player
    first, second = options[0]
    return first.player, second.player


def standings_for_pairing(
    players: Sequence[Player],
    ratings: Mapping[Player, float],
    preferences: Mapping[Player, int | None],
    history: Sequence[tuple[Player, Player | None, float, float]],
) -> list[Standing]:
    """The pairing view of a field from its past games: (first, second or ``None`` for a bye, first's score,
    second's score) each."""
    table = {p: Standing(p, rating=ratings.get(p, 0.0), prefers=preferences.get(p)) for p in players}
    for first, second, first_score, second_score in history:
        if first in table:
            table[first].score += first_score
            if second is None:
                table[first].had_bye = True
            else:
                table[first].opponents.add(second)
                table[first].firsts += 1
        if second is not None and second in table:
            table[second].score += second_score
            table[second].opponents.add(first)
            table[second].seconds += 1
    return [table[p] for p in players]
