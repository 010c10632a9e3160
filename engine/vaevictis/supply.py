"""[8] Command and [10] supply: lines of command and of supply, and the statuses they give.

[8.1] A unit is in command when a line of command reaches its HQ within the command range (6 hexes Allied,
4 German: 9.2, 9.3), counted without the HQ's hex and with the unit's. The line may cross any terrain and
enemy zones of control, never a hex holding enemy units.

[10.1] A line of supply crosses no hex holding enemy units, no enemy zone of control unless a friendly unit
stands there (official answer), and no river except at a bridge. [10.2] A unit is supplied through a supplied
HQ able to supply it within command range, or through a road within 1 hex that leads to a friendly board
edge. An HQ is supplied through a road at most 1 hex away leading to a friendly board edge free of enemy
units and zones of control. [10.3] A unit that cannot trace supply at the start of a turn becomes Isolated,
and Unsupplied if it already was.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from engine.hexgrid import Hex
from engine.vaevictis.data import GameData, Side
from engine.vaevictis.geography import beyond_meuse, is_british_west_of_meuse
from engine.vaevictis.state import Position, UnitState
from engine.vaevictis.zoc import enemy_zones


def command_range(data: GameData, side: Side) -> int:
    """[9.2, 9.3] The command range of a side's HQs."""
    return int(data.tables.raw["doctrine"][side]["command_range"])


