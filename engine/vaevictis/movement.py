"""[6] Movement: where a unit or stack may go with the action points it has, and moving it there.

The rules of the chapter and of the others that bear on a move, in the order a move meets them:

- [6.1] A move action costs 1 AP and gives the unit its movement allowance: 4 MP for infantry, 6 for
  mechanized and armored units (HQ: the tables' allowance). Unused MPs are lost, except that consecutive
  move actions sum: a unit short of MPs for the next hex buys another move action and goes on.
  ``UnitState.movement_points`` holds what is left of the last move action for a consecutive one.
- [6.2] Terrain costs come from the Terrain Effects Chart (``[terrain.*]`` in the tables). The road rate is
  paid only by a unit moving alone between hexes that hold no other unit; otherwise it pays the terrain.
  Crossing a river includes entering the hex beyond.
- [13.1] Rivers: US (and British) infantry pays 2 MP anywhere, mechanized 3 MP at a bridge only; German
  infantry pays 1 AP anywhere, mechanized 1 AP at a bridge only, then goes on with the MPs it has left.
- [4.2] Entering an enemy zone of control stops the move and obliges an attack (not in a city, village or
  forest, 4.3), and is forbidden without the AP for a normal attack, except into those hexes. Leaving a zone
  costs +1 MP; going straight from one zone to another costs +2 MP, and is forbidden within one enemy unit's
  zone. [7.8] Breakthrough markers cancel zones (see :func:`engine.vaevictis.zoc.enemy_zoc`); [15.2] the
  150 Pz Brigade lets a stack ignore them (``ignore_zoc``). An HQ cannot attack (1.3): HQs alone enter an
  enemy zone only where attack is optional.
- [4.1] A hex holding enemy units is never entered. [15.3] A Roadblock closes its hex to the Germans;
  [15.2] a Stosser marker closes its hex to the Allies.
- [5] Friendly stacks are crossed freely; a move may not end with more than 6 steps in its hex.
- [16.1] A reinforcement enters by a move action, paying its entry hex plus 1 MP per unit that already
  entered there this activation sequence; US units in trucks pay 1/2 MP per free road hex more than 2 hexes
  from any enemy unit.
- [17.1] A unit marked ``cannot_move`` does not move.

Consecutive move actions that sum their MPs form one movement (the example of 6.1): the stacking limit is
checked where that movement ends. The search (:func:`legal_destinations`) keeps, per hex, the Pareto set of
(APs left, MPs left) labels and settles labels fewest APs spent first, then most MPs left, so the route it
gives for each hex is the cheapest one.
"""

from __future__ import annotations

import heapq
import math
import weakref
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from engine.contract import Event, IllegalActionError, InvalidActionError
from engine.hexgrid import Hex, hex_name, hexside
from engine.vaevictis import control, mines, stratagems
from engine.vaevictis.data import SIDES, GameData, Side, UnitDef, other_side
from engine.vaevictis.state import GameState, Position, UnitState
from engine.vaevictis.trucks import allowance as truck_allowance
from engine.vaevictis.trucks import motorized_units
from engine.vaevictis.zoc import enemy_zones

MobilityClass = str
"""``"infantry"`` or ``"mechanized"``: the columns of the Terrain Effects Chart (6.2)."""

PROHIBITED = math.inf
"""The cost of a move the rules forbid (an unbridged river for mechanized units, 13.1)."""


@dataclass(frozen=True)
class Route:
    """One way for a unit or stack to reach a hex in this activation, with what it costs."""

    destination: Hex
    """The hex where the move ends."""
    path: tuple[Hex, ...]
    """Every hex from the start hex (included; the entry hex for a reinforcement) to the destination."""
    ap_spent: int
    """Action points spent: move actions (6.1, 16.1) plus German river crossings (13.1)."""
    mp_left: float
    """MPs left in the last move action, which a consecutive move action may use (6.1); 0 after entering a ZoC."""
    enters_enemy_zoc: bool
    """Whether the move ends by entering an enemy zone of control, which stops it (4.2)."""
    mp_spent: float
    """Every MP paid along the path, for display."""


# --- Per-map tables (cached on the game data) --------------------------------------------------------------

_NO_RIVER, _RIVER, _BRIDGE, _CANAL, _UNCROSSABLE = 0, 1, 2, 3, 4
_CROSSING_KEYS = {_RIVER: "river", _BRIDGE: "bridge", _CANAL: "canal", _UNCROSSABLE: "uncrossable"}
"""The crossing chart entry of each kind of hexside water (a bridge on a canal is a bridge)."""


@dataclass(frozen=True)
class _MapTables:
    """What a search asks of the map and the charts at every step, computed once per game data."""

    links: Mapping[Hex, tuple[tuple[Hex, bool, int], ...]]
    """Per hex: each neighbour, whether a road links them, and the river between (none, river, bridge)."""
    cost: Mapping[str, Mapping[Hex, float]]
    """MPs to enter each hex off road, per class, and for a stack of both (6.2, Terrain Effects Chart)."""
    road: Mapping[MobilityClass, float]
    """MPs per hex along a road for a unit alone (6.2)."""
    road_hexes: frozenset[Hex]
    shelter: Mapping[Side, frozenset[Hex]]
    """Per moving side, the hexes where attack is optional: city, village and forest, entered in an enemy ZoC
    without AP to attack (4.2, 4.3), and the Westwall for the Germans (Terrain Effects Chart)."""
    crossing: Mapping[tuple[bool, MobilityClass, int], tuple[float, int]]
    """(German?, class, kind of water) -> (MP, AP) to cross, and enter the hex beyond unless ``additive`` (13.1)."""
    additive: bool
    """Whether the crossing MPs are added to the cost of the hex entered (Alsace 1944 TEC) rather than
    replacing it (Ardennes 1944 13.1)."""
    allowance: Mapping[str, float]
    """Movement allowance per unit kind (6.1)."""
    max_steps: int
    attack_ap: int
    move_ap: int
    road_alone_counts: frozenset[MobilityClass] | None = None
    """[6.2] The classes bound by the road's "alone" rule, and the only ones that count as company (Alsace
    1944: mechanized; the others always have the road rate); ``None``: every unit (Ardennes 1944)."""
    along_river: Mapping[tuple[Hex, Hex], tuple[Hex, ...]] | None = None
    """[4.1] Per pair of adjacent hexes (both orders), the hexes beyond the river hexsides of both: a move
    between the two runs along that river (Alsace 1944 ``[zoc] along_river_hexside``); ``None`` if no rule."""


