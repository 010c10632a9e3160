"""What a commander may ask about his game: a hex, a unit, an HQ, the order of battle, the victory
conditions as they stand, the scenario's briefing and the report at the start of a turn.

Every report is read from one seat's view of the position (``seat=None``: what both sides may see) and from
the game's data, never from a scenario's names: the same functions serve every Vae Victis game. Under fog of
war (11) a report names only the enemy counters the seat's view shows; what it says of the enemy otherwise
is what the view shows (a stack's side and its number of counters). The reports decide no rule: they ask the
rules modules (command and supply 8/10, zones of control 4, combat odds 7.4, victory 17) and write down
what they answer. The bot words them (:mod:`bot.systems.vaevictis`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.hexgrid import Hex, hex_name
from engine.vaevictis import events as event_rules
from engine.vaevictis import movement, stacking, supply, victory, zoc
from engine.vaevictis.data import SIDES, GameData, Side, VictoryCondition, hq_name, other_side
from engine.vaevictis.geography import beyond_meuse
from engine.vaevictis.odds import defender_terrain_shifts
from engine.vaevictis.state import GameState, Position, UnitState
from engine.vaevictis.view import seat_view

SPECIAL_RULES: Mapping[str, str] = {
    "german-initiative-turns-1-2": "the German player has the initiative on turns 1 and 2",
    "german-three-formations-turn-1": "on turn 1 the German activates three formations in succession, one of "
    "each army, before the first Allied activation",
    "us-adjacent-no-move-turn-1": "US units that begin the game next to a German unit may not move on turn 1",
    "us-all-in-command-turn-1": "every US unit is in command on turn 1 and may receive supports",
}
"""A sentence for each special rule a scenario may name (the engine implements each of them)."""

BREAKTHROUGH = "Breakthrough (7.8)"


def marker_name(data: GameData, kind: str) -> str:
    """A map marker as a player names it, with its rule: an event's marker by the event (15), else a
    breakthrough (7.8)."""
    event = data.events.get(kind)
    if event is not None:
        return f"{event.name} ({event.rule})"
    return BREAKTHROUGH if kind == "breakthrough" else kind


def visible_ids(view: Mapping[str, Any]) -> set[str]:
    """The units a view shows."""
    return {str(u["id"]) for s in view["stacks"] for u in s["units"]}


# --- A hex ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hexside:
    """One side of a hex: the neighbour across it and what runs along or over it."""

    neighbour: Hex
    road: bool
    river: str | None
    bridge: bool


@dataclass(frozen=True)
class HexReport:
    """[0.2, 4, 5, 6.2, 7.4, 17] Everything about one hex as a seat may know it."""

    hex: Hex
    terrain: str
    settlement: tuple[str, str] | None
    """(kind, name) of its city or village."""
    locality: str | None
    """A named place without terrain effect."""
    westwall: bool
    hexsides: tuple[Hexside, ...]
    """Only the sides with a road, a river or a bridge."""
    column_shifts: Mapping[Side, tuple[tuple[int, str, str], ...]]
    """Per defending side: (shift, reason, rule) of the terrain (7.4, 0.2)."""
    entry_costs: Mapping[str, float]
    """MPs to enter off road, per movement class (6.2); ``inf`` where prohibited."""
    road_costs: Mapping[str, float]
    """MPs per hex along a road, per movement class, when a road enters the hex."""
    shelter: tuple[Side, ...]
    """The sides whose units entering an enemy zone of control here need not attack (4.2, 4.3)."""
    victory: tuple[str, ...]
    """The scenario's conditions that name this place."""
    holder: Side | None
    stack_count: int
    steps: int | None
    """Steps in the hex; ``None`` when some counters are hidden from the seat (11)."""
    stack_limit: int
    units: tuple[Mapping[str, Any], ...]
    """The counters the seat sees (view entries)."""
    hidden: int
    zoc: Mapping[Side, tuple[str, ...]]
    """Per side: its units that exert a zone of control here: names, or ``"hidden counter at 2515"`` (4.1)."""
    markers: tuple[str, ...]


