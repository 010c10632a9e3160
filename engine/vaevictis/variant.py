"""[Alsace 19.4] The variant: free set-ups, the French offensive effort, the 1re DFL's budget, and the German
reinforcement groups that French moves trigger.

Everything comes from the set-up's ``[variant]`` table (docs/scenario-format.md) and applies to the scenarios
marked ``variant = true``:

- ``german_setup`` / ``french_setup``: before turn 1 (the phase ``setup``, engine/vaevictis/setup_phase.py) the
  German, then the French, place the listed units freely (``place``), then say ``setup_done``; the engine then
  checks the conditions the table names: the ``region`` (the reserves: ``reserve_region``), no stack of two
  divisions, a line of command to each unit's HQ within its command range, every front-line hex held or in a
  German zone of control, the independent ``regiments`` within ``regiments_within`` hexes; German units within
  ``improved_position_within`` of the front line are put in Improved Positions. The German also places
  ``free_strongpoints`` strongpoints in ``strongpoint_region``, after one goes to each ``fixed_strongpoints``
  hex.
- ``offensive_effort``: the French then announce (publicly) the heavy artillery markers (within
  ``heavy_artillery``, at most those of the pool) and the infantry divisions (``division_choices``) of the
  offensive. Only those divisions may be activated on turn 1; German units have the APs of
  ``german_turn1_action_points`` (by number of divisions) on turn 1; the heavy artillery left over goes to
  the Vosges front (out of the pool) and sets the Vosges Group.
- ``formation_budget``: the ``formation`` may be activated on at most ``turns[scenario]`` turns.
- ``[[variant.group]]``: German groups, in place of the German reinforcements and support grants of the
  historical schedule: each enters ``delay`` turns after its ``trigger`` (``crosses-river``: a unit of the
  side crosses one of the ``rivers``; ``enters-column``: a unit of the side enters the map column; ``turn``),
  by its ``hexes`` or ``region``, with its ``markers`` for the German pool; ``later`` waves after their own
  delay; the Vosges Group's units and markers come from the ``vosges_table`` rows whose ``enters_with`` holds
  the number of heavy artillery markers left in the Vosges.

The facts are kept in ``state.flags["variant"]`` for the whole game.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from itertools import combinations, pairwise
from typing import Any

from engine import arguments
from engine.contract import Choice, Event, IllegalActionError, Prompt
from engine.hexgrid import Hex, hex_name, hexside, parse_hex
from engine.vaevictis.data import GameData, Reinforcement, Side, other_side
from engine.vaevictis.state import GameState, Position

FLAG = "variant"
NEVER = 999
"""The arrival turn of a unit that will not come unless a group's trigger brings it."""
RULE = "19.4"
SIDES_IN_ORDER: tuple[Side, ...] = ("german", "allied")
"""[19.4.1] The German sets up first, the French second."""


def table(data: GameData) -> Mapping[str, Any]:
    return data.extra.get("variant", {})  # type: ignore[no-any-return]


def applies(data: GameData, state: GameState) -> bool:
    """Whether the game plays the variant (a variant scenario of a game with a ``[variant]`` table; a
    position built for a test names no scenario of the data, and plays none)."""
    scenario = data.scenarios.get(state.scenario)
    return bool(table(data)) and scenario is not None and scenario.variant


def _record(state: GameState) -> dict[str, Any]:
    record: dict[str, Any] = state.flags.setdefault(FLAG, {"groups": {}, "budget_turns": [], "effort": None})
    return record


def _groups(data: GameData) -> list[Mapping[str, Any]]:
    return list(table(data).get("group", []))


def _group_units(data: GameData) -> set[str]:
    units: set[str] = set()
    for group in _groups(data):
        units.update(group.get("units", []))
        units.update(group.get("trucked_units", []))
        for wave in group.get("later", []):
            units.update(wave.get("units", []))
    for row in table(data).get("vosges_table", []):
        units.update(row.get("units", []))
    return units


# --- New game -------------------------------------------------------------------------------------------------


def prepare(data: GameData, state: GameState) -> None:
    """At set-up: units that only the variant's groups bring wait for their trigger (in a historical game
    they never come); in a variant game the German historical reinforcements wait for the groups too, and
    the set-up phase follows (engine/vaevictis/setup_phase.py)."""
    if not table(data):
        return
    scheduled = {u for r in data.reinforcements for u in r.units}
    placed = {p.unit for p in data.setup}
    group_units = _group_units(data)
    if not applies(data, state):
        for unit_id in group_units - scheduled - placed:
            state.arrivals[unit_id] = NEVER
        return
    german_schedule = {u for r in data.reinforcements for u in r.units if data.side_of(u) == "german"}
    for unit_id in group_units | german_schedule:
        if unit_id not in placed:
            state.arrivals[unit_id] = NEVER
    _record(state)