_CACHE: dict[int, tuple[weakref.ref[GameData], _MapTables]] = {}


def _tables(data: GameData) -> _MapTables:
    """The cached per-map tables of a game's data."""
    cached = _CACHE.get(id(data))
    if cached is not None and cached[0]() is data:
        return cached[1]
    tables = _build_tables(data)
    _CACHE[id(data)] = (weakref.ref(data), tables)
    return tables


def _number(value: Any) -> float:
    """A chart figure: a number, or ``PROHIBITED`` for "prohibited"."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return PROHIBITED


def _build_tables(data: GameData) -> _MapTables:
    raw = data.tables.raw
    terrain_chart = raw["terrain"]
    alone_counts = terrain_chart["road"].get("alone_counts")
    crossing, additive = _crossings(data)
    return _MapTables(
        links=_links(data),
        cost=_terrain_costs(data),
        road={c: _number(terrain_chart["road"][c]) for c in _CLASSES},
        road_hexes=data.map.road_hexes,
        shelter=_shelters(data),
        crossing=crossing,
        additive=additive,
        allowance={k: float(v) for k, v in raw["movement_allowance"].items()},
        max_steps=int(raw["stacking"]["max_steps"]),
        attack_ap=int(raw["actions"]["normal_attack"]),
        move_ap=int(raw["actions"]["move"]),
        road_alone_counts=frozenset(alone_counts) if alone_counts is not None else None,
        along_river=_along_river(data) if raw.get("zoc", {}).get("along_river_hexside") else None,
    )


_CLASSES: tuple[MobilityClass, ...] = ("infantry", "mechanized")


def _links(data: GameData) -> dict[Hex, tuple[tuple[Hex, bool, int], ...]]:
    """Per hex, its neighbours with whether a road joins them and the water of the hexside between (13.1)."""
    raw = data.tables.raw
    game_map = data.map
    grid = game_map.grid
    links: dict[Hex, tuple[tuple[Hex, bool, int], ...]] = {}
    for h in grid.hexes:
        entries = []
        for n in grid.neighbours(h):
            side = hexside(h, n)
            river = _NO_RIVER
            if side in game_map.river_at:
                water = game_map.river_at[side].kind
                if water == "uncrossable":
                    river = _UNCROSSABLE
                elif side in game_map.bridges:
                    river = _BRIDGE
                else:
                    river = _CANAL if water == "canal" and "canal" in raw["crossing"] else _RIVER
            entries.append((n, side in game_map.road_links, river))
        links[h] = tuple(entries)
    return links


def _terrain_costs(data: GameData) -> dict[str, dict[Hex, float]]:
    """[TEC] The MPs to enter each hex per class, and for a stack of both classes (the worse, 6.1)."""
    terrain_chart = data.tables.raw["terrain"]
    game_map = data.map
    grid = game_map.grid
    cost: dict[str, dict[Hex, float]] = {c: {} for c in _CLASSES}
    for h in grid.hexes:
        for c in _CLASSES:
            # Overlays replace the terrain's cost unless the chart says "other" (OTIH).
            value = _number(terrain_chart[game_map.terrain[h]][c])
            overlays = list(game_map.overlays_at(h))
            if game_map.is_city(h):
                overlays.append("city")
            elif game_map.is_village(h):
                overlays.append("village")
            for overlay in overlays:
                figure = terrain_chart[overlay][c]
                if figure != "other":
                    value = _number(figure)
            cost[c][h] = value
    # A stack of both classes pays the worse of the two (6.1).
    cost["infantry+mechanized"] = {h: max(cost["infantry"][h], cost["mechanized"][h]) for h in grid.hexes}
    return cost


def _shelters(data: GameData) -> dict[Side, frozenset[Hex]]:
    """[4.2, 4.3] Per moving side, the hexes where entering an enemy zone of control needs no attack."""
    terrain_chart = data.tables.raw["terrain"]
    game_map = data.map
    grid = game_map.grid
    shelter = frozenset(
        h
        for h in grid.hexes
        if (game_map.is_city(h) and terrain_chart["city"].get("attack_optional"))
        or (game_map.is_village(h) and terrain_chart["village"].get("attack_optional"))
        or terrain_chart[game_map.terrain[h]].get("attack_optional")
    )
    # The chart's Westwall row is headed "Germ.": its attack optional, like its column shift, is the German's.
    westwall = terrain_chart.get("westwall", {})
    westwall_side = westwall.get("column_shift_only_for")
    # Other overlays marked "attack optional" (Alsace 1944 forts and factories) shelter both sides.
    shelter |= frozenset(
        h
        for kind, hexes in game_map.overlays.items()
        if kind != "westwall" and terrain_chart.get(kind, {}).get("attack_optional")
        for h in hexes
    )
    by_side: dict[Side, frozenset[Hex]] = {}
    for mover_side in SIDES:
        optional = westwall.get("attack_optional") and westwall_side in (None, mover_side)
        by_side[mover_side] = shelter | game_map.westwall if optional else shelter
    return by_side


def _crossings(data: GameData) -> tuple[dict[tuple[bool, MobilityClass, int], tuple[float, int]], bool]:
    """[13.1] The (MP, AP) to cross each kind of water per side and class, and whether the MPs add to the hex's."""
    raw = data.tables.raw
    crossing: dict[tuple[bool, MobilityClass, int], tuple[float, int]] = {}
    additive = any(chart.get("mode") == "additive" for chart in raw["crossing"].values())
    for river_kind, key in _CROSSING_KEYS.items():
        chart = raw["crossing"].get(key)
        if chart is None:
            continue
        for c in _CLASSES:
            if f"{c}_mp" in chart:
                # The same MPs for both sides (Alsace 1944 TEC).
                mp = _number(chart[f"{c}_mp"])
                crossing[(False, c, river_kind)] = crossing[(True, c, river_kind)] = (mp, 0)
                continue
            # Ardennes 1944 13.1: the Americans pay MPs, the Germans APs.
            us_mp = _number(chart[f"us_{c}_mp"])
            german_ap = _number(chart[f"german_{c}_ap"])
            crossing[(False, c, river_kind)] = (us_mp, 0)
            crossing[(True, c, river_kind)] = (0.0, int(german_ap)) if german_ap != PROHIBITED else (PROHIBITED, 0)
    return crossing, additive


