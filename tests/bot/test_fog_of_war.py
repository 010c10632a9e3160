"""[11] Fog of war through the command layer: what the channel, each player's private answers, the log, the
undo notice, the odds preview and the autocomplete say when one side may not inspect an enemy stack.

The mini game (tests/vaevictis/minigame.py) is set up with a river between the two sides: the only bridge,
0403-0503, carries no zone of control (4.1), so each side sees only the top counter of the enemy stack
across it. The Germans (ann) hold 0503 with Peiper/1 and Hansen/1, the Americans (bob) hold 0403 with CCA/9.
The dice seed is pinned.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import bot.service.game_service
from bot.commands.layer import CommandLayer, Context, Reply
from bot.service.game_service import Caller, GameService
from bot.store.sqlite import SqliteStore
from bot.systems.vaevictis import VaeVictisAdapter
from tests.vaevictis.positions import mini_data

ANN = Caller(1, "ann")  # German
BOB = Caller(2, "bob")  # Allied
EVE = Caller(3, "eve")  # a spectator
CHANNEL = 7


def across_the_bridge(docs: dict[str, Any]) -> None:
    docs["setup.toml"]["setup"] = [
        {"unit": "hq-us-v", "hex": "0101"},
        {"unit": "us-2-id", "hex": "0203"},
        {"unit": "us-cca", "hex": "0403"},
        {"unit": "hq-de-1ss", "hex": "0803"},
        {"unit": "de-peiper", "hex": "0503"},
        {"unit": "de-hansen", "hex": "0503"},
        {"unit": "de-12-vg", "hex": "0705"},
    ]
    docs["setup.toml"]["reinforcement"] = [{"turn": 2, "units": ["us-3-id"], "hexes": ["0103"]}]


class FogTable:
    """A fog-of-war game of the mini game in one channel, played through the command layer."""

    def __init__(self, layer: CommandLayer) -> None:
        self.layer = layer
        self.sent: list[Reply] = []

    @property
    def service(self) -> GameService:
        return self.layer.service

    async def run(self, who: Caller, name: str, **options: Any) -> list[Reply]:
        replies = await self.layer.run(name, Context(who, CHANNEL, 1), options)
        self.sent += replies
        return replies

    async def act(self, who: Caller, verb: str, **args: Any) -> list[Reply]:
        replies = await self.run(who, "act", verb=verb, args=" ".join(f"{k}={v}" for k, v in args.items()))
        assert not any(r.text.startswith("Refused") for r in replies), replies
        return replies

    async def state(self) -> Any:
        return await self.service.state((await self.service.table(CHANNEL, live=False)).game)

    def channel(self, replies: list[Reply] | None = None) -> str:
        """Everything posted in the channel (of ``replies``, or since the start)."""
        return "\n".join(r.text for r in (self.sent if replies is None else replies) if r.to == "channel")

    async def german_to_act(self) -> None:
        """Both end the support phase; the Allies pass if they have the initiative; the Germans activate."""
        await self.act(ANN, "end_support")
        await self.act(BOB, "end_support")
        prompts = await self.service.prompts((await self.service.table(CHANNEL)).game)
        if "allied" in prompts and not prompts["allied"].optional:
            await self.act(BOB, "pass")
        await self.act(ANN, "activate_formation", formation="de-1ss")


@pytest.fixture
def pinned_seed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(bot.service.game_service, "new_seed", lambda: b"\x01" * 32)
    yield


@pytest.fixture
async def fog(pinned_seed: None) -> Any:
    store = await SqliteStore.open(":memory:")
    service = GameService(store, {"mini": lambda: VaeVictisAdapter("mini", mini_data(across_the_bridge))})
    table = FogTable(CommandLayer(service, "mini", pictures=False))
    await table.run(ANN, "game create", scenario="test", options="fog_of_war")
    await table.run(ANN, "game join", seat="german")
    await table.run(BOB, "game join", seat="allied")
    await table.run(ANN, "game start")
    yield table
    await store.close()


def seen_by(view: dict[str, Any], hex_: int) -> list[str]:
    return [u["id"] for s in view["stacks"] if s["hex"] == hex_ for u in s["units"]]


async def test_11_2_a_moved_stack_keeps_its_top_and_the_channel_never_names_the_counter_under_it(
    fog: FogTable,
) -> None:
    await fog.german_to_act()
    await fog.act(ANN, "put_on_top", unit="de-hansen")
    await fog.act(ANN, "move", units="de-peiper,de-hansen", to="0603")
    adapter = fog.service.system("mini")
    assert seen_by(adapter.view(await fog.state(), "allied"), 603) == ["de-hansen"]
    assert "Hansen/1" in fog.channel()
    assert "Peiper" not in fog.channel() and "de-peiper" not in fog.channel()


async def test_11_undo_tells_the_channel_only_what_both_sides_may_see(fog: FogTable) -> None:
    await fog.german_to_act()
    await fog.act(ANN, "put_on_top", unit="de-hansen")
    await fog.act(ANN, "move", units="de-peiper,de-hansen", to="0603")
    undone = await fog.run(ANN, "game undo")
    notice = fog.channel(undone)
    assert "took back their last action" in notice and "units=" not in notice  # words, not arguments
    assert "Peiper" not in notice and "de-peiper" not in notice
    private = [r.text for r in undone if r.to == "caller"]
    assert any("Peiper" in text for text in private)  # the undoer reads it all


async def test_11_1_the_defender_reads_the_combat_he_fought_in_his_log(fog: FogTable) -> None:
    await fog.german_to_act()
    await fog.act(ANN, "put_on_top", unit="de-hansen")
    await fog.act(ANN, "attack", target="0403", attackers="de-peiper", kind="normal")
    while (await fog.state()).pending:  # the defender adds no support; each side takes its losses
        prompts = await fog.service.prompts((await fog.service.table(CHANNEL)).game)
        seat, prompt = next((s, p) for s, p in prompts.items() if not p.optional)
        choice = min(prompt.choices, key=lambda c: c.verb not in ("supports_done", "take_loss"))
        await fog.act(ANN if seat == "german" else BOB, choice.verb, **choice.args)
    adapter = fog.service.system("mini")
    assert seen_by(adapter.view(await fog.state(), "allied"), 503) == ["de-hansen"]  # Peiper hidden again
    log = (await fog.run(BOB, "log"))[-1].text
    assert "German normal attack on 0403 by Peiper/1" in log and "Combat at 0403" in log
    assert "hidden by the fog of war" not in log.split("#5", 1)[1]
    spectator = (await fog.run(EVE, "log"))[-1].text
    assert "Combat at 0403" in spectator  # a combat is public (11.1)


async def test_11_autocomplete_answers_only_for_the_askers_own_units(fog: FogTable) -> None:
    await fog.german_to_act()
    await fog.act(ANN, "put_on_top", unit="de-hansen")
    ask = fog.layer.autocomplete
    assert await ask("move", "to", "", {"units": "de-peiper"}, Context(BOB, CHANNEL, 1)) == []
    assert await ask("move", "to", "", {"units": "de-peiper"}, Context(EVE, CHANNEL, 1)) == []
    assert await ask("move", "to", "", {"units": "de-peiper"}, Context(ANN, CHANNEL, 1))
    from bot.commands.layer import COMMANDS

    given = {"units": "de-peiper", "unit": "de-peiper", "attackers": "de-peiper", "division": "de-peiper",
             "target": "0503", "hex": "0503", "event": "nuts"}  # fmt: skip
    for command in COMMANDS:
        for option in command.options:
            if option.autocomplete is None:
                continue
            for who in (BOB, EVE):
                found = await ask(command.name, option.name, "", given, Context(who, CHANNEL, 1))
                told = " ".join(f"{label} {value}" for label, value in found)
                assert "Peiper" not in told and "de-peiper" not in told, (command.name, option.name, found)


async def test_7_5_11_1_the_odds_preview_shows_unseen_defenders_as_a_count_and_the_odds_as_a_range(
    fog: FogTable,
) -> None:
    await fog.act(ANN, "end_support")
    await fog.act(BOB, "end_support")
    prompts = await fog.service.prompts((await fog.service.table(CHANNEL)).game)
    if "german" in prompts and not prompts["german"].optional:
        await fog.act(ANN, "pass")
    await fog.act(BOB, "activate_formation", formation="us-v")
    before = len(fog.sent)
    preview = (await fog.run(BOB, "attack", target="0503", attackers="us-cca", kind="normal"))[-1].text
    assert "Peiper/1" in preview  # the top counter, which the Americans see
    assert "Hansen" not in preview and "de-hansen" not in preview
    assert "1 counter(s) unseen" in preview and "Final column between" in preview
    assert not fog.channel(fog.sent[before:])  # nothing was posted


async def test_11_2_only_the_owner_is_told_of_a_new_top_counter(fog: FogTable) -> None:
    await fog.german_to_act()
    told = await fog.act(ANN, "put_on_top", unit="de-hansen")
    channel = fog.channel(told)
    assert "put_on_top" not in channel and "Hansen" not in channel and "rearranges" not in channel
    assert any("rearranges a stack" in r.text for r in told if r.to == "caller")
