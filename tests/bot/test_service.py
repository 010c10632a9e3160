"""The game service over Duel: seats, the lock, stale states, the undo barrier, restarts, dice, corrections."""

from __future__ import annotations

import asyncio

import pytest

from bot.service.game_service import GameService, Refusal, StaleError
from bot.store import records as records_module
from bot.store.opening import open_store
from engine.contract import IllegalActionError, NotYourTurnError
from tests.bot.conftest import BLUE, CHANNEL, MOD, RED, started
from tests.bot.doubles import duel_systems

BACKENDS = ("sqlite", "postgresql")
"""The store's contract holds on both backends (tests/conftest.py runs each test on each)."""


async def test_seats_join_leave_and_start(service: GameService) -> None:
    await service.create(guild=1, channel=CHANNEL, caller=RED, system_id="duel", scenario="standard")
    with pytest.raises(Refusal, match="already holds a game"):
        await service.create(guild=1, channel=CHANNEL, caller=RED, system_id="duel", scenario="standard")
    await service.join(CHANNEL, RED)
    with pytest.raises(Refusal, match="empty"):
        await service.start(CHANNEL, RED)
    with pytest.raises(Refusal, match="taken"):
        await service.join(CHANNEL, BLUE, "red")
    await service.join(CHANNEL, BLUE)
    await service.leave(CHANNEL, BLUE)
    await service.join(CHANNEL, BLUE, "blue")
    outcome = await service.start(CHANNEL, BLUE)
    assert outcome.ping == {"red": RED.user_id, "blue": BLUE.user_id}
    assert set(outcome.prompts) == {"red", "blue"} and all(p.secret for p in outcome.prompts.values())


async def test_only_a_seated_player_acts_for_a_side(service: GameService) -> None:
    await started(service)
    with pytest.raises(Refusal, match="only a seated player"):
        await service.act(CHANNEL, MOD, "roll", {})
    with pytest.raises(NotYourTurnError):
        await service.act(CHANNEL, BLUE, "roll", {})


async def test_the_next_player_is_pinged_and_only_them(service: GameService) -> None:
    await started(service, bids=None)
    first = await service.act(CHANNEL, RED, "bid", {"amount": 1})
    assert first.ping == {}  # blue was already asked
    second = await service.act(CHANNEL, BLUE, "bid", {"amount": 3})
    assert second.ping == {}  # blue moves first: blue acted, blue goes on
    assert [e["kind"] for e in second.events] == ["bid", "reveal"]
    turn = await service.act(CHANNEL, BLUE, "end_turn", {})
    assert turn.ping == {"red": RED.user_id} and turn.picture_due


async def test_concurrent_clicks_apply_once(service: GameService) -> None:
    await started(service)
    table = await service.table(CHANNEL)
    state_id = table.game.revision
    results = await asyncio.gather(
        *(service.act(CHANNEL, RED, "advance", {"steps": 1}, state_id=state_id) for _ in range(8)),
        return_exceptions=True,
    )
    accepted = [r for r in results if not isinstance(r, BaseException)]
    assert len(accepted) == 1
    assert all(isinstance(r, StaleError) for r in results if isinstance(r, BaseException))
    assert len(await service.store.actions(table.game.id)) == 3


async def test_a_refusal_changes_nothing(service: GameService) -> None:
    await started(service)
    table = await service.table(CHANNEL)
    await service.act(CHANNEL, RED, "advance", {"steps": 1})
    await service.act(CHANNEL, RED, "advance", {"steps": 1})
    before = await service.table(CHANNEL)
    with pytest.raises(IllegalActionError) as caught:
        await service.act(CHANNEL, RED, "advance", {"steps": 1})
    assert caught.value.rule == "D.2"
    after = await service.table(CHANNEL)
    assert after.game.revision == before.game.revision
    assert len(await service.store.actions(table.game.id)) == 4


async def test_undo_goes_back_over_own_actions_until_a_roll(service: GameService) -> None:
    await started(service)
    await service.act(CHANNEL, RED, "roll", {})
    await service.act(CHANNEL, RED, "advance", {"steps": 3})
    await service.act(CHANNEL, RED, "advance", {"steps": 2})
    with pytest.raises(Refusal, match="only your own"):
        await service.undo(CHANNEL, BLUE)
    await service.undo(CHANNEL, RED)
    outcome = await service.undo(CHANNEL, RED)
    assert outcome.undone[-1].args == {"steps": 3}
    with pytest.raises(Refusal, match="rolled a die"):
        await service.undo(CHANNEL, RED)
    text = await service.describe(CHANNEL, RED, "status")
    table = await service.table(CHANNEL)
    assert [a.verb for a in await service.store.actions(table.game.id)] == ["bid", "bid", "roll"]
    assert "blue 0" in text
    await service.act(CHANNEL, RED, "end_turn", {})
    await service.act(CHANNEL, BLUE, "advance", {"steps": 1})
    with pytest.raises(Refusal, match="blue player's"):
        await service.undo(CHANNEL, RED)


