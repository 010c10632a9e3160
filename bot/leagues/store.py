"""The leagues' tables in the game store (made by :data:`bot.store.migrations.MIGRATIONS`: version 6, then
``_steered_leagues``).

The league tables are SQL of the game store, written in its transactions: the embedded store
(:class:`bot.store.sqlite.SqliteStore`) and the server store (:class:`bot.store.postgres.PostgresStore`, which runs
the same SQL) both keep them.

Results live in ``league_games`` (one row per pairing, byes included); standings and ratings are always
computed from these rows, so a corrected result changes everything that follows from it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.interface import GameStore
from bot.store.records import StoreError
from bot.store.sql import Connection, Row
from bot.store.sqlite import SqliteStore


@dataclass(frozen=True)
class LeagueRow:
    """A league (a season) and its settings."""

    id: int
    guild: int | None
    channel: int
    name: str
    system: str
    scenario: str
    options: dict[str, Any]
    format: str
    rounds: int
    days_per_move: float
    reserve_days: float
    round_days: float
    level_scores: dict[str, float]
    """What the winner scores for a victory level worth less than a full win (the loser gets the rest)."""
    status: str
    """``registration``, ``running``, ``finished`` or ``cancelled``."""
    organiser: int | None
    schedule: list[list[list[int | None]]] | None = None
    """A round robin's table, fixed when registration closes (rounds of [first, second], ``None``: a bye)."""
    round_every: float = 0.0
    """Days between the starts of scheduled rounds (0: the organiser starts each round)."""
    late_rule: str = "carry"
    """What a scheduled round does with a game still being played when the next one starts (:data:`LATE_RULES`)."""
    all_at_once: bool = False
    """A round robin whose games all start together."""
    forbidden: tuple[tuple[int, int], ...] = ()
    """Pairs of players who never meet (a Swiss)."""
    fixed: tuple[tuple[int, int], ...] = ()
    """The next Swiss round's manual pairings (first, second)."""

    @property
    def live(self) -> bool:
        """Whether the league is being registered or played (it holds its channel)."""
        return self.status in ("registration", "running")


@dataclass(frozen=True)
class Entrant:
    """A player of a league: a preferred side (seat position) or none, and whether he withdrew."""

    user_id: int
    name: str
    side: int | None
    withdrawn: bool


@dataclass(frozen=True)
class RoundRow:
    """A round: what it plays and its end date."""

    number: int
    system: str
    scenario: str
    started: float
    deadline: float | None


@dataclass(frozen=True)
class Pairing:
    """One pairing of a round: the game it became, and its result once decided."""

    id: int
    league: int
    round: int
    first: int
    second: int | None
    """``None``: a bye."""
    game: int | None
    thread: int | None
    deadline: float | None
    first_score: float | None
    second_score: float | None
    how: str | None
    """``victory``, ``resignation``, ``forfeit``, ``adjudicated``, ``corrected`` (games played); ``abandoned``,
    ``walkover`` (the opponent had withdrawn before it started), ``double-forfeit`` or ``bye`` (not played)."""
    ended: float | None
    late_told: bool

    @property
    def decided(self) -> bool:
        """Whether the pairing has a result."""
        return self.first_score is not None


def _league(r: Row) -> LeagueRow:
    return LeagueRow(
        r["id"],
        r["guild"],
        r["channel"],
        r["name"],
        r["system"],
        r["scenario"],
        json.loads(r["options"]),
        r["format"],
        r["rounds"],
        r["days_per_move"],
        r["reserve_days"],
        r["round_days"],
        json.loads(r["level_scores"]),
        r["status"],
        r["organiser"],
        json.loads(r["schedule"]) if r["schedule"] else None,
        r["round_every"],
        r["late_rule"],
        bool(r["all_at_once"]),
        tuple((int(a), int(b)) for a, b in json.loads(r["forbidden"])),
        tuple((int(a), int(b)) for a, b in json.loads(r["fixed"])),
    )


def _pairing(r: Row) -> Pairing:
    return Pairing(
        r["id"],
        r["league"],
        r["round"],
        r["first"],
        r["second"],
        r["game"],
        r["thread"],
        r["deadline"],
        r["first_score"],
        r["second_score"],
        r["how"],
        r["ended"],
        bool(r["late_told"]),
    )


