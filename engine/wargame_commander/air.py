"""1.0 Air units: basing plans, step losses, airfield damage, capture and the force pool."""

from __future__ import annotations

from typing import Any

from engine.contract import IllegalActionError, InvalidActionError
from engine.wargame_commander.board import Board
from engine.wargame_commander.state import SeriesState


def parse_basing(text: str) -> dict[str, dict[str, int]]:
    """``366fg@A92=2, 366fg@Y29=1`` into ``{"366fg": {"A92": 2, "Y29": 1}}``.

    :raises InvalidActionError: for a piece that cannot be read.
    """
    plan: dict[str, dict[str, int]] = {}
    for piece in text.replace(";", ",").split(","):
        piece = piece.strip()
        if not piece:
            continue
        squad, _, rest = piece.partition("@")
        field, _, steps = rest.partition("=")
        if not squad or not field or not steps.strip().isdigit():
            raise InvalidActionError(f"write each basing as squad@airfield=steps, not {piece!r}", "1.3")
        plan.setdefault(squad.strip(), {})
        plan[squad.strip()][field.strip()] = plan[squad.strip()].get(field.strip(), 0) + int(steps)
    return plan


def squad_steps_at(state: SeriesState, field_id: str) -> int:
    return sum(fields.get(field_id, 0) for plans in state.basing.values() for fields in plans.values())


def check_basing(state: SeriesState, board: Board, side: str, plan: dict[str, dict[str, int]]) -> None:
    """1.1, 1.3, 1.4: every squad step based once, at own open fields holding a type the squad flies, within
    each field's squad-step cap, and the ops-area minimums met.

    :raises IllegalActionError: naming the rule.
    """
    squads = {s.id: s for s in board.squads.values() if s.side == side}
    for squad_id in plan:
        if squad_id not in squads:
            raise IllegalActionError(f"no {side} squad {squad_id!r}", "1.3")
    load: dict[str, int] = {}
    for squad in squads.values():
        placed = plan.get(squad.id, {})
        if sum(placed.values()) != squad.steps:
            raise IllegalActionError(
                f"{squad.name} has {squad.steps} squad step(s); the plan bases {sum(placed.values())}", "1.3"
            )
        for field_id, steps in placed.items():
            spec = board.airfields.get(field_id)
            live = state.fields.get(field_id)
            if spec is None or live is None or live.side != side:
                raise IllegalActionError(f"{field_id!r} is not one of your airfields", "1.3")
            if live.closed:
                raise IllegalActionError(f"{spec.name} is closed", "1.5d")
            if not any(live.steps.get(t, 0) > 0 for t in squad.types):
                raise IllegalActionError(
                    f"{squad.name} flies {', '.join(squad.types)}; {spec.name} holds none of them", "1.3"
                )
            load[field_id] = load.get(field_id, 0) + steps
    for field_id, steps in load.items():
        cap = board.field_sizes[board.airfields[field_id].size][0]
        if steps > cap:
            raise IllegalActionError(
                f"{board.airfields[field_id].name} takes {cap} squad steps; the plan puts {steps} there", "1.1"
            )
    for minimum in board.basing_minimums:
        if minimum.side != side:
            continue
        in_areas = sum(steps for field_id, steps in load.items() if board.airfields[field_id].area in minimum.areas)
        if in_areas < minimum.squad_steps:
            raise IllegalActionError(
                f"at least {minimum.squad_steps} squad steps must be based in {' / '.join(minimum.areas)}; "
                f"the plan has {in_areas}",
                "1.4",
            )


def remove_steps(state: SeriesState, board: Board, side: str, type_: str, count: int, rear_first: bool) -> int:
    """Remove up to ``count`` steps of a type from a side's fields (rear fields first; 1.5a), never from the 8th
    AF (England); returns how many were removed."""
    order = sorted(
        (f for f in board.airfields.values() if state.fields[f.id].side == side and board.areas[f.area].mainland),
        key=lambda f: (not f.rear if rear_first else False, f.id),
    )
    removed = 0
    for spec in order:
        live = state.fields[spec.id]
        take = min(live.steps.get(type_, 0), count - removed)
        if take:
            live.steps[type_] -= take
            removed += take
        if removed == count:
            break
    return removed


def damage_losses(state: SeriesState, board: Board, field_id: str, level: str) -> dict[str, int]:
    """1.5b: the steps a damaged field loses, taken from its largest stocks first (reading W-5)."""
    lose = board.airfield_damage[board.airfields[field_id].size][level]
    live = state.fields[field_id]
    lost: dict[str, int] = {}
    for _ in range(lose):
        stocked = sorted((t for t, n in live.steps.items() if n > 0), key=lambda t: (-live.steps[t], t))
        if not stocked:
            break
        live.steps[stocked[0]] -= 1
        lost[stocked[0]] = lost.get(stocked[0], 0) + 1
    return lost


def capture_at(state: SeriesState, board: Board, side: str, hex_: int) -> list[dict[str, Any]]:
    """1.5c, 5.1: a ground unit entering an enemy airfield or depot hex captures it. Returns what changed."""
    changes: list[dict[str, Any]] = []
    for spec in board.airfields.values():
        live = state.fields[spec.id]
        if spec.hex == hex_ and live.side != side:
            owner = live.side
            pool = state.pool.setdefault(owner, {})
            for type_, n in live.steps.items():
                if n:
                    pool[type_] = pool.get(type_, 0) + n
            live.steps = {}
            live.side = side
            live.captured = spec.side != side
            for plans in state.basing.get(owner, {}).values():
                plans.pop(spec.id, None)
            changes.append({"kind": "airfield", "id": spec.id, "from": owner})
    for depot_id, depot in board.depots.items():
        live_depot = state.depots[depot_id]
        if depot.hex == hex_ and live_depot.side != side:
            changes.append({"kind": "depot", "id": depot_id, "from": live_depot.side})
            live_depot.side = side
    return changes


def check_redeploy(state: SeriesState, board: Board, side: str, type_: str, count: int, source: str, to: str) -> None:
    """1.5c: steps move only from the force pool (to any own field) or from a field to a captured one, and never
    past a field's aircraft-step size.

    :raises IllegalActionError: naming the rule.
    """
    target = state.fields.get(to)
    if target is None or target.side != side:
        raise IllegalActionError(f"{to!r} is not one of your airfields", "1.5c")
    if count < 1:
        raise IllegalActionError("move at least one step", "1.5c")
    if source == "pool":
        if state.pool.get(side, {}).get(type_, 0) < count:
            held = state.pool.get(side, {}).get(type_, 0)
            raise IllegalActionError(f"your force pool holds {held} {type_} steps", "1.5c")
    else:
        origin = state.fields.get(source)
        if origin is None or origin.side != side:
            raise IllegalActionError(f"{source!r} is not one of your airfields", "1.5c")
        if not target.captured:
            raise IllegalActionError("steps move between fields only to a captured field", "1.5c")
        if origin.steps.get(type_, 0) < count:
            raise IllegalActionError(f"{source} holds {origin.steps.get(type_, 0)} {type_} steps", "1.5c")
    capacity = board.field_sizes[board.airfields[to].size][1]
    if sum(target.steps.values()) + count > capacity:
        raise IllegalActionError(f"{board.airfields[to].name} holds at most {capacity} aircraft steps", "1.3")
