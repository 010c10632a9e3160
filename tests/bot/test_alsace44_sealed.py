"""[Alsace 1944 2.1, 15] The initiative stratagems through the game service: a sealed decision whose content
reaches no channel before both players have answered, with a receipt, revealed together.

The game is the Alsace "core" of the engine tests (tests/vaevictis/test_alsace44_engine.py), without the
turn-1 rule that plays the French stratagem for them, so that both players are asked on turn 1.
"""

from __future__ import annotations

import json

from bot.service.game_service import GameService
from bot.store.sqlite import SqliteStore
from bot.systems.vaevictis import VaeVictisAdapter
from engine.vaevictis.loader import build_game
from tests.bot.conftest import BLUE, CHANNEL, RED
from tests.vaevictis.alsace_documents import core_documents


async def test_2_1_the_sealed_initiative_choice_reaches_no_channel_before_both_are_in(store: SqliteStore) -> None:
    docs = core_documents()
    docs["setup.toml"].pop("forced_event")
    data = build_game(docs)
    service = GameService(store, {"alsace44": lambda: VaeVictisAdapter("alsace44", data)})
    await service.create(guild=1, channel=CHANNEL, caller=RED, system_id="alsace44", scenario="entire-battle")
    await service.join(CHANNEL, RED, "german")
    await service.join(CHANNEL, BLUE, "allied")
    await service.start(CHANNEL, RED)
    await service.act(CHANNEL, RED, "end_support", {})
    outcome = await service.act(CHANNEL, BLUE, "end_support", {})
    assert set(outcome.prompts) == {"german", "allied"} and all(p.secret for p in outcome.prompts.values())

    first = await service.act(CHANNEL, RED, "initiative_stratagem", {"play": True})
    assert first.receipt is not None  # the sealed decision is committed, its content kept back
    public = json.dumps(first.public_events)
    assert "decided" not in public and "LXIII" not in public
    assert any("decided to play" in e["text"] for e in first.own_events)
    assert set(first.prompts) == {"allied"} and first.prompts["allied"].secret

    second = await service.act(CHANNEL, BLUE, "initiative_stratagem", {"play": False})
    reveal = [e for e in second.public_events if e["kind"] == "reveal"]
    assert reveal and "LXIII" in reveal[0]["text"]
    table = await service.table(CHANNEL)
    assert table.game.status == "active"