def _along_river(data: GameData) -> dict[tuple[Hex, Hex], tuple[Hex, ...]]:
    """[4.1] Per pair of adjacent hexes, the hexes beyond the river hexsides of both (Alsace 1944)."""
    game_map = data.map
    grid = game_map.grid
    along_river: dict[tuple[Hex, Hex], tuple[Hex, ...]] = {}
    for h in grid.hexes:
        for n in grid.neighbours(h):
            beyond = tuple(
                e
                for e in grid.neighbours(h)
                if grid.are_adjacent(e, n) and hexside(h, e) in game_map.river_at and hexside(n, e) in game_map.river_at
            )
            if beyond:
                along_river[(h, n)] = beyond
    return along_river


def _terrain_classes(data: GameData) -> Mapping[str, MobilityClass]:
    """:func:`terrain_class` of every unit of the game, read once per game's data (every move asks)."""
    found: Mapping[str, MobilityClass] | None = data.derived.get("terrain_classes")
    if found is None:
        found = data.derived["terrain_classes"] = {u: terrain_class(d) for u, d in data.units.items()}
    return found


def terrain_class(unit: UnitDef) -> MobilityClass:
    """[6.1] The Terrain Effects Chart column a unit pays: infantry, or mechanized for armor, mechanized and HQ.

    CLARIFICATION: the chart has no HQ column; an HQ has the mechanized allowance (6 MP) and pays
    mechanized costs.
    """
    return "infantry" if unit.kind == "infantry" else "mechanized"


def crossing_class(unit: UnitDef) -> MobilityClass:
    """[13.1] The crossing column a unit uses: only armored and mechanized combat units are bound to bridges.

    CLARIFICATION: 13.1 names "armored or mechanized combat units"; an HQ is not a combat unit and crosses
    as infantry does.
    """
    return "mechanized" if unit.is_mechanized else "infantry"


MOBILITY_CLASSES: tuple[MobilityClass, ...] = ("infantry", "mechanized")


def entry_cost(data: GameData, hex_: Hex, mobility: MobilityClass) -> float:
    """[6.2] The MPs a unit of that class pays to enter the hex off road (``PROHIBITED`` where it may not)."""
    return _tables(data).cost[mobility][hex_]


def road_cost(data: GameData, mobility: MobilityClass) -> float:
    """[6.2] The MPs a unit of that class alone pays per hex along a road."""
    return _tables(data).road[mobility]


def is_shelter(data: GameData, hex_: Hex, side: Side) -> bool:
    """[4.2, 4.3] Whether a unit of ``side`` entering an enemy zone of control in this hex (a city, village or
    forest; the Westwall for the German) need not attack, and so may enter it without the AP an attack costs."""
    return hex_ in _tables(data).shelter[side]


# --- The moving group --------------------------------------------------------------------------------------

# Why a step fails; the search only needs to know that it does, check_move says why.
_OK = 0
_ENEMY = 1
_MARKER = 2
_RIVER_CLOSED = 4
_NO_AP_TO_CROSS = 5
_NO_MP = 6
_SAME_UNIT_ZOC = 7
_NO_AP_TO_ATTACK = 8
_TERRAIN_CLOSED = 9
_ALONG_RIVER = 10


def _check_named(data: GameData, state: GameState, unit_ids: Sequence[str]) -> None:
    """Refuse a move that names no unit, an unknown one, or one twice."""
    if not unit_ids:
        raise InvalidActionError("name at least one unit to move")
    for unit_id in unit_ids:
        if unit_id not in state.units or unit_id not in data.units:
            raise InvalidActionError(f"there is no unit {unit_id!r}")
    if len(set(unit_ids)) != len(unit_ids):
        raise InvalidActionError("a unit is named twice")


