"""Rules versions: each system's version is kept beside a fingerprint of its rules code and data, so that a change
to the rules cannot pass the tests without someone deciding whether it needs a new version.

The fingerprint is the SHA-256 of every file that decides what is legal or what an action does, for one system:
the shared engine (``engine/*.py``), the system's engine package and its games' data (``scenarios/<game>/``).
Python files count by their syntax tree without docstrings (a comment or a docstring changes nothing); data files
by their bytes. When the test fails: bump ``RULES_VERSION`` in ``engine/<system>/rules_version.py`` if the change
can alter what is legal or what an action does (games played under the old version are then reported by
``umpire verify`` as "played under rules N"), and in any case set ``RULES_FINGERPRINT`` to the value printed::

    python tests/test_rules_versions.py
"""

from __future__ import annotations

import ast
import hashlib
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

RULES_FILES = {
    "vaevictis": ("engine/vaevictis", "scenarios/ardennes44", "scenarios/alsace44"),
    "asl": ("engine/asl", "scenarios/asl"),
    "wargame_commander": ("engine/wargame_commander", "scenarios/wargame_commander"),
}
"""Each system's engine package and data folders (the shared engine, ``engine/*.py``, counts for all)."""

NOT_RULES = ("opponent",)
"""Folders of an engine package that decide nothing about what is legal: the computer opponent (30) only
chooses among the actions the rules allow, so improving it is no change of rules."""


def _without_docstrings(tree: ast.AST) -> ast.AST:
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            del body[0]
            if not body:
                body.append(ast.Pass())
    return tree


def fingerprint(system: str) -> str:
    """The fingerprint of a system's rules code and data (see the module docstring)."""
    files = sorted(ROOT.glob("engine/*.py"))
    for folder in RULES_FILES[system]:
        skipped = {"__pycache__", *NOT_RULES}
        files += sorted(p for p in (ROOT / folder).rglob("*") if p.is_file() and not skipped & set(p.parts))
    digest = hashlib.sha256()
    for path in files:
        if path.name == "rules_version.py":
            continue
        relative = path.relative_to(ROOT).as_posix()
        if path.suffix == ".py":
            body = ast.dump(_without_docstrings(ast.parse(path.read_text(encoding="utf-8")))).encode()
        elif path.suffix == ".pyc":
            continue
        else:
            body = path.read_bytes()
        digest.update(f"{relative}\0{len(body)}\0".encode() + body)
    return digest.hexdigest()


@pytest.mark.parametrize("system", sorted(RULES_FILES))
def test_rules_version_bumped_when_the_rules_change(system: str) -> None:
    """A change to a system's rules code or data fails here until its fingerprint is updated beside its version."""
    module = importlib.import_module(f"engine.{system}.rules_version")
    now = fingerprint(system)
    assert now == module.RULES_FINGERPRINT, (
        f"the rules of engine/{system} changed (code or data): if the change can alter what is legal or what an "
        f"action does, bump RULES_VERSION (now {module.RULES_VERSION}) in engine/{system}/rules_version.py; in any "
        f'case set RULES_FINGERPRINT = "{now}" there'
    )


def test_rules_version_fingerprint_ignores_comments_and_docstrings(tmp_path: Path) -> None:
    """Only the syntax counts: a docstring or a comment changes no fingerprint, a changed number does."""
    plain = "def f():\n    return 6\n"
    documented = 'def f():\n    """Roll."""\n    # a comment\n    return 6\n'
    changed = "def f():\n    return 5\n"
    dump = [ast.dump(_without_docstrings(ast.parse(text))) for text in (plain, documented, changed)]
    assert dump[0] == dump[1] != dump[2]


def test_rules_version_every_adapter_reports_its_engine_version() -> None:
    """The version each game and action records is the engine's (the adapter only passes it on)."""
    from bot.systems import systems

    engines = {"ardennes44": "vaevictis", "alsace44": "vaevictis", "asl": "asl"}
    engines["wargame-commander"] = "wargame_commander"
    for system_id, factory in systems().items():
        module = importlib.import_module(f"engine.{engines[system_id]}.rules_version")
        assert factory().rules_version == module.RULES_VERSION >= 1


if __name__ == "__main__":
    for name in sorted(RULES_FILES):
        print(f"{name}: {fingerprint(name)}")
