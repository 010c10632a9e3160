"""[2.1] The sequence of play around the operations phase: air, supply and command, support, initiative,
and the administrative phase.

Each phase runs its automatic steps (dice, statuses) and stops where a player must decide: placing a
returning HQ (1.3), allotting support markers (3 - Support Phase), the optional Christmas present (15.4).
:func:`advance` runs the turn forward until such a decision, or the operations phase, is reached.
"""

from __future__ import annotations

import math

from engine.contract import Choice, Event, IllegalActionError
from engine.hexgrid import Hex, hex_name
from engine.vaevictis import combat_command_support as cc_support
from engine.vaevictis import control, disorganization
from engine.vaevictis.activation import is_waiting_to_enter
from engine.vaevictis.data import SIDES, GameData, Side, other_side
from engine.vaevictis.geography import beyond_meuse
from engine.vaevictis.rolls import dice_of, roll
from engine.vaevictis.state import GameState, Position
from engine.vaevictis.supply import SupplyNet, update_statuses
from engine.vaevictis.variant import reinforcement_of, replaces_grant
from engine.vaevictis.zoc import enemy_zoc

PHASES = ("air", "supply", "support", "initiative", "operations", "administrative")

GAME_LONG_FLAGS = frozenset({control.PASSED, "face_down", "set_aside", "reached-regions", "exited", "variant"})
"""Facts of ``state.flags`` that outlive the turn: hex control (18, 15.2), the hidden garrisons (16), the
regions reached and units exited (19.1, 19.2), the variant's triggers (19.4). Ardennes sets none of them."""


# --- Start of a turn -------------------------------------------------------------------------------------


def start_turn(data: GameData, state: GameState) -> list[Event]:
    """Reset the per-turn facts (keeping the game-long ones) and enter the air phase."""
    state.flags = {"phase_done": [], **{k: v for k, v in state.flags.items() if k in GAME_LONG_FLAGS}}
    for unit in state.units.values():
        unit.activations = 0
        unit.action_points = 0
        unit.movement_points = 0.0
        unit.retreated_into_stack = False
        unit.cannot_move = False
        unit.must_attack = False
    for army, returning in state.returning.items():
        pool = state.pools.setdefault(army, {})
        for kind, count in returning.items():
            pool[kind] = pool.get(kind, 0) + count
    state.returning = {army: {} for army in state.returning}
    for grant in data.support:
        if grant.turn == state.turn and not replaces_grant(data, state, grant.army, grant.turn):
            pool = state.pools.setdefault(grant.army, {})
            for kind, count in grant.markers.items():
                pool[kind] = pool.get(kind, 0) + count
    state.phase = "air"
    state.activation = None
    state.consecutive_passes = 0
    state.sequences_this_turn = 0
    track = data.turns[state.turn - 1]
    when = ", ".join(part for part in (track.date, track.weather) if part)  # a game may have no weather
    return [Event("turn", f"Turn {state.turn} ({when}) begins.", {"turn": state.turn})]


def rules(data: GameData, state: GameState) -> tuple[str, ...]:
    return data.scenarios[state.scenario].special_rules


# --- The phases ------------------------------------------------------------------------------------------


def air_phase(data: GameData, state: GameState) -> list[Event]:
    """[14.2] Air missions by nationality and weather; none outside the turns of the air table."""
    if "air" not in data.extra:
        return []  # [2.1] a game without an air phase (Alsace 1944): no missions, not even zero
    air = data.extra.get("air", {})
    events: list[Event] = []
    state.air_missions = {side: 0 for side in SIDES}
    if state.turn not in air.get("turns", []):
        return events
    allied_die, event = roll(state, "Allied air missions", data.rule("14.2"))
    events.append(event)
    state.air_missions["allied"] = math.ceil(allied_die / 2) + 1
    german_die, event = roll(state, "German air mission", data.rule("14.2"))
    events.append(event)
    state.air_missions["german"] = 1 if german_die >= 4 else 0
    events.append(
        Event(
            "air",
            f"Air supports this turn: {data.side_name('allied')} {state.air_missions['allied']}, "
            f"{data.side_name('german')} {state.air_missions['german']}.",
            dict(state.air_missions),
        )
    )
    return events


