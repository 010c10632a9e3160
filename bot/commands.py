"""The command layer: every command of the bot, independent of the transport.

Discord (``bot/cogs``) and the terminal (``bot/console``) both read :data:`COMMANDS` to build their
commands and call :meth:`CommandLayer.run`, :meth:`CommandLayer.press` and :meth:`CommandLayer.autocomplete`,
so the console has exactly the same command words and answers as Discord. A handler returns a list of
:class:`Reply`: what to answer the caller (ephemeral or not), what to post in the channel (pinging exactly
the players whose input is needed), what to send by DM (with what to say in the channel if the DM cannot be
delivered), with buttons, select menus and pictures.

Buttons and select menus carry a custom id ``wg:<game>:<state_id>:<verb>:<arg>`` (at most 100 characters):
the state id is the game's revision when the button was posted, so a stale or doubled click is refused.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import logging
import re
import unicodedata
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from bot import info
from bot.service import Caller, GameService, Outcome, Preview, Refusal, Table
from bot.store import StoreBusyError
from engine.contract import Prompt, RulesError

log = logging.getLogger(__name__)

OptionKind = Literal["text", "integer", "number", "boolean", "user", "attachment"]

CUSTOM_ID = re.compile(r"wg:(?P<game>\d{1,19}):(?P<state>\d{1,19}):(?P<verb>[a-z]{1,4}):(?P<arg>[A-Za-z0-9_.\-]{1,60})")
"""The custom id of every button and select menu of the bot."""

INTERNAL_ERROR = "Something went wrong on my side; nothing changed. The error was logged for the host."
STORE_BUSY = "The game store is busy (another program holds a lock on it); nothing changed. Try again in a moment."

ID_LIKE = re.compile(r"[a-z0-9_.:\-]+(,[a-z0-9_.:\-]+)*")
"""Option values written as ids or hexes (``de-2-pz-boehm``, ``2515``): names have capitals, spaces or slashes."""

MAX_BUTTONS = 20
"""Prompts with more choices than this use select menus (25 entries each) instead of buttons."""


@dataclass(frozen=True)
class OptionDef:
    """One option of a command."""

    name: str
    description: str
    kind: OptionKind = "text"
    required: bool = True
    autocomplete: str | None = None
    """The suggestion source (``unit``, ``hex``, ``target``, ``formation``, ``scenario`` ...), if any."""
    min_value: float | None = None
    max_value: float | None = None


@dataclass(frozen=True)
class CommandDef:
    """One command: its words, what it does, its options."""

    name: str
    """One word, or a group and a word (``"game create"``)."""
    description: str
    options: tuple[OptionDef, ...] = ()
    verb: str | None = None
    """For a play command: the engine verb it sends."""
    private: bool = False
    """Whether the answer is only for the caller (information commands)."""
    slow: bool = False
    """Whether it may take more than a moment (the transport acknowledges first)."""
    confirm: bool = False
    """Whether the player confirms a preview before the action is applied (attacks)."""

    @property
    def words(self) -> tuple[str, ...]:
        """The command's words."""
        return tuple(self.name.split())


def _opt(name: str, description: str, source: str | None = None, required: bool = True) -> OptionDef:
    return OptionDef(name, description, "text", required, source)


