"""Every game's rule index (``docs/rules/<game>-index.md``) maps each rule number of its document to the code
that enforces it and the tests that fail when it breaks: check each one.

Every number needs a row, every row its code and a test or a reason why none (an untested rule says so), and
every function, data file and test a row names must exist. The reading is in :mod:`tests.rule_index`.
"""

from __future__ import annotations

import pytest

from tests.rule_index import (
    INDEXES,
    Row,
    RuleIndex,
    code_exists,
    document_rule_numbers,
    index_rows,
    project_test_functions,
)

ROWS = [(index, row) for index in INDEXES for row in index_rows(index.text())]


def _row_id(item: tuple[RuleIndex, Row]) -> str:
    return f"{item[0].game}:{item[1].rule}"


@pytest.mark.parametrize("index", INDEXES, ids=lambda index: index.game)
def test_every_rule_number_of_the_document_has_one_row(index: RuleIndex) -> None:
    text = index.text()
    numbers = document_rule_numbers(text)
    rules = [row.rule for row in index_rows(text)]
    assert len(numbers) == len(set(numbers)), "a rule number is listed twice"
    assert len(rules) == len(set(rules)), "a rule has two rows"
    assert [n for n in numbers if n not in rules] == []
    assert [r for r in rules if r not in numbers] == [], "rows for numbers the document does not have"


@pytest.mark.parametrize("item", ROWS, ids=_row_id)
def test_each_rule_names_its_code_and_a_test_or_why_it_has_none(item: tuple[RuleIndex, Row]) -> None:
    _, row = item
    assert row.code, f"{row.rule}: name the function or data that enforces it"
    assert row.tests or row.no_test_because, f"{row.rule}: name a test, or say why it has none"


@pytest.mark.parametrize("item", ROWS, ids=_row_id)
def test_each_function_and_data_file_named_exists(item: tuple[RuleIndex, Row]) -> None:
    index, row = item
    assert [c for c in row.code if not code_exists(index.engine_package, c)] == []


@pytest.mark.parametrize("item", ROWS, ids=_row_id)
def test_each_test_named_exists(item: tuple[RuleIndex, Row]) -> None:
    _, row = item
    assert [t for t in row.tests if t not in project_test_functions()] == []


def test_the_checks_catch_a_missing_rule_a_missing_function_and_a_missing_test() -> None:
    ardennes = INDEXES[0]
    broken = ardennes.text().replace("| 5 | Stacking |", "| 99 | Stacking |")
    assert "5" not in [row.rule for row in index_rows(broken)]
    assert not code_exists("engine.vaevictis", "movement.no_such_function")
    assert not code_exists("engine.vaevictis", "no_such_module.anything")
    assert not code_exists("engine.asl", "refit.secret_steps.no_such_function")
    assert code_exists("engine.asl", "refit.secret_steps.purchase")
    assert not code_exists("engine.vaevictis", "scenarios/ardennes44/no-such-file.toml")
    assert "test_movement::test_no_such_test" not in project_test_functions()
    assert Row("1.1", "x", ("turn.start_turn",), (), "").tests == ()
