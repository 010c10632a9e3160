"""The store at league scale: per-seat counters instead of reading the log, compressed snapshots (the latest two),
cold loads that read only the log's tail, the upgrade of a version-1 file, and the bounded state cache."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.service.config import Settings
from bot.service.game_service import GameService
from bot.store import records as records_module
from bot.store import sqlite as store_module
from bot.store.sqlite import MIGRATIONS, SqliteStore
from engine.contract import Action
from tests.bot.conftest import BLUE, CHANNEL, MOD, RED, started
from tests.bot.doubles import Duel, duel_systems
from tests.bot.store_play import TURNS, play


def counting_rows(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every action row the store decodes from now on, by number."""
    decoded: list[int] = []
    original = store_module._action

    def counted(row: Any, *rest: Any) -> Any:
        decoded.append(int(row["seq"]))
        return original(row, *rest)

    monkeypatch.setattr(store_module, "_action", counted)
    return decoded


async def test_seat_counters_follow_actions_and_undos(service: GameService) -> None:
    await started(service)
    await play(service, 5)
    await service.undo(CHANNEL, RED)
    await service.correct(CHANNEL, MOD, 2, "test")
    table = await service.table(CHANNEL)
    counted: dict[str, int] = {}
    for row in await service.store.actions(table.game.id):
        counted[row.seat] = counted.get(row.seat, 0) + 1
    assert table.game.seat_actions == counted == {"red": 3, "blue": 1}


