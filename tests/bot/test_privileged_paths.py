"""Every privileged verb of every system, refused to a player without the role on each path: the moderators'
commands, an ASL campaign's organiser (its tables and its correction epochs) by ``mod load-table`` or by
``act``, and the Wargame Commander's campaign manager (tests/bot/test_wargame_commander_roles.py holds the
paths of the ``cm`` seat)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.commands.layer import CommandLayer, Context
from bot.service.game_service import Caller, GameService
from bot.store.sqlite import SqliteStore
from bot.systems import systems

ANN, BOB, MOD = Caller(11, "ann"), Caller(22, "bob"), Caller(99, "mod", moderator=True)
ASL, WC = 840, 841
TABLE = '[initiative]\\n"attack/attack" = "dual"'


@pytest.fixture
async def layer(tmp_path: Path) -> AsyncIterator[CommandLayer]:
    store = await SqliteStore.open(tmp_path / "paths.sqlite3")
    service = GameService(store, systems())
    yield CommandLayer(service, "wargame-commander", pictures=False)
    await service.renderer.aclose()
    await store.close()


async def refused(layer: CommandLayer, channel: int, caller: Caller, name: str, options: dict[str, Any]) -> str:
    table = await layer.service.table(channel)
    before = (table.game.revision, table.game.status)
    replies = await layer.run(name, Context(caller, channel, 1), options)
    assert replies[0].text.startswith("Refused"), (name, options, [r.text for r in replies])
    table = await layer.service.table(channel, live=False)
    assert (table.game.revision, table.game.status) == before, (name, options)
    return replies[0].text


async def test_the_organisers_and_moderators_verbs_are_refused_to_players_on_every_path(layer: CommandLayer) -> None:
    create = {"start": "17N", "elr": "allied=5 german=3", "san": "allied=3 german=4"}
    await layer.run("campaign create", Context(ANN, ASL, 1), {"module": "a-bridge-too-far", **create})
    await layer.run("game join", Context(ANN, ASL, 1), {"seat": "allied"})
    await layer.run("game join", Context(BOB, ASL, 1), {"seat": "german"})
    await layer.run("game start", Context(BOB, ASL, 1), {})
    await layer.run(
        "game create", Context(MOD, WC, 1), {"scenario": "wargame-commander", "system": "wargame-commander"}
    )
    await layer.run("game join", Context(ANN, WC, 1), {"seat": "allied"})
    await layer.run("game join", Context(BOB, WC, 1), {"seat": "german"})
    await layer.run("game join", Context(MOD, WC, 1), {"seat": "cm"})
    await layer.run("game start", Context(MOD, WC, 1), {})

    # [9.617] the organiser's tables: the moderator's command, and the engine's verb through `act`.
    assert "Only a moderator" in await refused(layer, ASL, ANN, "mod load-table", {"text": TABLE})
    for verb in ("load_table", "corrected"):
        text = await refused(layer, ASL, ANN, "act", {"verb": verb, "args": "text=x epoch=9"})
        assert "organiser" in text, text
    # The moderators' commands, in both games.
    for channel in (ASL, WC):
        for name, options in (
            ("mod correct", {"count": 1, "reason": "x"}),
            ("mod abandon", {"reason": "x"}),
            ("mod substitute", {"seat": "german", "user": ANN.user_id}),
        ):
            assert "moderator" in await refused(layer, channel, ANN, name, options)
    # The CM's correction epoch is the bot's own step after `mod correct`: a side's player cannot send it.
    assert "corrected" in await refused(layer, WC, ANN, "act", {"verb": "corrected"})