def replaces_grant(data: GameData, state: GameState, army: str, turn: int) -> bool:
    """Whether a support grant of the historical schedule is replaced by the groups' markers (the German
    grants after the start, in a variant game)."""
    side = table(data).get("support_by_groups")
    return applies(data, state) and turn > 0 and side is not None and data.armies[army].side == side


# --- The set-up phase -----------------------------------------------------------------------------------------


def _setup_table(data: GameData, side: Side) -> Mapping[str, Any]:
    return table(data).get("german_setup" if side == "german" else "french_setup", {})  # type: ignore[no-any-return]


def placeable(data: GameData, side: Side) -> dict[str, str]:
    """The units ``side`` places freely, each with the region it must be placed in."""
    setup = _setup_table(data, side)
    region = str(setup.get("region", ""))
    units: dict[str, str] = {}
    formations = set(setup.get("formations", []))
    for unit_id, definition in data.units.items():
        if data.side_of(unit_id) != side or unit_id not in {p.unit for p in data.setup}:
            continue
        independent = data.formations[definition.formation].independent and definition.kind not in (
            "strongpoint",
            "garrison",
        )
        if definition.formation in formations or (setup.get("independents") and independent):
            units[unit_id] = region
    for unit_id in setup.get("units", []):
        units[str(unit_id)] = region
    for unit_id in setup.get("reserve_units", []):
        units[str(unit_id)] = str(setup.get("reserve_region", region))
    return units


def prompts(data: GameData, state: GameState) -> dict[Side, Prompt]:
    """[19.4.1] Once both sides have set up (engine/vaevictis/setup_phase.py), the French offensive effort."""
    if state.phase != "setup" or not applies(data, state):
        return {}
    return {"allied": Prompt("allied", _effort_text(data), tuple(effort_choices(data, state)), rule="19.4.1")}


def setup_problem(data: GameData, state: GameState, side: Side) -> str | None:
    """The first condition of 19.4.1 the side's placement breaks, or ``None`` (see :func:`setup_problems`)."""
    problems = setup_problems(data, state, side)
    return problems[0] if problems else None


def setup_problems(data: GameData, state: GameState, side: Side) -> list[str]:
    """Every condition of 19.4.1 the side's placement breaks, each naming the units or hexes to change (beside
    each unit's area, the stacking limit and the strongpoints' one a hex, which engine/vaevictis/setup_phase.py
    checks first)."""
    setup = _setup_table(data, side)
    pos = Position(data, state)
    regions = placeable(data, side)
    problems: list[str] = []
    if setup.get("no_mixed_division_stacks"):
        for hex_, units in sorted(pos.occupants.items()):
            divisions = {_division(data, u.id) for u in units if pos.side_of(u.id) == side}
            divisions.discard(None)
            if len(divisions) > 1:
                problems.append(f"units of two divisions stack in {hex_name(hex_)}")
    if setup.get("line_of_command_to_hq"):
        for unit_id in sorted(regions):
            if not _has_line_of_command(data, state, unit_id, pos):
                problems.append(f"{data.units[unit_id].name} cannot trace a line of command to its HQ (8.1)")
    for hex_ in uncovered_front_line(data, state, side):
        problems.append(f"the front-line hex {hex_name(hex_)} is neither held nor in your zone of control")
    grid = data.map.grid
    reach = int(setup.get("regiments_within", 0))
    for regiment in setup.get("regiments", []):
        hexes = [state.units[u].hex for u in regiment if state.units[u].hex is not None]
        if any(grid.distance(a, b) > reach for a in hexes for b in hexes if a is not None and b is not None):
            problems.append(
                f"the units of {', '.join(data.units[u].name for u in regiment)} must be within {reach} hexes"
            )
    return problems


def uncovered_front_line(data: GameData, state: GameState, side: Side) -> list[Hex]:
    """[19.4.1] "Each hex of the front line must be covered by a unit or a Zone of Control": the front-line
    hexes the side neither holds nor controls (none when its set-up has no such condition)."""
    if not _setup_table(data, side).get("front_line_covered"):
        return []
    from engine.vaevictis.zoc import enemy_zoc

    pos = Position(data, state)
    covered = set(enemy_zoc(pos, other_side(side))) | {
        h for h, us in pos.occupants.items() if pos.side_of(us[0].id) == side
    }
    return [h for h in sorted(data.map.regions.get("front line", ())) if h not in covered]


