"""A league with its guild, organiser, players, a clock and the threads it opens, for the league tests."""

from __future__ import annotations

import itertools
from typing import Any

from bot.leagues.service import LeagueService
from bot.leagues.store import Pairing
from bot.service.game_service import Caller

ORG = Caller(99, "org", moderator=True)
PLAYERS = [Caller(10 + i, f"p{i}") for i in range(6)]
LEAGUE = 900
GUILD = 1


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


class Threads:
    """Opens numbered threads; ``fail_at`` makes one call fail (a crash while a round's games are made)."""

    def __init__(self) -> None:
        self.ids = itertools.count(5000)
        self.opened: list[tuple[int, str]] = []
        self.fail_at: int | None = None

    async def __call__(self, parent: int, name: str) -> int:
        if self.fail_at is not None and len(self.opened) == self.fail_at:
            self.fail_at = None
            raise ConnectionError("Discord went away")
        thread = next(self.ids)
        self.opened.append((thread, name))
        return thread


async def league(room: LeagueService, players: int, format_: str = "swiss", rounds: int = 2, **more: Any) -> None:
    await room.create(guild=GUILD, channel=LEAGUE, caller=ORG, name="Test", system_id="duel", scenario="short",
                      format_=format_, rounds=rounds, **more)  # fmt: skip
    for player in PLAYERS[:players]:
        await room.join(LEAGUE, player, None)
    await room.close(LEAGUE, ORG)


async def decide_all(room: LeagueService, pairings: list[Pairing], winner_first: bool = True) -> None:
    """Adjudicate every game still being played: the first seat wins."""
    for p in pairings:
        if not p.decided and p.second is not None:
            await room.decide(LEAGUE, ORG, p.game, "adjudicated", p.first if winner_first else p.second, "test")