UNIT = _opt("unit", "the unit (pick from the list)", "unit")
COMMANDS: tuple[CommandDef, ...] = (
    # --- A game's life ---------------------------------------------------------------------------------
    CommandDef(
        "game create",
        "Create a game in this channel or thread (one game per channel).",
        (
            _opt("scenario", "the scenario to play", "scenario"),
            _opt("options", "optional rules, separated by commas", "option", required=False),
            OptionDef("days_per_move", "correspondence: days per move (0: live play)", "number", False, None, 0, 60),
            OptionDef("reserve_days", "correspondence: reserve of days", "number", False, None, 0, 120),
            _opt("system", "the game system (default: the bundled game)", "system", required=False),
        ),
        slow=True,
    ),
    CommandDef("game join", "Take a seat in this channel's game.", (_opt("seat", "the seat", "seat", False),)),
    CommandDef("game leave", "Give up your seat before the game starts."),
    CommandDef("game start", "Start the game once every seat is taken.", slow=True),
    CommandDef("game status", "Where the game stands: turn, seats, whose decision it is."),
    CommandDef("game resign", "Resign the game: your opponent wins."),
    CommandDef("game undo", "Take back your last action (not past a die roll, a reveal or your opponent's move)."),
    CommandDef(
        "game vacation",
        "Ask for a vacation; your opponent accepts it with `game accept-vacation`.",
        (OptionDef("days", "how many days", "integer", True, None, 1, 30),),
    ),
    CommandDef("game accept-vacation", "Accept your opponent's vacation request."),
    CommandDef("game verify", "After the end: check the seed, the log's hash chain and every die roll.", private=True),
    # --- Moderators ------------------------------------------------------------------------------------
    CommandDef(
        "mod assign",
        "Moderator (or creator before the start): seat a player.",
        (_opt("seat", "the seat", "seat"), OptionDef("user", "the player", "user")),
    ),
    CommandDef(
        "mod substitute",
        "Moderator: replace the player of a seat (logged in the game).",
        (_opt("seat", "the seat", "seat"), OptionDef("user", "the new player", "user")),
    ),
    CommandDef("mod abandon", "Moderator: abandon the game (logged).", (_opt("reason", "why"),)),
    CommandDef(
        "mod correct",
        "Moderator: take back the last actions, whoever made them (logged).",
        (OptionDef("count", "how many actions", "integer", True, None, 1, 100), _opt("reason", "why")),
    ),
    # --- Playing ---------------------------------------------------------------------------------------
    CommandDef(
        "activate",
        "Activate a formation (or make a general activation).",
        (_opt("formation", "the formation, or 'general'", "formation"),),
    ),
    CommandDef(
        "move",
        "Move units of the activation to a hex.",
        (
            _opt("units", "the unit (or units separated by commas)", "unit"),
            _opt("to", "the destination hex", "destination"),
            _opt("path", "the hexes of the route, separated by commas (optional)", None, False),
        ),
        verb="move",
        slow=True,
    ),
    CommandDef(
        "enter",
        "Bring a reinforcement onto the map.",
        (
            _opt("unit", "the reinforcement", "reinforcement"),
            _opt("at", "the entry hex", "entry"),
            _opt("to", "where it moves after entering (optional)", "destination", False),
        ),
        verb="enter",
        slow=True,
    ),
    CommandDef(
        "attack",
        "Attack a hex: see the odds, then confirm or cancel.",
        (
            _opt("target", "the enemy hex", "target"),
            _opt("attackers", "the attacking units, separated by commas", "attacker"),
            _opt("kind", "normal or prepared attack (default: normal)", "attack_kind", False),
            _opt("supports", "support markers, e.g. hq-id:artillery, separated by commas", "support", False),
            OptionDef("air", "air points committed", "integer", False, None, 0, 9),
            _opt("quality", "the attacker whose quality is used, who takes the first loss", "attacker", False),
        ),
        verb="attack",
        slow=True,
        confirm=True,
    ),
    CommandDef("dig-in", "Put a unit in an improved position.", (UNIT,), verb="enter_ip"),
    CommandDef(
        "leave-ip", "Take a unit out of its improved position.", (_opt("unit", "the unit", "ip_unit"),), "leave_ip"
    ),
    CommandDef("recover", "Recover a unit from fatigue.", (_opt("unit", "the unit", "fatigued"),), verb="recover"),
    CommandDef(
        "detach",
        "Make a detachment from a division of the activation (18).",
        (
            _opt("division", "the division", "division"),
            _opt("steps", "how many steps the detachment takes (default: as many as allowed)", "detach_steps", False),
        ),
        verb="detach",
    ),
    CommandDef(
        "recombine",
        "A detachment rejoins its division in the same hex (18).",
        (_opt("detachment", "the detachment", "detachment"),),
        verb="recombine",
    ),
    CommandDef(
        "event",
        "Play one of your events (15), also in reaction during the other side's activation.",
        (_opt("event", "the event", "event"), _opt("hex", "where it goes", "event_hex")),
        verb="play_event",
    ),
    CommandDef(
        "remove-marker",
        "An activated unit removes an enemy event marker next to it for 1 AP (15.2, 15.3).",
        (_opt("unit", "the unit that removes it", "marker_unit"), _opt("hex", "the marker's hex", "marker_hex")),
        verb="remove_marker",
    ),
    CommandDef(
        "standing-orders",
        "Answers given in advance to combat decisions, any time (comma-separated; 'none' clears them).",
        (_opt("orders", "the orders, in priority order", "standing_order"),),
        verb="standing_orders",
    ),
    CommandDef(
        "on-top",
        "Fog of war: choose the unit shown on top of one of your stacks (11.2).",
        (_opt("unit", "the unit to show on top", "top_unit"),),
        verb="put_on_top",
    ),
    CommandDef("end-activation", "End the activation in progress.", verb="end_activation", slow=True),
    CommandDef("pass", "Pass instead of activating.", verb="pass", slow=True),
    CommandDef(
        "choose",
        "Answer the prompt with the choice of that number.",
        (
            OptionDef("number", "the choice's number", "integer", True, None, 1, 500),
            _opt("seat", "your seat, if you hold several", "seat", False),
        ),
        slow=True,
    ),
    CommandDef(
        "act",
        "Any action of the game, by its verb and arguments (key=value ...).",
        (_opt("verb", "the action", "verb"), _opt("args", "arguments as key=value, space separated", None, False)),
        slow=True,
    ),
    # --- Information (private) -------------------------------------------------------------------------
    CommandDef(
        "map",
        "The map as your side sees it, with an overlay or a close-up if you like.",
        (
            _opt("overlay", "reachable, zoc, command, supply, victory or combats", "overlay", False),
            _opt("unit", "for the reachable overlay: your unit", "own_unit", False),
            _opt("hex", "a close-up round this hex", "any_hex", False),
            OptionDef("turns", "for the combats overlay: how many turns (default 1)", "integer", False, None, 1, 99),
        ),
        private=True,
        slow=True,
    ),
    # Handlers of hex, unit, hq, oob, victory, brief, stats, replay and reports: bot/info.py.
    CommandDef(
        "hex",
        "A hex: terrain, rivers and roads, costs, column shifts, who holds it, ZoC, stack, markers, combats.",
        (_opt("hex", "the hex", "any_hex"),),
        private=True,
        slow=True,
    ),
    CommandDef(
        "unit",
        "A unit: formation, command, supply, AP and MP left, what it may do now.",
        (_opt("unit", "the unit", "any_unit"),),
        private=True,
        slow=True,
    ),
    CommandDef(
        "hq",
        "An HQ: support rating, markers held, C3I, command range, units in and out of command.",
        (_opt("hq", "the HQ", "any_hq"),),
        private=True,
    ),
    CommandDef("stack", "The stack in a hex.", (_opt("hex", "the hex", "any_hex"),), private=True),
    CommandDef(
        "oob",
        "Your order of battle: armies, formations, units, reinforcements to come, losses.",
        (_opt("formation", "only this formation", "own_formation", False),),
        private=True,
    ),
    CommandDef("victory", "The victory conditions as they stand, and the result if the game ended now.", private=True),
    CommandDef("brief", "The scenario: turns, dates, special rules, victory conditions, options.", private=True),
    CommandDef("stats", "Losses per side and turn, attacks by odds column, supports, dice luck.", private=True),
    CommandDef(
        "replay",
        "The picture of a past activation, rebuilt from the log, as your side saw it.",
        (
            OptionDef("turn", "the turn", "integer", True, None, 1, 99),
            OptionDef("activation", "the activation of that turn (default: the first)", "integer", False, None, 1, 99),
            _opt("seat", "after the game: the side whose view to show", "seat", False),
        ),
        private=True,
        slow=True,
    ),
    CommandDef(
        "reports",
        "Your turn-start reports by DM: on or off.",
        (OptionDef("on", "whether to receive them", "boolean"),),
        private=True,
    ),
    CommandDef("log", "The game log.", private=True),
    CommandDef("dice", "Every die rolled so far.", private=True),
    # --- Campaign games (ASL) -----------------------------------------------------------------------------
    # Handlers in bot/campaign.py, registered by _campaign_handlers at the end of this file.
    CommandDef(
        "campaign create",
        "Create an ASL campaign game (CG) in this channel: module, CG, dates, ELR, SAN, CPP, chit limits.",
        (
            _opt("start", "the CG's first CG Date, e.g. 17N (the CG's own if the module defines it)", None, False),
            _opt("elr", "ELR of each side in the CG Initial Scenario, e.g. allied=5 german=3", None, False),
            _opt("san", "SAN of each side in the CG Initial Scenario, e.g. allied=3 german=4", None, False),
            _opt("end", "the CG's last CG Date (default: the module's last)", None, False),
            _opt("cg", "the CG played (an id of the module's CGs, or a free name)", None, False),
            _opt("cpp", "CPP for the initial RG purchase, e.g. allied=8 german=12", None, False),
            _opt("fpp", "FPP for the initial Fortification purchase, e.g. german=6", None, False),
            _opt("attack_chits", "Attack chits each side may use in the CG (9.62131), e.g. allied=3", None, False),
            _opt("idle_chits", "Idle chits each side may use in the CG (9.62131)", None, False),
            _opt("initial_rgs", "RGs of the Initial Scenario OB, e.g. allied=I1,I2 german=I1(K)", None, False),
            _opt("module", "the HASL module (default: A Bridge Too Far)", None, False),
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
            _opt("winner", "on the CG's last date: the CG winner (a side, or draw)", "winner", False),
            _opt("notes", "control of locations, units and leaders to roll for", None, False),
            _opt("weather", "Initial Scenario only: its weather, for the next date's DRMs (9.62161)", "weather", False),
            _opt("ec", "Initial Scenario only: its EC (9.62163)", "ec", False),
            _opt("wind", "Initial Scenario only: its wind (9.62164)", "wind", False),
        ),
        verb="report_end",
        slow=True,
    ),
    CommandDef(
        "campaign roll",
        "Roll in public on a table of the RePh step in progress (escape, repair, wounds ...).",
        (
            _opt("table", "the table", "step_table"),
            _opt("column", "the table's column, if it has several", "column", False),
            _opt("drms", "DRMs you give, e.g. encircled,hexes=3", None, False),
            _opt("label", "what the roll is for, e.g. 4-5-7 in 12K4", None, False),
            _opt("units", "your units the result applies to, e.g. B3,B4 (ids from the roster)", "own_unit", False),
            _opt("to", "Escape or Shift: the Setup Area they reach", None, False),
        ),
        slow=True,
    ),
    CommandDef(
        "campaign cvp",
        "Award CVP during the RePh (counted for the ELR roll, 9.6202).",
        (
            OptionDef("amount", "how many CVP", "integer", True, None, 1, 999),
            _opt("by", "the side that inflicted them (default: yours)", "side", False),
            _opt("note", "what for, e.g. encircled 4-6-7 failed its ITC", None, False),
        ),
        verb="cvp",
        slow=True,
    ),
    CommandDef(
        "campaign buy",
        "Your sealed RG or Fortification purchase, privately: a basket of menus, or the items at once.",
        (_opt("items", "e.g. I1,I1,I4 (RGs) or trench,ap-mine=6 (Fortifications); empty: the menus", None, False),),
        private=True,
        slow=True,
    ),
    CommandDef(
        "campaign roster",
        "The CG roster sheet of a side (units, map, dates): all of it for its owner, public parts for others.",
        (
            _opt("side", "the side (default: yours)", "side", False),
            OptionDef("page", "the page of the sheet", "integer", False, None, 1, 99),
        ),
        private=True,
    ),
    CommandDef(
        "campaign areas",
        "After a scenario (9.605): your Setup Areas, the Strategic Locations you Control, your Perimeter.",
        (
            _opt("setup", "your Setup Areas (Blocks), e.g. A,C,E"),
            _opt("strategic", "the Strategic Locations you Control, e.g. C3,E7", None, False),
            _opt("perimeter", "your Perimeter or front line, in words", None, False),
        ),
        verb="areas",
        slow=True,
    ),
    CommandDef(
        "campaign add-units",
        "Add units to your roster (the Initial Scenario OB; RG units are added by the bot).",
        (
            _opt("kind", "squad, hs, crew, leader, hero, sw, gun or vehicle", "unit_kind"),
            _opt("name", "as on the counter, e.g. 6-5-8, 8-1, LMG, PzKpfw VG"),
            OptionDef("count", "how many (default 1)", "integer", False, None, 1, 60),
            _opt("experience", "MMC class: elite, 1st line, 2nd line, green, conscript", "experience", False),
            _opt("area", "the Setup Area or Entry Area", None, False),
        ),
        verb="add_units",
        slow=True,
    ),
    CommandDef(
        "campaign update-units",
        "Record what happened to your units: status, area, wounded, harden, malfunctioned ... (key=value).",
        (
            _opt("units", "the units, e.g. B3,B4", "own_unit"),
            _opt("changes", "e.g. status=eliminated, wounded=yes, harden=yes, area=C, malfunctioned=no"),
        ),
        slow=True,
    ),
    CommandDef(
        "campaign recombine",
        "Two alike half-squads in the same Setup Area recombine into a squad (9.6111).",
        (_opt("units", "the two half-squads, e.g. B3,B4", "own_unit"),),
        verb="recombine",
        slow=True,
    ),
    CommandDef(
        "campaign purchases",
        "The RG Purchase Record (9.6178) and the receipts of every sealed decision.",
        (_opt("side", "the side (default: yours)", "side", False),),
        private=True,
    ),
    CommandDef(
        "campaign reveal",
        "Reveal one of your sealed purchases to everybody (its receipt can then be checked).",
        (_opt("secret", "the sealed decision, e.g. S3", "own_secret"),),
        slow=True,
    ),
    CommandDef("campaign verify", "Check every receipt against what was revealed (all at the end).", private=True),
    CommandDef(
        "mod load-table",
        "Moderator (organiser): load or correct the RG chart or any table of the campaign from TOML.",
        (
            OptionDef("attachment", "the .toml file", "attachment", False),
            _opt("url", "or the link of a .toml file posted in this channel", None, False),
            _opt("text", "or a short TOML text, with \\n for new lines", None, False),
            _opt("file", "the name to log the file under", None, False),
            _opt("side", "load the RG and SW charts of this side only (the other side's stay)", "side", False),
        ),
        slow=True,
    ),
    # --- Leagues ------------------------------------------------------------------------------------------
    # Handlers in bot/leagues/commands.py, registered by _league_handlers at the end of this file.
    CommandDef(
        "league create",
        "Organiser: open a league in this channel (each pairing's game gets its own thread here).",
        (
            _opt("name", "the league's name"),
            _opt("scenario", "the scenario the rounds play (a round may change it)", "scenario"),
            _opt("system", "the game system, any two-seat one (default: the bundled game)", "system", False),
            _opt("format", "swiss (default), round-robin, or both-sides (twice, sides swapped)", None, False),
            OptionDef("rounds", "Swiss: how many rounds", "integer", False, None, 1, 30),
            _opt("options", "optional rules of every game, separated by commas", "option", False),
            OptionDef("days_per_move", "correspondence: days per move (0: live play)", "number", False, None, 0, 60),
            OptionDef("reserve_days", "correspondence: reserve of days", "number", False, None, 0, 120),
            OptionDef("round_days", "days each round lasts (0: no deadline)", "number", False, None, 0, 365),
            _opt("levels", "victory levels worth less than a win, e.g. german-defensive=0.75", None, False),
        ),
    ),
    CommandDef(
        "league join", "Register for this channel's league.", (_opt("side", "preferred side, or none", None, False),)
    ),
    CommandDef("league leave", "Withdraw your registration before the league starts."),
    CommandDef("league close", "Organiser: close registration; the season can start."),
    CommandDef(
        "league add",
        "Organiser: register a player (late entries too, in a Swiss).",
        (OptionDef("user", "the player", "user"), _opt("side", "preferred side, or none", None, False)),
    ),
    CommandDef(
        "league remove", "Organiser: remove or withdraw a player (logged).", (OptionDef("user", "the player", "user"),)
    ),
    CommandDef(
        "league round",
        "Organiser: pair the next round and start its games, each in its own thread.",
        (
            _opt("scenario", "this round's scenario (default: the last one)", "scenario", False),
            _opt("system", "this round's game system (default: the last one)", "system", False),
        ),
        slow=True,
    ),
    CommandDef("league standings", "The league's standings and the current round.", slow=True),
    CommandDef(
        "league player",
        "A player's ratings, record by side and reliability on this server.",
        (OptionDef("user", "the player (default: you)", "user", False),),
        private=True,
    ),
    CommandDef("league late", "The league's games past their deadline.", private=True),
    CommandDef(
        "league forfeit",
        "Organiser: a player forfeits a league game being played (logged).",
        (
            OptionDef("player", "the player who forfeits", "user"),
            OptionDef("game", "the game's number (default: this thread's)", "integer", False, None, 1, 10**12),
            _opt("reason", "why", None, False),
        ),
    ),
    CommandDef(
        "league adjudicate",
        "Organiser: decide a league game being played (logged).",
        (
            OptionDef("winner", "the winner (none: a draw)", "user", False),
            OptionDef("game", "the game's number (default: this thread's)", "integer", False, None, 1, 10**12),
            _opt("reason", "why", None, False),
        ),
    ),
    CommandDef(
        "league correct",
        "Organiser: correct a decided result (logged); standings and ratings follow.",
        (
            OptionDef("winner", "the winner (none: a draw)", "user", False),
            OptionDef("game", "the game's number (default: this thread's)", "integer", False, None, 1, 10**12),
            _opt("reason", "why", None, False),
        ),
    ),
    CommandDef(
        "league extend",
        "Organiser: give a league game more days (logged).",
        (
            OptionDef("days", "how many days", "number", True, None, 0.5, 60),
            OptionDef("game", "the game's number (default: this thread's)", "integer", False, None, 1, 10**12),
        ),
    ),
    CommandDef("league export", "The standings and every result, as CSV files.", private=True),
    CommandDef("league log", "The league's log: every organiser decision.", private=True),
    # --- The Ardennes Wargame Commander (own handlers in bot/frames.py; the rest are play commands) ------
    CommandDef(
        "frame report",
        "Campaign manager: enter or correct a flown frame's report (CSV or JSON file posted here, or a text).",
        (
            _opt("url", "the link of a .csv or .json file posted in this channel", None, False),
            _opt("text", "or a short report, with \\n for new lines", None, False),
        ),
        slow=True,
    ),
    CommandDef("frame accept", "Frame CO: accept the frame report.", verb="accept", slow=True),
    CommandDef("frame dispute", "Frame CO: dispute the frame report.", (_opt("reason", "what is wrong"),), "dispute"),
    CommandDef("frame close", "Campaign manager: close the dispute window and apply the report.", verb="close"),
    CommandDef(
        "frame basing",
        "Seal your basing plan: squad@airfield=steps, ... (1.3).",
        (_opt("plan", "e.g. 366fg@A92=2,366fg@Y29=1"),),
        verb="basing",
        private=True,
        slow=True,
    ),
    CommandDef("frame battles", "The battles your side could fight now, with the exact odds (2.4e).", private=True),
    CommandDef(
        "frame designate",
        "Seal up to four battles: defender:attacker+attacker; ... (4.2i).",
        (_opt("battles", "e.g. de-66:us-8+us-5; ss-1:us-18 (empty: none)", None, False),),
        verb="designate",
        private=True,
        slow=True,
    ),
    CommandDef(
        "frame advance",
        "Breakthrough movement: a corps of a won battle advances one hex (2.46).",
        (UNIT, _opt("to", "the hex", "destination")),
        verb="advance",
        slow=True,
    ),
    CommandDef(
        "frame blitz",
        "German: the Panzer/SS corps that Blitz, comma-separated (empty: none) (3.4).",
        (_opt("units", "the corps", None, False),),
        verb="blitz",
        slow=True,
    ),
    CommandDef(
        "frame declare",
        "German: declare bodenplatte, bigblow or none (3.3).",
        (_opt("operation", "bodenplatte, bigblow or none"),),
        verb="declare",
        slow=True,
    ),
    CommandDef(
        "frame redeploy",
        "Move aircraft steps from the force pool (or to a captured field) (1.5c).",
        (
            _opt("type", "the aircraft type"),
            OptionDef("count", "how many steps", "integer", True, None, 1, 20),
            _opt("to", "the airfield id"),
            _opt("source", "pool (default) or the airfield id they leave", None, False),
        ),
        verb="redeploy",
    ),
    CommandDef(
        "frame rebase",
        "Move squad steps to another airfield, within its cap and aircraft types (1.5d).",
        (
            _opt("squad", "the squad id"),
            OptionDef("steps", "how many squad steps", "integer", True, None, 1, 10),
            _opt("to", "the airfield id"),
            _opt("source", "the airfield they leave", None, False),
        ),
        verb="rebase",
    ),
    CommandDef("frame done", "Finish this step: movement, breakthrough or redeployment.", verb="done", slow=True),
    CommandDef("frame plan", "A side's plan sheet for the next frame.", (_opt("side", "the side", "seat", False),)),
    CommandDef("score", "The score ledger, line by line, and the totals (5.1)."),
)
"""Every command of the bot."""

