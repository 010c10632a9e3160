"""The ``umpire`` command: run the bot, play at the terminal, replay and verify games, validate data, draw maps.

Every subcommand answers bad input with one clear sentence and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.service.version import bot_version

if TYPE_CHECKING:
    from bot.store.sqlite import SqliteStore
    from bot.systems.base import DataTools


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="umpire",
        description="Umpire referees hex-and-counter wargames in Discord. Every subcommand but `run` works without "
        "Discord; `umpire COMMAND --help` explains each.",
    )
    parser.add_argument("--version", action="version", version=f"umpire {bot_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    validate = commands.add_parser(
        "validate",
        help="check a game's data files and list every problem",
        description="Load a bundled game (by id) or a folder of game data and report every problem found, "
        "each with its file and entry. Exit status 0 when the data is sound.",
    )
    validate.add_argument("game", help=_readable())

    render = commands.add_parser(
        "render",
        help="draw a game's map to a PNG file",
        description="Draw a game's map with its terrain, rivers, roads and names; with --setup, the counters of "
        "the initial setup too.",
    )
    render.add_argument("game", help=_readable(drawing=True))
    render.add_argument("--setup", action="store_true", help="place the counters of the initial setup")
    render.add_argument("--out", required=True, type=Path, help="the PNG file to write")
    render.add_argument(
        "--around",
        metavar="HEX",
        help="draw a close-up around this hex (four digits, e.g. 1817) instead of the whole map",
    )
    render.add_argument("--radius", type=int, default=4, help="close-up radius in hexes (default 4)")
    add_bot_commands(commands)
    return parser


def add_bot_commands(commands: Any) -> None:
    """The subcommands of the bot: run, local, replay, verify, health, migrate-db, record."""
    from bot.systems import registry

    _add_run(commands)
    _add_local(commands, list(registry()))
    _add_replay(commands)
    _add_verify(commands)
    _add_health(commands)
    _add_migrate_db(commands)
    _add_record(commands)


def _add_run(commands: Any) -> None:
    """``umpire run``: the Discord bot."""
    run = commands.add_parser(
        "run",
        help="run the Discord bot",
        description="Connect to Discord and referee games. The token comes from DISCORD_TOKEN (or --token); "
        "games are kept in a SQLite file (UMPIRE_DB or --db, default umpire.sqlite3 in the working directory, "
        "WAL mode). UMPIRE_GUILD (or --guild) syncs the slash commands to one server at once, for testing; "
        "UMPIRE_MODERATOR_ROLE names the moderators' role (default 'Umpire moderator'); "
        "UMPIRE_REMINDER_MINUTES sets how often correspondence reminders are checked (default 10); "
        "UMPIRE_PICTURE_WORKERS how many worker processes draw the map pictures (default: cores - 1, 1 to 4); "
        "UMPIRE_STATE_CACHE_MB the memory kept games' states may take (default 32).",
    )
    run.add_argument("--token", help="the bot token (default: $DISCORD_TOKEN); prefer the variable")
    run.add_argument("--db", help="the SQLite file (default: $UMPIRE_DB or umpire.sqlite3)")
    run.add_argument("--guild", help="a server id to sync the commands to (default: $UMPIRE_GUILD; else global)")


def _add_local(commands: Any, systems: list[str]) -> None:
    """``umpire local``: a game at the terminal (``systems``: the game systems it may play)."""
    local = commands.add_parser(
        "local",
        help="play a game at the terminal, two seats hot-seat, without Discord",
        description="Play at the terminal with the same commands and answers as in Discord (type 'help'). "
        "Map pictures are written to files in --out-dir. With --script, play a transcript of commands "
        "(one per line, '#' for comments) without a terminal: for tests and bug reports.",
    )
    local.add_argument("--script", type=Path, help="a file of commands to play, one per line")
    local.add_argument("--scenario", help="the scenario (default: the game's first)")
    local.add_argument(
        "--options",
        default="",
        help="optional rules, separated by commas; for a campaign game (--system asl) its settings as key=value "
        "separated by ';', e.g. 'start=17N; elr=allied=5 german=3; san=allied=3 german=4'",
    )
    local.add_argument(
        "--system",
        "--game",
        dest="system",
        help=f"the game system or game: {', '.join(systems)} (default: the first)",
    )
    local.add_argument("--out-dir", type=Path, default=Path("."), help="where map pictures go (default: here)")
    local.add_argument(
        "--db",
        default="umpire-local.sqlite3",
        help="the SQLite file the game is kept in, for `umpire verify` and `umpire replay` afterwards "
        "(default: umpire-local.sqlite3 here; :memory: keeps nothing)",
    )
    local.add_argument("--no-pictures", action="store_true", help="do not draw map pictures")
    local.add_argument(
        "--ai",
        action="append",
        default=[],
        metavar="SEAT",
        help="give this seat to the computer (repeat for several: every seat plays a whole game computer against "
        "computer to its result)",
    )
    local.add_argument("--level", help="how well the computer plays (default: normal); see docs/playing.md")


def _add_replay(commands: Any) -> None:
    """``umpire replay``: a stored game rebuilt from its log."""
    replay = commands.add_parser(
        "replay",
        help="rebuild a game from its action log and report where it stands",
        description="Replay every accepted action of a stored game with the rules, from its set-up (the seed and "
        "the scenario), never from a stored snapshot, and print the final position. The file first gets SQLite's "
        "quick check of every page (`umpire run` checks only the tables it needs to start).",
    )
    replay.add_argument("game", type=int, help="the game number (shown at its creation)")
    replay.add_argument("--db", help="the SQLite file (default: $UMPIRE_DB or umpire.sqlite3)")
    replay.add_argument("--pictures", type=Path, help="write the picture of every activation to this folder")
    replay.add_argument("--seat", help="with --pictures: the side whose view to draw (default: the public view)")


def _add_verify(commands: Any) -> None:
    """``umpire verify``: a finished game's four checks."""
    verify = commands.add_parser(
        "verify",
        help="check a finished game: its hash chain, every die, every sealed decision, and a rules replay",
        description="Check a finished game in four layers, each reported apart: the revealed seed against the hash "
        "posted at its creation and the log's hash chain; every die recomputed from the seed and its number, "
        "without the rules; every sealed decision's receipt recomputed from what was revealed; and a replay with "
        "the rules from the set-up, comparing events by their data. Actions played under an older rules version "
        "are reported as such (exit status 0); any tampering fails (exit status 1). The file first gets SQLite's "
        "quick check of every page (`umpire run` checks only the tables it needs to start).",
    )
    verify.add_argument("game", type=int, help="the game number")
    verify.add_argument("--db", help="the SQLite file (default: $UMPIRE_DB or umpire.sqlite3)")
    verify.add_argument(
        "--head",
        action="append",
        default=[],
        metavar="HEX",
        help="a chain head the bot posted in the channel (its first 16 digits with a map during the game, all 64 at "
        "the end): it must be a point of the stored log's chain, or the log was changed after it was posted "
        "(repeat for several)",
    )


