"""The layering of DESIGN.md: the engine is pure (no I/O, no Discord, no randomness of its own)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN_IN_ENGINE = {"discord", "aiosqlite", "PIL", "asyncio", "random", "sqlite3", "socket", "requests"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_engine_imports_no_io_discord_or_randomness() -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(imported_modules(path) & FORBIDDEN_IN_ENGINE)
        for path in (ROOT / "engine").rglob("*.py")
    }
    assert {file: mods for file, mods in offenders.items() if mods} == {}


def test_engine_does_not_open_files() -> None:
    for path in (ROOT / "engine").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "open(" not in source.replace("Path.open", ""), f"{path} opens a file"


def test_render_never_imports_discord_or_the_database() -> None:
    for path in (ROOT / "render").rglob("*.py"):
        assert not imported_modules(path) & {"discord", "aiosqlite", "sqlite3"}, path
