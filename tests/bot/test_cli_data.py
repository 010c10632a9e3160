"""`umpire validate` and `umpire render` on every bundled game and on a game folder: the answers the command
line gives, each exit status, and every bad input refused with one sentence (the CLI asks each system's data
tools through the registry, bot/systems/base.py: DataTools)."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

import pytest
from PIL import Image

import scenarios.asl
from bot.systems import all_data_tools, data_tools
from bot.transports.cli import main
from scenarios import ROOT, VAE_VICTIS_GAMES
from scenarios.asl import MODULES
from scenarios.wargame_commander import BOARDS


def folder_copy(tmp_path: Path, game: str = "ardennes44") -> Path:
    """A league's own game folder: a copy of a bundled game's files."""
    folder = tmp_path / "league-game"
    shutil.copytree(ROOT / game, folder, ignore=shutil.ignore_patterns("__pycache__", "*.py", "geography"))
    return folder


@pytest.mark.parametrize(
    ("game", "opening"),
    [
        ("ardennes44", "Ardennes 1944: sound."),
        ("alsace44", "Alsace 1944: sound."),
        ("wargame-commander", ""),
        ("a-bridge-too-far", "A Bridge Too Far (HASL) - campaign game Refit Phase: sound. 16 CG dates"),
    ],
)
def test_validate_reports_every_bundled_game_sound(game: str, opening: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", game]) == 0
    out, err = capsys.readouterr()
    assert opening in out and ": sound. " in out and err == ""


def test_validate_counts_a_vae_victis_games_counters_and_steps(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "ardennes44"]) == 0
    out = capsys.readouterr().out
    assert "731 hexes" in out and "counters and" in out and "detachment markers" in out
    assert "German " in out and " steps, Allied " in out and "scenarios: The Initial Assault" in out


def test_validate_a_game_folder_by_its_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(folder_copy(tmp_path))]) == 0
    assert capsys.readouterr().out.startswith("Ardennes 1944: sound.")


def test_validate_lists_every_problem_of_a_broken_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = folder_copy(tmp_path)
    (folder / "map.toml").write_text("this is [not toml", encoding="utf-8")
    assert main(["validate", str(folder)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and f"{folder}: 1 problem(s)" in err and "map.toml: (file): not valid TOML" in err


def test_validate_lists_every_problem_of_a_broken_asl_module(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    file, text = scenarios.asl.module_text("a-bridge-too-far")
    broken = text.replace("[module]", "[module", 1)
    assert broken != text
    monkeypatch.setattr(scenarios.asl, "module_text", lambda module_id: (file, broken))
    assert main(["validate", "a-bridge-too-far"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "a-bridge-too-far: 1 problem(s)\n  a-bridge-too-far.toml: " in err


def test_validate_a_board_file_that_cannot_be_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(tmp_path / "missing.toml")]) == 1
    assert "umpire: cannot read" in capsys.readouterr().err


def test_validate_a_league_board_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = resources.files("scenarios.wargame_commander").joinpath("ardennes-1944.toml").read_text(encoding="utf-8")
    board = tmp_path / "league.toml"
    board.write_text(text, encoding="utf-8")
    assert main(["validate", str(board)]) == 0
    assert ": sound. " in capsys.readouterr().out


def test_validate_an_unknown_name_says_what_is_bundled(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "nowhere"]) == 1
    err = capsys.readouterr().err
    assert "umpire: no bundled game, folder or data file called 'nowhere'" in err
    assert "ardennes44, alsace44, a-bridge-too-far, wargame-commander" in err


def test_render_a_close_up_of_a_bundled_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "close.png"
    assert main(["render", "ardennes44", "--around", "1817", "--radius", "2", "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {out} (")
    with Image.open(out) as image:
        assert 100 < image.width < 1000


def test_render_the_setup_of_a_game_folder(tmp_path: Path) -> None:
    out = tmp_path / "setup.png"
    folder = folder_copy(tmp_path)
    assert main(["render", str(folder), "--setup", "--around", "1817", "--radius", "1", "--out", str(out)]) == 0
    assert out.stat().st_size > 1000


@pytest.mark.parametrize(
    ("around", "reason"), [("18x7", "umpire: "), ("9999", "umpire: hex 9999 is not on the Ardennes 1944 map")]
)
def test_render_refuses_a_bad_close_up_hex(
    around: str, reason: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "close.png"
    assert main(["render", "ardennes44", "--around", around, "--out", str(out)]) == 2
    assert reason in capsys.readouterr().err and not out.exists()


def test_render_a_broken_folder_points_to_validate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = folder_copy(tmp_path)
    (folder / "map.toml").write_text("this is [not toml", encoding="utf-8")
    assert main(["render", str(folder), "--out", str(tmp_path / "x.png")]) == 1
    err = capsys.readouterr().err
    assert f"umpire: the data of {folder} is broken; run 'umpire validate {folder}'" in err
    assert "first problem: map.toml: (file): not valid TOML" in err


def test_render_says_which_games_draw_a_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", "wargame-commander", "--out", str(tmp_path / "x.png")]) == 1
    refusal = "umpire: `umpire render` draws a bundled game (ardennes44, alsace44) or the path of a game folder; not"
    assert refusal in capsys.readouterr().err
    assert main(["render", "a-bridge-too-far", "--out", str(tmp_path / "x.png")]) == 1
    assert refusal in capsys.readouterr().err
    assert main(["render", "nowhere", "--out", str(tmp_path / "x.png")]) == 1
    assert "no bundled game, folder or data file called 'nowhere'" in capsys.readouterr().err


def test_render_to_a_file_that_cannot_be_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "no-such-folder" / "x.png"
    assert main(["render", "ardennes44", "--around", "1817", "--radius", "1", "--out", str(out)]) == 1
    assert f"umpire: cannot write {out}" in capsys.readouterr().err


def test_the_data_tools_know_every_bundled_game_and_the_paths_of_their_kind(tmp_path: Path) -> None:
    tools = all_data_tools()
    assert [g for t in tools for g in t.games] == [*VAE_VICTIS_GAMES, *MODULES, *BOARDS]  # as the data lists them
    assert data_tools("ardennes44") is data_tools("alsace44") is data_tools(str(tmp_path)) is not None
    assert data_tools("wargame-commander") is data_tools(str(tmp_path / "board.toml")) is not data_tools("alsace44")
    assert data_tools("asl") is None and data_tools(str(tmp_path / "missing")) is None
