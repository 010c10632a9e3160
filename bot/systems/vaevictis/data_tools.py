"""The command line's tools for a Vae Victis game's data (``umpire validate``, ``umpire render``): a bundled game
(Ardennes 1944, Alsace 1944) by id, or a league's own game folder by path (docs/scenario-format.md).

Light on purpose, like the room: the engine, the data and the renderer are imported when a tool runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from bot.systems.base import DataError, DataReport, DataTools

if TYPE_CHECKING:
    from engine.vaevictis.data import GameData

VAE_VICTIS_GAMES = ("ardennes44", "alsace44")
"""The bundled games (``scenarios.VAE_VICTIS_GAMES``, not imported here: it loads the engine)."""


class VaeVictisDataTools(DataTools):
    """Checks and draws a Vae Victis game: its map, places, rivers and roads, its counters and scenarios."""

    games = VAE_VICTIS_GAMES
    files = "the path of a game folder"
    draws = True

    def reads(self, path: Path) -> bool:
        return path.is_dir()

    def validate(self, game: str) -> DataReport:
        from engine.vaevictis.detachments import is_detachment_marker
        from engine.vaevictis.game import VaeVictisGame
        from engine.vaevictis.loader import ScenarioError
        from engine.vaevictis.set_up_checks import set_up_problems

        try:
            data = _load(game)
        except ScenarioError as error:
            problems = "".join(f"\n  {problem}" for problem in error.problems)
            return DataReport(False, f"{game}: {len(error.problems)} problem(s){problems}")
        printed = [u for u in data.units if not is_detachment_marker(u)]
        steps = {side: 0 for side in ("german", "allied")}
        for unit_id in printed:
            steps[data.side_of(unit_id)] += data.units[unit_id].steps
        return DataReport(
            True,
            f"{data.name}: sound. {len(data.map.grid.hexes)} hexes, {len(data.map.places)} places, "
            f"{len(data.map.rivers)} rivers, {len(data.map.roads)} roads; {len(printed)} counters "
            f"and {len(data.units) - len(printed)} detachment markers "
            f"({data.side_name('german')} {steps['german']} steps, "
            f"{data.side_name('allied')} {steps['allied']} steps); "
            f"scenarios: {', '.join(s.name for s in data.scenarios.values())}."
            + "".join(f"\n  set-up warning: {problem}" for problem in set_up_problems(VaeVictisGame(data))),
        )

    def render(self, game: str, setup: bool, around: str | None, radius: int) -> bytes:
        from engine.hexgrid import parse_hex
        from engine.vaevictis.loader import ScenarioError
        from render.picture import MapPicture, setup_picture
        from render.snapshot import render_map, to_png

        try:
            data = _load(game)
        except ScenarioError as error:
            raise DataError(
                f"umpire: the data of {game} is broken; run 'umpire validate {game}'\n"
                f"  first problem: {error.problems[0]}"
            ) from error
        region = None
        if around:
            try:
                center = parse_hex(around)
            except ValueError as error:
                raise DataError(f"umpire: {error}", 2) from error
            if not data.map.grid.contains(center):
                raise DataError(f"umpire: hex {around} is not on the {data.name} map", 2)
            region = (center, max(1, radius))
        picture = setup_picture(data) if setup else MapPicture(game_map=data.map, title=data.name)
        return to_png(render_map(picture, region=region))


def _load(game: str) -> GameData:
    """A bundled game by id, or a game folder by path.

    :raises ScenarioError: listing every problem of the data, each with its file and entry.
    """
    from scenarios import load_game, load_game_folder

    return load_game(game) if game in VAE_VICTIS_GAMES else load_game_folder(Path(game))