class LeagueStore:
    """Reads and writes the league tables; every write is one transaction of the game store."""

    def __init__(self, store: GameStore) -> None:
        if not isinstance(store, SqliteStore):
            raise StoreError("the league tables are kept by the SQL stores only (SQLite or PostgreSQL)")
        self.store = store

    async def running(self) -> list[int]:
        """The ids of the running leagues, oldest first."""
        rows = await self.store.query("SELECT id FROM leagues WHERE status = 'running' ORDER BY id")
        return [int(r["id"]) for r in rows]

    # --- Leagues and players --------------------------------------------------------------------------

    async def create(self, **fields: Any) -> LeagueRow:
        fields["options"] = json.dumps(fields.get("options") or {})
        fields["level_scores"] = json.dumps(fields.get("level_scores") or {})
        names = ", ".join(fields)
        async with self.store.transaction() as db:
            made = await db.execute_fetchall(
                f"INSERT INTO leagues ({names}, created) VALUES ({', '.join('?' for _ in fields)}, ?) RETURNING id",
                (*fields.values(), self.store.clock()),
            )
            league_id = int(next(iter(made))[0])
        league = await self.league(league_id)
        assert league is not None
        return league

    async def league(self, league_id: int) -> LeagueRow | None:
        rows = await self.store.query("SELECT * FROM leagues WHERE id = ?", (league_id,))
        return _league(rows[0]) if rows else None

    async def league_named(self, guild: int | None, name: str) -> LeagueRow | None:
        rows = await self.store.query(
            "SELECT * FROM leagues WHERE guild IS NOT DISTINCT FROM ? AND name = ?", (guild, name)
        )
        return _league(rows[0]) if rows else None

    async def league_in(self, channel: int) -> LeagueRow | None:
        """The league of a channel: run there, or owning the game thread ``channel``; the latest first."""
        rows = await self.store.query(
            "SELECT * FROM leagues WHERE channel = ? OR id IN (SELECT league FROM league_games WHERE thread = ?) "
            "ORDER BY status NOT IN ('registration', 'running'), id DESC LIMIT 1",
            (channel, channel),
        )
        return _league(rows[0]) if rows else None

    async def set_status(self, league_id: int, status: str, rounds: int | None = None) -> None:
        async with self.store.transaction() as db:
            await db.execute("UPDATE leagues SET status = ? WHERE id = ?", (status, league_id))
            if rounds is not None:
                await db.execute("UPDATE leagues SET rounds = ? WHERE id = ?", (rounds, league_id))

    async def update(self, league_id: int, **fields: Any) -> None:
        """Change a league's settings (the columns named), in one transaction."""
        for key in ("options", "level_scores", "schedule", "forbidden", "fixed"):
            if key in fields:
                fields[key] = json.dumps(fields[key]) if fields[key] is not None else None
        if not fields:
            return
        assignments = ", ".join(f"{name} = ?" for name in fields)
        async with self.store.transaction() as db:
            await db.execute(f"UPDATE leagues SET {assignments} WHERE id = ?", (*fields.values(), league_id))

    async def entrants(self, league_id: int) -> list[Entrant]:
        rows = await self.store.query(
            "SELECT * FROM league_players WHERE league = ? ORDER BY joined, user_id", (league_id,)
        )
        return [Entrant(r["user_id"], r["name"], r["side"], bool(r["withdrawn"])) for r in rows]

    async def add_entrant(self, league_id: int, user_id: int, name: str, side: int | None) -> None:
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO league_players (league, user_id, name, side, joined) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (league, user_id) DO UPDATE SET withdrawn = 0, side = excluded.side, name = excluded.name",
                (league_id, user_id, name, side, self.store.clock()),
            )

    async def remove_entrant(self, league_id: int, user_id: int, withdraw: bool, back: bool = False) -> None:
        """Unregister a player (``withdraw``: mark him withdrawn instead; ``back``: undo a withdrawal)."""
        async with self.store.transaction() as db:
            if withdraw or back:
                await db.execute(
                    "UPDATE league_players SET withdrawn = ? WHERE league = ? AND user_id = ?",
                    (int(not back), league_id, user_id),
                )
            else:
                await db.execute("DELETE FROM league_players WHERE league = ? AND user_id = ?", (league_id, user_id))

    # --- Rounds and pairings --------------------------------------------------------------------------

    async def rounds(self, league_id: int) -> list[RoundRow]:
        rows = await self.store.query("SELECT * FROM league_rounds WHERE league = ? ORDER BY number", (league_id,))
        return [RoundRow(r["number"], r["system"], r["scenario"], r["started"], r["deadline"]) for r in rows]

    async def add_round(
        self,
        league_id: int,
        number: int,
        system: str,
        scenario: str,
        deadline: float | None,
        pairings: Sequence[tuple[int, int | None, float | None, float | None, str | None]],
        now: float,
    ) -> None:
        """A round and its pairings (first, second or ``None``, scores when already decided, how), at once."""
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO league_rounds (league, number, system, scenario, started, deadline) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (league_id, number, system, scenario, now, deadline),
            )
            await db.executemany(
                "INSERT INTO league_games (league, round, first, second, deadline, first_score, second_score, how, "
                "ended) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (league_id, number, first, second, deadline, fs, ss, how, now if fs is not None else None)
                    for first, second, fs, ss, how in pairings
                ],
            )

    async def pairings(self, league_id: int) -> list[Pairing]:
        rows = await self.store.query("SELECT * FROM league_games WHERE league = ? ORDER BY round, id", (league_id,))
        return [_pairing(r) for r in rows]

    async def pairing(self, pairing_id: int) -> Pairing | None:
        rows = await self.store.query("SELECT * FROM league_games WHERE id = ?", (pairing_id,))
        return _pairing(rows[0]) if rows else None

    async def pairing_of_game(self, game_id: int) -> Pairing | None:
        rows = await self.store.query("SELECT * FROM league_games WHERE game = ?", (game_id,))
        return _pairing(rows[0]) if rows else None

    async def pairing_in(self, thread: int) -> Pairing | None:
        rows = await self.store.query("SELECT * FROM league_games WHERE thread = ? ORDER BY id DESC", (thread,))
        return _pairing(rows[0]) if rows else None

    async def set_thread(self, pairing_id: int, thread: int) -> None:
        async with self.store.transaction() as db:
            await db.execute("UPDATE league_games SET thread = ? WHERE id = ?", (thread, pairing_id))

    async def set_game(self, pairing_id: int, game_id: int) -> None:
        async with self.store.transaction() as db:
            await db.execute("UPDATE league_games SET game = ? WHERE id = ?", (game_id, pairing_id))

    async def set_result(
        self,
        pairing_id: int,
        scores: tuple[float, float] | None,
        how: str | None,
        log: tuple[int, int | None, str, str] | None = None,
        now: float | None = None,
    ) -> None:
        """Record (or, with ``None``, withdraw) a pairing's result; ``log`` (league, moderator, kind, text) is
        written in the same transaction."""
        async with self.store.transaction() as db:
            await db.execute(
                "UPDATE league_games SET first_score = ?, second_score = ?, how = ?, ended = ? WHERE id = ?",
                (
                    scores[0] if scores else None,
                    scores[1] if scores else None,
                    how,
                    (now if now is not None else self.store.clock()) if scores else None,
                    pairing_id,
                ),
            )
            if log is not None:
                await self._log(db, *log)

    async def set_deadline(self, pairing_id: int, deadline: float, log: tuple[int, int | None, str, str]) -> None:
        async with self.store.transaction() as db:
            await db.execute("UPDATE league_games SET deadline = ?, late_told = 0 WHERE id = ?", (deadline, pairing_id))
            await self._log(db, *log)

    async def claim_late(self, pairing_ids: Sequence[int]) -> list[int]:
        """Mark these pairings' lateness told and return those this call marked: of processes claiming at once,
        each pairing goes to exactly one, which tells it."""
        if not pairing_ids:
            return []
        marks = ", ".join("?" for _ in pairing_ids)
        async with self.store.transaction() as db:
            rows = await db.execute_fetchall(
                f"UPDATE league_games SET late_told = 1 WHERE late_told = 0 AND id IN ({marks}) RETURNING id",
                tuple(pairing_ids),
            )
        return sorted(int(r[0]) for r in rows)

    async def mark_late_told(self, pairing_ids: Sequence[int], told: bool = True) -> None:
        async with self.store.transaction() as db:
            await db.executemany(
                "UPDATE league_games SET late_told = ? WHERE id = ?", [(int(told), i) for i in pairing_ids]
            )

    async def guild_pairings(self, guild: int | None) -> list[tuple[str, str, Pairing]]:
        """Every decided pairing of a server's leagues with the game system and scenario its round played."""
        rows = await self.store.query(
            "SELECT g.*, r.system AS round_system, r.scenario AS round_scenario FROM league_games g "
            "JOIN leagues l ON l.id = g.league JOIN league_rounds r ON r.league = g.league AND r.number = g.round "
            "WHERE l.guild IS NOT DISTINCT FROM ? AND g.first_score IS NOT NULL ORDER BY g.ended, g.id",
            (guild,),
        )
        return [(str(r["round_system"]), str(r["round_scenario"]), _pairing(r)) for r in rows]

    # --- Log ------------------------------------------------------------------------------------------

    async def log(self, league_id: int, moderator: int | None, kind: str, text: str) -> None:
        async with self.store.transaction() as db:
            await self._log(db, league_id, moderator, kind, text)

    async def _log(self, db: Connection, league_id: int, moderator: int | None, kind: str, text: str) -> None:
        await db.execute(
            "INSERT INTO league_log (league, moderator, kind, text, time) VALUES (?, ?, ?, ?, ?)",
            (league_id, moderator, kind, text, self.store.clock()),
        )

    async def log_lines(self, league_id: int) -> list[Mapping[str, Any]]:
        """The league's log: every organiser decision (and the season's end), in order."""
        rows = await self.store.query("SELECT * FROM league_log WHERE league = ? ORDER BY id", (league_id,))
        return [dict(r) for r in rows]
