"""The bundled boards of the Ardennes Wargame Commander (one TOML file each).

This package does the file reading so that ``engine.wargame_commander`` stays free of I/O. A league may
replace a board with its own file of the same format (docs/rules/wargame-commander.md).
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

BOARDS = ("wargame-commander",)
"""The Wargame Commander boards bundled with Umpire (the id is also the ``umpire validate`` name)."""

_FILES = {"wargame-commander": "ardennes-1944.toml"}


def board_document(board_id: str) -> dict[str, Any]:
    """The parsed TOML of a bundled board.

    :raises KeyError: if no such board is bundled.
    """
    if board_id not in BOARDS:
        raise KeyError(f"no bundled Wargame Commander board {board_id!r}; available: {', '.join(BOARDS)}")
    text = resources.files(__package__).joinpath(_FILES[board_id]).read_text(encoding="utf-8")
    return tomllib.loads(text)


def board_document_from_file(path: str | Path) -> dict[str, Any]:
    """The parsed TOML of a league's own board file.

    :raises tomllib.TOMLDecodeError: if the file is not TOML.
    """
    with Path(path).open("rb") as handle:
        return tomllib.load(handle)