async def test_snapshots_are_compressed_and_only_the_latest_two_kept(
    db_path: Path, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(records_module, "SNAPSHOT_EVERY", 2)
    await started(service)
    await play(service, 8)  # 10 live actions: snapshots at 2, 4, 6, 8, 10
    table = await service.table(CHANNEL)
    with sqlite3.connect(db_path) as raw:
        rows = raw.execute("SELECT seq, typeof(state) FROM snapshots WHERE game = ? ORDER BY seq", (table.game.id,))
        assert list(rows) == [(8, "blob"), (10, "blob")]
    other = await SqliteStore.open(db_path)
    try:
        assert await GameService(other, duel_systems()).state(table.game) == await service.state(table.game)
    finally:
        await other.close()


async def test_a_cold_load_reads_only_the_actions_after_the_latest_snapshot(
    db_path: Path, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(records_module, "SNAPSHOT_EVERY", 3)
    await started(service)
    await play(service, 5)  # 7 live actions, the latest snapshot at action 6
    table = await service.table(CHANNEL)
    other = await SqliteStore.open(db_path)
    try:
        decoded = counting_rows(monkeypatch)
        fresh = GameService(other, duel_systems())
        assert await fresh.state(table.game) == await service.state(table.game)
        assert decoded == [7]
    finally:
        await other.close()


async def test_an_accepted_action_reads_no_log(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    await started(service)
    await play(service, 6)
    decoded = counting_rows(monkeypatch)
    await service.act(CHANNEL, BLUE, "advance", {"steps": 1})
    assert decoded == []


def write_version_1(path: Path) -> tuple[dict[str, Any], dict[str, int]]:
    """A database as version 1 of the store wrote it (its schema, plain JSON snapshots every 3 actions, one
    action undone); returns the state its live actions lead to, and each seat's count of live actions."""
    duel = Duel()
    seed = "00" * 32
    state = duel.new_game("standard", {}, bytes.fromhex(seed))
    plan = [("red", "bid", {"amount": 2}), ("blue", "bid", {"amount": 1})] + [TURNS[n % 4] for n in range(7)]
    with sqlite3.connect(path) as raw:
        for statement in MIGRATIONS[0].split(";"):
            if statement.strip():
                raw.execute(statement)
        raw.execute("PRAGMA user_version=1")
        raw.execute(
            "INSERT INTO games (id, channel, system, scenario, seed, seed_hash, status, revision, created, updated) "
            "VALUES (1, ?, 'duel', 'standard', ?, 'h', 'active', 20, 0, 0)",
            (CHANNEL, seed),
        )
        raw.executemany(
            "INSERT INTO seats (game, seat, user_id) VALUES (1, ?, ?)", [("red", RED.user_id), ("blue", BLUE.user_id)]
        )
        counts: dict[str, int] = {}
        for seq, (seat, verb, args) in enumerate(plan, start=1):
            undone = seq == len(plan)  # the last action was taken back
            if not undone:
                state, events = duel.apply(state, Action(seat, verb, args))
                counts[seat] = counts.get(seat, 0) + 1
            else:
                _, events = duel.apply(state, Action(seat, verb, args))
            raw.execute(
                "INSERT INTO actions (game, seq, seat, user_id, verb, args, events, time, undone) "
                "VALUES (1, ?, ?, NULL, ?, ?, ?, 0, ?)",
                (seq, seat, verb, json.dumps(args), json.dumps([e.to_json() for e in events]), int(undone)),
            )
            if seq % 3 == 0 and not undone:
                raw.execute("INSERT INTO snapshots (game, seq, state) VALUES (1, ?, ?)", (seq, json.dumps(state)))
    return state, counts


async def test_a_version_1_database_upgrades_in_place(db_path: Path) -> None:
    expected, counts = write_version_1(db_path)
    store = await SqliteStore.open(db_path)
    try:
        assert await store.schema_version() == len(MIGRATIONS) >= 2
        game = await store.game(1)
        assert game is not None and game.seat_actions == counts
        snapshot = await store.latest_snapshot(1)
        assert snapshot is not None and snapshot[0] == 6  # the plain JSON of version 1 still reads
        with sqlite3.connect(db_path) as raw:
            assert [r[0] for r in raw.execute("SELECT seq FROM snapshots ORDER BY seq")] == [3, 6]
        service = GameService(store, duel_systems())
        assert await service.state(game) == expected
        outcome = await service.act(CHANNEL, BLUE, "advance", {"steps": 2})
        assert outcome.table.game.seat_actions == {**counts, "blue": counts["blue"] + 1}
    finally:
        await store.close()


async def test_the_state_cache_is_an_lru_bounded_by_the_setting(store: SqliteStore) -> None:
    assert Settings.from_env({"UMPIRE_STATE_CACHE": "2"}).state_cache == 2
    service = GameService(store, duel_systems(), state_cache=Settings.from_env({"UMPIRE_STATE_CACHE": "2"}).state_cache)
    channels = [CHANNEL, CHANNEL + 1, CHANNEL + 2]
    for channel in channels:
        await started(service, channel)
        await play(service, 3, channel)
        assert len(service._cache) <= 2
    games = [(await service.table(c)).game for c in channels]
    states = [await service.state(game) for game in games]
    assert len(service._cache) == 2
    assert service._cache.get(games[0].id) is None and service._cache.get(games[2].id) is not None  # least recent
    rebuilt = GameService(store, duel_systems(), state_cache=1)
    for channel, state in zip(channels, states, strict=True):
        assert await rebuilt.state((await rebuilt.table(channel)).game) == state
        assert len(rebuilt._cache) == 1


async def test_events_are_compressed_with_the_games_dictionary_and_read_back_after_a_restart(
    db_path: Path, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "DICTIONARY_AFTER", 4)
    await started(service)
    await play(service, 8)
    table = await service.table(CHANNEL)
    written = await service.store.actions(table.game.id)
    with sqlite3.connect(db_path) as raw:
        stored = [bytes(r[0]) for r in raw.execute("SELECT events FROM actions ORDER BY seq")]
        (dictionary,) = raw.execute("SELECT log_dictionary FROM games").fetchone()
    assert dictionary and all(isinstance(s, bytes) for s in stored)
    assert [bool(s[1] & 0x20) for s in stored] == [False] * 4 + [True] * 6  # zlib's "preset dictionary" flag
    other = await SqliteStore.open(db_path)
    try:
        assert await other.actions(table.game.id) == written
        assert [e["kind"] for a in written for e in a.events][-2:] == ["advance", "end-turn"]
    finally:
        await other.close()
