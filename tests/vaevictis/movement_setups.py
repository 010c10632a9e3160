"""A small map and units for the movement tests: positions built hex by hex."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.vaevictis.data import GameData
from engine.vaevictis.loader import build_game
from engine.vaevictis.state import GameState, UnitState
from tests.vaevictis.minigame import documents

COLUMNS, ROWS = 12, 10


UNITS: list[dict[str, Any]] = [
    # id, name, formation, kind, steps, strength
    {"id": "hq-us-v", "name": "V", "formation": "us-v", "kind": "hq", "steps": 1, "strength": 1, "c3i": "A"},
    {"id": "us-393", "name": "393/99", "formation": "us-v", "kind": "infantry", "steps": 4, "strength": 12},
    {"id": "us-394", "name": "394/99", "formation": "us-v", "kind": "infantry", "steps": 4, "strength": 12},
    {"id": "us-ccb", "name": "CCB/9", "formation": "us-v", "kind": "armored", "steps": 3, "strength": 9},
    {"id": "us-cav", "name": "14 Cav", "formation": "us-v", "kind": "mechanized", "steps": 2, "strength": 6},
    {"id": "hq-br", "name": "XXX", "formation": "br-30", "kind": "hq", "steps": 1, "strength": 1, "c3i": "A"},
    {"id": "br-53", "name": "53", "formation": "br-30", "kind": "infantry", "steps": 4, "strength": 12},
    {"id": "br-29", "name": "29 BB", "formation": "br-30", "kind": "armored", "steps": 2, "strength": 6},
    {"id": "hq-de", "name": "I SS", "formation": "de-1ss", "kind": "hq", "steps": 1, "strength": 1, "c3i": "B"},
    {"id": "de-326", "name": "326 VG", "formation": "de-1ss", "kind": "infantry", "steps": 3, "strength": 9},
    {"id": "de-272", "name": "272 VG", "formation": "de-1ss", "kind": "infantry", "steps": 3, "strength": 9},
    {"id": "de-peiper", "name": "Peiper/1", "formation": "de-1ss", "kind": "armored", "steps": 2, "strength": 8},
    {"id": "de-hansen", "name": "Hansen/1", "formation": "de-1ss", "kind": "mechanized", "steps": 2, "strength": 6},
    {"id": "de-116", "name": "116/Pz", "formation": "de-1ss", "kind": "armored", "steps": 2, "strength": 8},
    {"id": "de-weak", "name": "KG Weak", "formation": "de-1ss", "kind": "infantry", "steps": 1, "strength": 1},
    {"id": "de-two", "name": "KG Two", "formation": "de-1ss", "kind": "infantry", "steps": 1, "strength": 2},
]


def build(
    terrain: Mapping[str, str] | None = None,
    *,
    rivers: Iterable[tuple[str, str, bool]] = (),
    roads: Iterable[Iterable[str]] = (),
    places: Mapping[str, str] | None = None,
    westwall: Iterable[str] = (),
) -> GameData:
    """A 12 x 10 clear map with the given terrain letters, rivers ``(a, b, bridged)``, roads and places."""
    docs = documents()
    lines = []
    for r in range(1, ROWS + 1):
        cells = []
        for c in range(1, COLUMNS + 1):
            if c % 2 == 1 and r == ROWS:
                cells.append(" ")
            else:
                cells.append((terrain or {}).get(f"{c:02d}{r:02d}", "."))
        lines.append("".join(cells))
    rivers = list(rivers)
    docs["map.toml"] = {
        "map": {"name": "Movement test map", "columns": COLUMNS, "rows": ROWS, "lower_columns": "odd"},
        "terrain": {"rows": lines, "westwall": list(westwall)},
        "place": [{"name": "Alpha", "hex": "0101", "kind": "city"}]
        + [{"name": f"Place {h}", "hex": h, "kind": kind} for h, kind in (places or {}).items()],
        "river": [
            {
                "name": "Our",
                "hexsides": [[a, b] for a, b, _ in rivers],
                "bridges": [[a, b] for a, b, bridged in rivers if bridged],
            }
        ]
        if rivers
        else [],
        "road": [{"name": f"Road {i}", "hexes": list(hexes)} for i, hexes in enumerate(roads)],
        "edges": {"german": [{"edge": "east"}], "allied": [{"edge": "west"}]},
        "entry": {"german": ["1205", "1206"], "allied": ["0105", "0106"]},
    }
    docs["counters.toml"] = {
        "army": [
            {"id": "us-1st", "name": "US 1st Army", "side": "allied", "nationality": "us"},
            {"id": "br-xxx", "name": "British XXX Corps", "side": "allied", "nationality": "british"},
            {"id": "de-6pz", "name": "6. Panzerarmee", "side": "german", "nationality": "german"},
        ],
        "formation": [
            {"id": "us-v", "name": "V Corps", "army": "us-1st", "color": "#336699", "hq": "hq-us-v"},
            {"id": "br-30", "name": "XXX Corps", "army": "br-xxx", "color": "#993333", "hq": "hq-br"},
            {"id": "de-1ss", "name": "I SS Pz Korps", "army": "de-6pz", "color": "#e8d44d", "hq": "hq-de"},
        ],
        "unit": [{"size": "X", "quality": 4, **({"support": 1} if u["kind"] == "hq" else {}), **u} for u in UNITS],
        "detachment": [{"nationality": "us", "steps": 2, "strength_per_step": 3}],
    }
    docs["setup.toml"]["setup"] = []
    docs["setup.toml"]["reinforcement"] = [
        {"turn": 1, "units": [u["id"] for u in UNITS if u["formation"] != "de-1ss"], "hexes": ["0105"]},
        {"turn": 1, "units": [u["id"] for u in UNITS if u["formation"] == "de-1ss"], "hexes": ["1205"]},
    ]
    docs["setup.toml"]["support"] = [
        {"army": "us-1st", "turn": 0, "markers": {"artillery": 1}},
        {"army": "de-6pz", "turn": 0, "markers": {"nebelwerfer": 1}},
    ]
    return build_game(docs)


def position(data: GameData, placements: Mapping[str, tuple[str, int]]) -> GameState:
    """A state in the operations phase with units placed as ``{unit: (hex, action points)}``."""
    state = GameState(game=data.id, scenario="test", options={}, seed="00", phase="operations")
    for unit_id, definition in data.units.items():
        state.units[unit_id] = UnitState(id=unit_id, steps=definition.steps)
    for unit_id, (hex_text, ap) in placements.items():
        unit = state.units[unit_id]
        unit.hex = int(hex_text)
        unit.arrived = True
        unit.action_points = ap
    return state
