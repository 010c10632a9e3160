"""The "Breaks the tests catch" table of docs/rules/ardennes44-index.md: each break must still stand in its
module and name one of its rule's tests. The index's rows themselves are checked with every game's index in
``tests/test_rule_indexes.py``.
"""

from __future__ import annotations

import pytest

from tests.rule_index import INDEXES, index_rows, project_test_functions
from tools.rule_breaks import Break, index_breaks

ROOT = INDEXES[0].path.parents[2]
TEXT = INDEXES[0].text()
ROWS = index_rows(TEXT)


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
