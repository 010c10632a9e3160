"""The static evaluation: how good a known position is for one side, term by term.

A linear sum of terms, each in "steps" (one step of a full-strength unit is worth about 1):

- ``material``: the steps on the map, weighted by each counter's strength per step (an HQ counts as a few);
- ``objectives``: the places of the victory conditions each side holds (17; Alsace 19), more for the attacker
  holding every place of a group it must hold together (Ardennes 17.1), and for the attacker a supplied
  combat unit inside an area it wins by reaching (the far bank of the Meuse, the Rhine bank);
- ``reach``: how far each side's combat units stand from their goals (the attacker from the places and
  areas it needs, the defender from the places it covers; while the attacker lacks one of places it must hold
  together, from the ones it lacks, a garrison left in the others), the attacker's spearhead, and its race to
  an area whose entry wins at once (Ardennes 17.1, the Meuse);
- ``front``: how near the attacker could come to its goals through the gaps of the defender's zones of
  control (4), by :func:`engine.vaevictis.opponent.analysis.open_reach`: a plugged gap or a closed road
  counts for the defender, a hole punched for the attacker;
- ``supply``: combat units that trace no line of supply now (10), one's own against the enemy's: cutting
  the enemy's line scores here before the supply phase makes it count;
- ``threat``: the reply the enemy may make in its next activation: for each of the side's stacks next to
  enemy units, the steps it would expect to lose to the odds their strengths give (the combat table's
  average loss in the column of their ratio, :func:`expected_loss`); and the same, at 0.4 weight, against
  the enemy's stacks;
- ``threat`` also counts an HQ next to an enemy unit (half that two hexes away) against its side;
- ``supports``: support markers held by the side's HQs (1.6), worth more near the front;
- ``duty``: a unit of the side that entered an enemy zone of control and owes an attack (4.2) loses what its
  best such attack would lose in the trade, when every one of them is a losing trade (attacker's steps lost
  against the defender's, by the combat table's averages in the column of the rough odds);
- ``fatigue``: fatigued combat units (3.5: halved, an AP less until they spend two to recover), one's own
  against the enemy's, so that reactivating a unit is weighed against what it gains.

The weights are set by hand (docs/ai.md tells how they were chosen).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from engine.hexgrid import Hex
from engine.vaevictis.data import GameData, Side, other_side
from engine.vaevictis.odds import crt_cell, ratio_column, ratio_halves_up, round_ratio
from engine.vaevictis.opponent.analysis import FAR, Objectives, open_reach, supply_cut
from engine.vaevictis.state import GameState, Position, UnitState

HQ_VALUE = 3.0
PLACE_VALUE = 6.0
AREA_VALUE = 30.0
TOGETHER_VALUE = 12.0
"""[Ardennes 17.1] What holding every place of a group that must be held together adds to the places' own
worth: the whole group is the win, any part of it nothing."""
REACH_WEIGHT = 0.12
SPEARHEAD_WEIGHT = 0.25
FRONT_WEIGHT = 0.2
SUPPLY_WEIGHT = 1.0
THREAT_WEIGHT = 1.0
OPPORTUNITY_WEIGHT = 0.4
SUPPORT_VALUE = 0.4
REACH_CAP = 25
RACE_WEIGHT = 0.3
"""[Ardennes 17.1] What each hex between the attacker's nearest supplied combat unit and an area whose entry
wins at once (the far bank of the Meuse) costs it: the race for a sudden win, on top of ``reach``."""
FATIGUE_WEIGHT = 0.3
"""What a fatigued step costs, as a share of its worth."""
HQ_EXPOSED = 1.5
"""An HQ next to the enemy: it is no line unit, and its loss costs the whole formation (1.3)."""


@dataclass(frozen=True)
class Evaluation:
    """A position's score for one side, with the terms it adds up."""

    total: float
    terms: Mapping[str, float] = field(default_factory=dict)
    cut: frozenset[str] = frozenset()
    """The enemy's combat units that trace no line of supply in the position."""


def step_value(data: GameData, unit: UnitState) -> float:
    """What one step of a counter is worth: 1 for an average one, more for a strong counter."""
    definition = data.units[unit.id]
    if definition.is_hq:
        return HQ_VALUE
    per_step = definition.strength / max(1, definition.steps)
    return 0.6 + per_step / 6


def expected_loss(data: GameData, attack: float, defence: float, steps: int) -> float:
    """The steps a defender of ``steps`` steps may expect to lose to an attack of ``attack`` points against
    ``defence``: the average of the Combat Results Table's defender results over the six faces of the die in
    the column of that ratio (7.5, 7.6), before any shift or modifier; an ``E`` costs every step."""
    column = ratio_column(data, round_ratio(int(attack), max(1, int(defence)), ratio_halves_up(data)))
    cached = _COLUMN_LOSSES.get((id(data), column, steps))
    if cached is not None:
        return cached
    total = 0.0
    for face in range(1, 7):
        _, cell = crt_cell(data, column, face)
        total += steps if cell.defender == "E" else min(steps, int(cell.defender))
    _COLUMN_LOSSES[(id(data), column, steps)] = total / 6
    return total / 6


