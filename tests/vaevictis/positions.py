"""Build small positions on the mini game: put counters on hexes, then ask the rules about them."""

from __future__ import annotations

from typing import Any

from engine.vaevictis.data import GameData
from engine.vaevictis.loader import build_game
from engine.vaevictis.state import GameState, Position, UnitState
from tests.vaevictis.minigame import documents

EXTRA_UNITS: list[dict[str, Any]] = [
    {
        "id": "us-3-id",
        "name": "3",
        "formation": "us-v",
        "division": "us-3",
        "kind": "infantry",
        "size": "XX",
        "steps": 3,
        "strength": 9,
        "quality": 4,
    },
    {
        "id": "us-cca",
        "name": "CCA/9",
        "formation": "us-v",
        "division": "us-9-ad",
        "kind": "armored",
        "size": "X",
        "steps": 2,
        "strength": 6,
        "quality": 4,
    },
    {
        "id": "de-12-vg",
        "name": "12 VG",
        "formation": "de-1ss",
        "division": "de-12-vg",
        "kind": "infantry",
        "size": "XX",
        "steps": 3,
        "strength": 8,
        "quality": 4,
    },
    {
        "id": "de-hansen",
        "name": "Hansen/1",
        "formation": "de-1ss",
        "division": "de-1ss-pz",
        "kind": "mechanized",
        "size": "III",
        "steps": 2,
        "strength": 6,
        "quality": 5,
    },
]


def mini_data(changes: Any = None) -> GameData:
    """The mini game with a few more counters (all arriving on turn 2, so positions place them freely)."""
    docs = documents()
    docs["counters.toml"]["unit"].extend(EXTRA_UNITS)
    docs["setup.toml"]["reinforcement"].append(
        {"turn": 2, "units": [u["id"] for u in EXTRA_UNITS if u["id"].startswith("de")], "hexes": ["0803"]}
    )
    docs["setup.toml"]["reinforcement"].append(
        {"turn": 2, "units": [u["id"] for u in EXTRA_UNITS if u["id"].startswith("us")], "hexes": ["0103"]}
    )
    if changes:
        changes(docs)
    return build_game(docs)


def position(data: GameData, placements: dict[str, int], **flags: Any) -> Position:
    """A position with exactly the given counters on the map (unit id → hex); others are off the map."""
    state = GameState(game=data.id, scenario="test", options={}, seed="00" * 32)
    for unit_id, definition in data.units.items():
        state.units[unit_id] = UnitState(id=unit_id, steps=definition.steps)
    for unit_id, hex_ in placements.items():
        assert data.map.grid.contains(hex_), f"test position puts {unit_id} off the map at {hex_:04d}"
        unit = state.units[unit_id]
        unit.hex, unit.arrived = hex_, True
    for key, value in flags.items():
        unit_id, flag = key.split("__")
        setattr(state.units[unit_id.replace("_", "-")], flag, value)
    return Position(data, state)