def _division(data: GameData, unit_id: str) -> str | None:
    definition = data.units[unit_id]
    if data.formations[definition.formation].independent:
        return definition.division
    return definition.division or definition.formation


def _has_line_of_command(data: GameData, state: GameState, unit_id: str, pos: Position | None = None) -> bool:
    """[8.1] A line of at most the command range, not through an enemy-held hex, from the unit to its HQ (an
    independent, or the HQ itself, needs none). ``pos``: the state's position when the caller has one (its
    occupants are read once for every unit checked)."""
    from engine.vaevictis.supply import command_range

    definition = data.units[unit_id]
    formation = data.formations[definition.formation]
    if formation.hq is None or formation.independent or unit_id == formation.hq:
        return True
    start, goal = state.units[unit_id].hex, state.units[formation.hq].hex
    if start is None or goal is None:
        return False
    side = data.side_of(unit_id)
    pos = pos or Position(data, state)
    reach = command_range(data, side)
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            return True
        if seen[here] == reach:
            continue
        for n in data.map.grid.neighbours(here):
            if n not in seen and pos.side_at(n) != other_side(side):
                seen[n] = seen[here] + 1
                queue.append(n)
    return False


# --- The offensive effort -------------------------------------------------------------------------------------


def _effort(data: GameData) -> Mapping[str, Any]:
    return table(data).get("offensive_effort", {})  # type: ignore[no-any-return]


def _heavy_in_pool(data: GameData, state: GameState) -> tuple[str, int]:
    army = next(a for a, d in data.armies.items() if d.side == "allied")
    return army, state.pools.get(army, {}).get("heavy_artillery", 0)


def _effort_text(data: GameData) -> str:
    low, high = _effort(data).get("heavy_artillery", [1, 5])
    return (
        f"Offensive effort (19.4.1): announce the heavy artillery markers ({low} to {high}, at most those of your "
        "pool) and the infantry divisions that take part; the rest of the heavy artillery goes to the Vosges."
    )


def effort_choices(data: GameData, state: GameState) -> list[Choice]:
    effort = _effort(data)
    low, high = (int(x) for x in effort.get("heavy_artillery", [1, 5]))
    fewest, most = (int(x) for x in effort.get("divisions", [1, 3]))
    _, pool = _heavy_in_pool(data, state)
    choices = []
    for heavy in range(low, min(high, pool) + 1):
        for size in range(fewest, most + 1):
            for divisions in combinations(effort.get("division_choices", []), size):
                names = ", ".join(data.formations[d].name for d in divisions)
                choices.append(
                    Choice(
                        "offensive_effort",
                        {"heavy_artillery": heavy, "divisions": ",".join(divisions)},
                        f"{heavy} heavy artillery; {names}",
                    )
                )
    return choices


def announce_effort(data: GameData, state: GameState, side: Side, heavy: int, divisions: Sequence[str]) -> list[Event]:
    """[19.4.1] The French offensive effort, announced after the set-ups; the turn-1 rules follow from it.

    :raises IllegalActionError: out of its moment, or figures the variant does not allow; nothing changes then.
    """
    if state.phase != "setup" or side != "allied":
        raise IllegalActionError("the French announce their offensive effort once both sides have set up", "19.4.1")
    offered = {
        (c.args["heavy_artillery"], frozenset(str(c.args["divisions"]).split(","))) for c in effort_choices(data, state)
    }
    if (heavy, frozenset(divisions)) not in offered or len(set(divisions)) != len(divisions):
        raise IllegalActionError("that offensive effort is not allowed (heavy artillery, divisions)", "19.4.1")
    army, pool = _heavy_in_pool(data, state)
    left = pool - heavy
    state.pools[army]["heavy_artillery"] = heavy
    _record(state)["effort"] = {"heavy_artillery": heavy, "divisions": list(divisions), "vosges": left}
    names = ", ".join(data.formations[d].name for d in divisions)
    state.phase = "air"
    return [
        Event(
            "effort",
            f"French offensive effort: {heavy} heavy artillery and {names}; {left} heavy artillery marker(s) "
            "stay on the Vosges front (19.4.1).",
            {"heavy_artillery": heavy, "divisions": list(divisions), "vosges": left, "rule": "19.4.1"},
        )
    ]