def _add_health(commands: Any) -> None:
    """``umpire health``: whether a running bot is connected."""
    health = commands.add_parser(
        "health",
        help="say whether a running bot is connected to Discord (for a health check)",
        description="Read the heartbeat file the bot writes every 30 s while connected (UMPIRE_HEALTH_FILE): exit "
        "status 0 when it was written within --max-age seconds, 1 otherwise (the Docker image's HEALTHCHECK).",
    )
    health.add_argument("--file", help="the heartbeat file (default: $UMPIRE_HEALTH_FILE)")
    health.add_argument("--max-age", type=float, default=120.0, help="seconds (default 120: four missed beats)")


def _add_migrate_db(commands: Any) -> None:
    """``umpire migrate-db``: a SQLite file copied into PostgreSQL."""
    migrate = commands.add_parser(
        "migrate-db",
        help="copy every game, league and secret of a SQLite file into an empty PostgreSQL database",
        description="Move a host to PostgreSQL (docs/hosting.md, Scaling out): every table of the SQLite file "
        "(games with their logs, hash chains, snapshots and secrets; seats, reminders, leagues, preferences) is "
        "copied with its ids into an empty PostgreSQL database, then each game is read back from both and "
        "compared, and its chain checked. Stop the bot first. Exit status 0 when every game checks.",
    )
    migrate.add_argument("--from", dest="source", required=True, help="the SQLite file")
    migrate.add_argument("--to", dest="target", required=True, help="postgresql://user:password@host/database")


