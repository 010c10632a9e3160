"""A database the bot cannot use: every command says why in one sentence and exits non-zero; a lock held by
another program is refused quickly and never holds up the other games' reads."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.commands.layer import STORE_BUSY, CommandLayer
from bot.service.game_service import GameService
from bot.store.records import StoreBusyError, StoreError, StoreOpenError
from bot.store.sqlite import SqliteStore
from tests.bot.conftest import BLUE, CHANNEL, RED, ctx, started
from tests.bot.doubles import duel_systems

ROOT = Path(__file__).resolve().parents[2]


async def a_good_file(path: Path) -> None:
    """A store with one started Duel game and enough rows to span many pages."""
    store = await SqliteStore.open(path)
    try:
        service = GameService(store, duel_systems())
        await started(service)
        for n in range(200):
            await service.create(guild=1, channel=10_000 + n, caller=BLUE, system_id="duel", scenario="standard")
    finally:
        await store.close()


def zeroed_header(path: Path) -> None:
    with path.open("r+b") as file:
        file.write(b"\0" * 100)


def truncated(path: Path) -> None:
    os.truncate(path, path.stat().st_size // 2)


def broken_page(path: Path) -> None:
    """A b-tree page whose header is garbage: SQLite opens the file, the quick check finds the damage."""
    with path.open("r+b") as file:
        file.seek(4096 * 3)
        file.write(b"\x0d" + b"\xff" * 7)


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """The file made read-only, even for root (the immutable attribute), or the test skipped."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)
        return
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode:
        pytest.skip("cannot make a file read-only for root here")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


@contextmanager
def locked_by_another_process(path: Path) -> Iterator[None]:
    """Another process holds an exclusive lock on the file (readers and writers are shut out)."""
    code = (
        "import sqlite3, sys, time\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('PRAGMA locking_mode=EXCLUSIVE'); c.execute('BEGIN EXCLUSIVE')\n"
        "c.execute('CREATE TABLE IF NOT EXISTS intruder (x)')\n"
        "print('locked', flush=True); time.sleep(120)\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        yield
    finally:
        holder.kill()
        holder.wait()


def umpire(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    """Run the ``umpire`` command in a child process; it must end by itself well within the timeout."""
    env = {**os.environ, "DISCORD_TOKEN": "not-a-token", "UMPIRE_DB": str(db)}
    return subprocess.run(
        [sys.executable, "-m", "bot.transports.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def assert_clear_failure(done: subprocess.CompletedProcess[str], words: str) -> None:
    assert done.returncode != 0, done
    assert "Traceback" not in done.stderr, done.stderr
    assert words in done.stderr, done.stderr


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (zeroed_header, "it is damaged (file is not a database); restore the latest backup"),
        (truncated, "it is damaged"),
        (broken_page, "the integrity check found damage"),
    ],
)
async def test_a_damaged_file_is_refused_by_every_command_with_a_sentence(
    tmp_path: Path, damage: object, words: str
) -> None:
    path = tmp_path / "damaged.sqlite3"
    await a_good_file(path)
    damage(path)  # type: ignore[operator]
    done = umpire("run", db=path)  # the start-up's quick check finds even a page the others never read
    assert_clear_failure(done, words)
    assert done.stderr.startswith(f"umpire: cannot use the database {path}")
    if damage is not broken_page:
        for command in ("replay", "verify"):
            assert_clear_failure(umpire(command, "1", db=path), words)


async def test_a_read_only_file_is_refused_by_the_bot_and_still_read_by_replay(tmp_path: Path) -> None:
    path = tmp_path / "read-only.sqlite3"
    await a_good_file(path)
    with read_only(path):
        assert_clear_failure(umpire("run", db=path), "it is read-only (give the bot's user write access")
        replay = umpire("replay", "1", db=path)
    assert "Traceback" not in replay.stderr and replay.returncode != 0  # Duel is not installed in the CLI
    assert "there is no game system 'duel'" in replay.stderr


async def test_a_file_locked_by_another_process_is_refused_by_every_command(tmp_path: Path) -> None:
    path = tmp_path / "locked.sqlite3"
    await a_good_file(path)
    with locked_by_another_process(path):
        for command in (("run",), ("replay", "1"), ("verify", "1")):
            assert_clear_failure(umpire(*command, db=path), "another program holds a lock on it")


def aiosqlite_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.is_alive() and "_connection_worker_thread" in t.name)


async def test_a_failed_open_leaves_no_connection_thread_behind(tmp_path: Path) -> None:
    path = tmp_path / "zeroed.sqlite3"
    await a_good_file(path)
    zeroed_header(path)
    before = aiosqlite_threads()
    with pytest.raises(StoreOpenError, match="file is not a database"):
        await SqliteStore.open(path)
    # The thread ends once its stop order is processed, which a loaded machine may delay for a while; threads
    # of earlier tests may end meanwhile too, so the count may only fall.
    for _ in range(1000):
        if aiosqlite_threads() <= before:
            break
        await asyncio.sleep(0.01)
    assert aiosqlite_threads() <= before


async def test_a_quick_check_at_start_up_refuses_a_broken_page(tmp_path: Path) -> None:
    path = tmp_path / "broken.sqlite3"
    await a_good_file(path)
    broken_page(path)
    with pytest.raises(StoreOpenError, match="integrity check found damage"):
        await SqliteStore.open(path, check=True)


async def test_the_start_up_check_leaves_the_logs_to_their_readers_and_to_the_check_of_every_page(
    tmp_path: Path,
) -> None:
    """Start-up checks every table but the games' logs, in a time that does not grow with the actions stored;
    a damaged log page is found by the check of every page (``umpire verify``, ``umpire replay``)."""
    path = tmp_path / "log.sqlite3"
    await a_good_file(path)
    with sqlite3.connect(path) as db:
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'actions'").fetchone()
    with path.open("r+b") as file:  # the log's page, its header garbage
        file.seek(4096 * (root - 1))
        file.write(b"\x0d" + b"\xff" * 7)
    store = await SqliteStore.open(path, check=True)
    try:
        with pytest.raises(StoreError, match="integrity check found damage"):
            await store.check_every_page()
    finally:
        await store.close()
    with pytest.raises(StoreOpenError, match="integrity check found damage"):
        await SqliteStore.open(path, check=True, every_page=True)


async def test_a_write_lock_held_elsewhere_refuses_writes_quickly_and_never_holds_up_reads(db_path: Path) -> None:
    store = await SqliteStore.open(db_path)
    try:
        service = GameService(store, duel_systems())
        layer = CommandLayer(service, "duel")
        await started(service)
        await started(service, channel=CHANNEL + 1)
        intruder = sqlite3.connect(db_path, isolation_level=None)  # another program's write transaction
        intruder.execute("BEGIN IMMEDIATE")
        try:
            write = asyncio.create_task(layer.run("act", ctx(RED), {"verb": "roll"}))
            while not store._write_lock.locked():  # until the write waits for the file's lock
                await asyncio.sleep(0.001)
            status = await layer.run("game status", ctx(BLUE, CHANNEL + 1), {})
            assert not write.done(), "a read of another game waited behind the blocked write"
            assert "Refused" not in status[0].text and "wrong" not in status[0].text
            replies = await write
            assert [r.text for r in replies] == [STORE_BUSY]
            with pytest.raises(StoreBusyError):
                await service.act(CHANNEL + 1, RED, "roll", {})
        finally:
            intruder.rollback()
            intruder.close()
        outcome = await service.act(CHANNEL, RED, "roll", {})  # once the lock is gone, play goes on
        assert outcome.seat == "red"
    finally:
        await store.close()
