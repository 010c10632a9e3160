"""How the opponent answers one prompt, on the position its seat knows.

- During an activation (3.4) it scores every candidate action (:mod:`candidates`): a move, an entry or a
  dig-in by the evaluation of the position after it, less the evaluation before; an attack by its expected
  worth over the combat table's exact chances (:mod:`attacks`), plus what the ground taken changes. The
  evaluation's threat term is the look at the enemy's best reply: a move that leaves a stack exposed to strong
  odds next activation loses what that stack may expect to lose. The most promising candidates (by a cheap
  first score) are evaluated in full, as many as the level's budget of engine steps allows. It ends the
  activation when nothing gains enough.
- At the start of an activation sequence (2.1) it weighs each formation it may activate by what its units
  could do now (attacks at good odds, ground to gain, stacks to save), and passes when none is worth it.
- For any other prompt (combat decisions as attacker or defender, support, the initiative stratagems, set-up,
  stacking, events) it applies each listed choice to the known position and keeps the best evaluation.

Each score gets the level's noise, drawn from the opponent's own seed; ties go to a fixed order of actions.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.contract import Action, ComputerDecision, InvalidActionError, Prompt
from engine.hexgrid import parse_hex
from engine.vaevictis.data import Side, other_side
from engine.vaevictis.opponent.analysis import FAR, Objectives, objectives, supply_cut, supply_roads
from engine.vaevictis.opponent.attacks import Referee, estimate
from engine.vaevictis.opponent.candidates import (
    PASSIVE_VERBS,
    activation_actions,
    candidate_actions,
    listed,
    side_of,
    try_action,
)
from engine.vaevictis.opponent.evaluation import Evaluation, evaluate, expected_loss, stack_defence
from engine.vaevictis.opponent.levels import Budget, Level, action_key
from engine.vaevictis.opponent.noise import uniform
from engine.vaevictis.state import GameState, Position

MIN_GAIN = 0.15
"""What an action must gain over ending the activation to be worth its action points."""
ACTIVATION_WORTH = 0.6
"""What a formation's activation must promise to be preferred to passing."""


@dataclass(frozen=True)
class Scored:
    """A candidate action with its score and the words that explain it."""

    action: Action
    score: float
    why: str


def decide(
    game: Referee, state: GameState, prompt: Prompt, level: Level, seed: bytes, budget: Budget
) -> ComputerDecision:
    """The decision for ``prompt`` (see the module docstring)."""
    side = side_of(prompt)
    goals = objectives(game.data, state.scenario)
    verbs = {c.verb for c in prompt.choices}
    if "move" in prompt.free_verbs:
        best = _activation(game, state, prompt, side, goals, level, seed, budget)
    elif "setup_done" in verbs:
        best = Scored(Action(side, "setup_done", {}), 0.0, "keeps the scenario's suggested set-up")
    elif "activate_formation" in verbs or "pass" in verbs:
        best = _sequence(game, state, prompt, side, goals, level, seed, budget)
    else:
        best = _listed(game, state, prompt, side, goals, level, seed, budget)
    if best is None:
        best = _any_legal(game, state, prompt, seed, budget)
    return ComputerDecision(best.action, best.why, budget.used)


def _noisy(level: Level, seed: bytes, action: Action, score: float) -> float:
    return score + level.noise * uniform(seed, repr(action_key(action)))


def _pick(scored: list[Scored], level: Level, seed: bytes) -> Scored | None:
    if not scored:
        return None
    return max(sorted(scored, key=lambda s: action_key(s.action)), key=lambda s: _noisy(level, seed, s.action, s.score))


# --- Any prompt whose choices are listed ------------------------------------------------------------------


def _listed(
    game: Referee,
    state: GameState,
    prompt: Prompt,
    side: Side,
    goals: Objectives,
    level: Level,
    seed: bytes,
    budget: Budget,
) -> Scored | None:
    scored: list[Scored] = []
    for action in sorted(listed(prompt), key=action_key):
        if budget.exhausted() and scored:
            break
        budget.spend()
        tried = try_action(game, state, action)
        if tried is None:
            continue
        score = evaluate(game.data, tried.after, side, goals).total + _choice_bonus(action)
        scored.append(Scored(action, score, _choice_words(game, action)))
    return _pick(scored, level, seed)


