"""No test module imports another: what several test modules share lives in a helper module (a module of
``tests/`` whose name does not start with ``test_``) or a ``conftest.py``, so a test module can be read, moved or
deleted on its own."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def imported_test_modules(path: Path) -> list[str]:
    """The test modules ``path`` imports (``tests.x.test_y``, ``test_y``, or ``test_y`` from a ``tests`` package)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[-1].startswith("test_"):
                found.append(node.module)
            elif node.module.split(".")[0] == "tests":
                found += [f"{node.module}.{a.name}" for a in node.names if a.name.startswith("test_")]
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[-1].startswith("test_")]
    return found


def test_no_module_imports_a_test_module() -> None:
    importers = {
        path.relative_to(ROOT).as_posix(): imported
        for folder in ("tests", "bench", "tools")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if (imported := imported_test_modules(path))
    }
    assert importers == {}


def test_the_check_sees_each_way_of_importing_a_test_module(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from tests.bot.test_discord import ANN\nfrom test_refit import advance\n"
        "from tests.bot import test_discord_ardennes as ardennes\nimport tests.vaevictis.test_movement\n"
        "from tests.bot.discord_play import ANN as ANN2\n"
    )
    assert imported_test_modules(module) == [
        "tests.bot.test_discord",
        "test_refit",
        "tests.bot.test_discord_ardennes",
        "tests.vaevictis.test_movement",
    ]
