"""The ASL campaign-game room's commands: ``campaign ...`` and ``mod load-table`` (handlers in
:mod:`bot.systems.asl.campaign`), the sealed-purchase basket's buttons, and how the console creates a campaign.

Light on purpose (no engine import): the registry (:mod:`bot.systems`) reads it when the bot starts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.commands.definitions import CommandDef, OptionDef, opt
from bot.commands.replies import Context, Handler, Reply
from bot.service.game_service import Table
from bot.systems.base import Components, Layer, Room
from engine.contract import Prompt

COMMANDS: tuple[CommandDef, ...] = (
    CommandDef(
        "campaign create",
        "Create an ASL campaign game (CG) in this channel: module, CG, dates, ELR, SAN, CPP, chit limits.",
        (
            opt("start", "the CG's first CG Date, e.g. 17N (the CG's own if the module defines it)", None, False),
            opt("elr", "ELR of each side in the CG Initial Scenario, e.g. allied=5 german=3", None, False),
            opt("san", "SAN of each side in the CG Initial Scenario, e.g. allied=3 german=4", None, False),
            opt("end", "the CG's last CG Date (default: the module's last)", None, False),
            opt("cg", "the CG played (an id of the module's CGs, or a free name)", None, False),
            opt("cpp", "CPP for the initial RG purchase, e.g. allied=8 german=12", None, False),
            opt("fpp", "FPP for the initial Fortification purchase, e.g. german=6", None, False),
            opt("attack_chits", "Attack chits each side may use in the CG (9.62131), e.g. allied=3", None, False),
            opt("idle_chits", "Idle chits each side may use in the CG (9.62131)", None, False),
            opt("initial_rgs", "RGs of the Initial Scenario OB, e.g. allied=I1,I2 german=I1(K)", None, False),
            opt("module", "the HASL module (default: A Bridge Too Far)", None, False),
            OptionDef("days_per_move", "correspondence: days per decision (0: live)", "number", False, None, 0, 60),
            OptionDef("reserve_days", "correspondence: reserve of days", "number", False, None, 0, 120),
        ),
        slow=True,
    ),
    CommandDef(
        "campaign report",
        "Report the end of the CG Scenario (CVP, Sudden Death, CG winner); your opponent confirms it.",
        (
            OptionDef("my_cvp", "CVP your side inflicted", "integer", True, None, 0, 9999),
            OptionDef("their_cvp", "CVP the other side inflicted", "integer", True, None, 0, 9999),
            OptionDef("sudden_death", "a Sudden Death victory (9.6212)", "boolean", False),
            opt("winner", "on the CG's last date: the CG winner (a side, or draw)", "winner", False),
            opt("notes", "control of locations, units and leaders to roll for", None, False),
            opt("weather", "Initial Scenario only: its weather, for the next date's DRMs (9.62161)", "weather", False),
            opt("ec", "Initial Scenario only: its EC (9.62163)", "ec", False),
            opt("wind", "Initial Scenario only: its wind (9.62164)", "wind", False),
        ),
        verb="report_end",
        slow=True,
    ),
    CommandDef(
        "campaign roll",
        "Roll in public on a table of the RePh step in progress (escape, repair, wounds ...).",
        (
            opt("table", "the table", "step_table"),
            opt("column", "the table's column, if it has several", "column", False),
            opt("drms", "DRMs you give, e.g. encircled,hexes=3", None, False),
            opt("label", "what the roll is for, e.g. 4-5-7 in 12K4", None, False),
            opt("units", "your units the result applies to, e.g. B3,B4 (ids from the roster)", "own_unit", False),
            opt("to", "Escape or Shift: the Setup Area they reach", None, False),
        ),
        slow=True,
    ),
    CommandDef(
        "campaign cvp",
        "Award CVP during the RePh (counted for the ELR roll, 9.6202).",
        (
            OptionDef("amount", "how many CVP", "integer", True, None, 1, 999),
            opt("by", "the side that inflicted them (default: yours)", "side", False),
            opt("note", "what for, e.g. encircled 4-6-7 failed its ITC", None, False),
        ),
        verb="cvp",
        slow=True,
    ),
    CommandDef(
        "campaign buy",
        "Your sealed RG or Fortification purchase, privately: a basket of menus, or the items at once.",
        (opt("items", "e.g. I1,I1,I4 (RGs) or trench,ap-mine=6 (Fortifications); empty: the menus", None, False),),
        private=True,
        slow=True,
    ),
    CommandDef(
        "campaign roster",
        "The CG roster sheet of a side (units, map, dates): all of it for its owner, public parts for others.",
        (
            opt("side", "the side (default: yours)", "side", False),
            OptionDef("page", "the page of the sheet", "integer", False, None, 1, 99),
        ),
        private=True,
    ),
    CommandDef(
        "campaign areas",
        "After a scenario (9.605): your Setup Areas, the Strategic Locations you Control, your Perimeter.",
        (
            opt("setup", "your Setup Areas (Blocks), e.g. A,C,E"),
            opt("strategic", "the Strategic Locations you Control, e.g. C3,E7", None, False),
            opt("perimeter", "your Perimeter or front line, in words", None, False),
        ),
        verb="areas",
        slow=True,
    ),
    CommandDef(
        "campaign add-units",
        "Add units to your roster (the Initial Scenario OB; RG units are added by the bot).",
        (
            opt("kind", "squad, hs, crew, leader, hero, sw, gun or vehicle", "unit_kind"),
            opt("name", "as on the counter, e.g. 6-5-8, 8-1, LMG, PzKpfw VG"),
            OptionDef("count", "how many (default 1)", "integer", False, None, 1, 60),
            opt("experience", "MMC class: elite, 1st line, 2nd line, green, conscript", "experience", False),
            opt("area", "the Setup Area or Entry Area", None, False),
        ),
        verb="add_units",
        slow=True,
    ),
    CommandDef(
        "campaign update-units",
        "Record what happened to your units: status, area, wounded, harden, malfunctioned ... (key=value).",
        (
            opt("units", "the units, e.g. B3,B4", "own_unit"),
            opt("changes", "e.g. status=eliminated, wounded=yes, harden=yes, area=C, malfunctioned=no"),
        ),
        slow=True,
    ),
    CommandDef(
        "campaign recombine",
        "Two alike half-squads in the same Setup Area recombine into a squad (9.6111).",
        (opt("units", "the two half-squads, e.g. B3,B4", "own_unit"),),
        verb="recombine",
        slow=True,
    ),
    CommandDef(
        "campaign purchases",
        "The RG Purchase Record (9.6178) and the receipts of every sealed decision.",
        (opt("side", "the side (default: yours)", "side", False),),
        private=True,
    ),
    CommandDef(
        "campaign reveal",
        "Reveal one of your sealed purchases to everybody (its receipt can then be checked).",
        (opt("secret", "the sealed decision, e.g. S3", "own_secret"),),
        slow=True,
    ),
    CommandDef("campaign verify", "Check every receipt against what was revealed (all at the end).", private=True),
    CommandDef(
        "mod load-table",
        "Moderator (organiser): load or correct the RG chart or any table of the campaign from TOML.",
        (
            OptionDef("attachment", "the .toml file", "attachment", False),
            opt("url", "or the link of a .toml file posted in this channel", None, False),
            opt("text", "or a short TOML text, with \\n for new lines", None, False),
            opt("file", "the name to log the file under", None, False),
            opt("side", "load the RG and SW charts of this side only (the other side's stay)", "side", False),
        ),
        slow=True,
    ),
)
"""The campaign commands."""


class AslRoom(Room):
    """The command half of the ASL campaign-game keeper."""

    commands = COMMANDS
    groups: ClassVar[Mapping[str, str]] = {"campaign": "ASL campaign games: report, rosters, purchases, receipts."}
    press_verbs = frozenset({"bka", "bkr", "bkc", "bkx", "rsp"})
    """The basket's add, remove, commit, clear; the roster's pages (:data:`bot.systems.asl.campaign.PRESS_VERBS`)."""

    def handlers(self, layer: Layer) -> dict[str, Handler]:
        from bot.systems.asl.campaign import handlers

        return handlers(layer)

    async def press(
        self, layer: Layer, ctx: Context, verb: str, arg: str, state: int, values: Sequence[str]
    ) -> list[Reply]:
        from bot.systems.asl.campaign import press

        return await press(layer, ctx, verb, arg, state, values)

    async def components(self, layer: Layer, table: Table, seat: str, prompt: Prompt) -> Components | None:
        from bot.systems.asl.campaign import components

        return await components(layer, table, seat, prompt)

    async def after_correct(self, layer: Layer, ctx: Context) -> tuple[list[Reply], Table] | None:
        from bot.systems.asl.campaign import after_correct

        return await after_correct(layer, ctx)

    def console_game(self, scenario: str, options: str, system_id: str) -> tuple[str, dict[str, Any], bool]:
        """``campaign create``: ``options`` are its settings as ``key=value`` separated by ``;`` (``start=17N;
        elr=allied=5 german=3``), and the console's players are the organiser too (a terminal has no server
        roles), so ``mod load-table`` works."""
        return "campaign create", {"module": scenario} | campaign_settings(options), True


def campaign_settings(text: str) -> dict[str, str]:
    """``start=17N; elr=allied=5 german=3`` into ``{"start": "17N", "elr": "allied=5 german=3"}``."""
    found = {}
    for piece in text.split(";"):
        key, sep, value = piece.strip().partition("=")
        if sep and key.strip():
            found[key.strip()] = value.strip()
    return found