def _choice_bonus(action: Action) -> float:
    """What the evaluation cannot see in a listed choice: supports added to a combat about to be rolled (7.5),
    an initiative stratagem played (2.1 step 3), a reactivation stopped (15.3)."""
    if action.verb in ("support_defence", "air_defence"):
        return 1.0
    if action.verb in ("initiative_stratagem", "react") and action.args.get("play"):
        return 0.5
    return 0.0


def _choice_words(game: Referee, action: Action) -> str:
    verb = action.verb.replace("_", " ")
    unit = action.args.get("unit") or action.args.get("hq")
    if isinstance(unit, str) and unit in game.data.units:
        return f"{verb}: {game.data.units[unit].name}"
    where = action.args.get("to") or action.args.get("hex")
    return f"{verb} {where}" if where else verb


# --- The activation sequence: which formation ----------------------------------------------------------


def _sequence(
    game: Referee,
    state: GameState,
    prompt: Prompt,
    side: Side,
    goals: Objectives,
    level: Level,
    seed: bytes,
    budget: Budget,
) -> Scored | None:
    """[2.1, 3.2, 3.3] Activate the formation whose units promise most now, or pass."""
    scored: list[Scored] = []
    for action in sorted(listed(prompt), key=action_key):
        if action.verb == "pass":
            scored.append(Scored(action, ACTIVATION_WORTH, "passes: no formation has anything worth doing"))
            continue
        budget.spend()
        tried = try_action(game, state, action)
        if tried is None or tried.after.activation is None:
            continue
        worth, why = _promise(game, tried.after, side, goals)
        if action.verb == "activate_general":
            worth *= 0.8  # [9.4] units out of command may fail their check
        scored.append(Scored(action, worth, why))
    return _pick(scored, level, seed)


def _promise(game: Referee, state: GameState, side: Side, goals: Objectives) -> tuple[float, str]:
    """What the units of the activation just started could do: attacks at good odds, ground toward the goals,
    stacks to pull out of danger; less the fatigue of reactivated units (3.5)."""
    data = game.data
    pos = Position(data, state)
    grid = data.map.grid
    activation = state.activation
    assert activation is not None
    members = [
        u
        for u in state.units.values()
        if u.on_map and u.hex is not None and data.side_of(u.id) == side and _in_activation(game, state, u.id)
    ]
    per_unit: list[tuple[float, float, float]] = []
    for unit in members:
        assert unit.hex is not None
        if data.units[unit.id].is_hq:
            continue
        attack = ground = rescue = 0.0
        enemies = [n for n in grid.neighbours(unit.hex) if (s := pos.side_at(n)) is not None and s != side]
        for n in enemies:
            defence = stack_defence(data, pos, pos.units_at(n))
            attack = max(attack, expected_loss(float(pos.strength(unit)), defence))
        distance = goals.distance[side].get(unit.hex, FAR)
        if not enemies:
            ground += min(distance, 6) * 0.12
        threat = sum(
            pos.strength(u) for n in grid.neighbours(unit.hex) for u in pos.units_at(n) if data.side_of(u.id) != side
        )
        if threat and expected_loss(threat, stack_defence(data, pos, pos.units_at(unit.hex))) > 0.8:
            rescue += 0.4
        if unit.fatigued or unit.activations > 1:
            ground -= 0.3
        per_unit.append((attack, ground, rescue))
    if activation.kind == "general":
        per_unit = sorted(per_unit, key=lambda t: -sum(t))[: max(1, activation.limit)]
    attack, ground, rescue = (sum(t[i] for t in per_unit) for i in range(3))
    worth = attack + ground + rescue
    name = _formation_words(game, state)
    reasons = []
    if attack:
        reasons.append("attacks to make")
    if ground > 0.5:
        reasons.append("ground to gain")
    if rescue:
        reasons.append("units to pull back")
    return worth, f"activates {name}: " + (", ".join(reasons) or "positions to improve")


def _in_activation(game: Referee, state: GameState, unit_id: str) -> bool:
    activation = state.activation
    if activation is None:
        return False
    if activation.kind == "formation" and activation.formation is not None:
        return game.data.units[unit_id].formation == activation.formation
    return True


def _formation_words(game: Referee, state: GameState) -> str:
    activation = state.activation
    if activation is None or activation.formation is None:
        return "a general activation"
    return game.data.formations[activation.formation].name


# --- An activation in progress: which action ---------------------------------------------------------------


