"""Whole league seasons through the real discord.py command tree against the fake Discord.

Duel (tests/bot/doubles.py) stands in for any two-seat system. Round 1: one game is won by play, the other
by a resignation; round 2 is paired by score with no rematch and balanced sides, the bot restarts mid-round,
one game is forfeited by the organiser and the other won by play after the restart; a result is corrected.
A steered season: a league cancelled mid-round, a Swiss whose rounds are edited to fit the field, a player
added by his name, a withdrawal that forfeits the running game, a scheduled round started by the deadline loop
with a late game carried over, and the season ended early.
"""

from __future__ import annotations

import csv
import io
import re
import time
from pathlib import Path
from typing import Any

from bot.leagues.service import LeagueService
from bot.service.game_service import DAY
from tests.bot.discord_play import close_fake, open_fake
from tests.bot.fakediscord import FakeDiscord, FakeUser, Sent, answers, posts

ANN = FakeUser(11, "ann")
BOB = FakeUser(22, "bob")
EVE = FakeUser(33, "eve")
DAN = FakeUser(44, "dan")
ORGANISER = FakeUser(99, "org", moderator=True)
LEAGUE = 900


def answer(sent: list[Sent]) -> str:
    """The private answer; a refusal's reason as written (the bot capitalises its first letter)."""
    text = answers(sent)[-1].content
    return "Refused: " + text[9].lower() + text[10:] if text.startswith("Refused: ") else text


def threads(sent: list[Sent]) -> dict[frozenset[int], int]:
    """The thread of each pairing opened in ``sent``: the players pinged in its first post."""
    opened = [s.payload["thread"] for s in sent if s.kind == "thread" and s.channel == LEAGUE]
    found = {}
    for thread in opened:
        first = next(p for p in posts(sent, thread) if "round" in p.content)
        found[frozenset(first.pings)] = thread
    assert len(found) == len(opened)
    return found


async def win_by_play(fake: FakeDiscord, thread: int, winner: FakeUser, loser: FakeUser) -> list[Sent]:
    """Both bid (the winner higher, so he moves first), then the winner advances twice to 6 of 5 points."""
    await fake.command(winner, thread, "act", verb="bid", args="amount=3")
    await fake.command(loser, thread, "act", verb="bid", args="amount=1")
    await fake.command(winner, thread, "act", verb="advance", args="steps=3")
    return await fake.command(winner, thread, "act", verb="advance", args="steps=3")


async def game_of(fake: FakeDiscord, thread: int) -> int:
    return (await fake.bot.service.table(thread, live=False)).game.id


