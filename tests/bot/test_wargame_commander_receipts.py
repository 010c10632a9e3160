"""Sealed decisions of the Wargame Commander through the shared mechanism (engine.sealing): one checkable
receipt per decision, its salt and sealed text in a file at the reveal, and a fresh salt after a moderator's
correction, so a salt a taken-back reveal published opens no later receipt."""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.commands.layer import CommandLayer, Context
from bot.service.game_service import Caller, GameService
from bot.store.sqlite import SqliteStore
from bot.systems.wargame_commander import WargameCommanderAdapter
from engine.sealing import receipt_for, salt_for
from engine.wargame_commander.state import SeriesState, board_of
from tests.wargame_commander.play import greedy_basing

ANN, BOB, MOD = Caller(11, "ann"), Caller(22, "bob"), Caller(99, "mod", moderator=True)
CHANNEL = 830


@pytest.fixture
async def layer(tmp_path: Path) -> AsyncIterator[CommandLayer]:
    store = await SqliteStore.open(tmp_path / "wc.sqlite3")
    service = GameService(store, {"wargame-commander": WargameCommanderAdapter})
    yield CommandLayer(service, "wargame-commander", pictures=False)
    await service.renderer.aclose()
    await store.close()


def ctx(caller: Caller) -> Context:
    return Context(caller, CHANNEL, 1)


async def state_of(layer: CommandLayer) -> SeriesState:
    state: SeriesState = await layer.service.state((await layer.service.table(CHANNEL)).game)
    return state


async def test_4_2i_one_receipt_a_decision_its_reveal_file_and_a_fresh_salt_after_a_correction(
    layer: CommandLayer,
) -> None:
    await layer.run("game create", ctx(MOD), {"scenario": "wargame-commander", "system": "wargame-commander"})
    for caller, seat in ((ANN, "allied"), (BOB, "german"), (MOD, "cm")):
        await layer.run("game join", ctx(caller), {"seat": seat})
    await layer.run("game start", ctx(MOD), {})
    board = board_of(await state_of(layer))
    first = await layer.run("frame basing", ctx(ANN), {"plan": greedy_basing(board, "allied")})
    channel = [r.text for r in first if r.to == "channel"]
    assert sum(t.count("receipt") for t in channel) == 1, channel  # the engine's receipt, no second one
    german = greedy_basing(board, "german")
    replies = await layer.run("frame basing", ctx(BOB), {"plan": german})
    files = [f for r in replies if r.to == "channel" for f in r.files if f.name.startswith("details-")]
    details = json.loads(files[0].data)
    assert [d["id"] for d in details] == ["WC1", "WC2"]
    for item in details:  # a player's check, with hashlib only
        assert hashlib.sha256(item["sealed"].encode()).hexdigest() == item["receipt"]
    published = json.loads(details[1]["sealed"])["salt"]

    replies = await layer.run("mod correct", ctx(MOD), {"count": 1, "reason": "the German plan was sent early"})
    assert any("fresh salt" in r.text for r in replies), [r.text for r in replies]
    state = await state_of(layer)
    assert state.epoch == 1 and not any(s["revealed"] for s in state.secrets)
    await layer.run("frame basing", ctx(BOB), {"plan": german})
    again = next(s for s in (await state_of(layer)).secrets if s["id"] == "WC2")
    seed = bytes.fromhex(state.seed)
    assert again["receipt"] != receipt_for(again["content"], published)  # the published salt opens nothing
    assert again["receipt"] == receipt_for(again["content"], salt_for(seed, "wc:WC2", 1))