def _activation(
    game: Referee,
    state: GameState,
    prompt: Prompt,
    side: Side,
    goals: Objectives,
    level: Level,
    seed: bytes,
    budget: Budget,
) -> Scored | None:
    """[3.4] The best action of the activated units, or the end of the activation."""
    data = game.data
    before = evaluate(data, state, side, goals)
    generated = activation_actions(game, state, side)
    budget.spend(2 + len({a.args.get("units") or a.args.get("unit") for a in generated}))  # reachable hexes
    actions = listed(prompt) + generated
    actions = sorted({action_key(a): a for a in actions}.values(), key=action_key)
    scored: list[Scored] = []
    ending = next((a for a in actions if a.verb == "end_activation"), None)
    if ending is not None:
        scored.append(Scored(ending, MIN_GAIN, "ends the activation: nothing more worth its action points"))
    attacks = [a for a in actions if a.verb == "attack"]
    for action in attacks:
        if budget.exhausted() and scored:
            break
        budget.spend(2)
        found = estimate(game, state, side, action, goals)
        if found is None or try_action(game, state, action) is None:
            continue
        chance = f"{found.favourable:.0%}"
        why = f"{found.column} on {found.target} ({chance} of trading at least even)"
        scored.append(Scored(action, found.value, why))
    others = [a for a in actions if a.verb not in ("attack", "end_activation")]
    first = _spread(game, state, side, goals, others)
    plain = evaluate(data, state, side, goals, supply=False)
    sorted_moves: list[tuple[float, Action, GameState]] = []
    reserve = 2 * level.finalists + 3 * max(2, level.finalists // 2)  # the finalists' and line cutters' share
    for action in first:
        if budget.exhausted() or budget.left <= reserve:
            break
        budget.spend()
        tried = try_action(game, state, action)
        if tried is None:
            continue
        after = evaluate(data, tried.after, side, goals, supply=False)
        sorted_moves.append((after.total - plain.total, action, tried.after))
    sorted_moves.sort(key=lambda m: (-m[0], action_key(m[1])))
    finalists = {id(m[1]) for m in sorted_moves[: level.finalists]}
    finalists |= _line_cutters(game, state, side, sorted_moves, max(2, level.finalists // 2), budget)
    for gain, action, after_state in sorted_moves:
        if id(action) in finalists:
            budget.spend(2)
            after = evaluate(data, after_state, side, goals)
            scored.append(Scored(action, after.total - before.total, _move_words(game, state, action, before, after)))
        else:
            scored.append(Scored(action, gain, _move_words(game, state, action, plain, plain)))
    duty = [s for s in scored if s.action.verb != "end_activation"]
    if ending is None and duty:
        scored = duty  # [4.2] a unit owing an attack: the activation may not end yet
    return _pick(scored, level, seed)


def _line_cutters(
    game: Referee,
    state: GameState,
    side: Side,
    moves: list[tuple[float, Action, GameState]],
    wanted: int,
    budget: Budget,
) -> set[int]:
    """The moves (by ``id``) that cut an enemy line of supply (10): among the moves whose zone of control
    falls on the enemy's supply roads within 2 hexes of its units (:func:`supply_roads`), the most covering
    are checked against the enemy's lines, one net each, and those that cut one are kept for a full
    evaluation."""
    data = game.data
    enemy = other_side(side)
    pos = Position(data, state)
    roads = supply_roads(pos, enemy, near=2)
    if not roads:
        return set()
    cut_before = supply_cut(pos, enemy)
    grid = data.map.grid
    ranked = []
    for _, action, after in moves:
        target = action.args.get("to") or action.args.get("at")
        if action.verb not in ("move", "enter") or not isinstance(target, str):
            continue
        hex_ = parse_hex(target)
        covered = len(({hex_, *grid.neighbours(hex_)}) & roads)
        if covered:
            ranked.append((covered, action, after))
    ranked.sort(key=lambda p: (-p[0], action_key(p[1])))
    found: set[int] = set()
    for _, action, after in ranked[: wanted * 3]:
        if budget.exhausted() or len(found) >= wanted:
            break
        budget.spend()
        if supply_cut(Position(data, after), enemy) - cut_before:
            found.add(id(action))
    return found


def _spread(game: Referee, state: GameState, side: Side, goals: Objectives, actions: list[Action]) -> list[Action]:
    """The actions in the order to evaluate them: unit by unit in turns (the most promising unit first), each
    unit's own actions alternating between its most promising (by :func:`_first_score`) and a spread of the
    others over its reachable hexes, so that a small budget still looks at every unit and every direction."""
    by_unit: dict[str, list[tuple[float, Action]]] = {}
    for action in actions:
        unit = str(action.args.get("units") or action.args.get("unit") or "")
        by_unit.setdefault(unit, []).append((_first_score(game, state, side, goals, action), action))
    queues: list[list[Action]] = []
    for unit in sorted(by_unit, key=lambda u: (-max(s for s, _ in by_unit[u]), u)):
        ranked = [a for _, a in sorted(by_unit[unit], key=lambda p: (-p[0], action_key(p[1])))]
        step = max(1, len(ranked) // 6)
        spread = ranked[step::step]
        order: list[Action] = []
        seen: set[int] = set()
        for action in [*ranked[:3], *spread[:6], *ranked[3:]]:
            if id(action) not in seen:
                seen.add(id(action))
                order.append(action)
        queues.append(order)
    result: list[Action] = []
    depth = 0
    while any(depth < len(q) for q in queues):
        result += [q[depth] for q in queues if depth < len(q)]
        depth += 1
    return result


def _first_score(game: Referee, state: GameState, side: Side, goals: Objectives, action: Action) -> float:
    """A cheap first guess at a move's worth, to choose which moves to evaluate in full: ground toward the
    side's goals, a place of the victory conditions, contact with the enemy."""
    data = game.data
    target = action.args.get("to") or action.args.get("at")
    if not isinstance(target, str):
        return 1.0 if action.verb in ("enter_ip", "recover") else 0.0
    hex_ = parse_hex(target)
    unit_id = str(action.args.get("units") or action.args.get("unit") or "").split(",")[0]
    unit = state.units.get(unit_id)
    start = unit.hex if unit is not None and unit.hex is not None else None
    distance = goals.distance[side]
    gain = (distance.get(start, FAR) if start is not None else FAR) - distance.get(hex_, FAR)
    score = gain * 0.3
    if goals.place_at(hex_) is not None:
        score += 3.0
    pos = Position(data, state)
    if any((s := pos.side_at(n)) is not None and s != side for n in data.map.grid.neighbours(hex_)):
        score += 0.5
    if action.verb == "enter":
        score += 2.0
    return score


def _move_words(game: Referee, state: GameState, action: Action, before: Evaluation, after: Evaluation) -> str:
    data = game.data
    unit_id = str(action.args.get("units") or action.args.get("unit") or "").split(",")[0]
    name = data.units[unit_id].name if unit_id in data.units else "?"
    where = action.args.get("to") or action.args.get("at")
    verb = {"move": "moves", "enter": "brings in", "enter_ip": "digs in", "recover": "rests"}.get(
        action.verb, action.verb.replace("_", " ")
    )
    words = f"{verb} {name}" + (f" to {where}" if where else "")
    reasons = []
    newly_cut = after.cut - before.cut
    if newly_cut:
        reasons.append(f"cuts the supply of {len(newly_cut)} unit{'s' if len(newly_cut) > 1 else ''}")
    if after.terms.get("objectives", 0) > before.terms.get("objectives", 0):
        reasons.append("takes an objective")
    if after.terms.get("threat", 0) > before.terms.get("threat", 0) + 0.3:
        reasons.append("out of danger")
    if after.terms.get("reach", 0) > before.terms.get("reach", 0) + 0.2:
        reasons.append("nearer its goal")
    return words + ("; " + ", ".join(reasons) if reasons else "")


# --- A last resort ---------------------------------------------------------------------------------------


def _any_legal(game: Referee, state: GameState, prompt: Prompt, seed: bytes, budget: Budget) -> Scored:
    """The first legal candidate in a seeded order that puts acting first (when nothing was scored)."""
    actions = sorted(candidate_actions(game, state, prompt), key=action_key)
    ordered = sorted(actions, key=lambda a: (a.verb in PASSIVE_VERBS, uniform(seed, repr(action_key(a)))))
    for action in ordered:
        budget.spend()
        if try_action(game, state, action) is not None:
            return Scored(action, 0.0, "")
    raise InvalidActionError(f"no legal answer found to: {prompt.text}")
