"""[4] Zones of control: which hexes each unit controls, and which of them a moving side must respect.

[4.1] A unit controls its own hex and the six around it, but never across a river, bridged or not. An HQ or a
unit whose combat strength is 1 controls only its own hex, which enemy units may not enter. [7.8] A
breakthrough marker cancels the other side's control in its hex and the six around it, but not the control
a unit exerts over its own hex. [15.3] A Roadblock has no zone of control. The tables' ``[zoc]`` names the
kinds of counter with no zone at all or a full zone whatever their strength (Alsace 1944 12.2, 16).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engine.hexgrid import Hex
from engine.vaevictis.data import Side, other_side
from engine.vaevictis.state import Position, UnitState


def exerts_zoc_beyond_own_hex(pos: Position, unit: UnitState) -> bool:
    """[4.1] Whether a unit's zone reaches the adjacent hexes (not an HQ, strength above 1).

    The tables' ``[zoc] full`` kinds reach them whatever their strength (Alsace 1944 16: face-down
    garrisons, whose strength nobody knows, exert a zone of control); a Raid's commando never does (Alsace
    1944 15.3), though it is counted as a garrison."""
    if unit.id in pos.state.flags.get("commandos", ()):
        return False
    definition = pos.unit_def(unit.id)
    if definition.kind in pos.data.tables.raw.get("zoc", {}).get("full", ()):
        return True
    return not definition.is_hq and pos.strength(unit) > 1


def zoc_hexes(pos: Position, unit: UnitState) -> set[Hex]:
    """[4.1] The hexes a unit controls, before any breakthrough; none for the tables' ``[zoc] none`` kinds
    (Alsace 1944 12.2: a strongpoint has no zone of control)."""
    return set(_zone(pos, unit))


ZONES_KEPT = 50_000
"""How many zones :func:`_zone` keeps per game's data before it starts again (a bound on its memory)."""


def _zone(pos: Position, unit: UnitState) -> frozenset[Hex]:
    """:func:`zoc_hexes`, kept per game's data by everything it depends on: the unit, its hex, its steps (its
    strength, 1.2), its parent division (a detachment's strength, 18) and whether it is a Raid's commando."""
    assert unit.hex is not None
    key = (unit.id, unit.hex, unit.steps, unit.parent, unit.id in pos.state.flags.get("commandos", ()))
    zones: dict[tuple[object, ...], frozenset[Hex]] = pos.data.derived.setdefault("zones", {})
    zone = zones.get(key)
    if zone is None:
        if len(zones) >= ZONES_KEPT:
            zones.clear()
        zone = zones[key] = frozenset(_unit_zone(pos, unit, unit.hex))
    return zone


def _unit_zone(pos: Position, unit: UnitState, hex_: Hex) -> set[Hex]:
    if pos.unit_def(unit.id).kind in pos.data.tables.raw.get("zoc", {}).get("none", ()):
        return set()
    hexes = {hex_}
    if exerts_zoc_beyond_own_hex(pos, unit):
        hexes.update(pos.data.map.dry_neighbours[hex_])
    return hexes


def breakthrough_area(pos: Position, side: Side) -> set[Hex]:
    """[7.8] The hexes where the breakthrough markers of ``side`` cancel enemy zones of control."""
    area: set[Hex] = set()
    for marker in pos.state.markers:
        if marker.kind == "breakthrough" and marker.side == side:
            area.add(marker.hex)
            area.update(pos.data.map.grid.neighbours(marker.hex))
    return area


def enemy_zoc(pos: Position, side: Side) -> dict[Hex, set[str]]:
    """The hexes where the enemies of ``side`` exert a zone of control, each with the units exerting it.

    Breakthrough markers of ``side`` are applied (7.8). The "same unit" rule of 4.2 needs the unit ids.
    """
    return {hex_: set(ids) for hex_, ids in enemy_zones(pos, side).items()}  # the caller's own to change


def enemy_zones(pos: Position, side: Side) -> Mapping[Hex, frozenset[str]]:
    """:func:`enemy_zoc`, read-only and shared: kept per game's data (:data:`ENEMY_ZONES_KEPT`)."""
    enemy = other_side(side)
    side_of = pos.data.side_of
    exerting = [unit for units in pos.occupants.values() for unit in units if side_of(unit.id) == enemy]
    commandos = pos.state.flags.get("commandos", ())
    breakthroughs = [m.hex for m in pos.state.markers if m.kind == "breakthrough" and m.side == side]
    key = (
        side,
        tuple((u.id, u.hex, u.steps, u.parent, u.id in commandos) for u in exerting),
        tuple(breakthroughs),
    )
    kept: dict[tuple[object, ...], Mapping[Hex, frozenset[str]]] = pos.data.derived.setdefault("enemy_zoc", {})
    found = kept.get(key)
    if found is None:
        found = MappingProxyType({hex_: frozenset(ids) for hex_, ids in _enemy_zoc(pos, side, exerting).items()})
        if len(kept) >= ENEMY_ZONES_KEPT:
            kept.pop(next(iter(kept)))
        kept[key] = found
    return found


ENEMY_ZONES_KEPT = 16
"""How many sides' whole zones :func:`enemy_zoc` keeps per game's data, keyed by every unit exerting one (id,
hex, steps, parent, commando) and the breakthrough markers: the zones of a position's two sides and of the
positions just before, which most questions of an activation ask again."""


def _enemy_zoc(pos: Position, side: Side, exerting: list[UnitState]) -> dict[Hex, set[str]]:
    cancelled = breakthrough_area(pos, side)
    control: dict[Hex, set[str]] = {}
    for unit in exerting:
        for hex_ in _zone(pos, unit):
            if hex_ in cancelled and hex_ != unit.hex:
                continue
            control.setdefault(hex_, set()).add(unit.id)
    return control