def _add_record(commands: Any) -> None:
    """``umpire record``: a game's record as one web page."""
    record = commands.add_parser(
        "record",
        help="write a game's record: one self-contained web page with the map at every activation and the checks",
        description="Write one HTML file that needs nothing but a browser: the map after each activation (stepped with "
        "a slider or the arrow keys), the log beside it, where the game stands, charts of losses, objectives and dice "
        "luck, and the verification of every die, link of the hash chain and sealed receipt, recomputed in the "
        "browser. Before the end it shows what --seat may see (default: a spectator's view) and the dice checks await "
        "the seed; after the end everything. The file gets the integrity check `umpire run` makes.",
    )
    record.add_argument("game", type=int, help="the game number")
    record.add_argument("--out", required=True, type=Path, help="the HTML file to write")
    record.add_argument("--seat", help="whose view (default: a spectator's)")
    record.add_argument("--db", help="the SQLite file (default: $UMPIRE_DB or umpire.sqlite3)")


def _tools(game: str, drawing: bool = False) -> DataTools | None:
    """The data tools that read ``game`` (:func:`bot.systems.data_tools`), with ``drawing`` those that draw its
    map; ``None`` once the reason is printed."""
    from bot.systems import all_data_tools, data_tools

    tools = data_tools(game)
    if tools is None:
        bundled = ", ".join(g for t in all_data_tools() for g in t.games)
        print(f"umpire: no bundled game, folder or data file called {game!r}; bundled: {bundled}", file=sys.stderr)
        return None
    if drawing and not tools.draws:
        print(f"umpire: `umpire render` draws {_readable(drawing=True)}; not {game}", file=sys.stderr)
        return None
    return tools


def _readable(drawing: bool = False) -> str:
    """What ``umpire validate`` reads (with ``drawing``, what ``umpire render`` draws), in words: each system's
    bundled games, then the paths it reads."""
    from bot.systems import all_data_tools

    tools = [t for t in all_data_tools() if t.draws or not drawing]
    words = [f"a bundled game ({', '.join(g for t in tools for g in t.games)})", *(t.files for t in tools if t.files)]
    return f"{', '.join(words[:-1])} or {words[-1]}" if len(words) > 1 else "".join(words)


def run_validate(args: argparse.Namespace) -> int:
    tools = _tools(args.game)
    if tools is None:
        return 1
    report = tools.validate(args.game)
    print(report.text, file=sys.stdout if report.sound else sys.stderr)
    return 0 if report.sound else 1


def run_render(args: argparse.Namespace) -> int:
    from bot.systems.base import DataError

    tools = _tools(args.game, drawing=True)
    if tools is None:
        return 1
    try:
        png = tools.render(args.game, args.setup, args.around, args.radius)
    except DataError as error:
        print(error, file=sys.stderr)
        return error.status
    try:
        args.out.write_bytes(png)
    except OSError as error:
        print(f"umpire: cannot write {args.out}: {error.strerror}", file=sys.stderr)
        return 1
    print(f"wrote {args.out} ({len(png) // 1024} KiB)")
    return 0


def run_bot(args: argparse.Namespace) -> int:
    from bot.service.config import Settings
    from bot.transports.discord_app import run

    try:
        settings = Settings.from_env(token=args.token, db=args.db, guild=args.guild)
    except ValueError as error:
        print(f"umpire: {error}", file=sys.stderr)
        return 2
    if not settings.token:
        print(
            "umpire: no Discord token. Set DISCORD_TOKEN (or pass --token); see docs/hosting.md for how to get one.",
            file=sys.stderr,
        )
        return 2
    return run(settings)


def run_local(args: argparse.Namespace) -> int:
    from bot.service.game_service import Refusal
    from bot.store.records import StoreOpenError
    from bot.systems import systems
    from bot.transports.console import play

    lines = None
    if args.script is not None:
        try:
            lines = args.script.read_text(encoding="utf-8").splitlines()
        except OSError as error:
            print(f"umpire: cannot read {args.script}: {error.strerror}", file=sys.stderr)
            return 1
    try:
        asyncio.run(
            play(
                systems(),
                scenario=args.scenario,
                options=args.options,
                script=lines,
                out_dir=args.out_dir,
                db=args.db,
                pictures=not args.no_pictures,
                system=args.system,
                ai=tuple(args.ai),
                level=args.level,
            )
        )
    except KeyboardInterrupt:
        return 130
    except (Refusal, StoreOpenError) as error:
        print(f"umpire: {error}", file=sys.stderr)
        return 1
    return 0