class SupplyNet:
    """The lines of command and supply of one side in one position, computed once and queried per unit."""

    def __init__(self, pos: Position, side: Side) -> None:
        self.pos = pos
        self.side = side
        self.data = pos.data
        self.grid = pos.data.map.grid
        self.enemy_hexes = {h for h, units in pos.occupants.items() if pos.side_of(units[0].id) != side}
        blocking = blocking_markers(pos.data, side)
        self.blocked_by_markers = {m.hex for m in pos.state.markers if m.kind in blocking}
        zone = enemy_zones(pos, side)  # read-only and shared: only its hexes are read
        friendly_hexes = {h for h, units in pos.occupants.items() if pos.side_of(units[0].id) == side}
        self.supply_closed = self.enemy_hexes | self.blocked_by_markers | (zone.keys() - friendly_hexes)
        self.supply_closed |= no_entry_hexes(pos.data)
        self.edge = frozenset(h for h in pos.data.map.friendly_edges[side] if h not in self.supply_closed)
        self.road_to_edge = self._roads_reaching_edge()
        self._hq_supplied: dict[str, bool] = {}
        self._command_areas: dict[str, frozenset[Hex]] = {}
        self._supply_areas: dict[tuple[str, bool], dict[Hex, int]] = {}
        self._side_hqs: list[str] | None = None
        """The HQs of the side's formations, in the data's order (read once, for 9.3)."""

    # --- Lines of command (8.1) ---------------------------------------------------------------------------

    def in_command(self, unit: UnitState) -> bool:
        """[8.1] Whether the unit traces a line of command to its formation HQ within range."""
        formation = self.data.formations[self.data.units[unit.id].formation]
        if formation.independent:
            return True  # 16.3: independents are always in command
        if self._british_beyond_the_river(unit):
            return True  # 16.2
        if formation.hq is None:
            return False
        hq = self.pos.state.units[formation.hq]
        if not hq.on_map or unit.hex is None or hq.hex is None:
            return False
        if unit.id == hq.id:
            return True
        if unit.hex in self.command_area(hq.id):  # one search from the HQ answers for all its units
            return True
        if unit.hex not in self.enemy_hexes:
            return False  # a line ending in a hex the area leaves out would have to cross an enemy-held one
        return self._within(hq.hex, unit.hex, command_range(self.data, self.side), self.enemy_hexes, rivers=False)

    def in_command_elsewhere(self, unit: UnitState) -> bool:
        """[9.3] Whether the unit traces a line of command to an HQ of its side other than its own."""
        own = self.data.formations[self.data.units[unit.id].formation].hq
        if self._side_hqs is None:
            self._side_hqs = [
                f.hq for f in self.data.formations.values() if f.hq is not None and self.data.side_of(f.hq) == self.side
            ]
        return unit.hex is not None and any(unit.hex in self.command_area(hq) for hq in self._side_hqs if hq != own)

    def command_area(self, hq_id: str) -> frozenset[Hex]:
        """[8.1] The hexes an HQ's lines of command reach: within its range, around enemy-held hexes."""
        if hq_id in self._command_areas:
            return self._command_areas[hq_id]
        hq = self.pos.state.units[hq_id]
        if hq.hex is None or not hq.on_map:
            return frozenset()
        # One breadth-first search from the HQ, never through an enemy-held hex, holds every hex a line of
        # command of at most ``reach`` hexes reaches: the same hexes as a search per hex, at a fraction of it.
        reach = command_range(self.data, self.side)
        seen = {hq.hex: 0}
        queue = deque([hq.hex])
        enemy = self.enemy_hexes
        neighbours = self.grid.neighbours
        while queue:
            hex_ = queue.popleft()
            steps = seen[hex_]
            if steps == reach:
                continue
            for n in neighbours(hex_):
                if n not in seen and n not in enemy:
                    seen[n] = steps + 1
                    queue.append(n)
        area = frozenset(seen)
        self._command_areas[hq_id] = area
        return area

    # --- Lines of supply (10) -----------------------------------------------------------------------------

    def is_supplied(self, unit: UnitState) -> bool:
        """[10.2] Whether the unit traces a line of supply now."""
        if unit.hex is None:
            return False
        if self._british_beyond_the_river(unit):
            return True
        if self.data.units[unit.id].is_hq:
            return self.hq_supplied(unit.id)
        road_only = road_only_hexes(self.data) if self.data.units[unit.id].is_mechanized else frozenset()
        if self._near_supplied_road(unit.hex, road_only):
            return True
        for hq_id in self.supplying_hqs(unit.id):
            hq = self.pos.state.units[hq_id]
            if hq.hex is None or not hq.on_map or not self.hq_supplied(hq_id):
                continue
            if self._supply_line(hq_id, hq.hex, unit.hex, road_only):
                return True
        return False

    def _supply_line(self, hq_id: str, start: Hex, goal: Hex, road_only: frozenset[Hex]) -> bool:
        """[10.1] Whether a line of supply of at most the command range joins an HQ's hex to ``goal``: any hex
        but the two ends closed to it (:attr:`supply_closed`), rivers crossed only at a bridge, ``road_only``
        hexes entered along a road. One search from the HQ per kind of line answers for all its units."""
        key = (hq_id, bool(road_only))
        reached = self._supply_areas.get(key)
        if reached is None:
            reached = self._supply_areas[key] = self._search(start, self.supply_closed - {start}, road_only)
        if goal in reached:
            return True
        if goal not in self.supply_closed:
            return False  # an open hex next to the area would be in it
        # A closed goal is still the end of a line: one open step from a hex of the area short of the range.
        reach = command_range(self.data, self.side)
        return any(
            reached.get(n, reach) < reach and self._line_step(n, goal, road_only) for n in self.grid.neighbours(goal)
        )

    def _search(self, start: Hex, closed: set[Hex] | frozenset[Hex], road_only: frozenset[Hex]) -> dict[Hex, int]:
        """The hexes a line of supply of at most the command range reaches from ``start``, avoiding ``closed``
        hexes, each with its length (a breadth-first search)."""
        reach = command_range(self.data, self.side)
        seen = {start: 0}
        queue = deque([start])
        line_steps = _line_steps(self.data, bool(road_only))
        while queue:
            hex_ = queue.popleft()
            steps = seen[hex_]
            if steps == reach:
                continue
            for n in line_steps[hex_]:
                if n not in seen and n not in closed:
                    seen[n] = steps + 1
                    queue.append(n)
        return seen

    def _line_step(self, a: Hex, b: Hex, road_only: frozenset[Hex]) -> bool:
        """[10.1, 13.1] Whether a line of supply may step from ``a`` to ``b`` by the map: a river only at a
        bridge, a ``road_only`` hex only along a road."""
        game_map = self.data.map
        if game_map.river_between(a, b) is not None and not game_map.is_bridged(a, b):
            return False
        return b not in road_only or game_map.has_road(a, b)

    def hq_supplied(self, hq_id: str) -> bool:
        """[10.2] Whether an HQ reaches a road, within 1 hex, that leads to a friendly board edge."""
        if hq_id not in self._hq_supplied:
            hq = self.pos.state.units[hq_id]
            self._hq_supplied[hq_id] = hq.hex is not None and self.hq_supplied_at(hq_id, hq.hex)
        return self._hq_supplied[hq_id]

    def hq_supplied_at(self, hq_id: str, hex_: Hex) -> bool:
        """[10.2] Whether the HQ would be supplied in ``hex_``, the rest of the position unchanged.

        An HQ closes no line of its own side, so where it stands changes only its own supply: one net
        answers for every hex a returning HQ may take (1.3).
        """
        british = self.data.nationality_of(hq_id) == "british" and hex_ in beyond_meuse(self.data)
        return british or self._near_supplied_road(hex_)

    def supplying_hqs(self, unit_id: str) -> list[str]:
        """The HQs able to supply a unit, as for supports (1.3, 16.3).

        A German unit draws on its own formation's HQ; an Allied unit on any HQ of its army; an independent
        on any HQ of its side (the command range is checked by the caller).
        """
        formation = self.data.formations[self.data.units[unit_id].formation]
        if not formation.independent and self.data.armies[formation.army].nationality == "german":
            return [formation.hq] if formation.hq else []
        return [
            f.hq
            for f in self.data.formations.values()
            if f.hq is not None
            and self.data.armies[f.army].side == self.side
            and (formation.independent or f.army == formation.army)
        ]

    def _near_supplied_road(self, hex_: Hex, road_only: frozenset[Hex] = frozenset()) -> bool:
        """Whether a road leading to the friendly edge is in the hex or one open step away (for a mechanized
        unit, not off road into terrain it may enter only along a road, 10.1)."""
        if hex_ in self.road_to_edge:
            return True
        return any(
            n in self.road_to_edge
            and self._open_step(hex_, n)
            and (n not in road_only or self.data.map.has_road(hex_, n))
            for n in self.grid.neighbours(hex_)
        )

    def _open_step(self, a: Hex, b: Hex) -> bool:
        """Whether a line of supply may step from ``a`` into ``b`` (10.1, 13.1)."""
        game_map = self.data.map
        crosses_river = game_map.river_between(a, b) is not None and not game_map.is_bridged(a, b)
        return b not in self.supply_closed and not crosses_river

    def _roads_reaching_edge(self) -> frozenset[Hex]:
        """Road hexes from which the road net leads, through open hexes, to the friendly board edge."""
        links = _road_neighbours(self.data)
        start = [h for h in self.edge if h in links]
        seen = set(start)
        queue = deque(start)
        while queue:
            hex_ = queue.popleft()
            for n in links.get(hex_, ()):
                if n not in seen and n not in self.supply_closed:
                    seen.add(n)
                    queue.append(n)
        return frozenset(seen)

    def _within(
        self,
        start: Hex,
        goal: Hex,
        reach: int,
        closed: Iterable[Hex],
        rivers: bool,
        road_only: frozenset[Hex] = frozenset(),
    ) -> bool:
        """Whether a path of at most ``reach`` hexes joins two hexes avoiding ``closed`` hexes.

        With ``rivers``, only bridged river hexsides may be crossed (a line of supply, 10.1, 13.1);
        ``road_only`` hexes are entered only along a road (a mechanized unit's line of supply, 10.1).
        """
        if self.grid.distance(start, goal) > reach:
            return False
        closed_set = set(closed) - {goal}
        seen = {start: 0}
        queue = deque([start])
        game_map = self.data.map
        while queue:
            hex_ = queue.popleft()
            steps = seen[hex_]
            if hex_ == goal:
                return True
            if steps == reach:
                continue
            for n in self.grid.neighbours(hex_):
                if n in seen or n in closed_set:
                    continue
                if rivers and game_map.river_between(hex_, n) is not None and not game_map.is_bridged(hex_, n):
                    continue
                if n in road_only and not game_map.has_road(hex_, n):
                    continue
                seen[n] = steps + 1
                queue.append(n)
        return False

    def _british_beyond_the_river(self, unit: UnitState) -> bool:
        """[16.2] British units west of the Meuse are always in command and supplied."""
        return is_british_west_of_meuse(self.data, unit)


