"""[10.2, 6.2] Every unit of every scenario's set-up begins supplied and can leave its hex (set_up_checks.py).

The Alsace map is rebuilt from geography: the roads over the Lomont (Pont-de-Roide - Dambelin - Belvoir,
L'Isle-sur-le-Doubs - Glainans - Sancey) and the Sewen - Ballon d'Alsace road serve set-up hexes of 19.2;
without them the 9e DIC's HQ and the RICM start unsupplied and can never move (docs/rules/alsace44-map.md).
"""

from __future__ import annotations

import pytest

from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.loader import build_game
from engine.vaevictis.set_up_checks import set_up_problems
from scenarios import game_folder, load_game, read_documents

LOMONT_ROADS = ("Pont-de-Roide - Dambelin - Belvoir", "L'Isle-sur-le-Doubs - Glainans - Sancey")


def test_10_2_every_alsace_set_up_unit_is_supplied_and_can_move() -> None:
    assert set_up_problems(VaeVictisGame(load_game("alsace44"))) == []


@pytest.mark.xfail(
    strict=True,
    reason="Ardennes 1944 map: 14 Cav in 3008 (Manderfeld) has no bridged road to the Allied edge; left to the "
    "Ardennes map work",
)
def test_10_2_every_ardennes_set_up_unit_is_supplied_and_can_move() -> None:
    assert set_up_problems(VaeVictisGame(load_game("ardennes44"))) == []


def test_10_2_a_map_without_the_lomont_roads_strands_the_9e_dic() -> None:
    documents = read_documents(game_folder("alsace44"))
    documents["map.toml"]["road"] = [r for r in documents["map.toml"]["road"] if r["name"] not in LOMONT_ROADS]
    problems = set_up_problems(VaeVictisGame(build_game(documents)))
    entire = [p for p in problems if p.startswith("entire-battle:")]
    assert any("HQ 9e DIC in 0520 traces no line of supply" in p for p in entire), problems
    assert any("in 0520 can never leave its set-up hex" in p for p in entire), problems
    assert any("in 0220 can never leave its set-up hex" in p for p in entire), problems
