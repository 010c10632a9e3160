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
from engine.hexgrid import Hex, parse_hex
from engine.vaevictis.data import Side, other_side
from engine.vaevictis.opponent.analysis import FAR, Objectives, objectives, open_ground, supply_cut, supply_roads
from engine.vaevictis.opponent.attacks import Referee, estimate
from engine.vaevictis.opponent.candidates import (
    PASSIVE_VERBS,
    activation_actions,
    candidate_actions,
    listed,
    side_of,
    try_action,
)
from engine.vaevictis.opponent.evaluation import (
    Evaluation,
    attacker_target,
    evaluate,
    expected_loss,
    stack_defence,
)
from engine.vaevictis.opponent.levels import Budget, Level, action_key
from engine.vaevictis.opponent.noise import uniform
from engine.vaevictis.state import GameState, Position

MIN_GAIN = 0.15
"""What an action must gain over ending the activation to be worth its action points."""
ROUGH_ODDS_FLOOR = 0.5
"""Below these rough odds (1:2) an attack is not worth estimating unless a unit owes one (4.2)."""
CHECKED_ACTIVATIONS = 3
"""How many of the most promising activations are tried before one is chosen."""
TRIED_BEFORE_PASSING = 8
"""How many activations, in order of promise, are tried before passing when none of the first was worth it:
a pass may end the turn (2.2), and the rough promise can miss the one formation with something to do."""


@dataclass(frozen=True)
class Scored:
    """A candidate action with its score and the words that explain it."""

    action: Action
    score: float
    why: str
    after: GameState | None = None
    """The known position after the action, when it was applied."""


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
        if tried is None and action.verb in prompt.free_verbs:
            continue  # a free verb's action (an advance, a retreat) is returned only once the engine accepts it
        # A listed choice is legal (the prompt says so) even when its conditions lie in what the seat may not
        # see (an enemy stack's APs, 15.2 Greif): it is then weighed as if it changed nothing.
        after = tried.after if tried is not None else state
        score = evaluate(game.data, after, side, goals).total + _choice_bonus(action)
        scored.append(Scored(action, score, _choice_words(game, action)))
    return _pick(scored, level, seed)


