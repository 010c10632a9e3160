"""[Alsace 19.2, 19.4.1, 12.2] The set-up phase: before turn 1 a player places the units his scenario leaves to
him, then says he is done; the engine checks the scenario's conditions and closes his set-up.

- Historical scenarios (19.1 uses 19.2's set-up): the German alone places the units whose ``[[setup]]`` entry
  has a ``region`` or ``choices`` (1000 Aufkl and ss MG 808 east of Belfort and north of the Allaine, Ohren in
  one of Belfort's hexes, the six free strongpoints on the German side within 5 hexes of the front line). Each
  starts on its suggested hex, so a set-up closed at once is legal. ``[strongpoint_rules]`` names the
  divisions that each need a strongpoint of their own, stacked with one of their units (the reading is in
  docs/rules/alsace44.md).
- The variant (:mod:`engine.vaevictis.variant`): the German, then the French, place the units of the
  ``[variant]`` set-ups under its conditions; the German also places his free strongpoints anywhere on his
  side of the front line (``strongpoint_region``), one strongpoint going to each ``fixed_strongpoints`` hex.
  The French offensive effort follows, still in the phase ``setup``.

For both: at most one strongpoint a hex (12.2); strongpoints count toward stacking (5, 12.2); a unit is
never placed in an enemy-held hex. Units within ``improved_position_within`` hexes of the front line start in
Improved Positions (19.2, 19.4.1), worked out again for the units placed; a strongpoint never is in one by
itself (12.2). A refusal names its rule and changes nothing. Garrisons (16) are never placed by a player.

The sides done are kept in ``state.flags["setup_phase"]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from engine.contract import Choice, Event, IllegalActionError, Prompt
from engine.hexgrid import Hex, hex_name, parse_hex
from engine.vaevictis import variant
from engine.vaevictis.data import GameData, Placement, Side, other_side
from engine.vaevictis.stacking import stacking_limit
from engine.vaevictis.state import GameState, Position

FLAG = "setup_phase"
STACKING_RULE = "5"
STATIC_KINDS = ("strongpoint", "garrison")
"""Counters never in an Improved Position by themselves (12.2, 16)."""


@dataclass(frozen=True)
class Placeable:
    """One unit a player places, with the hexes allowed and how the rules name them."""

    unit: str
    hexes: frozenset[Hex]
    where: str


# --- What each scenario lets the players place ------------------------------------------------------------


def _strongpoint_table(data: GameData) -> Mapping[str, Any]:
    return data.extra.get("strongpoint_rules", {})  # type: ignore[no-any-return]


def _region(data: GameData, name: str) -> frozenset[Hex]:
    return frozenset(data.map.regions.get(name, ()))


def rule(data: GameData, state: GameState) -> str:
    """The rule of the scenario's set-up: 19.4.1 for the variant, else the set-up's own (19.2)."""
    if variant.applies(data, state):
        return "19.4.1"
    return str(data.extra.get("setup_rules", {}).get("rule", "19.2"))


def sides(data: GameData, state: GameState) -> tuple[Side, ...]:
    """Who sets up, in order: both sides in the variant (the German first), else each side with a unit to
    place (the German alone in 19.1 and 19.2)."""
    if variant.applies(data, state):
        return variant.SIDES_IN_ORDER
    return tuple(side for side in ("german", "allied") if any(_owner_places(data, p, side) for p in data.setup))


def _owner_places(data: GameData, placement: Placement, side: Side) -> bool:
    """Whether the set-up entry is a unit of ``side`` that its owner places (it has a region or choices)."""
    return bool(placement.choices) and data.side_of(placement.unit) == side


def variant_strongpoints(data: GameData) -> tuple[list[tuple[str, Hex]], list[str]]:
    """[19.4.1] The variant's strongpoints: those set on its fixed hexes (each with its hex), and the free
    ones, in the order of the set-up list."""
    setup = variant.table(data).get("german_setup", {})
    counters = [p.unit for p in data.setup if data.units[p.unit].kind == "strongpoint"]
    fixed_hexes = [parse_hex(str(h)) for h in setup.get("fixed_strongpoints", [])]
    fixed = list(zip(counters, fixed_hexes, strict=False))
    free = counters[len(fixed) :][: int(setup.get("free_strongpoints", 0))]
    return fixed, free


def placeables(data: GameData, state: GameState, side: Side) -> dict[str, Placeable]:
    """The units ``side`` places in this scenario, by id."""
    found: dict[str, Placeable] = {}
    if variant.applies(data, state):
        for unit_id, region in variant.placeable(data, side).items():
            hexes = _region(data, region) if region else frozenset(data.map.grid.hexes)
            found[unit_id] = Placeable(unit_id, hexes, f"in '{region}'" if region else "anywhere")
        if side == "german":
            region = str(variant.table(data).get("german_setup", {}).get("strongpoint_region", ""))
            for unit_id in variant_strongpoints(data)[1]:
                found[unit_id] = Placeable(unit_id, _region(data, region), f"in '{region}'")
        return found
    regions = {frozenset(hexes): name for name, hexes in data.map.regions.items()}
    for placement in data.setup:
        if _owner_places(data, placement, side):
            named = regions.get(placement.choices)
            where = f"in '{named}'" if named else "in " + " or ".join(hex_name(h) for h in sorted(placement.choices))
            found[placement.unit] = Placeable(placement.unit, placement.choices, where)
    return found


def opens(data: GameData, state: GameState) -> bool:
    """Whether the scenario begins with a set-up phase."""
    return bool(sides(data, state))


def prepare(data: GameData, state: GameState) -> None:
    """At a new game: open the set-up phase if the scenario has one; in the variant the fixed strongpoints go
    to their hexes (19.4.1). Each unit a player places starts on its suggested hex."""
    if not opens(data, state):
        return
    if variant.applies(data, state):
        for unit_id, hex_ in variant_strongpoints(data)[0]:
            state.units[unit_id].hex = hex_
    state.flags[FLAG] = {"done": []}
    state.phase = "setup"


def setup_side(data: GameData, state: GameState) -> Side | None:
    """Whose set-up it is now, or ``None`` (no set-up phase, or every side is done)."""
    if state.phase != "setup":
        return None
    done = state.flags.get(FLAG, {}).get("done", [])
    return next((side for side in sides(data, state) if side not in done), None)


# --- Placing ------------------------------------------------------------------------------------------------


def place_refusal(
    data: GameData, state: GameState, side: Side, unit_id: str, hex_: Hex, placeable: Placeable | None = None
) -> IllegalActionError | None:
    """Why ``side`` may not put ``unit_id`` on ``hex_`` now, or ``None`` (``placeable``: the unit's entry of
    :func:`placeables`, when the caller has it already)."""
    scenario_rule = rule(data, state)
    if setup_side(data, state) != side:
        return IllegalActionError(f"it is not your set-up now ({_order_text(data, state)})", scenario_rule)
    placeable = placeable or placeables(data, state, side).get(unit_id)
    if placeable is None:
        return IllegalActionError(f"{unit_id!r} is not one of the units you place ({scenario_rule})", scenario_rule)
    name = data.units[unit_id].name
    if hex_ not in placeable.hexes:
        return IllegalActionError(f"{name} is placed {placeable.where}, not in {hex_name(hex_)}", scenario_rule)
    pos = Position(data, state)
    if pos.side_at(hex_) == other_side(side):
        return IllegalActionError(f"{hex_name(hex_)} holds enemy units", scenario_rule)
    others = [u for u in pos.units_at(hex_) if u.id != unit_id]
    if data.units[unit_id].kind == "strongpoint" and any(data.units[u.id].kind == "strongpoint" for u in others):
        return IllegalActionError(f"{hex_name(hex_)} already holds a strongpoint: at most one a hex (12.2)", "12.2")
    steps = sum(u.steps for u in others) + state.units[unit_id].steps
    limit = stacking_limit(data)
    if steps > limit:
        return IllegalActionError(
            f"{name} would make {steps} steps in {hex_name(hex_)}, more than the {limit} allowed (5; strongpoints "
            "count, 12.2)",
            STACKING_RULE,
        )
    return None


def place(data: GameData, state: GameState, side: Side, unit_id: str, hex_: Hex) -> list[Event]:
    """[19.2, 19.4.1] Put one of the side's units on a hex it may stand in.

    :raises IllegalActionError: out of the side's set-up, a unit it does not place, a hex outside the unit's
        area or held by the enemy, a second strongpoint in a hex (12.2), or a stack over the limit (5); the
        state is then unchanged.
    """
    refusal = place_refusal(data, state, side, unit_id, hex_)
    if refusal is not None:
        raise refusal
    unit = state.units[unit_id]
    unit.hex, unit.arrived, unit.improved_position = hex_, True, False
    return [
        Event(
            "setup",
            f"{data.units[unit_id].name} placed at {hex_name(hex_)} ({rule(data, state)}).",
            {"unit": unit_id, "hex": hex_, "rule": rule(data, state)},
        )
    ]


TRIALS_PER_UNIT = 6
"""How many placements of one unit :func:`place_choices` checks against the whole set-up's conditions at most:
each check reads every condition, so a unit whose area is mostly closed to it (the variant's) is sampled, not
swept."""

UNITS_PER_SAMPLE = 8
"""How many units :func:`place_choices` samples at a time: a different run of them at each position."""


def place_choices(data: GameData, state: GameState, side: Side, per_unit: int = 3) -> list[tuple[str, Hex]]:
    """A sample of legal placements for random play: a few hexes per unit spread over its area. While the
    side's set-up meets every condition, only placements that keep it so are offered (at most
    :data:`TRIALS_PER_UNIT` tried per unit), so that random play can always close it (a placement that breaks
    one is legal too: the set-up tests make those)."""
    if setup_side(data, state) != side:
        return []
    acceptable = setup_problem(data, state, side) is None
    found = []
    units = sorted(placeables(data, state, side).items())
    offset = sum(u.hex or 0 for u in state.units.values()) % max(1, len(units))  # moves with every placement
    for unit_id, placeable in (units[offset:] + units[:offset])[:UNITS_PER_SAMPLE]:
        hexes = sorted(placeable.hexes)
        step = max(1, len(hexes) // per_unit)
        spread = [h for offset in range(step) for h in hexes[offset::step]]  # every hex, the spread ones first
        trial = state.copy()  # the unit tried on each hex in turn
        chosen = tried = 0
        for hex_ in spread:
            if chosen == per_unit or tried == TRIALS_PER_UNIT:
                break
            if hex_ == state.units[unit_id].hex or place_refusal(data, state, side, unit_id, hex_, placeable):
                continue
            trial.units[unit_id].hex = hex_
            tried += acceptable
            if acceptable and setup_problem(data, trial, side) is not None:
                continue
            found.append((unit_id, hex_))
            chosen += 1
    return found


def legal_hexes(
    data: GameData, state: GameState, side: Side, unit_id: str, placeable: Placeable | None = None
) -> list[Hex]:
    """Every hex ``unit_id`` may be placed in now, in order."""
    placeable = placeable or placeables(data, state, side).get(unit_id)
    if placeable is None:
        return []
    return [h for h in sorted(placeable.hexes) if place_refusal(data, state, side, unit_id, h, placeable) is None]


# --- Closing a set-up ------------------------------------------------------------------------------------------


def setup_problem(data: GameData, state: GameState, side: Side) -> IllegalActionError | None:
    """The first condition the side's set-up breaks (with its rule), or ``None``."""
    problems = setup_problems(data, state, side)
    return problems[0] if problems else None