def hex_report(data: GameData, state: GameState, seat: Side | None, hex_: Hex) -> HexReport:
    """The hex as ``seat`` may know it: its terrain and sides, what it costs and gives, who is there."""
    game_map = data.map
    view = seat_view(data, state, seat)
    seen = visible_ids(view)
    grid = game_map.grid
    sides = []
    for n in grid.neighbours(hex_):
        river = game_map.river_between(hex_, n)
        road = game_map.has_road(hex_, n)
        if road or river is not None:
            sides.append(Hexside(n, road, river.name if river else None, game_map.is_bridged(hex_, n)))
    place = game_map.settlements.get(hex_)
    locality = next((p.name for p in game_map.places if p.hex == hex_ and p.kind == "locality"), None)
    shifts = {
        side: tuple((m.amount, m.reason, m.rule) for m in defender_terrain_shifts(data, hex_, side)) for side in SIDES
    }
    classes = movement.MOBILITY_CLASSES
    road = hex_ in game_map.road_hexes
    stack = next((s for s in view["stacks"] if s["hex"] == hex_), None)
    pos = Position(data, state)
    control: dict[Side, list[str]] = {}
    # [16] A face-down garrison goes by the name its view gives it, never its label's.
    shown = {str(u["id"]): str(u["name"]) for s in view["stacks"] for u in s["units"] if u.get("face_down")}
    for side in SIDES:
        for unit_id in sorted(zoc.enemy_zoc(pos, other_side(side)).get(hex_, set())):
            unit = state.units[unit_id]
            assert unit.hex is not None
            if unit_id in shown:
                who = f"{shown[unit_id]} at {hex_name(unit.hex)}"
            elif unit_id in seen:
                who = data.units[unit_id].name
            else:
                who = f"hidden counter at {hex_name(unit.hex)}"
            if who not in control.setdefault(side, []):
                control[side].append(who)
    hidden = int(stack["hidden"]) if stack else 0
    return HexReport(
        hex=hex_,
        terrain=game_map.terrain[hex_],
        settlement=(place.kind, place.name) if place else None,
        locality=locality,
        westwall=hex_ in game_map.westwall,
        hexsides=tuple(sides),
        column_shifts=shifts,
        entry_costs={c: movement.entry_cost(data, hex_, c) for c in classes},
        road_costs={c: movement.road_cost(data, c) for c in classes} if road else {},
        shelter=tuple(side for side in SIDES if movement.is_shelter(data, hex_, side)),
        victory=tuple(
            describe_condition(data, c)
            for c in data.scenarios[state.scenario].victory
            if place is not None and place.name in c.cities
        ),
        holder=stack["side"] if stack else None,
        stack_count=int(stack["count"]) if stack else 0,
        steps=None if hidden else sum(int(u["steps"]) for u in stack["units"]) if stack else 0,
        stack_limit=stacking.stacking_limit(data),
        units=tuple(stack["units"]) if stack else (),
        hidden=hidden,
        zoc={side: tuple(names) for side, names in control.items()},
        markers=tuple(
            f"{marker_name(data, str(m['kind']))} of the {m['side']} player"
            for m in view["markers"]
            if m["hex"] == hex_
        ),
    )


# --- A unit --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitReport:
    """[1, 3, 4.2, 8, 10, 12] One unit as a seat may know it; the private part only for its owner."""

    id: str
    name: str
    long_name: str
    side: Side
    hex: Hex
    formation: str
    hq: str | None
    view: Mapping[str, Any]
    """The counter as the seat sees it (strength, steps, quality, statuses)."""
    own: bool
    """Whether the unit is the seat's: the fields below are filled only then."""
    command: str = ""
    """"in command" or why not (8.1)."""
    supply: str = ""
    """"supplied" or why not, with the hex where the line breaks (10.2)."""
    action_points: int = 0
    in_activation: bool = False
    movement_points: float = 0.0
    activations: int = 0
    fatigued: bool = False
    improved_position: bool = False
    must_attack: bool = False
    cannot_move: bool = False