def _database(args: argparse.Namespace) -> str | None:
    from bot.service.config import Settings
    from bot.store.opening import is_server

    path = Settings.from_env(db=args.db).db
    if not is_server(path) and not Path(path).is_file():
        print(f"umpire: no database at {path} (set --db or UMPIRE_DB)", file=sys.stderr)
        return None
    return path


async def _open_to_read(path: str) -> SqliteStore | None:
    """The store at ``path`` opened to be read, after the quick check of every page (no write test, so a
    read-only copy can be checked); ``None``, with the one sentence said, when it cannot be used."""
    from bot.store.opening import open_store
    from bot.store.records import StoreError

    try:
        return await open_store(path, check=True, writes=False, every_page=True)
    except StoreError as error:
        print(f"umpire: {error}", file=sys.stderr)
        return None


def run_replay(args: argparse.Namespace) -> int:
    from bot.service import verification
    from bot.service.game_service import GameService
    from bot.store.records import StoreError
    from bot.systems import systems
    from engine.contract import RulesError

    path = _database(args)
    if path is None:
        return 1

    async def replay() -> int:
        store = await _open_to_read(path)
        if store is None:
            return 1
        try:
            try:
                game = await store.game(args.game)
            except ValueError:
                print(f"umpire: the stored setup of game #{args.game} is not readable", file=sys.stderr)
                return 1
            if game is None:
                print(f"umpire: there is no game #{args.game} in {path}", file=sys.stderr)
                return 1
            service = GameService(store, systems())
            try:
                system = service.system(game.system)
            except RulesError as error:
                print(f"umpire: {error}", file=sys.stderr)
                return 1
            actions = await store.actions(game.id)
            try:
                state = await asyncio.to_thread(verification.from_setup, system, game, actions)
                status = system.describe(state, None, "status", "")
            except (RulesError, LookupError, ValueError, TypeError) as error:  # a log edited by hand, older rules
                why = f"umpire: game #{game.id} does not replay: {error}; see `umpire verify {game.id}`"
                print(why, file=sys.stderr)
                return 1
            print(
                f"Game #{game.id} ({game.system}, {game.scenario}): {game.status}; {len(actions)} actions replayed "
                "from the set-up."
            )
            print(status)
            if game.result:
                print(f"Result: {game.result.get('text')}")
            if args.pictures:
                return await write_pictures(service, game, args.pictures, args.seat)
            return 0
        except (StoreError, sqlite3.DatabaseError) as error:
            print(f"umpire: {_damaged(path, error)}", file=sys.stderr)
            return 1
        finally:
            await store.close()

    return asyncio.run(replay())


def _damaged(path: str, error: Exception) -> str:
    """The one sentence for a store that fails while it is read (a damaged page found late)."""
    if isinstance(error, sqlite3.DatabaseError) and not isinstance(error, sqlite3.OperationalError):
        return f"cannot use the database {path}: it is damaged ({error}); restore it from a backup (docs/hosting.md)"
    return str(error)


async def write_pictures(service: Any, game: Any, folder: Path, seat: str | None) -> int:
    """``umpire replay GAME --pictures DIR``: every activation's picture, rebuilt from the log, as ``seat`` saw
    it (``None``: what both sides saw), one PNG each."""
    system = service.system(game.system)
    draw = getattr(system, "activation_pictures", None)
    if draw is None:
        print(f"umpire: {system.name} draws no pictures of activations", file=sys.stderr)
        return 1
    if seat is not None and seat not in system.seats:
        print(f"umpire: there is no seat {seat!r}; the seats are {', '.join(system.seats)}", file=sys.stderr)
        return 1
    state = await service.state(game)
    log = await service.seat_log(game, seat)
    folder.mkdir(parents=True, exist_ok=True)

    def write_all() -> int:
        count = 0
        for name, png in draw(state, seat, log):
            (folder / name).write_bytes(png)
            count += 1
        return count

    written = await asyncio.to_thread(write_all)
    print(f"{written} activation picture(s) written to {folder}")
    return 0


