"""A finished game's disk: the chain's hashes as 32-byte blobs, the log without rowid, the log archived when the
game ends, and the upgrade of a file written by schema version 3."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.service.game_service import GameService
from bot.store import chain
from bot.store import sqlite as store_module
from bot.store.records import GameRow, NewAction
from bot.store.sqlite import ARCHIVED, MIGRATIONS, SqliteStore
from tests.bot.conftest import BLUE, CHANNEL, RED, started
from tests.bot.discord_play import close_fake, open_fake
from tests.bot.doubles import duel_systems
from tests.bot.store_play import play

VERSION_3 = Path(__file__).parent / "data" / "version3.sqlite3"
"""Written by the store of schema version 3 (commit 840d9f4, before this change): game 1 played 9 turns, one
undone, then resigned; game 2 still being played. Its events are compressed with a dictionary after the 4th
action. The states its games stand at are in version3.json."""


def raw_rows(path: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as raw:
        return list(raw.execute(sql))


async def test_the_chains_hashes_are_stored_as_32_byte_blobs_and_read_as_hex(
    db_path: Path, service: GameService
) -> None:
    await started(service)
    await play(service, 3)
    game = (await service.table(CHANNEL)).game
    stored = raw_rows(
        db_path, "SELECT typeof(events_hash), length(events_hash), typeof(chain), length(chain) FROM actions"
    )
    assert stored and set(stored) == {("blob", 32, "blob", 32)}
    rows = await service.store.actions(game.id)
    receipts = {s.seq: s.receipt for s in await service.store.secrets(game.id)}
    previous = game.seed_hash
    for row in rows:
        assert row.events_hash == chain.events_hash(row.events)
        record = chain.action_record(row.rules, row.draws, receipts.get(row.seq))
        assert row.chain == chain.link(
            previous, row.seq, row.seat, row.user_id, row.verb, row.args, row.events_hash or "", record
        )
        previous = str(row.chain)
    assert game.chain_head == previous and len(previous) == 64  # the head stays hex text, as players see it
    (schema,) = raw_rows(db_path, "SELECT sql FROM sqlite_schema WHERE name = 'actions'")[0]
    assert "WITHOUT ROWID" in str(schema)


async def test_a_finished_games_log_is_archived_and_reads_back_exactly_after_a_restart(
    db_path: Path, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "DICTIONARY_AFTER", 4)
    await started(service)
    await play(service, 9)
    await service.undo(CHANNEL, RED)
    game = (await service.table(CHANNEL)).game
    before = await service.store.actions(game.id, include_undone=True)
    await service.resign(CHANNEL, BLUE)
    over = (await service.table(CHANNEL, live=False)).game
    stored = raw_rows(db_path, "SELECT args, events FROM actions ORDER BY seq")
    assert raw_rows(db_path, "SELECT archive_dictionary IS NOT NULL FROM games") == [(1,)]
    for args, events in stored:  # packed, or plain JSON where packing gained nothing
        for value in (args, events):
            assert (isinstance(value, bytes) and value[0] == ARCHIVED) or isinstance(value, str)
    assert any(isinstance(events, bytes) for _, events in stored)
    assert await service.store.actions(game.id, include_undone=True) == before
    other = await SqliteStore.open(db_path)
    try:
        assert await other.actions(game.id, include_undone=True) == before
        problems = (await GameService(other, duel_systems()).verify(over.id)).problems
        assert problems == []
    finally:
        await other.close()


async def test_a_game_reopened_after_it_ended_keeps_its_archive_and_archives_its_new_rows(store: SqliteStore) -> None:
    game = await store.create_game(
        guild=1, channel=1, system="duel", scenario="standard", options={}, seed="00" * 32, seed_hash="h",
        seats=("red", "blue"), time_control={}, creator=1,
    )  # fmt: skip

    def step(n: int) -> NewAction:
        return NewAction("red", 1, "advance", {"n": n}, [{"kind": "advance", "text": f"Step {n}.", "data": {"n": n}}])

    for n in range(1, 6):
        game, _ = await store.record_action(game, step(n))
    game, _ = await store.record_action(game, step(6), status="finished", result={"winner": "red"})
    (dictionary,) = raw_rows(Path(store.path), "SELECT archive_dictionary FROM games")[0]
    game = await store.undo_actions(game, [6])
    game = await store.set_status(game, "active")
    for n in range(7, 9):
        game, _ = await store.record_action(game, step(n))
    assert raw_rows(Path(store.path), "SELECT typeof(events) FROM actions WHERE seq = 8") == [("blob",)]
    await store.set_status(game, "abandoned")
    assert raw_rows(Path(store.path), "SELECT archive_dictionary FROM games") == [(dictionary,)]  # never changed
    rows = await store.actions(game.id, include_undone=True)
    assert [r.args["n"] for r in rows] == list(range(1, 9))
    assert [r.events[0]["text"] for r in rows] == [f"Step {n}." for n in range(1, 9)]
    assert [r.undone for r in rows] == [False] * 5 + [True] + [False] * 2


async def test_a_version_3_database_upgrades_in_place(tmp_path: Path) -> None:
    path = tmp_path / "version3.sqlite3"
    shutil.copy(VERSION_3, path)
    expected = json.loads(VERSION_3.with_suffix(".json").read_text())
    hashes = raw_rows(path, "SELECT game, seq, events_hash, chain FROM actions ORDER BY game, seq")
    heads = raw_rows(path, "SELECT id, chain_head FROM games ORDER BY id")
    assert raw_rows(path, "PRAGMA user_version") == [(3,)] and all(isinstance(h[2], str) for h in hashes)
    store = await SqliteStore.open(path)
    try:
        assert await store.schema_version() == len(MIGRATIONS) >= 4
        blobs = raw_rows(path, "SELECT game, seq, events_hash, chain FROM actions ORDER BY game, seq")
        assert [(g, s, bytes(e).hex(), bytes(c).hex()) for g, s, e, c in blobs] == hashes  # type: ignore[arg-type]
        assert raw_rows(path, "SELECT id, chain_head FROM games ORDER BY id") == heads
        (schema,) = raw_rows(path, "SELECT sql FROM sqlite_schema WHERE name = 'actions'")[0]
        assert "WITHOUT ROWID" in str(schema)
        finished = raw_rows(path, "SELECT events FROM actions WHERE game = 1")
        assert all(isinstance(e, bytes) and e[0] == ARCHIVED for (e,) in finished)  # the game over is archived
        service = GameService(store, duel_systems())
        games = {game_id: await store.game(game_id) for game_id in (1, 2)}
        for game_id, game in games.items():
            assert isinstance(game, GameRow)
            assert await GameService(store, duel_systems()).state(game) == expected[str(game_id)]
        assert (await service.verify(1)).problems == []
        await service.act(CHANNEL + 1, BLUE, "advance", {"steps": 1})  # the live game plays on
        await service.resign(CHANNEL + 1, RED)
        assert (await service.verify(2)).problems == []
    finally:
        await store.close()


async def test_an_archive_packed_while_the_log_changed_overwrites_nothing_that_changed(
    db_path: Path, service: GameService
) -> None:
    await started(service)
    await play(service, 4)
    game = (await service.table(CHANNEL)).game
    store = service.store
    async with store.transaction() as db:
        archive = await store_module._log_to_archive(db, game.id)  # packed, not yet written
    assert archive is not None and archive.made is not None
    async with store.transaction() as db:  # meanwhile, a row changes
        await db.execute("UPDATE actions SET events = '[]' WHERE game = ? AND seq = 3", (game.id,))
    async with store.transaction() as db:
        await store_module._write_archive(db, archive)
    stored = dict(raw_rows(db_path, "SELECT seq, events FROM actions"))
    assert stored[3] == "[]" and all(isinstance(e, bytes) and e[0] == ARCHIVED for s, e in stored.items() if s != 3)
    async with store.transaction() as db:  # an archive packed against no dictionary, when one was made meanwhile
        await db.execute("UPDATE actions SET events = '[]' WHERE game = ? AND seq = 4", (game.id,))
    async with store.transaction() as db:
        await store_module._write_archive(db, archive)
    assert raw_rows(db_path, "SELECT events FROM actions WHERE seq = 4") == [("[]",)]


def busy_while_archiving(monkeypatch: pytest.MonkeyPatch, db_path: Path) -> sqlite3.Connection:
    """Another program takes the file's write lock as the next archive is packed (it holds it until the caller
    rolls it back): the archive must be left undone."""
    intruder = sqlite3.connect(db_path, isolation_level=None)
    packed = store_module._log_to_archive

    async def pack_then_lock(db: Any, game_id: int) -> Any:
        archive = await packed(db, game_id)
        monkeypatch.setattr(store_module, "_log_to_archive", packed)
        intruder.execute("BEGIN IMMEDIATE")
        return archive

    monkeypatch.setattr(store_module, "_log_to_archive", pack_then_lock)
    return intruder


def archived(db_path: Path) -> bool:
    """Whether every row of the log is archived (packed, or plain where packing gains nothing)."""
    rows = raw_rows(db_path, "SELECT events FROM actions")
    return bool(rows) and all((isinstance(e, bytes) and e[0] == ARCHIVED) or isinstance(e, str) for (e,) in rows)


async def test_an_archive_skipped_while_the_file_was_busy_is_done_by_the_bots_next_clock(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = await open_fake(db_path)
    try:
        service = fake.bot.service
        await started(service)
        await play(service, 6)
        before = await service.store.actions(1, include_undone=True)
        intruder = busy_while_archiving(monkeypatch, db_path)
        await service.resign(CHANNEL, BLUE)  # the game ends; its archive meets the lock
        intruder.rollback()
        intruder.close()
        assert raw_rows(db_path, "SELECT status, archive_dictionary IS NULL FROM games") == [("finished", 1)]
        assert not archived(db_path)
        reminders: Any = fake.bot.get_cog("Reminders")  # loaded as an extension: not this module's class
        assert type(reminders).__name__ == "Reminders"
        await reminders.send_due()
        assert raw_rows(db_path, "SELECT archive_dictionary IS NULL FROM games") == [(0,)] and archived(db_path)
        assert await service.store.actions(1, include_undone=True) == before
        assert await service.store.archive_left_undone() == 0  # nothing left
    finally:
        await close_fake(fake)


async def test_an_archive_skipped_before_a_restart_is_done_after_it(
    db_path: Path, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    await started(service)
    await play(service, 5)
    intruder = busy_while_archiving(monkeypatch, db_path)
    await service.resign(CHANNEL, RED)
    intruder.rollback()
    intruder.close()
    assert not archived(db_path)
    other = await SqliteStore.open(db_path)  # a restart: the skipped game is found in the file
    try:
        assert await other.archive_left_undone() == 1
        assert archived(db_path) and (await GameService(other, duel_systems()).verify(1)).problems == []
    finally:
        await other.close()


async def test_a_reopened_game_ended_again_while_the_file_was_busy_archives_its_new_rows_later(
    db_path: Path, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    await started(service)
    await play(service, 4)
    await service.resign(CHANNEL, RED)
    store = service.store
    game = await store.game(1)
    assert game is not None and archived(db_path)
    game = await store.set_status(game, "active")  # a moderator's correction reopens it
    await play(service, 2)
    game = (await service.table(CHANNEL)).game
    intruder = busy_while_archiving(monkeypatch, db_path)
    await store.set_status(game, "abandoned")
    intruder.rollback()
    intruder.close()
    assert not archived(db_path)  # its dictionary is set: only this process remembers the skip
    assert await store.archive_left_undone() == 1 and archived(db_path)
