"""1.0 Air units: basing plans, step losses, airfield damage, capture and the force pool."""

from __future__ import annotations

from typing import Any

from engine.contract import IllegalActionError, InvalidActionError
from engine.wargame_commander.board import Board, Squad
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


OPERATIONS = ("bodenplatte", "bigblow")
"""3.3: the German air operations that force the Allies to rebase for their frame (3.3b, 1.4)."""
STAND_DOWN = "none"
"""In an operation's plan, the field of squad steps that no field may take: they do not fly that frame."""


def types_flown(board: Board, squad: Squad, operation: str | None, home: dict[str, dict[str, int]]) -> set[str]:
    """The aircraft types a squad may be based with (1.3: it flies the types of its home field).

    In a Big Blow frame the strike and bomber squads fly heavies (1.4, 3.3c): any heavy type their role may
    fly. In a Bodenplatte frame a squad that is based off the mainland must come to it (3.3b) and may fly any
    type its role may fly there (reading W-25). Otherwise the squad's own types.
    """
    by_role = {t for t, plane in board.aircraft.items() if plane.side == squad.side and squad.role in plane.flown_by}
    if operation == "bigblow" and squad.role in ("strike", "bomber"):
        return {t for t in by_role if board.aircraft[t].klass == "heavy"}
    if operation == "bodenplatte" and any(not _mainland(board, f) for f in home.get(squad.id, {})):
        return set(squad.types) | by_role
    return set(squad.types)


def _mainland(board: Board, field_id: str) -> bool:
    spec = board.airfields.get(field_id)
    return spec is None or board.areas[spec.area].mainland


def check_basing(
    state: SeriesState, board: Board, side: str, plan: dict[str, dict[str, int]], operation: str | None = None
) -> None:
    """1.1, 1.3, 1.4: every squad step based once, at own fields holding a type the squad flies, within each
    field's squad-step cap, and the ops-area minimums met; no squad step newly based at a closed field (1.5d).

    With an ``operation`` (3.3) the plan is the Allied basing for that frame: in The Big Blow every strike and
    bomber squad at the heavy bomber fields in England (1.4, 3.3c), in Bodenplatte every squad on the mainland
    (3.3b); the ops-area minimum yields to The Big Blow (reading W-24).

    :raises IllegalActionError: naming the rule.
    """
    squads = {s.id: s for s in board.squads.values() if s.side == side}
    home = state.basing.get(side, {})
    for squad_id in plan:
        if squad_id not in squads:
            raise IllegalActionError(f"no {side} squad {squad_id!r}", "1.3")
    load: dict[str, int] = {}
    standing_down: list[Squad] = []
    for squad in squads.values():
        placed = dict(plan.get(squad.id, {}))
        if operation is not None and placed.pop(STAND_DOWN, 0):
            standing_down.append(squad)
        if sum(plan.get(squad.id, {}).values()) != squad.steps:
            raise IllegalActionError(
                f"{squad.name} has {squad.steps} squad step(s); the plan bases {sum(placed.values())}", "1.3"
            )
        types = types_flown(board, squad, operation, home)
        for field_id, steps in placed.items():
            spec = board.airfields.get(field_id)
            live = state.fields.get(field_id)
            if spec is None or live is None or live.side != side:
                raise IllegalActionError(f"{field_id!r} is not one of your airfields", "1.3")
            # A placement the plan keeps from the current basing was checked when it was made.
            newly = steps > home.get(squad.id, {}).get(field_id, 0)
            if live.closed and newly:
                raise IllegalActionError(f"{spec.name} is closed: no squad may move there", "1.5d")
            if operation == "bigblow" and squad.role in ("strike", "bomber") and _mainland(board, field_id):
                raise IllegalActionError(
                    f"in The Big Blow every strike and bomber squad flies heavies from England; "
                    f"{squad.name} is based at {spec.name}",
                    "1.4",
                )
            if operation == "bodenplatte" and not _mainland(board, field_id):
                raise IllegalActionError(
                    f"in Bodenplatte every Allied squad is based on the mainland; {squad.name} is based at {spec.name}",
                    "3.3b",
                )
            if newly and not any(live.steps.get(t, 0) > 0 for t in types):
                raise IllegalActionError(
                    f"{squad.name} flies {', '.join(sorted(types)) or 'nothing here'}; {spec.name} holds none of them",
                    "1.4" if operation == "bigblow" and squad.role in ("strike", "bomber") else "1.3",
                )
            load[field_id] = load.get(field_id, 0) + steps
    for field_id, steps in load.items():
        cap = board.field_sizes[board.airfields[field_id].size][0]
        if steps > cap:
            raise IllegalActionError(
                f"{board.airfields[field_id].name} takes {cap} squad steps; the plan puts {steps} there", "1.1"
            )
    for squad in standing_down:
        _check_stand_down(state, board, squad, operation, home, load)
    if operation == "bigblow":
        return
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


def _check_stand_down(
    state: SeriesState,
    board: Board,
    squad: Squad,
    operation: str | None,
    home: dict[str, dict[str, int]],
    load: dict[str, int],
) -> None:
    """1.1 over 1.4 / 3.3b: a squad may sit the operation's frame out only when no field may take it."""
    types = types_flown(board, squad, operation, home)
    for spec in board.airfields.values():
        live = state.fields[spec.id]
        forced_off = not _mainland(board, spec.id) if operation == "bodenplatte" else _mainland(board, spec.id)
        if live.side != squad.side or live.closed or (forced_off and squad.role in _FORCED_ROLES[str(operation)]):
            continue
        if load.get(spec.id, 0) < board.field_sizes[spec.size][0] and any(live.steps.get(t, 0) for t in types):
            raise IllegalActionError(
                f"{squad.name} may not stand down: {spec.name} has room for it and holds a type it flies", "1.1"
            )


_FORCED_ROLES = {"bigblow": ("strike", "bomber"), "bodenplatte": ("fighter", "strike", "bomber")}
"""1.4, 3.3b: the squad roles each operation moves."""


def check_rebase(board: Board, source: str, to: str) -> None:
    """1.5d: squads move between fields, except the 8th AF's (they move only for The Big Blow or Bodenplatte).

    :raises IllegalActionError: naming the rule.
    """
    for field_id in (source, to):
        if not _mainland(board, field_id):
            raise IllegalActionError(
                f"{board.airfields[field_id].name} is an 8th AF field: its squads do not move between fields "
                "(1.5d exception); only The Big Blow (1.4) or Bodenplatte (3.3b) moves them for a frame",
                "1.5d",
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