def unit_report(data: GameData, state: GameState, seat: Side | None, unit_id: str) -> UnitReport | None:
    """The unit as ``seat`` may know it; ``None`` if the seat's view does not show it."""
    view = seat_view(data, state, seat)
    entry = next(((s, u) for s in view["stacks"] for u in s["units"] if u["id"] == unit_id), None)
    if entry is None:
        return None
    stack, shown = entry
    definition = data.units[unit_id]
    formation = data.formations[definition.formation]
    side = data.side_of(unit_id)
    hidden = bool(shown.get("face_down"))  # [Alsace 16] a face-down garrison: neither name nor values
    base = UnitReport(
        id=unit_id,
        name=str(shown["name"]) if hidden else definition.name,
        long_name="" if hidden else definition.long_name,
        side=side,
        hex=int(stack["hex"]),
        formation=formation.name,
        hq=data.units[formation.hq].name if formation.hq else None,
        view=shown,
        own=seat == side,
    )
    if seat != side:
        return base
    unit = state.units[unit_id]
    pos = Position(data, state)
    net = supply.SupplyNet(pos, side)
    active = state.activation is not None and unit_id in state.activation.units
    return replace(
        base,
        command=command_reason(pos, net, unit),
        supply=supply_reason(pos, net, unit),
        action_points=unit.action_points if active else pos.base_action_points(unit),
        in_activation=active,
        movement_points=unit.movement_points if active else 0.0,
        activations=unit.activations,
        fatigued=unit.fatigued,
        improved_position=unit.improved_position,
        must_attack=unit.must_attack,
        cannot_move=unit.cannot_move,
    )


def command_reason(pos: Position, net: supply.SupplyNet, unit: UnitState) -> str:
    """[8.1] "in command", or why the unit is not (its status of this turn, and the line of command now)."""
    data = pos.data
    formation = data.formations[data.units[unit.id].formation]
    status = "out of command" if unit.out_of_command else "in command"
    if net.in_command(unit):
        now = "a line of command reaches it now"
    elif formation.hq is None:
        now = f"{formation.name} has no HQ"
    else:
        hq = pos.state.units[formation.hq]
        name = hq_name(data.units[formation.hq].name)
        reach = supply.command_range(data, net.side)
        if not hq.on_map or hq.hex is None or unit.hex is None:
            now = f"{name} is not on the map"
        elif (far := data.map.grid.distance(hq.hex, unit.hex)) > reach:
            now = f"{name} is {far} hexes away, beyond its command range of {reach}"
        else:
            now = f"enemy-held hexes bar every line of command of {reach} hexes from {name}"
    if formation.independent:
        now = f"independent units are always in command ({data.rule('16.3')})"
    return f"{status} this turn (8.1); {now}"


def supply_reason(pos: Position, net: supply.SupplyNet, unit: UnitState) -> str:
    """[10.2, 10.3] The unit's supply status of this turn, and whether it traces supply now; when it does not,
    why: no road, and for the two nearest HQs able to supply it, the HQ's own supply, its distance, or the
    first closed hex on the straight line from the HQ (the search found no way round within the range)."""
    data = pos.data
    status = "unsupplied" if unit.unsupplied else "isolated" if unit.isolated else "supplied"
    if unit.hex is None:
        return status
    if net.is_supplied(unit):
        return f"{status} this turn (10.3); it traces supply now"
    why = ["no road leading to the friendly board edge within 1 hex"]
    grid = data.map.grid
    reach = supply.command_range(data, net.side)
    hqs = [h for h in net.supplying_hqs(unit.id) if pos.state.units[h].on_map and h != unit.id]
    hqs.sort(key=lambda h: grid.distance(pos.state.units[h].hex or 0, unit.hex or 0))
    for hq_id in hqs[:2]:
        hq = pos.state.units[hq_id]
        assert hq.hex is not None
        name = hq_name(data.units[hq_id].name)
        far = grid.distance(hq.hex, unit.hex)
        if not net.hq_supplied(hq_id):
            why.append(f"{name} is itself without supply")
        elif far > reach:
            why.append(f"{name} is {far} hexes away (range {reach})")
        else:
            cut = next((h for h in grid.line(hq.hex, unit.hex)[1:-1] if h in net.supply_closed), None)
            if cut is None:
                why.append(f"the line from {name} is barred by unbridged rivers or enemy hexes (10.1)")
            else:
                what = "enemy units" if cut in net.enemy_hexes else "a blocking marker"
                if cut not in net.enemy_hexes and cut not in net.blocked_by_markers:
                    what = "an enemy zone of control"
                why.append(
                    f"the direct line from {name} breaks at {hex_name(cut)} ({what}, 10.1) and no way round is open "
                    f"within {reach} hexes"
                )
    if not hqs:
        why.append("no HQ able to supply it is on the map")
    return f"{status} this turn (10.3); no supply now: {'; '.join(why)}"


