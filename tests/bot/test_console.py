"""The console: the same commands at the terminal, hot-seat, and transcripts played from a file."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from bot.transports.cli import main
from bot.transports.console import play
from tests.bot.console_script import SCRIPT
from tests.bot.doubles import duel_systems, require_ardennes


async def test_a_script_plays_a_game_hot_seat(tmp_path: Path) -> None:
    out = io.StringIO()
    console = await play(duel_systems(), scenario="standard", script=SCRIPT, out=out, out_dir=tmp_path)
    text = out.getvalue()
    assert "Bids revealed: red 2, blue 1" in text
    assert "Refused: At most two advances per turn (rule D.2)." in text
    assert "took back their last action:\n- red advances 1." in text
    assert "--- blue (player2) to decide ---" in text
    assert "#7 blue advance: blue advances 2." in text
    assert console.pictures_written and console.pictures_written[0].read_bytes().startswith(b"\x89PNG")


def test_umpire_local_script_plays_ardennes(tmp_path: Path, capsys: object) -> None:
    require_ardennes()
    script = tmp_path / "game.txt"
    script.write_text("game status\nchoose 999\nmove units=nothing to=0000\noob\n", encoding="utf-8")
    db = str(tmp_path / "local.sqlite3")
    assert main(["local", "--script", str(script), "--no-pictures", "--out-dir", str(tmp_path), "--db", db]) == 0
    text = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "Game #1 created" in text and "Support phase" in text
    assert "Refused: The option 'number' must be a whole number from 1 to 500." in text
    assert "is not an action of the support phase" in text


CONSOLE_SCRIPT = """
help move
act end_support
act end_support
units
arrivals
activate "I SS Panzerkorps"
unit Mueller/12
unit Mulleer/12
map overlay:zoc
as allied
choose 1
choose 1
cancel
""".splitlines()


async def test_the_console_speaks_names_switches_to_required_decisions_and_keeps_its_numbers(tmp_path: Path) -> None:
    require_ardennes()
    from bot.systems import systems

    out = io.StringIO()
    db = str(tmp_path / "local.sqlite3")
    console = await play(systems(), script=CONSOLE_SCRIPT, out=out, out_dir=tmp_path, db=db, pictures=False)
    text = out.getvalue()
    assert "Example: move units=" in text  # help COMMAND explains with an example
    assert "--- allied (player2) to decide ---" in text  # the other seat's support phase is required
    # The allied event prompt is optional: the console stays with the german, who must act.
    assert "--- allied" not in text.split("- The German player has the initiative")[1].split("allied> choose")[0]
    assert "HQ I SS PzK (hq-de-i-ss-pzk)" in text  # `units` lists ids
    assert "German activates I SS Panzerkorps." in text  # a formation by its name
    assert "Müller/12 (de-12-ss-mueller): strength" in text  # a unit by its name spelled without umlaut
    assert "Did you mean 'Müller/12 (de-12-ss-mueller)'?" in text  # an unknown name suggests the closest
    assert "with the zoc overlay" in text  # Discord's option:value syntax
    # A number refers to the choices the player read: the activation changed the allied reactions (new
    # Roadblock hexes), so the first `choose 1` is refused and the choices shown again; the second one
    # says what it plays before playing it.
    first, second = text.split("allied> choose 1")[1:3]
    assert "have changed since they were shown; nothing changed. Now:\n[1] Nuts! at" in first
    assert "Choice 1 plays: **Nuts! at" in second and "Cancelled; nothing changed." in text
    assert console.refusals >= 2


def test_a_console_game_is_kept_in_its_file_for_umpire_verify(tmp_path: Path) -> None:
    require_ardennes()
    from bot.systems import systems

    db = tmp_path / "local.sqlite3"
    out, again = io.StringIO(), io.StringIO()
    asyncio.run(play(systems(), script=["game resign", "ok"], out=out, db=str(db), pictures=False))
    assert f"`umpire verify 1 --db {db}`" in out.getvalue()
    assert main(["verify", "1", "--db", str(db)]) == 0
    asyncio.run(play(systems(), script=["game status"], out=again, db=str(db), pictures=False))
    assert "**Game #2**" in again.getvalue()  # a second game in the same file gets its own table


async def test_11_show_opens_each_seats_own_choices_at_any_time(tmp_path: Path) -> None:
    require_ardennes()
    from bot.systems import systems

    out = io.StringIO()
    script = ["show allied", "show german", "show", "show nobody", "help"]
    console = await play(
        systems(), scenario="initial-assault", options="fog_of_war", script=script, out=out, out_dir=tmp_path,
        pictures=False,
    )  # fmt: skip
    text = out.getvalue()
    allied, german = text.split("> show allied", 1)[1].split("> show german", 1)
    assert "(only you) **allied**: Support phase" in allied and "to HQ" in allied
    assert "(only you) **german**: Support phase" in german
    assert german.count("(only you) **german**: Support phase") == 2  # `show` again, for the seat typing now
    assert "Refused: the seats are german, allied." in text and "show [SEAT]" in text
    assert console.current == "german"


async def test_a_misspelt_option_is_refused_with_the_options_the_command_takes(tmp_path: Path) -> None:
    """A `key=value` whose key the command does not take is refused with its options and the closest one,
    never passed on as the value of another option; a misspelt action argument in `act` is refused too."""
    out = io.StringIO()
    script = ["choose 2", "choose 1", "attack target=line atackers=all", "act advance stepz=3", "act advance steps=3"]
    console = await play(duel_systems(), scenario="standard", script=script, out=out, out_dir=tmp_path)
    text = out.getvalue()
    assert "`attack` has no option atackers (did you mean attackers?); it takes " in text
    assert "Unknown argument stepz (did you mean steps?): advance takes steps; nothing changed." in text
    assert "red advances 3" in text and console.refusals == 2


def test_a_misspelt_name_is_matched_to_the_name_written_inside_it() -> None:
    """`attacker_quality=` meant `quality=` (the name written inside it), not `attackers`."""
    from engine.arguments import closest

    assert closest("attacker_quality", ["attackers", "target", "kind", "quality"]) == "quality"
    assert closest("atackers", ["attackers", "target"]) == "attackers"
    assert closest("zzz", ["attackers", "target"]) is None


async def test_the_console_knows_the_league_commands_as_the_docs_say(tmp_path: Path) -> None:
    out = io.StringIO()
    script = [
        "league create name=Club scenario=short system=duel rounds=1",
        "league join side=red",
        "as blue",
        "league join",
        "league close",
        "league standings",
        "league round",
        "league cancel reason=tested",
    ]
    await play(duel_systems(), scenario="standard", script=script, out=out, out_dir=tmp_path)
    text = out.getvalue()
    assert "League Club** opens" in text and "player1 joins Club" in text and "player2 joins Club" in text
    assert "registration closed with 2 players" in text and "standings before round 1 of 1" in text
    assert "a league round opens a thread per game: run it on discord" in text.lower()
    assert "Club** is cancelled" in text


HABITS_SCRIPT = """
act end_support
act end_support
activate I SS Panzerkorps
unit HQ I SS PzK
unit HQ I SS PzK extra=1
as allied
hex 2510
units
attackers 2510
attackers
""".splitlines()


async def test_console_habits_names_with_spaces_the_seat_kept_and_attackers(tmp_path: Path) -> None:
    """Issue 33: a name with spaces needs no quotes; after `as allied` an information command leaves the allied
    seat at the keyboard; `attackers HEX` lists the units that may attack a hex (or says none may)."""
    require_ardennes()
    from bot.systems import systems

    out = io.StringIO()
    await play(systems(), script=HABITS_SCRIPT, out=out, out_dir=tmp_path, pictures=False)
    text = out.getvalue()
    assert "German activates I SS Panzerkorps." in text  # a formation's name unquoted
    assert "HQ I SS PzK (hq-de-i-ss-pzk)" in text.split("german> unit HQ I SS PzK")[1]
    assert "allied> units" in text and "allied> attackers 2510" in text  # `hex` kept the allied seat
    assert "None of your units may attack 2510 now (7.1" in text
    assert "Refused: say which hex, e.g. `attackers 0915`." in text


async def test_a_choice_may_be_named_rather_than_numbered(tmp_path: Path) -> None:
    """Issue 33: `choose WORDS` names a choice by its label, which no renumbering changes; words that name
    none or several are refused with the candidates."""
    require_ardennes()
    from bot.systems import systems

    script = ["act end_support", "act end_support", "choose Zzz", "choose activate", "choose general activation"]
    out = io.StringIO()
    await play(systems(), script=script, out=out, out_dir=tmp_path, pictures=False)
    text = out.getvalue()
    assert "Refused: none of the choices shown to german is 'Zzz'" in text
    assert "Refused: 'activate' names several choices; give its number or more words:" in text
    assert "German makes a general activation of up to 3 units." in text
