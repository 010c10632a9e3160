"""An organiser steers a season (issue 29): edit, end early, cancel; unplayed games scored for what they are;
victory levels in decisions; withdrawals undone and running games forfeited; forbidden and manual pairings;
newcomers seeded at 1500; the store's older round robins keep their table."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.store.sqlite
from bot.leagues.records import ratings
from bot.leagues.service import NEWCOMER_RATING, LeagueService
from bot.leagues.sides import side_balances
from bot.leagues.store import Pairing
from bot.service.game_service import DAY, GameService, Refusal
from bot.store.migrations import _steered_leagues
from bot.store.opening import open_store
from bot.store.sqlite import MIGRATIONS, SqliteStore
from tests.bot.doubles import duel_systems
from tests.leagues.league_setups import GUILD, LEAGUE, ORG, PLAYERS, Clock, Threads, decide_all, league

BACKENDS = ("sqlite", "postgresql")
"""The league tables' contract holds on both backends (tests/conftest.py runs each test on each)."""


@pytest.fixture
async def room(tmp_path: Path, backend: str, request: pytest.FixtureRequest) -> AsyncIterator[LeagueService]:
    target = request.getfixturevalue("pg_url") if backend == "postgresql" else tmp_path / "league.sqlite3"
    store = await open_store(target)
    games = GameService(store, duel_systems(), clock=Clock())
    yield LeagueService(games)
    await store.close()


async def test_steering_edit_fits_the_rounds_to_the_field_and_changes_the_time_control(room: LeagueService) -> None:
    await room.create(guild=GUILD, channel=LEAGUE, caller=ORG, name="Big", system_id="duel", scenario="short",
                      rounds=3)  # fmt: skip
    for player in PLAYERS[:4]:
        await room.join(LEAGUE, player, None)
    with pytest.raises(Refusal, match=r"at most 2 rounds.*`league edit rounds:2`"):
        await room.close(LEAGUE, ORG)
    with pytest.raises(Refusal, match="only an organiser"):
        await room.edit(LEAGUE, PLAYERS[0], rounds=2)
    league_row, said = await room.edit(LEAGUE, ORG, rounds=2, days_per_move=3)
    assert league_row.rounds == 2 and said == ["rounds 2 (was 3)", "days per move 3 (was 0)"]
    await room.close(LEAGUE, ORG)
    _, pairings, _ = await room.next_round(LEAGUE, ORG, Threads(), guild=GUILD)
    table = await room.games.table(pairings[0].thread or 0)
    assert table.game.time_control["days_per_move"] == 3.0
    with pytest.raises(Refusal, match="nothing to change"):
        await room.edit(LEAGUE, ORG, rounds=2)
    with pytest.raises(Refusal, match="1 to 30 rounds, and 1 are paired"):
        await room.edit(LEAGUE, ORG, rounds=0)
    with pytest.raises(Refusal, match="carry, forfeit, adjudicate"):
        await room.edit(LEAGUE, ORG, late_rule="wait")
    log = [line["kind"] for line in await room.store.log_lines(league_row.id)]
    assert log == ["edit", "close", "round"]


async def test_steering_a_swiss_that_cannot_pair_is_ended_and_frees_its_channel(room: LeagueService) -> None:
    await league(room, 4, rounds=2)
    threads = Threads()
    _, pairings, _ = await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    await decide_all(room, pairings)
    for pairing in pairings[1:]:  # the other game's players withdraw: the two left have met
        await room.remove(LEAGUE, ORG, pairing.first)
        await room.remove(LEAGUE, ORG, pairing.second or 0)
    with pytest.raises(Refusal, match=r"round 2 cannot be paired.*`league end`.*`league edit rounds`"):
        await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    ended, pending = await room.end(LEAGUE, ORG, "too few players")
    assert (ended.status, ended.rounds, pending) == ("finished", 1, [])
    new = await room.create(guild=GUILD, channel=LEAGUE, caller=ORG, name="Next", system_id="duel",
                            scenario="short", rounds=1)  # fmt: skip
    assert (await room.league(LEAGUE)).id == new.id