async def test_a_four_player_swiss_season(db_path: Path) -> None:
    fake = await open_fake(db_path)
    try:
        # Registration: only an organiser creates; players join with a side or none.
        refused = await fake.command(ANN, LEAGUE, "league create", name="Autumn", scenario="short", system="duel")
        assert "only an organiser" in answer(refused)
        sent = await fake.command(
            ORGANISER, LEAGUE, "league create", name="Autumn", scenario="short", system="duel",
            rounds=2, round_days=7.0, days_per_move=2.0, reserve_days=3.0,
        )  # fmt: skip
        assert "League Autumn** opens" in posts(sent, LEAGUE)[0].content
        assert "side red, blue or none" in posts(sent, LEAGUE)[0].content
        assert "sides are red and blue" in answer(await fake.command(ANN, LEAGUE, "league join", side="green"))
        await fake.command(ANN, LEAGUE, "league join", side="red")
        for player in (BOB, EVE, DAN):
            await fake.command(player, LEAGUE, "league join")
        refused = await fake.command(ORGANISER, LEAGUE, "league round")
        assert "registration is still open" in answer(refused)
        sent = await fake.command(ORGANISER, LEAGUE, "league close")
        assert "closed with 4 players; 2 rounds" in posts(sent, LEAGUE)[0].content
        assert "registration is closed" in answer(await fake.command(ORGANISER, LEAGUE, "league join"))

        # Round 1: by rating (none yet), then id: ann v bob, eve v dan; ann prefers red.
        sent = await fake.command(ORGANISER, LEAGUE, "league round")
        pairing = posts(sent, LEAGUE)[0].content
        assert "round 1" in pairing and "<@11> (red) v <@22> (blue)" in pairing
        assert "<@33> (red) v <@44> (blue)" in pairing
        round1 = threads(sent)
        ann_bob, eve_dan = round1[frozenset({11, 22})], round1[frozenset({33, 44})]
        assert fake.threads[ann_bob] == LEAGUE
        welcome = next(p for p in posts(sent, ann_bob) if "round 1" in p.content)
        assert welcome.pings == {ANN.id, BOB.id} and "Deadline" in welcome.content
        assert {s.user for s in sent if s.kind == "dm"} == {11, 22, 33, 44}  # each player's secret bid prompt
        table = await fake.bot.service.table(ann_bob)
        assert (table.user_of("red"), table.user_of("blue")) == (ANN.id, BOB.id)
        assert table.game.time_control == {"days_per_move": 2.0, "reserve_days": 3.0}

        # ann wins by play; the next round waits for eve v dan.
        sent = await win_by_play(fake, ann_bob, ANN, BOB)
        assert any("Game over" in p.content for p in posts(sent, ann_bob))
        refused = await fake.command(ORGANISER, LEAGUE, "league round")
        assert "round 1 is not over" in answer(refused) and f"#{await game_of(fake, eve_dan)}" in answer(refused)
        confirm = answers(await fake.command(DAN, eve_dan, "game resign"))[-1]
        sent = await fake.click(DAN, confirm, "Confirm")
        assert any("blue resigned: red wins" in p.content for p in posts(sent, eve_dan))

        sent = await fake.command(EVE, LEAGUE, "league standings")
        table_text = posts(sent)[0].content
        assert "standings after round 1 of 2" in table_text
        assert table_text.index("ann") < table_text.index("bob") and table_text.index("eve") < table_text.index("dan")

        # Round 2: ann and eve lead but both played red: no rematch, sides within one: dan v ann, bob v eve.
        sent = await fake.command(ORGANISER, LEAGUE, "league round")
        pairing = posts(sent, LEAGUE)[0].content
        assert "<@44> (red) v <@11> (blue)" in pairing and "<@22> (red) v <@33> (blue)" in pairing
        round2 = threads(sent)
        dan_ann, bob_eve = round2[frozenset({11, 44})], round2[frozenset({22, 33})]
        await fake.command(BOB, bob_eve, "act", verb="bid", args="amount=3")
        known_threads = dict(fake.threads)
        assert not [s.content for s in fake.sent if "went wrong" in s.content]
    finally:
        await close_fake(fake)

    # The bot restarts mid-round: everything is read back from the store.
    fake = await open_fake(db_path)
    fake.threads.update(known_threads)
    try:
        await fake.command(EVE, bob_eve, "act", verb="bid", args="amount=1")
        await fake.command(BOB, bob_eve, "act", verb="advance", args="steps=3")
        sent = await fake.command(BOB, bob_eve, "act", verb="advance", args="steps=3")
        assert any("red reached 5 points" in p.content for p in posts(sent, bob_eve))

        late = await fake.command(ORGANISER, LEAGUE, "league late")
        assert "No game of Autumn is past its deadline" in answer(late)
        # A week later the game is late: the organiser is told once in the league channel, and by `league late`.
        service = fake.bot.service
        service.clock = lambda: time.time() + 8 * DAY
        deadlines: Any = fake.bot.get_cog("LeagueDeadlines")  # loaded as an extension: not this module's class
        assert type(deadlines).__name__ == "LeagueDeadlines"
        start = len(fake.sent)
        assert await deadlines.tell_late() == 1 and await deadlines.tell_late() == 0
        told = posts(fake.sent[start:], LEAGUE)[0]
        assert told.pings == {ORGANISER.id} and f"#{await game_of(fake, dan_ann)}" in told.content
        assert "past their deadline" in answer(await fake.command(ORGANISER, LEAGUE, "league late"))
        game = await game_of(fake, dan_ann)
        assert "only an organiser" in answer(await fake.command(ANN, LEAGUE, "league forfeit", player=DAN, game=game))
        sent = await fake.command(ORGANISER, LEAGUE, "league forfeit", player=DAN, game=game, reason="no show")
        assert any("Game over" in p.content and "forfeit" in p.content for p in posts(sent, dan_ann))
        again = await fake.command(ORGANISER, LEAGUE, "league forfeit", player=DAN, game=game)
        assert "already decided" in answer(again)

        # Final: ann 2; bob and eve 1 each, bob ahead on Buchholz (3 to 1); dan 0.
        sent = await fake.command(EVE, LEAGUE, "league standings")
        text = posts(sent)[0].content
        assert "(final)" in text and posts(sent)[0].files == ["standings.png"]
        lines = [line.split() for line in text.split("```")[1].strip().splitlines()[1:]]
        assert [tuple(line[:8]) for line in lines] == [
            ("1", "ann", "2", "2-0-0", "0", "0", "1", "1"),
            ("2", "bob", "1", "1-0-1", "0", "0", "3", "1"),
            ("3", "eve", "1", "1-0-1", "0", "0", "1", "0"),
            ("4", "dan", "0", "0-0-2", "0", "0", "3", "0"),
        ]
        assert "season is over" in answer(await fake.command(ORGANISER, LEAGUE, "league round"))

        # Ratings, records by side, reliability.
        card = answer(await fake.command(ANN, LEAGUE, "league player"))
        assert "duel: rating" in card and "as red 1-0-0, as blue 1-0-0" in card and "Reliability 100%" in card
        card = answer(await fake.command(ANN, LEAGUE, "league player", user=DAN))
        assert "as red 0-0-1, as blue 0-0-1" in card and "resigned 1, forfeited 1" in card
        assert "Reliability 50%" in card
        sides = answer(await fake.command(EVE, LEAGUE, "league sides"))
        assert "duel, short: red scores 75% over 4 game(s); estimated 57% with 10 drawn games" in sides

        # A correction (logged) recomputes the standings: bob v eve becomes a draw.
        game = await game_of(fake, bob_eve)
        sent = await fake.command(ORGANISER, bob_eve, "league correct", reason="scoring error")
        assert "**Correction**" in posts(sent)[0].content and "now 0.5-0.5" in posts(sent)[0].content
        room = LeagueService(fake.bot.service, listen=False)
        _, rows, names = await room.standings(LEAGUE)
        assert [(names[r.player], r.score) for r in rows] == [("ann", 2), ("eve", 1.5), ("bob", 0.5), ("dan", 0)]

        log = answer(await fake.command(EVE, LEAGUE, "league log"))
        assert "forfeit: game #" in log and "correct: game #" in log and "scoring error" in log
        assert "finish: every round is decided" in log

        # The export: standings and every result as CSV.
        sent = await fake.command(EVE, LEAGUE, "league export")
        assert answers(sent)[-1].files == ["autumn-standings.csv", "autumn-games.csv", "autumn-season.html"]
        # ... and the season's page (issue 34): standings, rounds with links to the records, ratings over time
        season = answers(sent)[-1].file_data["autumn-season.html"].decode()
        assert "<h2>Standings</h2>" in season and "<td>1</td><td>ann</td><td>2</td>" in season
        assert f'href="game-{game}-record.html"' in season and "Round 1:" in season
        assert 'aria-label="Ratings: ' in season and "<polyline" in season
        assert not re.search(r"https?://", season) and "connect-src 'none'" in season
        _, standings_csv, games_csv = await room.export(LEAGUE)
        assert list(csv.reader(io.StringIO(standings_csv)))[1][:4] == ["1", "ann", "11", "2.0"]
        games = list(csv.DictReader(io.StringIO(games_csv)))
        assert [g["how"] for g in games] == ["victory", "resignation", "forfeit", "corrected"]
        assert games[3]["game"] == str(game) and games[3]["first_player"] == "bob"
        assert not [s.content for s in fake.sent if "went wrong" in s.content]
    finally:
        await close_fake(fake)