def _line_steps(data: GameData, road_only: bool) -> dict[Hex, tuple[Hex, ...]]:
    """[10.1, 13.1] The neighbours a line of supply may step into from each hex of the map, by the map alone
    (rivers only at a bridge; with ``road_only``, a mechanized unit's line, :func:`road_only_hexes` only along a
    road), read once per game's data."""
    key = "line_steps_road_only" if road_only else "line_steps"
    found: dict[Hex, tuple[Hex, ...]] | None = data.derived.get(key)
    if found is None:
        game_map = data.map
        closed_off_road = road_only_hexes(data) if road_only else frozenset()
        found = data.derived[key] = {
            a: tuple(
                b
                for b in game_map.grid.neighbours(a)
                if (game_map.river_between(a, b) is None or game_map.is_bridged(a, b))
                and (b not in closed_off_road or game_map.has_road(a, b))
            )
            for a in game_map.grid.hexes
        }
    return found


def _road_neighbours(data: GameData) -> dict[Hex, list[Hex]]:
    """The hexes each road hex joins by road, read once per game's data (each side's supply net asks)."""
    found: dict[Hex, list[Hex]] | None = data.derived.get("road_neighbours")
    if found is None:
        found = data.derived["road_neighbours"] = {}
        for a, b in data.map.road_links:
            found.setdefault(a, []).append(b)
            found.setdefault(b, []).append(a)
    return found


