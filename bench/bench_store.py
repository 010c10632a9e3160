"""The store at league scale: an accepted move with a short and a long log, a cold load, and a finished game's disk.

``python bench/bench_store.py`` (about a minute, most of it playing the random games). Three measures:

- **flat cost**: an accepted ``/move`` through the command layer (engine, store, the next prompts and their
  buttons' freshness) in a game whose log holds 10 actions, then 5,000. Both games stand at the same
  position (The Entire Battle after ``bench.midgame.random_game``, seed 7, 540 actions), stored as the
  snapshot at their last action; the rows before it are real actions' rows (the random game's, repeated),
  so the store holds a log of that length, which nothing on an action's path should read. A moderator's
  correction takes each move back (not timed).
- **cold load**: a fresh service loads the 5,000-action game whose latest snapshot is 24 actions back (the
  most a snapshot every 25 actions leaves): the rows it reads, and its time against reading the whole log.
- **disk**: a finished random game (seed ``BENCH_GAME_SEED``, default 1, 1,581 actions) written as the bot
  writes it, its end archiving the log (timed), then the file vacuumed: its bytes against an empty store's,
  and the layout of version 1 (plain JSON snapshots, every one kept) for comparison; the snapshots' zlib
  level by size against time.

``--smoke`` (a few seconds, measures nothing): a position 10 actions in, logs of 10 and 60 actions, a finished
game of 60 random actions, one run of each measure.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
import zlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.midgame import SCENARIO, random_game
from bench.timing import median_ms, print_figures, print_load, sized
from bot.commands.layer import CommandLayer, Context
from bot.service.game_service import Caller, GameService
from bot.store import sqlite as store_module
from bot.store.records import SNAPSHOT_EVERY, GameRow, NewAction
from bot.store.sqlite import SqliteStore, pack_snapshot
from bot.systems import systems
from engine.contract import Action
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.legal import candidate_actions
from engine.vaevictis.state import GameState
from scenarios import load_game

POSITION_SEED = 7
POSITION_ACTIONS = 540
GAME_SEED = int(os.environ.get("BENCH_GAME_SEED", "1"))
RUNS = 15
GERMAN = Caller(11, "ann")
ALLIED = Caller(22, "bob")
MOD = Caller(99, "mod", moderator=True)
FLAT_TARGET = 1.2
"""A move at 5,000 logged actions costs at most 1.2 times a move at 10."""
DISK_TARGET = 300_000
"""A finished game's rows, in bytes."""

Row = tuple[str, str, dict[str, Any], list[dict[str, Any]]]


def logged(game: VaeVictisGame, seed: int, log: list[Action]) -> tuple[list[Row], list[Any]]:
    """The log's rows (seat, verb, args, events) and the state JSON after each action."""
    state = game.new_game(SCENARIO, {}, seed.to_bytes(32, "big"))
    rows, states = [], []
    for action in log:
        state, events = game.apply(state, action)
        rows.append((action.seat, action.verb, dict(action.args), [e.to_json() for e in events]))
        states.append(state)
    return rows, states


async def new_game(service: GameService, channel: int, seed: int) -> GameRow:
    import bot.service.game_service

    bot.service.game_service.new_seed = lambda: seed.to_bytes(32, "big")  # type: ignore[attr-defined]
    await service.create(guild=1, channel=channel, caller=GERMAN, system_id="ardennes44", scenario=SCENARIO)
    await service.join(channel, GERMAN, "german")
    await service.join(channel, ALLIED, "allied")
    await service.start(channel, GERMAN)
    return (await service.table(channel)).game


async def write_log(store: SqliteStore, game: GameRow, rows: list[Row], snapshots: dict[int, Any]) -> None:
    """Append ``rows`` to a game's log in one transaction, with snapshots at the given action numbers."""
    counts: dict[str, int] = dict(game.seat_actions)
    async with store.transaction() as db:
        await db.executemany(
            "INSERT INTO actions (game, seq, seat, user_id, verb, args, events, time) VALUES (?, ?, ?, ?, ?, ?, ?, 0)",
            [
                (game.id, seq, seat, None, verb, json.dumps(args), json.dumps(events))
                for seq, (seat, verb, args, events) in enumerate(rows, start=1)
            ],
        )
        for seat, *_ in rows:
            counts[seat] = counts.get(seat, 0) + 1
        for seq, state_json in snapshots.items():
            await db.execute(
                "INSERT INTO snapshots (game, seq, state) VALUES (?, ?, ?)", (game.id, seq, pack_snapshot(state_json))
            )
        await db.execute(
            "UPDATE games SET seat_actions = ?, revision = revision + 1 WHERE id = ?", (json.dumps(counts), game.id)
        )


