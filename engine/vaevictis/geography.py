"""Named geography the rules refer to: which hexes lie across the Meuse (17.1, 17.2, 16.2)."""

from __future__ import annotations

from engine.hexgrid import Hex
from engine.vaevictis.data import GameData
from engine.vaevictis.state import UnitState

_BEYOND: dict[int, tuple[GameData, frozenset[Hex]]] = {}


def beyond_meuse(data: GameData, river: str = "Meuse") -> frozenset[Hex]:
    """The hexes on the far bank of the Meuse from the German side: its north and west bank.

    They are the hexes a walk from the German board edge cannot reach without crossing a Meuse hexside.
    Computed once per game data.
    """
    cached = _BEYOND.get(id(data))
    if cached is not None and cached[0] is data:
        return cached[1]
    game_map = data.map
    meuse = next((r for r in game_map.rivers if r.name == river), None)
    sides = meuse.hexsides if meuse else frozenset()
    start = list(game_map.friendly_edges["german"])
    seen = set(start)
    while start:
        hex_ = start.pop()
        for n in game_map.grid.neighbours(hex_):
            if n not in seen and (min(hex_, n), max(hex_, n)) not in sides:
                seen.add(n)
                start.append(n)
    result = frozenset(h for h in game_map.grid.hexes if h not in seen)
    _BEYOND[id(data)] = (data, result)
    return result


def is_british_west_of_meuse(data: GameData, unit: UnitState) -> bool:
    """[16.2] Whether a British unit stands on the west side of the Meuse, where it is always in command and
    supplied and has the XXX Corps HQ's support."""
    return unit.hex is not None and data.nationality_of(unit.id) == "british" and unit.hex in beyond_meuse(data)