class _Mover:
    """A unit or stack about to move, with the position read once for the whole search."""

    def __init__(
        self,
        data: GameData,
        state: GameState,
        unit_ids: Sequence[str],
        *,
        ignore_zoc: bool,
        entering_at: Hex | None,
        entered_already: int,
        trucks: bool,
    ) -> None:
        self.data = data
        self.state = state
        self.tables = _tables(data)
        _check_named(data, state, unit_ids)
        self.ids = tuple(unit_ids)
        self.units: list[UnitState] = [state.units[u] for u in unit_ids]
        self.defs = [data.units[u] for u in unit_ids]
        self.names = " and ".join(d.name for d in self.defs)
        self.pos = Position(data, state)
        sides = {data.side_of(u) for u in unit_ids}
        if len(sides) != 1:
            raise InvalidActionError("units of both sides cannot move together")
        self.side: Side = sides.pop()
        self.german = self.side == "german"
        self.entering_at = entering_at
        self.entered_already = entered_already
        self.ignore_zoc = ignore_zoc
        self.shelter = self.tables.shelter[self.side]
        motorized = motorized_units(data, state)
        self._read_pace(motorized, trucks)
        # [1.3] An HQ's strength serves only in defence: a stack of HQs alone can never attack.
        self.can_attack = not all(d.is_hq for d in self.defs)
        self.attack_ap = self.tables.attack_ap if self.can_attack else 1_000_000
        self.ap = min(u.action_points for u in self.units)
        self.mp = 0.0 if entering_at is not None else min(u.movement_points for u in self.units)
        self.steps = sum(u.steps for u in self.units)
        self.start: Hex | None = None if entering_at is not None else self.units[0].hex
        enemy_hexes = self._read_board(motorized)
        self._read_closures(motorized)
        self.near_enemy: set[Hex] = set()
        if self.trucks:
            grid = data.map.grid
            for hex_ in enemy_hexes:
                self.near_enemy.update(grid.within(hex_, 2))

    def _read_pace(self, motorized: frozenset[str], trucks: bool) -> None:
        """[6.1] The stack moves at the pace of its slowest member and pays the worst of its classes; [17] a
        motorized battalion (Alsace 1944 trucks) moves and crosses as a mechanized unit."""
        data, t = self.data, self.tables
        members = list(zip(self.ids, self.defs, strict=True))
        self.allowance = min(truck_allowance(data, u) if u in motorized else t.allowance[d.kind] for u, d in members)
        member_classes = ["mechanized" if u in motorized else terrain_class(d) for u, d in members]
        self.classes = sorted(set(member_classes))
        crossing_classes = sorted({"mechanized" if u in motorized else crossing_class(d) for u, d in members})
        self.cost = t.cost["+".join(self.classes)]
        # [6.2] Only a unit moving alone may use the road rate; [16.1] trucks pay 1/2 on roads.
        self.alone = len(self.ids) == 1
        self.road_rate = t.road[self.classes[-1]]
        self.road_alone = self.alone
        counted = t.road_alone_counts
        if counted is not None:
            # [6.2] Alsace 1944: only the counted classes need to be alone, and only they count as company.
            self.road_alone = sum(1 for c in member_classes if c in counted) <= 1
            self.road_rate = max(t.road[c] for c in self.classes)
        self.trucks = (trucks or (self.entering_at is None and rides_trucks(self.state, self.ids))) and self.alone
        self.crossing = {
            kind: (
                max(t.crossing[(self.german, c, kind)][0] for c in crossing_classes),
                max(t.crossing[(self.german, c, kind)][1] for c in crossing_classes),
            )
            for kind in _CROSSING_KEYS
            if (self.german, crossing_classes[0], kind) in t.crossing
        }

    def _read_board(self, motorized: frozenset[str]) -> list[Hex]:
        """The board as this side sees it: hexes the enemy holds (closed), hexes of friendly units with their
        steps (5) and the company that denies the road rate (6.2); the enemy-held hexes are returned."""
        data = self.data
        enemy = other_side(self.side)
        movers = set(self.ids)
        counted = self.tables.road_alone_counts
        self.blocked: dict[Hex, int] = {}
        self.blocking_marker: dict[Hex, str] = {}
        """The event marker that blocks a hex, for the refusal's wording."""
        self.other_units: set[Hex] = set()
        """Hexes holding friendly units that deny the road rate (6.2): any other unit, or only those of the
        classes the road's ``alone_counts`` names."""
        self.friendly_steps: dict[Hex, int] = {}
        enemy_hexes = []
        side_of = data.side_of
        movers_at = {u.hex for u in self.units}
        classes = _terrain_classes(data) if counted is not None else {}
        for hex_, occupants in self.pos.occupants.items():
            if side_of(occupants[0].id) == enemy:
                self.blocked[hex_] = _ENEMY
                enemy_hexes.append(hex_)
                continue
            others = [u for u in occupants if u.id not in movers] if hex_ in movers_at else occupants
            if others:
                if counted is None or any(
                    ("mechanized" if u.id in motorized else classes[u.id]) in counted for u in others
                ):
                    self.other_units.add(hex_)
                self.friendly_steps[hex_] = sum([u.steps for u in others])
        return enemy_hexes

    def _read_closures(self, motorized: frozenset[str]) -> None:
        """What else closes a hex or costs to enter it: the enemy's event markers and stratagems, the enemy's
        zones of control and mines."""
        data, state = self.data, self.state
        # [15.2, 15.3] The enemy's hex-blocking event markers (Ardennes: Roadblock, Stosser).
        blocking = data.events_with_effect("blocks-hex", "blocks-hex-on-roll")
        for marker in state.markers:
            if marker.kind in blocking and marker.side != self.side:
                self.blocked.setdefault(marker.hex, _MARKER)
                self.blocking_marker[marker.hex] = marker.kind
        # [Alsace 15.2] Alarm Battalions close a hex, Antitank Ditches to armour; a Bottleneck costs mechanised APs.
        armored = any(d.kind == "armored" for d in self.defs)
        for hex_, kind in stratagems.blocked_hexes(data, state, self.side, armored).items():
            self.blocked.setdefault(hex_, _MARKER)
            self.blocking_marker[hex_] = kind
        # [17] A trucked battalion moves as a mechanised unit, and pays the Bottleneck like one.
        mechanised = any(d.is_mechanized or u in motorized for u, d in zip(self.ids, self.defs, strict=True))
        self.tolls = stratagems.toll_hexes(data, state, self.side) if mechanised else {}
        self.zoc: Mapping[Hex, frozenset[str]] = {} if self.ignore_zoc else enemy_zones(self.pos, self.side)
        self.mined = mines.mined_hexes(data, state, self.side)
        """[14] Hexes the group may enter but not leave until it clears the enemy's mines."""

    # --- Readiness -----------------------------------------------------------------------------------------

    def readiness_problem(self) -> IllegalActionError | None:
        """Why this group cannot move at all now, if it cannot."""
        for unit, definition in zip(self.units, self.defs, strict=True):
            if unit.eliminated:
                return IllegalActionError(f"{definition.name} has been eliminated", rule="1.2")
            if self.entering_at is None and unit.hex is None:
                return IllegalActionError(
                    f"{definition.name} is not on the map: name its entry hex to bring it in",
                    rule=self.data.rule("16.1"),
                )
            if self.entering_at is not None and unit.hex is not None:
                return IllegalActionError(f"{definition.name} is already on the map", rule=self.data.rule("16.1"))
            if unit.cannot_move:
                return IllegalActionError(
                    f"{definition.name} may not move this turn: it began the game adjacent to a German unit",
                    rule=self.data.rule("17.1"),
                )
            if unit.must_attack:
                return IllegalActionError(
                    f"{definition.name} entered an enemy zone of control and must attack before it moves on",
                    rule="4.2",
                )
            if unit.hex is not None and unit.hex in self.mined:
                return IllegalActionError(
                    f"{definition.name} may not leave {hex_name(unit.hex)} until a unit there spends 1 AP to clear "
                    "its booby traps and mines",
                    rule="14",
                )
        if self.entering_at is None and len({u.hex for u in self.units}) != 1:
            return IllegalActionError(f"{self.names} are not in the same hex and cannot move as a stack", rule="5")
        if self.entering_at is not None and self.entering_at not in self.data.map.entry_hexes[self.side]:
            return IllegalActionError(
                f"{hex_name(self.entering_at)} is not an entry hex of the {self.side}s", self.data.rule("16.1")
            )
        if self.ap <= 0 and self.mp <= 0:
            who = "it has" if self.alone else "they have"
            return IllegalActionError(f"{self.names} cannot move: {who} no action point left", rule="3.4.1")
        return None

    # --- One step ------------------------------------------------------------------------------------------

    def step_cost(self, from_: Hex | None, to: Hex, road: bool, river: int) -> tuple[float, int, int]:
        """The (MP, AP) to enter ``to`` from ``from_`` (``None``: from off the map) and why it is closed, if it is."""
        why = self.blocked.get(to, _OK)
        if why:
            return 0.0, 0, why
        along = self.tables.along_river
        if along is not None and from_ is not None:
            beyond = along.get((from_, to))  # most steps cross no river hexside: no generator made for them
            if beyond and any(e in self.zoc for e in beyond):
                return 0.0, 0, _ALONG_RIVER
        ap_cost = 0
        if river:
            mp_cost, ap_cost = self.crossing.get(river, (PROHIBITED, 0))
            if mp_cost == PROHIBITED:
                return 0.0, 0, _RIVER_CLOSED
            if self.tables.additive:
                mp_cost += self.hex_cost(from_, to, road)
        else:
            mp_cost = self.hex_cost(from_, to, road)
        ap_cost += self.tolls.get(to, 0)
        if mp_cost == PROHIBITED:
            return 0.0, 0, _TERRAIN_CLOSED  # a terrain the class may not enter (off road), or a no-entry country
        if from_ is None:
            mp_cost += self.entered_already
        elif from_ in self.zoc:
            to_zoc = self.zoc.get(to)
            if to_zoc:
                if not self.zoc[from_].isdisjoint(to_zoc):
                    return 0.0, 0, _SAME_UNIT_ZOC
                mp_cost += 2
            else:
                mp_cost += 1
        return mp_cost, ap_cost, _OK

    def hex_cost(self, from_: Hex | None, to: Hex, road: bool) -> float:
        """[6.2, TEC] The MPs to enter ``to``: its terrain, or the road rate along a road for a unit alone."""
        mp_cost = self.cost[to]
        if road and self.road_alone and to not in self.other_units and (from_ is None or from_ not in self.other_units):
            mp_cost = min(mp_cost, 0.5 if self.trucks and to not in self.near_enemy else self.road_rate)
        return mp_cost

    def pay(self, ap: int, mp: float, mp_cost: float, ap_cost: int, to: Hex) -> tuple[int, float, int]:
        """The APs and MPs left after paying for a step, buying move actions as needed (6.1), or why not."""
        if ap_cost:
            if ap < ap_cost:
                return ap, mp, _NO_AP_TO_CROSS
            ap -= ap_cost
        if mp < mp_cost:
            actions = math.ceil((mp_cost - mp) / self.allowance)
            if ap < actions * self.tables.move_ap:
                return ap, mp, _NO_MP
            ap -= actions * self.tables.move_ap
            mp += actions * self.allowance
        mp -= mp_cost
        if to in self.zoc and ap < self.attack_ap and to not in self.shelter:
            return ap, mp, _NO_AP_TO_ATTACK
        return ap, mp, _OK

    def fits(self, hex_: Hex) -> bool:
        """[5] Whether the group may end its move in a hex without exceeding the stacking limit."""
        return self.friendly_steps.get(hex_, 0) + self.steps <= self.tables.max_steps

    def entry_link(self, hex_: Hex) -> tuple[bool, int]:
        """[16.1] How a reinforcement comes onto its entry hex: along the road if the hex has one."""
        return hex_ in self.tables.road_hexes, _NO_RIVER

    def route(self, path: tuple[Hex, ...], ap: int, mp: float, spent: float) -> Route:
        destination = path[-1]
        entered = destination in self.zoc
        return Route(
            destination=destination,
            path=path,
            ap_spent=self.ap - ap,
            mp_left=0.0 if entered else mp,
            enters_enemy_zoc=entered,
            mp_spent=spent,
        )