def effort_args(args: Mapping[str, Any]) -> tuple[int, list[str]]:
    return arguments.whole(args, "heavy_artillery"), arguments.names(args, "divisions", required=False)


# --- Activation limits ----------------------------------------------------------------------------------------


def activation_refusal(data: GameData, state: GameState, unit_id: str) -> IllegalActionError | None:
    """[19.4.1] Why the unit may not be activated now: a division left out of the offensive on turn 1, or the
    1re DFL's budget of turns spent."""
    if not applies(data, state):
        return None
    formation = data.units[unit_id].formation
    effort = _record(state).get("effort") or {}
    choices = _effort(data).get("division_choices", [])
    if state.turn == 1 and formation in choices and formation not in effort.get("divisions", []):
        return IllegalActionError(f"{data.formations[formation].name} is not in the offensive of turn 1", "19.4.1")
    budget = table(data).get("formation_budget", {})
    if formation == budget.get("formation"):
        turns = int(budget.get("turns", {}).get(state.scenario, NEVER))
        used = _record(state)["budget_turns"]
        if state.turn not in used and len(used) >= turns:
            name = data.formations[formation].name
            return IllegalActionError(f"{name} has been activated on its {turns} turns already", "19.4.1")
    return None


def joined(data: GameData, state: GameState, unit_id: str) -> None:
    """A unit joined an activation: count the budget's turn, cap German APs on turn 1 (19.4.1)."""
    if not applies(data, state):
        return
    budget = table(data).get("formation_budget", {})
    record = _record(state)
    if data.units[unit_id].formation == budget.get("formation") and state.turn not in record["budget_turns"]:
        record["budget_turns"].append(state.turn)
    effort = record.get("effort")
    if state.turn == 1 and effort and data.side_of(unit_id) == "german":
        caps = _effort(data).get("german_turn1_action_points", {})
        cap = caps.get(str(len(effort["divisions"])))
        if cap is not None:
            unit = state.units[unit_id]
            unit.action_points = min(unit.action_points, int(cap))


# --- The German groups ----------------------------------------------------------------------------------------


def _fire(data: GameData, state: GameState, group: Mapping[str, Any]) -> list[Event]:
    """A group's trigger is met: its units (and later waves) arrive after their delays, its markers with it."""
    record = _record(state)
    arrival = state.turn + int(group.get("delay", 0))
    record["groups"][str(group["id"])] = state.turn
    units = [*group.get("units", []), *group.get("trucked_units", [])]
    markers: dict[str, int] = dict(group.get("markers", {}))
    if group.get("by_heavy_artillery_left"):
        left = int((record.get("effort") or {}).get("vosges", 0))
        for row in table(data).get("vosges_table", []):
            if left in row.get("enters_with", []):
                units += list(row.get("units", []))
                for kind, count in row.get("markers", {}).items():
                    markers[kind] = markers.get(kind, 0) + int(count)
    for unit_id in units:
        state.arrivals[str(unit_id)] = arrival
    for wave in group.get("later", []):
        for unit_id in wave.get("units", []):
            state.arrivals[str(unit_id)] = state.turn + int(wave.get("delay", 0))
    record.setdefault("markers", []).append({"turn": arrival, "markers": markers})
    if arrival == state.turn:
        _grant(data, state, markers)
    return [
        Event(
            "reinforcements",
            f"The German {group.get('name', group['id'])} is on its way: it enters on turn {arrival} (19.4.2).",
            {"group": group["id"], "turn": arrival, "rule": "19.4.2"},
        )
    ]


def _grant(data: GameData, state: GameState, markers: Mapping[str, int]) -> None:
    army = next(a for a, d in data.armies.items() if d.side == "german")
    pool = state.pools.setdefault(army, {})
    for kind, count in markers.items():
        pool[kind] = pool.get(kind, 0) + int(count)


def start_of_turn(data: GameData, state: GameState) -> list[Event]:
    """[19.4.2] A new turn: turn triggers fire, and the markers of groups arriving now join the pool."""
    if not applies(data, state):
        return []
    record = _record(state)
    for entry in record.get("markers", []):
        if entry["turn"] == state.turn:
            _grant(data, state, entry["markers"])
    events: list[Event] = []
    for group in _groups(data):
        trigger = group.get("trigger", {})
        due = trigger.get("kind") == "turn" and state.turn >= int(trigger.get("turn", NEVER))
        if due and str(group["id"]) not in record["groups"]:
            events += _fire(data, state, group)
    return events


