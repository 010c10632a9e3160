"""The command line's tools for a Wargame Commander board (``umpire validate``): the bundled board by id, or a
league's own board file (``.toml``, docs/rules/wargame-commander.md). ``umpire render`` draws no board.

Light on purpose, like the room: the engine and the data are imported when a tool runs.
"""

from __future__ import annotations

from pathlib import Path

from bot.systems.base import DataReport, DataTools

BOARDS = ("wargame-commander",)
"""The bundled boards (``scenarios.wargame_commander.BOARDS``, not imported here: it loads the engines)."""


class WargameCommanderDataTools(DataTools):
    """Checks a board: its hexes, supply depots, airfields, squads and aircraft, HQs and corps, frames."""

    games = BOARDS
    files = "a Wargame Commander board file (.toml)"

    def reads(self, path: Path) -> bool:
        return path.suffix == ".toml"

    def validate(self, game: str) -> DataReport:
        import tomllib

        from engine.wargame_commander.board import BoardError, parse_board
        from scenarios.wargame_commander import board_document, board_document_from_file

        try:
            raw = board_document(game) if game in BOARDS else board_document_from_file(game)
            board = parse_board(raw)
        except (OSError, tomllib.TOMLDecodeError) as error:
            return DataReport(False, f"umpire: cannot read {game}: {error}")
        except BoardError as error:
            problems = "".join(f"\n  {problem}" for problem in error.problems)
            return DataReport(False, f"{game}: {len(error.problems)} problem(s){problems}")
        corps = [u for u in board.units.values() if u.type != "hq"]
        return DataReport(
            True,
            f"{board.title}: sound. {len(board.grid.hexes)} hexes, {len(board.depots)} supply depots, "
            f"{len(board.airfields)} airfields, {len(board.squads)} squads, {len(board.aircraft)} aircraft types; "
            f"{len(board.units) - len(corps)} Army HQs and {len(corps)} corps; {board.frames} frames.",
        )
