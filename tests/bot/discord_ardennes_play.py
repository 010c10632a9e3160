"""An Ardennes game played through the fake Discord: its players, and reading the prompts and menus it posts."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.service.game_service
from bot.systems import systems
from tests.bot.doubles import require_ardennes
from tests.bot.fakediscord import FakeDiscord, FakeUser, Sent, answers, bot_behind_fake_discord, posts

SEED = b"\x07" * 32


@pytest.fixture
def pinned_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    require_ardennes()
    monkeypatch.setattr(bot.service.game_service, "new_seed", lambda: SEED)


@pytest.fixture
async def fake(db_path: Path, pinned_seed: None) -> AsyncIterator[FakeDiscord]:
    async with bot_behind_fake_discord(db_path, systems()) as opened:
        yield opened


ANN = FakeUser(11, "ann")  # German
BOB = FakeUser(22, "bob")  # Allied
EVE = FakeUser(33, "eve")  # a spectator
CHANNEL = 800


def no_traceback(sent: list[Sent]) -> None:
    assert not any("went wrong" in s.content or "Traceback" in s.content for s in sent)


def prompt_to(sent: list[Sent], user: FakeUser) -> Sent:
    """The last channel post that asks ``user`` for a decision (alone, or after the account of an action)."""
    return [p for p in posts(sent, CHANNEL) if re.search(rf"^<@{user.id}> \(\*\*", p.content, re.MULTILINE)][-1]


async def to_operations(fake: FakeDiscord, options: str = "", days_per_move: float = 0) -> list[Sent]:
    """Create, seat, start; the Germans end the support phase, the Allies allot an artillery to HQ VIII and end
    it too: the German activation prompt is in what this returns."""
    create: dict[str, Any] = {"scenario": "initial-assault"}
    if options:
        create["options"] = options
    if days_per_move:
        create["days_per_move"] = days_per_move
        create["reserve_days"] = 3.0
    sent = await fake.command(ANN, CHANNEL, "game create", **create)
    assert "Dice commitment" in posts(sent, CHANNEL)[0].content
    await fake.command(ANN, CHANNEL, "game join", seat="german")
    await fake.command(BOB, CHANNEL, "game join", seat="allied")
    start = await fake.command(BOB, CHANNEL, "game start")
    no_traceback(start)
    german = await open_choices(fake, ANN, start)
    done = menu_value(german, "Done")
    assert answers(await fake.click(ANN, german, german.buttons[0][0], values=[done]))[-1].content == "Done: Done."
    allied = await open_choices(fake, BOB, start)
    sent = await choose(fake, BOB, allied, "artillery to HQ VIII")
    allied = await open_choices(fake, BOB, sent)
    sent = await choose(fake, BOB, allied, "Done")
    no_traceback(sent)
    return sent


async def choose(fake: FakeDiscord, user: FakeUser, message: Sent, label: str) -> list[Sent]:
    """Pick the choice whose label ends with ``label``: its button, or its entry in the select menu."""
    button = next((text for text, _ in message.buttons if text.endswith(label)), None)
    if button is not None:
        return await fake.click(user, message, button)
    return await fake.click(user, message, message.buttons[0][0], values=[menu_value(message, label)])


def menu_value(message: Sent, label: str) -> str:
    """The value of the select menu entry whose label ends with ``label``."""
    for row in message.payload.get("components", []):
        for component in row.get("components", []):
            for option in component.get("options", []):
                if option["label"].endswith(label):
                    return str(option["value"])
    raise AssertionError(f"no menu entry {label!r}")


async def open_choices(fake: FakeDiscord, user: FakeUser, sent: list[Sent]) -> Sent:
    """The message with ``user``'s choices: the channel prompt, or under fog of war the private one behind
    the "Show my choices" button."""
    prompt = prompt_to(sent, user)
    if prompt.buttons and prompt.buttons[0][0] == "Show my choices":
        private = answers(await fake.click(user, prompt, "Show my choices"))[-1]
        assert private.ephemeral
        return private
    return prompt


def hidden_names(fake: FakeDiscord, state: Any) -> dict[str, str]:
    """Units on the map that the channel may not see (fog of war): id to name."""
    adapter = fake.bot.service.system("ardennes44")
    view = adapter.view(state, None)
    seen = {u["id"] for s in view["stacks"] for u in s["units"]}
    data = adapter.game.data  # type: ignore[attr-defined]
    return {u.id: data.units[u.id].name for u in state.on_map() if u.id not in seen}


def reveals(text: str, hidden: dict[str, str]) -> list[str]:
    return [
        name
        for unit, name in hidden.items()
        if unit in text or re.search(rf"(?<![\w/.]){re.escape(name)}(?![\w/])", text)
    ]
