"""A game system's own command in a channel whose game is of another system is refused plainly, naming both,
and changes nothing: over every room's every command and every system (a test game's included)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.commands.definitions import CommandDef
from bot.commands.layer import CommandLayer, Context
from bot.service.game_service import Caller, GameService
from bot.store.sqlite import SqliteStore
from bot.systems import rooms, systems
from tests.bot.doubles import duel_systems

MOD = Caller(99, "mod", moderator=True)


@pytest.fixture
async def layer(tmp_path: Path) -> AsyncIterator[CommandLayer]:
    store = await SqliteStore.open(tmp_path / "rooms.sqlite3")
    service = GameService(store, {**systems(), **duel_systems()})
    yield CommandLayer(service, "wargame-commander", pictures=False)
    await service.renderer.aclose()
    await store.close()


def filled(command: CommandDef) -> dict[str, Any]:
    """Every option of the command filled, with a value of its kind (a form's fields are filled too)."""
    values: dict[str, Any] = {}
    for option in command.options:
        if option.kind in ("integer", "number"):
            values[option.name] = option.min_value if option.min_value is not None else 1
        elif option.kind in ("user", "attachment"):
            continue
        else:
            values[option.name] = "x1"
    return values


async def test_a_rooms_command_in_another_systems_channel_is_refused_plainly(layer: CommandLayer) -> None:
    service = layer.service
    channels: dict[str, int] = {}
    for n, system_id in enumerate([*systems(), *duel_systems()]):
        channel = 900 + n
        scenario = service.system(system_id).scenarios[0]
        settings = "start=17N; elr=allied=5 german=3; san=allied=3 german=4" if system_id == "asl" else ""
        command, options, _ = layer.room_of(system_id).console_game(scenario, settings, system_id)
        await layer.run(command, Context(MOD, channel, 1), options)
        if await service.store.live_game_in(channel) is not None:  # the Vae Victis maps are optional data
            channels[system_id] = channel
    assert {"wargame-commander", "asl", "duel"} <= set(channels)
    by_room = {id(room): (room, [s for s, r in rooms().items() if r is room]) for room in rooms().values()}
    checked = 0
    for room, own in by_room.values():
        for system_id, channel in channels.items():
            if system_id in own:
                continue
            mine = rooms().get(system_id)
            for command in room.commands:
                if mine is not None and command.name in mine.verb_commands.values():
                    continue  # a command that game uses too (the Wargame Commander's `move`)
                if mine is None and command.verb is not None:
                    continue  # a test game plays the plain verb commands; its engine judges them
                for options in ({}, filled(command)):
                    before = (await service.table(channel)).game.revision
                    replies = await layer.run(command.name, Context(MOD, channel, 1), options)
                    text = replies[0].text
                    assert text.startswith("Refused: `/"), (command.name, system_id, options, text)
                    assert f"this channel's game is {service.system(system_id).name}" in text, text
                    assert (await service.table(channel)).game.revision == before
                    checked += 1
    assert checked > 50


async def test_the_wargame_commanders_move_is_its_own_and_frame_form_is_not_ardennes(layer: CommandLayer) -> None:
    service = layer.service
    await service.create(guild=1, channel=950, caller=MOD, system_id="wargame-commander", scenario="wargame-commander")
    replies = await layer.run("move", Context(MOD, 950, 1), {"units": "us-8", "to": "1412"})
    assert "is a command of" not in replies[0].text
    create = {"module": "a-bridge-too-far", "start": "17N", "elr": "allied=5 german=3", "san": "allied=3 german=4"}
    await layer.run("campaign create", Context(MOD, 951, 1), create)
    replies = await layer.run("frame form", Context(MOD, 951, 1), {"pilots": "Rall, 2, 0, 0"})
    assert replies[0].text.startswith("Refused: `/frame form` is a command of The Ardennes Wargame Commander")
