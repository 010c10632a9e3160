"""3.0 Special rules: weather (3.1), Bodenplatte and The Big Blow (3.3), the Panzer/SS Blitz (3.4)."""

from __future__ import annotations

from engine.contract import Event, IllegalActionError
from engine.wargame_commander.board import Board
from engine.wargame_commander.ground import in_army_control
from engine.wargame_commander.records import FrameReport
from engine.wargame_commander.state import SeriesState

OPERATION_FRAMES = {"bodenplatte": (2, 3, 4, 5), "bigblow": (4, 5)}
"""3.3b-c: the frames before which each operation may be declared."""


def weather(frame: int) -> str:
    """3.1: heavy overcast 4,000-8,000 ft in frames 1-3 (no heavy bombers); light overcast after."""
    if frame <= 3:
        return "heavy overcast 4,000-8,000 ft: no heavy bombers (3.1)"
    return "light overcast about 6,000 ft: heavy bombers may fly (3.1, 3.5a)"


def check_report(state: SeriesState, board: Board, report: FrameReport) -> None:
    """What a frame report carries that the rules forbid: a heavy bomber shot down in frames 1-3, when the
    overcast keeps heavies on the ground (3.1, 3.5a).

    :raises IllegalActionError: naming each such line; nothing changes.
    """
    if state.frame > 3:
        return
    heavies = [
        line["type"]
        for line in report.get("shot_down", [])
        if line["type"] in board.aircraft and board.aircraft[line["type"]].klass == "heavy"
    ]
    if heavies:
        raise IllegalActionError(
            f"frame {state.frame} is flown under heavy overcast, so no heavy bomber flies: the report cannot have "
            f"{', '.join(heavies)} shot down",
            "3.1, 3.5a",
        )


def unchecked(state: SeriesState, board: Board) -> str:
    """What the campaign manager checks in the frame's logs because the report does not carry it (said where
    the report is entered)."""
    items = ["what each squad flew and from which field (1.2, 1.3)", "that 8th AF P-51s went home (3.5b)"]
    declared = state.declaration if state.declaration and state.declaration["frame"] == state.frame else None
    if declared and declared["operation"] == "bigblow":
        items.append(
            "that only the four top German pilots who survived flew the Me 262s (3.3c: the bot ranks the pilots "
            "from the reports, but a report does not say who survived)"
        )
        items.append("that the strike and bomber squads flew heavies from England (3.3c)")
    elif declared:
        items.append("that the Allies stayed in the tower until T+0 (3.3b)")
    return "Not checked by the bot, the CM checks it in the logs: " + "; ".join(items) + "."


def declarable(state: SeriesState, board: Board) -> list[str]:
    """3.3a: one operation in one frame only; 3.3b-c: its frames."""
    if state.declaration is not None:
        return []
    return [op for op, frames in OPERATION_FRAMES.items() if state.frame in frames]


def check_declaration(state: SeriesState, board: Board, operation: str) -> None:
    """:raises IllegalActionError: outside the operation's frames or after one was declared (3.3)."""
    if operation not in OPERATION_FRAMES:
        raise IllegalActionError(f"no operation {operation!r}; bodenplatte or bigblow", "3.3")
    if state.declaration is not None:
        raise IllegalActionError(
            f"{state.declaration['operation']} was declared before frame {state.declaration['frame']}: one frame only",
            "3.3a",
        )
    if state.frame not in OPERATION_FRAMES[operation]:
        rule = "3.3b" if operation == "bodenplatte" else "3.3c"
        frames = OPERATION_FRAMES[operation]
        raise IllegalActionError(f"{operation} may be declared before frames {frames[0]}-{frames[-1]} only", rule)


def top_pilots(state: SeriesState, count: int = 4) -> list[str]:
    """3.3c: the top surviving German fighter pilots: most kills, then assists, then fewest losses."""
    ranked = sorted(state.pilots.items(), key=lambda p: (-p[1]["kills"], -p[1]["assists"], p[1]["losses"], p[0]))
    return [name for name, _ in ranked[:count]]


def big_blow_targets(board: Board) -> list[str]:
    """3.3c: the supply depots "in the 6 grid"."""
    return [d.name for d in board.depots.values() if d.grid == "6"]


def declaration_text(state: SeriesState, board: Board) -> str:
    decl = state.declaration
    assert decl is not None, "said only once an operation is declared"
    if decl["operation"] == "bodenplatte":
        return (
            f"The Germans declare Operation Bodenplatte for frame {decl['frame']}: German aircraft may launch at "
            "T-10 while the Allies stay in tower until T+0; every Allied aircraft flies from the mainland (3.3b)."
        )
    pilots = ", ".join(top_pilots(state)) or "none reported yet"
    return (
        f"The Germans declare The Big Blow for frame {decl['frame']}: every Allied strike and bomber squad flies "
        f"heavies from England against the depots of the 6 grid ({', '.join(big_blow_targets(board))}); the Me262 "
        f"pilots: {pilots} (3.3c)."
    )


def check_blitz(state: SeriesState, board: Board, names: list[str]) -> None:
    """3.4a, 4.2l: German Panzer or SS corps on the board, each once per series.

    :raises IllegalActionError: naming the rule.
    """
    for unit_id in names:
        spec = board.units.get(unit_id)
        if spec is None or spec.side != "german" or state.units[unit_id].hex is None:
            raise IllegalActionError(f"{unit_id!r} is not a German unit on the board", "3.4a")
        if not board.unit_types[spec.type].blitz:
            raise IllegalActionError(f"{spec.name} is not a Panzer or SS corps", "3.4a")
        if state.units[unit_id].blitz_used:
            raise IllegalActionError(f"{spec.name} has already Blitzed: once per series", "4.2l")


def blitz_movement_check(state: SeriesState, board: Board, events: list[Event]) -> None:
    """3.4d: a corps that Blitzed and is out of Army Control when its next movement phase comes loses a CS."""
    for unit in state.units.values():
        if unit.blitz_check and not unit.blitz_active and unit.hex is not None:
            unit.blitz_check = False
            if not in_army_control(state, board, unit.id):
                unit.lost += 1
                events.append(
                    Event(
                        "blitz_loss",
                        f"{board.units[unit.id].name} Blitzed and is out of Army Control "
                        "at its next movement phase: -1 CS for the rest of the series (3.4d).",
                        {"unit": unit.id},
                    )
                )


DAMAGE_WORDS = {"damage": "damaged", "heavy": "heavily damaged"}
"""2.41: a corps' tac air damage level (the report's word) as the channel says it."""


def report_summary(board: Board, report: FrameReport) -> str:
    """A one-line summary of a frame report for both Frame COs."""
    parts = []
    for line in report.get("shot_down", []):
        parts.append(f"{line['count']} {line['side']} {line['type']} shot down")
    for hit in report.get("airfields", []):
        parts.append(f"{board.airfields[hit['airfield']].name} {hit['damage']} damage")
    parts += [f"{board.airfields[f].name} closed" for f in report.get("closed", [])]
    parts += [f"depot {board.depots[d].name} damaged" for d in report.get("depots", [])]
    parts += [f"{board.units[c['unit']].name} {DAMAGE_WORDS[c['damage']]}" for c in report.get("corps", [])]
    parts += [f"radar {r} hit" for r in report.get("radar", [])]
    if report.get("pilots"):
        parts.append(f"{len(report['pilots'])} German pilot line(s)")
    return "; ".join(parts) or "nothing reported"
