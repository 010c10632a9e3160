"""Alsace 1944 through the real discord.py command tree against the fake Discord (no network).

The dice seed is pinned so the game goes the same way each run. The game is created with `game create
system:alsace44`; the German keeps the suggested set-up (19.2, its own test in test_discord_alsace_setup.py);
the French allot a support marker (1.6); the German, who has the initiative, passes;
the French activate the 2e DIM and attack 0416 from two adjacent stacks with their support, after the odds
preview; the German takes the result; the end of the activation posts the map of what changed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.service
from bot.config import Settings
from bot.discord_app import UmpireBot
from bot.store import Store
from tests.bot.alsace import alsace_systems
from tests.bot.fakediscord import FakeDiscord, FakeUser, answers, posts
from tests.bot.test_discord_ardennes import choose, no_traceback, prompt_to

ANN = FakeUser(11, "ann")  # German
BOB = FakeUser(22, "bob")  # French (the "allied" seat)
EVE = FakeUser(33, "eve")  # a spectator
CHANNEL = 800
SEED = b"\x07" * 32


@pytest.fixture
async def fake(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    monkeypatch.setattr(bot.service, "new_seed", lambda: SEED)
    store = await Store.open(db_path)
    umpire = UmpireBot(Settings(token=None, db=str(db_path)), store, alsace_systems(), sync_commands=False,
                       run_background_tasks=False)  # fmt: skip
    opened = FakeDiscord(umpire)
    await opened.start()
    yield opened
    await opened.stop()
    await store.close()


async def test_an_alsace_game_through_discord(fake: FakeDiscord, pictures: list[Any]) -> None:
    # Creation: Alsace among the systems, with its own scenarios and options.
    offered = await fake.autocomplete(ANN, CHANNEL, "game create", "system", system="")
    assert "alsace44" in [c["value"] for c in offered]
    scenarios = await fake.autocomplete(ANN, CHANNEL, "game create", "scenario", system="alsace44", scenario="")
    assert [c["value"] for c in scenarios][:2] == ["initial-assault", "entire-battle"]
    options = [
        c["value"]
        for c in await fake.autocomplete(ANN, CHANNEL, "game create", "options", system="alsace44", options="")
    ]
    assert "fog_of_war" in options and "christmas_presents" not in options
    sent = await fake.command(ANN, CHANNEL, "game create", system="alsace44", scenario="initial-assault")
    assert "**Game #1 created**: Alsace 1944, scenario initial-assault" in posts(sent, CHANNEL)[0].content
    await fake.command(ANN, CHANNEL, "game join", seat="german")
    await fake.command(BOB, CHANNEL, "game join", seat="allied")
    pictures.clear()
    start = await fake.command(BOB, CHANNEL, "game start")
    no_traceback(start)
    briefing = next(p for p in posts(start, CHANNEL) if "Victory conditions" in p.content).content
    assert "**Alsace 1944: The Initial Assault** (rule 19.1), 3 turns" in briefing
    assert "hold 2 of Belfort, Sochaux, Montbeliard (a hex of each) at the end" in briefing
    assert "- turn 1: 14-15 November 1944\n" in briefing  # no weather in Alsace
    setup_map = next(p for p in posts(start, CHANNEL) if p.files == ["map.png"])
    assert setup_map.content == "The map at the start." and pictures[-1][0] is None
    start = await choose(fake, ANN, prompt_to(start, ANN), "Set-up done")  # [19.2] the suggested set-up

    # Support (1.6): the French allot a light artillery to the 2e DIM; the German none.
    sent = await choose(fake, BOB, prompt_to(start, BOB), "light artillery to HQ 2e DIM")
    assert "Light artillery allotted to HQ 2e DIM" in posts(sent, CHANNEL)[0].content
    sent = await choose(fake, ANN, prompt_to(start, ANN), "Done")
    sent = await choose(fake, BOB, prompt_to(sent, BOB), "Done")
    told = posts(sent, CHANNEL)[-1].content
    if "sealed decision" in told:  # [2.1] the German's initiative stratagem, asked by DM (i15c)
        dm = next(m for m in sent if any(text.endswith("Do not play it") for text, _ in m.buttons))
        sent = await choose(fake, ANN, dm, "Do not play it")
        told = "\n".join(p.content for p in posts(sent, CHANNEL))
    assert "has the initiative" in told

    # The German passes if he has the initiative (this seed); the French activate the 2e DIM.
    if "The german player has the initiative." in told:
        sent = await choose(fake, ANN, prompt_to(sent, ANN), "Pass")
    sent = await choose(fake, BOB, prompt_to(sent, BOB), "Activate 2e DIM (2nd Moroccan Infantry Division)")
    assert "Allied activates 2e DIM" in posts(sent, CHANNEL)[0].content

    # The attack (7): two adjacent French stacks on 0416 with the 2e DIM's artillery, after the odds.
    attackers = await fake.autocomplete(BOB, CHANNEL, "attack", "attackers", target="0416", attackers="")
    assert {"fr-i-4-rtm", "fr-i-8-rtm"} <= {c["value"] for c in attackers}
    sent = await fake.command(
        BOB, CHANNEL, "attack", target="0416", attackers="fr-i-4-rtm,fr-i-8-rtm", kind="normal",
        supports="hq-fr-2-dim:light_artillery",
    )  # fmt: skip
    preview = answers(sent)[-1]
    assert preview.ephemeral and not posts(sent)
    assert "Attack 6: I/4 RTM 3; I/8 RTM 3" in preview.content and "Defence 2: I/758 2" in preview.content
    assert "light artillery support of HQ 2e DIM" in preview.content and "%" in preview.content
    sent = await fake.click(BOB, preview, "Confirm")
    told = "\n".join(p.content for p in posts(sent, CHANNEL))
    assert "Allied normal attack on 0416 by I/4 RTM, I/8 RTM" in told and "Combat at 0416: 6 against 2" in told
    loss = prompt_to(sent, ANN)
    assert "Defender: result" in loss.content
    assert "Also: /act retreat, /act advance." in loss.content  # never another system's /frame advance
    sent = await choose(fake, ANN, loss, "I/758 loses a step")
    no_traceback(sent)
    for _ in range(8):  # the rest of the result, whatever the dice of the seed: the first choice each time
        if "Combat at 0416 is over" in "\n".join(p.content for p in posts(sent, CHANNEL)):
            break
        for user in (ANN, BOB):
            asked = [p for p in posts(sent, CHANNEL) if f"<@{user.id}> (**" in p.content and p.buttons]
            if asked:
                sent = await choose(fake, user, asked[-1], asked[-1].buttons[0][0])
                break
    assert "Combat at 0416 is over" in "\n".join(p.content for p in posts(sent, CHANNEL))

    # The end of the activation: the picture of what changed, for everyone.
    pictures.clear()
    sent = await fake.command(BOB, CHANNEL, "end-activation")
    no_traceback(sent)
    picture = next(p for p in posts(sent, CHANNEL) if p.files == ["map.png"])
    assert picture.file_data["map.png"].startswith(b"\x89PNG")
    assert pictures and pictures[0][0] is None  # the channel gets the public view
    # [15.3, 19.2] The French played the 1er CA on turn 1: their second HQ activation comes at once.
    assert "your activation sequence" in prompt_to(sent, BOB).content

    # Anyone reads the log; a player the victory conditions and a fort of Belfort.
    log = answers(await fake.command(EVE, CHANNEL, "log"))[-1].content
    assert "Combat at 0416" in log
    status = answers(await fake.command(BOB, CHANNEL, "victory"))[-1].content
    assert "reach the rhine bank at some time in the game: not met" in status
    assert "Montbeliard: German" in status
    fort = answers(await fake.command(BOB, CHANNEL, "hex", hex="1110"))[-1].content
    assert "German defender in the Fort (12.3)" in fort