FAY = FakeUser(55, "fay")
ZOE = FakeUser(66, "zoe")


async def test_a_steered_season_with_withdrawals_a_cancelled_league_and_a_scheduled_round(db_path: Path) -> None:
    fake = await open_fake(db_path)
    try:
        # A league cancelled mid-round: its games are abandoned, and the channel takes a new league.
        await fake.command(ORGANISER, LEAGUE, "league create", name="Spring", scenario="short", system="duel",
                           rounds=1)  # fmt: skip
        for player in (ANN, BOB):
            await fake.command(player, LEAGUE, "league join")
        await fake.command(ORGANISER, LEAGUE, "league close")
        (spring_game,) = threads(await fake.command(ORGANISER, LEAGUE, "league round")).values()
        sent = await fake.command(ORGANISER, LEAGUE, "league cancel", reason="wrong scenario")
        assert "Spring** is cancelled" in posts(sent, LEAGUE)[0].content
        assert any("this game is abandoned" in p.content for p in posts(sent, spring_game))
        assert (await fake.bot.service.table(spring_game, live=False)).game.status == "abandoned"

        # A Swiss of six with a round every week; late games are carried over.
        sent = await fake.command(
            ORGANISER, LEAGUE, "league create", name="Summer", scenario="short", system="duel", rounds=4,
            round_every=7.0, late_rule="carry",
        )  # fmt: skip
        assert "a round starts every 7 days, late games: carry" in posts(sent, LEAGUE)[0].content
        for player in (ANN, BOB, EVE, DAN, FAY):
            await fake.command(player, LEAGUE, "league join")
        sent = await fake.command(ORGANISER, LEAGUE, "league add", user=ZOE)
        assert answer(sent) == "Added zoe." and "as zoe" in posts(sent, LEAGUE)[0].content
        assert "already registered" in answer(await fake.command(ORGANISER, LEAGUE, "league add", user=ZOE))
        assert "at most 3 rounds" in answer(await fake.command(ORGANISER, LEAGUE, "league close"))
        sent = await fake.command(ORGANISER, LEAGUE, "league edit", rounds=3)
        assert "rounds 3 (was 4)" in posts(sent, LEAGUE)[0].content
        await fake.command(ORGANISER, LEAGUE, "league close")
        round1 = threads(await fake.command(ORGANISER, LEAGUE, "league round"))
        assert len(round1) == 3

        # dan withdraws while his game is being played: it is forfeited to his opponent.
        dans = next(thread for pair, thread in round1.items() if DAN.id in pair)
        sent = await fake.command(ORGANISER, LEAGUE, "league remove", user=DAN, reason="moved abroad")
        assert "are forfeited to the opponent" in posts(sent, LEAGUE)[0].content
        assert (await fake.bot.service.table(dans, live=False)).game.status == "finished"
        others = [thread for pair, thread in round1.items() if DAN.id not in pair]
        carried = others[1]
        by_id = {u.id: u for u in (ANN, BOB, EVE, FAY, ZOE)}
        table = await fake.bot.service.table(others[0])
        red, blue = by_id[table.user_of("red") or 0], by_id[table.user_of("blue") or 0]
        await win_by_play(fake, others[0], red, blue)

        # A week on, the deadline loop starts round 2 by itself; the game still going is carried over.
        service = fake.bot.service
        service.clock = lambda: time.time() + 8 * DAY
        deadlines: Any = fake.bot.get_cog("LeagueDeadlines")
        start = len(fake.sent)
        assert await deadlines.start_due_rounds() == 1 and await deadlines.start_due_rounds() == 0
        pairing_post = next(p for p in posts(fake.sent[start:], LEAGUE) if "round 2" in p.content)
        assert "Summer, round 2" in pairing_post.content
        round2 = threads(fake.sent[start:])
        assert len(round2) == 2  # five players left: two games and a bye
        assert (await service.table(carried)).game.status == "active"
        room = LeagueService(service, listen=False)
        log = answer(await fake.command(ORGANISER, LEAGUE, "league log"))
        assert "carried over to the next round" in log and "withdrawn <@44>: moved abroad" in log
        assert "{" not in log

        # The organiser ends the season after this round; the standings mark dan and show byes.
        sent = await fake.command(ORGANISER, LEAGUE, "league end", reason="holidays")
        assert "ends early, after round 2" in posts(sent, LEAGUE)[0].content
        sent = await fake.command(EVE, LEAGUE, "league standings")
        text = posts(sent)[0].content
        assert "dan (w)" in text and "B: byes" in text
        _, rows, _ = await room.standings(LEAGUE)
        assert sum(r.byes for r in rows) == 1 and [r.withdrawn for r in rows].count(True) == 1
        assert not [s.content for s in fake.sent if "went wrong" in s.content]
    finally:
        await close_fake(fake)


