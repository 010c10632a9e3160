"""docs/rules/ardennes44-index.md maps every rule number of the document to its code and its tests: check it.

The list of the document's rule numbers is kept in the index itself (the project never reads the rule
document): every number needs a row, every row a test or a reason why it needs none, and every function,
data file and test the index names must exist.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from tools.rule_breaks import Break, index_breaks

ROOT = Path(__file__).resolve().parents[2]
INDEX = ROOT / "docs" / "rules" / "ardennes44-index.md"
ENGINE_PACKAGE = "engine.vaevictis"


@dataclass(frozen=True)
class Row:
    rule: str
    subject: str
    code: tuple[str, ...]
    tests: tuple[str, ...]
    no_test_because: str


def document_rule_numbers(text: str) -> list[str]:
    found = re.search(r"<!-- rule-numbers -->\n(.*?)\n<!-- /rule-numbers -->", text, re.S)
    assert found, "the index must list the document's rule numbers between rule-numbers comments"
    return found.group(1).split()


def index_rows(text: str) -> list[Row]:
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not re.fullmatch(r"\d+(\.\d+)*", cells[0]):
            continue
        rows.append(
            Row(
                rule=cells[0],
                subject=cells[1],
                code=tuple(re.findall(r"`([^`]+)`", cells[2])),
                tests=tuple(re.findall(r"`([^`]+)`", cells[3])),
                no_test_because=cells[4],
            )
        )
    return rows


@cache
def project_test_functions() -> frozenset[str]:
    """Every test function of the project, as ``file::name`` (the file's stem, in any folder of tests/)."""
    names = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        for match in re.finditer(r"^(?:async )?def (test_\w+)\(", path.read_text(encoding="utf-8"), re.M):
            names.add(f"{path.stem}::{match.group(1)}")
    return frozenset(names)


def code_exists(name: str) -> bool:
    """A data file of the project, or ``module.attribute[.attribute]`` in the engine package."""
    if "/" in name:
        return (ROOT / name).is_file()
    module_name, *attributes = name.split(".")
    try:
        thing: object = importlib.import_module(f"{ENGINE_PACKAGE}.{module_name}")
    except ModuleNotFoundError:
        return False
    for attribute in attributes:
        if not hasattr(thing, attribute):
            return False
        thing = getattr(thing, attribute)
    return bool(attributes)


TEXT = INDEX.read_text(encoding="utf-8")
ROWS = index_rows(TEXT)


def test_every_rule_number_of_the_document_has_one_row() -> None:
    numbers = document_rule_numbers(TEXT)
    rules = [row.rule for row in ROWS]
    assert len(rules) == len(set(rules)), "a rule has two rows"
    assert [n for n in numbers if n not in rules] == []
    assert [r for r in rules if r not in numbers] == [], "rows for numbers the document does not have"


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.rule)
def test_each_rule_names_its_code_and_a_test_or_why_it_needs_none(row: Row) -> None:
    assert row.code, f"{row.rule}: name the function that enforces it"
    assert row.tests or row.no_test_because, f"{row.rule}: name a test, or say why it needs none"


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.rule)
def test_each_function_and_data_file_named_exists(row: Row) -> None:
    assert [c for c in row.code if not code_exists(c)] == []


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.rule)
def test_each_test_named_exists(row: Row) -> None:
    assert [t for t in row.tests if t not in project_test_functions()] == []


def test_the_checks_catch_a_missing_rule_a_missing_function_and_a_missing_test() -> None:
    broken = TEXT.replace("| 5 | Stacking |", "| 99 | Stacking |")
    assert "5" not in [row.rule for row in index_rows(broken)]
    assert not code_exists("movement.no_such_function")
    assert not code_exists("no_such_module.anything")
    assert not code_exists("scenarios/ardennes44/no-such-file.toml")
    assert "test_movement::test_no_such_test" not in project_test_functions()
    assert Row("1.1", "x", ("turn.start_turn",), (), "").tests == ()


BREAKS = index_breaks(TEXT)


def test_the_breaks_cover_the_rules_whose_tests_once_let_a_break_through() -> None:
    assert {"0.3", "9.4", "10.4", "14.2"} <= {b.rule for b in BREAKS}


@pytest.mark.parametrize("broken", BREAKS, ids=lambda b: f"{b.rule}:{b.broken[:30]}")
def test_each_break_changes_a_line_that_stands_once_in_its_module_and_names_its_rules_test(broken: Break) -> None:
    source = (ROOT / broken.module).read_text(encoding="utf-8")
    assert source.count(broken.code) == 1, f"{broken.module} no longer holds {broken.code!r} once"
    assert broken.broken != broken.code
    row = next(r for r in ROWS if r.rule == broken.rule)
    assert broken.test in row.tests, f"{broken.test} is not one of rule {broken.rule}'s tests"
    assert broken.test in project_test_functions()
