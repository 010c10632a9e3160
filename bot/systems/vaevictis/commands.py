"""The Vae Victis room's commands: the play commands of an operational game (``activate``, ``move``,
``attack``, ``dig-in`` ... ``end-activation``, ``pass``). Each sends its engine verb through the command
layer's play handler (an attack is previewed and confirmed first); ``activate`` has its own handler here
(a formation, or ``general``; a reactivation is confirmed first), and so has ``standing-orders`` (``none``
clears them).

Light on purpose (no engine import): the registry (:mod:`bot.systems`) reads it when the bot starts. Every
game on the system (Ardennes 1944, Alsace 1944) shares these commands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.commands.definitions import UNIT, CommandDef, OptionDef, opt
from bot.commands.replies import Context, Handler, Reply
from bot.systems.base import Layer, Room
from bot.systems.vaevictis import buttons

COMMANDS: tuple[CommandDef, ...] = (
    CommandDef(
        "activate",
        "Activate a formation (or make a general activation).",
        (opt("formation", "the formation, or 'general'", "formation"),),
    ),
    CommandDef(
        "move",
        "Move units of the activation to a hex.",
        (
            opt("units", "the unit (or units separated by commas)", "unit"),
            opt("to", "the destination hex", "destination"),
            opt("path", "the hexes of the route, separated by commas (optional)", None, False),
        ),
        verb="move",
        slow=True,
    ),
    CommandDef(
        "enter",
        "Bring a reinforcement onto the map.",
        (
            opt("unit", "the reinforcement", "reinforcement"),
            opt("at", "the entry hex", "entry"),
            opt("to", "where it moves after entering (optional)", "destination", False),
        ),
        verb="enter",
        slow=True,
    ),
    CommandDef(
        "attack",
        "Attack a hex: see the odds, then confirm or cancel.",
        (
            opt("target", "the enemy hex", "target"),
            opt("attackers", "the attacking units, separated by commas", "attacker"),
            opt("kind", "normal or prepared attack (default: normal)", "attack_kind", False),
            opt("supports", "support markers, e.g. hq-id:artillery, separated by commas", "support", False),
            OptionDef(
                "air",
                "air supports committed, in a game with air power (none in Alsace 1944)",
                "integer",
                False,
                "air_points",
                0,
                9,
            ),
            opt("quality", "the attacker whose quality is used, who takes the first loss", "attacker", False),
        ),
        verb="attack",
        slow=True,
        confirm=True,
    ),
    CommandDef("dig-in", "Put a unit in an improved position.", (UNIT,), verb="enter_ip"),
    CommandDef(
        "leave-ip", "Take a unit out of its improved position.", (opt("unit", "the unit", "ip_unit"),), "leave_ip"
    ),
    CommandDef("recover", "Recover a unit from fatigue.", (opt("unit", "the unit", "fatigued"),), verb="recover"),
    CommandDef("mine", "Alsace 1944: an infantry unit mines the village it is in, 1 AP (14).", (UNIT,), verb="mine"),
    CommandDef(
        "clear-mines", "Alsace 1944: a unit clears the mines in its hex, 1 AP (14).", (UNIT,), verb="clear_mines"
    ),
    CommandDef(
        "trucks", "Alsace 1944: put an infantry battalion in trucks, 3 AP and 6 MP (17).", (UNIT,), verb="trucks"
    ),
    CommandDef(
        "detach",
        "Ardennes 1944: make a detachment from a division of the activation (18).",
        (
            opt("division", "the division", "division"),
            opt("steps", "how many steps the detachment takes (default: as many as allowed)", "detach_steps", False),
        ),
        verb="detach",
    ),
    CommandDef(
        "recombine",
        "Ardennes 1944: a detachment rejoins its division in the same hex (18).",
        (opt("detachment", "the detachment", "detachment"),),
        verb="recombine",
    ),
    CommandDef(
        "event",
        "Play one of your events (15), also in reaction during the other side's activation.",
        (opt("event", "the event", "event"), opt("hex", "where it goes", "event_hex")),
        verb="play_event",
    ),
    CommandDef(
        "remove-marker",
        "An activated unit removes an enemy event marker next to it for 1 AP (15.2, 15.3).",
        (opt("unit", "the unit that removes it", "marker_unit"), opt("hex", "the marker's hex", "marker_hex")),
        verb="remove_marker",
    ),
    CommandDef(
        "standing-orders",
        "Answers given in advance to combat decisions, any time (comma-separated; 'none' clears them).",
        (opt("orders", "the orders, in priority order", "standing_order"),),
        verb="standing_orders",
    ),
    CommandDef(
        "on-top",
        "Fog of war: choose the unit shown on top of one of your stacks (11.2).",
        (opt("unit", "the unit to show on top", "top_unit"),),
        verb="put_on_top",
    ),
    CommandDef(
        "place",
        "Set-up: put one of your units on a hex of its set-up area (Alsace 19.2, 19.4.1).",
        (opt("unit", "the unit you place", "setup_unit"), opt("hex", "the hex", "setup_hex")),
        verb="place",
    ),
    CommandDef("end-activation", "End the activation in progress.", verb="end_activation", slow=True),
    CommandDef("pass", "Pass instead of activating.", verb="pass", slow=True),
)
"""The play commands of a Vae Victis game."""

HELP_EXAMPLES: dict[str, dict[str, str]] = {
    "ardennes44": {
        "activate": 'activate "XLVII Panzerkorps"   (or its id, or: activate general)',
        "move": "move units=de-2-pz-cochenhausen to=2614   (or: move Cochenhausen/2 2614)",
        "enter": "enter unit=us-7-ad at=1902",
        "attack": "attack target=2515 attackers=de-2-pz-boehm   (then ok or cancel)",
        "event": "event nuts 2515",
        "map": "map overlay:reachable unit:de-26-vg   (Discord's option:value works too)",
        "hex": "hex 2515",
        "unit": "unit Mueller/12   (a name or an id)",
        "stack": "stack 2515",
        "act": "act retreat unit=us-110-28 to=2416",
        "standing-orders": "standing-orders take-losses,no-advance",
    },
    "alsace44": {
        "activate": "activate fr-9-dic   (or its name, or: activate general)",
        "move": 'move units=fr-i-23-ric to=1022   (or by its name: move units="I/23 RIC" to=1022)',
        "enter": "enter unit=fr-b-cc5 at=0101",
        "attack": "attack target=1120 attackers=fr-i-23-ric,fr-ii-23-ric   (then ok or cancel)",
        "event": "event antitank-ditch 0416",
        "map": "map overlay:reachable unit:fr-i-4-rtm   (Discord's option:value works too)",
        "hex": "hex 1120",
        "unit": "unit fr-i-4-rtm   (a name or an id)",
        "stack": "stack 0315",
        "act": "act retreat unit=de-i-757 to=1219",
        "standing-orders": "standing-orders take-losses,no-advance",
        "mine": "mine de-i-758",
        "trucks": "trucks fr-i-4-rtm",
    },
}
"""Examples for ``help COMMAND`` in each game of the system: its own units, hexes and events."""


class VaeVictisRoom(Room):
    """The command half of a Vae Victis game."""

    commands = COMMANDS
    may_react = "may react (an event, 15)"
    fog_of_war = "Fog of war (11)"
    verb_commands: ClassVar[Mapping[str, str]] = {
        "activate_formation": "activate",
        "activate_general": "activate general",
    }

    def help_examples(self, system_id: str) -> Mapping[str, str]:
        return HELP_EXAMPLES.get(system_id, {})

    def handlers(self, layer: Layer) -> dict[str, Handler]:
        async def activate(ctx: Context, o: dict[str, Any]) -> list[Reply]:
            formation = o["formation"]
            if formation.lower() == "general":
                verb, args = "activate_general", {}
            else:
                verb, args = "activate_formation", {"formation": formation}
            preview = await layer.service.preview(ctx.channel, ctx.caller, verb, args)
            if preview is not None:
                return [await layer.confirmation(ctx, f"{preview.text}\nActivate it again?", preview)]
            outcome = await layer.service.act(ctx.channel, ctx.caller, verb, args)
            return await layer.outcome_replies(ctx, outcome)

        async def standing_orders(ctx: Context, o: dict[str, Any]) -> list[Reply]:
            if str(o.get("orders", "")).strip().lower() in ("none", "-"):
                o = {"orders": ""}  # clears them
            outcome = await layer.service.act(ctx.channel, ctx.caller, "standing_orders", o)
            return await layer.outcome_replies(ctx, outcome)

        return {"activate": activate, "standing-orders": standing_orders}

    press_verbs = buttons.PRESS_VERBS  # the information answers' attack and unit action buttons

    async def press(
        self, layer: Layer, ctx: Context, verb: str, arg: str, state: int, values: Sequence[str]
    ) -> list[Reply]:
        return await buttons.press(layer, ctx, verb, arg)
