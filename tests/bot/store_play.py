"""A game played straight into a store, turn after turn (for the store's scale and archive tests)."""

from __future__ import annotations

from bot.service.game_service import GameService
from tests.bot.conftest import BLUE, CHANNEL, RED

TURNS = [("red", "advance", {"steps": 1}), ("red", "end_turn", {}), ("blue", "advance", {"steps": 1}),
         ("blue", "end_turn", {})]  # fmt: skip


async def play(service: GameService, turns: int, channel: int = CHANNEL) -> None:
    """Alternate turns of one advance each, after the bids."""
    callers = {"red": RED, "blue": BLUE}
    for number in range(turns):
        seat, verb, args = TURNS[number % len(TURNS)]
        await service.act(channel, callers[seat], verb, args)
