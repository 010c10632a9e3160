"""[Alsace 1944 19.2, 12.2] The German set-up through the real discord.py command tree against the fake Discord.

A player creates The Entire Battle with `/game create` (the bot's own systems, as players get them); once the
game starts the German is pinged with the set-up prompt: what he places, where, under which rules, and what
is still to satisfy. He asks the autocomplete where Ohren may go, is refused a hex outside Belfort (with the
rule), places Ohren and a strongpoint, says he is done: the channel gets the picture of the set-up, and turn 1
begins with the support phase.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.service.game_service
from bot.systems import systems
from tests.bot.discord_ardennes_play import choose, no_traceback, prompt_to
from tests.bot.fakediscord import FakeDiscord, FakeUser, answers, bot_behind_fake_discord, posts

ANN = FakeUser(11, "ann")  # German
BOB = FakeUser(22, "bob")  # French
CHANNEL = 800
SEED = b"\x09" * 32


@pytest.fixture
async def fake(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    monkeypatch.setattr(bot.service.game_service, "new_seed", lambda: SEED)
    async with bot_behind_fake_discord(db_path, systems()) as opened:
        yield opened


async def test_19_2_the_german_sets_up_through_discord(fake: FakeDiscord, pictures: list[Any]) -> None:
    sent = await fake.command(ANN, CHANNEL, "game create", system="alsace44", scenario="entire-battle")
    assert "**Game #1 created**: Alsace 1944, scenario entire-battle" in posts(sent, CHANNEL)[0].content
    await fake.command(ANN, CHANNEL, "game join", seat="german")
    await fake.command(BOB, CHANNEL, "game join", seat="allied")
    start = await fake.command(BOB, CHANNEL, "game start")
    no_traceback(start)
    asked = prompt_to(start, ANN).content
    assert "Set-up (19.2, 12.2): place your units with `place`" in asked
    assert "1000 Aufkl, ss MG 808 in 'east of Belfort, north of the Allaine'" in asked
    assert "Ohren in 1109 or 1110" in asked and "6 free strongpoints" in asked
    assert "Each German division needs a strongpoint stacked with one of its units (19.2)" in asked
    assert "Every condition holds" in asked and "/place" in asked
    assert not [p for p in posts(start, CHANNEL) if f"<@{BOB.id}> (**" in p.content]  # the French wait

    # The autocomplete offers the units he places and, for Ohren, Belfort's two hexes only.
    units = await fake.autocomplete(ANN, CHANNEL, "place", "unit", unit="")
    assert {"de-ohren", "de-1000-aufkl", "de-stp-7"} <= {c["value"] for c in units}
    assert not {"de-i-1209", "de-festung-1"} & {c["value"] for c in units}
    hexes = await fake.autocomplete(ANN, CHANNEL, "place", "hex", unit="de-ohren", hex="")
    assert [c["value"] for c in hexes] == ["1109", "1110"]

    # A hex outside Belfort: refused with its rule, to him alone, and nothing changes.
    sent = await fake.command(ANN, CHANNEL, "place", unit="de-ohren", hex="1111")
    refusal = answers(sent)[-1]
    assert refusal.ephemeral and not posts(sent, CHANNEL)
    assert "Ohren is placed in 1109 or 1110, not in 1111" in refusal.content and "19.2" in refusal.content

    # Ohren into Belfort's fort hex, a strongpoint with the 189th's II/1213: both said in the channel.
    sent = await fake.command(ANN, CHANNEL, "place", unit="de-ohren", hex="1110")
    assert "Ohren placed at 1110 (19.2)." in posts(sent, CHANNEL)[0].content
    placed = await fake.command(ANN, CHANNEL, "place", unit="de-stp-12", hex="0311")
    assert "StP 12 placed at 0311 (19.2)." in "\n".join(p.content for p in posts(placed, CHANNEL))
    sent = await fake.command(ANN, CHANNEL, "place", unit="de-stp-8", hex="0311")
    assert "at most one a hex" in answers(sent)[-1].content and "12.2" in answers(sent)[-1].content

    # Done: the picture of the set-up for everyone, then turn 1's support phase for both players.
    pictures.clear()
    sent = await choose(fake, ANN, prompt_to(placed, ANN), "Set-up done")
    no_traceback(sent)
    told = "\n".join(p.content for p in posts(sent, CHANNEL))
    assert "The German player has set up (19.2)." in told
    picture = next(p for p in posts(sent, CHANNEL) if p.files == ["map.png"])
    assert picture.file_data["map.png"].startswith(b"\x89PNG") and pictures and pictures[0][0] is None
    view = pictures[0][1]
    at = {s["hex"]: [u["id"] for u in s["units"]] for s in view["stacks"]}
    assert "de-ohren" in at[1110] and "de-stp-12" in at[311]
    assert "Support phase" in prompt_to(sent, ANN).content and "Support phase" in prompt_to(sent, BOB).content