# --- An HQ ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HqReport:
    """[1.3, 1.6, 8.1, 9.5] An HQ: ratings, markers held, range, the units it commands."""

    id: str
    name: str
    side: Side
    hex: Hex | None
    formation: str
    support: int
    c3i: str | None
    command_range: int
    markers: tuple[str, ...]
    supplied: bool | None
    """``None`` when the seat may not know."""
    in_command: tuple[str, ...] = ()
    out_of_command: tuple[str, ...] = ()
    """Unit names, only for the HQ's owner."""


def hq_report(data: GameData, state: GameState, seat: Side | None, hq_id: str) -> HqReport | None:
    """The HQ as ``seat`` may know it; ``None`` if it is not an HQ the seat sees (or, for its owner, one
    off the map)."""
    if hq_id not in data.units or not data.units[hq_id].is_hq:
        return None
    side = data.side_of(hq_id)
    hq = state.units[hq_id]
    if seat != side and hq_id not in visible_ids(seat_view(data, state, seat)):
        return None
    definition = data.units[hq_id]
    formation = data.formations[definition.formation]
    pos = Position(data, state)
    inside: list[str] = []
    outside: list[str] = []
    if seat == side:
        for unit in state.on_map():
            if data.units[unit.id].formation == formation.id and unit.id != hq_id:
                (outside if unit.out_of_command else inside).append(data.units[unit.id].name)
    return HqReport(
        id=hq_id,
        name=definition.name,
        side=side,
        hex=hq.hex if hq.on_map else None,
        formation=formation.name,
        support=definition.support,
        c3i=definition.c3i,
        command_range=supply.command_range(data, side),
        markers=tuple(hq.supports),
        supplied=supply.SupplyNet(pos, side).hq_supplied(hq_id) if seat == side and hq.on_map else None,
        in_command=tuple(sorted(inside)),
        out_of_command=tuple(sorted(outside)),
    )


# --- The order of battle -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FormationEntry:
    """One formation of the order of battle: its HQ and its units on the map."""

    id: str
    name: str
    hq: HqReport | None
    units: tuple[tuple[Hex, Mapping[str, Any]], ...]
    """(hex, counter as its owner sees it), HQ excepted."""


@dataclass(frozen=True)
class ArmyEntry:
    id: str
    name: str
    pool: Mapping[str, int]
    returning: Mapping[str, int]
    formations: tuple[FormationEntry, ...]


@dataclass(frozen=True)
class Reinforcements:
    turn: int
    units: tuple[str, ...]
    hexes: tuple[Hex, ...]
    region: str | None = None
    """The map region the entry hexes make up, when the reinforcement list names one (18)."""


@dataclass(frozen=True)
class OrderOfBattle:
    """[1.5, 1.6, 16.1, 18] A side's army: formations and units, what is still to come, what is lost."""

    side: Side
    armies: tuple[ArmyEntry, ...]
    reinforcements: tuple[Reinforcements, ...]
    eliminated: tuple[str, ...]
    detachments: tuple[tuple[str, str, Hex], ...]
    """(detachment, its division, hex)."""
    events_left: tuple[tuple[str, int], ...]


