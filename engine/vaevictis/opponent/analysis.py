"""Situation analysis: what the scenario asks of each side, as maps of the board the evaluation reads.

- The objectives (:class:`Objectives`), read from the scenario's victory conditions (17; Alsace 19): the
  places to hold, the areas to reach (the far bank of the Meuse, the Rhine bank, the exit roads, the forts).
  The side the conditions name attacks; the other side (who wins by default) defends the same places.
- A distance map per side: for every hex, how many hexes it lies from that side's nearest goal, walking
  round the hexes no unit may enter. The attacker's goals are its places and areas; the defender's are the
  places the attacker needs, which it covers.
- The supply map (:func:`supply_cut`): which combat units of a side trace no line of supply (10) in the
  position, by the engine's own :class:`engine.vaevictis.supply.SupplyNet`.

Everything is computed from the game's data and the known position; maps that depend on the data alone are
kept once per game data and scenario.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.hexgrid import Hex
from engine.vaevictis.data import SIDES, GameData, Side, VictoryCondition, other_side
from engine.vaevictis.geography import beyond_meuse
from engine.vaevictis.state import Position
from engine.vaevictis.supply import SupplyNet, no_entry_hexes
from engine.vaevictis.victory import flat
from engine.vaevictis.zoc import enemy_zoc

FAR = 60
"""The distance given to a hex no goal can be walked to."""
OPEN_MOVE = 4
"""The hexes a unit is reckoned to cover in one activation, for the front's gaps."""
ZOC_PENALTY = 4
"""What a zone of control across the path to a goal counts for, in hexes (4: movement stops there)."""


@dataclass(frozen=True)
class Place:
    """A named objective: its hexes, and whether all of them must be held (Alsace 19.2 "all")."""

    name: str
    hexes: tuple[Hex, ...]
    all_hexes: bool


@dataclass(frozen=True)
class Objectives:
    """What the scenario asks: who attacks, the places at stake, the areas the attacker wants to reach."""

    attacker: Side
    places: tuple[Place, ...]
    areas: tuple[frozenset[Hex], ...]
    """Areas a unit of the attacker wins or scores by entering (the far bank of the Meuse, a region)."""
    distance: dict[Side, dict[Hex, int]]
    """Per side, each hex's distance to that side's nearest goal."""
    goal_maps: tuple[dict[Hex, int], ...] = ()
    """Each goal of the attacker on its own (a place, an area's edge): each hex's distance to it."""
    together: tuple[tuple[int, ...], ...] = ()
    """[Ardennes 17.1] Groups of places (indices into ``places`` and ``goal_maps``) the attacker must hold all
    of at once: while one of a group is not held, the attacker's units are drawn to the ones it lacks."""
    sudden: tuple[int, ...] = ()
    """[Ardennes 17.1] The goal maps (indices into ``goal_maps``) of the areas whose entry by a supplied unit wins
    the game at once (the far bank of the Meuse, "any-time"): the attacker's race to them is scored apart."""

    @property
    def defender(self) -> Side:
        return other_side(self.attacker)

    def place_at(self, hex_: Hex) -> Place | None:
        return next((p for p in self.places if hex_ in p.hexes), None)


_CACHE: dict[tuple[int, str], tuple[GameData, Objectives]] = {}


def objectives(data: GameData, scenario: str) -> Objectives:
    """The objectives of a scenario (computed once per game data and scenario)."""
    cached = _CACHE.get((id(data), scenario))
    if cached is not None and cached[0] is data:
        return cached[1]
    conditions = flat(data.scenarios[scenario].victory)
    named = [c for c in conditions if c.side in SIDES]
    attacker: Side = named[0].side if named else "german"
    places: list[Place] = []
    areas: list[frozenset[Hex]] = []
    for condition in conditions:
        places += _places_of(data, condition)
        areas += _areas_of(data, condition)
    seen: set[str] = set()
    unique = [p for p in places if not (p.name in seen or seen.add(p.name))]  # type: ignore[func-returns-value]
    place_hexes = [h for p in unique for h in p.hexes]
    attacker_goals = set(place_hexes) | {h for area in areas for h in _front_of(data, area)}
    distance = {
        attacker: distance_map(data, attacker_goals),
        other_side(attacker): distance_map(data, place_hexes or attacker_goals),
    }
    goal_maps = tuple(distance_map(data, p.hexes) for p in unique) + tuple(
        distance_map(data, _front_of(data, area)) for area in areas
    )
    index = {p.name: i for i, p in enumerate(unique)}
    together = tuple(
        tuple(index[c] for c in condition.cities)
        for condition in conditions
        if condition.kind == "hold-cities" and condition.count >= len(condition.cities) > 1
    )
    sudden: list[int] = []
    for condition in conditions:
        if condition.kind == "cross-meuse" and condition.when == "any-time":
            area = beyond_meuse(data, condition.river or None)
            sudden += [len(unique) + i for i, a in enumerate(areas) if a == area]
    result = Objectives(attacker, tuple(unique), tuple(areas), distance, goal_maps, together, tuple(sudden))
    _CACHE[(id(data), scenario)] = (data, result)
    return result


def _places_of(data: GameData, condition: VictoryCondition) -> list[Place]:
    names = [*condition.cities, *condition.places]
    found = [Place(n, tuple(sorted(data.map.place(n).hexes)), condition.city_hexes == "all") for n in names]
    if condition.kind == "hold-overlay":
        hexes = sorted(data.map.overlays.get(condition.overlay, frozenset()))
        found += [Place(f"{condition.overlay} {i + 1}", (h,), True) for i, h in enumerate(hexes)]
    return found