def setup_problems(data: GameData, state: GameState, side: Side) -> list[IllegalActionError]:
    """Every condition the side's set-up breaks, each with its rule and what to move, in the order the rules
    give them: each unit's area, the stacking limits, then the scenario's own conditions."""
    scenario_rule = rule(data, state)
    pos = Position(data, state)
    placeable = placeables(data, state, side)
    problems: list[IllegalActionError] = []
    for unit_id, allowed in sorted(placeable.items()):
        if state.units[unit_id].hex not in allowed.hexes:
            problems.append(IllegalActionError(f"{data.units[unit_id].name} must stand {allowed.where}", scenario_rule))
    limit = stacking_limit(data)
    for hex_, units in sorted(pos.occupants.items()):
        if pos.side_of(units[0].id) != side:
            continue
        if sum(1 for u in units if data.units[u.id].kind == "strongpoint") > 1:
            problems.append(
                IllegalActionError(f"{hex_name(hex_)} holds two strongpoints: at most one a hex (12.2)", "12.2")
            )
        if sum(u.steps for u in units) > limit:
            problems.append(IllegalActionError(f"{hex_name(hex_)} holds more than {limit} steps (5)", STACKING_RULE))
    if not variant.applies(data, state):
        missing = _division_without_strongpoint(data, state, side, placeable)
        if missing:
            problems.append(IllegalActionError(missing, scenario_rule))
        return problems
    return problems + [IllegalActionError(p, "19.4.1") for p in variant.setup_problems(data, state, side)]