async def test_steering_end_early_keeps_the_games_being_played(room: LeagueService) -> None:
    await league(room, 4, rounds=2)
    _, pairings, _ = await room.next_round(LEAGUE, ORG, Threads(), guild=GUILD)
    ended, pending = await room.end(LEAGUE, ORG, "summer")
    assert ended.status == "running" and len(pending) == 2
    with pytest.raises(Refusal, match=r"every round is paired \(1\)"):
        await room.next_round(LEAGUE, ORG, Threads(), guild=GUILD)
    await decide_all(room, pairings)
    assert (await room.league(LEAGUE)).status == "finished"


async def test_steering_cancel_abandons_the_games_and_frees_the_channel(room: LeagueService) -> None:
    await league(room, 4, rounds=2)
    _, pairings, _ = await room.next_round(LEAGUE, ORG, Threads(), guild=GUILD)
    with pytest.raises(Refusal, match="only an organiser"):
        await room.cancel(LEAGUE, PLAYERS[0], "")
    cancelled, abandoned = await room.cancel(LEAGUE, ORG, "server moves")
    assert cancelled.status == "cancelled" and len(abandoned) == 2
    assert all(p.how == "abandoned" and (p.first_score, p.second_score) == (0, 0) for p in abandoned)
    for p in pairings:
        assert (await room.games.table(p.thread or 0, live=False)).game.status == "abandoned"
    assert await room.ratings(GUILD, "duel") == {}
    _, rows, _ = await room.standings(LEAGUE)  # still readable
    assert all(r.unplayed == 1 and r.played == 0 for r in rows)
    with pytest.raises(Refusal, match="cancelled"):
        await room.next_round(LEAGUE, ORG, Threads(), guild=GUILD)
    await room.create(guild=GUILD, channel=LEAGUE, caller=ORG, name="Again", system_id="duel", scenario="short",
                      rounds=1)  # fmt: skip


async def test_unplayed_a_double_forfeit_and_walkovers_are_not_rated(room: LeagueService) -> None:
    await league(room, 4, "round-robin")
    threads = Threads()
    _, pairings, _ = await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    await decide_all(room, pairings)
    schedule = (await room.league(LEAGUE)).schedule
    assert schedule is not None
    # Two players who meet in round 2 withdraw: their game there is a double forfeit.
    meet = next((a, b) for a, b in schedule[1] if a is not None and b is not None)
    for player in meet:
        await room.remove(LEAGUE, ORG, player)
    _, pairings, started = await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    assert len(started) == 1 and sorted(p.how or "" for p in pairings) == ["", "double-forfeit"]
    double = next(p for p in pairings if p.how == "double-forfeit")
    assert (double.first_score, double.second_score, double.game) == (0.0, 0.0, None)
    await decide_all(room, pairings)
    _, pairings, started = await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    assert started == [] and [p.how for p in pairings] == ["walkover", "walkover"]
    assert (await room.league(LEAGUE)).status == "finished"
    rated = await room.ratings(GUILD, "duel")
    games = [g for _, g in await room.rated_games(GUILD)]
    played = [g for g in games if g.how == "adjudicated"]
    balance = side_balances(("short", g.first_score) for g in played)["short"]
    assert len(played) == 3 and balance.games == 3  # two games of round 1, one of round 2
    assert rated == ratings(played, room.clock(), {"short": balance.advantage})
    for player in meet:
        card = await room.player(GUILD, player)
        assert card.reliability.games == 1  # round 1 only: his unplayed games are not his doing
    _, rows, _ = await room.standings(LEAGUE)
    assert {r.player for r in rows if r.withdrawn} == set(meet)
    assert sorted((r.played, r.unplayed) for r in rows) == [(1, 2), (1, 2), (2, 1), (2, 1)]


