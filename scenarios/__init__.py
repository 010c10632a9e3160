"""The bundled game data: one folder per game, read from TOML files that ship with the package.

This package does the file reading so that ``engine`` stays free of I/O; :func:`load_game` is the one
entry point the bot, the renderer and the tests use.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from engine.vaevictis.data import GameData
from engine.vaevictis.loader import ScenarioError, build_game

ROOT = Path(__file__).resolve().parent

VAE_VICTIS_GAMES = ("ardennes44", "alsace44")
"""The Vae Victis games bundled with Umpire."""


def game_folder(game_id: str) -> Path:
    """The folder of a bundled game.

    :raises KeyError: if no such game is bundled.
    """
    folder = ROOT / game_id
    if game_id not in VAE_VICTIS_GAMES or not (folder / "game.toml").is_file():
        raise KeyError(f"no bundled game {game_id!r}; available: {', '.join(VAE_VICTIS_GAMES)}")
    return folder


def read_documents(folder: Path) -> dict[str, dict[str, Any]]:
    """Parse every TOML file of a game folder, by file name.

    :raises ScenarioError: naming the file when one is not valid TOML.
    """
    documents: dict[str, dict[str, Any]] = {}
    problems = []
    for path in sorted(folder.glob("*.toml")):
        try:
            with path.open("rb") as handle:
                documents[path.name] = tomllib.load(handle)
        except tomllib.TOMLDecodeError as error:
            problems.append(f"{path.name}: (file): not valid TOML: {error}")
    if problems:
        raise ScenarioError(problems)
    return documents


def load_game_folder(folder: str | Path) -> GameData:
    """Load and validate a game from any folder (a league's own data, for example).

    :raises ScenarioError: listing every problem, each with its file and entry.
    """
    folder = Path(folder)
    return build_game(read_documents(folder), default_id=folder.name)


@cache
def load_game(game_id: str) -> GameData:
    """Load a bundled game once per process (``load_game("ardennes44")``)."""
    return load_game_folder(game_folder(game_id))