COMMANDS_BY_NAME: dict[str, CommandDef] = {c.name: c for c in COMMANDS}


@dataclass(frozen=True)
class Attachment:
    """A file sent with a message (a map picture)."""

    name: str
    data: bytes


PictureJob = Callable[[], Awaitable[bytes]]
"""A picture decided but not drawn yet: awaiting it draws the PNG (or raises :class:`Refusal`)."""


@dataclass(frozen=True)
class Upload:
    """A file given as a command option (a Discord attachment, or a local file at the console)."""

    name: str
    size: int
    read: Callable[[], Awaitable[bytes]]


@dataclass(frozen=True)
class Button:
    """A button; ``custom_id`` follows :data:`CUSTOM_ID`."""

    label: str
    custom_id: str
    style: Literal["primary", "secondary", "success", "danger"] = "secondary"


@dataclass(frozen=True)
class Select:
    """A select menu of up to 25 (label, value) entries."""

    custom_id: str
    placeholder: str
    entries: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Fold:
    """How a channel message that tells a seat's action and asks that seat again may be folded into the bot's
    previous message in the channel (edited, not posted anew) when that message has the same ``key`` and is
    still the channel's last: a seat's run of actions then reads as one message. ``account`` is the part of
    the text that stays when the next action of the run is folded in (the prompt after it is replaced)."""

    key: str
    account: str


