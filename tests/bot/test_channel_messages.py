"""How many messages the opening of a scripted Initial Assault leaves in its channel: a bound, so that a change
that makes the channel chattier again fails (the whole game is measured by ``bench/bench_messages.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service import game_service as service_module
from tests.bot.doubles import require_ardennes
from tests.bot.scripted_game import play

ACTIONS = 60
MOST_MESSAGES = 50
"""Measured (docs/performance.md): 46 channel messages for these 60 actions, 79 before a seat's run of actions
was folded into one message; the bound leaves a margin of about a tenth."""


@pytest.fixture(autouse=True)
def _ardennes() -> None:
    require_ardennes()


async def test_a_seats_run_of_actions_is_one_message_so_the_opening_stays_under_its_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_module, "new_seed", service_module.new_seed)  # play() pins it; put it back after
    counts, applied, _, _ = await play(tmp_path, ACTIONS)
    assert applied == ACTIONS
    assert counts["channel edits"] > 0, "a seat's next action folded into its last message"
    assert counts["channel"] <= MOST_MESSAGES, counts
