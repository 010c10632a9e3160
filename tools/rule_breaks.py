"""Make each break of a rule index's "Breaks the tests catch" table and check that its test fails.

Each break is made in a scratch copy of the project (the working tree is never touched), its test is run
alone, and the line is put back. A break whose test still passes is a rule the tests do not hold: the script
says so and exits 1. Run it niced, with a time limit (each break runs one test file's test)::

    nice -n 15 timeout 900 .venv/bin/python tools/rule_breaks.py [docs/rules/ardennes44-index.md] [--rule 9.4]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COPIED = ("engine", "scenarios", "render", "bot", "tests")


@dataclass(frozen=True)
class Break:
    """A change to one line of a rule's code that its named test must catch (the index's last table)."""

    rule: str
    module: str
    code: str
    broken: str
    test: str


def index_breaks(text: str) -> list[Break]:
    """The rows of an index's "Breaks the tests catch" table (six cells, the first a rule number)."""
    found = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and re.fullmatch(r"\d+(\.\d+)*", cells[0]):
            module, code, broken, test = (c.strip("`") for c in cells[1:5])
            found.append(Break(cells[0], module, code, broken, test))
    return found


def test_path(test: str) -> str:
    """``file::name`` of the index (the file's stem under tests/, the one that defines the test) as a pytest node id."""
    stem, name = test.split("::")
    found = sorted((ROOT / "tests").rglob(f"{stem}.py"))  # two systems' test files may share a name
    matches = [m for m in found if f"def {name}(" in m.read_text(encoding="utf-8")]
    if len(matches) != 1:
        raise SystemExit(f"{test}: no single test file named {stem}.py")
    return f"{matches[0].relative_to(ROOT).as_posix()}::{name}"


def caught(copy: Path, item: Break) -> bool:
    """Make the break in the copy, run its test, put the line back; whether the test failed."""
    module = copy / item.module
    source = module.read_text(encoding="utf-8")
    if source.count(item.code) != 1:
        raise SystemExit(f"{item.module} does not hold {item.code!r} exactly once")
    module.write_text(source.replace(item.code, item.broken), encoding="utf-8")
    try:
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", test_path(item.test)],
            cwd=copy,
            capture_output=True,
            text=True,
        )
    finally:
        module.write_text(source, encoding="utf-8")
    return run.returncode != 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("index", nargs="?", type=Path, default=ROOT / "docs" / "rules" / "ardennes44-index.md")
    parser.add_argument("--rule", action="append", default=[], help="only the breaks of this rule (repeatable)")
    args = parser.parse_args(argv)
    breaks = [b for b in index_breaks(args.index.read_text(encoding="utf-8")) if not args.rule or b.rule in args.rule]
    copy = Path(tempfile.mkdtemp(prefix="umpire-breaks-"))
    try:
        for folder in COPIED:
            shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
        escaped = []
        for item in breaks:
            held = caught(copy, item)
            print(f"{'caught ' if held else 'ESCAPED'} {item.rule:6} {item.broken}  [{item.test}]", flush=True)
            if not held:
                escaped.append(item)
    finally:
        shutil.rmtree(copy, ignore_errors=True)
    print(f"{len(breaks) - len(escaped)} / {len(breaks)} breaks caught")
    return 1 if escaped else 0


if __name__ == "__main__":
    sys.exit(main())
