"""The ``umpire`` command: validate game data and draw maps (more subcommands arrive with the bot).

Every subcommand answers bad input with one clear sentence and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.vaevictis.data import GameData


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="umpire",
        description="Umpire referees hex-and-counter wargames in Discord. These subcommands work without Discord.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    validate = commands.add_parser(
        "validate",
        help="check a game's data files and list every problem",
        description="Load a bundled game (by id) or a folder of game data and report every problem found, "
        "each with its file and entry. Exit status 0 when the data is sound.",
    )
    validate.add_argument("game", help="a bundled game id (ardennes44) or the path of a game folder")

    render = commands.add_parser(
        "render",
        help="draw a game's map to a PNG file",
        description="Draw a game's map with its terrain, rivers, roads and names; with --setup, the counters of "
        "the initial setup too.",
    )
    render.add_argument("game", help="a bundled game id (ardennes44) or the path of a game folder")
    render.add_argument("--setup", action="store_true", help="place the counters of the initial setup")
    render.add_argument("--out", required=True, type=Path, help="the PNG file to write")
    render.add_argument(
        "--around",
        metavar="HEX",
        help="draw a close-up around this hex (four digits, e.g. 1817) instead of the whole map",
    )
    render.add_argument("--radius", type=int, default=4, help="close-up radius in hexes (default 4)")
    return parser


def load(game: str) -> GameData:
    """Load a bundled game by id, or a game folder by path."""
    from scenarios import VAE_VICTIS_GAMES, load_game, load_game_folder

    if game in VAE_VICTIS_GAMES:
        return load_game(game)
    folder = Path(game)
    if not folder.is_dir():
        raise SystemExit(f"umpire: no bundled game or folder called {game!r}; bundled: {', '.join(VAE_VICTIS_GAMES)}")
    return load_game_folder(folder)


def run_validate(args: argparse.Namespace) -> int:
    from engine.vaevictis.loader import ScenarioError

    try:
        data = load(args.game)
    except ScenarioError as error:
        print(f"{args.game}: {len(error.problems)} problem(s)", file=sys.stderr)
        for problem in error.problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    steps = {side: 0 for side in ("german", "allied")}
    for unit_id, unit in data.units.items():
        steps[data.side_of(unit_id)] += unit.steps
    print(
        f"{data.name}: sound. {len(data.map.grid.hexes)} hexes, {len(data.map.places)} places, "
        f"{len(data.map.rivers)} rivers, {len(data.map.roads)} roads; {len(data.units)} counters "
        f"(German {steps['german']} steps, Allied {steps['allied']} steps); "
        f"scenarios: {', '.join(s.name for s in data.scenarios.values())}."
    )
    return 0


def run_render(args: argparse.Namespace) -> int:
    from render.picture import MapPicture, setup_picture
    from render.snapshot import render_map, to_png

    from engine.hexgrid import parse_hex
    from engine.vaevictis.loader import ScenarioError

    try:
        data = load(args.game)
    except ScenarioError as error:
        print(f"umpire: the data of {args.game} is broken; run 'umpire validate {args.game}'", file=sys.stderr)
        print(f"  first problem: {error.problems[0]}", file=sys.stderr)
        return 1
    picture = setup_picture(data) if args.setup else MapPicture(game_map=data.map, title=data.name)
    region = None
    if args.around:
        try:
            center = parse_hex(args.around)
        except ValueError as error:
            print(f"umpire: {error}", file=sys.stderr)
            return 2
        if not data.map.grid.contains(center):
            print(f"umpire: hex {args.around} is not on the {data.name} map", file=sys.stderr)
            return 2
        region = (center, max(1, args.radius))
    png = to_png(render_map(picture, region=region))
    try:
        args.out.write_bytes(png)
    except OSError as error:
        print(f"umpire: cannot write {args.out}: {error.strerror}", file=sys.stderr)
        return 1
    print(f"wrote {args.out} ({len(png) // 1024} KiB)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``umpire`` console script."""
    args = build_parser().parse_args(argv)
    handlers = {"validate": run_validate, "render": run_render}
    return handlers[args.command](args)


if __name__ == "__main__":
    raise SystemExit(main())
