"""The Vae Victis engine names no Ardennes 1944 place, river, unit, formation or event: those live in the data.

A second game of the system must be configuration (DESIGN.md, issue 14). This test reads every module of
engine/vaevictis/ and fails on a string literal in code (docstrings and comments, which describe the rules
the code enforces, are not code) equal to an Ardennes name or id, or containing one as a word, and on an
identifier made of such a word. The few identifiers listed in ``KEPT`` stay for compatibility, each with
its reason.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from engine.vaevictis.data import GameData
from scenarios import load_game

ENGINE = Path(__file__).resolve().parents[2] / "engine" / "vaevictis"

KEPT = {
    "meuse_crossed": "a field of GameState: stored games hold it under this key",
    "beyond_meuse": "public function the existing tests call; the river it reads comes from the data",
    "nuts_quality_bonus": "public function the existing tests call; the events it reads come from the data",
    "is_british_west_of_meuse": "named by the rules index (docs/rules/ardennes44-index.md); the river is the data's",
}
"""Identifiers that keep an Ardennes word, and why."""

KEPT_STRINGS = {
    "cross-meuse": "the victory-condition kind the Ardennes data and its tests use; the river is the data's `river`",
}
"""String literals that keep an Ardennes word, and why."""

COMMON_WORDS = frozenset(
    {"road", "river", "supply", "fuel", "dump", "brigade", "front", "north", "south", "east", "west", "air", "edge"}
    | {"operation", "commandos", "bridge", "forest", "drive", "crossroads", "dame", "burg", "bras", "alle", "croix"}
    | {"high", "upper", "lower", "great", "little", "grand", "petit", "haute", "saint", "mont", "pont"}
)
"""Words of Ardennes names that are also ordinary English or French words the engine uses for itself."""


def ardennes_names(data: GameData) -> tuple[set[str], set[str]]:
    """Every Ardennes name and id (lower case), and the distinctive words of its places, rivers and events.

    Unit, formation and army ids are matched whole only: their names are made of ordinary words ("German",
    "independent", "Panzer") the engine uses for itself.
    """
    worded = {p.name for p in data.map.places} | {r.name for r in data.map.rivers}
    worded |= set(data.events) | {e.name for e in data.events.values()}
    whole = set(data.units) | set(data.formations) | set(data.armies) | {r.name for r in data.map.roads}
    lowered = {n.lower() for n in worded | whole}
    words = {w for n in worded for w in re.split(r"[^a-z0-9]+", n.lower()) if len(w) >= 4 and not w.isdigit()}
    return lowered, words - COMMON_WORDS


def code_strings_and_identifiers(source: str) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    tree = ast.parse(source)
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    }
    strings, identifiers = [], []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            strings.append((node.lineno, node.value))
        name = None
        if isinstance(node, ast.Name):
            name = node.id
        elif isinstance(node, ast.Attribute):
            name = node.attr
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            name = node.name
        elif isinstance(node, ast.arg):
            name = node.arg
        elif isinstance(node, ast.alias):
            name = node.asname or node.name.split(".")[-1]
        if name is not None:
            identifiers.append((getattr(node, "lineno", 0), name))
    return strings, identifiers


@pytest.fixture(scope="module")
def names() -> tuple[set[str], set[str]]:
    return ardennes_names(load_game("ardennes44"))


@pytest.mark.parametrize("module", sorted(ENGINE.glob("*.py")), ids=lambda p: p.name)
def test_the_engine_names_no_ardennes_place_unit_or_event(module: Path, names: tuple[set[str], set[str]]) -> None:
    full_names, words = names
    strings, identifiers = code_strings_and_identifiers(module.read_text(encoding="utf-8"))
    found = []
    for line, text in strings:
        lowered = text.lower()
        text_words = set(re.split(r"[^a-z0-9]+", lowered))
        if text not in KEPT_STRINGS and (lowered in full_names or text_words & words):
            found.append(f"line {line}: string {text!r}")
    for line, name in identifiers:
        if name not in KEPT and set(name.lower().split("_")) & words:
            found.append(f"line {line}: identifier {name}")
    assert not found, f"{module.name} names Ardennes data in code: " + "; ".join(found)


def test_the_check_would_catch_a_place_an_event_and_an_identifier(names: tuple[set[str], set[str]]) -> None:
    source = 'def beyond_bastogne():\n    x = "nuts"\n    return "Bastogne holds"\n'
    strings, identifiers = code_strings_and_identifiers(source)
    full_names, words = names
    assert any(text.lower() in full_names for _line, text in strings)
    assert any(set(re.split(r"[^a-z0-9]+", text.lower())) & words for _line, text in strings)
    assert any(set(name.split("_")) & words for _line, name in identifiers)
