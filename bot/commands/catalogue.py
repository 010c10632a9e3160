"""The catalogue of commands: the shared ones (:data:`SHARED_COMMANDS`) and every room's, as one list.

Discord registers every command of :data:`COMMANDS` (:mod:`bot.transports.cogs.slash`); the console lists the shared
ones and its game's system's (:mod:`bot.transports.console`); the command layer runs them (:mod:`bot.commands.layer`).
"""

from __future__ import annotations

from bot.commands.definitions import CommandDef, OptionDef
from bot.commands.definitions import opt as _opt
from bot.commands.rooms import all_rooms

SHARED_COMMANDS: tuple[CommandDef, ...] = (
    # --- A game's life ---------------------------------------------------------------------------------
    CommandDef(
        "game create",
        "Create a game in this channel or thread (one game per channel).",
        (
            _opt("scenario", "the scenario to play", "scenario"),
            _opt("options", "optional rules, separated by commas", "option", required=False),
            OptionDef("days_per_move", "correspondence: days per move (0: live play)", "number", False, None, 0, 60),
            OptionDef("reserve_days", "correspondence: reserve of days", "number", False, None, 0, 120),
            OptionDef(
                "vacation_days",
                "correspondence: vacation days each player may take (default 30)",
                "number",
                False,
                None,
                0,
                120,
            ),
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
        "Ask for a vacation, or to extend yours; your opponent accepts it with `game accept-vacation`.",
        (OptionDef("days", "how many days", "integer", True, None, 1, 30),),
    ),
    CommandDef("game accept-vacation", "Accept your opponent's vacation request (or extension)."),
    CommandDef("game end-vacation", "End your vacation early: your clock runs again where it stopped."),
    CommandDef("game claim-timeout", "Claim the game when your opponent's time per move and reserve are spent."),
    CommandDef(
        "game verify",
        "After the end: check the chain, every die, every sealed decision, and replay the rules.",
        (OptionDef("head", "a chain head the bot posted in the channel, to find in the log", "text", False),),
        private=True,
    ),
    CommandDef(
        "game record",
        "The game's record: one web page with the map at every activation, the log, charts and the dice checks.",
        (_opt("seat", "whose view (yours, or after the end any side's); default: yours", "seat", False),),
        private=True,
        slow=True,
    ),
    # --- Answering any prompt ------------------------------------------------------------------------
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
    # Handlers of hex, unit, hq, oob, victory, brief, stats, replay and reports: bot/commands/info.py.
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
    CommandDef(
        "prefs",
        "Your display preferences: DM pictures, close-up size, turn-start reports (none given: shows them).",
        (
            OptionDef("pictures", "pictures in your direct messages", "boolean", required=False),
            OptionDef("closeup", "hexes round the centre of a `map hex:` close-up", "integer", False, None, 1, 8),
            OptionDef("reports", "your turn-start reports by DM", "boolean", required=False),
        ),
        private=True,
    ),
    CommandDef("log", "The game log.", private=True),
    CommandDef("dice", "Every die rolled so far.", private=True),
)
"""The commands of every game, whatever its system."""


def _every_command() -> tuple[CommandDef, ...]:
    """The shared commands, then each room's (a command two rooms share, e.g. two games on one system, once)."""
    found: dict[str, CommandDef] = {c.name: c for c in SHARED_COMMANDS}
    for room in all_rooms():
        for command in room.commands:
            assert found.setdefault(command.name, command) == command, f"two rooms define {command.name!r}"
    return tuple(found.values())


COMMANDS: tuple[CommandDef, ...] = _every_command()
"""Every command of the bot: the shared ones and every room's (Discord registers them all)."""

COMMANDS_BY_NAME: dict[str, CommandDef] = {c.name: c for c in COMMANDS}