def order_of_battle(data: GameData, state: GameState, side: Side) -> OrderOfBattle:
    """The whole order of battle of ``side``, as its owner knows it."""
    view = seat_view(data, state, side)
    where = {str(u["id"]): (int(s["hex"]), u) for s in view["stacks"] for u in s["units"]}
    armies = []
    for army in data.armies.values():
        if army.side != side:
            continue
        formations = []
        for formation in data.formations.values():
            if formation.army != army.id:
                continue
            units = tuple(
                where[u]
                for u, d in data.units.items()
                if d.formation == formation.id and u in where and u != formation.hq
            )
            hq = hq_report(data, state, side, formation.hq) if formation.hq else None
            formations.append(FormationEntry(formation.id, formation.name, hq, units))
        armies.append(
            ArmyEntry(
                army.id,
                army.name,
                dict(state.pools.get(army.id, {})),
                dict(state.returning.get(army.id, {})),
                tuple(formations),
            )
        )
    coming: dict[tuple[int, tuple[Hex, ...]], list[str]] = {}
    regions: dict[tuple[Hex, ...], str] = {}
    for reinforcement in data.reinforcements:
        for unit_id in reinforcement.units:
            unit = state.units.get(unit_id)
            if unit is None or unit.arrived or unit.eliminated or data.side_of(unit_id) != side:
                continue
            due = state.arrivals.get(unit_id, reinforcement.turn)
            coming.setdefault((due, reinforcement.hexes), []).append(data.units[unit_id].name)
            if reinforcement.region is not None:
                regions[reinforcement.hexes] = reinforcement.region
    return OrderOfBattle(
        side=side,
        armies=tuple(armies),
        reinforcements=tuple(
            Reinforcements(turn, tuple(names), hexes, regions.get(hexes))
            for (turn, hexes), names in sorted(coming.items())
        ),
        eliminated=tuple(
            data.units[u.id].name for u in state.units.values() if u.eliminated and data.side_of(u.id) == side
        ),
        detachments=tuple(
            (data.units[u.id].name, data.units[u.parent].name, u.hex)
            for u in state.on_map()
            if u.parent is not None and data.side_of(u.id) == side and u.hex is not None
        ),
        events_left=tuple(
            (e.name, int(state.events_left.get(e.id, 0))) for e in data.events.values() if e.side == side
        ),
    )


# --- Victory -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConditionStatus:
    """[17] One victory condition and how it stands now."""

    condition: str
    """The condition in words."""
    met: bool
    detail: str


@dataclass(frozen=True)
class VictoryStatus:
    scenario: str
    turn: int
    last_turn: int
    conditions: tuple[ConditionStatus, ...]
    if_ended_now: tuple[str, str]
    """(winner, the result and its reason) if the game ended now."""
    over: bool


def describe_condition(data: GameData, condition: VictoryCondition) -> str:
    """A victory condition in words, e.g. "German: hold 3 of St. Vith, Bastogne, Marche at the end"."""
    side = data.side_name(condition.side)
    result = data.result_name(condition.result)
    who = side + (f" ({result})" if result != side else "")
    supplied = " supplied" if condition.supplied else ""
    if condition.kind == "cross-meuse":
        when = {"any-time": "at any time", "end-of-turn": "and stay there to the end of a turn"}.get(condition.when, "")
        return f"{who}: a{supplied} unit across the {condition.river} {when}".strip()
    if condition.kind == "hold-cities":
        count = "all of" if condition.count >= len(condition.cities) else f"{condition.count} of"
        with_ = " with supplied units" if condition.supplied else ""
        return f"{who}: hold{with_} {count} {', '.join(condition.cities)} at the end"
    return f"{who}: {objective(data, condition)}"


def objective(data: GameData, condition: VictoryCondition) -> str:
    """[Alsace 19] What a condition asks, without the side: "hold a hex of Belfort at the end"."""
    if condition.kind == "hold-places":
        places = " and ".join(condition.places)
        if condition.count < len(condition.places):
            places = f"{condition.count} of {', '.join(condition.places)}"
        hexes = "every hex" if condition.city_hexes == "all" else "a hex"
        each = "it" if len(condition.places) == 1 else "each"
        return f"hold {places} ({hexes} of {each}) at the end"
    if condition.kind == "hold-overlay":
        return f"hold every {condition.overlay} hex at the end"
    if condition.kind == "reached-region":
        region = data.extra.get("region_names", {}).get(condition.region, condition.region)
        return f"reach the {region} at some time in the game"
    if condition.kind == "exit-units":
        units = f"{condition.hq} HQ and {condition.combat_commands} Combat Commands of one division"
        return f"exit {units} by the {condition.region}"
    if condition.kind == "all":
        return " and ".join(objective(data, part) for part in condition.of)
    return condition.kind.replace("-", " ")