_COLUMN_LOSSES: dict[tuple[int, int, int], float] = {}


def attacker_loss(data: GameData, attack: float, defence: float, steps: int) -> float:
    """The steps an attacker of ``steps`` steps may expect to lose attacking at ``attack`` against ``defence``:
    the average of the Combat Results Table's attacker results over the six faces of the die (7.6)."""
    column = ratio_column(data, round_ratio(int(attack), max(1, int(defence)), ratio_halves_up(data)))
    total = 0.0
    for face in range(1, 7):
        _, cell = crt_cell(data, column, face)
        total += steps if cell.attacker == "E" else min(steps, int(cell.attacker))
    return total / 6


def _duty_cost(data: GameData, pos: Position, unit: UnitState) -> float:
    """[4.2] What the best attack a unit owing one may make would lose in the trade, if it loses (else 0)."""
    assert unit.hex is not None
    strength = float(pos.strength(unit))
    best: float | None = None
    for n in data.map.grid.neighbours(unit.hex):
        around = pos.units_at(n)
        if not around or pos.side_of(around[0].id) == pos.side_of(unit.id):
            continue
        defence = stack_defence(data, pos, around)
        gained = expected_loss(data, strength, defence, sum(u.steps for u in around)) * max(
            step_value(data, u) for u in around
        )
        lost = attacker_loss(data, strength, defence, unit.steps) * step_value(data, unit)
        best = gained - lost if best is None else max(best, gained - lost)
    return min(0.0, best) if best is not None else 0.0


def evaluate(data: GameData, state: GameState, side: Side, goals: Objectives, supply: bool = True) -> Evaluation:
    """The score of the known position for ``side`` (see the module docstring); ``supply=False`` leaves out
    the supply term, the dearest to compute, for a first sorting of many positions."""
    pos = Position(data, state)
    enemy = other_side(side)
    sign = {side: 1.0, enemy: -1.0}
    terms = {
        "material": 0.0,
        "objectives": 0.0,
        "reach": 0.0,
        "front": 0.0,
        "supply": 0.0,
        "threat": 0.0,
        "supports": 0.0,
        "fatigue": 0.0,
        "duty": 0.0,
    }
    nearest = {side: FAR, enemy: FAR}
    attacker_distance = goal_distance(data, pos, goals)
    for unit in state.units.values():
        if not unit.on_map or unit.hex is None:
            continue
        owner = data.side_of(unit.id)
        terms["material"] += sign[owner] * unit.steps * step_value(data, unit)
        if data.units[unit.id].is_hq:
            terms["supports"] += sign[owner] * SUPPORT_VALUE * len(unit.supports)
            terms["threat"] -= sign[owner] * HQ_EXPOSED * _exposure(data, pos, unit.hex, owner)
            continue
        if unit.must_attack and owner == side:
            terms["duty"] += _duty_cost(data, pos, unit)
        if unit.fatigued:
            terms["fatigue"] -= sign[owner] * FATIGUE_WEIGHT * unit.steps * step_value(data, unit)
        distance = attacker_distance(unit) if owner == goals.attacker else goals.distance[owner].get(unit.hex, FAR)
        nearest[owner] = min(nearest[owner], distance)
        terms["reach"] -= sign[owner] * REACH_WEIGHT * min(distance, REACH_CAP)
    attacker = goals.attacker
    terms["reach"] -= sign[attacker] * SPEARHEAD_WEIGHT * min(nearest[attacker], REACH_CAP)
    terms["reach"] -= sign[attacker] * RACE_WEIGHT * _race(data, state, goals)
    terms["front"] = -sign[attacker] * FRONT_WEIGHT * sum(open_reach(pos, attacker, goals, REACH_CAP))
    terms["objectives"] += _objectives(data, pos, side, goals)
    own_cut = supply_cut(pos, side) if supply else set()
    enemy_cut = supply_cut(pos, enemy) if supply else set()
    terms["supply"] = _cut_value(data, state, enemy_cut) - _cut_value(data, state, own_cut)
    terms["threat"] += _threats(data, pos, side)
    return Evaluation(sum(terms.values()), terms, frozenset(enemy_cut))


def _race(data: GameData, state: GameState, goals: Objectives) -> int:
    """[17.1] The least distance from a supplied combat unit of the attacker to an area whose entry wins at once
    (0 when the scenario has none), at most :data:`REACH_CAP`."""
    if not goals.sudden:
        return 0
    best = REACH_CAP
    for unit in state.units.values():
        if unit.hex is None or not unit.on_map or data.side_of(unit.id) != goals.attacker:
            continue
        if data.units[unit.id].is_hq or unit.isolated or unit.unsupplied:
            continue
        best = min(best, *(goals.goal_maps[i].get(unit.hex, FAR) for i in goals.sudden))
    return best