def all_problems_refusal(problems: list[IllegalActionError]) -> IllegalActionError:
    """One refusal naming every condition broken: the rule of the first (the scenario's), each reason listed."""
    if len(problems) == 1:
        return problems[0]
    listed = "; ".join(f"{p.reason} ({p.rule})" if p.rule != problems[0].rule else p.reason for p in problems)
    return IllegalActionError(f"{len(problems)} conditions are not met: {listed}", problems[0].rule)


def _division_without_strongpoint(
    data: GameData, state: GameState, side: Side, placeable: Mapping[str, Placeable]
) -> str | None:
    """[19.2] "A minimum of 1 strongpoint per German division": each division listed needs one of the free
    strongpoints stacked with one of its units, each strongpoint counting for one division only."""
    divisions = [str(d) for d in _strongpoint_table(data).get("at_least_one_per_formation", [])]
    divisions = [d for d in divisions if d in data.formations and data.armies[data.formations[d].army].side == side]
    if not divisions:
        return None
    pos = Position(data, state)
    free = [u for u in sorted(placeable) if data.units[u].kind == "strongpoint"]
    serves: dict[str, set[str]] = {d: set() for d in divisions}
    for strongpoint in free:
        hex_ = state.units[strongpoint].hex
        if hex_ is None:
            continue
        for unit in pos.units_at(hex_):
            formation = data.units[unit.id].formation
            if formation in serves:
                serves[formation].add(strongpoint)
    for division in divisions:
        if not serves[division]:
            name = data.formations[division].name
            return (
                f"{name} has no strongpoint stacked with one of its units (19.2: at least one strongpoint per "
                "German division)"
            )
    for chosen in permutations(free, len(divisions)):
        if all(s in serves[d] for d, s in zip(divisions, chosen, strict=True)):
            return None
    return (
        "a strongpoint stacked with two divisions counts for one only: give each German division a strongpoint of "
        "its own (19.2)"
    )