def options_of(action: Action) -> dict[str, str]:
    return {k: str(v) for k, v in action.args.items()}


def plan(game: VaeVictisGame, state: GameState) -> tuple[Action, Action]:
    """An activation of the side to move, and a legal move after it."""
    side, prompt = next((s, p) for s, p in game.prompts(state).items() if not p.optional)
    for choice in prompt.choices:
        if choice.verb.startswith("activate"):
            activate = Action(side, choice.verb, dict(choice.args))
            active, _ = game.apply(state, activate)
            for action in candidate_actions(game, active, side):
                if action.verb == "move":
                    try:
                        game.apply(active, action)
                    except Exception:
                        continue
                    return activate, action
    raise RuntimeError("no activation with a move")


async def activated(layer: CommandLayer, ctx: Context, formation: str) -> None:
    """``/activate`` the formation, confirming when the bot asks first (a formation activated again fatigues, 3.5)."""
    replies = await layer.run("activate", ctx, {"formation": formation})
    confirm = next((b for r in replies for b in r.buttons if b.label == "Confirm"), None)
    if confirm is not None:
        replies = await layer.press(confirm.custom_id, ctx)
    assert not replies[0].text.startswith("Refused"), replies[0].text


async def flat_cost(folder: Path) -> list[tuple[str, str]]:
    game = VaeVictisGame(load_game("ardennes44"))
    state, log = random_game(game, POSITION_SEED, sized(POSITION_ACTIONS, 10), rest=True)
    rows, states = logged(game, POSITION_SEED, log)
    activate, move = plan(game, state)
    long_log = sized(5000, 60)
    store = await SqliteStore.open(folder / "flat.sqlite3")
    figures: list[tuple[str, str]] = []
    try:
        service = GameService(store, systems())
        layer = CommandLayer(service, "ardennes44", pictures=False)
        contexts = {}
        for index, length in enumerate((10, long_log)):
            channel = 2000 + index
            created = await new_game(service, channel, POSITION_SEED)
            padded = [rows[i % len(rows)] for i in range(length)]
            await write_log(store, created, padded, {length: state.to_json()})
            user = GERMAN if activate.seat == "german" else ALLIED
            contexts[length] = Context(user, channel, 1)
            formation = str(activate.args.get("formation", "general"))
            await activated(layer, contexts[length], formation)
        times: dict[int, list[float]] = {length: [] for length in contexts}
        for _ in range(sized(RUNS, 1)):  # the two games in turn, so that the machine's load weighs on both alike
            for length, ctx in contexts.items():
                start = time.perf_counter()
                replies = await layer.run("move", ctx, options_of(move))
                times[length].append((time.perf_counter() - start) * 1000)
                assert not replies[0].text.startswith("Refused"), replies[0].text
                await layer.run("mod correct", Context(MOD, ctx.channel, 1), {"count": 1, "reason": "bench"})
        medians = {length: statistics.median(found) for length, found in times.items()}
        for length, median in medians.items():
            figures.append((f"accepted move, {length:,} actions logged", f"{median:.1f} ms"))
        ratio = medians[long_log] / medians[10]
        target = f"{ratio:.2f} (target <= {FLAT_TARGET}: {ratio / FLAT_TARGET:.2f})"
        figures.append((f"ratio {long_log:,} / 10", target))

        # Cold load: the latest snapshot 24 actions back, then the tail.
        channel = 2100
        created = await new_game(service, channel, POSITION_SEED)
        tail = min(SNAPSHOT_EVERY - 1, len(rows) - 1)  # 24: the most a snapshot every 25 actions leaves
        filler = [rows[i % len(rows)] for i in range(max(0, long_log - len(rows)))]
        await write_log(store, created, filler + rows, {len(filler + rows) - tail: states[-tail - 1].to_json()})
        game_row = (await service.table(channel)).game
        decoded: list[int] = []
        original = store_module._action

        def counting(row: Any, *rest: Any) -> Any:
            decoded.append(1)
            return original(row, *rest)

        store_module._action = counting  # type: ignore[assignment]
        loads = []
        for _ in range(sized(5, 1)):
            fresh = GameService(store, systems())
            decoded.clear()
            start = time.perf_counter()
            loaded = await fresh.state(game_row)
            loads.append((time.perf_counter() - start) * 1000)
        store_module._action = original  # type: ignore[assignment]
        assert loaded.to_json() == state.to_json()
        whole = []
        for _ in range(sized(5, 1)):
            start = time.perf_counter()
            await store.actions(game_row.id)
            whole.append((time.perf_counter() - start) * 1000)
        figures.append(
            (
                f"cold load, {len(filler + rows):,} actions logged, snapshot {tail} back",
                f"{statistics.median(loads):.1f} ms, {len(decoded)} rows read "
                f"(reading the whole log alone: {statistics.median(whole):.1f} ms)",
            )
        )
    finally:
        await store.close()
    return figures


