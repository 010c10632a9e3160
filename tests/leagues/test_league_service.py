"""The league room over the game service and Duel: formats, deadlines, late entries, withdrawals, resuming a
round cut short, abandoned and reopened games. (The whole season through Discord: tests/bot/test_discord_league.py.)"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.leagues.service import LeagueService
from bot.service.config import Limits
from bot.service.game_service import DAY, Caller, GameService, Refusal
from bot.store.opening import open_store
from bot.store.sqlite import SqliteStore
from tests.bot.doubles import duel_systems, require_ardennes
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


async def test_a_both_sides_round_robin_meets_every_pair_twice_with_sides_swapped(room: LeagueService) -> None:
    await league(room, 3, "both-sides")
    threads = Threads()
    assert (await room.league(LEAGUE)).rounds == 6
    for _ in range(6):
        _, pairings, started = await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
        assert len(started) == 1 and sum(1 for p in pairings if p.second is None) == 1  # one game, one bye
        await decide_all(room, pairings)
    everything = await room.store.pairings((await room.league(LEAGUE)).id)
    games = [(p.first, p.second) for p in everything if p.second is not None]
    assert Counter(frozenset(g) for g in games) == {frozenset(g): 2 for g in games}
    assert len(set(games)) == 6  # each way round once
    assert Counter(p.first for p in everything if p.second is None) == {10: 2, 11: 2, 12: 2}
    assert (await room.league(LEAGUE)).status == "finished"
    _, rows, _ = await room.standings(LEAGUE)
    assert all(r.score == 2 and r.byes == 2 for r in rows)  # each won his two first-seat games; byes score 0


async def test_a_swiss_of_n_players_plays_at_most_half_as_many_rounds(room: LeagueService) -> None:
    await room.create(guild=GUILD, channel=LEAGUE, caller=ORG, name="Big", system_id="duel", scenario="short",
                      rounds=3)  # fmt: skip
    for player in PLAYERS[:4]:
        await room.join(LEAGUE, player, None)
    with pytest.raises(Refusal, match="at most 2 rounds"):
        await room.close(LEAGUE, ORG)


async def test_a_late_game_whose_notice_failed_is_told_again(room: LeagueService) -> None:
    await league(room, 2, rounds=1, round_days=3)
    _, pairings, _ = await room.next_round(LEAGUE, ORG, Threads(), guild=GUILD)
    clock = room.games.clock
    assert isinstance(clock, Clock)
    clock.now += 4 * DAY
    ((_, late),) = await room.newly_late()
    await room.tell_late_again(late)  # the notice could not be posted
    assert [[p.id for p in again] for _, again in await room.newly_late()] == [[pairings[0].id]]
    assert await room.newly_late() == []


async def test_deadlines_late_games_are_told_once_and_may_be_extended(room: LeagueService) -> None:
    await league(room, 2, rounds=1, round_days=3)
    _, pairings, _ = await room.next_round(LEAGUE, ORG, Threads(), guild=GUILD)
    clock = room.games.clock
    assert isinstance(clock, Clock)
    assert (await room.late(LEAGUE))[1] == []
    clock.now += 4 * DAY
    assert [p.id for p in (await room.late(LEAGUE))[1]] == [pairings[0].id]
    assert [[p.id for p in late] for _, late in await room.newly_late()] == [[pairings[0].id]]
    assert await room.newly_late() == []  # told once
    extended = await room.extend(LEAGUE, ORG, pairings[0].game, 2)
    assert extended.deadline == clock.now + 2 * DAY and (await room.late(LEAGUE))[1] == []
    with pytest.raises(Refusal, match="only an organiser"):
        await room.extend(LEAGUE, PLAYERS[0], pairings[0].game, 2)
    decided, outcome = await room.decide(LEAGUE, ORG, pairings[0].game, "adjudicated", None, "time")
    assert outcome.result is not None and outcome.result.winner is None
    assert (decided.first_score, decided.second_score, decided.how) == (0.5, 0.5, "adjudicated")
    log = [line["kind"] for line in await room.store.log_lines(decided.league)]
    assert log == ["close", "round", "extend", "finish", "adjudicated"]


async def test_a_late_entry_joins_the_next_swiss_round_and_a_withdrawn_player_is_not_paired(
    room: LeagueService,
) -> None:
    await league(room, 4, rounds=2)
    threads = Threads()
    _, pairings, _ = await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    await decide_all(room, pairings)
    await room.add(LEAGUE, ORG, 77, "player 77", "blue")
    await room.join(LEAGUE, Caller(77, "latecomer"), "red")  # registered: he may set his name and side
    with pytest.raises(Refusal, match="registration is closed"):
        await room.join(LEAGUE, Caller(78, "stranger"), None)
    await room.remove(LEAGUE, ORG, PLAYERS[3].user_id)
    round_, pairings, _ = await room.next_round(LEAGUE, ORG, threads, guild=GUILD, scenario="standard")
    assert round_.scenario == "standard"  # one league, a scenario per round
    for p in pairings:
        assert p.thread is not None
        assert (await room.games.table(p.thread)).game.scenario == "standard"
    paired = {p.first for p in pairings} | {p.second for p in pairings if p.second is not None}
    entrants = await room.store.entrants((await room.league(LEAGUE)).id)
    latecomer = next(e for e in entrants if e.user_id == 77)
    assert (latecomer.name, latecomer.side) == ("latecomer", 0)
    assert 77 in paired and PLAYERS[3].user_id not in paired
    assert len(pairings) == 2 and all(p.second is not None for p in pairings)  # still four players: no bye


async def test_a_round_robin_scores_a_withdrawn_players_remaining_games_as_walkovers(room: LeagueService) -> None:
    await league(room, 4, "round-robin")
    threads = Threads()
    _, pairings, _ = await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    await decide_all(room, pairings)
    gone = PLAYERS[0].user_id
    await room.remove(LEAGUE, ORG, gone)
    _, pairings, started = await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    forfeited = next(p for p in pairings if gone in (p.first, p.second))
    assert forfeited.how == "walkover" and forfeited.game is None and len(started) == 1
    score_of_gone = forfeited.first_score if forfeited.first == gone else forfeited.second_score
    assert score_of_gone == 0.0 and (forfeited.first_score or 0) + (forfeited.second_score or 0) == 1.0


async def test_league_games_count_against_their_players_limits(room: LeagueService) -> None:
    await league(room, 2, rounds=1)
    room.games.limits = Limits(games_per_user=1, games_per_server=0, creations_per_hour=0)
    await room.games.create(guild=GUILD, channel=1234, caller=PLAYERS[0], system_id="duel", scenario="short")
    threads = Threads()
    with pytest.raises(Refusal, match=r"could not be made: you already run 1 live games.*`league round` again"):
        await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    room.games.limits = Limits(0, 0, 0)
    _, pairings, started = await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    assert len(threads.opened) == 1 and len(started) == 1 and pairings[0].game is not None
    table = await room.games.table(pairings[0].thread or 0)
    assert table.game.creator == PLAYERS[0].user_id and table.game.status == "active"


async def test_a_round_cut_short_resumes_without_making_a_game_twice(room: LeagueService) -> None:
    await league(room, 4, rounds=1)
    threads = Threads()
    threads.fail_at = 1  # the second thread fails
    with pytest.raises(ConnectionError):
        await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    _, pairings, started = await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
    assert len(threads.opened) == 2 and len(started) == 1
    assert all(p.game is not None and p.thread is not None for p in pairings)
    assert len({p.game for p in pairings}) == 2


async def test_an_abandoned_game_scores_nothing_and_a_reopened_game_is_undecided_again(room: LeagueService) -> None:
    await league(room, 4, rounds=1)
    _, pairings, _ = await room.next_round(LEAGUE, ORG, Threads(), guild=GUILD)
    won_by_play, abandoned = pairings
    assert won_by_play.thread is not None and abandoned.thread is not None
    first, second = (next(c for c in PLAYERS if c.user_id == u) for u in (won_by_play.first, won_by_play.second))
    await room.games.act(won_by_play.thread, first, "bid", {"amount": 3})
    await room.games.act(won_by_play.thread, second, "bid", {"amount": 1})
    await room.games.act(won_by_play.thread, first, "advance", {"steps": 3})
    await room.games.act(won_by_play.thread, first, "advance", {"steps": 3})
    won = await room.store.pairing(won_by_play.id)
    assert won is not None and (won.first_score, won.second_score, won.how) == (1.0, 0.0, "victory")
    # A correction that takes an ended game's last moves back reopens it (GameService._take_back): the
    # listener hears "reopened" and the result is withdrawn until the game ends again.
    game = await room.games.store.game(won.game or 0)
    assert game is not None
    await room.game_ended(dataclasses.replace(game, status="active"), "reopened")
    reopened = await room.store.pairing(won_by_play.id)
    assert reopened is not None and not reopened.decided
    await room.games.abandon(abandoned.thread, ORG, "both left")
    gone = await room.store.pairing(abandoned.id)
    assert gone is not None and (gone.first_score, gone.second_score, gone.how) == (0.0, 0.0, "abandoned")
    assert await room.ratings(GUILD, "duel") == {}  # an abandoned game is not rated


async def test_a_league_may_score_a_lesser_victory_level_below_a_full_win(room: LeagueService) -> None:
    with pytest.raises(Refusal, match="more than ½ and at most 1"):
        await room.create(guild=GUILD, channel=LEAGUE, caller=ORG, name="Bad", system_id="duel", scenario="short",
                          rounds=1, level_scores={"red-narrow": 0.4})  # fmt: skip
    await room.create(guild=GUILD, channel=LEAGUE, caller=ORG, name="Levels", system_id="duel", scenario="short",
                      rounds=1, level_scores={"red-narrow": 0.75})  # fmt: skip
    for player in PLAYERS[:2]:
        await room.join(LEAGUE, player, None)
    await room.close(LEAGUE, ORG)
    _, pairings, _ = await room.next_round(LEAGUE, ORG, Threads(), guild=GUILD)
    game = await room.games.store.game(pairings[0].game or 0)
    assert game is not None
    narrow = {"winner": "red", "text": "red-narrow: by a hair", "level": "red-narrow"}
    await room.game_ended(dataclasses.replace(game, status="finished", result=narrow), "victory")
    scored = await room.store.pairing(pairings[0].id)
    assert scored is not None and (scored.first_score, scored.second_score) == (0.75, 0.25)


def test_the_vae_victis_result_names_its_victory_level() -> None:
    require_ardennes()
    from bot.systems.vaevictis import VaeVictisAdapter

    adapter = VaeVictisAdapter("ardennes44")
    state = adapter.new_game("initial-assault", {}, b"\x01" * 32)
    state.result = {"winner": "german", "result": "german-offensive", "reason": "the Meuse was crossed"}
    result = adapter.result(state)
    assert result is not None and result.level == "german-offensive" and result.winner == "german"


async def test_several_leagues_on_a_server_and_a_league_over_two_systems(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "two.sqlite3")
    try:
        systems = duel_systems()
        room = LeagueService(GameService(store, {**systems, "duel-b": systems["duel"]}))
        await room.create(guild=GUILD, channel=LEAGUE, caller=ORG, name="North", system_id="duel", scenario="short",
                          rounds=2)  # fmt: skip
        await room.create(guild=GUILD, channel=LEAGUE + 1, caller=ORG, name="South", system_id="duel",
                          scenario="short", rounds=1)  # fmt: skip
        with pytest.raises(Refusal, match="already has a league named 'North'"):
            await room.create(guild=GUILD, channel=LEAGUE + 2, caller=ORG, name="North", system_id="duel",
                              scenario="short", rounds=1)  # fmt: skip
        with pytest.raises(Refusal, match="already runs the league 'North'"):
            await room.create(guild=GUILD, channel=LEAGUE, caller=ORG, name="West", system_id="duel",
                              scenario="short", rounds=1)  # fmt: skip
        for player in PLAYERS[:4]:
            await room.join(LEAGUE, player, None)
        await room.join(LEAGUE + 1, PLAYERS[0], None)
        assert [e.user_id for e in await room.store.entrants((await room.league(LEAGUE + 1)).id)] == [10]
        await room.close(LEAGUE, ORG)
        threads = Threads()
        _, pairings, _ = await room.next_round(LEAGUE, ORG, threads, guild=GUILD)
        await decide_all(room, pairings)
        round_, pairings, _ = await room.next_round(LEAGUE, ORG, threads, guild=GUILD, system_id="duel-b")
        assert round_.system == "duel-b"
        for p in pairings:
            assert (await room.games.table(p.thread or 0)).game.system == "duel-b"
        await decide_all(room, pairings)
        rated = {system for system, _ in await room.rated_games(GUILD)}
        assert rated == {"duel", "duel-b"}  # one rating per system
        card = await room.player(GUILD, PLAYERS[0].user_id)
        assert set(card.systems) == {"duel", "duel-b"}
    finally:
        await store.close()
