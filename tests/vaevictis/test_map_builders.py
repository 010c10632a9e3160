"""The map builders (scenarios/<game>/geography/build_map.py, on the shared toolkit scenarios/mapmaking.py)
rebuild each bundled map.toml byte for byte, and their checks find nothing wrong with it, but do find a break."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("ardennes44", "alsace44")


@contextlib.contextmanager
def builder(game: str) -> Iterator[ModuleType]:
    """The game's build_map.py as a module (it imports its sibling geography.py by path, as a script does)."""
    folder = ROOT / "scenarios" / game / "geography"
    saved_path, saved_geography = list(sys.path), sys.modules.pop("geography", None)
    spec = importlib.util.spec_from_file_location(f"build_map_{game}", folder / "build_map.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            spec.loader.exec_module(module)
        yield module
    finally:
        sys.path[:] = saved_path
        sys.modules.pop(spec.name, None)
        sys.modules.pop("geography", None)
        if saved_geography is not None:
            sys.modules["geography"] = saved_geography


@pytest.mark.parametrize("game", GAMES)
def test_map_builder_rebuilds_the_bundled_map_byte_for_byte(game: str) -> None:
    with builder(game) as build_map, contextlib.redirect_stdout(io.StringIO()):
        out = build_map.build()
        assert build_map.check(out) == []
        assert build_map.write(out) == (ROOT / "scenarios" / game / "map.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("game", GAMES)
def test_map_builder_check_finds_a_town_out_of_its_printed_hex(game: str) -> None:
    with builder(game) as build_map, contextlib.redirect_stdout(io.StringIO()):
        out = build_map.build()
        town = "Bastogne" if game == "ardennes44" else "Sochaux"
        out.places = [
            (n, 101 if isinstance(h, int) else [101], k) if n == town else (n, h, k) for n, h, k in out.places
        ]
        assert any(town in problem for problem in build_map.check(out))