def victory_status(data: GameData, state: GameState, seat: Side | None) -> VictoryStatus:
    """[17] Each victory condition of the scenario as it stands now, and the result if the game ended now.

    A hidden enemy counter's supply (11) is not told: the condition then says only where the side stands.
    """
    scenario = data.scenarios[state.scenario]
    pos = Position(data, state)
    seen = visible_ids(seat_view(data, state, seat))
    statuses = []
    for condition in scenario.victory:
        if condition.kind == "cross-meuse":
            area = beyond_meuse(data)
            across = [
                u
                for u in state.on_map()
                if data.side_of(u.id) == condition.side and u.hex in area and victory.counts_for_victory(data, u)
            ]
            supplied = [u for u in across if victory.is_supplied(u)]
            known = all(u.id in seen or data.side_of(u.id) == seat for u in across)
            if not across:
                detail = f"the {condition.river} is not crossed"
            else:
                hexes = ", ".join(sorted({hex_name(u.hex) for u in across if u.hex is not None}))
                state_words = (
                    ("supplied" if supplied else "not supplied") if known else "supply hidden by the fog of war (11)"
                )
                detail = f"{condition.side} units across the {condition.river} at {hexes}, {state_words}"
            statuses.append(ConditionStatus(describe_condition(data, condition), bool(supplied) and known, detail))
            continue
        if condition.kind != "hold-cities":
            met = condition.kind in victory.CHECKS and victory.holds(data, state, condition) is not None
            statuses.append(
                ConditionStatus(describe_condition(data, condition), met, where_it_stands(data, pos, condition))
            )
            continue
        parts = []
        held = 0
        for city in condition.cities:
            units = pos.units_at(data.map.place(city).hex)
            holder = pos.side_of(units[0].id) if units else None
            if holder is None:
                parts.append(f"{city} held by nobody")
                continue
            good = holder == condition.side and any(
                (victory.is_supplied(u) or not condition.supplied) and victory.counts_for_victory(data, u)
                for u in units
            )
            known = holder == seat or all(u.id in seen for u in units) or not condition.supplied
            note = ""
            if condition.supplied and holder == condition.side:
                note = (", supplied" if good else ", not supplied") if known else ", supply hidden (11)"
            if holder == condition.side and not any(victory.counts_for_victory(data, u) for u in units):
                note = f", an HQ alone, which does not count ({data.rule('17')})"
            parts.append(f"{city} {data.side_name(holder)}{note}")
            held += good
        detail = "; ".join(parts) + f" ({held} of {condition.count} needed held)"
        statuses.append(ConditionStatus(describe_condition(data, condition), held >= condition.count, detail))
    return VictoryStatus(
        scenario=scenario.name,
        turn=state.turn,
        last_turn=scenario.turns,
        conditions=tuple(statuses),
        if_ended_now=result_if_ended_now(data, state),
        over=state.result is not None,
    )


def holder_word(data: GameData, side: Side | None) -> str:
    return data.side_name(side) if side else "nobody"


def where_it_stands(data: GameData, pos: Position, condition: VictoryCondition) -> str:
    """[Alsace 19] How far a condition is met now, from what both sides see: who stands in each place."""
    state = pos.state
    if condition.kind == "hold-places":
        parts = []
        for place in condition.places:
            hexes = sorted(data.map.place(place).hexes)
            holders = [(hex_name(h), holder_word(data, pos.side_at(h))) for h in hexes]
            held = ", ".join(f"{name} {side}" for name, side in holders) if len(hexes) > 1 else holders[0][1]
            parts.append(f"{place}: {held}")
        return "; ".join(parts)
    if condition.kind == "hold-overlay":
        overlay = data.map.overlays.get(condition.overlay, frozenset())
        count = sum(pos.side_at(h) == condition.side for h in overlay)
        return f"{count} of {len(overlay)} {condition.overlay} hexes held"
    if condition.kind == "all":
        return "; ".join(where_it_stands(data, pos, part) for part in condition.of)
    if condition.kind not in victory.CHECKS:
        return "not judged yet"
    reason = victory.holds(data, state, condition)
    return reason or ("not reached yet" if condition.kind == "reached-region" else "not yet")


