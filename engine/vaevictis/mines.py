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

- After combat, when units of the mining side retreat out of a village and at least one of their infantry
  units survives, the owner may try to mine the village just left: a quality check (1d6 below the quality
  of the infantry unit he chooses, as 9.4), not when the attacker's breakthrough marker is on that hex.
  The chance is noted from the retreat's events (:func:`note_retreats`) and offered as an optional reaction
  (``mine_retreat``) until the activation sequence ends; it is gone once an enemy unit stands in the hex.
"""

from __future__ import annotations

from typing import Any

from engine.contract import Choice, Event, IllegalActionError
from engine.hexgrid import Hex, hex_name
from engine.vaevictis.data import GameData, Side, other_side
from engine.vaevictis.rolls import roll
from engine.vaevictis.state import GameState, MapMarker, Position, UnitState

MARKER = "mines"
CHANCES = "mine_chances"
RETREAT_REACTION = ("mine_retreat", "try to mine the village your units just retreated out of", "14", "14")
"""The optional reaction of mining the village a retreat left: verb, words, the rule cited and the prompt's."""
ADVANCE_STOP = "it entered a mined hex (14)"
"""Why an advance after combat stops in a mined hex (:func:`engine.vaevictis.retreat.advance_stops`)."""


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


# --- Mining the village left in a retreat -----------------------------------------------------------------


def note_retreats(data: GameData, state: GameState, events: list[Event]) -> None:
    """Note the villages the mining side's units just retreated out of (from the retreat events)."""
    side = _table(data).get("side")
    if side is None:
        return
    for event in events:
        if event.kind != "retreat" or "from" not in event.data:
            continue
        left, units = int(event.data["from"]), list(event.data.get("units", []))
        if not units or data.side_of(units[0]) != side or not data.map.is_village(left):
            continue
        if any(m.side != side for m in state.markers_at(left, "breakthrough")):
            continue  # 14: not after a breakthrough
        chances = state.flags.setdefault(CHANCES, [])
        chances.append({"hex": left, "units": units, "sequence": state.sequences_this_turn})


def _open_chances(data: GameData, state: GameState, side: Side) -> list[dict[str, Any]]:
    if _table(data).get("side") != side or state.phase != "operations":
        return []
    pos = Position(data, state)
    return [
        chance
        for chance in state.flags.get(CHANCES, [])
        if chance["sequence"] == state.sequences_this_turn
        and not state.markers_at(chance["hex"], MARKER)
        and pos.side_at(chance["hex"]) != other_side(side)
    ]


def retreat_choices(data: GameData, state: GameState, side: Side) -> list[Choice]:
    """The infantry units that may try to mine the village their stack just retreated out of."""
    if markers_left(data, state) <= 0:
        return []
    choices = []
    for chance in _open_chances(data, state, side):
        for unit_id in chance["units"]:
            unit = state.units[unit_id]
            if unit.on_map and data.units[unit_id].kind == "infantry":
                where = hex_name(chance["hex"])
                choices.append(
                    Choice(
                        "mine_retreat",
                        {"unit": unit_id, "hex": where},
                        f"try to mine {where} with {data.units[unit_id].name} (14)",
                    )
                )
    return choices


def mine_after_retreat(data: GameData, state: GameState, side: Side, unit_id: str, hex_: Hex) -> list[Event]:
    """[14] A quality check with the chosen infantry unit; on a pass the village just left is mined. One try."""
    chance = next((c for c in _open_chances(data, state, side) if c["hex"] == hex_ and unit_id in c["units"]), None)
    if chance is None or unit_id not in data.units or data.units[unit_id].kind != "infantry":
        raise IllegalActionError(
            "only an infantry unit of a stack that just retreated out of a village may try to mine it", "14"
        )
    if not state.units[unit_id].on_map:
        raise IllegalActionError(f"{data.units[unit_id].name} did not survive the combat", "14")
    if markers_left(data, state) <= 0:
        raise IllegalActionError("every booby traps and mines marker is on the map", "14")
    state.flags[CHANCES].remove(chance)
    quality = data.units[unit_id].quality
    die, rolled = roll(state, f"Mining {hex_name(hex_)}: quality check of {data.units[unit_id].name}", "14")
    events = [rolled]
    if die < quality:
        state.markers.append(MapMarker(MARKER, hex_, side, state.turn))
        events.append(Event("mines", f"{hex_name(hex_)} is mined (14).", {"hex": hex_, "rule": "14"}))
    else:
        events.append(Event("mines", f"The attempt to mine {hex_name(hex_)} fails (14).", {"hex": hex_}))
    return events
