"""The store: WAL, schema version, one live game per channel, one transaction per action."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.store.opening import open_store
from bot.store.pg_migrations import PG_MIGRATIONS
from bot.store.records import ChannelBusyError, NewAction, RevisionError
from bot.store.sqlite import MIGRATIONS, SqliteStore

ROOT = Path(__file__).resolve().parents[2]

BACKENDS = ("sqlite", "postgresql")
"""The store's contract holds on both backends (tests/conftest.py runs each test on each)."""


async def new_game(store: SqliteStore, channel: int = 1) -> object:
    return await store.create_game(
        guild=1,
        channel=channel,
        system="duel",
        scenario="standard",
        options={},
        seed="00" * 32,
        seed_hash="h",
        seats=("red", "blue"),
        time_control={},
        creator=1,
    )


async def test_a_store_is_at_the_latest_schema_numbered_alike_on_both_backends(store: SqliteStore) -> None:
    assert await store.journal_mode() in ("wal", "postgresql")
    assert await store.schema_version() == len(MIGRATIONS) == len(PG_MIGRATIONS)


async def test_one_live_game_per_channel_many_per_server(store: SqliteStore) -> None:
    await new_game(store, 1)
    await new_game(store, 2)
    with pytest.raises(ChannelBusyError):
        await new_game(store, 1)


async def test_an_action_is_all_or_nothing(store: SqliteStore) -> None:
    game = await new_game(store)
    action = NewAction("red", 1, "advance", {"steps": 1}, [{"kind": "advance", "text": "x"}])

    class Crash(Exception):
        pass

    with pytest.raises(Crash):
        async with store.transaction() as db:
            await db.execute(
                "INSERT INTO actions (game, seq, seat, verb, args, events, time) VALUES (?, 1, 'red', 'x', '{}', "
                "'[]', 0)",
                (game.id,),  # type: ignore[attr-defined]
            )
            raise Crash  # the process dies between two writes of one action
    assert await store.actions(game.id) == []  # type: ignore[attr-defined]
    fresh, row = await store.record_action(game, action)  # type: ignore[arg-type]
    assert row.seq == 1 and fresh.revision == game.revision + 1  # type: ignore[attr-defined]


async def test_a_write_from_an_outdated_read_is_refused_and_changes_nothing(store: SqliteStore) -> None:
    game = await new_game(store)
    action = NewAction("red", 1, "advance", {}, [])
    await store.record_action(game, action)  # type: ignore[arg-type]
    with pytest.raises(RevisionError):
        await store.record_action(game, action)  # type: ignore[arg-type]
    assert len(await store.actions(game.id)) == 1  # type: ignore[attr-defined]


async def test_killing_the_process_during_a_burst_loses_nothing_acknowledged(
    tmp_path: Path, backend: str, request: pytest.FixtureRequest
) -> None:
    db = request.getfixturevalue("pg_url") if backend == "postgresql" else str(tmp_path / "burst.sqlite3")
    script = textwrap.dedent(
        f"""
        import asyncio, sys
        sys.path.insert(0, {str(ROOT)!r})
        from bot.store.opening import open_store
        from bot.store.records import NewAction

        async def main():
            store = await open_store({db!r})
            game = await store.create_game(guild=1, channel=1, system="duel", scenario="standard", options={{}},
                seed="00", seed_hash="h", seats=("red", "blue"), time_control={{}}, creator=1)
            n = 0
            while True:
                n += 1
                game, row = await store.record_action(game, NewAction("red", 1, "advance", {{"n": n}}, []),
                    state_json={{"n": n}})
                print(row.seq, flush=True)

        asyncio.run(main())
        """
    )
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    acknowledged = 0
    for line in process.stdout:
        acknowledged = int(line)
        if acknowledged >= 60:
            break
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    store = await open_store(db)
    try:
        rows = await store.actions(1)
        assert len(rows) >= acknowledged
        assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
        assert [r.args["n"] for r in rows] == list(range(1, len(rows) + 1))
    finally:
        await store.close()
