"""A league season's page (issue 34, ``league export``): the standings, every round with its games and results,
links to each game's record, and the ratings over the season as a chart, in one self-contained HTML file.

The links name the record files the bot posts when each game ends (``game-N-record.html``): kept in the same folder
as this page, they open from it. Nothing is fetched: following a link is the reader's choice.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from render.record.charts import svg
from render.record.data import Chart
from render.record.page import POLICY, asset


@dataclass(frozen=True)
class Standing:
    """One line of the standings, as shown."""

    rank: int
    player: str
    score: float
    wins: int
    draws: int
    losses: int
    byes: int
    tiebreaks: tuple[float, float]
    withdrawn: bool = False


@dataclass(frozen=True)
class Played:
    """One game of a round: the two players (the second empty for a bye), its result in words, its game number."""

    first: str
    second: str
    result: str
    game: int | None


@dataclass(frozen=True)
class Round:
    """One round: its number, game and scenario, its games."""

    number: int
    system: str
    scenario: str
    games: tuple[Played, ...]


@dataclass(frozen=True)
class Season:
    """Everything a season's page shows."""

    name: str
    status: str
    tiebreak_names: tuple[str, str]
    standings: tuple[Standing, ...]
    rounds: tuple[Round, ...]
    charts: tuple[Chart, ...] = ()


def record_file(game: int) -> str:
    """The name of a game's record file, as the bot posts it at the end."""
    return f"game-{game}-record.html"


def _score(value: float) -> str:
    return f"{value:g}"


def season_page(season: Season) -> str:
    """The season's whole page, as HTML text."""
    first, second = season.tiebreak_names
    table = "".join(
        f"<tr{' class=withdrawn' if s.withdrawn else ''}><td>{s.rank}</td><td>{escape(s.player)}</td>"
        f"<td>{_score(s.score)}</td><td>{s.wins}</td><td>{s.draws}</td><td>{s.losses}</td><td>{s.byes}</td>"
        f"<td>{_score(s.tiebreaks[0])}</td><td>{_score(s.tiebreaks[1])}</td></tr>"
        for s in season.standings
    )
    rounds = "".join(
        f"<h3>Round {r.number}: {escape(r.system)}, {escape(r.scenario)}</h3><ul>"
        + "".join(
            f"<li>{escape(g.first)}"
            + (f" &ndash; {escape(g.second)}" if g.second else " (bye)")
            + f": {escape(g.result) or 'being played'}"
            + (f' &middot; <a href="{record_file(g.game)}">record of game #{g.game}</a>' if g.game else "")
            + "</li>"
            for g in r.games
        )
        + "</ul>"
        for r in season.rounds
    )
    charts = "".join(svg(c) for c in season.charts)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(season.name)}</title>
<style>{asset("record.css")}
table.standings {{ border-collapse: collapse; background: #fff; }}
table.standings td, table.standings th {{ border: 1px solid #ddd; padding: .2rem .6rem; text-align: right; }}
table.standings td:nth-child(2) {{ text-align: left; }}
tr.withdrawn {{ color: #999; }}</style>
</head><body>
<header><h1>{escape(season.name)}</h1><p class="meta">{escape(season.status)}</p></header>
<section id="standings"><h2>Standings</h2>
<table class="standings"><tr><th>#</th><th>Player</th><th>Score</th><th>W</th><th>D</th><th>L</th><th>Byes</th>
<th>{escape(first)}</th><th>{escape(second)}</th></tr>{table}</table></section>
<section id="charts"><h2>Ratings over the season</h2><div class="charts">{charts}</div></section>
<section id="rounds"><h2>Rounds</h2>{rounds}
<p class="how">Each game's record is the file the bot posted in its channel when it ended; keep them beside this
page and its links open them.</p></section>
</body></html>
"""
