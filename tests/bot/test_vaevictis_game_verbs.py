"""The activation verbs a Vae Victis game's data adds (Alsace 1944: mines 14, trucks 17) have commands."""

from __future__ import annotations

from bot.systems.vaevictis.commands import COMMANDS
from engine.vaevictis.game import GAME_VERBS


def test_every_game_verb_of_the_engine_has_a_command_taking_the_unit() -> None:
    by_verb = {c.verb: c for c in COMMANDS if c.verb}
    for verb in GAME_VERBS:
        command = by_verb[verb]
        assert [o.name for o in command.options] == ["unit"]
    assert {by_verb[v].name for v in GAME_VERBS} == {"mine", "clear-mines", "trucks"}