async def test_a_scheduled_round_that_cannot_be_paired_is_told_to_the_organiser_once(db_path: Path) -> None:
    fake = await open_fake(db_path)
    try:
        await fake.command(ORGANISER, LEAGUE, "league create", name="Autumn", scenario="short", system="duel",
                           rounds=2, round_every=7.0)  # fmt: skip
        for player in (ANN, BOB, EVE, DAN):
            await fake.command(player, LEAGUE, "league join")
        await fake.command(ORGANISER, LEAGUE, "league close")
        round1 = threads(await fake.command(ORGANISER, LEAGUE, "league round"))
        for thread in round1.values():
            game = await game_of(fake, thread)
            await fake.command(ORGANISER, LEAGUE, "league adjudicate", game=game)
        gone = next(pair for pair in round1 if ANN.id not in pair)
        for user in (EVE, DAN, BOB):
            if user.id in gone:
                await fake.command(ORGANISER, LEAGUE, "league remove", user=user)
        fake.bot.service.clock = lambda: time.time() + 8 * DAY
        deadlines: Any = fake.bot.get_cog("LeagueDeadlines")
        start = len(fake.sent)
        assert await deadlines.start_due_rounds() == 0 and await deadlines.start_due_rounds() == 0
        (told,) = posts(fake.sent[start:], LEAGUE)
        assert told.pings == {ORGANISER.id} and "the scheduled round could not start" in told.content
        assert "`league end`" in told.content
        sent = await fake.command(ORGANISER, LEAGUE, "league end")
        assert "standings are final" in posts(sent, LEAGUE)[0].content
        assert await deadlines.start_due_rounds() == 0
    finally:
        await close_fake(fake)


