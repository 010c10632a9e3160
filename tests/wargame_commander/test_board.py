"""The board as data: the bundled reconstruction loads, and a broken board lists every problem."""

from __future__ import annotations

import copy
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from bot.transports.cli import main
from engine.wargame_commander.board import BoardError, parse_board


def test_bundled_board_is_sound(doc: dict[str, Any]) -> None:
    board = parse_board(doc)
    assert len([u for u in board.units.values() if u.type == "hq"]) == 10
    assert {board.units[u].type for u in board.units} == {"hq", "allied", "german", "panzer", "ss"}
    assert set(board.terrain.values()) == {"plain", "woods", "hills", "river", "sea"}
    assert all(board.airfields[f].side in board.sides for f in board.airfields)
    assert board.north_anchor and board.south_anchor


def test_1_3_field_sizes_and_1_5b_damage_table_as_printed(doc: dict[str, Any]) -> None:
    board = parse_board(doc)
    assert board.field_sizes == {"tac": (2, 4), "small": (3, 6), "medium": (4, 8), "large": (5, 10)}
    assert board.airfield_damage["large"] == {"light": 1, "moderate": 2, "heavy": 4}
    assert board.airfield_damage["tac"] == {"light": 0, "moderate": 1, "heavy": 2}


def test_a_broken_board_lists_every_problem(doc: dict[str, Any]) -> None:
    bad = copy.deepcopy(doc)
    bad["airfields"][0]["steps"] = {"Typhoon IB": 3}
    bad["units"][1]["hex"] = bad["units"][0]["hex"]
    bad["units"][2]["hex"] = "0101"
    bad["map"]["terrain"][4] = "x" + bad["map"]["terrain"][4][1:]
    bad["squads"][0]["types"] = ["B-25J"]
    bad["squads"][1]["role"] = "fighter"
    with pytest.raises(BoardError) as caught:
        parse_board(bad)
    problems = "\n".join(caught.value.problems)
    assert "holds 10 aircraft steps (1.3), not 3" in problems
    assert "one unit per hex" in problems
    assert "is sea" in problems
    assert "unknown terrain letter 'x'" in problems
    assert "a strike squad may not fly the B-25J (1.2)" in problems
    assert "may not fly the Typhoon IB (1.2)" in problems


def test_umpire_validate_checks_a_bundled_board_and_a_league_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", "wargame-commander"]) == 0
    assert "sound" in capsys.readouterr().out
    text = resources.files("scenarios.wargame_commander").joinpath("ardennes-1944.toml").read_text(encoding="utf-8")
    league = tmp_path / "league.toml"
    league.write_text(text.replace('hex = "1002"\n', 'hex = "0101"\n'), encoding="utf-8")
    assert main(["validate", str(league)]) == 1
    assert "units[0] cdn-1: hex 0101 is sea" in capsys.readouterr().err


def test_2_1_unit_strengths_movement_and_zoc_as_printed(doc: dict[str, Any]) -> None:
    types = parse_board(doc).unit_types
    printed = {"allied": (4, 6, True), "german": (3, 4, True), "panzer": (4, 6, True), "ss": (5, 6, True)}
    printed["hq"] = (1, 4, False)
    assert {k: (t.strength, t.movement, t.zoc) for k, t in types.items()} == printed
    assert {k for k, t in types.items() if t.blitz} == {"panzer", "ss"}  # 3.4a


def test_1_2_a_squad_flies_only_the_types_its_role_may(doc: dict[str, Any]) -> None:
    bad = copy.deepcopy(doc)
    fighters = next(s for s in bad["squads"] if s["id"] == "126wing")
    fighters["types"] = ["Typhoon IB"]  # an ord-carrying type for a fighter squad
    with pytest.raises(BoardError) as caught:
        parse_board(bad)
    assert any("a fighter squad may not fly the Typhoon IB (1.2)" in p for p in caught.value.problems)
