"""Glicko-2 against Glickman's worked example, tiebreaks against a worked crosstable, records, reliability."""

from __future__ import annotations

import math
import random

import pytest

from bot.leagues.glicko2 import Game, Rating, rate
from bot.leagues.records import PERIOD, RatedGame, ratings, reliability, side_records
from bot.leagues.sides import MOST, SideBalance, side_balances
from bot.leagues.standings import ROUND_ROBIN, SWISS, Outcome, standings
from bot.leagues.tiebreaks import Game as Played
from bot.leagues.tiebreaks import buchholz, head_to_head, sonneborn_berger


def test_glicko2_reproduces_the_papers_worked_example() -> None:
    player = Rating(1500, 200, 0.06)
    games = [Game(Rating(1400, 30), 1), Game(Rating(1550, 100), 0), Game(Rating(1700, 300), 0)]
    after = rate(player, games, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_glicko2_a_period_without_games_only_widens_the_deviation() -> None:
    after = rate(Rating(1500, 200, 0.06), [])
    assert after.rating == 1500 and after.deviation == pytest.approx(200.2714, abs=0.001)


def test_ratings_rate_each_week_together_and_a_bye_or_abandon_is_not_rated() -> None:
    week = PERIOD
    games = [
        RatedGame(1, 2, 1, 0, "victory", 10.0),
        RatedGame(3, 4, 0, 0, "abandoned", 20.0),
        RatedGame(1, 3, 0.5, 0.5, "resignation", week + 5),
    ]
    rated = ratings(games)
    assert set(rated) == {1, 2, 3}
    assert rated[1].rating > 1500 > rated[2].rating
    first_week = rate(Rating(), [Game(Rating(), 1)])
    assert rated[1] == rate(first_week, [Game(Rating(), 0.5)])


# A worked Swiss crosstable (4 players, 2 rounds):
#   round 1: 1 beats 2, 3 draws 4;  round 2: 1 draws 3, 4 beats 2.
# Scores: 1: 1.5, 2: 0, 3: 1, 4: 1.5.
# Buchholz: 1: 0 + 1 = 1; 2: 1.5 + 1.5 = 3; 3: 1.5 + 1.5 = 3; 4: 1 + 0 = 1.
# Sonneborn-Berger: 1: 0 (beat 2) + 1/2 x 1 (drew 3) = 0.5; 3: 1/2 x 1.5 + 1/2 x 1.5 = 1.5;
#   4: 1/2 x 1 (drew 3) + 0 (beat 2) = 0.5; 2: 0.
CROSSTABLE = [Played(1, 2, 1, 0), Played(3, 4, 0.5, 0.5), Played(1, 3, 0.5, 0.5), Played(4, 2, 1, 0)]
SCORES = {1: 1.5, 2: 0.0, 3: 1.0, 4: 1.5}


def test_buchholz_of_the_worked_crosstable() -> None:
    assert [buchholz(p, CROSSTABLE, SCORES) for p in (1, 2, 3, 4)] == [1, 3, 3, 1]


def test_sonneborn_berger_of_the_worked_crosstable() -> None:
    assert [sonneborn_berger(p, CROSSTABLE, SCORES) for p in (1, 2, 3, 4)] == [0.5, 0, 1.5, 0.5]


def test_swiss_standings_rank_by_score_then_buchholz_then_sonneborn_berger() -> None:
    outcomes = [Outcome(g.first, g.second, g.first_score, g.second_score) for g in CROSSTABLE]
    rows = standings([1, 2, 3, 4], outcomes, SWISS)
    # 1 and 4 have 1.5 and Buchholz 1 each, and S-B 0.5 each: they share first place.
    assert [(r.rank, r.player, r.score, r.tiebreaks) for r in rows] == [
        (1, 1, 1.5, (1, 0.5)),
        (1, 4, 1.5, (1, 0.5)),
        (3, 3, 1.0, (3, 1.5)),
        (4, 2, 0.0, (3, 0.0)),
    ]


def test_round_robin_standings_break_ties_head_to_head_before_sonneborn_berger() -> None:
    # A three-player round robin: 1 beats 2, 2 beats 3, 3 beats 1 (all on 1 point), then a fourth player
    # loses to all but beats nobody; head-to-head among 1, 2, 3 is 1 each; S-B decides: each beat one
    # opponent on 1 point, so they stay level, except that 4 (0 points) adds nothing.
    games = [Played(1, 2, 1, 0), Played(2, 3, 1, 0), Played(3, 1, 1, 0), Played(1, 4, 1, 0)]
    assert head_to_head(1, [1, 2, 3], games) == 1
    outcomes = [Outcome(g.first, g.second, g.first_score, g.second_score) for g in games]
    outcomes.append(Outcome(2, 4, 0.5, 0.5))
    rows = standings([1, 2, 3, 4], outcomes, ROUND_ROBIN)
    # 1: 2 points, 2: 1.5, 3: 1, 4: 0.5; no tie: score alone.
    assert [r.player for r in rows] == [1, 2, 3, 4]
    tied = [Outcome(1, 2, 1, 0), Outcome(3, 4, 1, 0), Outcome(2, 3, 1, 0), Outcome(4, 1, 0, 1)]
    tied += [Outcome(3, 1, 1, 0), Outcome(2, 4, 1, 0)]
    # 1: beat 2, 4 (2 pts); 2: beat 3, 4 (2); 3: beat 4, 1 (2); 4: 0. Head-to-head among 1, 2, 3: 1 each.
    # S-B: each beat one 2-point player and the 0-point player: 2 each: a shared first place.
    rows = standings([1, 2, 3, 4], tied, ROUND_ROBIN)
    assert [(r.rank, r.score) for r in rows] == [(1, 2), (1, 2), (1, 2), (4, 0)]
    h2h = [Outcome(1, 2, 1, 0), Outcome(3, 4, 0.5, 0.5), Outcome(1, 3, 0, 1), Outcome(2, 4, 1, 0)]
    h2h += [Outcome(1, 4, 1, 0), Outcome(2, 3, 0.5, 0.5)]
    # 1: 2 points (beat 2 and 4), 3: 2 points (drew 4 and 2, beat 1): tied; 1 lost to 3 head-to-head.
    rows = standings([1, 2, 3, 4], h2h, ROUND_ROBIN)
    assert [r.player for r in rows[:2]] == [3, 1] and rows[0].tiebreaks[0] == 1 and rows[1].tiebreaks[0] == 0


def test_byes_score_but_do_not_count_in_tiebreaks() -> None:
    rows = standings([1, 2, 3], [Outcome(1, 2, 1, 0), Outcome(3, None, 1, None)], SWISS)
    three = next(r for r in rows if r.player == 3)
    assert (three.score, three.byes, three.played, three.tiebreaks) == (1.0, 1, 0, (0.0, 0.0))


def test_records_are_split_by_side_and_reliability_counts_forfeits_and_lateness() -> None:
    games = [
        RatedGame(1, 2, 1, 0, "victory", 10, deadline=100),
        RatedGame(2, 1, 1, 0, "resignation", 20, deadline=100),
        RatedGame(1, 3, 0, 1, "forfeit", 30, deadline=25),
        RatedGame(3, 1, 0.5, 0.5, "adjudicated", 400, deadline=300),
    ]
    first, second = side_records(1, games)
    assert (str(first), str(second)) == ("1-0-1", "0-1-1")
    figure = reliability(1, games)
    assert (figure.games, figure.on_time, figure.resigned, figure.forfeited) == (4, 2, 1, 1)
    assert figure.figure == 0.5


def test_unplayed_games_count_in_the_score_only_not_in_the_record_or_tiebreaks() -> None:
    outcomes = [
        Outcome(1, 2, 1, 0, "victory"),
        Outcome(3, 4, 0, 0, "abandoned"),
        Outcome(1, 3, 1, 0, "walkover"),
        Outcome(2, 4, 0, 0, "double-forfeit"),
    ]
    rows = {r.player: r for r in standings([1, 2, 3, 4], outcomes, SWISS, withdrawn={4})}
    assert (rows[1].score, rows[1].wins, rows[1].unplayed, rows[1].tiebreaks) == (2.0, 1, 1, (0.0, 0.0))
    assert (rows[3].wins, rows[3].losses, rows[3].unplayed, rows[3].tiebreaks) == (0, 0, 2, (0.0, 0.0))
    assert (rows[2].losses, rows[2].unplayed) == (1, 1)
    assert rows[4].withdrawn and not rows[1].withdrawn


def test_unplayed_games_are_not_rated_nor_in_the_side_record_or_reliability() -> None:
    games = [
        RatedGame(1, 2, 1, 0, "victory", 10, deadline=100),
        RatedGame(2, 3, 0, 0, "double-forfeit", 20),
        RatedGame(3, 1, 0, 1, "walkover", 20),
        RatedGame(1, 3, 0, 0, "abandoned", 500, deadline=100),
    ]
    rated = ratings(games)
    assert set(rated) == {1, 2}  # 3 played no game out
    assert rated == ratings(games[:1])
    assert str(side_records(1, games)[0]) == "1-0-0" and str(side_records(1, games)[1]) == "0-0-0"
    one, three = reliability(1, games), reliability(3, games)
    assert (one.games, one.on_time) == (1, 1) and three.games == 0 and three.figure is None


def test_side_balance_is_shrunk_toward_even_and_worth_its_figure_in_rating_points() -> None:
    assert side_balances([]) == {}
    (balance,) = side_balances([("s", 1.0)] * 14 + [("s", 0.0)] * 6).values()
    assert balance.share == pytest.approx(19 / 30)
    assert balance.advantage == pytest.approx(400 * math.log10(19 / 11))
    assert round(balance.advantage) == 95  # the figure docs/leagues.md quotes
    even = SideBalance(8, 4.0)
    assert (even.share, even.advantage) == (0.5, 0.0)
    assert SideBalance(1000, 1000.0).advantage == MOST  # never beyond the bound


def test_side_balance_a_win_on_the_favoured_side_earns_less_than_on_the_other() -> None:
    favoured = [RatedGame(1, 2, 1, 0, "victory", 10.0, scenario="lopsided")]
    underdog = [RatedGame(2, 1, 0, 1, "victory", 10.0, scenario="lopsided")]
    edge = {"lopsided": 100.0}
    assert ratings(favoured, advantage=edge)[1].rating < ratings(favoured)[1].rating
    assert ratings(underdog, advantage=edge)[1].rating > ratings(underdog)[1].rating
    # Without an estimate the two are the same game.
    assert ratings(favoured)[1].rating == pytest.approx(ratings(underdog)[1].rating)


def test_unplayed_games_never_change_ratings_records_reliability_or_tiebreaks() -> None:
    """A property over random seasons: adding pairings not played out (walkovers, double forfeits, abandoned
    games) never changes a rating, a side record, a reliability figure or a win, draw or loss: they are
    counted apart, as unplayed."""
    rng = random.Random(29)
    for _ in range(200):
        players = list(range(1, rng.randint(3, 9)))
        played = []
        for index in range(rng.randint(1, 20)):
            first, second = rng.sample(players, 2)
            score = rng.choice((1.0, 0.5, 0.0))
            how = rng.choice(("victory", "resignation", "forfeit", "adjudicated", "corrected"))
            played.append(RatedGame(first, second, score, 1 - score, how, 1000.0 * index, deadline=1500.0 * index))
        unplayed = []
        for index in range(rng.randint(1, 6)):
            first, second = rng.sample(players, 2)
            how, scores = rng.choice((("walkover", (1.0, 0.0)), ("double-forfeit", (0.0, 0.0)), ("abandoned", (0, 0))))
            unplayed.append(RatedGame(first, second, *scores, how, 700.0 * index))
        mixed = sorted(played + unplayed, key=lambda g: g.ended)
        assert ratings(mixed, 30_000.0) == ratings(played, 30_000.0)
        for player in players:
            assert side_records(player, mixed) == side_records(player, played)
            assert reliability(player, mixed) == reliability(player, played)
        rows = {r.player: r for r in standings(players, [_outcome(g) for g in mixed], SWISS)}
        alone = {r.player: r for r in standings(players, [_outcome(g) for g in played], SWISS)}
        for player in players:
            assert (rows[player].wins, rows[player].draws, rows[player].losses) == (
                alone[player].wins, alone[player].draws, alone[player].losses
            )  # fmt: skip
            assert rows[player].played + rows[player].unplayed == alone[player].played + sum(
                player in (g.first, g.second) for g in unplayed
            )


def _outcome(game: RatedGame) -> Outcome:
    return Outcome(game.first, game.second, game.first_score, game.second_score, game.how)