def run_verify(args: argparse.Namespace) -> int:
    from bot.commands.game_life import verification_text
    from bot.service.game_service import GameService, Refusal
    from bot.store.records import StoreError
    from bot.systems import systems

    path = _database(args)
    if path is None:
        return 1
    heads = [h.strip().lower() for h in args.head]
    bad = [h for h in heads if not 16 <= len(h) <= 64 or any(c not in "0123456789abcdef" for c in h)]
    if bad:
        print(
            f"umpire: --head takes a chain head as the bot posted it (16 to 64 hexadecimal digits), not {bad[0]!r}",
            file=sys.stderr,
        )
        return 2

    async def verify() -> int:
        store = await _open_to_read(path)
        if store is None:
            return 1
        try:
            checked = await GameService(store, systems()).verify(args.game, heads)
        except (Refusal, StoreError, sqlite3.DatabaseError) as error:
            print(f"umpire: {_damaged(path, error)}", file=sys.stderr)
            return 1
        finally:
            await store.close()
        print(verification_text(checked).replace("`", ""))
        return 1 if checked.problems else 0

    return asyncio.run(verify())


def run_health(args: argparse.Namespace) -> int:
    """Whether the bot wrote its heartbeat lately (:mod:`bot.transports.cogs.heartbeat`)."""
    import os
    import time

    path = args.file or os.environ.get("UMPIRE_HEALTH_FILE")
    if not path:
        print("umpire: no heartbeat file (set UMPIRE_HEALTH_FILE for the bot and for this command)", file=sys.stderr)
        return 2
    try:
        age = time.time() - Path(path).stat().st_mtime
    except OSError:
        print(f"umpire: no heartbeat at {path}: the bot is not connected (yet)", file=sys.stderr)
        return 1
    if age > args.max_age:
        print(f"umpire: the last heartbeat is {age:.0f} s old: the bot is not connected", file=sys.stderr)
        return 1
    print(f"connected (heartbeat {age:.0f} s ago)")
    return 0


def run_migrate_db(args: argparse.Namespace) -> int:
    """Copy every game, league and secret of a SQLite file into an empty PostgreSQL database, then check each
    copied game against the file."""
    from bot.store.copying import copy_store
    from bot.store.opening import is_server, open_store
    from bot.store.records import StoreError

    if not Path(args.source).is_file():
        print(f"umpire: no database at {args.source}", file=sys.stderr)
        return 1
    if not is_server(args.target):
        print("umpire: --to must be a PostgreSQL address (postgresql://user:password@host/database)", file=sys.stderr)
        return 2

    async def move() -> int:
        try:
            source = await open_store(args.source, check=True, writes=False)
        except StoreError as error:
            print(f"umpire: {error}", file=sys.stderr)
            return 1
        try:
            target = await open_store(args.target, check=True)
        except StoreError as error:
            await source.close()
            print(f"umpire: {error}", file=sys.stderr)
            return 1
        try:
            report = await copy_store(source, target)
        except StoreError as error:
            print(f"umpire: {error}", file=sys.stderr)
            return 1
        finally:
            await source.close()
            await target.close()
        copied = ", ".join(f"{n} {table}" for table, n in report.rows.items() if n)
        print(f"copied {copied or 'nothing'} to {target.path}")
        for problem in report.problems:
            print(f"umpire: {problem}", file=sys.stderr)
        if report.problems:
            return 1
        print(f"checked {report.games_checked} game(s): each reads the same in the copy and its chain holds")
        return 0

    return asyncio.run(move())



def run_record(args: argparse.Namespace) -> int:
    from bot.service.game_service import GameService, Refusal
    from bot.service.record import record_html
    from bot.store.records import StoreError
    from bot.systems import systems

    path = _database(args)
    if path is None:
        return 1

    async def record() -> int:
        store = await _open_to_read(path)
        if store is None:
            return 1
        try:
            html = await record_html(GameService(store, systems()), args.game, args.seat)
        except (Refusal, StoreError, sqlite3.DatabaseError) as error:
            print(f"umpire: {_damaged(path, error)}", file=sys.stderr)
            return 1
        finally:
            await store.close()
        try:
            args.out.write_text(html, encoding="utf-8")
        except OSError as error:
            print(f"umpire: cannot write {args.out}: {error.strerror}", file=sys.stderr)
            return 1
        print(f"wrote {args.out} ({len(html.encode()) // 1024} KiB): open it in any browser")
        return 0

    return asyncio.run(record())

def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``umpire`` console script."""
    args = build_parser().parse_args(argv)
    handlers = {
        "validate": run_validate,
        "render": run_render,
        "run": run_bot,
        "local": run_local,
        "replay": run_replay,
        "verify": run_verify,
        "migrate-db": run_migrate_db,
        "health": run_health,
        "record": run_record,
    }
    return handlers[args.command](args)


if __name__ == "__main__":
    raise SystemExit(main())