def after_action(data: GameData, state: GameState, events: Sequence[Event]) -> list[Event]:
    """[19.4.2] After an action: the moves and advances it made may trigger groups."""
    if not applies(data, state) or state.phase != "operations":
        return []
    record = _record(state)
    paths: list[tuple[Side, list[Hex]]] = []
    for event in events:
        if event.kind == "move" and event.data.get("path"):
            side = data.side_of(event.data["units"][0])
            paths.append((side, [parse_hex(str(h)) if not isinstance(h, int) else h for h in event.data["path"]]))
        elif event.kind == "advance" and "from" in event.data and event.data.get("units"):
            paths.append((data.side_of(event.data["units"][0]), [int(event.data["from"]), int(event.data["to"])]))
    fired: list[Event] = []
    for group in _groups(data):
        if str(group["id"]) in record["groups"]:
            continue
        trigger = group.get("trigger", {})
        if any(side == trigger.get("side") and _triggers(data, trigger, path) for side, path in paths):
            fired += _fire(data, state, group)
    return fired


def _triggers(data: GameData, trigger: Mapping[str, Any], path: list[Hex]) -> bool:
    kind = trigger.get("kind")
    if kind == "enters-column":
        return any(h // 100 == int(trigger["column"]) for h in path[1:])
    if kind == "crosses-river":
        names = set(trigger.get("rivers", []))
        sides = {s for r in data.map.rivers if r.name in names for s in r.hexsides}
        return any(hexside(a, b) in sides for a, b in pairwise(path))
    return False


def reinforcement_of(data: GameData, state: GameState, unit_id: str) -> Reinforcement | None:
    """[18, 19.4.2] How a unit arrives: its group's entry in a variant game, else its historical entry."""
    if applies(data, state):
        for group in _groups(data):
            waves = [group, *group.get("later", [])]
            if group.get("by_heavy_artillery_left"):
                rows = table(data).get("vosges_table", [])
                waves.append({"units": [u for row in rows for u in row.get("units", [])]})
            for wave in waves:
                if unit_id in (*wave.get("units", []), *wave.get("trucked_units", [])):
                    hexes = wave.get("hexes") or group.get("hexes")
                    region = wave.get("region") or group.get("region")
                    where = tuple(parse_hex(str(h)) for h in hexes) if hexes else data.map.regions.get(str(region), ())
                    return Reinforcement(
                        turn=state.arrivals.get(unit_id, NEVER),
                        units=(unit_id,),
                        hexes=tuple(where),
                        trucks=unit_id in group.get("trucked_units", []),
                        action_points=group.get("action_points") if wave is group else None,
                        controlled=bool(wave.get("controlled", group.get("controlled", False))),  # 18
                    )
    return next((r for r in data.reinforcements if unit_id in r.units), None)


# --- The loader's checks ------------------------------------------------------------------------------------

TRIGGERS = ("crosses-river", "enters-column", "turn")


def data_problems(data: GameData) -> list[tuple[str, str]]:
    """``(entry, problem)`` for each figure of the ``[variant]`` table that cannot be played: a trigger of an
    unknown kind, a river or region that is not on the map, a formation that does not exist."""
    found: list[tuple[str, str]] = []
    variant = table(data)
    if not variant:
        return found
    rivers = {r.name for r in data.map.rivers}
    for group in variant.get("group", []):
        entry = f"[[variant.group]] {group.get('id', '?')}"
        trigger = group.get("trigger", {})
        if trigger.get("kind") not in TRIGGERS:
            found.append((entry, f"trigger kind {trigger.get('kind')!r} is not one of {', '.join(TRIGGERS)}"))
        for river in trigger.get("rivers", []):
            if river not in rivers:
                found.append((entry, f"river {river!r} is not on the map"))
        for wave in [group, *group.get("later", [])]:
            region = wave.get("region")
            if region is not None and region not in data.map.regions:
                found.append((entry, f"region {region!r} is not in the map"))
    for key in ("german_setup", "french_setup"):
        setup = variant.get(key, {})
        for region in (setup.get("region"), setup.get("reserve_region"), setup.get("strongpoint_region")):
            if region is not None and region not in data.map.regions:
                found.append((f"[variant.{key}]", f"region {region!r} is not in the map"))
        for formation in setup.get("formations", []):
            if formation not in data.formations:
                found.append((f"[variant.{key}]", f"formation {formation!r} does not exist"))
    budget = variant.get("formation_budget", {})
    if budget and budget.get("formation") not in data.formations:
        found.append(("[variant.formation_budget]", f"formation {budget.get('formation')!r} does not exist"))
    return found