_NO_ENTRY: dict[int, tuple[GameData, frozenset[Hex]]] = {}


def no_entry_hexes(data: GameData) -> frozenset[Hex]:
    """Hexes of a terrain no unit and no line may enter (Alsace 1944: Switzerland, TEC); once per game data."""
    cached = _NO_ENTRY.get(id(data))
    if cached is not None and cached[0] is data:
        return cached[1]
    chart = data.tables.raw["terrain"]
    found = frozenset(h for h, t in data.map.terrain.items() if chart.get(t, {}).get("no_entry"))
    _NO_ENTRY[id(data)] = (data, found)
    return found


_ROAD_ONLY: dict[int, tuple[GameData, frozenset[Hex]]] = {}


def road_only_hexes(data: GameData) -> frozenset[Hex]:
    """[10.1] Hexes whose terrain the chart opens to mechanized units only along a road (Alsace 1944: difficult
    and mountain): a mechanized unit's line of supply enters them only by road; once per game data."""
    cached = _ROAD_ONLY.get(id(data))
    if cached is not None and cached[0] is data:
        return cached[1]
    chart = data.tables.raw["terrain"]
    found = frozenset(h for h, t in data.map.terrain.items() if "mechanized" in chart.get(t, {}).get("road_only", ()))
    _ROAD_ONLY[id(data)] = (data, found)
    return found


def blocking_markers(data: GameData, side: Side) -> frozenset[str]:
    """Event markers that close a hex to a side's lines of supply: the enemy's hex-blocking events
    (Ardennes: the Roadblock to the German, 15.3; the Stosser to the Allies, 15.2)."""
    return frozenset(
        e for e in data.events_with_effect("blocks-hex", "blocks-hex-on-roll") if data.events[e].side != side
    )


def update_statuses(pos: Position, side: Side, all_in_command: bool = False) -> list[tuple[str, str]]:
    """[8.1, 10.3] Set the command and supply statuses of a side's units at the start of a turn.

    Returns ``(unit id, change)`` pairs for the log, where change is one of ``out-of-command``,
    ``in-command``, ``isolated``, ``unsupplied``, ``supplied``. ``all_in_command`` is the first-turn rule
    of 17.1 for the American units.
    """
    net = SupplyNet(pos, side)
    through_other_hq = pos.data.tables.raw["doctrine"][side].get("in_command_through_other_hq", False)
    changes: list[tuple[str, str]] = []
    for unit in list(pos.state.on_map()):
        if pos.side_of(unit.id) != side:
            continue
        in_command = all_in_command or net.in_command(unit)
        if not in_command and through_other_hq and net.in_command_elsewhere(unit):
            # 9.3: in command through another HQ, but only for general activations (doctrine.py).
            in_command = True
            pos.state.flags.setdefault("command_through_other_hq", []).append(unit.id)
        if in_command == unit.out_of_command:
            changes.append((unit.id, "in-command" if in_command else "out-of-command"))
        unit.out_of_command = not in_command
        if net.is_supplied(unit):
            if unit.isolated or unit.unsupplied:
                changes.append((unit.id, "supplied"))
            unit.isolated = unit.unsupplied = False
        elif unit.isolated or unit.unsupplied:
            if not unit.unsupplied:
                changes.append((unit.id, "unsupplied"))
            unit.isolated, unit.unsupplied = False, True
        else:
            changes.append((unit.id, "isolated"))
            unit.isolated = True
    return changes
