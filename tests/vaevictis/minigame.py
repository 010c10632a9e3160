"""A small, valid Vae Victis game built in memory, for tests that need a position of their own.

Tests copy :func:`documents`, break one thing, and check what the loader says, or build positions on it.
The tables are the real Ardennes 1944 tables.
"""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

TABLES = Path(__file__).resolve().parents[2] / "scenarios" / "ardennes44" / "tables.toml"

_MAP: dict[str, Any] = {
    "map": {"name": "Test map", "columns": 8, "rows": 6, "lower_columns": "odd"},
    "terrain": {
        "rows": [
            "..rf....",
            "..rf..f.",
            "........",
            ".ff..r..",
            "........",
            " . . . .",
        ],
        "westwall": ["0803"],
    },
    "place": [
        {"name": "Alpha", "hex": "0203", "kind": "city"},
        {"name": "Bravo", "hex": "0603", "kind": "village"},
        {"name": "Ridge", "hex": "0402", "kind": "locality"},
    ],
    "river": [{"name": "Test River", "hexsides": [["0403", "0503"], ["0404", "0504"]], "bridges": [["0403", "0503"]]}],
    "road": [{"name": "Main road", "hexes": ["0103", "0203", "0303", "0403", "0503", "0603", "0703", "0803"]}],
    "edges": {"german": [{"edge": "east"}], "allied": [{"edge": "west"}]},
    "entry": {"german": ["0803"], "allied": ["0103"]},
}

_COUNTERS: dict[str, Any] = {
    "army": [
        {"id": "us-1st", "name": "US 1st Army", "side": "allied", "nationality": "us"},
        {"id": "de-6pz", "name": "6. Panzerarmee", "side": "german", "nationality": "german"},
    ],
    "formation": [
        {"id": "us-v", "name": "V Corps", "army": "us-1st", "color": "#336699", "hq": "hq-us-v", "detachments": 1},
        {"id": "de-1ss", "name": "I SS Pz Korps", "army": "de-6pz", "color": "#e8d44d", "hq": "hq-de-1ss"},
    ],
    "unit": [
        {
            "id": "hq-us-v",
            "name": "V",
            "formation": "us-v",
            "kind": "hq",
            "size": "XXX",
            "steps": 1,
            "strength": 1,
            "quality": 4,
            "support": 2,
            "c3i": "A",
        },
        {
            "id": "us-2-id",
            "name": "2",
            "formation": "us-v",
            "division": "us-2",
            "kind": "infantry",
            "size": "XX",
            "steps": 4,
            "strength": 12,
            "quality": 4,
        },
        {
            "id": "hq-de-1ss",
            "name": "I SS",
            "formation": "de-1ss",
            "kind": "hq",
            "size": "XXX",
            "steps": 1,
            "strength": 1,
            "quality": 4,
            "support": 3,
            "c3i": "B",
        },
        {
            "id": "de-peiper",
            "name": "Peiper/1",
            "formation": "de-1ss",
            "division": "de-1ss-pz",
            "kind": "armored",
            "size": "III",
            "steps": 2,
            "strength": 8,
            "quality": 5,
        },
    ],
    "detachment": [{"nationality": "us", "steps": 2, "strength_per_step": 3}],
}

_SETUP: dict[str, Any] = {
    "turn": [
        {"number": 1, "date": "16-17 December 1944", "weather": "overcast"},
        {"number": 2, "date": "18-19 December 1944", "weather": "clear"},
    ],
    "setup": [
        {"unit": "hq-us-v", "hex": "0103"},
        {"unit": "us-2-id", "hex": "0203", "improved_position": True},
        {"unit": "hq-de-1ss", "hex": "0803"},
    ],
    "reinforcement": [{"turn": 1, "units": ["de-peiper"], "hexes": ["0803"], "trucks": False}],
    "support": [
        {"army": "us-1st", "turn": 0, "markers": {"artillery": 1, "tank": 1}},
        {"army": "de-6pz", "turn": 0, "markers": {"nebelwerfer": 1, "tiger": 1}},
    ],
    "southern_front": {"rule": "16.1"},
    "event": [
        {"id": "nuts", "effect": "quality-aura", "side": "allied", "name": "Nuts!", "count": 1, "rule": "15.3"},
        # Known but without counters (count 0): tests put their markers on the map directly.
        {"id": "roadblock", "effect": "blocks-hex", "side": "allied", "name": "Roadblock", "count": 0, "rule": "15.3"},
        {
            "id": "stosser",
            "effect": "blocks-hex-on-roll",
            "side": "german",
            "name": "Stosser",
            "count": 0,
            "rule": "15.2",
        },
    ],
}

_SCENARIOS: dict[str, Any] = {
    "scenario": [
        {
            "id": "test",
            "name": "Test scenario",
            "rule": "17.1",
            "turns": 2,
            "victory": [
                {
                    "kind": "hold-cities",
                    "side": "german",
                    "cities": ["Alpha"],
                    "count": 1,
                    "when": "end",
                    "result": "german",
                }
            ],
            "default_result": "allied",
            "special_rules": [],
        }
    ]
}


def documents() -> dict[str, dict[str, Any]]:
    """A fresh copy of the mini game's parsed files, keyed by file name."""
    with TABLES.open("rb") as handle:
        tables = tomllib.load(handle)
    return copy.deepcopy(
        {
            "game.toml": {"game": {"id": "mini", "name": "Mini game"}},
            "map.toml": _MAP,
            "counters.toml": _COUNTERS,
            "setup.toml": _SETUP,
            "scenarios.toml": _SCENARIOS,
            "tables.toml": tables,
        }
    )
