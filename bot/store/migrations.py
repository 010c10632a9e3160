"""The store's schema, one change per version (:data:`MIGRATIONS`): :meth:`bot.store.sqlite.SqliteStore.open` brings any
older file up to date (``PRAGMA user_version`` holds the version). Add a change at the end; never edit one
that has shipped.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

import aiosqlite

from bot.store import chain
from bot.store.packing import _hash_blob, _log_to_archive, _write_archive

Migration = str | Callable[[aiosqlite.Connection], Awaitable[None]]
"""A schema change: a SQL script, or a function run in the migration's transaction (to compute values)."""


async def _steered_leagues(db: aiosqlite.Connection) -> None:
    """Leagues an organiser steers: the one-league-per-channel index counts only leagues being registered or
    played (a cancelled one frees its channel); a round robin keeps the table fixed when registration closed
    (``schedule``, JSON rounds of [first, second] pairs, ``null`` for a bye's missing opponent); a league may
    start its rounds every ``round_every`` days, late games then follow ``late_rule``; ``forbidden`` pairs
    never meet; ``fixed`` pairs are the next round's manual pairings. A forfeit of a game never started is
    now a ``walkover`` (a ``double-forfeit`` when both were away): it was not played, so it is not rated.

    The round robins closed before keep the table they were paired by (each player turned round the last)."""
    for statement in (
        "DROP INDEX one_running_league_per_channel",
        "CREATE UNIQUE INDEX one_live_league_per_channel ON leagues(channel) "
        "WHERE status IN ('registration', 'running')",
        "ALTER TABLE leagues ADD COLUMN schedule TEXT",
        "ALTER TABLE leagues ADD COLUMN round_every REAL NOT NULL DEFAULT 0",
        "ALTER TABLE leagues ADD COLUMN late_rule TEXT NOT NULL DEFAULT 'carry'",
        "ALTER TABLE leagues ADD COLUMN all_at_once INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE leagues ADD COLUMN forbidden TEXT NOT NULL DEFAULT '[]'",
        "ALTER TABLE leagues ADD COLUMN fixed TEXT NOT NULL DEFAULT '[]'",
        "UPDATE league_games SET how = CASE WHEN first_score = 0 AND second_score = 0 THEN 'double-forfeit' "
        "ELSE 'walkover' END WHERE how = 'forfeit' AND game IS NULL AND second IS NOT NULL",
    ):
        await db.execute(statement)
    leagues = list(
        await db.execute_fetchall("SELECT id, format FROM leagues WHERE format != 'swiss' AND status != 'registration'")
    )
    for league_id, format_ in leagues:
        players = [
            int(r[0])
            for r in await db.execute_fetchall(
                "SELECT user_id FROM league_players WHERE league = ? ORDER BY joined, user_id", (league_id,)
            )
        ]
        await db.execute(
            "UPDATE leagues SET schedule = ? WHERE id = ?",
            (json.dumps(_ring_table(players, format_ == "both-sides")), league_id),
        )