def rides_trucks(state: GameState, unit_ids: Sequence[str]) -> bool:
    """[16.1] Whether a lone unit entered by truck this turn: it keeps the trucks' road rate all turn."""
    return len(unit_ids) == 1 and unit_ids[0] in state.flags.get("trucks", ())


# --- Legal destinations ------------------------------------------------------------------------------------


def legal_destinations(
    data: GameData,
    state: GameState,
    unit_ids: Sequence[str],
    *,
    ignore_zoc: bool = False,
    entering_at: Hex | None = None,
    entered_already: int = 0,
    trucks: bool = False,
    target: Hex | None = None,
) -> dict[Hex, Route]:
    """[6] Every hex the unit or stack can reach in this activation, each with its cheapest route.

    The units move together: the stack has the fewest APs and carried MPs of its members, the smallest
    allowance and the worst terrain costs of its classes (6.1). The cheapest route spends the fewest APs,
    then leaves the most MPs. The start hex is not a destination; a reinforcement's entry hex is.

    ``ignore_zoc``: the stack carries the 150 Pz Brigade marker and its roll succeeded (15.2).
    ``entering_at``: the units are reinforcements entering the map at that hex (16.1), after
    ``entered_already`` units entered there this activation sequence; ``trucks``: US units in trucks (16.1).

    ``target``: only the route to that hex is wanted; the search stops once its best route is settled (the
    heap pops each hex's best label first), and the result holds that hex alone, if reachable.

    Returns an empty dict when the units cannot move at all (see :func:`check_move` for the reason).

    :raises InvalidActionError: if a unit id is unknown, or the units belong to both sides.
    """
    mover = _Mover(
        data,
        state,
        unit_ids,
        ignore_zoc=ignore_zoc,
        entering_at=entering_at,
        entered_already=entered_already,
        trucks=trucks,
    )
    if mover.readiness_problem() is not None:
        return {}
    first = _first_label(mover)
    if first is None:
        return {}
    labels = _Labels([first[0]], [first[1]], [first[2]], [first[3]], [-1])
    best = _search(mover, labels, target)
    routes: dict[Hex, Route] = {}
    for hex_, index in best.items():
        if hex_ == mover.start or not mover.fits(hex_) or (target is not None and hex_ != target):
            continue
        routes[hex_] = mover.route(labels.path(index), labels.aps[index], labels.mps[index], labels.spent[index])
    return routes


@dataclass
class _Labels:
    """The search's labels as parallel lists (a label is an index): its hex, APs and MPs left, MPs spent, and
    the label it came from (-1 for the first)."""

    hexes: list[Hex]
    aps: list[int]
    mps: list[float]
    spent: list[float]
    parents: list[int]

    def path(self, index: int) -> tuple[Hex, ...]:
        """The hexes from the first label to this one."""
        path = []
        while index >= 0:
            path.append(self.hexes[index])
            index = self.parents[index]
        path.reverse()
        return tuple(path)


def _first_label(mover: _Mover) -> tuple[Hex, int, float, float] | None:
    """Where the search starts, with the APs and MPs left and the MPs spent: the stack's hex, or for a
    reinforcement its entry hex once entered (16.1); ``None`` when a reinforcement cannot enter there."""
    if mover.entering_at is None:
        assert mover.start is not None
        return mover.start, mover.ap, mover.mp, 0.0
    entering_at = mover.entering_at
    road, river = mover.entry_link(entering_at)
    mp_cost, ap_cost, why = mover.step_cost(None, entering_at, road, river)
    if why:
        return None
    # [16.1] Entering is a move action even when the entry costs nothing more.
    ap, mp = mover.ap - mover.tables.move_ap, mover.allowance
    if ap < 0:
        return None
    ap, mp, why = mover.pay(ap, mp, mp_cost, ap_cost, entering_at)
    if why:
        return None
    return entering_at, ap, mp, mp_cost