async def test_organiser_levels_score_partial_wins_in_adjudicate_and_correct(room: LeagueService) -> None:
    await room.create(guild=GUILD, channel=LEAGUE, caller=ORG, name="Levels", system_id="duel", scenario="short",
                      rounds=1, level_scores={"red-narrow": 0.75})  # fmt: skip
    for player in PLAYERS[:2]:
        await room.join(LEAGUE, player, None)
    await room.close(LEAGUE, ORG)
    _, (pairing,), _ = await room.next_round(LEAGUE, ORG, Threads(), guild=GUILD)
    with pytest.raises(Refusal, match="scores no victory level 'huge'"):
        await room.decide(LEAGUE, ORG, pairing.game, "adjudicated", pairing.first, "", "huge")
    with pytest.raises(Refusal, match="needs a winner"):
        await room.decide(LEAGUE, ORG, pairing.game, "adjudicated", None, "", "red-narrow")
    decided, _ = await room.decide(LEAGUE, ORG, pairing.game, "adjudicated", pairing.first, "map", "red-narrow")
    assert (decided.first_score, decided.second_score, decided.how) == (0.75, 0.25, "adjudicated")
    corrected = await room.correct(LEAGUE, ORG, pairing.game, pairing.second, "other way", "red-narrow")
    assert (corrected.first_score, corrected.second_score) == (0.25, 0.75)
    log = [line["text"] for line in await room.store.log_lines(decided.league)]
    assert any(f"<@{pairing.first}> wins (red-narrow), 0.75-0.25 (map)" in line for line in log)
    assert not any("{" in line for line in log)  # said in words, not as a stored dict


async def test_organiser_withdrawal_forfeits_the_running_game_and_is_undone_by_reinstate(room: LeagueService) -> None:
    await league(room, 4, "round-robin")
    threads = Threads()
    _, pairings, _ = await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    gone = pairings[0].first
    _, forfeited = await room.remove(LEAGUE, ORG, gone, "moved away")
    assert [p.id for p in forfeited] == [pairings[0].id]
    assert forfeited[0].how == "forfeit" and (forfeited[0].first_score, forfeited[0].second_score) == (0.0, 1.0)
    with pytest.raises(Refusal, match=r"withdrew.*`league reinstate`"):
        await room.add(LEAGUE, ORG, gone, "back", None)
    await room.reinstate(LEAGUE, ORG, gone)
    with pytest.raises(Refusal, match="has not withdrawn"):
        await room.reinstate(LEAGUE, ORG, gone)
    await decide_all(room, await room.store.pairings(pairings[0].league))
    _, pairings, started = await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    assert len(started) == 2 and any(gone in (p.first, p.second) for p in pairings)


async def test_organiser_add_of_a_registered_player_is_refused_and_logged_once(room: LeagueService) -> None:
    await room.create(guild=GUILD, channel=LEAGUE, caller=ORG, name="Adds", system_id="duel", scenario="short",
                      rounds=1)  # fmt: skip
    league_row = await room.add(LEAGUE, ORG, 77, "Zoe", None)
    with pytest.raises(Refusal, match="already registered"):
        await room.add(LEAGUE, ORG, 77, "Zoe", None)
    assert [(e.user_id, e.name) for e in await room.store.entrants(league_row.id)] == [(77, "Zoe")]
    assert [line["kind"] for line in await room.store.log_lines(league_row.id)] == ["add"]


async def test_organiser_forbidden_and_manual_pairings_are_kept(room: LeagueService) -> None:
    await league(room, 6, rounds=2)
    a, b, c, d = (p.user_id for p in PLAYERS[:4])
    await room.forbid(LEAGUE, ORG, a, b)  # by rank they would meet first
    await room.fix_pairing(LEAGUE, ORG, d, c)
    with pytest.raises(Refusal, match="already paired by hand"):
        await room.fix_pairing(LEAGUE, ORG, c, a)
    _, pairings, _ = await room.next_round(LEAGUE, ORG, Threads(), guild=GUILD)
    games = {(p.first, p.second) for p in pairings}
    assert (d, c) in games and (a, b) not in games and (b, a) not in games
    assert (await room.league(LEAGUE)).fixed == ()  # manual pairings are for one round
    with pytest.raises(Refusal, match="have met already"):
        await room.fix_pairing(LEAGUE, ORG, c, d)