@dataclass(frozen=True)
class Reply:
    """One message the bot sends.

    ``to`` says where: ``caller`` (the answer to the command, ephemeral when ``ephemeral``), ``channel`` (a
    public post in the game's channel) or ``dm`` (a direct message to ``user``; when it cannot be delivered,
    the channel gets ``dm_fallback`` and a button to answer privately).
    """

    text: str
    to: Literal["caller", "channel", "dm"] = "caller"
    ephemeral: bool = True
    mentions: tuple[int, ...] = ()
    """Users pinged by this message (exactly these)."""
    files: tuple[Attachment, ...] = ()
    buttons: tuple[Button, ...] = ()
    selects: tuple[Select, ...] = ()
    user: int | None = None
    """The addressee of a DM."""
    dm_fallback: Reply | None = None
    channel: int | None = None
    """The game's channel (for DMs and button presses from a DM)."""
    picture: PictureJob | None = None
    """A picture to draw and attach once every answer is sent (:func:`draw_picture`): the message follows."""
    fold: Fold | None = None
    """Set on an acting seat's account merged with its own next prompt, pinging nobody (see :class:`Fold`)."""


@dataclass(frozen=True)
class Context:
    """Where a command comes from: who, in which channel or thread, in which server."""

    caller: Caller
    channel: int
    guild: int | None = None


Handler = Callable[[Context, dict[str, Any]], Awaitable[list[Reply]]]


async def draw_picture(reply: Reply) -> Reply:
    """The reply with its picture drawn and attached (or, when the game has none, a note saying so)."""
    if reply.picture is None:
        return reply
    try:
        png = await reply.picture()
    except Refusal:
        return replace(reply, text=reply.text + " (this game has no map picture)", picture=None)
    return replace(reply, files=(*reply.files, Attachment("map.png", png)), picture=None)


async def with_pictures(replies: Sequence[Reply]) -> list[Reply]:
    """Every reply with its picture drawn (for transports that simply print, like the console)."""
    return [await draw_picture(r) for r in replies]


def refusal_text(error: RulesError) -> str:
    """A refusal as the player reads it: the reason, then the rule number."""
    reason = getattr(error, "reason", str(error))
    reason = reason[:1].upper() + reason[1:]
    return f"Refused: {reason}" + (f" (rule {error.rule})." if error.rule else ("" if reason.endswith(".") else "."))


def custom_id(game: int, state: int, verb: str, arg: str) -> str:
    """A custom id for a button or select menu of a game."""
    made = f"wg:{game}:{state}:{verb}:{arg}"
    assert len(made) <= 100 and CUSTOM_ID.fullmatch(made), made
    return made


SQLITE_MAX_INTEGER = 2**63 - 1


def parse_custom_id(custom: str) -> re.Match[str] | None:
    """A custom id's parts, or ``None`` when it is not one of ours: a forged id whose game or position
    overflows the store's integers is refused here, before any query."""
    match = CUSTOM_ID.fullmatch(custom)
    if match is None or int(match["game"]) > SQLITE_MAX_INTEGER or int(match["state"]) > SQLITE_MAX_INTEGER:
        return None
    return match


def parse_args(text: str) -> dict[str, Any]:
    """``key=value key2=value2`` into a dict (values stay text).

    :raises Refusal: for a piece without ``=``.
    """
    found: dict[str, Any] = {}
    for piece in text.split():
        key, sep, value = piece.partition("=")
        if not sep or not key:
            raise Refusal(f"write the arguments as key=value, not {piece[:40]!r}")
        found[key] = value
    return found


