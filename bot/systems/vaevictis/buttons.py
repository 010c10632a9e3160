"""The buttons of a Vae Victis information answer that act (``hex``, ``unit``: :mod:`bot.systems.vaevictis.reports`
offers them): ``ia`` attacks a hex, with one unit or with every unit able to (the odds preview first, as the
``attack`` command); ``ix`` takes a unit's action (``dig-in``, ``recover``). Each runs the room's command
through the command layer, so a click is refused or previewed exactly as the typed command would be.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.commands.replies import Context, Reply
from bot.service.game_service import Refusal
from bot.systems.base import Layer

ATTACK = "ia"
"""Custom id verb of an attack button: the argument is the target hex, or ``hex.unit`` for one attacker."""
UNIT_ACTION = "ix"
"""Custom id verb of a unit's action button: the argument is ``engine verb.unit``."""
PRESS_VERBS = frozenset({ATTACK, UNIT_ACTION})

UNIT_ACTIONS: Mapping[str, str] = {"enter_ip": "dig-in", "recover": "recover"}
"""Unit actions a button may take: engine verb to command."""


async def press(layer: Layer, ctx: Context, verb: str, arg: str) -> list[Reply]:
    """A click on an attack or unit action button."""
    if verb == ATTACK:
        target, _, unit = arg.partition(".")
        attackers = [unit] if unit else await _able_attackers(layer, ctx, target)
        if not attackers:
            raise Refusal(f"none of your units may attack {target} now")
        replies = await layer.run("attack", ctx, {"target": target, "attackers": ",".join(attackers)})
        if unit:
            return replies
        # The units that may join, as the console's `attackers HEX` lists them, before the preview of the group.
        able = await layer.service.info(ctx.channel, ctx.caller, "attackers", target)
        return [Reply(able.text), *replies]
    action, _, unit = arg.partition(".")
    if verb != UNIT_ACTION or action not in UNIT_ACTIONS:
        raise Refusal("this button is not one of mine")
    return await layer.run(UNIT_ACTIONS[action], ctx, {"unit": unit})


async def _able_attackers(layer: Layer, ctx: Context, target: str) -> list[str]:
    """The units that would attack ``target`` together (the adapter chooses them: its ``attack-group``)."""
    answer = await layer.service.info(ctx.channel, ctx.caller, "attack-group", target)
    return [u for u in answer.text.split(",") if u]