async def test_organiser_newcomers_are_seeded_at_1500(room: LeagueService) -> None:
    # Last season p0 lost to p1: p0 is rated below 1500, p1 above.
    await room.create(guild=GUILD, channel=LEAGUE + 1, caller=ORG, name="Old", system_id="duel", scenario="short",
                      rounds=1)  # fmt: skip
    for player in PLAYERS[:2]:
        await room.join(LEAGUE + 1, player, None)
    await room.close(LEAGUE + 1, ORG)
    threads = Threads()
    _, (old,), _ = await room.next_round(LEAGUE + 1, ORG, threads, guild=GUILD)
    await room.decide(LEAGUE + 1, ORG, old.game, "adjudicated", PLAYERS[1].user_id, "")
    rated = await room.ratings(GUILD, "duel")
    low, high = PLAYERS[0].user_id, PLAYERS[1].user_id
    assert rated[low].rating < NEWCOMER_RATING < rated[high].rating
    await league(room, 4, rounds=2)
    _, pairings, _ = await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    # Ranked high, the two newcomers (1500), low: high meets a newcomer, the other newcomer meets low.
    first_game, second_game = ({p.first, p.second} for p in pairings)
    assert high in first_game and low in second_game


async def test_a_round_robin_closed_before_the_berger_tables_keeps_its_schedule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.sqlite3"
    before = MIGRATIONS.index(_steered_leagues)
    monkeypatch.setattr(bot.store.sqlite, "MIGRATIONS", MIGRATIONS[:before])
    old = await SqliteStore.open(path)
    async with old.transaction() as db:
        for statement in (
            "INSERT INTO leagues (id, guild, channel, name, system, scenario, format, rounds, status, created) "
            "VALUES (1, 1, 900, 'Old', 'duel', 'short', 'round-robin', 3, 'running', 0)",
            "INSERT INTO league_players (league, user_id, name, joined) VALUES (1, 10, 'a', 1), (1, 11, 'b', 2), "
            "(1, 12, 'c', 3), (1, 13, 'd', 4)",
            "INSERT INTO league_rounds (league, number, system, scenario, started) VALUES (1, 1, 'duel', 'short', 0)",
            "INSERT INTO league_games (league, round, first, second, first_score, second_score, how) VALUES "
            "(1, 1, 10, 13, 0, 0, 'forfeit'), (1, 1, 11, 12, 1, 0, 'forfeit')",
        ):
            await db.execute(statement)
    await old.close()
    monkeypatch.setattr(bot.store.sqlite, "MIGRATIONS", MIGRATIONS)
    store = await SqliteStore.open(path)
    try:
        room = LeagueService(GameService(store, duel_systems()))
        migrated = await room.league(900)
        # The table it was paired by (the last player fixed, the others turned round him), not Berger's.
        assert migrated.schedule == [[[10, 13], [11, 12]], [[13, 12], [10, 11]], [[11, 13], [12, 10]]]
        assert [p.how for p in await room.store.pairings(1)] == ["double-forfeit", "walkover"]
    finally:
        await store.close()


async def scheduled(room: LeagueService, late_rule: str, threads: Threads) -> list[Pairing]:
    """A Swiss of four over two rounds, one a week; round 1 is paired and its week is over."""
    await league(room, 4, rounds=2, round_every=7, late_rule=late_rule)
    _, pairings, _ = await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    clock = room.games.clock
    assert isinstance(clock, Clock)
    assert await room.due_rounds() == []
    clock.now += 7 * DAY
    assert [lg.name for lg in await room.due_rounds()] == ["Test"]
    return pairings


async def test_pacing_a_scheduled_round_carries_a_late_game_over(room: LeagueService) -> None:
    threads = Threads()
    first, late = await scheduled(room, "carry", threads)
    await decide_all(room, [first])
    _, pairings, started = await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    assert len(started) == 2 and {p.round for p in pairings} == {2}
    still = await room.store.pairing(late.id)
    assert still is not None and not still.decided  # it goes on, its result counts when it comes
    met = {frozenset((p.first, p.second)) for p in await room.store.pairings(still.league)}
    assert len(met) == 4  # no rematch of the game carried over
    assert await room.due_rounds() == []  # the last round is paired


