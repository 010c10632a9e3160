"""Random legal play of whole Wargame Commander series, for the invariant tests (no randomness in the engine:
the test's own :class:`random.Random` picks among the legal actions)."""

from __future__ import annotations

import random
from typing import Any

from engine.contract import Action, Prompt
from engine.hexgrid import hex_name
from engine.wargame_commander import air, combat, ground, series
from engine.wargame_commander.board import Board, Squad
from engine.wargame_commander.state import SeriesState, board_of


def greedy_basing(board: Board, side: str) -> str:
    """A legal basing plan: each squad step at the first field with room that holds the squad's types,
    the ops-area fields first."""
    load: dict[str, int] = {}
    placed: dict[tuple[str, str], int] = {}
    fields = sorted(
        (f for f in board.airfields.values() if f.side == side),
        key=lambda f: (not board.areas[f.area].mainland, f.id),
    )
    for squad in (s for s in board.squads.values() if s.side == side):
        for _ in range(squad.steps):
            for f in fields:
                if load.get(f.id, 0) < board.field_sizes[f.size][0] and any(f.steps.get(t) for t in squad.types):
                    load[f.id] = load.get(f.id, 0) + 1
                    placed[(squad.id, f.id)] = placed.get((squad.id, f.id), 0) + 1
                    break
    return ",".join(f"{squad}@{field}={n}" for (squad, field), n in placed.items())


def greedy_operation_basing(state: SeriesState, board: Board) -> str:
    """A legal Allied basing for a Big Blow or Bodenplatte frame (1.4, 3.3b): the squads that must move, each
    step at the first field with room that holds a type it may fly there."""
    operation = str((state.declaration or {}).get("operation"))
    home = state.basing["allied"]

    def allowed(squad: Squad, field_id: str) -> bool:
        mainland = board.areas[board.airfields[field_id].area].mainland
        if operation == "bigblow":
            return squad.role not in ("strike", "bomber") or not mainland
        return mainland

    forced = [
        s
        for s in board.squads.values()
        if s.side == "allied"
        and (not all(allowed(s, f) for f in home.get(s.id, {})) or sum(home.get(s.id, {}).values()) != s.steps)
    ]
    load: dict[str, int] = {}
    for squad_id, fields in home.items():
        if squad_id not in {s.id for s in forced}:
            for field_id, n in fields.items():
                load[field_id] = load.get(field_id, 0) + n
    placed: dict[tuple[str, str], int] = {}
    for squad in forced:
        types = air.types_flown(board, squad, operation, home)
        for _ in range(squad.steps):
            for f in sorted(board.airfields.values(), key=lambda f: f.id):
                live = state.fields[f.id]
                if (
                    live.side == "allied"
                    and not live.closed
                    and allowed(squad, f.id)
                    and load.get(f.id, 0) < board.field_sizes[f.size][0]
                    and any(live.steps.get(t) for t in types)
                ):
                    load[f.id] = load.get(f.id, 0) + 1
                    placed[(squad.id, f.id)] = placed.get((squad.id, f.id), 0) + 1
                    break
            else:
                placed[(squad.id, air.STAND_DOWN)] = placed.get((squad.id, air.STAND_DOWN), 0) + 1
    return ",".join(f"{squad}@{field}={n}" for (squad, field), n in placed.items())


def random_report(board: Board, rng: random.Random, frame: int = 5) -> str:
    """A legal frame report: no heavy bomber shot down under the overcast of frames 1-3 (3.1, 3.5a)."""
    lines = ["kind,a,b,c,d"]
    flown = [a for a in board.aircraft.values() if frame > 3 or a.klass != "heavy"]
    for _ in range(rng.randint(0, 4)):
        plane = rng.choice(flown)
        lines.append(f"shot_down,{plane.side},{plane.type},{rng.randint(1, 3)}")
    for _ in range(rng.randint(0, 2)):
        mainland = [f for f in board.airfields.values() if board.areas[f.area].mainland]
        lines.append(f"airfield,{rng.choice(mainland).id},{rng.choice(['light', 'moderate', 'heavy'])}")
    for _ in range(rng.randint(0, 2)):
        lines.append(f"depot,{rng.choice(list(board.depots))}")
    corps = [u for u in board.units.values() if u.type != "hq"]
    for _ in range(rng.randint(0, 3)):
        lines.append(f"corps,{rng.choice(corps).id},{rng.choice(['damage', 'heavy'])}")
    for name in ("Hartmann", "Barkhorn", "Rall", "Galland", "Bar")[: rng.randint(0, 5)]:
        lines.append(f"pilot,{name},{rng.randint(0, 5)},{rng.randint(0, 3)},{rng.randint(0, 2)}")
    return "\n".join(lines)


