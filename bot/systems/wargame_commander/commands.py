"""The Wargame Commander room's commands: the ``frame`` group and ``score``. Most are plain play commands (a
verb each); ``frame report``, ``frame battles``, ``frame plan`` and ``score`` have handlers in
:mod:`bot.systems.wargame_commander.frames`.

Light on purpose (no engine import): the registry (:mod:`bot.systems`) reads it when the bot starts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from bot.commands.definitions import UNIT, CommandDef, OptionDef, opt
from bot.commands.replies import Context, Handler, Reply
from bot.systems.base import Components, Layer, Room
from bot.systems.wargame_commander import sealed

if TYPE_CHECKING:
    from bot.service.game_service import Outcome, Table
    from engine.contract import Prompt

FORM_LABELS: tuple[tuple[str, str], ...] = (
    ("shot_down", "aircraft shot down: side, type, count; ..."),
    ("airfields", "airfields: id, light|moderate|heavy|closed; ..."),
    ("targets", "depots damaged and radar sites hit, by id"),
    ("corps", "corps hit by tac air: unit, damage|heavy; ..."),
    ("pilots", "German pilots: name, kills, assists, losses; ..."),
)
"""The frame report form's fields as slash command options (the engine's form: report.FORM_FIELDS)."""

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
    CommandDef(
        "frame form",
        "Campaign manager: enter or correct the frame report in a form (or fill these fields).",
        tuple(opt(key, label, None, False) for key, label in FORM_LABELS),
        slow=True,
        form=True,
    ),
    CommandDef(
        "frame window",
        "Campaign manager: how many hours the Frame COs may dispute a frame report (0: until you close it).",
        (OptionDef("hours", "hours, 0 to 336", "number", True, None, 0, 336),),
        slow=True,
    ),
    CommandDef("frame accept", "Frame CO: accept the frame report.", slow=True),
    CommandDef("frame dispute", "Frame CO: dispute the frame report.", (opt("reason", "what is wrong"),), slow=True),
    CommandDef("frame close", "Campaign manager: close the dispute window and apply the report.", verb="close"),
    CommandDef(
        "frame basing",
        "Seal your basing plan: squad@airfield=steps, ... (1.3); a long plan as a .txt file (or the DM's menus).",
        (
            opt("plan", "e.g. 366fg@A92=2,366fg@Y29=1", None, False),
            OptionDef("file", "or the plan in a text file (lines or commas)", "attachment", False),
        ),
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
    CommandDef(
        "frame plan",
        "Your side's plan sheet for the next frame, as a picture (4.2r).",
        (opt("side", "the side (campaign manager)", "seat", False),),
        private=True,
        slow=True,
    ),
    CommandDef("score", "The score ledger, line by line, and the totals (5.1)."),
)
"""The Wargame Commander's commands."""


class WargameCommanderRoom(Room):
    """The command half of the Ardennes Wargame Commander."""

    commands = COMMANDS
    groups: ClassVar[Mapping[str, str]] = {
        "frame": "The Ardennes Wargame Commander: frame reports, basing, battles, Blitz, declarations."
    }

    press_verbs = frozenset({*sealed.PRESS_VERBS, "wac"})
    verb_commands: ClassVar[Mapping[str, str]] = {
        "move": "move",  # the shared play command of the hex-and-counter rooms (2.3): `/move units: to:`
        "basing": "frame basing",
        "report": "frame report",
        "correct": "frame report",
        "window": "frame window",
        "accept": "frame accept",
        "dispute": "frame dispute",
    }
    form_verbs = frozenset({"wfr"})

    def help_examples(self, system_id: str) -> Mapping[str, str]:
        return {
            "move": "move units=ss-1 to=1512",
            "frame report": 'frame report "text=shot_down,german,Bf 109G,3\\npilot,Rall,2,0,0"',
            "frame basing": "frame basing plan=366fg@A92=2,366fg@Y29=1",
            "frame designate": 'frame designate "battles=de-66:us-8+us-5; ss-1:us-18"',
            "frame advance": "frame advance unit=us-7 to=1007",
            "frame blitz": "frame blitz units=ss-1,pz-47",
            "frame declare": "frame declare operation=none",
            "frame window": "frame window hours=12",
            "frame dispute": 'frame dispute "reason=Cologne was not hit"',
        }

    def handlers(self, layer: Layer) -> dict[str, Handler]:
        from bot.systems.wargame_commander.frames import handlers

        return handlers(layer)

    async def press(
        self, layer: Layer, ctx: Context, verb: str, arg: str, state: int, values: Sequence[str]
    ) -> list[Reply]:
        if verb == "wac":
            from bot.systems.wargame_commander.frames import accept

            return await accept(layer, ctx, arg, state)
        return await sealed.press(layer, ctx, verb, arg, state, values)

    async def components(self, layer: Layer, table: Table, seat: str, prompt: Prompt) -> Components | None:
        if "dispute" in prompt.free_verbs:
            from bot.systems.wargame_commander.frames import dispute_components

            return await dispute_components(layer, table, seat, prompt)
        return await sealed.components(layer, table, seat, prompt)

    async def submit(
        self, layer: Layer, ctx: Context, verb: str, arg: str, state: int, values: dict[str, str]
    ) -> list[Reply]:
        from bot.systems.wargame_commander.frames import submit_report

        return await submit_report(layer, ctx, values)

    async def on_clock(self, layer: Layer) -> list[Reply]:
        from bot.systems.wargame_commander.frames import expire_windows

        return await expire_windows(layer)

    async def after_correct(self, layer: Layer, ctx: Context) -> tuple[list[Reply], Table] | None:
        from bot.systems.wargame_commander.frames import after_correct

        return await after_correct(layer, ctx)

    async def after_outcome(self, layer: Layer, ctx: Context, outcome: Outcome) -> list[Reply]:
        from bot.systems.wargame_commander.frames import plan_sheets

        return await plan_sheets(layer, ctx, outcome)
