"""Moving a host's games from one store to another (``umpire migrate-db``): every row of every table copied as
it is (games, seats, the logs with their chain, snapshots, secrets, reminders, leagues, preferences, pending
confirmations, claims), then each copied game read back from both stores and compared, its chain checked.

The copy goes into an empty store only, one transaction per table, ids kept (a game keeps its number, so the
numbers players were shown still name it); the target's id counters then start after the copied ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.store import chain
from bot.store.records import StoreError
from bot.store.sqlite import SqliteStore

TABLES = (
    "games",
    "seats",
    "actions",
    "snapshots",
    "corrections",
    "reminders",
    "secrets",
    "pending",
    "preferences",
    "leagues",
    "league_players",
    "league_rounds",
    "league_games",
    "league_log",
    "claims",
)
"""Every table of the schema, in an order that copies a row after the rows it refers to."""

NUMBERED = ("games", "corrections", "secrets", "leagues", "league_games", "league_log")
"""The tables whose ids the store numbers itself."""

ORDER = {"seats": "game, rowid"}
"""How a table's rows are read when their order matters (a game's seats, in the order the system lists them)."""

BATCH = 500
"""Rows written per statement batch."""


@dataclass
class CopyReport:
    """What a copy did and what its check found."""

    rows: dict[str, int] = field(default_factory=dict)
    """Rows copied, by table."""
    games_checked: int = 0
    problems: list[str] = field(default_factory=list)
    """Every difference found between a game in the source and its copy, one sentence each."""


async def copy_store(source: SqliteStore, target: SqliteStore) -> CopyReport:
    """Copy every row of ``source`` into the empty ``target``, then check each copied game (:func:`check_copy`).

    :raises StoreError: if the target already holds games or leagues (nothing is written then).
    """
    for table in ("games", "leagues"):
        if await target.query(f"SELECT 1 FROM {table} LIMIT 1"):
            raise StoreError(f"the target already holds {table}: copy into an empty database")
    report = CopyReport()
    for table in TABLES:
        columns = [str(r["name"]) for r in await source.query(f"PRAGMA table_info({table})")]
        order = ORDER.get(table, ", ".join(columns[:1]))
        rows = await source.query(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}")
        marks = ", ".join("?" for _ in columns)
        async with target.transaction() as db:
            for start in range(0, len(rows), BATCH):
                await db.executemany(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                    [tuple(r) for r in rows[start : start + BATCH]],
                )
        report.rows[table] = len(rows)
    await target.restart_numbering(NUMBERED)
    await check_copy(source, target, report)
    return report


async def check_copy(source: SqliteStore, target: SqliteStore, report: CopyReport) -> None:
    """Read every game back from both stores and compare what the service reads of it (the game, its seats, its
    whole log with undone actions, its snapshots, secrets, corrections and reminders); check the copy's chain."""
    for row in await source.query("SELECT id FROM games ORDER BY id"):
        game_id = int(row["id"])
        report.games_checked += 1
        readings = zip(await _reading(source, game_id), await _reading(target, game_id), strict=True)
        for what, (original, copy) in zip(WHAT_IS_COMPARED, readings, strict=True):
            if original != copy:
                report.problems.append(f"game #{game_id}: {what} differs in the copy")
        before, after = await _chain_problems(source, game_id), await _chain_problems(target, game_id)
        report.problems += [f"game #{game_id} in the copy: {p}" for p in after if p not in before]


WHAT_IS_COMPARED = (
    "the game",
    "its seats",
    "its log",
    "its latest snapshot",
    "its secrets",
    "its corrections",
    "its reminders",
)
"""What :func:`check_copy` compares of each game, in the order :func:`_reading` reads it."""


async def _reading(store: SqliteStore, game_id: int) -> tuple[object, ...]:
    """What the service reads of a game in ``store`` (:data:`WHAT_IS_COMPARED`)."""
    return (
        await store.game(game_id),
        await store.seats(game_id),
        await store.actions(game_id, include_undone=True),
        await store.latest_snapshot(game_id),
        await store.secrets(game_id),
        await store.corrections(game_id),
        await store.reminders(game_id),
    )


async def _chain_problems(store: SqliteStore, game_id: int) -> list[str]:
    """What the chain check says of a game's log in ``store`` (:func:`bot.store.chain.check`)."""
    game = await store.game(game_id)
    if game is None:
        return ["the game is missing"]
    receipts = {s.seq: s.receipt for s in await store.secrets(game_id) if s.seq is not None}
    links = [
        chain.StoredLink(
            a.seq, a.seat, a.user_id, a.verb, a.args, a.events, a.events_hash, a.chain, a.undone, a.undone_after,
            chain.action_record(a.rules, a.draws, receipts.get(a.seq)),
        )
        for a in await store.actions(game_id, include_undone=True)
    ]  # fmt: skip
    return chain.check(game.seed_hash, links, game.chain_head)