def _ring_table(players: list[int], both_sides: bool) -> list[list[list[int | None]]]:
    """The round robin table used before the Berger tables (the last player fixed, the others turned round him),
    frozen here so that the round robins closed before keep their schedule."""
    field: list[int | None] = list(players)
    if len(field) % 2:
        field.append(None)
    n = len(field)
    ring, fixed = field[:-1], field[-1]
    rounds: list[list[list[int | None]]] = []
    for number in range(n - 1):
        pairs = [[ring[0], fixed] if number % 2 == 0 else [fixed, ring[0]]]
        pairs += [[ring[i], ring[-i]] for i in range(1, n // 2)]
        rounds.append(pairs)
        ring = ring[-1:] + ring[:-1]
    if both_sides:
        rounds += [[[b, a] for a, b in r] for r in rounds]
    return rounds


async def _chain_the_logs(db: aiosqlite.Connection) -> None:
    """Version 2: every action carries the hash of its events and the chain hash; each game keeps its head;
    a sealed decision names the action that carries it. The logs of older games are chained as they stand."""
    for statement in (
        "ALTER TABLE actions ADD COLUMN events_hash TEXT",
        "ALTER TABLE actions ADD COLUMN chain TEXT",
        "ALTER TABLE actions ADD COLUMN undone_after INTEGER",
        "ALTER TABLE games ADD COLUMN chain_head TEXT",
        "ALTER TABLE secrets ADD COLUMN seq INTEGER",
    ):
        await db.execute(statement)
    games = list(await db.execute_fetchall("SELECT id, seed_hash FROM games"))
    for game_id, seed_hash in games:
        previous = str(seed_hash)
        rows = list(
            await db.execute_fetchall(
                "SELECT seq, seat, user_id, verb, args, events, undone FROM actions WHERE game = ? ORDER BY seq",
                (game_id,),
            )
        )
        for seq, seat, user_id, verb, args, events, _ in rows:
            own = chain.events_hash(json.loads(events))
            previous = chain.link(previous, seq, seat, user_id, verb, json.loads(args), own)
            await db.execute(
                "UPDATE actions SET events_hash = ?, chain = ? WHERE game = ? AND seq = ?",
                (own, previous, game_id, seq),
            )
        undone = [row[0] for row in rows if row[6]]  # when they were undone is not known: chained at the end
        for seq in chain.undo_order(undone):
            previous = chain.undo_link(previous, seq)
            await db.execute(
                "UPDATE actions SET undone_after = ? WHERE game = ? AND seq = ?", (rows[-1][0], game_id, seq)
            )
        await db.execute("UPDATE games SET chain_head = ? WHERE id = ?", (previous, game_id))


async def _binary_hashes_without_rowid(db: aiosqlite.Connection) -> None:
    """Version 4: the log becomes a ``WITHOUT ROWID`` table whose two hashes are 32-byte blobs (hex text took
    twice the room, and the rowid table a second index of its key); the logs of games already over are
    archived (:meth:`Store.archive`)."""
    await db.create_function("umpire_hash_blob", 1, _hash_blob, deterministic=True)
    for statement in (
        "ALTER TABLE games ADD COLUMN archive_dictionary BLOB",
        """CREATE TABLE actions_v4 (
            game INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            seat TEXT NOT NULL,
            user_id INTEGER,
            verb TEXT NOT NULL,
            args TEXT NOT NULL,
            events TEXT NOT NULL,
            time REAL NOT NULL,
            undone INTEGER NOT NULL DEFAULT 0,
            events_hash BLOB,
            chain BLOB,
            undone_after INTEGER,
            PRIMARY KEY (game, seq)
        ) WITHOUT ROWID""",
        "INSERT INTO actions_v4 SELECT game, seq, seat, user_id, verb, args, events, time, undone, "
        "umpire_hash_blob(events_hash), umpire_hash_blob(chain), undone_after FROM actions",
        "DROP TABLE actions",
        "ALTER TABLE actions_v4 RENAME TO actions",
    ):
        await db.execute(statement)
    over = await db.execute_fetchall("SELECT id FROM games WHERE status NOT IN ('open', 'active')")
    for (game_id,) in list(over):
        archive = await _log_to_archive(db, int(game_id))
        if archive is not None:
            await _write_archive(db, archive)


MIGRATIONS: tuple[Migration, ...] = (
    # Version 1: the whole schema.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild INTEGER,
        channel INTEGER NOT NULL,
        system TEXT NOT NULL,
        scenario TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seed TEXT NOT NULL,
        seed_hash TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'open',
        time_control TEXT NOT NULL DEFAULT '{}',
        revision INTEGER NOT NULL DEFAULT 0,
        result TEXT,
        creator INTEGER,
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_live_game_per_channel ON games(channel) WHERE status IN ('open', 'active');
    CREATE TABLE seats (
        game INTEGER NOT NULL REFERENCES games(id),
        seat TEXT NOT NULL,
        user_id INTEGER,
        vacation_until REAL,
        vacation_request REAL,
        reserve_used REAL NOT NULL DEFAULT 0,
        PRIMARY KEY (game, seat)
    );
    CREATE TABLE actions (
        game INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        seat TEXT NOT NULL,
        user_id INTEGER,
        verb TEXT NOT NULL,
        args TEXT NOT NULL,
        events TEXT NOT NULL,
        time REAL NOT NULL,
        undone INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game, seq)
    );
    CREATE TABLE snapshots (
        game INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        state TEXT NOT NULL,
        PRIMARY KEY (game, seq)
    );
    CREATE TABLE corrections (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game INTEGER NOT NULL REFERENCES games(id),
        moderator INTEGER,
        kind TEXT NOT NULL,
        text TEXT NOT NULL,
        data TEXT NOT NULL DEFAULT '{}',
        time REAL NOT NULL
    );
    CREATE TABLE reminders (
        game INTEGER NOT NULL REFERENCES games(id),
        seat TEXT NOT NULL,
        due REAL NOT NULL,
        PRIMARY KEY (game, seat)
    );
    CREATE TABLE secrets (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game INTEGER NOT NULL REFERENCES games(id),
        owner TEXT NOT NULL,
        receipt TEXT NOT NULL,
        payload TEXT NOT NULL,
        revealed INTEGER NOT NULL DEFAULT 0,
        time REAL NOT NULL
    );
    CREATE TABLE pending (
        token TEXT PRIMARY KEY,
        game INTEGER NOT NULL REFERENCES games(id),
        revision INTEGER NOT NULL,
        seat TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        verb TEXT NOT NULL,
        args TEXT NOT NULL
    );
    """,
    # Version 2: the hash chain of the action log (bot/store/chain.py).
    _chain_the_logs,
    # Version 3: each seat's count of live actions on the game row (the buttons' freshness and the snapshot
    # cadence without reading the log), filled from the log; snapshots thinned to the latest two per game.
    """
    ALTER TABLE games ADD COLUMN seat_actions TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE games ADD COLUMN log_dictionary BLOB;
    UPDATE games SET seat_actions = COALESCE(
        (SELECT json_group_object(seat, n) FROM
            (SELECT game, seat, COUNT(*) AS n FROM actions WHERE undone = 0 GROUP BY game, seat) AS counted
         WHERE counted.game = games.id),
        '{}');
    DELETE FROM snapshots WHERE seq < (
        SELECT newer.seq FROM snapshots AS newer WHERE newer.game = snapshots.game
        ORDER BY newer.seq DESC LIMIT 1 OFFSET 1
    );
    """,
    # Version 4: the chain's hashes as 32-byte blobs in a log without rowid; finished games' logs archived.
    _binary_hashes_without_rowid,
    # Version 5: each user's preferences (turn-start reports on or off).
    """
    CREATE TABLE preferences (
        user_id INTEGER NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (user_id, key)
    );
    """,
    # Version 6: leagues (bot/leagues/store.py): seasons, players, rounds, pairings with their results, a log.
    """
    CREATE TABLE leagues (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild INTEGER,
        channel INTEGER NOT NULL,
        name TEXT NOT NULL,
        system TEXT NOT NULL,
        scenario TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        format TEXT NOT NULL,
        rounds INTEGER NOT NULL,
        days_per_move REAL NOT NULL DEFAULT 0,
        reserve_days REAL NOT NULL DEFAULT 0,
        round_days REAL NOT NULL DEFAULT 0,
        level_scores TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL DEFAULT 'registration',
        organiser INTEGER,
        created REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_league_name_per_server ON leagues(guild, name);
    CREATE UNIQUE INDEX one_running_league_per_channel ON leagues(channel) WHERE status != 'finished';
    CREATE TABLE league_players (
        league INTEGER NOT NULL REFERENCES leagues(id),
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        side INTEGER,
        joined REAL NOT NULL,
        withdrawn INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (league, user_id)
    );
    CREATE TABLE league_rounds (
        league INTEGER NOT NULL REFERENCES leagues(id),
        number INTEGER NOT NULL,
        system TEXT NOT NULL,
        scenario TEXT NOT NULL,
        started REAL NOT NULL,
        deadline REAL,
        PRIMARY KEY (league, number)
    );
    CREATE TABLE league_games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        league INTEGER NOT NULL REFERENCES leagues(id),
        round INTEGER NOT NULL,
        first INTEGER NOT NULL,
        second INTEGER,
        game INTEGER REFERENCES games(id),
        thread INTEGER,
        deadline REAL,
        first_score REAL,
        second_score REAL,
        how TEXT,
        ended REAL,
        late_told INTEGER NOT NULL DEFAULT 0
    );
    CREATE UNIQUE INDEX one_pairing_per_game ON league_games(game) WHERE game IS NOT NULL;
    CREATE TABLE league_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        league INTEGER NOT NULL REFERENCES leagues(id),
        moderator INTEGER,
        kind TEXT NOT NULL,
        text TEXT NOT NULL,
        time REAL NOT NULL
    )
    """,
    # Version 7: correspondence clocks per seat (bot/service/timekeeping.py): when each seat's required decision
    # began, its vacation's start, the vacation granted so far, whether its time ran out once; each action keeps
    # when its seat's decision began and the reserve it charged (an undo gives both back). Games under way start
    # their seats' clocks at their last change, as the old clock counted.
    """
    ALTER TABLE seats ADD COLUMN began REAL;
    ALTER TABLE seats ADD COLUMN vacation_from REAL;
    ALTER TABLE seats ADD COLUMN vacation_used REAL NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN timed_out INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE actions ADD COLUMN began REAL;
    ALTER TABLE actions ADD COLUMN charged REAL NOT NULL DEFAULT 0;
    UPDATE seats SET began = (SELECT updated FROM games WHERE games.id = seats.game)
        WHERE seat IN (SELECT seat FROM reminders WHERE reminders.game = seats.game);
    UPDATE seats SET vacation_from = MIN(vacation_until, (SELECT updated FROM games WHERE games.id = seats.game))
        WHERE vacation_until IS NOT NULL;
    """,
    # Version 8: leagues an organiser steers (bot/leagues/store.py, issue 29): a cancelled league frees its channel;
    # a round robin's table is stored when registration closes; scheduled rounds and their rule for late
    # games; forbidden pairings; games never started are told apart from forfeits of games played.
    _steered_leagues,
    # Version 9: rules versions and dice kept (issue 37): each game and each action records the rules version of
    # its system it was played under, and each action the dice it rolled (bot/store/chain.py chains both). Older
    # rows keep NULL.
    """
    ALTER TABLE games ADD COLUMN rules INTEGER;
    ALTER TABLE actions ADD COLUMN rules INTEGER;
    ALTER TABLE actions ADD COLUMN draws TEXT
    """,
    # Version 10: claims (issue 31): a Discord interaction or a timer's firing (a vacation's end, a league's late
    # games, a scheduled round) is acted on by the one process that claims its key first.
    """
    CREATE TABLE claims (
        key TEXT PRIMARY KEY,
        time REAL NOT NULL
    )
    """,
)
"""The schema, one change per version; version ``n`` is ``MIGRATIONS[n - 1]``."""