def _search(mover: _Mover, labels: _Labels, target: Hex | None) -> dict[Hex, int]:
    """[6] The search for every hex's cheapest route (the most APs left, then the most MPs) from the first
    label: per hex, the index of its best label. ``target``: stop once that hex's best label is settled.

    Labels go on a heap of (-ap, -mp, index); each hex keeps the Pareto front of the labels settled and of the
    labels pushed. The loop inlines Mover.pay (the same arithmetic; test_every_route_found_passes_check_move
    guards it) and caches each hex's legal steps, which do not depend on the label."""
    links, zoc, step_cost, mined, shelter = mover.tables.links, mover.zoc, mover.step_cost, mover.mined, mover.shelter
    hexes, aps, mps, spent, parents = labels.hexes, labels.aps, labels.mps, labels.spent, labels.parents
    heap: list[tuple[int, float, int]] = [(-aps[0], -mps[0], 0)]
    allowance, move_ap, attack_ap = mover.allowance, mover.tables.move_ap, mover.attack_ap
    steps_from: dict[Hex, list[tuple[Hex, float, int, bool]]] = {}
    settled: dict[Hex, list[tuple[int, float]]] = {}
    pushed: dict[Hex, list[tuple[int, float]]] = {hexes[0]: [(aps[0], mps[0])]}
    best: dict[Hex, int] = {}
    stop_at_start = mover.entering_at is not None
    while heap:
        neg_ap, neg_mp, index = heapq.heappop(heap)
        here = hexes[index]
        ap, mp = -neg_ap, -neg_mp
        front = settled.get(here)
        if front is None:
            settled[here] = [(ap, mp)]
            best[here] = index
            if here == target:
                break
        else:
            dominated = False
            for a, m in front:
                if a >= ap and m >= mp:
                    dominated = True
                    break
            if dominated:
                continue
            front.append((ap, mp))
        if (here in zoc or here in mined) and (index != 0 or stop_at_start):
            continue  # [4.2] entering an enemy ZoC stops the move; [14] so does entering a mined hex
        steps = steps_from.get(here)
        if steps is None:
            steps = []
            for to, road, river in links[here]:
                mp_cost, ap_cost, why = step_cost(here, to, road, river)
                if not why:
                    steps.append((to, mp_cost, ap_cost, to in zoc and to not in shelter))
            steps_from[here] = steps
        for to, mp_cost, ap_cost, needs_attack_ap in steps:
            new_ap = ap - ap_cost
            if new_ap < 0:
                continue
            new_mp = mp
            if new_mp < mp_cost:
                actions = math.ceil((mp_cost - new_mp) / allowance)
                new_ap -= actions * move_ap
                if new_ap < 0:
                    continue
                new_mp += actions * allowance
            new_mp -= mp_cost
            if needs_attack_ap and new_ap < attack_ap:
                continue
            seen = pushed.get(to)
            if seen is None:
                pushed[to] = [(new_ap, new_mp)]
            else:
                dominated = False
                for a, m in seen:
                    if a >= new_ap and m >= new_mp:
                        dominated = True
                        break
                if dominated:
                    continue
                seen.append((new_ap, new_mp))
            hexes.append(to)
            aps.append(new_ap)
            mps.append(new_mp)
            spent.append(spent[index] + mp_cost)
            parents.append(index)
            heapq.heappush(heap, (-new_ap, -new_mp, len(hexes) - 1))
    return best


def terrain_exits(data: GameData, state: GameState, unit_id: str) -> list[Hex]:
    """[6.2, 13.1, TEC] The neighbours a unit could step into from its hex by terrain, roads and water alone,
    every unit, zone of control and marker left out: none means no move of the game can take it away.

    :raises InvalidActionError: if the unit id is unknown.
    """
    mover = _Mover(data, state, [unit_id], ignore_zoc=True, entering_at=None, entered_already=0, trucks=False)
    if mover.start is None:
        return []
    mover.blocked, mover.tolls, mover.other_units = {}, {}, set()
    start = mover.start
    return [to for to, road, river in mover.tables.links[start] if not mover.step_cost(start, to, road, river)[2]]


