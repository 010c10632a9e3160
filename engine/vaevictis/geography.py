"""Named geography the rules refer to: which hexes lie across the objective river (Ardennes 17.1, 17.2, 16.2).

The river is named by the game's data (``[objective_river] name`` in setup.toml), never here.
"""

from __future__ import annotations

from engine.hexgrid import Hex
from engine.vaevictis.data import GameData
from engine.vaevictis.state import UnitState

_BEYOND: dict[tuple[int, str], tuple[GameData, frozenset[Hex]]] = {}


def objective_river(data: GameData) -> str:
    """The name of the river the German offensive aims to cross, as the data gives it ("" when none)."""
    table = data.extra.get("objective_river", {})
    return str(table.get("name", "")) if isinstance(table, dict) else ""


def beyond_meuse(data: GameData, river: str | None = None) -> frozenset[Hex]:
    """The hexes on the far bank of the objective river (Ardennes: the Meuse) from the German side.

    They are the hexes a walk from the German board edge cannot reach without crossing a Meuse hexside.
    Computed once per game data.
    """
    name = objective_river(data) if river is None else river
    cached = _BEYOND.get((id(data), name))
    if cached is not None and cached[0] is data:
        return cached[1]
    game_map = data.map
    water = next((r for r in game_map.rivers if r.name == name), None)
    sides = water.hexsides if water else frozenset()
    start = list(game_map.friendly_edges["german"])
    seen = set(start)
    while start:
        hex_ = start.pop()
        for n in game_map.grid.neighbours(hex_):
            if n not in seen and (min(hex_, n), max(hex_, n)) not in sides:
                seen.add(n)
                start.append(n)
    result = frozenset(h for h in game_map.grid.hexes if h not in seen)
    _BEYOND[(id(data), name)] = (data, result)
    return result


def is_british_west_of_meuse(data: GameData, unit: UnitState) -> bool:
    """[16.2] Whether a British unit stands on the west side of the Meuse, where it is always in command and
    supplied and has the XXX Corps HQ's support."""
    return unit.hex is not None and data.nationality_of(unit.id) == "british" and unit.hex in beyond_meuse(data)