def lacking_maps(data: GameData, pos: Position, goals: Objectives) -> list[dict[Hex, int]]:
    """[Ardennes 17.1] While the attacker lacks a place of a group it must hold all of (it holds none of that
    place's hexes), the distance maps of the places it lacks and of the areas it may reach; else none."""
    lacking = [
        i
        for group in goals.together
        for i in group
        if not any(_holder(data, pos, h) == goals.attacker for h in goals.places[i].hexes)
    ]
    if not lacking:
        return []
    return [goals.goal_maps[i] for i in lacking] + list(goals.goal_maps[len(goals.places) :])


def attacker_target(data: GameData, pos: Position, goals: Objectives) -> Callable[[Hex], int]:
    """Each hex's distance to the goals the attacker still needs: the nearest place it lacks of a group it
    must hold together (:func:`lacking_maps`), else the nearest of its goals."""
    maps = lacking_maps(data, pos, goals)
    if not maps:
        default = goals.distance[goals.attacker]
        return lambda hex_: default.get(hex_, FAR)
    return lambda hex_: min(m.get(hex_, FAR) for m in maps)


def goal_distance(data: GameData, pos: Position, goals: Objectives) -> Callable[[UnitState], int]:
    """How far an attacker's combat unit stands from the goals it still needs, as the ``reach`` term reads it.

    Without a group of places to hold together, the distance to the nearest goal. [Ardennes 17.1] While the
    attacker lacks one place of a group it must hold all of, a unit counts its distance to the nearest place
    it lacks (or area to reach), except the first unit met in each held place's hex, its garrison, which counts
    0: so the units not needed to hold what is taken are drawn on to the rest, instead of crowding the cities
    nearest to them."""
    target = attacker_target(data, pos, goals)
    places = {h for p in goals.places for h in p.hexes}
    garrisoned: set[Hex] = set()

    def distance(unit: UnitState) -> int:
        hex_ = unit.hex
        if hex_ is None:
            return FAR
        if hex_ in places and hex_ not in garrisoned:
            garrisoned.add(hex_)
            return 0
        return target(hex_)

    return distance


def _objectives(data: GameData, pos: Position, side: Side, goals: Objectives) -> float:
    score = 0.0
    for place in goals.places:
        holders = [_holder(data, pos, h) for h in place.hexes]
        for owner in (side, other_side(side)):
            held = all(h == owner for h in holders) if place.all_hexes else owner in holders
            if held:
                score += PLACE_VALUE if owner == side else -PLACE_VALUE
    attacker = goals.attacker
    for group in goals.together:
        if all(any(_holder(data, pos, h) == attacker for h in goals.places[i].hexes) for i in group):
            score += TOGETHER_VALUE if attacker == side else -TOGETHER_VALUE
    for area in goals.areas:
        inside = any(
            pos.side_of(u.id) == attacker
            and not pos.unit_def(u.id).is_hq
            and not (u.isolated or u.unsupplied)
            and u.hex in area
            for u in pos.state.on_map()
        )
        if inside:
            score += AREA_VALUE if attacker == side else -AREA_VALUE
    return score


def _cut_value(data: GameData, state: GameState, cut: set[str]) -> float:
    """[10.3] What units without a line of supply lose: a unit unsupplied at the next supply phase has fewer
    action points and is halved in combat; counted as a point per unit and half its steps' worth."""
    return sum(SUPPLY_WEIGHT + 0.5 * state.units[u].steps * step_value(data, state.units[u]) for u in cut)


def _exposure(data: GameData, pos: Position, hex_: Hex, side: Side) -> float:
    """1 for a hex next to an enemy unit, a half for one two hexes away, else 0."""
    grid = data.map.grid
    ring = grid.neighbours(hex_)
    if any((s := pos.side_at(n)) is not None and s != side for n in ring):
        return 1.0
    second = {m for n in ring for m in grid.neighbours(n)}
    return 0.5 if any((s := pos.side_at(m)) is not None and s != side for m in second) else 0.0


def _holder(data: GameData, pos: Position, hex_: Hex) -> Side | None:
    units = [u for u in pos.units_at(hex_) if not data.units[u.id].is_hq]
    return data.side_of(units[0].id) if units else None


def stack_defence(data: GameData, pos: Position, units: list[UnitState]) -> float:
    """A stack's defence strength as the evaluation reads it: its strength, half again in Improved Positions."""
    total = float(sum(pos.strength(u) for u in units if not data.units[u.id].is_hq)) or 1.0
    if units and all(u.improved_position for u in units):
        total *= 1.5
    return total


def _threats(data: GameData, pos: Position, side: Side) -> float:
    """The expected losses of each side's stacks to the enemy units next to them (see the module docstring)."""
    grid = data.map.grid
    score = 0.0
    for hex_, units in pos.occupants.items():
        owner = pos.side_of(units[0].id)
        attack = 0.0
        for n in grid.neighbours(hex_):
            around = pos.units_at(n)
            if around and pos.side_of(around[0].id) != owner:
                attack += sum(pos.strength(u) for u in around if not data.units[u.id].is_hq)
        if attack == 0:
            continue
        steps = sum(u.steps for u in units)
        loss = expected_loss(data, attack, stack_defence(data, pos, units), steps)
        value = loss * max(step_value(data, u) for u in units)
        score += -THREAT_WEIGHT * value if owner == side else OPPORTUNITY_WEIGHT * value
    return score
