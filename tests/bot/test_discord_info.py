"""The information commands of issue 13 through the real discord.py command tree against the fake Discord."""

from __future__ import annotations

from typing import Any

from tests.bot.fakediscord import FakeDiscord, Sent, answers, posts
from tests.bot.test_discord_ardennes import (  # noqa: F401 (fixtures)
    ANN,
    BOB,
    CHANNEL,
    EVE,
    fake,
    no_traceback,
    pictures,
    pinned_seed,
    prompt_to,
    to_operations,
)


async def mid_game(fake: FakeDiscord) -> list[Sent]:
    """Turn 1: the Germans activate XLVII Panzerkorps, move a regiment, attack Marnach (2515) with v. Böhm,
    take the loss and end the activation: what the last command sent."""
    sent = await to_operations(fake)
    sent = await fake.click(ANN, prompt_to(sent, ANN), "1. Activate XLVII Panzerkorps")
    hexes = await fake.autocomplete(ANN, CHANNEL, "move", "to", units="de-2-pz-cochenhausen", to="")
    await fake.command(ANN, CHANNEL, "move", units="de-2-pz-cochenhausen", to=hexes[0]["value"])
    sent = await fake.command(ANN, CHANNEL, "attack", target="2515", attackers="de-2-pz-boehm", kind="normal")
    sent = await fake.click(ANN, answers(sent)[-1], "Confirm")
    sent = await fake.click(BOB, prompt_to(sent, BOB), "1. artillery of HQ HQ VIII")
    sent = await fake.click(ANN, prompt_to(sent, ANN), "1. v. Böhm/2 loses a step")
    no_traceback(sent)
    return sent


async def test_dump(fake: FakeDiscord, pictures: list[Any]) -> None:
    await mid_game(fake)
    for user, name, options in [
        (BOB, "hex", {"hex": "2515"}),
        (ANN, "hex", {"hex": "2515"}),
        (ANN, "hex", {"hex": "1004"}),
        (ANN, "unit", {"unit": "de-2-pz-cochenhausen"}),
        (ANN, "unit", {"unit": "de-26-vg"}),
        (ANN, "hq", {"hq": "hq-de-xlvii-pzk"}),
        (ANN, "oob", {}),
        (ANN, "victory", {}),
        (ANN, "brief", {}),
        (ANN, "stats", {}),
        (ANN, "replay", {"turn": 1}),
        (ANN, "map", {"overlay": "combats"}),
    ]:
        sent = await fake.command(user, CHANNEL, name, **options)
        print(f"===== {name} {options}")
        for a in answers(sent):
            print(a.content, a.buttons, a.files)
            print("---")


async def test_pictures_dump(fake: FakeDiscord) -> None:
    from tests.bot.fakediscord import FakeUser
    from bot.service import Caller

    await mid_game(fake)
    await fake.command(ANN, CHANNEL, "end-activation")
    service = fake.bot.service
    for topic, key, name in [("hex", "2515", "hex"), ("unit", "de-26-vg", "unit"), ("replay", "1.1", "replay"), ("combats", "1", "combats")]:
        answer = await service.info(CHANNEL, Caller(ANN.id), topic, key)
        assert answer.picture
        open(f"/tmp/i13/{name}.png", "wb").write(answer.picture)