def supply_phase(data: GameData, state: GameState, air_supplied: set[str] | None = None) -> list[Event]:
    """[8.1, 10.3, 10.4] Command and supply statuses of every unit, then the German fuel shortage."""
    events: list[Event] = []
    pos = Position(data, state)
    for side in SIDES:
        all_in_command = side == "allied" and state.turn == 1 and "us-all-in-command-turn-1" in rules(data, state)
        for unit_id, change in update_statuses(pos, side, all_in_command=all_in_command):
            if air_supplied and unit_id in air_supplied and change in ("isolated", "unsupplied"):
                unit = state.units[unit_id]
                unit.isolated = unit.unsupplied = False
                continue
            events.append(
                Event(
                    "status",
                    f"{data.units[unit_id].name} is {change.replace('-', ' ')}.",
                    {"unit": unit_id, "status": change},
                )
            )
    events += fuel_shortage(data, state)
    return events


def fuel_shortage(data: GameData, state: GameState) -> list[Event]:
    """[10.4] From turn 3 the German rolls 1d6 (overcast) or 2d6 (clear), doubles re-rolled; each die names a
    column of the table, whose counters become Isolated, or Unsupplied if already Isolated. Counters not on
    the map, or arriving this turn, are exempt.
    """
    table = data.extra.get("fuel_shortage")
    if not table or state.turn < int(table.get("from_turn", 3)):
        return []
    clear = data.turns[state.turn - 1].weather == "clear"
    events: list[Event] = []
    table_dice = dice_of(state)
    while True:
        faces = [table_dice.d6() for _ in range(2 if clear else 1)]
        events.append(
            Event(
                "roll",
                f"German fuel shortage ({'2d6' if clear else '1d6'}): rolled {', '.join(map(str, faces))}.",
                {"dice": faces, "rule": "10.4"},
            )
        )
        if len(faces) == 1 or faces[0] != faces[1]:
            break
    state.rolls_made = table_dice.rolls_made
    arriving = {u for r in data.reinforcements if r.turn == state.turn for u in r.units}
    for face in faces:
        for unit_id in table["columns"].get(str(face), []):
            unit = state.units[unit_id]
            if not unit.on_map or unit_id in arriving:
                continue
            if unit.isolated or unit.unsupplied:
                unit.isolated, unit.unsupplied = False, True
                change = "unsupplied"
            else:
                unit.isolated = True
                change = "isolated"
            events.append(
                Event(
                    "status",
                    f"Fuel shortage: {data.units[unit_id].name} is {change}.",
                    {"unit": unit_id, "status": change, "rule": "10.4"},
                )
            )
    return events