async def test_a_scheduled_round_adjudicates_a_late_game_and_says_so_in_its_thread(db_path: Path) -> None:
    fake = await open_fake(db_path)
    try:
        await fake.command(ORGANISER, LEAGUE, "league create", name="Winter", scenario="short", system="duel",
                           rounds=2, round_every=14.0, late_rule="adjudicate")  # fmt: skip
        for player in (ANN, BOB, EVE, DAN):
            await fake.command(player, LEAGUE, "league join")
        await fake.command(ORGANISER, LEAGUE, "league close")
        round1 = threads(await fake.command(ORGANISER, LEAGUE, "league round"))
        done, late = round1.values()
        await fake.command(ORGANISER, LEAGUE, "league adjudicate", game=await game_of(fake, done))
        fake.bot.service.clock = lambda: time.time() + 15 * DAY
        deadlines: Any = fake.bot.get_cog("LeagueDeadlines")
        start = len(fake.sent)
        assert await deadlines.start_due_rounds() == 1
        (told,) = [p for p in posts(fake.sent[start:], late) if "rule for late games" in p.content]
        players = next(pair for pair, thread in round1.items() if thread == late)
        assert "it is adjudicated, 0.5-0.5" in told.content and told.pings == set(players)
        assert (await fake.bot.service.table(late, live=False)).game.status == "finished"
        assert "Winter, round 2" in posts(fake.sent[start:], LEAGUE)[0].content
    finally:
        await close_fake(fake)
