"""Alsace 1944 through the real discord.py command tree against the fake Discord (no network).

The dice seed is pinned so the game goes the same way each run. The game is created with `game create
system:alsace44`, as a player does; the German keeps the suggested set-up (19.2, its own test in
test_discord_alsace_setup.py); the French allot a support marker (1.6); the initiative stratagems are asked (2.1);
the French activate the 2e DIM and attack 0416 from two adjacent stacks with their support, after the odds
preview; the German takes the result; two battalions cross to the fort of 0816; the end of the activation
posts the map of what changed. Then the hidden garrison (16): both seats see it face down; the French play
the FFI's bridge capture (15.3) and attack it, the odds a range until the declared attack flips it by a
verifiable draw; the picture after it; the German flips another in his activation and the picture shows its
values; after the German resigns, `game verify` recomputes every roll, the draws included.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.service.game_service
from bot.systems import systems
from tests.bot.discord_ardennes_play import choose, no_traceback, prompt_to
from tests.bot.fakediscord import FakeDiscord, FakeUser, answers, bot_behind_fake_discord, posts

ANN = FakeUser(11, "ann")  # German
BOB = FakeUser(22, "bob")  # French (the "allied" seat)
EVE = FakeUser(33, "eve")  # a spectator
CHANNEL = 800
SEED = b"\x07" * 32


@pytest.fixture
async def fake(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    monkeypatch.setattr(bot.service.game_service, "new_seed", lambda: SEED)
    async with bot_behind_fake_discord(db_path, systems()) as opened:
        yield opened


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
    assert "hold 2 of Belfort, Sochaux, Montbéliard (a hex of each) at the end" in briefing
    assert "- turn 1: 14-15 November 1944\n" in briefing  # no weather in Alsace
    setup_map = next(p for p in posts(start, CHANNEL) if p.files == ["map.png"])
    assert setup_map.content == "The map at the start." and pictures[-1][0] is None
    start = await choose(fake, ANN, prompt_to(start, ANN), "Set-up done")  # [19.2] the suggested set-up
    after_setup = next(p for p in posts(start, CHANNEL) if p.files == ["map.png"])
    assert after_setup.content.startswith("The map after the german set-up.")  # what it shows, not "that activation"

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
    assert "French activates 2e DIM" in posts(sent, CHANNEL)[0].content

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
    assert "French normal attack on 0416 by I/4 RTM, I/8 RTM" in told and "Combat at 0416: 6 against 2" in told
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

    # [16] Two more battalions cross to 0716, by the fort of 0816 and its face-down German garrison.
    for unit in ("fr-ii-8-rtm", "fr-i-5-rtm"):
        for hex_ in ("0617", "0716"):
            sent = await fake.command(BOB, CHANNEL, "move", units=unit, to=hex_)
            no_traceback(sent)
    assert "I/5 RTM move 0617-0716" in posts(sent, CHANNEL)[-1].content

    # The end of the activation: the picture of what changed, for everyone.
    pictures.clear()
    sent = await fake.command(BOB, CHANNEL, "end-activation")
    no_traceback(sent)
    picture = next(p for p in posts(sent, CHANNEL) if p.files == ["map.png"])
    assert picture.file_data["map.png"].startswith(b"\x89PNG")
    assert pictures and pictures[0][0] is None  # the channel gets the public view
    assert_face_down(pictures[0][1], 816)
    # [15.3, 19.2] The French played the 1er CA on turn 1: their second HQ activation comes at once.
    assert "your activation sequence" in prompt_to(sent, BOB).content

    # Anyone reads the log; a player the victory conditions and a fort of Belfort.
    log = answers(await fake.command(EVE, CHANNEL, "log"))[-1].content
    assert "Combat at 0416" in log
    status = answers(await fake.command(BOB, CHANNEL, "victory"))[-1].content
    assert "reach the Rhine bank at some time in the game: not met" in status
    assert "Montbéliard: German" in status
    fort = answers(await fake.command(BOB, CHANNEL, "hex", hex="1110"))[-1].content
    assert "German defender in the Fort (12.3)" in fort

    # [16] Nobody knows the garrison's values before it is flipped: not the French, and not the German either
    # (its counter is drawn only when it is flipped: docs/rules/alsace44.md, 16). Each seat's own picture and
    # /hex say "face down" and no more.
    for user, seat in ((ANN, "german"), (BOB, "allied")):
        pictures.clear()
        close_up = answers(await fake.command(user, CHANNEL, "map", hex="0816"))[-1]
        assert close_up.ephemeral and close_up.files == ["map.png"] and pictures[-1][0] == seat
        assert_face_down(pictures[-1][1], 816)
        told = answers(await fake.command(user, CHANNEL, "hex", hex="0816"))[-1]
        assert told.ephemeral and "- Garrison (face down) (de-festung-2): strength ?, steps 1/1, quality ?" in (
            told.content
        )
        assert "Festung" not in told.content

    # The second HQ activation of the 1er CA (15.3): the 2e DIM again, its HQ fatigued (asked first).
    sent = await choose(fake, BOB, prompt_to(sent, BOB), "Activate 2e DIM (2nd Moroccan Infantry Division)")
    assert "activating it again fatigues its HQ" in answers(sent)[-1].content
    sent = await fake.click(BOB, answers(sent)[-1], "Confirm")
    assert "HQ 2e DIM is reactivated and becomes fatigued" in posts(sent, CHANNEL)[-1].content

    # [7.5, 16] The odds of an attack on the face-down garrison: a range, its values unseen. Across the
    # bridged Doubs the attackers are halved (0.2).
    attackers = "fr-ii-8-rtm,fr-i-5-rtm"
    preview = answers(await fake.command(BOB, CHANNEL, "attack", target="0816", attackers=attackers))[-1]
    assert preview.ephemeral and "Defence 0 to 6: 1 garrison face down (16)" in preview.content
    # Reactivated by the attack, both battalions are fatigued as they join (3.5): the odds count it already.
    assert "Attack 2: II/8 RTM 3 halved: fatigued (3.5.1), attacking across a bridge (0.2)" in preview.content
    assert "Festung" not in preview.content and "fog of war" not in preview.content
    assert "Cancelled; nothing changed." in answers(await fake.click(BOB, preview, "Cancel"))[-1].content

    # [15.3] A stratagem by command: the FFI capture the bridge, and the next attack is not halved across it.
    sent = await fake.command(BOB, CHANNEL, "event", event="bridge-captured-by-ffi", hex="0816")
    no_traceback(sent)
    assert "French plays Bridge captured by the FFI (Pont capture)" in posts(sent, CHANNEL)[-1].content
    preview = answers(await fake.command(BOB, CHANNEL, "attack", target="0816", attackers=attackers))[-1]
    assert "Attack 3: II/8 RTM 3 halved: fatigued (3.5.1); I/5 RTM 3 halved: fatigued (3.5.1)\n" in preview.content
    assert "Festung" not in preview.content

    # [16] Declared, the attack flips the garrison: its identity is one roll of the game's dice among the 16
    # counters still face down, then the combat is fought at exact odds.
    sent = await fake.click(BOB, preview, "Confirm")
    no_traceback(sent)
    told = "\n".join(p.content for p in posts(sent, CHANNEL))
    assert "Garrison at 0816 flipped (it is attacked): drew counter 11 of the 16 still face down" in told
    assert "The garrison at 0816 is Festung 4: strength 1, quality 2." in told
    assert "Combat at 0816: 3 against 1, ratio 3:1" in told  # as the preview said, the fort's two columns left
    sent = await choose(fake, ANN, prompt_to(sent, ANN), "Festung 4 loses a step")
    assert "Festung 4 is eliminated" in posts(sent, CHANNEL)[-1].content
    sent = await choose(fake, BOB, prompt_to(sent, BOB), "Advance II/8 RTM, I/5 RTM to 0816")
    assert "Combat at 0816 is over" in posts(sent, CHANNEL)[-1].content

    # The picture after it: the French in 0816, no face-down counter left there.
    pictures.clear()
    sent = await fake.command(BOB, CHANNEL, "end-activation")
    no_traceback(sent)
    assert any(p.files == ["map.png"] for p in posts(sent, CHANNEL)) and pictures[0][0] is None
    assert {u["id"] for u in units_at(pictures[0][1], 816)} == {"fr-ii-8-rtm", "fr-i-5-rtm"}

    # [16] The German flips the garrison of 0812 in his activation: the picture after it shows its values.
    sent = await choose(fake, ANN, prompt_to(sent, ANN), "Activate 189. Infanterie-Division")
    sent = await choose(fake, ANN, prompt_to(sent, ANN), "Flip the garrison at 0812 (16)")
    told = "\n".join(p.content for p in posts(sent, CHANNEL))
    assert "Garrison at 0812 flipped (at the German player's choice): drew counter 11 of the 15 still face down" in told
    assert "The garrison at 0812 is Festung 5: strength 1, quality 2." in told
    pictures.clear()
    sent = await fake.command(ANN, CHANNEL, "end-activation")
    assert any(p.files == ["map.png"] for p in posts(sent, CHANNEL)) and pictures[0][0] is None
    [flipped] = units_at(pictures[0][1], 812)
    assert (flipped["name"], flipped["strength"], flipped["quality"]) == ("Festung 5", 1, 2)
    assert not flipped.get("face_down")

    # [16, dice] After the end, anyone checks every roll against the revealed seed, the two draws included.
    sent = await fake.click(ANN, answers(await fake.command(ANN, CHANNEL, "game resign"))[-1], "Confirm")
    over, record = posts(sent, CHANNEL)[-2:]
    assert "The dice seed was" in over.content and record.files == ["game-1-record.html"]  # issue 34
    checked = answers(await fake.command(EVE, CHANNEL, "game verify"))[-1].content
    assert "Verification passed: every layer holds." in checked
    assert "- dice: holds (5 roll(s) recomputed from the seed" in checked  # each die drawn, counted once


def units_at(view: dict[str, Any], hex_: int) -> list[dict[str, Any]]:
    """The units a view shows in a hex."""
    return [u for stack in view["stacks"] if stack["hex"] == hex_ for u in stack["units"]]


def assert_face_down(view: dict[str, Any], hex_: int) -> None:
    """[16] The view shows a face-down garrison in the hex, with no value, and names no garrison counter."""
    [garrison] = units_at(view, hex_)
    assert garrison["face_down"] and garrison["name"] == "Garrison (face down)"
    assert garrison["strength"] == garrison["quality"] == "?"
    assert "Festung" not in json.dumps(view)  # no flipped garrison yet: no counter's name anywhere
