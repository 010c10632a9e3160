"""Undo never goes back over a sealed decision whose receipt the channel has seen (DESIGN: secrets)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service.game_service import GameService, Refusal
from bot.store.sqlite import SqliteStore
from engine.contract import Action, Event
from tests.bot.conftest import CHANNEL, RED, started
from tests.bot.doubles import Duel


class SealingDuel(Duel):
    """Duel, except that an advance of 3 seals a decision (as an ASL purchase does) and says so publicly."""

    def apply(self, state: dict[str, Any], action: Action) -> tuple[dict[str, Any], list[Event]]:
        new, events = super().apply(state, action)
        if action.verb == "advance" and action.args.get("steps") == 3:
            events = [*events, Event("sealed", f"The {action.seat} player sealed a decision.", {"receipt": "0" * 64})]
        return new, events


@pytest.fixture
def sealing_service(store: SqliteStore) -> GameService:
    return GameService(store, {"duel": SealingDuel})


async def test_a_sealed_decision_cannot_be_undone(sealing_service: GameService) -> None:
    await started(sealing_service)
    await sealing_service.act(CHANNEL, RED, "advance", {"steps": 3})
    with pytest.raises(Refusal, match="sealed a decision"):
        await sealing_service.undo(CHANNEL, RED)
    await sealing_service.act(CHANNEL, RED, "advance", {"steps": 2})
    outcome = await sealing_service.undo(CHANNEL, RED)  # an ordinary action still can be
    assert outcome.undone[-1].args == {"steps": 2}