def _areas_of(data: GameData, condition: VictoryCondition) -> list[frozenset[Hex]]:
    if condition.kind == "cross-meuse":
        return [beyond_meuse(data, condition.river or None)]
    if condition.kind in ("reached-region", "exit-units"):
        return [frozenset(data.map.regions.get(condition.region, ()))]
    return []


def _front_of(data: GameData, area: frozenset[Hex]) -> set[Hex]:
    """The hexes of an area that touch its outside: where a unit first enters it."""
    grid = data.map.grid
    return {h for h in area if any(n not in area for n in grid.neighbours(h))} or set(area)


def distance_map(data: GameData, goals: Iterable[Hex]) -> dict[Hex, int]:
    """Each hex's distance in hexes to the nearest goal, round the hexes no unit may enter (breadth first)."""
    grid = data.map.grid
    closed = no_entry_hexes(data)
    found: dict[Hex, int] = {}
    queue: deque[Hex] = deque()
    for hex_ in sorted(set(goals)):
        found[hex_] = 0
        queue.append(hex_)
    while queue:
        hex_ = queue.popleft()
        for n in grid.neighbours(hex_):
            if n not in found and n not in closed:
                found[n] = found[hex_] + 1
                queue.append(n)
    return found


def open_reach(pos: Position, side: Side, goals: Objectives, cap: int) -> list[int]:
    """[4] How near ``side``'s combat units could come to each of the attacker's goals through the gaps of the
    enemy's front in one activation: for each goal, the least distance left after a walk of at most
    :data:`OPEN_MOVE` hexes that may enter a hex in an enemy zone of control but never leave it, and never
    enters an enemy unit's hex (at most ``cap``); a path stopped by a zone of control counts
    :data:`ZOC_PENALTY` hexes more, the fight it would take to go on. A plugged gap makes them larger."""
    zone = enemy_zoc(pos, side)
    maps = goals.goal_maps or (goals.distance[side],)
    best = [cap] * len(maps)
    for hex_, walked in _open_walk(pos, side, zone).items():
        stopped = walked > 0 and hex_ in zone
        for index, distance in enumerate(maps):
            left = distance.get(hex_, FAR)
            best[index] = min(best[index], left + (ZOC_PENALTY if stopped and left else 0))
    return best


def open_ground(pos: Position, side: Side) -> set[Hex]:
    """[4] The hexes ``side``'s combat units could cross in one activation without being stopped by an enemy
    zone of control (:data:`OPEN_MOVE` hexes, as :func:`open_reach` walks): where the enemy's front is open."""
    zone = enemy_zoc(pos, side)
    return {h for h, walked in _open_walk(pos, side, zone).items() if walked > 0 and h not in zone}


def _open_walk(pos: Position, side: Side, zone: Mapping[Hex, object]) -> dict[Hex, int]:
    """[4] Every hex ``side``'s combat units reach in a walk of at most :data:`OPEN_MOVE` hexes that may enter a
    hex of the enemy's zone of control ``zone`` but never leave it, and never enters an enemy unit's hex: each
    with the hexes walked to it (0 for the units' own hexes)."""
    grid = pos.data.map.grid
    closed = no_entry_hexes(pos.data) | {h for h, us in pos.occupants.items() if pos.side_of(us[0].id) != side}
    steps = dict.fromkeys(_combat_hexes(pos, side), 0)
    queue: deque[Hex] = deque(steps)
    while queue:
        hex_ = queue.popleft()
        walked = steps[hex_]
        if walked >= OPEN_MOVE or (walked > 0 and hex_ in zone):
            continue
        for n in grid.neighbours(hex_):
            if n not in steps and n not in closed:
                steps[n] = walked + 1
                queue.append(n)
    return steps


def _combat_hexes(pos: Position, side: Side) -> list[Hex]:
    """The hexes holding a combat unit (not only HQs) of ``side``, in hex order."""
    return [
        h
        for h, us in sorted(pos.occupants.items())
        if pos.side_of(us[0].id) == side and any(not pos.unit_def(u.id).is_hq for u in us)
    ]


def supply_roads(pos: Position, side: Side, near: int = 4) -> frozenset[Hex]:
    """[10.2] The roads ``side``'s units trace supply along (road hexes linked to its friendly edge through
    open hexes) within ``near`` hexes of its combat units: where an enemy zone of control would cut lines."""
    net = SupplyNet(pos, side)
    around = distance_map(pos.data, _combat_hexes(pos, side))
    return frozenset(h for h in net.road_to_edge if around.get(h, FAR) <= near)


def supply_cut(pos: Position, side: Side) -> set[str]:
    """The combat units of ``side`` that trace no line of supply in this position (10)."""
    net = SupplyNet(pos, side)
    return {
        u.id
        for u in pos.state.on_map()
        if pos.side_of(u.id) == side and not pos.unit_def(u.id).is_hq and not net.is_supplied(u)
    }


def enemy_hexes(pos: Position, side: Side) -> dict[Hex, list[str]]:
    """The hexes the enemy of ``side`` holds, with its units there."""
    return {h: [u.id for u in units] for h, units in pos.occupants.items() if pos.side_of(units[0].id) != side}
