"""Reading a game's rule index (``docs/rules/<game>-index.md``): its rule numbers, its rows, and the checks
that the code, data files and tests a row names exist.

An index lists the rule numbers of its document between ``<!-- rule-numbers -->`` comments (the project never
reads the rule document itself) and has one table row per number: ``| rule | subject | code | tests | no test
because |``. Code is ``module.attribute`` inside the system's engine package (``refit.secret_steps.purchase``
in ``engine.asl``) or a data file path; tests are ``file::test_function``, the file being anywhere in ``tests/``.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class RuleIndex:
    """One game's rule index and the engine package its code names are read in."""

    game: str
    path: Path
    engine_package: str

    def text(self) -> str:
        return self.path.read_text(encoding="utf-8")


INDEXES = (
    RuleIndex("ardennes44", ROOT / "docs" / "rules" / "ardennes44-index.md", "engine.vaevictis"),
    RuleIndex("alsace44", ROOT / "docs" / "rules" / "alsace44-index.md", "engine.vaevictis"),
    RuleIndex("asl", ROOT / "docs" / "rules" / "asl-index.md", "engine.asl"),
    RuleIndex("wargame_commander", ROOT / "docs" / "rules" / "wargame-commander-index.md", "engine.wargame_commander"),
)
"""Every game's rule index."""


@dataclass(frozen=True)
class Row:
    """One rule's row: the code that enforces it and the tests that fail when it breaks, or why none does."""

    rule: str
    subject: str
    code: tuple[str, ...]
    tests: tuple[str, ...]
    no_test_because: str


RULE_NUMBER = re.compile(r"\d+(\.\d+)*[a-z]?")
"""A rule number as the documents print them (``9.62164``, ``7.7.1``, ``14.21b``)."""


def document_rule_numbers(text: str) -> list[str]:
    """The document's rule numbers as the index lists them."""
    found = re.search(r"<!-- rule-numbers -->\n(.*?)\n<!-- /rule-numbers -->", text, re.S)
    assert found, "the index must list the document's rule numbers between rule-numbers comments"
    return found.group(1).split()


def index_rows(text: str) -> list[Row]:
    """The index's rows: five cells, the first a rule number."""
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not RULE_NUMBER.fullmatch(cells[0]):
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


def code_exists(engine_package: str, name: str) -> bool:
    """A data file of the project, or ``module[.submodule].attribute[.attribute]`` in the engine package."""
    if "/" in name:
        return (ROOT / name).is_file()
    parts = name.split(".")
    for split in range(len(parts) - 1, 0, -1):
        try:
            thing: object = importlib.import_module(".".join((engine_package, *parts[:split])))
        except ModuleNotFoundError:
            continue
        for attribute in parts[split:]:
            if not hasattr(thing, attribute):
                return False
            thing = getattr(thing, attribute)
        return True
    return False