class CommandLayer:
    """Runs the commands of :data:`COMMANDS` against a :class:`GameService`."""

    def __init__(self, service: GameService, default_system: str | None = None, pictures: bool = True) -> None:
        self.service = service
        self.pictures = pictures
        """Whether map pictures are drawn after activations (the console may skip them)."""
        self.default_system = default_system or (service.system_ids[0] if service.system_ids else "")
        self._handlers: dict[str, Handler] = {
            "game create": self._create,
            "game join": self._join,
            "game leave": self._leave,
            "game start": self._start,
            "game status": self._status,
            "game resign": self._resign,
            "game undo": self._undo,
            "game vacation": self._vacation,
            "game accept-vacation": self._accept_vacation,
            "game verify": self._verify,
            "mod assign": self._assign,
            "mod substitute": self._assign,
            "mod abandon": self._abandon,
            "mod correct": self._correct,
            "activate": self._activate,
            "choose": self._choose,
            "act": self._act_generic,
            "map": self._map,
            "stack": self._info("stack", "hex"),
            "log": self._log,
            "dice": self._dice,
        }
        for command in COMMANDS:
            if command.verb is not None:
                self._handlers[command.name] = self._play(command)
        self._handlers.update(_campaign_handlers(self))  # Campaign games (ASL): bot/campaign.py
        self._handlers.update(info.handlers(self))  # Information commands: bot/info.py
        self.open_thread: Callable[[int, str], Awaitable[int]] | None = None
        """Opens a thread under a channel and returns its id, when the transport has threads (Discord)."""
        self._handlers.update(_league_handlers(self))  # Leagues: bot/leagues/commands.py
        self._handlers.update(_frame_handlers(self))  # The Ardennes Wargame Commander: bot/frames.py
        missing = {c.name for c in COMMANDS} - set(self._handlers)
        assert not missing, missing

    # --- Entry points ---------------------------------------------------------------------------------

    async def run(self, name: str, ctx: Context, options: Mapping[str, Any]) -> list[Reply]:
        """Run a command; a refusal becomes an ephemeral answer with the reason, never an exception."""
        command = COMMANDS_BY_NAME.get(name)
        if command is None:
            return [Reply(f"Unknown command {name[:40]!r}.")]
        guesses: list[str] = []
        try:
            values = self._check_options(command, options)
            values, guesses = await self._names_to_ids(command, values, ctx)
            return await self._handlers[name](ctx, values)
        except RulesError as error:
            hint = f" Did you mean {' or '.join(guesses)}?" if guesses else ""
            return [Reply(refusal_text(error) + hint)]
        except StoreBusyError:
            return [Reply(STORE_BUSY)]
        except Exception:
            log.exception("command %s failed", name)
            return [Reply(INTERNAL_ERROR)]

    async def press(self, custom: str, ctx: Context, values: Sequence[str] = ()) -> list[Reply]:
        """A button click or a select menu choice; stale or foreign ones are refused politely."""
        match = parse_custom_id(custom)
        if match is None:
            return [Reply("Refused: this button is not one of mine.")]
        try:
            game = await self.service.store.game(int(match["game"]))
            if game is None:
                raise Refusal("this button belongs to a game that no longer exists")
            ctx = Context(ctx.caller, game.channel, ctx.guild)
            if match["verb"] in info.PRESS_VERBS:  # Information buttons: bot/info.py
                return await info.press(self, ctx, match["verb"], match["arg"], int(match["state"]), values)
            if not game.live:
                raise Refusal("this game is over; nothing changed")
            state, verb, arg = int(match["state"]), match["verb"], match["arg"]
            if verb in ("ok", "no"):
                outcome = await self.service.confirm(game.channel, ctx.caller, arg, verb == "ok")
                if outcome is None:
                    return [Reply("Cancelled; nothing changed.")]
                return await self._outcome_replies(ctx, outcome)
            if verb == "dm":
                return await self._private_prompt(ctx, arg, state)
            if verb in ("rsy", "rsn"):  # the confirmation of `game resign`
                if verb == "rsn":
                    return [Reply("You did not resign; nothing changed.")]
                return await self._resign_now(ctx)
            if verb in CAMPAIGN_PRESS_VERBS:  # Campaign games (ASL): bot/campaign.py
                return await _campaign_press(self, ctx, verb, arg, state, values)
            seat, index, fresh = [*arg.split("."), "", ""][:3]
            if verb == "s":
                index = values[0] if values else ""
            if verb not in ("c", "s") or not index.isdigit():
                raise Refusal("this button is not one of mine")
            return await self._choose_index(ctx, seat, int(index), state, fresh)
        except RulesError as error:
            return [Reply(refusal_text(error), channel=ctx.channel)]
        except StoreBusyError:
            return [Reply(STORE_BUSY, channel=ctx.channel)]
        except Exception:
            log.exception("button %s failed", custom)
            return [Reply(INTERNAL_ERROR)]

    async def autocomplete(
        self, name: str, option: str, typed: str, given: Mapping[str, Any], ctx: Context
    ) -> list[tuple[str, str]]:
        """Up to 25 suggestions for an option; an empty list when there is nothing to suggest."""
        command = COMMANDS_BY_NAME.get(name)
        spec = next((o for o in command.options if o.name == option), None) if command else None
        if spec is None or spec.autocomplete is None:
            return []
        typed = str(typed)[:100]
        source = spec.autocomplete
        try:
            if source == "system":
                return [(s, s) for s in self.service.system_ids][:25]
            if source == "scenario":
                system = self.service.system(str(given.get("system") or self.default_system))
                return [(s, s) for s in system.scenarios if typed.lower() in s][:25]
            if source == "option" and (given.get("system") or not await self._has_game(ctx.channel)):
                system = self.service.system(str(given.get("system") or self.default_system))
                return [(f"{k}: {v}"[:100], k) for k, v in system.options.items()][:25]
        except RulesError:
            return []
        return await self.service.suggest(ctx.channel, ctx.caller, source, typed, dict(given))

    async def _names_to_ids(
        self, command: CommandDef, values: dict[str, Any], ctx: Context
    ) -> tuple[dict[str, Any], list[str]]:
        """Names accepted wherever ids are: each text option with suggestions (a unit, an HQ, a formation ...)
        given by a name ("I SS Panzerkorps", "Müller/12" or "Mueller/12", any case) is replaced by the id its
        suggestion carries. A value that matches nothing is left for the game to judge; the closest names
        are returned, to add to a refusal."""
        resolved = dict(values)
        guesses: list[str] = []
        for spec in command.options:
            value = values.get(spec.name)
            if spec.autocomplete is None or spec.kind != "text" or not isinstance(value, str) or not value:
                continue
            if spec.autocomplete in ("scenario", "system", "option", "seat") or ID_LIKE.fullmatch(value):
                continue  # ids and hexes as the suggestions give them: nothing to look up
            pairs = await self.service.suggest(ctx.channel, ctx.caller, spec.autocomplete, "", values, limit=1000)
            if not pairs:
                continue
            parts = []
            for part in value.split(","):
                found, close = _match_name(part.strip(), pairs)
                parts.append(found)
                guesses += close
            resolved[spec.name] = ",".join(parts)
        return resolved, guesses

    async def _has_game(self, channel: int) -> bool:
        return await self.service.store.latest_game_in(channel) is not None

    @staticmethod
    def _check_options(command: CommandDef, options: Mapping[str, Any]) -> dict[str, Any]:
        """Check every option's presence and type; junk is refused with a sentence."""
        known = {o.name: o for o in command.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise Refusal(f"`{command.name}` has no option {unknown[0][:40]!r}")
        values: dict[str, Any] = {}
        for spec in command.options:
            value = options.get(spec.name)
            if value is None or value == "":
                if spec.required:
                    raise Refusal(f"`{command.name}` needs the option {spec.name!r}")
                continue
            values[spec.name] = _coerce(spec, value)
        return values

    # --- Turning outcomes into messages ---------------------------------------------------------------

    async def _outcome_replies(self, ctx: Context, outcome: Outcome, note: str = "Done.") -> list[Reply]:
        table = outcome.table
        replies = [Reply(note, channel=ctx.channel)]
        lines = []
        public = outcome.public_events
        sealed_only = outcome.events and not public and not outcome.receipt  # e.g. a stack's new top (11.2)
        if outcome.seat and outcome.action is not None and not sealed_only:
            command = _command_of(outcome.action.verb)
            shown = "" if command.startswith("/act ") else f" {command}"
            lines.append(f"**{outcome.seat}** ({_who(table, outcome.seat)}){shown}")
        lines += [f"- {e['text']}" for e in public]
        plain = [e["text"] for e in outcome.events if not e.get("secret_to")]
        if [e["text"] for e in public] != plain and outcome.own_events:
            own = "\n".join(f"- {e['text']}" for e in outcome.own_events if not e.get("secret_to"))
            replies.append(Reply(f"What happened, as your side sees it:\n{own}", channel=ctx.channel))
        if outcome.receipt:
            lines.append(f"The {outcome.seat} player sealed a decision; receipt `{outcome.receipt[:16]}`.")
        details = [e["data"]["details"] for e in public if "details" in e.get("data", {})]
        files = (_details_file(table, details),) if details else ()
        for seat in sorted({s for e in outcome.events for s in e.get("secret_to", ())}):
            user = table.user_of(seat)
            texts = [e["text"] for e in outcome.events if seat in e.get("secret_to", ())]
            if user is None:
                continue
            if user == ctx.caller.user_id and seat == outcome.seat:
                replies.append(Reply("Only you see this: " + "\n".join(texts), channel=ctx.channel))
            else:
                replies.append(self._dm(ctx, user, seat, "\n".join(texts), (), ()))
        account = "\n".join(lines)
        if outcome.result is not None:
            if account:
                replies.append(Reply(account, to="channel", ephemeral=False, channel=ctx.channel, files=files))
            if outcome.picture_due:
                replies.append(await self._picture_reply(ctx, outcome.picture_events, "The map at the end."))
            replies.append(self._game_over(ctx, table, outcome.result.text))
            return replies
        # One message per action: what happened, followed by the decision it leads to (the acting seat's own
        # next prompt if it has one, else the first seat asked), so a move is one message, not two.
        asked = await self._seat_prompts(
            ctx, table, outcome.prompts, outcome.ping, outcome.fresh, outcome.private_prompts, outcome.seat
        )
        ranked = sorted(
            (i for i, (_, r) in enumerate(asked) if r.to == "channel"),
            key=lambda i: (outcome.prompts[asked[i][0]].optional, asked[i][0] != outcome.seat),
        )
        if account and ranked:
            seat, merged = asked.pop(ranked[0])
            runs_on = seat == outcome.seat and not outcome.prompts[seat].optional and not merged.mentions and not files
            fold = Fold(f"{table.game.id}.{seat}", account) if runs_on else None
            merged = replace(merged, text=f"{account}\n{merged.text}", files=(*files, *merged.files), fold=fold)
            asked.insert(0, (seat, merged))
        elif account:
            replies.append(Reply(account, to="channel", ephemeral=False, channel=ctx.channel, files=files))
        if outcome.picture_due:  # Discord draws and posts it after everything else (UmpireBot.deliver_pictures)
            caption = "The map after that activation." if outcome.action is not None else "The map at the start."
            replies.append(await self._picture_reply(ctx, outcome.picture_events, caption))
        replies += await info.turn_reports(self, ctx, outcome)  # Turn-start reports: bot/info.py
        return replies + [r for _, r in asked]

    async def _picture_reply(self, ctx: Context, events: Sequence[Mapping[str, Any]], text: str) -> Reply:
        if not self.pictures:
            return Reply(text + " (map pictures are off)", to="channel", ephemeral=False, channel=ctx.channel)
        try:
            later = await self.service.picture_job(ctx.channel, None, events)
        except Refusal:
            return Reply(text + " (this game has no map picture)", to="channel", ephemeral=False)
        return Reply(text, to="channel", ephemeral=False, picture=later, channel=ctx.channel)

    def _game_over(self, ctx: Context, table: Table, text: str) -> Reply:
        game = table.game
        return Reply(
            f"**Game over**: {text}.\nThe dice seed was `{game.seed}`; its SHA-256 `{game.seed_hash}` was posted "
            f"at the creation. The log's chain head is `{game.chain_head}`. Anyone can check every roll and "
            f"every logged action: `umpire verify {game.id}` or `game verify`.",
            to="channel",
            ephemeral=False,
            channel=ctx.channel,
        )

    async def _prompt_replies(
        self,
        ctx: Context,
        table: Table,
        prompts: Mapping[str, Prompt],
        ping: Mapping[str, int],
        fresh: frozenset[str] | None = None,
        private: bool = False,
    ) -> list[Reply]:
        """The messages that ask each seat for its decision (see :meth:`_seat_prompts`)."""
        return [r for _, r in await self._seat_prompts(ctx, table, prompts, ping, fresh, private)]

    async def _seat_prompts(
        self,
        ctx: Context,
        table: Table,
        prompts: Mapping[str, Prompt],
        ping: Mapping[str, int],
        fresh: frozenset[str] | None = None,
        private: bool = False,
        acting: str | None = None,
    ) -> list[tuple[str, Reply]]:
        """The messages that ask each seat for its decision, each with its seat.

        A required prompt pings its player when ``ping`` names the seat. With ``fresh`` given, a prompt is
        posted only when it is in ``fresh`` (new or changed; an optional one, a chance to react, once per
        window), except the ``acting`` seat's, whose buttons its own action made stale. A secret prompt goes
        by DM; under fog of war (``private``) the channel only says whose decision it is, with a button that
        shows the choices to that player alone.
        """
        replies: list[tuple[str, Reply]] = []
        for seat, prompt in prompts.items():
            user = table.user_of(seat)
            if fresh is not None and seat not in fresh and seat not in ping and (prompt.optional or seat != acting):
                continue  # unchanged, and its buttons still work: not posted again
            rule = f" (rule {prompt.rule})" if prompt.rule and f"({prompt.rule})" not in prompt.text else ""
            mention = (user,) if seat in ping and user is not None and not prompt.optional else ()
            if private and not prompt.secret and user is not None:
                asked = "may react (an event, 15)" if prompt.optional else "must decide"
                replies.append(
                    (
                        seat,
                        Reply(
                            f"<@{user}> (**{seat}**) {asked}. Fog of war (11): the choices are shown only to you.",
                            to="channel",
                            ephemeral=False,
                            mentions=mention,
                            buttons=(
                                Button(
                                    "Show my choices",
                                    custom_id(table.game.id, table.game.revision, "dm", seat),
                                    "secondary" if prompt.optional else "primary",
                                ),
                            ),
                            channel=ctx.channel,
                        ),
                    )
                )
                continue
            buttons, selects = await self._components(table, seat, prompt)
            if prompt.secret and user is not None:
                replies.append((seat, self._dm(ctx, user, seat, f"**{seat}**: {prompt.text}{rule}", buttons, selects)))
                notice = f"<@{user}> ({seat}) has a sealed decision to make: it was sent privately."
                replies.append(
                    (seat, Reply(notice, to="channel", ephemeral=False, mentions=mention, channel=ctx.channel))
                )
                continue
            free = f"\nAlso: {', '.join(_commands_of(prompt.free_verbs))}." if prompt.free_verbs else ""
            listed = "\n".join(f"[{i}] {c.label or c.verb}" for i, c in enumerate(prompt.choices, 1))
            head = "(optional, no need to answer) " if prompt.optional else ""
            replies.append(
                (
                    seat,
                    Reply(
                        f"<@{user}> (**{seat}**): {head}{prompt.text}{rule}{free}\n{listed}".strip(),
                        to="channel",
                        ephemeral=False,
                        mentions=mention,
                        buttons=buttons,
                        selects=selects,
                        channel=ctx.channel,
                    ),
                )
            )
        return replies

    async def _freshness(self, table: Table, seat: str, prompt: Prompt) -> str:
        """A short hash of the seat's prompt and of how many actions the seat has made: a button stays valid
        while both are unchanged, even if the other side acted meanwhile (simultaneous secret decisions)."""
        own = table.game.seat_actions.get(seat, 0)
        return hashlib.sha256(f"{own}|{prompt!r}".encode()).hexdigest()[:8]

    async def _components(
        self, table: Table, seat: str, prompt: Prompt
    ) -> tuple[tuple[Button, ...], tuple[Select, ...]]:
        if (basket := await _campaign_components(self, table, seat, prompt)) is not None:  # Campaign games (ASL)
            return basket
        game, state = table.game.id, table.game.revision
        fresh = await self._freshness(table, seat, prompt)
        choices = prompt.choices
        if len(choices) <= MAX_BUTTONS:
            return tuple(
                Button(
                    f"{i}. {c.label or c.verb}"[:80],
                    custom_id(game, state, "c", f"{seat}.{i}.{fresh}"),
                    "primary" if c.verb not in ("pass", "end_activation", "end_support") else "secondary",
                )
                for i, c in enumerate(choices, 1)
            ), ()
        selects = []
        for start in range(0, min(len(choices), 100), 25):
            entries = tuple(
                (f"{i}. {c.label or c.verb}"[:100], str(i))
                for i, c in enumerate(choices[start : start + 25], start + 1)
            )
            arg = f"{seat}.{start // 25}.{fresh}"
            selects.append(
                Select(custom_id(game, state, "s", arg), f"Choices {start + 1}-{start + len(entries)}", entries)
            )
        return (), tuple(selects)

    def _dm(
        self,
        ctx: Context,
        user: int,
        seat: str,
        text: str,
        buttons: tuple[Button, ...],
        selects: tuple[Select, ...],
    ) -> Reply:
        return Reply(
            text,
            to="dm",
            ephemeral=False,
            user=user,
            buttons=buttons,
            selects=selects,
            channel=ctx.channel,
            dm_fallback=Reply(
                f"<@{user}>: I cannot send you direct messages (they are closed). "
                "Use the button to see your private message here, visible only to you.",
                to="channel",
                ephemeral=False,
                mentions=(user,),
                channel=ctx.channel,
            ),
        )

    async def _private_prompt(self, ctx: Context, seat: str, state: int) -> list[Reply]:
        """The ephemeral way to answer a secret prompt when DMs are closed."""
        table = await self.service.table(ctx.channel)
        if seat not in table.seats_of(ctx.caller.user_id):
            raise Refusal(f"only the {seat} player may open this")
        prompts = await self.service.prompts(table.game)
        prompt = prompts.get(seat)
        if prompt is None:
            return [Reply("You have nothing to decide now.")]
        buttons, selects = await self._components(table, seat, prompt)
        free = f"\nAlso: {', '.join(_commands_of(prompt.free_verbs))}." if prompt.free_verbs else ""
        listed = "\n".join(f"[{i}] {c.label or c.verb}" for i, c in enumerate(prompt.choices, 1))
        text = f"**{seat}**: {prompt.text}{free}\n{listed}".strip()
        return [Reply(text, buttons=buttons, selects=selects)]

    # --- Game life ------------------------------------------------------------------------------------

    async def _create(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        names = [n.strip() for n in str(o.get("options", "")).split(",") if n.strip()]
        table = await self.service.create(
            guild=ctx.guild,
            channel=ctx.channel,
            caller=ctx.caller,
            system_id=str(o.get("system") or self.default_system),
            scenario=o["scenario"],
            options=dict.fromkeys(names, True),
            days_per_move=float(o.get("days_per_move", 0)),
            reserve_days=float(o.get("reserve_days", 0)),
        )
        game = table.game
        system = self.service.system(game.system)
        tc = game.time_control
        clock = f"{tc['days_per_move']:g} days per move, {tc['reserve_days']:g} days reserve" if tc else "live play"
        text = (
            f"**Game #{game.id} created**: {system.name}, scenario {game.scenario}; "
            f"optional rules: {', '.join(names) or 'none'}; time control: {clock}.\n"
            f"Seats: {', '.join(table.seats)}. Take one with `game join`, then `game start`.\n"
            f"Dice commitment (SHA-256 of the secret seed, revealed at the end): `{game.seed_hash}`"
        )
        return [Reply("Game created.", channel=ctx.channel), Reply(text, to="channel", ephemeral=False)]

    async def _join(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        table = await self.service.join(ctx.channel, ctx.caller, o.get("seat"))
        seat = ", ".join(table.seats_of(ctx.caller.user_id))
        return [
            Reply(f"You hold the {seat} seat."),
            Reply(
                f"<@{ctx.caller.user_id}> takes the **{seat}** seat. {_seats_line(table)}",
                to="channel",
                ephemeral=False,
            ),
        ]

    async def _leave(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        table = await self.service.leave(ctx.channel, ctx.caller)
        return [
            Reply("You left the game."),
            Reply(f"<@{ctx.caller.user_id}> left. {_seats_line(table)}", to="channel", ephemeral=False),
        ]

    async def _assign(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        before = (await self.service.table(ctx.channel)).user_of(o["seat"])
        table = await self.service.assign(ctx.channel, ctx.caller, o["seat"], int(o["user"]))
        displaced = before if before not in (None, int(o["user"])) else None
        told = f" <@{displaced}> no longer holds it." if displaced is not None else ""
        return [
            Reply("Done."),
            Reply(
                f"<@{o['user']}> now holds the **{o['seat']}** seat (by <@{ctx.caller.user_id}>).{told} "
                f"{_seats_line(table)}",
                to="channel",
                ephemeral=False,
                mentions=(int(o["user"]),) + ((displaced,) if displaced is not None else ()),
            ),
        ]

    async def _start(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        outcome = await self.service.start(ctx.channel, ctx.caller)
        replies = await self._outcome_replies(ctx, outcome, "Game started.")
        briefing = await info.brief_at_start(self, ctx)  # bot/info.py
        reports = await info.turn_reports(self, ctx, outcome, at_start=True)
        return replies[:1] + briefing + reports + replies[1:]

    async def _status(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        table = await self.service.table(ctx.channel, live=False)
        game = table.game
        lines = [f"**Game #{game.id}** ({game.system}, {game.scenario}): {game.status}. {_seats_line(table)}"]
        if game.status in ("active", "finished", "abandoned"):
            lines.append(await self.service.describe(ctx.channel, ctx.caller, "status"))
        if game.result:
            lines.append(f"Result: {game.result.get('text')}")
        prompts = await self.service.prompts(game)
        private = await self.service.private_prompts(game)
        for seat, prompt in prompts.items():
            if prompt.optional:
                lines.append(f"**{seat}** may react (optional).")
            else:
                lines.append(f"Waiting for **{seat}** ({_who(table, seat)})" + ("." if private else f": {prompt.text}"))
        reminders = await self.service.store.reminders(game.id)
        for seat, row in table.seats.items():
            if row.vacation_until and row.vacation_until > self.service.clock():
                lines.append(f"{seat} is on vacation.")
            if seat in reminders and game.time_control:
                left = float(game.time_control.get("reserve_days", 0)) - row.reserve_used / 86400
                lines.append(f"{seat}: reserve left {left:.1f} days.")
        return [Reply("\n".join(lines), ephemeral=False)]

    async def _resign(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        """Asks first: resigning ends the game at once."""
        table = await self.service.table(ctx.channel)
        if table.game.status != "active" or not table.seats_of(ctx.caller.user_id):
            return await self._resign_now(ctx)  # the service says why it cannot be done
        game, state = table.game.id, table.game.revision
        return [
            Reply(
                "Resign the game? Your opponent wins at once and the dice seed is revealed.",
                buttons=(
                    Button("Confirm", custom_id(game, state, "rsy", "0"), "danger"),
                    Button("Cancel", custom_id(game, state, "rsn", "0")),
                ),
            )
        ]

    async def _resign_now(self, ctx: Context) -> list[Reply]:
        outcome = await self.service.resign(ctx.channel, ctx.caller)
        return [
            Reply("You resigned."),
            self._game_over(ctx, outcome.table, outcome.result.text if outcome.result else ""),
        ]

    async def _abandon(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        outcome = await self.service.abandon(ctx.channel, ctx.caller, o["reason"])
        return [Reply("Done."), self._game_over(ctx, outcome.table, outcome.result.text if outcome.result else "")]

    async def _undo(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        outcome = await self.service.undo(ctx.channel, ctx.caller)
        row = outcome.undone[-1]
        full = f"{row.verb} {_args(row.args)}".strip()
        head = f"<@{ctx.caller.user_id}> (**{row.seat}**) took back their last action"
        if outcome.private_prompts:  # fog of war (11): the channel reads only what both sides may
            told = "".join(f"\n- {e['text']}" for e in outcome.public_events)
            notice = f"{head} ({row.verb}).{told}"[:1900]
            replies = [Reply(f"Undone: {full}."), Reply(notice, to="channel", ephemeral=False)]
        else:
            replies = [Reply("Undone."), Reply(f"{head}: {full}.", to="channel", ephemeral=False)]
        return replies + await self._prompt_replies(
            ctx, outcome.table, outcome.prompts, {}, private=outcome.private_prompts
        )

    async def _correct(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        outcome = await self.service.correct(ctx.channel, ctx.caller, int(o["count"]), o["reason"])
        text = f"**Correction** by <@{ctx.caller.user_id}>: took back {len(outcome.undone)} action(s): {o['reason']}."
        replies = [Reply("Corrected."), Reply(text, to="channel", ephemeral=False)]
        table = outcome.table
        if (after := await _campaign_after_correct(self, ctx)) is not None:  # Campaign games (ASL): fresh salts
            replies += after[0]
            table = after[1]
        return replies + await self._prompt_replies(ctx, table, outcome.prompts, {}, private=outcome.private_prompts)

    async def _vacation(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        await self.service.request_vacation(ctx.channel, ctx.caller, int(o["days"]))
        return [
            Reply("Asked."),
            Reply(
                f"<@{ctx.caller.user_id}> asks for a vacation of {o['days']} day(s); the opponent may accept with "
                "`game accept-vacation`.",
                to="channel",
                ephemeral=False,
            ),
        ]

    async def _accept_vacation(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        _, seats = await self.service.accept_vacation(ctx.channel, ctx.caller)
        text = f"Vacation granted to {', '.join(seats)}: no reminders until it ends."
        return [Reply("Accepted."), Reply(text, to="channel", ephemeral=False)]

    async def _verify(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        table = await self.service.table(ctx.channel, live=False)
        game, rolls, problems = await self.service.verify(table.game.id)
        head = f"Chain head `{game.chain_head}` (compare it with the one posted at the end)."
        if problems:
            return [Reply("Verification FAILED:\n" + "\n".join(f"- {p}" for p in problems) + "\n" + head)]
        return [
            Reply(
                f"Seed `{game.seed}` matches the hash `{game.seed_hash}`; the log's hash chain holds; {rolls} roll(s) "
                f"recomputed: all agree. {head}"
            )
        ]

    # --- Playing --------------------------------------------------------------------------------------

    def _play(self, command: CommandDef) -> Handler:
        verb = command.verb
        assert verb is not None

        async def handler(ctx: Context, o: dict[str, Any]) -> list[Reply]:
            if verb == "standing_orders" and str(o.get("orders", "")).strip().lower() in ("none", "-"):
                o = {"orders": ""}
            if command.confirm:
                preview = await self.service.preview(ctx.channel, ctx.caller, verb, o)
                if preview is not None:
                    question = f"**Odds preview**\n{preview.text}\nConfirm the attack?"
                    return [await self._confirmation(ctx, question, preview)]
            outcome = await self.service.act(ctx.channel, ctx.caller, verb, o)
            return await self._outcome_replies(ctx, outcome)

        return handler

    async def _confirmation(self, ctx: Context, text: str, preview: Preview) -> Reply:
        """A private question with **Confirm** and **Cancel** buttons for an action kept until answered."""
        table = await self.service.table(ctx.channel)
        game, state = table.game.id, table.game.revision
        return Reply(
            text,
            buttons=(
                Button("Confirm", custom_id(game, state, "ok", preview.token), "danger"),
                Button("Cancel", custom_id(game, state, "no", preview.token)),
            ),
        )

    async def _activate(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        formation = o["formation"]
        if formation.lower() == "general":
            verb, args = "activate_general", {}
        else:
            verb, args = "activate_formation", {"formation": formation}
        preview = await self.service.preview(ctx.channel, ctx.caller, verb, args)
        if preview is not None:
            return [await self._confirmation(ctx, f"{preview.text}\nActivate it again?", preview)]
        outcome = await self.service.act(ctx.channel, ctx.caller, verb, args)
        return await self._outcome_replies(ctx, outcome)

    async def _act_generic(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        args = parse_args(o.get("args", ""))
        outcome = await self.service.act(ctx.channel, ctx.caller, o["verb"], args)
        return await self._outcome_replies(ctx, outcome)

    async def _choose(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        table = await self.service.table(ctx.channel)
        prompts = await self.service.prompts(table.game)
        seat = o.get("seat")
        if seat is None:
            mine = [s for s in table.seats_of(ctx.caller.user_id) if s in prompts]
            if not table.seats_of(ctx.caller.user_id):
                raise Refusal("you hold no seat in this game: only a seated player acts for a side")
            if not mine:
                raise Refusal(f"you have nothing to decide now; waiting for: {', '.join(prompts) or 'nobody'}")
            if len(mine) > 1:
                raise Refusal(f"you hold several seats that must decide now ({', '.join(mine)}): name the seat")
            seat = mine[0]
        fresh = await self._freshness(table, seat, prompts[seat]) if seat in prompts else ""
        return await self._choose_index(ctx, seat, int(o["number"]), table.game.revision, fresh, by_number=True)

    async def _choose_index(
        self, ctx: Context, seat: str, number: int, state: int, fresh: str = "", by_number: bool = False
    ) -> list[Reply]:
        async def still_valid(table: Table, prompt: Prompt) -> bool:
            return bool(fresh) and fresh == await self._freshness(table, seat, prompt)

        preview = await self._choice_preview(ctx, seat, number, state, still_valid, by_number)
        if preview is not None:
            return [await self._confirmation(ctx, f"{preview.text}\nConfirm?", preview)]
        choice, outcome = await self.service.choose(ctx.channel, ctx.caller, seat, number, state, still_valid)
        return await self._outcome_replies(ctx, outcome, f"Done: {choice.label or choice.verb}.")

    async def _choice_preview(
        self,
        ctx: Context,
        seat: str,
        number: int,
        state: int,
        still_valid: Callable[[Table, Prompt], Awaitable[bool]],
        by_number: bool,
    ) -> Preview | None:
        """The confirmation a choice needs before it is played, if any: one the game asks for (a reactivation
        that fatigues), or, for a choice made by its number in answer to a chance to react, what it plays.
        ``None`` (the choice goes ahead, checked again under the lock) for anything else or anything amiss."""
        table = await self.service.table(ctx.channel)
        prompt = (await self.service.prompts(table.game)).get(seat)
        if prompt is None or not 1 <= number <= len(prompt.choices) or seat not in table.seats_of(ctx.caller.user_id):
            return None
        if state != table.game.revision and not await still_valid(table, prompt):
            return None
        choice = prompt.choices[number - 1]
        text = f"Choice {number} plays: **{choice.label or choice.verb}**." if by_number and prompt.optional else None
        return await self.service.preview(ctx.channel, ctx.caller, choice.verb, choice.args, seat, text=text)

    # --- Information ----------------------------------------------------------------------------------

    def _info(self, topic: str, key: str | None) -> Handler:
        async def handler(ctx: Context, o: dict[str, Any]) -> list[Reply]:
            text = await self.service.describe(ctx.channel, ctx.caller, topic, str(o.get(key, "")) if key else "")
            return [Reply(text)]

        return handler

    async def _map(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        if o.get("overlay") == "combats":  # the combats of the last turns: bot/info.py
            return await info.map_combats(self, ctx, int(o.get("turns", 1)))
        png = await self.service.picture(
            ctx.channel, ctx.caller, overlay=o.get("overlay"), unit=o.get("unit"), around=o.get("hex")
        )
        table = await self.service.table(ctx.channel, live=False)
        mine = table.seats_of(ctx.caller.user_id)
        who = f"the {mine[0]} side" if len(mine) == 1 else "a spectator (what both sides may see)"
        what = f" with the {o['overlay']} overlay" if o.get("overlay") else ""
        text = f"The map as {who} sees it{what}; arrows show the last activation."
        return [Reply(text, files=(Attachment("map.png", png),))]

    async def _log(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        entries, corrections = await self.service.log(ctx.channel, ctx.caller)
        lines = [f"#{e.seq} {e.seat} {e.verb}: " + " ".join(e.texts) for e in entries]
        lines += [f"Moderator {c}" for c in corrections]
        return [Reply("\n".join(lines) or "Nothing has happened yet.")]

    async def _dice(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        entries, _ = await self.service.log(ctx.channel, ctx.caller)
        lines = [f"#{e.seq} {e.seat}: {r}" for e in entries for r in e.rolls]
        table = await self.service.table(ctx.channel, live=False)
        head = f"Seed hash `{table.game.seed_hash}`."
        return [Reply(head + "\n" + ("\n".join(lines) or "No die rolled yet."))]


def _coerce(spec: OptionDef, value: Any) -> Any:
    """An option's value in its kind, or a refusal that names the option."""
    try:
        if spec.kind == "text":
            text = str(value).strip()
            if len(text) > 200 or any(ord(ch) < 32 for ch in text):
                raise ValueError
            return text
        if spec.kind == "boolean":
            if isinstance(value, bool):
                return value
            if str(value).lower() in ("true", "yes", "1", "on"):
                return True
            if str(value).lower() in ("false", "no", "0", "off"):
                return False
            raise ValueError
        if spec.kind == "attachment":
            if not isinstance(value, Upload):
                raise ValueError
            return value
        if spec.kind == "user":
            if hasattr(value, "id"):
                return int(value.id)
            return int(str(value).strip("<@!>"))
        if isinstance(value, bool):
            raise ValueError
        number = int(value) if spec.kind == "integer" else float(value)
        if number != number or number in (float("inf"), float("-inf")):
            raise ValueError
    except (TypeError, ValueError, OverflowError):
        raise Refusal(f"the option {spec.name!r} must be {_kind_words(spec)}") from None
    if (spec.min_value is not None and number < spec.min_value) or (
        spec.max_value is not None and number > spec.max_value
    ):
        raise Refusal(f"the option {spec.name!r} must be {_kind_words(spec)}")
    return number


def _details_file(table: Table, details: Sequence[Any]) -> Attachment:
    """Machine-readable details some events carry (e.g. what a reveal makes checkable), as one JSON file."""
    text = json.dumps(list(details), indent=1, ensure_ascii=False)
    return Attachment(f"details-{table.game.id}-{table.game.revision}.json", text.encode())


def _kind_words(spec: OptionDef) -> str:
    words = {
        "text": "short text",
        "integer": "a whole number",
        "number": "a number",
        "boolean": "yes or no",
        "attachment": "a file",
    }
    text = words.get(spec.kind, "a user")
    if spec.min_value is not None and spec.max_value is not None:
        text += f" from {spec.min_value:g} to {spec.max_value:g}"
    return text


def _commands_of(verbs: Sequence[str]) -> list[str]:
    """The commands that send these engine verbs (``/move`` for ``move``, ``/act retreat`` for a verb no
    command names), for a prompt's "Also:" line."""
    return [_command_of(v) for v in verbs if v != "preview"]


def _command_of(verb: str) -> str:
    """The command a player types for an engine verb: ``/move`` for ``move``, ``/act retreat`` for a verb
    without its own command."""
    by_verb = {c.verb: c.name for c in COMMANDS if c.verb}
    by_verb.update({"activate_formation": "activate", "activate_general": "activate general"})
    return f"/{by_verb[verb]}" if verb in by_verb else f"/act {verb}"


def _plain(text: str) -> str:
    """A name as compared with what a player types: lower case, German letters spelled out, accents dropped."""
    spelled = text.lower().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("ß", "ss")
    return "".join(c for c in unicodedata.normalize("NFKD", spelled) if not unicodedata.combining(c))


def _match_name(typed: str, pairs: Sequence[tuple[str, str]]) -> tuple[str, list[str]]:
    """(the id for ``typed``, the closest names when none matches): ``typed`` may be an id or a suggestion's
    label or name (the label without its "(id)" or its verb, e.g. "Activate")."""
    if any(typed == value for _, value in pairs):
        return typed, []
    wanted = _plain(typed)
    names: dict[str, str] = {}
    for label, value in pairs:
        name = re.sub(r"\s*\([^)]*\)\s*$", "", label)
        for form in (label, name, name.split(" ", 1)[-1], value):
            names.setdefault(_plain(form), value)
        if wanted in (_plain(label), _plain(name), _plain(name.split(" ", 1)[-1]), _plain(value)):
            return value, []
    close = difflib.get_close_matches(wanted, list(names), n=2, cutoff=0.6)
    labels = {v: lab for lab, v in pairs}
    return typed, [f"{labels[names[c]]!r}" for c in dict.fromkeys(close)]


def _who(table: Table, seat: str) -> str:
    user = table.user_of(seat)
    return f"<@{user}>" if user is not None else "empty"


def _seats_line(table: Table) -> str:
    return "Seats: " + ", ".join(f"{s}: {_who(table, s)}" for s in table.seats) + "."


def _args(args: Mapping[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in args.items())


__all__ = [
    "COMMANDS",
    "COMMANDS_BY_NAME",
    "CUSTOM_ID",
    "Attachment",
    "Button",
    "CommandDef",
    "CommandLayer",
    "Context",
    "OptionDef",
    "Reply",
    "Select",
    "Upload",
    "custom_id",
    "parse_custom_id",
    "refusal_text",
]


# --- Campaign games (ASL) ---------------------------------------------------------------------------------
# The campaign commands' handlers, the basket of a sealed purchase and its buttons live in bot/campaign.py
# (imported when first used: it imports this module). Three one-line hooks above call these.

CAMPAIGN_PRESS_VERBS = frozenset({"bka", "bkr", "bkc", "bkx", "rsp"})
"""Custom id verbs of the sealed-purchase basket and the roster's pages (bot.campaign.PRESS_VERBS)."""


def _campaign_handlers(layer: CommandLayer) -> dict[str, Handler]:
    from bot import campaign

    return campaign.handlers(layer)


async def _campaign_press(
    layer: CommandLayer, ctx: Context, verb: str, arg: str, state: int, values: Sequence[str]
) -> list[Reply]:
    from bot import campaign

    return await campaign.press(layer, ctx, verb, arg, state, values)


async def _campaign_after_correct(layer: CommandLayer, ctx: Context) -> tuple[list[Reply], Table] | None:
    from bot import campaign

    return await campaign.after_correct(layer, ctx)


async def _campaign_components(
    layer: CommandLayer, table: Table, seat: str, prompt: Prompt
) -> tuple[tuple[Button, ...], tuple[Select, ...]] | None:
    from bot import campaign

    return await campaign.components(layer, table, seat, prompt)


# --- Leagues ----------------------------------------------------------------------------------------------
# The league room (bot/leagues/) imports this module; its handlers are fetched when the layer is built.


def _league_handlers(layer: CommandLayer) -> dict[str, Handler]:
    from bot.leagues import commands

    return commands.handlers(layer)


def _frame_handlers(layer: CommandLayer) -> dict[str, Handler]:
    from bot import frames

    return frames.handlers(layer)