def setup_done(data: GameData, state: GameState, side: Side) -> list[Event]:
    """Check the side's set-up against the scenario's conditions and close it; once every side is done, a
    historical game goes on to turn 1 (the variant to the French offensive effort).

    :raises IllegalActionError: naming the first condition broken, with its rule; the state is then unchanged.
    """
    scenario_rule = rule(data, state)
    if setup_side(data, state) != side:
        raise IllegalActionError(f"it is not your set-up now ({_order_text(data, state)})", scenario_rule)
    problems = setup_problems(data, state, side)
    if problems:
        raise all_problems_refusal(problems)
    _improved_positions(data, state, side)
    state.flags[FLAG]["done"].append(side)
    if setup_side(data, state) is None and not variant.applies(data, state):
        state.phase = "air"
    name = data.side_name(side)
    return [Event("setup-done", f"The {name} player has set up ({scenario_rule}).", {"side": side})]


def _improved_positions(data: GameData, state: GameState, side: Side) -> None:
    """[19.2, 19.4.1] "All units less than 2 hexes from the front line are in IP": worked out again for the
    units the side placed; a strongpoint (or garrison) never is in IP by itself (12.2)."""
    if variant.applies(data, state):
        table = variant.table(data).get("german_setup" if side == "german" else "french_setup", {})
    else:
        table = data.extra.get("setup_rules", {})
        if table.get("improved_position_side", side) != side:
            return
    within = table.get("improved_position_within")
    if within is None:
        return
    front = data.map.regions.get(str(table.get("front_line_region", "front line")), ())
    grid = data.map.grid
    for unit_id in placeables(data, state, side):
        unit, kind = state.units[unit_id], data.units[unit_id].kind
        if unit.hex is not None and kind != "hq" and kind not in STATIC_KINDS:
            unit.improved_position = any(grid.distance(unit.hex, f) <= int(within) for f in front)


