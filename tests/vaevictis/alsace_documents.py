"""The Alsace 1944 documents as the game loads them, for tests that change one of them."""

from __future__ import annotations

from typing import Any

from scenarios import game_folder, read_documents


def core_documents() -> dict[str, Any]:
    """Alsace 1944's files for the tests of one rule: without strongpoints, and with the German units of 19.2's
    set-up fixed on their suggested hexes, so that a historical game starts at turn 1 (the set-up phase has
    its own tests, test_alsace44_setup.py)."""
    docs: dict[str, Any] = read_documents(game_folder("alsace44"))
    setup = docs["setup.toml"]
    setup.pop("strongpoint_rules", None)
    setup["event"] = [e for e in setup["event"] if e.get("effect")]  # the stratagems the engine plays
    counters = docs["counters.toml"]
    gone = {u["id"] for u in counters["unit"] if u["kind"] == "strongpoint"}
    counters["unit"] = [u for u in counters["unit"] if u["id"] not in gone]
    setup["setup"] = [
        {k: v for k, v in p.items() if k not in ("region", "choices")} for p in setup["setup"] if p["unit"] not in gone
    ]
    return docs