def random_designation(state: SeriesState, board: Board, side: str, rng: random.Random) -> str:
    possible = [b for b in combat.possible_battles(state, board, side)]
    rng.shuffle(possible)
    blitzers = {u.id for u in ground.on_board(state, side) if u.blitz_active}
    possible.sort(key=lambda b: not (set(b.attackers) & blitzers))
    used: set[str] = set()
    chosen = []
    for battle in possible:
        if len(chosen) == combat.MAX_BATTLES:
            break
        attackers = [a for a in battle.attackers if a not in used]
        if not attackers:
            continue
        if not set(attackers) & blitzers:
            attackers = attackers[: rng.randint(1, len(attackers))]
        attack = sum(combat.strength(state, board, a) for a in attackers)
        if attack < combat.strength(state, board, battle.defender) and not set(attackers) & blitzers:
            continue
        used.update(attackers)
        chosen.append(f"{battle.defender}:{'+'.join(attackers)}")
    return ";".join(chosen)


def random_action(state: SeriesState, seat: str, prompt: Prompt, rng: random.Random) -> Action:
    board = board_of(state)
    verbs = set(prompt.free_verbs)
    if "basing" in verbs and state.phase == "operation_basing":
        return Action(seat, "basing", {"plan": greedy_operation_basing(state, board)})
    if "basing" in verbs:
        return Action(seat, "basing", {"plan": greedy_basing(board, seat)})
    if "designate" in verbs:
        return Action(seat, "designate", {"battles": random_designation(state, board, seat, rng)})
    if "report" in verbs:
        return Action(seat, "report", {"text": random_report(board, rng, state.frame)})
    if "dispute" in verbs and rng.random() < 0.2:
        return Action(seat, "dispute", {"reason": "the log shows otherwise"})
    if "correct" in verbs and rng.random() < 0.5:
        return Action(seat, "correct", {"text": random_report(board, rng, state.frame)})
    if "move" in verbs and rng.random() < 0.85:
        side, hqs = series.MOVEMENT_PHASES[state.phase]
        movers = [
            u
            for u in ground.on_board(state, side)
            if (board.units[u.id].type == "hq") == hqs and u.id not in state.moved and not u.engaged
        ]
        rng.shuffle(movers)
        for unit in movers:
            options = ground.reachable(state, board, unit.id)
            if options:
                return Action(seat, "move", {"unit": unit.id, "to": hex_name(rng.choice(sorted(options)))})
    if "advance" in verbs and rng.random() < 0.8:
        for allowance in state.breakthroughs:
            if allowance["side"] != seat:
                continue
            for unit_id in allowance["units"]:
                unit = state.units[unit_id]
                if unit.hex is None or unit.engaged:
                    continue
                for to in board.grid.neighbours(unit.hex):
                    try:
                        combat.check_advance(state, board, seat, unit_id, to)
                    except Exception:
                        continue
                    return Action(seat, "advance", {"unit": unit_id, "to": hex_name(to)})
    if "blitz" in verbs:
        able = [
            u.id
            for u in ground.on_board(state, "german")
            if board.unit_types[board.units[u.id].type].blitz and not u.blitz_used
        ]
        picked = [u for u in able if rng.random() < 0.5]
        return Action(seat, "blitz", {"units": ",".join(picked)})
    if "redeploy" in verbs:
        pool = state.pool.get(seat, {})
        for type_, n in pool.items():
            if n:
                for fid, f in state.fields.items():
                    size = board.field_sizes[board.airfields[fid].size][1]
                    if f.side == seat and sum(f.steps.values()) < size:
                        return Action(seat, "redeploy", {"type": type_, "count": 1, "from": "pool", "to": fid})
    choice = rng.choice(prompt.choices)
    return Action(seat, choice.verb, dict(choice.args))


def play_series(state: SeriesState, rng: random.Random, limit: int = 3000) -> tuple[SeriesState, list[Any]]:
    """Play random legal actions until the series is over; returns the final state and every event."""
    events: list[Any] = []
    for _ in range(limit):
        current = series.prompts(state)
        if not current:
            assert state.phase == "over", f"dead end in phase {state.phase}"
            return state, events
        waiting = {s: p for s, p in current.items() if not p.optional}
        seat = rng.choice(sorted(waiting or current))
        action = random_action(state, seat, current[seat], rng)
        state, new = series.apply(state, action)
        events.extend(new)
        yield_check(state)
    raise AssertionError("the series did not end")


def yield_check(state: SeriesState) -> None:
    """Invariants after every action: one unit per hex, caps never exceeded, score equals the ledger's sum."""
    board = board_of(state)
    hexes = [u.hex for u in state.units.values() if u.hex is not None]
    assert len(hexes) == len(set(hexes)), "two units in one hex (2.3g)"
    assert all(not board.is_sea(h) or True for h in hexes)
    for field_id, live in state.fields.items():
        size = board.airfields[field_id].size
        loads = sum(p.get(field_id, 0) for plans in state.basing.values() for p in plans.values())
        assert loads <= board.field_sizes[size][0], f"{field_id} over its squad-step cap (1.1)"
        assert sum(live.steps.values()) <= board.field_sizes[size][1], f"{field_id} over its aircraft steps"
        assert all(n >= 0 for n in live.steps.values())
    from engine.wargame_commander.scoring import totals

    points = totals(state, board)
    assert abs(sum(points.values()) - sum(line["points"] for line in state.ledger)) < 1e-9
    assert [line["n"] for line in state.ledger] == list(range(1, len(state.ledger) + 1))