def result_if_ended_now(data: GameData, state: GameState) -> tuple[str, str]:
    """[17] The winner and the result (with its reason) if the game ended now, by the rules module itself
    run on a copy of the position."""
    result: Mapping[str, Any]
    if state.result is not None:
        result = state.result
    else:
        trial = state.copy()
        events = victory.end_of_turn(data, trial) or victory.end_of_game(data, trial)
        result = events[-1].data
    named = data.result_name(str(result["result"]))
    return data.side_name(str(result["winner"])), f"{named}: {result['reason']}"


# --- The briefing --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Briefing:
    """[17] The scenario: its turns and dates, special rules, victory conditions, optional rules in force."""

    game: str
    scenario: str
    rule: str
    turns: tuple[tuple[int, str, str], ...]
    """(number, date, weather) of each turn played."""
    special_rules: tuple[str, ...]
    victory: tuple[str, ...]
    default_result: str
    options: tuple[str, ...]
    """The optional rules in force, by name."""


def briefing(data: GameData, scenario_id: str, options: Mapping[str, bool]) -> Briefing:
    """The briefing of a scenario with these optional rules."""
    scenario = data.scenarios[scenario_id]
    return Briefing(
        game=data.name,
        scenario=scenario.name,
        rule=scenario.rule,
        turns=tuple((t.number, t.date, t.weather or "") for t in data.turns[: scenario.turns]),
        special_rules=tuple(SPECIAL_RULES.get(r, r.replace("-", " ")) for r in scenario.special_rules),
        victory=tuple(describe_condition(data, c) for c in scenario.victory),
        default_result=scenario.default_result.replace("-", " "),
        options=tuple(sorted(name for name, on in options.items() if on)),
    )


# --- The start of a turn -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnReport:
    """[2.1] What a side learns at the start of a turn."""

    side: Side
    turn: int
    date: str
    weather: str
    changes: tuple[tuple[str, str], ...]
    """(unit name, new status) of the side's units whose command or supply status changed (8.1, 10.3)."""
    out_of_command: tuple[str, ...]
    isolated: tuple[str, ...]
    unsupplied: tuple[str, ...]
    reinforcements: tuple[Reinforcements, ...]
    """Due this turn."""
    pools: tuple[tuple[str, Mapping[str, int]], ...]
    events_left: tuple[tuple[str, int], ...]
    playable: tuple[str, ...]
    """Events the side may play now (15)."""
    victory: VictoryStatus = field(repr=False)


def turn_report(data: GameData, state: GameState, side: Side, events: Sequence[Mapping[str, Any]]) -> TurnReport:
    """The report of the turn that has just begun, for ``side``; ``events`` are those that began it (their
    ``status`` events name the units whose status changed)."""
    changes = []
    for event in events:
        unit = str(event.get("data", {}).get("unit", ""))
        if event.get("kind") == "status" and unit in data.units and data.side_of(unit) == side:
            changes.append((data.units[unit].name, str(event["data"].get("status", ""))))
    mine = [u for u in state.on_map() if data.side_of(u.id) == side]
    oob = order_of_battle(data, state, side)
    turn = data.turns[state.turn - 1]
    return TurnReport(
        side=side,
        turn=state.turn,
        date=turn.date,
        weather=turn.weather or "",
        changes=tuple(changes),
        out_of_command=tuple(data.units[u.id].name for u in mine if u.out_of_command),
        isolated=tuple(data.units[u.id].name for u in mine if u.isolated),
        unsupplied=tuple(data.units[u.id].name for u in mine if u.unsupplied),
        reinforcements=tuple(r for r in oob.reinforcements if r.turn == state.turn),
        pools=tuple((a.name, a.pool) for a in oob.armies),
        events_left=tuple(e for e in oob.events_left if e[1]),
        playable=tuple(
            dict.fromkeys(data.events[str(c.args["event"])].name for c in event_rules.playable(data, state, side))
        ),
        victory=victory_status(data, state, side),
    )