async def disk(folder: Path) -> list[tuple[str, str]]:
    game = VaeVictisGame(load_game("ardennes44"))
    final, log = random_game(game, GAME_SEED, sized(6000, 60))
    rows, states = logged(game, GAME_SEED, log)
    empty = folder / "empty.sqlite3"
    opened = await SqliteStore.open(empty)
    await opened.close()
    path = folder / "finished.sqlite3"
    store = await SqliteStore.open(path)
    try:
        await store._db.execute("PRAGMA synchronous=OFF")  # the bench's own speed; sizes are the same
        service = GameService(store, systems())
        row = await new_game(service, 3000, GAME_SEED)
        for number, ((seat, verb, args, events), state) in enumerate(zip(rows, states, strict=True), start=1):
            state_json = state.to_json() if number % SNAPSHOT_EVERY == 0 else None
            row, _ = await store.record_action(row, NewAction(seat, None, verb, args, events), state_json=state_json)
        await store._db.execute("VACUUM")
        in_play = path.stat().st_size - empty.stat().st_size  # the same game before its end, not yet archived
        held: list[float] = []  # how long each write transaction of the game's end holds the write lock
        transaction = store.transaction

        @asynccontextmanager
        async def timed() -> AsyncIterator[Any]:
            async with transaction() as db:
                began = time.perf_counter()
                yield db
            held.append((time.perf_counter() - began) * 1000)

        store.transaction = timed  # type: ignore[method-assign]
        start = time.perf_counter()
        await store.set_status(row, "finished", {"winner": None, "text": "bench"})  # archives the log
        ended_ms = (time.perf_counter() - start) * 1000
        store.transaction = transaction  # type: ignore[method-assign]
        await store._db.execute("VACUUM")
    finally:
        await store.close()
    size = path.stat().st_size - empty.stat().st_size
    log_bytes = sum(len(json.dumps(a)) + len(json.dumps(e)) for _, _, a, e in rows)
    snapshots = [json.dumps(s.to_json()) for s in states[SNAPSHOT_EVERY - 1 :: SNAPSHOT_EVERY]]
    old = log_bytes + sum(len(s) for s in snapshots)
    figures = [
        (
            f"finished game ({len(log)} actions, turn {final.turn}), file bytes over an empty store",
            f"{size / 1000:.0f} kB (target {DISK_TARGET / 1000:.0f} kB: {size / DISK_TARGET:.2f})",
        ),
        ("the same game still in play (log not archived)", f"{in_play / 1000:.0f} kB"),
        (
            "the game's end, archiving its log (one run)",
            f"{ended_ms:.0f} ms, the write lock held {' + '.join(f'{ms:.0f}' for ms in held)} ms",
        ),
        ("the log's JSON (args and events), plain", f"{log_bytes / 1000:.0f} kB"),
        (
            f"version 1 layout: the log plus {len(snapshots)} plain JSON snapshots",
            f"{old / 1000:.0f} kB (snapshot {len(snapshots[-1]) / 1000:.0f} kB each)",
        ),
    ]
    text = snapshots[-1].encode()
    for level in (1, 6, 9):
        packed = zlib.compress(text, level)
        ms = median_ms(lambda level=level: zlib.compress(text, level), sized(9, 1))  # type: ignore[misc]
        figures.append((f"snapshot zlib level {level}", f"{len(packed) / 1000:.1f} kB in {ms:.2f} ms"))
    return figures


async def bench(folder: Path) -> list[tuple[str, str]]:
    return await flat_cost(folder) + await disk(folder)


def main() -> None:
    print_load()
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(bench(Path(folder)))
    print_figures(figures)


if __name__ == "__main__":
    main()
