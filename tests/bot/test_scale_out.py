"""Several bot processes on one PostgreSQL store (issue 31): per-game serialisation, a dead process's lock, timers
fired once, an interaction applied once."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from bot.store import chain
from bot.store.opening import open_store
from bot.store.records import NewAction, StoreBusyError
from bot.store.sqlite import SqliteStore
from tests.bot.doubles import duel_systems
from tests.bot.fakediscord import FakeUser, bot_behind_fake_discord

ROOT = Path(__file__).resolve().parents[2]
BACKENDS = ("sqlite", "postgresql")
"""Tests that take ``backend`` run on both stores; the others need several processes on one server."""

ANN = FakeUser(11, "ann")
CHANNEL = 700


def script(body: str) -> str:
    """A Python program run as another bot process: the project importable, ``body`` run in ``main()``."""
    return (
        f"import asyncio, json, os, sys, time\nsys.path.insert(0, {str(ROOT)!r})\n"
        + "async def wait_for(path):\n    while not os.path.exists(path):\n        await asyncio.sleep(0.01)\n"
        + "async def main():\n"
        + textwrap.indent(textwrap.dedent(body), "    ")
        + "\nasyncio.run(main())\n"
    )


def run_together(programs: list[str], go: Path) -> list[Any]:
    """Start the programs, let them all go at once (they wait for the file ``go``), and return what each printed
    last, as JSON."""
    started = [subprocess.Popen([sys.executable, "-c", p], stdout=subprocess.PIPE, text=True) for p in programs]
    go.write_text("go")
    outputs = []
    for process in started:
        out, _ = process.communicate(timeout=300)
        assert process.returncode == 0, out
        outputs.append(json.loads(out.strip().splitlines()[-1]))
    return outputs


async def new_game(store: SqliteStore, channel: int = 1) -> Any:
    return await store.create_game(
        guild=1, channel=channel, system="duel", scenario="standard", options={}, seed="00" * 32, seed_hash="h",
        seats=("red", "blue"), time_control={}, creator=1,
    )  # fmt: skip


async def test_four_processes_racing_on_one_game_leave_a_gapless_log_one_winner_per_revision(
    pg_url: str, tmp_path: Path
) -> None:
    store = await open_store(pg_url)
    game = await new_game(store)
    go = tmp_path / "go"
    body = f"""
    from bot.store.opening import open_store
    from bot.store.records import NewAction, RevisionError, StoreBusyError
    store = await open_store({pg_url!r})
    await wait_for({str(go)!r})
    won, refused = [], 0
    while await store.last_seq({game.id}) < 60:
        game = await store.game({game.id})
        seen = await store.actions({game.id})
        if len(seen) >= 60:  # the last action landed between the loop's check and these reads: no more writes
            break
        action = NewAction("red", os.getpid(), "count", {{"saw": len(seen)}}, [{{"n": len(seen) + 1}}])
        try:
            _, row = await store.record_action(game, action, state_json={{"n": len(seen) + 1}})
            won.append([game.revision, row.seq])  # the revision it read and wrote on
        except (RevisionError, StoreBusyError):
            refused += 1
    view = [[r.seq, r.args["saw"], r.chain] for r in await store.actions({game.id})]
    await store.close()
    print(json.dumps({{"won": won, "refused": refused, "view": view}}))
    """
    results = await asyncio.to_thread(run_together, [script(body)] * 4, go)
    rows = await store.actions(game.id)
    final = await store.game(game.id)
    await store.close()
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))  # gapless
    assert all(r.args["saw"] == r.seq - 1 for r in rows)  # every writer had seen every action before its own
    wins = sorted(tuple(w) for result in results for w in result["won"])
    assert [seq for _, seq in wins] == [r.seq for r in rows]  # each action won by exactly one process
    assert len({revision for revision, _ in wins}) == len(wins)  # one winner per revision read
    links = [chain.StoredLink(r.seq, r.seat, r.user_id, r.verb, r.args, r.events, r.events_hash, r.chain) for r in rows]
    assert final is not None and chain.check("h", links, final.chain_head) == []
    stored = [[r.seq, r.args["saw"], r.chain] for r in rows]
    assert all(result["view"] == stored for result in results)  # replay equals every process's view
    assert len({os.getpid(), *(r.user_id for r in rows)}) > 2  # the processes really raced


async def test_a_killed_processs_game_lock_is_released_and_a_waiting_write_is_told_the_board_is_busy(
    pg_url: str,
) -> None:
    store = await open_store(pg_url)
    game = await new_game(store)
    body = f"""
    from bot.store.opening import open_store
    store = await open_store({pg_url!r})
    async with store.transaction() as db:
        await store._lock_game(db, {game.id})
        print("locked", flush=True)
        await asyncio.sleep(3600)
    """
    holder = subprocess.Popen([sys.executable, "-c", script(body)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        with pytest.raises(StoreBusyError, match="board is busy"):
            await store.record_action(game, NewAction("red", 1, "advance", {}, []))
        assert await store.actions(game.id) == []  # nothing changed
    finally:
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait()
    fresh, row = await store.record_action(game, NewAction("red", 1, "advance", {}, []))
    assert row.seq == 1 and fresh.revision == game.revision + 1
    await store.close()


async def test_three_processes_post_each_reminder_and_late_league_notice_exactly_once(
    pg_url: str, tmp_path: Path
) -> None:
    from bot.leagues.store import LeagueStore
    from bot.service.game_service import DAY, Caller, GameService

    store = await open_store(pg_url)
    start = 1_000_000.0
    service = GameService(store, duel_systems(), clock=lambda: start)
    for channel in range(10, 16):
        red, blue = Caller(channel * 10 + 1, "r"), Caller(channel * 10 + 2, "b")
        await service.create(
            guild=1, channel=channel, caller=red, system_id="duel", scenario="standard", days_per_move=2,
            reserve_days=3,
        )  # fmt: skip
        await service.join(channel, red, "red")
        await service.join(channel, blue, "blue")
        await service.start(channel, red)
    leagues = LeagueStore(store)
    league = await leagues.create(
        guild=1, channel=99, name="autumn", system="duel", scenario="standard", format="swiss", rounds=3,
        status="running", organiser=5,
    )  # fmt: skip
    pairings = [(100 + i, 200 + i, None, None, None) for i in range(5)]
    await leagues.add_round(league.id, 1, "duel", "standard", start + DAY, pairings, start)
    await store.close()
    go = tmp_path / "go"
    body = f"""
    from bot.leagues.service import LeagueService
    from bot.service.game_service import GameService
    from bot.store.opening import open_store
    from tests.bot.doubles import duel_systems
    store = await open_store({pg_url!r})
    service = GameService(store, duel_systems(), clock=lambda: {start + 1.6 * DAY})
    room = LeagueService(service)
    await wait_for({str(go)!r})
    posted = []
    for _ in range(3):
        posted += [["reminder", n.table.game.id, n.seat, n.stage] for n in await service.due_reminders()]
        posted += [["late", p.id] for _, late in await room.newly_late() for p in late]
    await store.close()
    print(json.dumps(posted))
    """
    results = await asyncio.to_thread(run_together, [script(body)] * 3, go)
    posted = [tuple(p) for result in results for p in result]
    reminders = [p for p in posted if p[0] == "reminder"]
    late = [p for p in posted if p[0] == "late"]
    assert len(reminders) == len(set(reminders)) == 12  # two seats' warnings in six games, each posted once
    assert {p[3] for p in reminders} == {"warning"}
    assert len(late) == len(set(late)) == 5


async def test_a_repeated_interaction_applies_once(store_target: str) -> None:
    async with bot_behind_fake_discord(store_target, duel_systems()) as fake:
        payload = fake.command_payload(ANN, CHANNEL, "game create", scenario="standard")
        first = await fake.interact(payload)
        again = await fake.interact(payload)
        assert first and again == []
        assert await fake.bot.service.store.count_games(creator=ANN.id) == 1


async def test_an_interaction_another_process_claimed_is_left_to_it(pg_url: str) -> None:
    other = await open_store(pg_url)  # a second bot process on the same store
    async with bot_behind_fake_discord(pg_url, duel_systems()) as fake:
        payload = fake.command_payload(ANN, CHANNEL, "game create", scenario="standard")
        assert await other.claim_once(f"interaction:{payload['id']}")
        assert await fake.interact(payload) == []
        assert await fake.bot.service.store.count_games(creator=ANN.id) == 0
    await other.close()


def test_no_store_transaction_is_held_outside_the_store() -> None:
    """A transaction (and a game's lock with it) is opened only by the store's own writes (the league tables are
    the store's too), never around a Discord call, a picture or a computer move."""
    store = ROOT / "bot" / "store"
    opening = [
        path.relative_to(ROOT)
        for path in (ROOT / "bot").rglob("*.py")
        if store not in path.parents and path != ROOT / "bot" / "leagues" / "store.py"
        and ".transaction()" in path.read_text()
    ]
    assert opening == []


def test_shard_routing_gives_each_server_to_exactly_one_process_and_direct_messages_to_shard_0() -> None:
    import random

    from bot.service.config import Settings, shard_of

    processes = [Settings.from_env({"UMPIRE_SHARD_COUNT": "6", "UMPIRE_SHARDS": ids}) for ids in ("0-1", "2,3", "4-5")]
    assert [p.shards for p in processes] == [(0, 1), (2, 3), (4, 5)]
    assert all(p.shard_count == 6 for p in processes)
    assert shard_of((12_345 << 22) | 4_000_000, 6) == 12_345 % 6  # Discord's rule: (guild_id >> 22) % shard count
    rng = random.Random(31)
    for guild in [None, *(rng.randrange(1 << 40, 1 << 62) for _ in range(500))]:
        owners = [p for p in processes if shard_of(guild, 6) in (p.shards or ())]
        assert len(owners) == 1
        if guild is None:
            assert owners[0] is processes[0]  # direct messages: the process running shard 0
    for wrong in ({"UMPIRE_SHARDS": "0"}, {"UMPIRE_SHARD_COUNT": "2", "UMPIRE_SHARDS": "2"},
                  {"UMPIRE_SHARD_COUNT": "2", "UMPIRE_SHARDS": "a"}, {"UMPIRE_SHARD_COUNT": "0"}):  # fmt: skip
        with pytest.raises(ValueError, match="UMPIRE_SHARD"):
            Settings.from_env(wrong)


async def test_the_bot_runs_the_shards_its_settings_name(tmp_path: Path) -> None:
    from bot.service.config import Settings
    from bot.transports.discord_app import UmpireBot

    store = await open_store(tmp_path / "s.sqlite3")
    settings = Settings.from_env({"UMPIRE_SHARD_COUNT": "4", "UMPIRE_SHARDS": "1,3"})
    bot = UmpireBot(settings, store, duel_systems(), sync_commands=False, run_background_tasks=False)
    assert (bot.shard_count, bot.shard_ids) == (4, [1, 3])
    everything = UmpireBot(Settings(token=None), store, duel_systems(), sync_commands=False)
    assert everything.shard_ids is None  # unset: Discord's recommended count, every shard here
    await store.close()


async def test_a_cached_state_is_checked_against_the_stored_revision(pg_url: str) -> None:
    from bot.service.game_service import GameService
    from tests.bot.conftest import BLUE, RED, started

    first, second = await open_store(pg_url), await open_store(pg_url)
    one, other = GameService(first, duel_systems()), GameService(second, duel_systems())  # two processes
    await started(one, channel=5)
    before = await one.state((await one.table(5)).game)  # now in the first process's cache
    await other.act(5, RED, "advance", {"steps": 2})
    after = await one.state((await one.table(5)).game)
    assert after != before and after["score"]["red"] == before["score"]["red"] + 2
    await one.act(5, RED, "end_turn", {})  # and it acts on the position the other process left
    assert (await other.state((await other.table(5)).game))["active"] == "blue"
    assert BLUE.user_id != RED.user_id
    await first.close()
    await second.close()
