"""The console: the same commands at the terminal, hot-seat, and transcripts played from a file."""

from __future__ import annotations

import io
from pathlib import Path

from bot.cli import main
from bot.console import play
from tests.bot.doubles import duel_systems, require_ardennes

SCRIPT = """
# both players bid; red moves first
choose 2
choose 1
act advance steps=3
act advance steps=1
act advance steps=2
game undo
attack line x
ok
choose 2
act advance steps=2
log
""".splitlines()


async def test_a_script_plays_a_game_hot_seat(tmp_path: Path) -> None:
    out = io.StringIO()
    console = await play(duel_systems(), scenario="standard", script=SCRIPT, out=out, out_dir=tmp_path)
    text = out.getvalue()
    assert "Bids revealed: red 2, blue 1" in text
    assert "Refused: At most two advances per turn (rule D.2)." in text
    assert "took back their last action: advance steps=1" in text
    assert "--- blue (player2) to decide ---" in text
    assert "#7 blue advance: blue advances 2." in text
    assert console.pictures_written and console.pictures_written[0].read_bytes().startswith(b"\x89PNG")


def test_umpire_local_script_plays_ardennes(tmp_path: Path, capsys: object) -> None:
    require_ardennes()
    script = tmp_path / "game.txt"
    script.write_text("game status\nchoose 999\nmove units=nothing to=0000\noob\n", encoding="utf-8")
    assert main(["local", "--script", str(script), "--no-pictures", "--out-dir", str(tmp_path)]) == 0
    text = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "Game #1 created" in text and "Support phase" in text
    assert "Refused: The option 'number' must be a whole number from 1 to 500." in text
    assert "is not an action of the support phase" in text


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
