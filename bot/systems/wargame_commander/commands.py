"""The Wargame Commander room's commands: the ``frame`` group and ``score``. Most are plain play commands (a
verb each); ``frame report``, ``frame battles``, ``frame plan`` and ``score`` have handlers in
:mod:`bot.systems.wargame_commander.frames`.

Light on purpose (no engine import): the registry (:mod:`bot.systems`) reads it when the bot starts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from bot.definitions import UNIT, CommandDef, OptionDef, opt
from bot.replies import Handler
from bot.systems.base import Layer, Room

COMMANDS: tuple[CommandDef, ...] = (
    CommandDef(
        "frame report",
        "Campaign manager: enter or correct a flown frame's report (CSV or JSON file posted here, or a text).",
        (
            opt("url", "the link of a .csv or .json file posted in this channel", None, False),
            opt("text", "or a short report, with \\n for new lines", None, False),
        ),
        slow=True,
    ),
    CommandDef("frame accept", "Frame CO: accept the frame report.", verb="accept", slow=True),
    CommandDef("frame dispute", "Frame CO: dispute the frame report.", (opt("reason", "what is wrong"),), "dispute"),
    CommandDef("frame close", "Campaign manager: close the dispute window and apply the report.", verb="close"),
    CommandDef(
        "frame basing",
        "Seal your basing plan: squad@airfield=steps, ... (1.3).",
        (opt("plan", "e.g. 366fg@A92=2,366fg@Y29=1"),),
        verb="basing",
        private=True,
        slow=True,
    ),
    CommandDef("frame battles", "The battles your side could fight now, with the exact odds (2.4e).", private=True),
    CommandDef(
        "frame designate",
        "Seal up to four battles: defender:attacker+attacker; ... (4.2i).",
        (opt("battles", "e.g. de-66:us-8+us-5; ss-1:us-18 (empty: none)", None, False),),
        verb="designate",
        private=True,
        slow=True,
    ),
    CommandDef(
        "frame advance",
        "Breakthrough movement: a corps of a won battle advances one hex (2.46).",
        (UNIT, opt("to", "the hex", "destination")),
        verb="advance",
        slow=True,
    ),
    CommandDef(
        "frame blitz",
        "German: the Panzer/SS corps that Blitz, comma-separated (empty: none) (3.4).",
        (opt("units", "the corps", None, False),),
        verb="blitz",
        slow=True,
    ),
    CommandDef(
        "frame declare",
        "German: declare bodenplatte, bigblow or none (3.3).",
        (opt("operation", "bodenplatte, bigblow or none"),),
        verb="declare",
        slow=True,
    ),
    CommandDef(
        "frame redeploy",
        "Move aircraft steps from the force pool (or to a captured field) (1.5c).",
        (
            opt("type", "the aircraft type"),
            OptionDef("count", "how many steps", "integer", True, None, 1, 20),
            opt("to", "the airfield id"),
            opt("source", "pool (default) or the airfield id they leave", None, False),
        ),
        verb="redeploy",
    ),
    CommandDef(
        "frame rebase",
        "Move squad steps to another airfield, within its cap and aircraft types (1.5d).",
        (
            opt("squad", "the squad id"),
            OptionDef("steps", "how many squad steps", "integer", True, None, 1, 10),
            opt("to", "the airfield id"),
            opt("source", "the airfield they leave", None, False),
        ),
        verb="rebase",
    ),
    CommandDef("frame done", "Finish this step: movement, breakthrough or redeployment.", verb="done", slow=True),
    CommandDef("frame plan", "A side's plan sheet for the next frame.", (opt("side", "the side", "seat", False),)),
    CommandDef("score", "The score ledger, line by line, and the totals (5.1)."),
)
"""The Wargame Commander's commands."""


class WargameCommanderRoom(Room):
    """The command half of the Ardennes Wargame Commander."""

    commands = COMMANDS
    groups: ClassVar[Mapping[str, str]] = {
        "frame": "The Ardennes Wargame Commander: frame reports, basing, battles, Blitz, declarations."
    }

    def handlers(self, layer: Layer) -> dict[str, Handler]:
        from bot.systems.wargame_commander.frames import handlers

        return handlers(layer)
