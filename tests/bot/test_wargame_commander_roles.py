"""4.2d: only a moderator acts for the campaign manager's seat (``cm``), whatever the way in: a ``frame``
command, ``act``, ``choose`` (the buttons' path), a form, ``game undo``, or the service itself. A player who is
no moderator but holds the seat (a moderator seated them, or they lost the role) is refused on each path, and
nothing changes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.commands.layer import CommandLayer, Context
from bot.service.game_service import Caller, GameService, Refusal
from bot.store.sqlite import SqliteStore
from bot.systems.wargame_commander import WargameCommanderAdapter
from engine.wargame_commander.state import SeriesState, board_of
from tests.wargame_commander.play import greedy_basing

ANN = Caller(11, "ann")  # the Allied Frame CO
BOB = Caller(22, "bob")  # the German Frame CO
CARL = Caller(33, "carl")  # seated as the CM by a moderator, but no moderator
MOD = Caller(99, "mod", moderator=True)
CHANNEL = 820
REPORT = "pilot,Rall,2,0,0"


def ctx(caller: Caller) -> Context:
    return Context(caller, CHANNEL, 1)


@pytest.fixture
async def layer(tmp_path: Path) -> AsyncIterator[CommandLayer]:
    store = await SqliteStore.open(tmp_path / "wc.sqlite3")
    service = GameService(store, {"wargame-commander": WargameCommanderAdapter})
    yield CommandLayer(service, "wargame-commander", pictures=False)
    await service.renderer.aclose()
    await store.close()


async def state_of(service: GameService) -> SeriesState:
    state: SeriesState = await service.state((await service.table(CHANNEL, live=False)).game)
    return state


async def revision(service: GameService) -> int:
    return (await service.table(CHANNEL, live=False)).game.revision


async def at_the_report(layer: CommandLayer) -> GameService:
    """A series at frame 1's report, CARL (no moderator) in the cm seat, seated there by the moderator."""
    service = layer.service
    await layer.run("game create", ctx(MOD), {"scenario": "wargame-commander", "system": "wargame-commander"})
    await service.join(CHANNEL, ANN, "allied")
    await service.join(CHANNEL, BOB, "german")
    await service.assign(CHANNEL, MOD, "cm", CARL.user_id)
    await service.start(CHANNEL, MOD)
    board = board_of(await state_of(service))
    await service.act(CHANNEL, ANN, "basing", {"plan": greedy_basing(board, "allied")})
    await service.act(CHANNEL, BOB, "basing", {"plan": greedy_basing(board, "german")})
    for seat in ("german", "german", "allied", "german"):
        await service.act(CHANNEL, ANN if seat == "allied" else BOB, "done", {})
    assert (await state_of(service)).phase == "report"
    return service


async def refused(layer: CommandLayer, caller: Caller, name: str, options: dict[str, Any]) -> str:
    """Run a command that must be refused; returns the refusal and checks that nothing changed."""
    before = await revision(layer.service)
    replies = await layer.run(name, ctx(caller), options)
    assert replies[0].text.startswith("Refused"), (name, options, [r.text for r in replies])
    assert await revision(layer.service) == before, (name, options)
    return replies[0].text


async def test_4_2d_a_non_moderator_in_the_cm_seat_is_refused_on_every_path(layer: CommandLayer) -> None:
    service = await at_the_report(layer)
    paths: list[tuple[str, dict[str, Any]]] = [
        ("act", {"verb": "report", "args": f"text={REPORT}"}),
        ("act", {"verb": "window", "args": "hours=4"}),
        ("act", {"verb": "expire", "args": "at=0"}),
        ("frame report", {"text": REPORT}),
        ("frame window", {"hours": 4}),
        ("frame form", {}),
        ("frame form", {"pilots": "Rall, 2, 0, 0"}),
    ]
    for name, options in paths:
        text = await refused(layer, CARL, name, options)
        assert "moderator" in text, text
    with pytest.raises(Refusal, match="only a moderator acts for the cm seat"):
        await service.act(CHANNEL, CARL, "report", {"text": REPORT, "at": 0.0}, seat="cm")
    assert (await state_of(service)).phase == "report"

    # The moderator takes the seat and enters the report; CARL is seated again for the dispute window.
    await layer.run("mod substitute", ctx(MOD), {"seat": "cm", "user": MOD.user_id})
    replies = await layer.run("frame report", ctx(MOD), {"text": REPORT})
    assert not replies[0].text.startswith("Refused"), [r.text for r in replies]
    assert (await state_of(service)).phase == "dispute"
    replies = await layer.run("mod substitute", ctx(MOD), {"seat": "cm", "user": CARL.user_id})
    assert any("Only a moderator acts for this seat (the campaign manager)" in r.text for r in replies)
    for name, options in [
        ("game undo", {}),  # the moderator's report, taken back by the seat's new holder
        ("frame close", {}),
        ("choose", {"number": 1, "seat": "cm"}),
        ("act", {"verb": "close"}),
        ("act", {"verb": "correct", "args": f"text={REPORT}"}),
        ("frame report", {"text": REPORT}),
        ("frame window", {"hours": 0}),
    ]:
        text = await refused(layer, CARL, name, options)
        assert "moderator" in text, (name, text)
    assert (await state_of(service)).phase == "dispute"


async def test_4_2d_only_a_moderator_takes_the_cm_seat(layer: CommandLayer) -> None:
    await layer.run("game create", ctx(MOD), {"scenario": "wargame-commander", "system": "wargame-commander"})
    text = await refused_join(layer, CARL, {"seat": "cm"})
    assert "Only a moderator holds the cm seat" in text
    await layer.run("game join", ctx(ANN), {})
    await layer.run("game join", ctx(BOB), {})
    text = await refused_join(layer, CARL, {})  # the free seat left is the CM's
    assert "is for a moderator: the campaign manager" in text
    replies = await layer.run("game join", ctx(MOD), {})
    assert not replies[0].text.startswith("Refused")
    assert (await layer.service.table(CHANNEL)).user_of("cm") == MOD.user_id


async def refused_join(layer: CommandLayer, caller: Caller, options: dict[str, Any]) -> str:
    replies = await layer.run("game join", ctx(caller), options)
    assert replies[0].text.startswith("Refused"), [r.text for r in replies]
    return replies[0].text


async def test_4_2d_the_cm_does_not_resign_and_a_side_that_resigns_loses_to_the_other(layer: CommandLayer) -> None:
    service = await at_the_report(layer)
    await layer.run("mod substitute", ctx(MOD), {"seat": "cm", "user": MOD.user_id})
    with pytest.raises(Refusal, match="mod abandon"):
        await service.resign(CHANNEL, MOD)
    outcome = await service.resign(CHANNEL, ANN)
    assert outcome.result is not None and outcome.result.winner == "german"
