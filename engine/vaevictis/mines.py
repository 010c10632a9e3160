"""[14] Booby traps and mines (Alsace 1944), from the set-up's ``[mines]`` table (``side``, ``count``).

- During an activation, an infantry unit of the mining side in a village hex may mine it for 1 AP (the
  tables' ``[actions] mine_village``). It may not be in an Improved Position: it leaves it first (12.1 lets
  it do so for nothing). It need not leave the hex.
- No unit may enter an Improved Position in a mined village (:func:`ip_refusal`).
- An enemy unit may enter a mined hex but may not leave it until one unit of its side there has spent 1 AP
  (``[actions] clear_marker``) to remove the marker; the MPs it has left are kept (6.1 "equally true with
  certain events that cost 1 AP"). :mod:`engine.vaevictis.movement` stops moves there.
- The markers are limited to the table's ``count`` (reconstructed: 14 gives no number); a removed marker
  may be used again.

The mine attempt on a retreat after combat (a quality check, not after a breakthrough) is a combat step
and is not played yet (see docs/rules/alsace44.md).
"""

from __future__ import annotations

from typing import Any

from engine.contract import Event, IllegalActionError
from engine.hexgrid import Hex, hex_name
from engine.vaevictis.data import GameData, Side
from engine.vaevictis.state import GameState, MapMarker, UnitState

MARKER = "mines"


def _table(data: GameData) -> dict[str, Any]:
    return dict(data.extra.get("mines", {}))


def mined_hexes(data: GameData, state: GameState, side: Side) -> frozenset[Hex]:
    """The hexes ``side``'s units may enter but not leave until they clear the enemy's mines (14)."""
    if not state.markers or "mines" not in data.extra:
        return frozenset()
    return frozenset(m.hex for m in state.markers if m.kind == MARKER and m.side != side)


def markers_left(data: GameData, state: GameState) -> int:
    """How many mine markers are not on the map."""
    return int(_table(data).get("count", 0)) - sum(1 for m in state.markers if m.kind == MARKER)


def mine_problem(data: GameData, state: GameState, unit: UnitState) -> IllegalActionError | None:
    """Why the unit may not mine its hex now, or ``None`` if it may."""
    table = _table(data)
    definition = data.units[unit.id]
    cost = int(data.tables.raw["actions"].get("mine_village", 1))
    if not table or data.side_of(unit.id) != table.get("side"):
        return IllegalActionError(f"{definition.name} cannot lay booby traps and mines", "14")
    if definition.kind != "infantry":
        return IllegalActionError(f"only infantry units mine a village; {definition.name} is not infantry", "14")
    if unit.hex is None or not data.map.is_village(unit.hex):
        return IllegalActionError(f"{definition.name} is not in a village: only villages are mined", "14")
    if state.markers_at(unit.hex, MARKER):
        return IllegalActionError(f"{hex_name(unit.hex)} is already mined", "14")
    if unit.improved_position:
        return IllegalActionError(
            f"{definition.name} is in an Improved Position: it leaves it (no AP) before it mines the village", "14"
        )
    if markers_left(data, state) <= 0:
        return IllegalActionError(f"all {table.get('count', 0)} booby traps and mines markers are on the map", "14")
    if unit.action_points < cost:
        return IllegalActionError(f"{definition.name} has no AP left; mining a village costs {cost} AP", "14")
    return None


def mine(data: GameData, state: GameState, unit: UnitState) -> list[Event]:
    """[14] The unit (activated, in a village) mines its hex for 1 AP. Mutates ``state``."""
    problem = mine_problem(data, state, unit)
    if problem is not None:
        raise problem
    assert unit.hex is not None
    unit.action_points -= int(data.tables.raw["actions"].get("mine_village", 1))
    unit.movement_points = 0.0
    side = data.side_of(unit.id)
    state.markers.append(MapMarker(MARKER, unit.hex, side, state.turn))
    return [
        Event(
            "mines",
            f"{data.units[unit.id].name} mines {hex_name(unit.hex)} (14).",
            {"unit": unit.id, "hex": unit.hex, "rule": "14"},
        )
    ]


def clear(data: GameData, state: GameState, unit: UnitState) -> list[Event]:
    """[14] An activated unit in an enemy-mined hex spends 1 AP to remove the marker, keeping its MPs."""
    name = data.units[unit.id].name
    if unit.hex is None or unit.hex not in mined_hexes(data, state, data.side_of(unit.id)):
        raise IllegalActionError(f"{name} is not in a hex mined by the enemy", "14")
    cost = int(data.tables.raw["actions"].get("clear_marker", 1))
    if unit.action_points < cost:
        raise IllegalActionError(f"{name} has no AP left; clearing the mines costs {cost} AP", "14")
    unit.action_points -= cost
    hex_ = unit.hex
    state.markers = [m for m in state.markers if not (m.kind == MARKER and m.hex == hex_)]
    return [
        Event(
            "mines-cleared",
            f"{name} clears the booby traps and mines in {hex_name(hex_)} (14).",
            {"unit": unit.id, "hex": hex_, "rule": "14"},
        )
    ]


def ip_refusal(data: GameData, state: GameState, unit: UnitState) -> IllegalActionError | None:
    """[14] No Improved Position in a mined village."""
    if unit.hex is not None and "mines" in data.extra and state.markers_at(unit.hex, MARKER):
        return IllegalActionError(
            f"{data.units[unit.id].name} may not take up an Improved Position in a mined village", "14"
        )
    return None