def south_entry_hexes(data: GameData) -> set[Hex]:
    """[16.1] The Allied entry hexes on the south map edge (the last hex of their column)."""
    grid = data.map.grid
    return {h for h in data.map.entry_hexes["allied"] if h % 100 == grid.last_row(h // 100)}


def southern_front(data: GameData, state: GameState) -> list[Event]:
    """[16.1] A German unit on a US south-edge entry hex delays by one turn the reinforcements due this turn at
    the south-edge entry hexes (the ones the Southern Front rule is about); a unit already delayed once is not
    delayed again: it enters this turn, at the next free entry hex toward the west if need be."""
    south = south_entry_hexes(data)
    pos = Position(data, state)
    held = sorted(h for h in south if pos.side_at(h) == "german")
    if not held:
        return []
    delayed = []
    for reinforcement in data.reinforcements:
        if not set(reinforcement.hexes) <= south:
            continue
        for unit_id in reinforcement.units:
            already = unit_id in state.arrivals
            if data.side_of(unit_id) != "allied" or already or state.units[unit_id].arrived:
                continue
            if reinforcement.turn == state.turn:
                state.arrivals[unit_id] = state.turn + 1
                delayed.append(data.units[unit_id].name)
    if not delayed:
        return []
    return [
        Event(
            "reinforcements",
            f"German units hold {', '.join(hex_name(h) for h in held)}: "
            f"{', '.join(delayed)} arrive a turn late ({data.rule('16.1')}).",
            {"held": held, "rule": data.rule("16.1")},
        )
    ]


def entry_hexes_for(data: GameData, state: GameState, unit_id: str) -> list[Hex]:
    """[16.1] Where a reinforcement may enter now: its listed hexes while they are free.

    Southern Front: while German units hold south-edge entry hexes, a south-edge reinforcement whose hex is
    held, or lies east of a held one, enters at the next free south-edge entry hex west of the westernmost held
    hex at or west of its own (the example: Germans in 2921, the 5th ID of 3022 enters in 2521).
    """
    reinforcement = reinforcement_of(data, state, unit_id)
    assert reinforcement is not None
    pos = Position(data, state)
    side = data.side_of(unit_id)
    free = [h for h in reinforcement.hexes if pos.side_at(h) in (None, side)]
    if reinforcement.controlled:  # 18: only hexes no enemy unit has passed through
        free = [h for h in free if control.controls(state, side, other_side(side), h)]
    south = south_entry_hexes(data)
    if side != "allied" or not set(reinforcement.hexes) <= south:
        return free
    held_columns = [h // 100 for h in south if pos.side_at(h) not in (None, side)]
    westward_first = sorted(south, key=lambda h: -(h // 100))
    allowed: list[Hex] = []
    for wanted in reinforcement.hexes:
        cut = [c for c in held_columns if c <= wanted // 100]
        if not cut:
            if wanted in free:
                allowed.append(wanted)
            continue
        beyond = [h for h in westward_first if h // 100 < min(cut) and pos.side_at(h) in (None, side)]
        if beyond:
            allowed.append(beyond[0])
    return list(dict.fromkeys(allowed))


def hq_placement_hexes(data: GameData, state: GameState, hq_id: str, only: Hex | None = None) -> list[Hex]:
    """[1.3] Where a destroyed HQ may come back: any hex not in enemy ZoC, not enemy-held, where it is supplied.

    ``only``: check that one hex (the list is empty or holds it). The HQ is off the map while it waits, and
    its own hex changes no other line, so one supply net answers for every hex.
    """
    side = data.side_of(hq_id)
    pos = Position(data, state)
    net = SupplyNet(pos, side)
    controlled = enemy_zoc(pos, side)
    hexes = [h for h in data.map.grid.hexes if only is None or h == only]
    return [h for h in hexes if h not in controlled and pos.side_at(h) in (None, side) and net.hq_supplied_at(hq_id, h)]


def returning_hqs(data: GameData, state: GameState) -> list[str]:
    """[1.3] HQs destroyed in an earlier turn: they come back in this turn's supply and command phase."""
    return sorted(hq for hq, turn in state.hq_destroyed.items() if turn < state.turn and state.units[hq].eliminated)


def place_hq(data: GameData, state: GameState, side: Side, hq_id: str, hex_: Hex) -> list[Event]:
    """[1.3] Put a returning HQ back on the map, out of enemy ZoC and where it is supplied."""
    if hq_id not in returning_hqs(data, state) or data.side_of(hq_id) != side:
        raise IllegalActionError(f"{hq_id!r} is not one of your HQs waiting to return", "1.3")
    if not hq_placement_hexes(data, state, hq_id, only=hex_):
        raise IllegalActionError(
            f"{data.units[hq_id].name} must come back on a hex out of enemy zones of control where it is supplied",
            "1.3",
        )
    hq = state.units[hq_id]
    hq.hex, hq.eliminated, hq.steps, hq.arrived = hex_, False, 1, True
    hq.isolated = hq.unsupplied = hq.fatigued = hq.out_of_command = False
    del state.hq_destroyed[hq_id]
    return [Event("hq-returns", f"{data.units[hq_id].name} returns at {hex_name(hex_)}.", {"hq": hq_id, "hex": hex_})]


def support_limit(data: GameData, state: GameState, hq_id: str) -> int:
    """[1.6] How many more markers an HQ may receive: its support rating less those it holds."""
    return data.units[hq_id].support - len(state.units[hq_id].supports)


def support_choices(data: GameData, state: GameState, side: Side) -> list[Choice]:
    """[1.6, 10.3] The markers a side may still allot: to each supplied HQ of the army on the map or arriving as
    a reinforcement this turn, up to its rating."""
    choices = []
    for formation in data.formations.values():
        if formation.hq is None or data.armies[formation.army].side != side:
            continue
        hq = state.units[formation.hq]
        present = hq.on_map or is_waiting_to_enter(data, state, formation.hq)
        if not present or hq.unsupplied or support_limit(data, state, formation.hq) <= 0:
            continue
        for kind, count in sorted(state.pools.get(formation.army, {}).items()):
            if count > 0:
                choices.append(
                    Choice(
                        "allot",
                        {"hq": formation.hq, "marker": kind},
                        f"{kind.replace('_', ' ')} to {data.units[formation.hq].name}",
                    )
                )
    return choices


def allot(data: GameData, state: GameState, side: Side, hq_id: str, kind: str) -> list[Event]:
    """[1.6] Move one marker from the army's pool to one of its HQs."""
    if hq_id not in data.units or not data.units[hq_id].is_hq or data.side_of(hq_id) != side:
        raise IllegalActionError(f"{hq_id!r} is not one of your HQs", "1.6")
    hq = state.units[hq_id]
    army = data.army_of(hq_id).id
    name = data.units[hq_id].name
    if not hq.on_map and not is_waiting_to_enter(data, state, hq_id):
        raise IllegalActionError(f"{name} is neither on the map nor arriving as a reinforcement this turn", "1.6")
    if hq.unsupplied:
        raise IllegalActionError(f"{name} is unsupplied and cannot receive support markers", "10.3")
    if support_limit(data, state, hq_id) <= 0:
        raise IllegalActionError(f"{name} already holds {data.units[hq_id].support} markers, its support rating", "1.6")
    if state.pools.get(army, {}).get(kind, 0) <= 0:
        raise IllegalActionError(
            f"the {data.armies[army].name} pool has no {kind.replace('_', ' ')} marker left", "1.6"
        )
    state.pools[army][kind] -= 1
    hq.supports.append(kind)
    return [
        Event("support", f"{kind.replace('_', ' ').capitalize()} allotted to {name}.", {"hq": hq_id, "marker": kind})
    ]


def initiative_phase(data: GameData, state: GameState) -> list[Event]:
    """[2.1 step 4] 1d6 each, high roll wins, ties re-rolled; 17.1 gives the German turns 1 and 2."""
    events: list[Event] = []
    if state.turn <= 2 and "german-initiative-turns-1-2" in rules(data, state):
        state.initiative = "german"
        text = f"The German player has the initiative ({data.rule('17.1')})."
        events.append(Event("initiative", text, {"side": "german"}))
    else:
        table = dice_of(state)
        while True:
            german, allied = table.d6(), table.d6()
            events.append(
                Event(
                    "roll",
                    f"Initiative: {data.side_name('german')} {german}, {data.side_name('allied')} {allied}.",
                    {"german": german, "allied": allied, "rule": "2.1"},
                )
            )
            if german != allied:
                break
        state.rolls_made = table.rolls_made
        state.initiative = "german" if german > allied else "allied"
        events.append(
            Event("initiative", f"The {state.initiative} player has the initiative.", {"side": state.initiative})
        )
    state.active = state.initiative
    if state.turn == 1 and "us-adjacent-no-move-turn-1" in rules(data, state):
        pos = Position(data, state)
        for unit in state.on_map():
            if (
                pos.side_of(unit.id) == "allied"
                and unit.hex is not None
                and any(pos.side_at(n) == "german" for n in data.map.grid.neighbours(unit.hex))
            ):
                unit.cannot_move = True
    state.phase = "operations"
    return events


def administrative_phase(data: GameData, state: GameState) -> list[Event]:
    """[2.1 step 6] Activated markers come off, breakthroughs go (7.8), unused supports return to the pool."""
    state.phase = "administrative"
    state.markers = [m for m in state.markers if m.kind != "breakthrough"]
    disorganization.clear(state)  # [2.1 step 5, 3.6]
    cc_support.return_unused(data, state)  # [1.6] a Combat Command's unused marker
    for unit_id, unit in state.units.items():
        unit.activations = 0
        if unit.supports and data.units[unit_id].is_hq:
            army = data.army_of(unit_id).id
            pool = state.pools.setdefault(army, {})
            for kind in unit.supports:
                pool[kind] = pool.get(kind, 0) + 1
            unit.supports = []
    return [Event("phase", f"Turn {state.turn}: administrative phase.", {"turn": state.turn})]


def german_crossed_objective_river(data: GameData, state: GameState) -> bool:
    """Whether any German combat unit (not an HQ, as for victory, 17.1) stands beyond the Meuse: it lifts the
    British restriction of 16.2."""
    area = beyond_meuse(data)
    if not area:  # a game without the Meuse (Alsace 1944)
        return False
    return any(
        u.hex in area and not u.eliminated and data.side_of(u.id) == "german" and not data.units[u.id].is_hq
        for u in state.units.values()
    )
