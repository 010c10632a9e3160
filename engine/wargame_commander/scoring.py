"""5.1 Victory conditions: the score as an append-only ledger, one line per scoring event."""

from __future__ import annotations

from engine.wargame_commander.board import Board
from engine.wargame_commander.records import LedgerLine
from engine.wargame_commander.state import SeriesState


def score(state: SeriesState, side: str, points: float, rule: str, source: str, text: str) -> LedgerLine:
    """Append one line to the ledger and return it (the ledger is never edited: corrections are new lines)."""
    line: LedgerLine = {
        "n": len(state.ledger) + 1,
        "frame": state.frame,
        "phase": state.phase,
        "side": side,
        "points": points,
        "rule": rule,
        "source": source,
        "text": text,
    }
    state.ledger.append(line)
    return line


def totals(state: SeriesState, board: Board) -> dict[str, float]:
    """Each side's points: the sum of its ledger lines."""
    found = {side: 0.0 for side in board.sides}
    for line in state.ledger:
        found[line["side"]] += float(line["points"])
    return found


def band(board: Board, difference: float) -> str:
    """5.1: the result band of a point difference (draw, minor victory, victory, major victory).

    Differences between whole numbers (half points from aircraft destroyed on the ground) fall in the band
    of the whole number below: 10.5 is still a draw.
    """
    name = board.scoring.bands[0][1]
    for lowest, band_name in board.scoring.bands:
        if difference >= lowest:
            name = band_name
    return name


def final_result(state: SeriesState, board: Board) -> tuple[str | None, str]:
    """The winner (``None`` for a draw) and the result in words."""
    points = totals(state, board)
    first, second = board.sides
    difference = abs(points[first] - points[second])
    name = band(board, difference)
    line = f"{first.title()} {points[first]:g}, {second.title()} {points[second]:g}: difference {difference:g}"
    if name == board.scoring.bands[0][1]:
        return None, f"{line}, a {name} (5.1)"
    winner = first if points[first] > points[second] else second
    return winner, f"{line}, a {name} for the {winner.title()} side (5.1)"