async def test_a_restart_keeps_the_game_and_its_snapshots(
    store_target: str, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(records_module, "SNAPSHOT_EVERY", 3)
    await started(service)
    for _ in range(3):
        await service.act(CHANNEL, RED, "advance", {"steps": 1}) if _ < 2 else await service.act(
            CHANNEL, RED, "end_turn", {}
        )
    table = await service.table(CHANNEL)
    before = await service.state(table.game)
    assert await service.store.latest_snapshot(table.game.id) is not None
    other = await open_store(store_target)
    try:
        fresh = GameService(other, duel_systems())
        again = await fresh.table(CHANNEL)
        assert again.game.revision == table.game.revision
        assert await fresh.state(again.game) == before
        outcome = await fresh.act(CHANNEL, BLUE, "advance", {"steps": 2}, state_id=again.game.revision)
        assert outcome.seat == "blue"
    finally:
        await other.close()


async def test_dice_are_verifiable_once_the_game_is_over(service: GameService) -> None:
    await started(service)
    await service.act(CHANNEL, RED, "roll", {})
    table = await service.table(CHANNEL)
    with pytest.raises(Refusal, match="secret"):
        await service.verify(table.game.id)
    outcome = await service.resign(CHANNEL, BLUE)
    assert outcome.result is not None and outcome.result.winner == "red"
    checked = await service.verify(table.game.id)
    game, rolls, problems = checked.game, checked.rolls, checked.problems
    assert rolls == 1 and problems == []
    async with service.store.transaction() as db:  # tamper with the announced roll
        rows = await service.store.actions(game.id)
        events = [dict(e) for e in rows[-1].events]
        events[0]["data"] = {**events[0]["data"], "die": 7 - events[0]["data"]["die"]}
        import json

        await db.execute("UPDATE actions SET events = ? WHERE game = ? AND seq = ?", (json.dumps(events), game.id, 3))
    problems = (await service.verify(game.id)).problems
    assert any("action #3 (red roll): a die" in p and "but the seed gives" in p for p in problems), problems
    assert any("roll #0" in p for p in problems)
    assert any("action #3 (red roll): its events differ from the ones chained" in p for p in problems)


async def test_moderators_abandon_substitute_and_correct_with_a_log(service: GameService) -> None:
    await started(service)
    await service.act(CHANNEL, RED, "roll", {})
    with pytest.raises(Refusal, match="moderator"):
        await service.correct(CHANNEL, RED, 1, "oops")
    await service.correct(CHANNEL, MOD, 1, "misclick")
    await service.assign(CHANNEL, MOD, "blue", 77)
    table = await service.table(CHANNEL)
    assert table.user_of("blue") == 77
    kinds = [c.kind for c in await service.store.corrections(table.game.id)]
    assert kinds == ["correct", "substitute"]
    await service.abandon(CHANNEL, MOD, "players vanished")
    with pytest.raises(Refusal, match="no game"):
        await service.act(CHANNEL, RED, "roll", {})


async def test_secret_decisions_are_sealed_until_revealed(service: GameService) -> None:
    await started(service, bids=None)
    first = await service.act(CHANNEL, RED, "bid", {"amount": 3})
    assert first.receipt is not None
    assert all(e["secret_to"] == ["red"] for e in first.events)
    entries, _ = await service.log(CHANNEL, BLUE)
    assert entries[0].texts == []  # blue does not see red's bid
    table = await service.table(CHANNEL)
    assert [s.revealed for s in await service.store.secrets(table.game.id)] == [False]
    await service.act(CHANNEL, BLUE, "bid", {"amount": 1})
    assert [s.revealed for s in await service.store.secrets(table.game.id)] == [True, True]


async def test_correspondence_reminders_and_vacations(service: GameService) -> None:
    now = [1_000_000.0]
    service.clock = lambda: now[0]
    await service.create(
        guild=1, channel=CHANNEL, caller=RED, system_id="duel", scenario="standard", days_per_move=2, reserve_days=5
    )
    await service.join(CHANNEL, RED, "red")
    await service.join(CHANNEL, BLUE, "blue")
    await service.start(CHANNEL, RED)
    await service.act(CHANNEL, RED, "bid", {"amount": 1})
    assert await service.due_reminders() == []
    now[0] += 2 * 86400 + 1
    due = await service.due_reminders()
    assert [(n.seat, n.user) for n in due] == [("blue", BLUE.user_id)]
    assert await service.due_reminders() == []  # snoozed a day
    await service.request_vacation(CHANNEL, BLUE, 7)
    _, seats = await service.accept_vacation(CHANNEL, RED)
    assert seats == ["blue"]
    now[0] += 3 * 86400
    assert await service.due_reminders() == []
