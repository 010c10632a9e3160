"""Help and the /attack command speak each Vae Victis game's own language: its examples, its rule numbers, and no
air power in Alsace 1944 (2.1, 7.3), although the two games share one room and one slash command tree."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.service.game_service
from bot.systems import systems
from bot.transports.console import play
from tests.bot.alsace import alsace_systems
from tests.bot.discord_ardennes_play import CHANNEL, choose, prompt_to
from tests.bot.doubles import require_ardennes
from tests.bot.fakediscord import FakeDiscord, FakeUser, answers, bot_behind_fake_discord, posts

ANN = FakeUser(11, "ann")  # German
BOB = FakeUser(22, "bob")  # French


async def help_of(
    game_systems: dict[str, bot.service.game_service.SystemFactory], system: str, topic: str, tmp: Path
) -> str:
    out = io.StringIO()
    await play(game_systems, system=system, script=[f"help {topic}"], out=out, out_dir=tmp, pictures=False)
    return out.getvalue().split(f"help {topic}", 1)[1]


async def test_7_3_help_attack_in_alsace_has_its_own_example_and_no_air(tmp_path: Path) -> None:
    text = await help_of(alsace_systems(), "alsace44", "attack", tmp_path)
    assert "Example: attack target=1120 attackers=fr-i-23-ric" in text
    assert "air" not in text.lower().replace("repair", "")
    assert "de-2-pz" not in text and "2515" not in text  # nothing of Ardennes


async def test_14_3_help_attack_in_ardennes_offers_air_and_its_own_example(tmp_path: Path) -> None:
    require_ardennes()
    text = await help_of(systems(), "ardennes44", "attack", tmp_path)
    assert "Example: attack target=2515 attackers=de-2-pz-boehm" in text
    assert "  air (optional): air supports committed" in text


async def test_help_of_the_other_commands_is_per_game_too(tmp_path: Path) -> None:
    alsace = await help_of(alsace_systems(), "alsace44", "enter", tmp_path)
    assert "Example: enter unit=fr-b-cc5 at=0101" in alsace
    detach = await help_of(alsace_systems(), "alsace44", "detach", tmp_path)
    assert "detach: Ardennes 1944: make a detachment" in detach  # not Alsace's 18 (reinforcements)


@pytest.fixture
async def fake(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    monkeypatch.setattr(bot.service.game_service, "new_seed", lambda: b"\x07" * 32)
    async with bot_behind_fake_discord(db_path, alsace_systems()) as opened:
        yield opened


async def test_7_3_the_attack_commands_air_option_in_alsace_offers_none_and_is_refused(fake: FakeDiscord) -> None:
    sent = await fake.command(ANN, CHANNEL, "game create", system="alsace44", scenario="initial-assault")
    await fake.command(ANN, CHANNEL, "game join", seat="german")
    await fake.command(BOB, CHANNEL, "game join", seat="allied")
    start = await fake.command(BOB, CHANNEL, "game start")
    start = await choose(fake, ANN, prompt_to(start, ANN), "Set-up done")  # [19.2] the suggested set-up
    sent = await choose(fake, ANN, prompt_to(start, ANN), "Done")
    sent = await choose(fake, BOB, prompt_to(start, BOB), "Done")
    told = posts(sent, CHANNEL)[-1].content
    if "sealed decision" in told:  # [2.1] the German's initiative stratagem, asked by DM
        dm = next(m for m in sent if any(text.endswith("Do not play it") for text, _ in m.buttons))
        sent = await choose(fake, ANN, dm, "Do not play it")
        told = "\n".join(p.content for p in posts(sent, CHANNEL))
    if "The german player has the initiative." in told:
        sent = await choose(fake, ANN, prompt_to(sent, ANN), "Pass")
    await choose(fake, BOB, prompt_to(sent, BOB), "Activate 2e DIM (2nd Moroccan Infantry Division)")

    offered = await fake.autocomplete(BOB, CHANNEL, "attack", "air", target="0416", attackers="fr-i-4-rtm", air="")
    assert offered == [{"name": "0: Alsace 1944 has no air support (7.3)", "value": 0}]
    sent = await fake.command(BOB, CHANNEL, "attack", target="0416", attackers="fr-i-4-rtm", air=1)
    refusal = answers(sent)[-1].content
    assert "Alsace 1944 has no air support" in refusal and "7.3" in refusal
    assert not posts(sent, CHANNEL)  # nothing happened