async def test_pacing_a_scheduled_round_forfeits_the_player_a_late_game_waits_on(room: LeagueService) -> None:
    threads = Threads()
    first, late = await scheduled(room, "forfeit", threads)
    await decide_all(room, [first])
    assert late.thread is not None
    red = next(c for c in PLAYERS if c.user_id == late.first)
    await room.games.act(late.thread, red, "bid", {"amount": 2})  # blue's bid is awaited
    _, _, started = await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    decided = await room.store.pairing(late.id)
    assert decided is not None and (decided.first_score, decided.second_score, decided.how) == (1.0, 0.0, "forfeit")
    assert len(started) == 2


async def test_pacing_a_scheduled_round_adjudicates_a_late_game_drawn(room: LeagueService) -> None:
    threads = Threads()
    first, late = await scheduled(room, "adjudicate", threads)
    await decide_all(room, [first])
    await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    decided = await room.store.pairing(late.id)
    assert decided is not None and (decided.first_score, decided.second_score, decided.how) == (0.5, 0.5, "adjudicated")


async def test_pacing_a_round_robin_may_start_every_game_at_once(room: LeagueService) -> None:
    with pytest.raises(Refusal, match="only a round robin"):
        await room.create(guild=GUILD, channel=LEAGUE, caller=ORG, name="X", system_id="duel", scenario="short",
                          rounds=1, all_at_once=True)  # fmt: skip
    await room.create(guild=GUILD, channel=LEAGUE, caller=ORG, name="Open", system_id="duel", scenario="short",
                      format_="round-robin", all_at_once=True)  # fmt: skip
    for player in PLAYERS[:5]:
        await room.join(LEAGUE, player, None)
    await room.close(LEAGUE, ORG)
    threads = Threads()
    _, pairings, started = await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    assert len(started) == 10 and {p.round for p in pairings} == {1, 2, 3, 4, 5}
    assert sum(1 for p in pairings if p.second is None) == 5  # a bye each
    with pytest.raises(Refusal, match=r"every round is paired \(5\)"):
        await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    await decide_all(room, pairings)
    assert (await room.league(LEAGUE)).status == "finished"


@pytest.mark.parametrize("late_rule", ["forfeit", "carry"])
async def test_pacing_a_seat_out_of_time_and_reserve_loses_by_the_leagues_forfeit_rule(
    room: LeagueService, late_rule: str
) -> None:
    """Under a league whose rule for late games is forfeit, a seat whose time and reserve run out loses at once
    (the league's rule at timeout, issue 35); under the other rules the game goes on for the opponent to claim."""
    await league(room, 2, rounds=1, days_per_move=1, reserve_days=1, late_rule=late_rule)
    _, pairings, _ = await room.next_round(LEAGUE, ORG, Threads(), guild=GUILD)
    game = pairings[0]
    assert game.thread is not None
    red = next(c for c in PLAYERS if c.user_id == game.first)
    await room.games.act(game.thread, red, "bid", {"amount": 2})  # blue's bid is awaited
    clock = room.games.clock
    assert isinstance(clock, Clock)
    clock.now += 2.5 * DAY  # a day per move and a day of reserve, both spent
    notices = [n for n in await room.games.due_reminders() if n.first_timeout]
    decided = await room.store.pairing(game.id)
    table = await room.games.table(game.thread, live=False)
    assert decided is not None and [n.seat for n in notices] == ["blue"]
    if late_rule == "forfeit":
        assert (decided.first_score, decided.second_score, decided.how) == (1.0, 0.0, "forfeit")
        assert notices[0].decided and "ran out of time" in notices[0].decided
        assert any("ran out of time and reserve" in line["text"] for line in await room.store.log_lines(game.league))
    else:
        assert not decided.decided and table.game.status == "active" and notices[0].decided is None