def unreachable_reason(data: GameData, state: GameState, unit_ids: Sequence[str], target: Hex) -> tuple[str, str]:
    """Why the units cannot reach ``target`` in this activation (:func:`legal_destinations` does not hold it),
    as (what stops them, rule): the stacking limit there (5), enemy zones of control (4.2), the distance
    itself (6.1: more hexes than MPs to spend, even over open ground), a river (13.1) or the terrain's cost
    (6.1). The cheapest way in MPs, with the zones, the rivers and the terrain lifted in turn, tells which
    one closes the way."""
    mover = _Mover(data, state, unit_ids, ignore_zoc=False, entering_at=None, entered_already=0, trucks=False)
    there = hex_name(target)
    if not mover.fits(target):
        return f"the stack in {there} would go over the stacking limit of {mover.tables.max_steps} steps", "5"
    if target in legal_destinations(data, state, unit_ids, target=target):
        return f"{there} can be reached", "6.1"  # nothing stops them: the caller asked in vain
    if target in legal_destinations(data, state, unit_ids, ignore_zoc=True, target=target):
        return f"enemy zones of control stop every way to {there}", "4.2"
    budget = mover.mp + (mover.ap // mover.tables.move_ap) * mover.allowance
    start = mover.start
    assert start is not None

    def cheapest(rivers: bool, terrain: bool) -> float:
        """The fewest MPs from the start to the target, ZoCs lifted, rivers and terrain counted or not."""
        costs = {start: 0.0}
        heap = [(0.0, start)]
        while heap:
            cost, here = heapq.heappop(heap)
            if here == target:
                return cost
            if cost > costs.get(here, math.inf) or cost > budget:
                continue
            for to, road, river in mover.tables.links[here]:
                if mover.blocked.get(to, _OK):
                    continue
                step = mover.cost[to] if terrain else 1.0
                if road:
                    step = min(step, mover.road_rate)
                if river and rivers:
                    mp_cost, ap_cost = mover.crossing[river]
                    if mp_cost == PROHIBITED:
                        continue
                    step = mp_cost + ap_cost * mover.allowance / mover.tables.move_ap
                if cost + step < costs.get(to, math.inf):
                    costs[to] = cost + step
                    heapq.heappush(heap, (cost + step, to))
        return math.inf

    away = data.map.grid.distance(start, target)
    if away > budget or cheapest(rivers=False, terrain=False) > budget:  # more hexes than MPs, even in the open
        return f"{there} is too far: {away} hexes away, with {_mp(budget)} MP at most to spend", "6.1"
    if cheapest(rivers=False, terrain=True) <= budget:
        return f"the rivers on the way to {there} close it or cost too much", "13.1"
    return f"the terrain on the way to {there} costs more MPs than are left", "6.1"


def entry_refusal(
    data: GameData, state: GameState, unit_id: str, entry: Hex, target: Hex, entered_already: int, trucks: bool
) -> tuple[str, str]:
    """Why a reinforcement cannot enter at ``entry`` and reach ``target`` this activation, as (reason, rule):
    the stacking limit in ``target`` (5) comes before the entry rules themselves (16.1)."""
    mover = _Mover(
        data, state, [unit_id], ignore_zoc=False, entering_at=entry, entered_already=entered_already, trucks=trucks
    )
    name, there = data.units[unit_id].name, hex_name(target)
    if not mover.fits(target):
        return (
            f"{name} cannot enter to {there}: the stack there would go over the stacking limit of "
            f"{mover.tables.max_steps} steps",
            "5",
        )
    return f"{there} cannot be reached on entry this activation", data.rule("16.1")


# --- Checking an explicit path -----------------------------------------------------------------------------


def check_move(
    data: GameData,
    state: GameState,
    unit_ids: Sequence[str],
    path: Sequence[Hex],
    *,
    ignore_zoc: bool = False,
    entering_at: Hex | None = None,
    entered_already: int = 0,
    trucks: bool = False,
) -> Route:
    """[6] Check a move along an explicit path and say what it costs.

    ``path`` starts with the units' hex (for a reinforcement, with its entry hex) and ends with the
    destination. The keyword arguments are those of :func:`legal_destinations`. MPs are paid as late as
    possible: a new move action is bought only when the next hex needs it (6.1).

    :raises InvalidActionError: if a unit is unknown or the path is empty.
    :raises IllegalActionError: naming the rule and the reason when the move is not allowed.
    """
    mover = _Mover(
        data,
        state,
        unit_ids,
        ignore_zoc=ignore_zoc,
        entering_at=entering_at,
        entered_already=entered_already,
        trucks=trucks,
    )
    problem = mover.readiness_problem()
    if problem is not None:
        raise problem
    hexes = tuple(path)
    if not hexes:
        raise InvalidActionError("a move needs a path of hexes")
    grid = data.map.grid
    for h in hexes:
        if not grid.contains(h):
            raise IllegalActionError(f"{hex_name(h)} is not on the map", rule="6.1")
    ap, mp, mp_spent = _path_start(mover, hexes)
    for i in range(1, len(hexes)):
        ap, mp, mp_cost = _path_step(mover, hexes, i, ap, mp)
        mp_spent += mp_cost
    destination = hexes[-1]
    if not mover.fits(destination):
        total = mover.friendly_steps.get(destination, 0) + mover.steps
        raise IllegalActionError(
            f"{mover.names} may not end the move in {hex_name(destination)}: it would hold {total} steps, "
            f"more than the {mover.tables.max_steps} allowed",
            rule="5",
        )
    return mover.route(hexes, ap, mp, mp_spent)


def _path_start(mover: _Mover, hexes: tuple[Hex, ...]) -> tuple[int, float, float]:
    """[6.1, 16.1] The APs and MPs the stack has where its path starts, and the MPs spent: its own hex, or a
    reinforcement's entry hex once entered (a move action).

    :raises IllegalActionError: if the path starts elsewhere, goes nowhere, or the entry is refused."""
    data, entering_at = mover.data, mover.entering_at
    if entering_at is None:
        if hexes[0] != mover.start:
            assert mover.start is not None
            raise IllegalActionError(
                f"the path must start where {mover.names} stand, in {hex_name(mover.start)}", rule="6.1"
            )
        if len(hexes) < 2:
            raise IllegalActionError(f"{mover.names} would not leave {hex_name(hexes[0])}", rule="6.1")
        return mover.ap, mover.mp, 0.0
    if hexes[0] != entering_at:
        raise IllegalActionError(
            f"the path of a reinforcement starts at its entry hex, {hex_name(entering_at)}", rule=data.rule("16.1")
        )
    road, river = mover.entry_link(entering_at)
    mp_cost, ap_cost, why = mover.step_cost(None, entering_at, road, river)
    if why:
        raise _refusal(mover, why, None, entering_at, mp_cost, mover.ap, mover.mp)
    if mover.ap < mover.tables.move_ap:
        raise IllegalActionError(
            f"{mover.names} cannot enter the map: entering is a move action and costs 1 AP", rule=data.rule("16.1")
        )
    ap, mp = mover.ap - mover.tables.move_ap, mover.allowance
    new_ap, new_mp, why = mover.pay(ap, mp, mp_cost, ap_cost, entering_at)
    if why:
        raise _refusal(mover, why, None, entering_at, mp_cost, ap, mp)
    return new_ap, new_mp, mp_cost


def _path_step(mover: _Mover, hexes: tuple[Hex, ...], i: int, ap: int, mp: float) -> tuple[int, float, float]:
    """[4.2, 6, 14] The step from ``hexes[i - 1]`` into ``hexes[i]``: the APs and MPs left after it, and its MPs.

    :raises IllegalActionError: if the stack had to stop before it, or may not take it."""
    data = mover.data
    here, to = hexes[i - 1], hexes[i]
    if (i > 1 or mover.entering_at is not None) and here in mover.zoc:
        raise IllegalActionError(
            f"{mover.names} must stop in {hex_name(here)}: it is in the zone of control of "
            f"{_unit_names(data, mover.zoc[here])}",
            rule="4.2",
        )
    if here in mover.mined:
        raise IllegalActionError(
            f"{mover.names} must stop in {hex_name(here)}: it is mined, and a unit there must spend 1 AP to "
            "clear it before leaving",
            rule="14",
        )
    link = next((entry for entry in mover.tables.links[here] if entry[0] == to), None)
    if link is None:
        raise IllegalActionError(f"{hex_name(here)} and {hex_name(to)} are not adjacent", rule="6.1")
    mp_cost, ap_cost, why = mover.step_cost(here, to, link[1], link[2])
    if why:
        raise _refusal(mover, why, here, to, mp_cost, ap, mp)
    new_ap, new_mp, why = mover.pay(ap, mp, mp_cost, ap_cost, to)
    if why:
        raise _refusal(mover, why, here, to, mp_cost, ap, mp)
    return new_ap, new_mp, mp_cost


def _unit_names(data: GameData, unit_ids: AbstractSet[str]) -> str:
    return " and ".join(sorted(data.units[u].name for u in unit_ids))


def _refusal(
    mover: _Mover, why: int, here: Hex | None, to: Hex, mp_cost: float, ap: int, mp: float
) -> IllegalActionError:
    """The refusal a player reads for a step that fails with reason ``why``."""
    data, names, target = mover.data, mover.names, hex_name(to)
    if why == _ENEMY:
        enemies = {u.id for u in mover.pos.units_at(to)}
        return IllegalActionError(
            f"{names} may not enter {target}: it holds enemy units ({_unit_names(data, enemies)})", rule="4.1"
        )
    if why == _MARKER:
        event = data.events.get(mover.blocking_marker.get(to, ""))
        name, rule = (event.name, event.rule) if event else ("event", "15")
        return IllegalActionError(f"{names} may not enter {target}: the enemy's {name} marker holds it", rule=rule)
    river = data.map.river_between(here, to) if here is not None else None
    river_name = river.name if river else "river"
    if why == _TERRAIN_CLOSED:
        terrain = data.map.terrain.get(to, "clear")
        road_only = mover.classes[-1] in data.tables.raw["terrain"].get(terrain, {}).get("road_only", ())
        return IllegalActionError(
            f"{names} may not enter {target} ({terrain}): the Terrain Effects Chart closes it to them"
            + (" except along a road, moving alone (6.2)" if road_only else ""),
            rule="0.2",
        )
    if why == _RIVER_CLOSED and river is not None and river.kind == "uncrossable":
        return IllegalActionError(f"{names} may not cross the {river_name}: no unit may cross it (TEC)", rule="0.2")
    if why == _RIVER_CLOSED:
        return IllegalActionError(
            f"{names} may not cross the {river_name} between {hex_name(here or to)} and {target}: "
            "armored and mechanized units cross rivers only by a bridge",
            rule="13.1",
        )
    if why == _NO_AP_TO_CROSS:
        return IllegalActionError(
            f"{names} cannot cross the {river_name} into {target}: a German crossing costs 1 AP and none is left; "
            "the unit stays behind the river",
            rule="13.1",
        )
    if why == _ALONG_RIVER:
        return IllegalActionError(
            f"{names} may not move from {hex_name(here or to)} to {target} along the river: an enemy zone of "
            "control lies across it",
            rule="4.1",
        )
    if why == _SAME_UNIT_ZOC:
        assert here is not None
        common = mover.zoc[here] & mover.zoc[to]
        return IllegalActionError(
            f"{names} may not move directly from {hex_name(here)} to {target}: both hexes are in the zone of "
            f"control of {_unit_names(data, common)}",
            rule="4.2",
        )
    if why == _NO_AP_TO_ATTACK and not mover.can_attack:
        return IllegalActionError(
            f"{names} may not enter {target}: it is in the zone of control of {_unit_names(data, mover.zoc[to])} "
            "and an HQ, which cannot attack, may enter an enemy zone only in a city, village or forest",
            rule="4.2",
        )
    if why == _NO_AP_TO_ATTACK:
        return IllegalActionError(
            f"{names} may not enter {target}: it is in the zone of control of {_unit_names(data, mover.zoc[to])} "
            f"and {names} would have no AP left to attack",
            rule="4.2",
        )
    return IllegalActionError(
        f"{names} cannot pay the {_mp(mp_cost)} MP to enter {target}: {_mp(mp)} MP left and no AP for "
        "another move action",
        rule="6.1",
    )


def _mp(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


# --- Applying a move ---------------------------------------------------------------------------------------


def apply_move(
    data: GameData,
    state: GameState,
    unit_ids: Sequence[str],
    route: Route,
    *,
    ignore_zoc: bool = False,
    entering_at: Hex | None = None,
    entered_already: int = 0,
    trucks: bool = False,
    fresh: bool = False,
) -> list[Event]:
    """[6] Move the units along a route, mutating ``state``: the caller passes a copy.

    The route's path is checked again (:func:`check_move`, with the same keyword arguments as the search
    that produced it), so a stale route is refused rather than applied; ``fresh`` says the route comes from
    :func:`legal_destinations` or :func:`check_move` on this very state, unchanged since: no second check.
    The units spend the APs, keep the MPs left for a consecutive move action (6.1), leave any Improved
    Position (12.1), and must attack if the move entered an enemy zone of control outside a city, village or
    forest (4.2, 4.3).

    .. warning:: The state machine must reset ``UnitState.movement_points`` to 0 when a unit takes any
       action other than a move, and handle the 150 Pz Brigade die (15.2) and Greif (15.2) itself.

    :raises IllegalActionError: as :func:`check_move`, e.g. if the destination would exceed 6 steps (5).
    """
    checked = (
        route
        if fresh
        else check_move(
            data,
            state,
            unit_ids,
            route.path,
            ignore_zoc=ignore_zoc,
            entering_at=entering_at,
            entered_already=entered_already,
            trucks=trucks,
        )
    )
    shelter = _tables(data).shelter[data.side_of(unit_ids[0])]
    must_attack = checked.enters_enemy_zoc and checked.destination not in shelter
    control.note_passage(data, state, data.side_of(unit_ids[0]), checked.path)
    for unit_id in unit_ids:
        unit = state.units[unit_id]
        unit.hex = checked.destination
        unit.arrived = True
        unit.improved_position = False
        unit.action_points -= checked.ap_spent
        unit.movement_points = checked.mp_left
        unit.must_attack = unit.must_attack or must_attack
    names = " and ".join(data.units[u].name for u in unit_ids)
    route_text = "-".join(hex_name(h) for h in checked.path)
    text = f"{names} {'enter' if entering_at is not None else 'move'} {route_text} ({checked.ap_spent} AP"
    text += f", {_mp(checked.mp_left)} MP left)" if checked.mp_left else ")"
    if checked.enters_enemy_zoc:
        text += "; in an enemy zone of control" + (", must attack" if must_attack else "")
    return [
        Event(
            kind="move",
            text=text,
            data={
                "units": list(unit_ids),
                "path": [hex_name(h) for h in checked.path],
                "ap_spent": checked.ap_spent,
                "mp_left": checked.mp_left,
                "enters_enemy_zoc": checked.enters_enemy_zoc,
                "must_attack": must_attack,
                "entering": entering_at is not None,
            },
        )
    ]