# --- Prompts ----------------------------------------------------------------------------------------------------


def _order_text(data: GameData, state: GameState) -> str:
    order = sides(data, state)
    if len(order) > 1:
        return f"the German sets up first, then the French, {rule(data, state)}"
    return f"only the {'German' if order == ('german',) else 'French'} sets up, {rule(data, state)}"


def prompt_text(data: GameData, state: GameState, side: Side) -> str:
    """What the side places and where, under which rules, and what is still to satisfy."""
    scenario_rule = rule(data, state)
    by_area: dict[str, list[str]] = {}
    strongpoints = 0
    strongpoint_hexes: set[Hex] = set()
    for unit_id, placeable in placeables(data, state, side).items():
        if data.units[unit_id].kind == "strongpoint":
            strongpoints += 1
            strongpoint_hexes |= placeable.hexes
            by_area.setdefault(f"strongpoints {placeable.where}", [])
        else:
            by_area.setdefault(placeable.where, []).append(data.units[unit_id].name)
    parts = []
    for where, names in by_area.items():
        if names:
            shown = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
            parts.append(f"{shown} {where}")
        else:
            parts.append(f"{strongpoints} free {where}")
    title = "Variant set-up" if variant.applies(data, state) else "Set-up"
    rules = [scenario_rule, "12.2"] if strongpoints else [scenario_rule]
    text = (
        f"{title} ({', '.join(rules)}): place your units with `place`, then say you are done. "
        f"You place {'; '.join(parts)}. "
    )
    if strongpoints:
        text += "At most one strongpoint a hex; strongpoints count toward stacking (12.2, 5). "
        text += f"Legal hexes for a strongpoint: {hex_ranges(strongpoint_hexes)}. "
        divisions = _strongpoint_table(data).get("at_least_one_per_formation", [])
        if divisions and not variant.applies(data, state):
            text += "Each German division needs a strongpoint stacked with one of its units (19.2). "
    start = (
        "the historical set-up, moved only where 19.4.1 requires it (a legal default)"
        if variant.applies(data, state)
        else "their suggested hexes"
    )
    text += f"Your units stand on {start} until you move them. "
    problems = setup_problems(data, state, side)
    if problems:
        text += f"Still to satisfy ({len(problems)}): " + "; ".join(p.reason for p in problems) + "."
    else:
        text += "Every condition holds: you may say you are done."
    return text


def hex_ranges(hexes: Iterable[Hex]) -> str:
    """Hexes written compactly, column by column, a run of rows as a range: ``"0310-0314, 0415, 0901-0903"``."""
    runs: list[tuple[Hex, Hex]] = []
    for hex_ in sorted(hexes):
        if runs and runs[-1][1] + 1 == hex_ and hex_ // 100 == runs[-1][1] // 100:
            runs[-1] = (runs[-1][0], hex_)
        else:
            runs.append((hex_, hex_))
    return ", ".join(hex_name(a) if a == b else f"{hex_name(a)}-{hex_name(b)}" for a, b in runs) or "none"


def prompts(data: GameData, state: GameState) -> dict[Side, Prompt]:
    """The set-up phase's decision: the side setting up now (the variant's offensive effort after both)."""
    if state.phase != "setup":
        return {}
    side = setup_side(data, state)
    if side is None:
        return variant.prompts(data, state)
    # A Done button is offered once the set-up holds: offered earlier, it could only be refused (issue 26).
    done = (Choice("setup_done", {}, "Set-up done"),) if setup_problem(data, state, side) is None else ()
    return {
        side: Prompt(
            side,
            prompt_text(data, state, side),
            done,
            ("place", "setup_done"),
            rule=rule(data, state),
        )
    }
