"""What a league's results say: standings, ratings (each scenario's side balance in them), side balances,
a player's card, the export. Everything is computed from the stored results each time it is asked for.
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Sequence
from dataclasses import dataclass

from bot.leagues.core import LeagueCore
from bot.leagues.glicko2 import Rating
from bot.leagues.records import RATED_WAYS, RatedGame, Reliability, SideRecord, ratings, reliability, side_records
from bot.leagues.sides import SideBalance, side_balances
from bot.leagues.standings import TIEBREAK_NAMES, Outcome, Row, standings
from bot.leagues.store import LeagueRow
from render.record.data import Chart, Series
from render.record.season import Played, Round, Season, Standing


@dataclass(frozen=True)
class PlayerCard:
    """A player as the leagues of one server know him, per game system."""

    user_id: int
    systems: dict[str, tuple[Rating | None, tuple[str, str], tuple[SideRecord, SideRecord]]]
    """System id to (rating, the two seats' names, the record on each)."""
    reliability: Reliability


def _balances(games: Sequence[RatedGame]) -> dict[str, SideBalance]:
    return side_balances((g.scenario, g.first_score) for g in games if g.how in RATED_WAYS)


def _advantages(games: Sequence[RatedGame]) -> dict[str, float]:
    """What the first seat is worth in each scenario of these games (of one system), in rating points."""
    return {scenario: balance.advantage for scenario, balance in _balances(games).items()}


class LeagueReading(LeagueCore):
    """Standings, ratings and players (a part of :class:`~bot.leagues.service.LeagueService`)."""

    async def standings(self, channel: int) -> tuple[LeagueRow, list[Row], dict[int, str]]:
        """The league's standings, and the players' names."""
        league = await self.league(channel)
        entrants = await self.store.entrants(league.id)
        outcomes = [
            Outcome(p.first, p.second, p.first_score, p.second_score, p.how)
            for p in await self.store.pairings(league.id)
        ]
        withdrawn = {e.user_id for e in entrants if e.withdrawn}
        rows = standings([e.user_id for e in entrants], outcomes, league.format, withdrawn)
        return league, rows, {e.user_id: e.name for e in entrants}

    async def rated_games(self, guild: int | None) -> list[tuple[str, RatedGame]]:
        """Every decided league game of a server with an opponent, with its game system."""
        return [
            (
                system,
                RatedGame(
                    p.first,
                    p.second,
                    p.first_score or 0.0,
                    p.second_score or 0.0,
                    p.how or "",
                    p.ended or 0.0,
                    p.deadline,
                    scenario,
                ),
            )
            for system, scenario, p in await self.store.guild_pairings(guild)
            if p.second is not None
        ]

    async def ratings(self, guild: int | None, system_id: str) -> dict[int, Rating]:
        """The Glicko-2 ratings of a server's players in one game system, each scenario's side balance in the
        expected score."""
        games = [g for s, g in await self.rated_games(guild) if s == system_id]
        return ratings(games, self.clock(), _advantages(games))

    async def side_balances(self, guild: int | None) -> dict[str, dict[str, SideBalance]]:
        """Per game system, each scenario's side balance over the server's rated league games."""
        by_system: dict[str, list[RatedGame]] = {}
        for system, game in await self.rated_games(guild):
            by_system.setdefault(system, []).append(game)
        return {system: _balances(games) for system, games in sorted(by_system.items())}

    async def player(self, guild: int | None, user_id: int) -> PlayerCard:
        """A player's ratings, side records and reliability over a server's leagues."""
        games = await self.rated_games(guild)
        by_system: dict[str, list[RatedGame]] = {}
        for system, game in games:
            by_system.setdefault(system, []).append(game)
        card: dict[str, tuple[Rating | None, tuple[str, str], tuple[SideRecord, SideRecord]]] = {}
        for system, played in by_system.items():
            if not any(user_id in (g.first, g.second) for g in played):
                continue
            rating = ratings(played, self.clock(), _advantages(played)).get(user_id)
            card[system] = (rating, self.seats(system), side_records(user_id, played))
        return PlayerCard(user_id, card, reliability(user_id, [g for _, g in games]))

    async def season(self, channel: int) -> Season:
        """The league's season page's content (issue 34): standings, rounds with their games and results, and each
        game system's ratings of the league's players after each round (over the server's rated games up to the
        round's last result, as ``league ratings`` rates them)."""
        league, rows, names = await self.standings(channel)
        rounds = sorted(await self.store.rounds(league.id), key=lambda r: r.number)
        pairings = await self.store.pairings(league.id)
        played = tuple(
            Round(
                r.number,
                self._system_name(r.system),
                r.scenario,
                tuple(
                    Played(
                        names.get(p.first, str(p.first)),
                        names.get(p.second, str(p.second)) if p.second is not None else "",
                        _result(p.first_score, p.second_score, p.how),
                        p.game,
                    )
                    for p in pairings
                    if p.round == r.number
                ),
            )
            for r in rounds
        )
        standing = tuple(
            Standing(
                row.rank, names.get(row.player, str(row.player)), row.score, row.wins, row.draws, row.losses,
                row.byes, row.tiebreaks, row.withdrawn,
            )
            for row in rows
        )  # fmt: skip
        charts: list[Chart] = []
        server = await self.rated_games(league.guild)
        players = sorted(names, key=lambda u: names[u])
        for system in sorted({r.system for r in rounds}):
            games = [g for s, g in server if s == system]
            advantages = _advantages(games)
            series: dict[int, list[tuple[float, float]]] = {u: [] for u in players}
            for r in rounds:
                ends = [p.ended for p in pairings if p.round <= r.number and p.ended]
                if r.system != system or not ends:
                    continue
                until = max(ends)
                rated = ratings([g for g in games if g.ended <= until], until, advantages)
                for user in players:
                    if user in rated:
                        series[user].append((float(r.number), rated[user].rating))
            charts.append(
                Chart(
                    f"Ratings: {self._system_name(system)}",
                    "round",
                    "rating",
                    tuple(Series(names[u], tuple(points)) for u, points in series.items() if points),
                    zero=False,
                    note="Each player's Glicko-2 rating after the round's last result, over every rated game of the "
                    "server in this game system up to then (each scenario's side balance counted).",
                )
            )
        first, second = TIEBREAK_NAMES[league.format]
        status = {"registration": "registration open", "finished": "final", "cancelled": "cancelled"}.get(
            league.status, f"after {sum(1 for r in played if r.games)} round(s)"
        )
        return Season(league.name, status, (first, second), standing, played, tuple(charts))

    def _system_name(self, system_id: str) -> str:
        """A game system's name (its id when it is no longer registered)."""
        try:
            return self.games.system(system_id).name
        except Exception:  # a league of a system since removed: its id still says which
            return system_id

    async def export(self, channel: int) -> tuple[LeagueRow, str, str]:
        """The standings and every pairing's result, as two CSV texts."""
        league, rows, names = await self.standings(channel)
        first_name, second_name = TIEBREAK_NAMES[league.format]
        table = io.StringIO()
        writer = csv.writer(table)
        writer.writerow(
            [
                "rank",
                "player",
                "user_id",
                "score",
                "wins",
                "draws",
                "losses",
                "byes",
                first_name,
                second_name,
                "unplayed",
                "withdrawn",
            ]
        )
        for row in rows:
            writer.writerow(
                [
                    row.rank,
                    names.get(row.player, ""),
                    row.player,
                    row.score,
                    row.wins,
                    row.draws,
                    row.losses,
                    row.byes,
                    row.tiebreaks[0],
                    row.tiebreaks[1],
                    row.unplayed,
                    int(row.withdrawn),
                ]
            )
        results = io.StringIO()
        writer = csv.writer(results)
        writer.writerow(
            [
                "round",
                "system",
                "scenario",
                "first_seat",
                "first_player",
                "second_seat",
                "second_player",
                "first_score",
                "second_score",
                "how",
                "game",
                "ended",
            ]
        )
        rounds = {r.number: r for r in await self.store.rounds(league.id)}
        for p in await self.store.pairings(league.id):
            round_ = rounds[p.round]
            seats = self.seats(round_.system)
            ended = time.strftime("%Y-%m-%d %H:%M", time.gmtime(p.ended)) if p.ended else ""
            writer.writerow(
                [
                    p.round,
                    round_.system,
                    round_.scenario,
                    seats[0],
                    names.get(p.first, p.first),
                    seats[1] if p.second is not None else "",
                    names.get(p.second, "") if p.second else "",
                    p.first_score,
                    p.second_score,
                    p.how or "",
                    p.game or "",
                    ended,
                ]
            )
        return league, table.getvalue(), results.getvalue()


def _result(first: float | None, second: float | None, how: str | None) -> str:
    """A pairing's result in words: the scores and how it was decided (empty while it is played)."""
    if first is None or second is None:
        return f"{how}" if how else ""
    return f"{first:g}-{second:g}" + (f" ({how})" if how else "")