def _choice_bonus(action: Action) -> float:
    """What the evaluation cannot see in a listed choice: supports added to a combat about to be rolled (7.5),
    an initiative stratagem played (2.1 step 3), a reactivation stopped (15.3); a change of the defender's
    quality unit (7.4), which the evaluation cannot tell apart, is not made for nothing."""
    if action.verb in ("support_defence", "air_defence"):
        return 1.0
    if action.verb in ("initiative_stratagem", "react") and action.args.get("play"):
        return 0.5
    if action.verb == "choose_quality":
        return -0.3  # [7.4] the default unit stands unless a choice is clearly better: it is offered again
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
    """[2.1, 3.2, 3.3] Activate the formation whose units promise most now, or pass.

    The :data:`CHECKED_ACTIVATIONS` most promising activations are tried (and more, up to
    :data:`TRIED_BEFORE_PASSING`, while none is worth it): one may be chosen only if its first decision acts and
    gains at least :data:`MIN_GAIN` (an activation that would do nothing is a pass in all but name, 2.2). It passes only
    when none does: a sequence not taken is a tempo lost, and two passes in succession end the turn."""
    scored: list[Scored] = []
    passing: list[Scored] = []
    for action in sorted(listed(prompt), key=action_key):
        if action.verb == "pass":
            passing.append(Scored(action, 0.0, "passes: no formation has anything worth doing"))
            continue
        budget.spend()
        tried = try_action(game, state, action)
        if tried is None or tried.after.activation is None:
            continue
        worth, why = _promise(game, tried.after, side, goals)
        if action.verb == "activate_general":
            worth *= 0.8  # [9.4] units out of command may fail their check
        scored.append(Scored(action, worth, why, tried.after))
    ranked = sorted(scored, key=lambda s: (-s.score, action_key(s.action)))
    worth_it: list[Scored] = []
    for rank, candidate in enumerate(ranked[:TRIED_BEFORE_PASSING]):
        if rank >= CHECKED_ACTIVATIONS and worth_it:
            break
        assert candidate.after is not None
        inner = game.prompts(candidate.after).get(side)
        trial = Budget(level.budget)
        first = None if inner is None else _activation(game, candidate.after, inner, side, goals, level, seed, trial)
        budget.spend(trial.used)
        if first is not None and first.action.verb != "end_activation" and first.score >= MIN_GAIN:
            worth_it.append(Scored(candidate.action, candidate.score + first.score, candidate.why))
    if worth_it or passing:
        return _pick(worth_it or passing, level, seed)
    return _pick(scored, level, seed)  # no pass offered (17.1, the German opening run): the most promising


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
    target = attacker_target(data, pos, goals) if side == goals.attacker else None
    for unit in members:
        assert unit.hex is not None
        if data.units[unit.id].is_hq:
            continue
        attack = ground = rescue = 0.0
        fresh = unit.activations == 0 or unit.id in activation.units
        enemies = [n for n in grid.neighbours(unit.hex) if (s := pos.side_at(n)) is not None and s != side]
        for n in enemies:
            around = pos.units_at(n)
            defence = stack_defence(data, pos, around)
            if fresh and pos.strength(unit) >= 2 * defence:
                attack = max(
                    attack, expected_loss(data, float(pos.strength(unit)), defence, sum(u.steps for u in around))
                )
        distance = target(unit.hex) if target is not None else goals.distance[side].get(unit.hex, FAR)
        if not enemies and fresh:
            ground += min(distance, 6) * 0.12
        threat = sum(
            pos.strength(u) for n in grid.neighbours(unit.hex) for u in pos.units_at(n) if data.side_of(u.id) != side
        )
        here = pos.units_at(unit.hex)
        if (
            fresh
            and threat
            and expected_loss(data, threat, stack_defence(data, pos, here), sum(u.steps for u in here)) > 0.8
        ):
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
    # The attacks at the best rough odds are estimated first, and they may take half of what is left of the
    # budget (all of it for a unit owing an attack, 4.2): the moves must be looked at too.
    pos = Position(data, state)
    attacks = sorted(
        (a for a in actions if a.verb == "attack"), key=lambda a: (-_rough_odds(game, pos, a), action_key(a))
    )
    if ending is not None:
        attacks = [a for a in attacks if _rough_odds(game, pos, a) >= ROUGH_ODDS_FLOOR]
    attack_steps = budget.used + (budget.left // 2 if ending is not None else budget.left)
    for action in attacks:
        if (budget.exhausted() or budget.used >= attack_steps) and scored:
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
    acting = [s for s in scored if s.action.verb != "end_activation"]
    if acting and (ending is None or not _has_activated_a_unit(game, state)):
        # [4.2] a unit owing an attack: the activation may not end yet. [2.2] An activation ended before any
        # unit acted is a pass: the sequence was chosen to act (the choice of the sequence weighs passing).
        scored = acting
    return _pick(scored, level, seed)


def _has_activated_a_unit(game: Referee, state: GameState) -> bool:
    """Whether the activation in progress has activated a unit other than the HQ a formation activation
    activates for free (3.1, 3.2)."""
    activation = state.activation
    if activation is None:
        return False
    free = game.data.formations[activation.formation].hq if activation.formation is not None else None
    return any(u != free for u in activation.units)


def _rough_odds(game: Referee, pos: Position, action: Action) -> float:
    """An attack's odds before any shift: the attackers' strength over the defenders' (7.4, 7.5)."""
    data = game.data
    attackers = [pos.state.units[u] for u in str(action.args.get("attackers", "")).split(",") if u in pos.state.units]
    target = action.args.get("target")
    if not attackers or not isinstance(target, str):
        return 0.0
    attack = sum(pos.strength(u) for u in attackers)
    bonus = 1.3 if action.args.get("kind") == "prepared" else 1.0  # [7.3] its column shift, roughly
    return bonus * attack / stack_defence(data, pos, pos.units_at(parse_hex(target)))


def _line_cutters(
    game: Referee,
    state: GameState,
    side: Side,
    moves: list[tuple[float, Action, GameState]],
    wanted: int,
    budget: Budget,
) -> set[int]:
    """The moves (by ``id``) that cut an enemy line of supply (10). Each enemy unit's supply taps are the road
    hexes of its supply net in or next to its hex (10.2); the moves whose zone of control would cover all the
    taps of a unit (or most taps) are checked against the enemy's lines, one net each, and those that cut
    one are kept for a full evaluation."""
    data = game.data
    enemy = other_side(side)
    pos = Position(data, state)
    roads = supply_roads(pos, enemy, near=1)
    if not roads:
        return set()
    grid = data.map.grid
    taps = [
        frozenset(h for h in (u.hex, *grid.neighbours(u.hex)) if h in roads)
        for u in state.units.values()
        if u.on_map and u.hex is not None and data.side_of(u.id) == enemy and not data.units[u.id].is_hq
    ]
    taps = [t for t in taps if t]
    cut_before = supply_cut(pos, enemy)
    ranked = []
    for _, action, after in moves:
        target = action.args.get("to") or action.args.get("at")
        if action.verb not in ("move", "enter") or not isinstance(target, str):
            continue
        hex_ = parse_hex(target)
        cover = {hex_, *grid.neighbours(hex_)}
        closed = sum(1 for t in taps if t <= cover)
        touched = sum(1 for t in taps if t & cover)
        if touched:
            ranked.append((2 * closed + touched, action, after))
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
    pos = Position(game.data, state)
    gaps = open_ground(pos, goals.attacker) if side != goals.attacker else set()
    for action in actions:
        unit = str(action.args.get("units") or action.args.get("unit") or "")
        score = _first_score(game, state, side, goals, action) + _plugging(game, action, gaps)
        by_unit.setdefault(unit, []).append((score, action))
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


def _plugging(game: Referee, action: Action, gaps: set[Hex]) -> float:
    """For the defender: how much of the attacker's open ground a move would put under its zone of control."""
    target = action.args.get("to") or action.args.get("at")
    if not gaps or not isinstance(target, str):
        return 0.0
    hex_ = parse_hex(target)
    return 0.4 * len(({hex_, *game.data.map.grid.neighbours(hex_)}) & gaps)


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
    pos = Position(data, state)
    if side == goals.attacker:
        distance = attacker_target(data, pos, goals)
    else:
        defended = goals.distance[side]
        distance = lambda h: defended.get(h, FAR)  # noqa: E731
    gain = (distance(start) if start is not None else FAR) - distance(hex_)
    score = gain * 0.3
    if goals.place_at(hex_) is not None:
        score += 3.0
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
    if after.terms.get("front", 0) > before.terms.get("front", 0) + 0.1:
        reasons.append(
            "closes a gap in the line" if game.data.side_of(unit_id) != _attacker(game, state) else "opens the way"
        )
    if after.terms.get("threat", 0) > before.terms.get("threat", 0) + 0.3:
        reasons.append("out of danger")
    if after.terms.get("reach", 0) > before.terms.get("reach", 0) + 0.2:
        reasons.append("nearer its goal")
    return words + ("; " + ", ".join(reasons) if reasons else "")


# --- A last resort ---------------------------------------------------------------------------------------


def _any_legal(game: Referee, state: GameState, prompt: Prompt, seed: bytes, budget: Budget) -> Scored:
    """A listed choice (legal by the prompt's promise), else the first legal candidate in a seeded order that
    puts acting first (when nothing was scored)."""
    choices = sorted(listed(prompt), key=action_key)
    if choices and not prompt.free_verbs:
        return Scored(min(choices, key=lambda a: uniform(seed, repr(action_key(a)))), 0.0, "")
    actions = sorted(candidate_actions(game, state, prompt), key=action_key)
    ordered = sorted(actions, key=lambda a: (a.verb in PASSIVE_VERBS, uniform(seed, repr(action_key(a)))))
    for action in ordered:
        budget.spend()
        if try_action(game, state, action) is not None:
            return Scored(action, 0.0, "")
    raise InvalidActionError(f"no legal answer found to: {prompt.text}")


def _attacker(game: Referee, state: GameState) -> Side:
    return objectives(game.data, state.scenario).attacker
