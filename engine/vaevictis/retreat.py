"""[7.7] Retreat and advance after combat: which hexes the rules allow, as pure functions of a position.

[7.7.1] A retreating unit or stack never enters a hex holding enemy units, a hex it could not enter (tanks
across an unbridged river), a Roadblock (15.3), a hex it has already passed through, or a hex where it would
break the stacking limit (5). Among the hexes left, the retreat follows, as far as possible and in this
order: a hex out of enemy ZoC; the general direction of the friendly board edge; the hex furthest from an
enemy unit; the terrain that costs least in movement points. Each priority narrows the choice to its best
hexes before the next one is applied, and the player chooses among what remains.

[7.7.2] An advance enters the vacated hex first, then follows a retreat path (armored and mechanized units
may leave it after the first hex); it never crosses what the unit could not cross, stops on entering an enemy
ZoC (except the vacated hex) and stops after crossing a river. After an attack on several hexes (7.2) the
advance may enter any vacated target hex first, then follow the retreat path that starts there. [Alsace 1944
14] It stops in a hex the enemy has mined and never starts from one: a unit leaves it once the mines are cleared.

Readings (docs/rules/ardennes44.md): "general direction of the friendly edge" = hexes nearer to the nearest
friendly edge hex than the hex left, when there are any; a friendly unit in a hex cancels the enemy ZoC
there for the retreat (4.2, 4.3; the "enemy unit" of 7.7.1 is a translation slip); a retreat leaves the map
(and the units are eliminated) only when no hex on the map is open and the stack stands on the map's edge.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from engine.hexgrid import Hex
from engine.vaevictis import mines, zoc
from engine.vaevictis.combat_rules import retreat_rules
from engine.vaevictis.data import GameData, Side, other_side
from engine.vaevictis.state import Position

IMPASSABLE = 99.0


def mobility(data: GameData, unit_id: str) -> str:
    """The movement class of a unit for the TEC: ``infantry`` or ``mechanized`` (HQs move as mechanized)."""
    return "infantry" if data.units[unit_id].kind == "infantry" else "mechanized"


def can_cross(data: GameData, a: Hex, b: Hex, unit_id: str) -> bool:
    """[13.1, 7.7.1] Whether a unit may cross from ``a`` to ``b``: only infantry crosses an unbridged river,
    and nobody an uncrossable one (Alsace 1944's Rhine); a terrain its class enters "only on road" (Alsace
    1944's difficult and mountain hexes for mechanized units) only along a road (7.7.1: "a hex impassable to
    it")."""
    chart = data.tables.raw["terrain"].get(data.map.terrain.get(b, "clear"), {})
    if mobility(data, unit_id) in chart.get("road_only", ()) and not data.map.has_road(a, b):
        return False
    river = data.map.river_between(a, b)
    if river is not None and river.kind == "uncrossable":
        return False
    if river is None or data.map.is_bridged(a, b):
        return True
    return data.units[unit_id].kind == "infantry"


def entry_cost(data: GameData, a: Hex, b: Hex, unit_id: str) -> float:
    """The MPs a unit pays to enter ``b`` from ``a`` (TEC), used to rank retreat hexes (7.7.1, 4th priority).

    An impassable crossing costs :data:`IMPASSABLE`; a German river crossing (paid in APs) counts as 2 MP.
    """
    if not can_cross(data, a, b, unit_id):
        return IMPASSABLE
    table = data.tables.raw
    klass = mobility(data, unit_id)
    terrain = table["terrain"]
    base = terrain[data.map.terrain.get(b, "clear")][klass]
    cost = IMPASSABLE if base == "prohibited" else float(base)
    settlement = data.map.settlements.get(b)
    if settlement is not None and settlement.kind in ("city", "village"):
        value = terrain[settlement.kind][klass]
        if value != "other":
            cost = float(value) if not data.map.has_road(a, b) else min(cost, float(value))
    if data.map.has_road(a, b):
        cost = min(cost, float(terrain["road"][klass]))
    if data.map.river_between(a, b) is not None:
        crossing = table["crossing"]["bridge" if data.map.is_bridged(a, b) else "river"]
        if f"{klass}_mp" in crossing:  # the same MPs for both sides, added to the hex's (Alsace 1944 TEC)
            value = crossing[f"{klass}_mp"]
            return IMPASSABLE if value == "prohibited" else cost + float(value)
        nationality = "german" if data.side_of(unit_id) == "german" else "us"
        key = f"{nationality}_{klass}_{'ap' if nationality == 'german' else 'mp'}"
        value = crossing.get(key, 2)
        cost = IMPASSABLE if value == "prohibited" else max(cost, 2.0 if nationality == "german" else float(value))
    return cost


def group_cost(data: GameData, a: Hex, b: Hex, units: Iterable[str]) -> float:
    """The dearest entry cost among the units of a group."""
    return max((entry_cost(data, a, b, u) for u in units), default=0.0)


def is_in_enemy_zoc(pos: Position, side: Side, hex_: Hex, control: dict[Hex, set[str]] | None = None) -> bool:
    """[4.2, 7.7.1] Whether ``hex_`` is in enemy ZoC for a retreat: a friendly unit there cancels it."""
    control = zoc.enemy_zoc(pos, side) if control is None else control
    if hex_ not in control:
        return False
    return not any(pos.side_of(u.id) == side for u in pos.units_at(hex_))


def edge_distance(pos: Position, side: Side, hex_: Hex) -> int:
    """Hexes from ``hex_`` to the nearest hex of the side's friendly board edge (10.2)."""
    grid = pos.data.map.grid
    edge = pos.data.map.friendly_edges.get(side, frozenset())
    return min((grid.distance(hex_, e) for e in edge), default=0)


def enemy_distance(pos: Position, side: Side, hex_: Hex) -> int:
    """Hexes from ``hex_`` to the nearest enemy unit on the map."""
    grid = pos.data.map.grid
    enemy = other_side(side)
    return min(
        (grid.distance(hex_, h) for h, units in pos.occupants.items() if units and pos.side_of(units[0].id) == enemy),
        default=99,
    )


def is_blocked(pos: Position, side: Side, hex_: Hex) -> bool:
    """A hex no unit of ``side`` may retreat or advance into: enemy-held, or a Roadblock against the Germans."""
    holder = pos.side_at(hex_)
    if holder is not None and holder != side:
        return True
    blocking = pos.data.events_with_effect("blocks-hex")  # [15.3] the Roadblock also closes retreats
    return any(m.kind in blocking and m.side != side for m in pos.state.markers_at(hex_))


def _terrain_flag(data: GameData, hex_: Hex, flag: str) -> bool:
    """Whether the Terrain Effects Chart sets ``flag`` for the hex's terrain (no_entry, retreat_eliminates)."""
    return bool(data.tables.raw["terrain"].get(data.map.terrain.get(hex_, "clear"), {}).get(flag))


def vacated_hexes(vacated: Hex | Collection[Hex]) -> frozenset[Hex]:
    """The vacated hex, or hexes (an attack on several hexes, 7.2), as a set."""
    return frozenset((vacated,)) if isinstance(vacated, int) else frozenset(vacated)


def stacking_limit(data: GameData) -> int:
    return int(data.tables.raw["stacking"]["max_steps"])


@dataclass(frozen=True)
class RetreatOptions:
    """The hexes a retreating group may enter next."""

    hexes: tuple[Hex, ...]
    """The hexes the priorities of 7.7.1 leave; the owner picks one."""
    legal: tuple[Hex, ...]
    """Every hex the group may physically enter, before the priorities."""
    priority: str
    """The last priority that narrowed the choice, in words."""
    off_map: bool
    """No hex is open and the group stands on the map's edge, or next to a country whose entry eliminates
    (Alsace 1944's Switzerland): it retreats off the map, or into that country, and is eliminated."""


def retreat_options(
    pos: Position, side: Side, units: Sequence[str], path: Sequence[Hex], control: dict[Hex, set[str]] | None = None
) -> RetreatOptions:
    """[7.7.1] The hexes a group of units retreating along ``path`` (its hexes so far) may enter next."""
    data = pos.data
    grid = data.map.grid
    here = path[-1]
    weight = sum(pos.state.units[u].steps for u in units)
    limit = stacking_limit(data)
    legal = []
    for n in grid.neighbours(here):
        if n in path or is_blocked(pos, side, n) or _terrain_flag(data, n, "no_entry"):
            continue
        if any(not can_cross(data, here, n, u) for u in units):
            continue
        present = sum(u.steps for u in pos.units_at(n) if u.id not in units)
        if present + weight > limit:
            continue
        legal.append(n)
    if not legal:
        # [7.7.1] Off the map, or (Alsace 1944 TEC) into a country whose entry eliminates: the group is lost.
        lost = grid.is_on_edge(here) or any(_terrain_flag(data, n, "retreat_eliminates") for n in grid.neighbours(here))
        return RetreatOptions((), (), "no hex is open", lost)
    control = zoc.enemy_zoc(pos, side) if control is None else control
    choice = list(legal)
    priority = "any open hex"
    for name in retreat_rules(data).priorities:
        if len(choice) == 1:
            break
        if name == "out-of-enemy-zoc":
            free = [h for h in choice if not is_in_enemy_zoc(pos, side, h, control)]
            if free and len(free) < len(choice):
                choice, priority = free, "out of enemy ZoC"
        elif name in ("toward-friendly-edge", "toward-friendly-edge-or-own-hq"):
            now = edge_distance(pos, side, here)
            nearer = {h for h in choice if edge_distance(pos, side, h) < now}
            label = "toward the friendly board edge"
            if name == "toward-friendly-edge-or-own-hq":
                # [7.7.1 Alsace 1944] "or towards the HQ to which the unit belongs": either direction will do.
                nearer |= set(toward_own_hq(pos, units, here, choice))
                label += " or the unit's HQ"
            if nearer and len(nearer) < len(choice):
                choice, priority = [h for h in choice if h in nearer], label
        elif name == "farthest-from-enemy":
            distance = {h: enemy_distance(pos, side, h) for h in choice}
            far = max(distance.values())
            farthest = [h for h in choice if distance[h] == far]
            if len(farthest) < len(choice):
                choice, priority = farthest, "furthest from the enemy"
        elif name == "least-costly-terrain":
            cheap = min(group_cost(data, here, h, units) for h in choice)
            cheapest = [h for h in choice if group_cost(data, here, h, units) == cheap]
            if len(cheapest) < len(choice):
                choice, priority = cheapest, "least costly terrain"
    return RetreatOptions(tuple(sorted(choice)), tuple(sorted(legal)), priority, False)


def toward_own_hq(pos: Position, units: Sequence[str], here: Hex, hexes: Sequence[Hex]) -> list[Hex]:
    """[7.7.1] The hexes nearer than ``here`` to the HQ of a retreating unit's formation (when on the map)."""
    data = pos.data
    grid = data.map.grid
    hq_hexes = set()
    for unit_id in units:
        hq = data.formations[data.units[unit_id].formation].hq
        if hq is not None and hq != unit_id and pos.state.units[hq].on_map:
            hq_hexes.add(pos.state.units[hq].hex)
    out = []
    for h in hexes:
        if any(grid.distance(h, q) < grid.distance(here, q) for q in hq_hexes if q is not None):
            out.append(h)
    return out


def lost_retreat_reason(data: GameData, here: Hex) -> str:
    """[7.7.1] Why a group with no open hex is eliminated: it leaves the map, or enters a country whose entry
    eliminates (Alsace 1944's Switzerland, TEC)."""
    grid = data.map.grid
    for n in grid.neighbours(here):
        if _terrain_flag(data, n, "retreat_eliminates"):
            return f"it can retreat only into {data.map.terrain.get(n, 'clear').capitalize()} (7.7.1, TEC)"
    return "it retreated off the map (7.7.1)"


def advance_options(
    pos: Position,
    side: Side,
    units: Sequence[str],
    here: Hex,
    moved: int,
    vacated: Hex | Collection[Hex],
    paths: Sequence[Sequence[Hex]],
    allowance: int,
) -> tuple[Hex, ...]:
    """[7.7.2] The hexes a group of advancing units at ``here`` may enter next.

    ``moved`` is how many hexes the group has advanced already; ``vacated`` the hex the defender left, or the
    target hexes it left after an attack on several (7.2), any of which the advance may enter first;
    ``paths`` are the defenders' retreat paths, each starting at the hex it left. Beyond the end of every path
    (a result left unfulfilled by the defender's elimination) any neighbour is open.
    """
    data = pos.data
    if moved >= allowance:
        return ()
    if here in mines.mined_hexes(data, pos.state, side):
        return ()  # [14] a unit in an enemy-mined hex leaves it only once the mines are cleared, never by advancing
    if moved == 0:
        candidates: set[Hex] = set(vacated_hexes(vacated))
    else:
        armor = all(data.units[u].is_mechanized for u in units)
        on_path = [list(p) for p in paths if here in p]
        following = {p[p.index(here) + 1] for p in on_path if p.index(here) + 1 < len(p)}
        beyond = not following and all(p.index(here) == len(p) - 1 for p in on_path)
        candidates = set(data.map.grid.neighbours(here)) if armor or beyond or not paths else following
    weight = sum(pos.state.units[u].steps for u in units)
    limit = stacking_limit(data)
    out = []
    for h in sorted(candidates):
        if not data.map.grid.are_adjacent(here, h) or is_blocked(pos, side, h):
            continue
        if any(not can_cross(data, here, h, u) for u in units):
            continue
        if sum(u.steps for u in pos.units_at(h) if u.id not in units) + weight > limit:
            continue
        out.append(h)
    return tuple(out)


def advance_stops(pos: Position, side: Side, came_from: Hex, hex_: Hex, vacated: Hex | Collection[Hex]) -> str | None:
    """[7.7.2] Why an advance must stop after entering ``hex_``, or ``None`` if it may go on.

    Entering the vacated hex (any of the vacated target hexes, 7.2) never stops it for enemy ZoC.
    """
    if pos.data.map.river_between(came_from, hex_) is not None:
        return "it crossed a river"
    if hex_ in mines.mined_hexes(pos.data, pos.state, side):
        return mines.ADVANCE_STOP
    if hex_ not in vacated_hexes(vacated) and hex_ in zoc.enemy_zoc(pos, side):
        return "it entered an enemy zone of control"
    return None
