"""The rooms (docs/architecture.md): each system brings its commands through its registered room; the shared
layer lists and routes them without naming a system."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any, cast

import pytest

from bot.commands import info
from bot.commands.catalogue import COMMANDS, SHARED_COMMANDS
from bot.commands.replies import Context, Reply
from bot.commands.rooms import all_rooms
from bot.service.game_service import Caller, Info, Refusal
from bot.systems import registry, rooms, systems
from bot.systems.base import Layer
from bot.transports.cogs.slash import groups
from bot.transports.console import play
from tests.bot.doubles import require_ardennes

SHARED_PRESS_VERBS = {"c", "s", "ok", "no", "dm", "rsy", "rsn", "im", "io", "ip", "ir"}


def test_every_room_command_is_in_the_catalogue_once() -> None:
    names = [c.name for c in COMMANDS]
    assert len(names) == len(set(names))
    for room in all_rooms():
        assert {c.name for c in room.commands} <= set(names)
    assert {c.name for c in SHARED_COMMANDS} <= set(names)


def test_every_slash_group_has_a_description_from_its_room() -> None:
    words = {c.words[0] for c in COMMANDS if len(c.words) == 2}
    assert words <= set(groups())
    assert {"campaign", "frame", "league", "mod", "game"} <= set(groups())


def test_rooms_press_verbs_collide_neither_with_each_other_nor_with_the_shared_ones() -> None:
    seen: set[str] = set(SHARED_PRESS_VERBS)
    for room in all_rooms():
        assert not room.press_verbs & seen, room
        seen |= room.press_verbs


def test_the_shared_information_buttons_are_shared_verbs_and_the_acting_ones_the_rooms() -> None:
    assert info.PRESS_VERBS <= SHARED_PRESS_VERBS
    assert rooms()["ardennes44"].press_verbs >= {"ia", "ix"}  # attack this hex, dig in, recover


def test_registry_pairs_each_system_with_its_room() -> None:
    assert set(registry()) == set(rooms()) == {"ardennes44", "alsace44", "asl", "wargame-commander"}
    assert rooms()["alsace44"] is rooms()["ardennes44"]  # one room for the games of one system
    assert {c.name for c in rooms()["asl"].commands} >= {"campaign create", "mod load-table"}
    assert {c.name for c in rooms()["wargame-commander"].commands} >= {"frame report", "score"}
    assert {c.name for c in rooms()["ardennes44"].commands} >= {"activate", "move", "attack"}


def help_words(text: str) -> set[str]:
    listed = text.split("Commands: ", 1)[1].split(". Also:", 1)[0]
    return {name.strip() for name in listed.split(",")}


async def test_console_help_lists_the_games_system_commands_and_the_shared_ones_only() -> None:
    require_ardennes()
    out = io.StringIO()
    await play(systems(), scenario="initial-assault", script=["help"], out=out, pictures=False)
    listed = help_words(out.getvalue())
    assert {"move", "attack", "activate", "game create", "mod correct", "hex", "league create"} <= listed
    assert not {n for n in listed if n.startswith(("campaign", "frame"))} and "score" not in listed


async def test_console_help_in_an_asl_campaign_lists_no_operational_command() -> None:
    out = io.StringIO()
    options = "start=17N; end=18AM; elr=allied=5 german=3; san=allied=3 german=4"
    await play(systems(), system="asl", options=options, script=["help"], out=out, pictures=False)
    listed = help_words(out.getvalue())
    assert {"campaign create", "campaign buy", "mod load-table", "game status", "choose"} <= listed
    assert not {"move", "attack", "activate", "frame report", "hex", "victory"} & listed


class Clicks:
    """A stand-in command layer: records the commands a button runs; the adapter's ``attack-group`` is
    ``group``."""

    def __init__(self, group: str) -> None:
        self.service = self
        self.group = group
        self.ran: list[tuple[str, dict[str, Any]]] = []

    async def info(self, channel: int, caller: Caller, topic: str, key: str = "", seat: str | None = None) -> Info:
        assert topic in ("attack-group", "attackers")  # issue 33: the button lists the attackers first
        return Info(self.group if topic == "attack-group" else f"Your units that may attack {key} now (7.1):")

    async def run(self, name: str, ctx: Context, options: Mapping[str, Any]) -> list[Reply]:
        self.ran.append((name, dict(options)))
        return []


async def test_the_vae_victis_rooms_buttons_run_its_commands_attack_dig_in_and_recover() -> None:
    room, ctx = rooms()["ardennes44"], Context(Caller(1), 5)
    clicks = Clicks("de-26-vg,de-2-pz-boehm")
    layer = cast(Layer, clicks)
    await room.press(layer, ctx, "ia", "2515", 3, ())  # every able unit: the adapter's attack group
    await room.press(layer, ctx, "ia", "2712.de-2-pz-cochenhausen", 3, ())
    await room.press(layer, ctx, "ix", "enter_ip.de-26-vg", 3, ())
    await room.press(layer, ctx, "ix", "recover.de-26-vg", 3, ())
    assert clicks.ran == [
        ("attack", {"target": "2515", "attackers": "de-26-vg,de-2-pz-boehm"}),
        ("attack", {"target": "2712", "attackers": "de-2-pz-cochenhausen"}),
        ("dig-in", {"unit": "de-26-vg"}),
        ("recover", {"unit": "de-26-vg"}),
    ]
    with pytest.raises(Refusal, match="none of your units may attack 2515 now"):
        await room.press(cast(Layer, Clicks("")), ctx, "ia", "2515", 3, ())
    with pytest.raises(Refusal, match="this button is not one of mine"):
        await room.press(layer, ctx, "ix", "leave_ip.de-26-vg", 3, ())
    assert len(clicks.ran) == 4
