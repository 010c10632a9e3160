"""The concrete actions the computer opponent weighs for one prompt of its seat.

A prompt lists some choices (activate a formation, pass, a combat result to take) and, during an activation or
the set-up, leaves free verbs whose arguments the player picks (move, attack, enter, place). This module turns
both into concrete :class:`Action` objects from the position the seat knows: every listed choice, and for an
activation every unit's reachable hexes, its attacks (alone and with every other activated unit next to the
same target), the reinforcements due at a few entry hexes, and the other unit actions (dig in, recover, the
game's own verbs). Each one is checked by applying it to the known position (:func:`try_action`): what the engine
accepts there it accepts in the real game, since the seat's own units, the hexes the enemy holds and the
procedures in progress are the same in both.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.contract import Action, Event, Prompt, RulesError
from engine.hexgrid import Hex, hex_name
from engine.vaevictis import activation as act
from engine.vaevictis import legal, movement, setup_phase
from engine.vaevictis.data import Side
from engine.vaevictis.odds import action_cost
from engine.vaevictis.state import GameState

PASSIVE_VERBS = frozenset({"pass", "end_activation", "end_support", "setup_done"})
"""Verbs that do nothing more this activation or phase."""


@dataclass(frozen=True)
class Tried:
    """An action the engine accepted on the known position, with the position after it and its events."""

    action: Action
    after: GameState
    events: tuple[Event, ...]


def side_of(prompt: Prompt) -> Side:
    """The side a prompt asks."""
    return "german" if prompt.seat == "german" else "allied"


def listed(prompt: Prompt) -> list[Action]:
    """The prompt's own choices as actions."""
    return [Action(prompt.seat, c.verb, dict(c.args)) for c in prompt.choices]


def activation_actions(game: legal.Rules, state: GameState, side: Side, entries_per_unit: int = 3) -> list[Action]:
    """Every move, attack and unit action of the activation in progress the opponent considers."""
    actions: list[Action] = []
    data = game.data
    acting = legal.units_that_may_act(game, state, side)
    options = {unit.id: legal.unit_options(game, state, unit) for unit in acting}
    prepared_cost = action_cost(data, "prepared") if "prepared" in data.tables.raw.get("attack_type", {}) else 0
    by_target: dict[Hex, list[str]] = {}
    for unit in acting:
        option = options[unit.id]
        destinations = option.destinations
        if may_fail_its_check(game, state, unit.id):
            destinations = tuple(sorted(_reachable_with_one_action_point(game, state, unit.id)))
        for hex_ in destinations:
            actions.append(Action(side, "move", {"units": unit.id, "to": hex_name(hex_)}))
        for target in option.targets:
            by_target.setdefault(target, []).append(unit.id)
        if option.may_dig_in:
            actions.append(Action(side, "enter_ip", {"unit": unit.id}))
        if option.may_recover:
            actions.append(Action(side, "recover", {"unit": unit.id}))
        for verb in legal.game_verbs(game, state, unit):
            actions.append(Action(side, verb, {"unit": unit.id}))
    for target, attackers in sorted(by_target.items()):
        groups = [[a] for a in attackers]
        if len(attackers) > 1:
            groups.append(attackers)
        for group in groups:
            names = ",".join(group)
            actions.append(Action(side, "attack", {"kind": "normal", "attackers": names, "target": hex_name(target)}))
            risky = any(may_fail_its_check(game, state, a) for a in group)
            if prepared_cost and not risky and all(state.units[a].action_points >= prepared_cost for a in group):
                actions.append(
                    Action(side, "attack", {"kind": "prepared", "attackers": names, "target": hex_name(target)})
                )
    for unit_id, hexes in legal.reinforcements_due(game, state, side):
        for hex_ in legal.legal_entries(game, state, side, unit_id, hexes, entries_per_unit):
            actions.append(Action(side, "enter", {"unit": unit_id, "at": hex_name(hex_)}))
    return actions


def may_fail_its_check(game: legal.Rules, state: GameState, unit_id: str) -> bool:
    """[9.4] Whether joining the activation now rolls a C3I check that could leave the unit 1 AP: a unit out
    of command, or whose HQ is destroyed, joining a general activation. The opponent's dice are not the
    game's, so it plans such a unit's moves as if the check failed."""
    activation = state.activation
    data = game.data
    if activation is None or activation.kind != "general" or unit_id in activation.units:
        return False
    unit = state.units[unit_id]
    if data.units[unit_id].is_hq or act.is_independent(data, unit_id):
        return False
    return unit.out_of_command or act.hq_is_destroyed(state, data, unit_id)


def _reachable_with_one_action_point(game: legal.Rules, state: GameState, unit_id: str) -> set[Hex]:
    trial = legal.joined_trial(game, state, unit_id)
    if trial is None:
        return set()
    unit = trial.units[unit_id]
    unit.action_points = min(unit.action_points, 1)
    if unit.cannot_move or unit.improved_position or unit.must_attack:
        return set()
    return set(movement.legal_destinations(game.data, trial, [unit_id]))


def candidate_actions(game: legal.Rules, state: GameState, prompt: Prompt) -> list[Action]:
    """The listed choices and, for the free verbs of an activation or a set-up, the concrete actions above."""
    side = side_of(prompt)
    actions = listed(prompt)
    if "place" in prompt.free_verbs:
        for unit_id, hex_ in setup_phase.place_choices(game.data, state, side, 2):
            actions.append(Action(side, "place", {"unit": unit_id, "hex": hex_name(hex_)}))
    if "move" in prompt.free_verbs:
        actions += activation_actions(game, state, side)
    return actions


def try_action(game: legal.Rules, state: GameState, action: Action) -> Tried | None:
    """The action applied to the known position, or ``None`` when the engine refuses it there."""
    try:
        after, events = game.apply(state, action)
    except RulesError:
        return None
    return Tried(action, after, tuple(events))
