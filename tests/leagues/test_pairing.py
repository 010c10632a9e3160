"""Pairing properties over many random seasons (LEAGUE_SEASONS seasons each; 200 by default)."""

from __future__ import annotations

import math
import os
import random
from collections import Counter

import pytest

from bot.leagues.pairing import PairingError, Standing, round_robin, standings_for_pairing, swiss_round

SEASONS = int(os.environ.get("LEAGUE_SEASONS", "200"))


def play(rng: random.Random, games: tuple[tuple[int, int], ...]) -> list[tuple[int, int | None, float, float]]:
    history: list[tuple[int, int | None, float, float]] = []
    for first, second in games:
        score = rng.choice((1.0, 0.5, 0.0))
        history.append((first, second, score, 1.0 - score))
    return history


@pytest.mark.parametrize("both_sides", [False, True])
def test_round_robin_pairs_everybody_once_or_twice_with_sides_swapped(both_sides: bool) -> None:
    rng = random.Random(1)
    for _ in range(SEASONS):
        players = rng.sample(range(1, 10_000), rng.randint(2, 17))
        rounds = round_robin(players, both_sides)
        cycle = len(players) - 1 + len(players) % 2
        assert len(rounds) == cycle * (2 if both_sides else 1)
        met = Counter(frozenset(game) for r in rounds for game in r.games)
        assert len(met) == len(players) * (len(players) - 1) // 2  # every pair met
        assert set(met.values()) == {2 if both_sides else 1}
        for r in rounds:  # nobody plays twice in a round
            seen = [p for game in r.games for p in game] + ([r.bye] if r.bye is not None else [])
            assert sorted(seen) == sorted(players)
        byes = Counter(r.bye for r in rounds if r.bye is not None)
        assert set(byes.values()) <= {2 if both_sides else 1}
        balance = Counter[int]()
        for r in rounds:
            for first, second in r.games:
                balance[first] += 1
                balance[second] -= 1
        assert all(abs(b) <= (0 if both_sides else 1) for b in balance.values())
        if both_sides:
            sides = Counter((first, second) for r in rounds for first, second in r.games)
            assert set(sides.values()) == {1}  # each pair once each way round


def test_swiss_never_rematches_keeps_sides_within_one_and_never_gives_two_byes() -> None:
    rng = random.Random(2)
    for _ in range(SEASONS):
        players = rng.sample(range(1, 10_000), rng.randint(2, 24))
        ratings = {p: float(rng.randint(1100, 1900)) for p in players}
        prefers = {p: rng.choice((None, 0, 1)) for p in players}
        total = rng.randint(1, math.ceil(len(players) / 2))
        history: list[tuple[int, int | None, float, float]] = []
        for number in range(total):
            field = standings_for_pairing(players, ratings, prefers, history)
            pairing = swiss_round(field, total - number)
            history += play(rng, pairing.games)
            if pairing.bye is not None:
                history.append((pairing.bye, None, 1.0, 0.0))
            after = standings_for_pairing(players, ratings, prefers, history)
            assert all(abs(s.balance) <= 1 for s in after), "a side balance beyond one"
        met = Counter(frozenset((a, b)) for a, b, _, _ in history if b is not None)
        assert set(met.values()) <= {1}, "a rematch"
        byes = Counter(a for a, b, _, _ in history if b is None)
        assert set(byes.values()) <= {1}, "a second bye"


def test_swiss_pairs_by_score_then_rating() -> None:
    field = [
        Standing(1, score=2, rating=1400),
        Standing(2, score=2, rating=1600),
        Standing(3, score=1, rating=1900),
        Standing(4, score=1, rating=1500),
    ]
    pairs = {frozenset(g) for g in swiss_round(field).games}
    assert pairs == {frozenset({2, 1}), frozenset({3, 4})}


def test_swiss_bye_goes_to_the_lowest_placed_player_without_one() -> None:
    field = [Standing(1, score=2), Standing(2, score=1), Standing(3, score=1, had_bye=True)]
    assert swiss_round(field).bye == 2


def test_swiss_side_goes_to_the_player_who_had_it_less_then_to_a_preference() -> None:
    field = [Standing(1, score=1, firsts=1), Standing(2, score=1, seconds=1)]
    assert swiss_round(field).games == ((2, 1),)
    field = [Standing(1, score=1), Standing(2, score=0, prefers=0)]
    assert swiss_round(field).games == ((2, 1),)


def test_swiss_refuses_when_only_rematches_are_left() -> None:
    field = [Standing(1, opponents={2}), Standing(2, opponents={1})]
    with pytest.raises(PairingError):
        swiss_round(field)


# FIDE Handbook C.05, Annex 1 (Berger tables for round-robin tournaments): the published tables for 3-4, 5-6,
# 7-8 and 9-10 players, round by round, the first-seat (white) player first.
FIDE_BERGER = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: [
        "1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6", "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7", "8-7 1-6 2-5 3-4", "4-8 5-3 6-2 7-1",
    ],
    10: [
        "1-10 2-9 3-8 4-7 5-6", "10-6 7-5 8-4 9-3 1-2", "2-10 3-1 4-9 5-8 6-7", "10-7 8-6 9-5 1-4 2-3",
        "3-10 4-2 5-1 6-9 7-8", "10-8 9-7 1-6 2-5 3-4", "4-10 5-3 6-2 7-1 8-9", "10-9 1-8 2-7 3-6 4-5",
        "5-10 6-4 7-3 8-2 9-1",
    ],
}  # fmt: skip


@pytest.mark.parametrize("size", sorted(FIDE_BERGER))
def test_round_robin_berger_tables_are_fides_published_tables(size: int) -> None:
    published = [{tuple(int(n) for n in game.split("-")) for game in line.split()} for line in FIDE_BERGER[size]]
    assert [set(r.games) for r in round_robin(list(range(1, size + 1)))] == published
    # An odd field plays the next even table, the last number being the bye.
    odd = round_robin(list(range(1, size)))
    for r, games in zip(odd, published, strict=True):
        bye = next(a if b == size else b for a, b in games if size in (a, b))
        assert r.bye == bye and set(r.games) == {g for g in games if size not in g}


def test_round_robin_berger_sides_alternate_never_three_in_a_row() -> None:
    for size in range(2, 31):
        for r_index, rounds in enumerate((round_robin(list(range(size))), round_robin(list(range(size)), True))):
            cycle = rounds[: len(rounds) // (r_index + 1)]
            for player in range(size):
                sides = [g.index(player) for r in cycle for g in r.games if player in g]
                runs = [sides[i : i + 3] for i in range(len(sides) - 2)]
                assert all(len(set(run)) > 1 for run in runs), f"{player} of {size} plays a side three times running"
