"""What a seat may do now, spelled out as concrete actions: for autocomplete, menus and random play.

A prompt lists its choices, but the free actions of an activation (move, attack, dig in, recover, enter)
take arguments the player picks. This module enumerates them: units that may act, their reachable hexes,
the enemy hexes they may attack, the reinforcements that may enter and where. Every action it offers is
checked by the engine again when applied; an action it leaves out is not thereby illegal (it does not list
every path or every combination of attackers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.contract import Action, Event, IllegalActionError, Prompt, RulesError
from engine.hexgrid import Hex, hex_name
from engine.vaevictis import activation as act
from engine.vaevictis import combat, mines, movement, setup_phase, trucks, turn, variant, zoc
from engine.vaevictis.data import GameData, Side, other_side
from engine.vaevictis.odds import action_cost
from engine.vaevictis.rolls import dice_of
from engine.vaevictis.state import GameState, Position, UnitState


class Rules(Protocol):
    """What this module asks of a game (a :class:`engine.vaevictis.game.VaeVictisGame`): its data, prompts and
    apply. A protocol, so that the computer opponent, which the game offers, can use this module too."""

    data: GameData

    def prompts(self, state: GameState) -> dict[Side, Prompt]: ...

    def apply(self, state: GameState, action: Action) -> tuple[GameState, list[Event]]: ...


@dataclass(frozen=True)
class UnitOptions:
    """What one unit could do in the activation in progress."""

    unit: str
    destinations: tuple[Hex, ...]
    targets: tuple[Hex, ...]
    may_dig_in: bool
    may_recover: bool


def units_that_may_act(game: Rules, state: GameState, side: Side) -> list[UnitState]:
    """The side's units that could act in the activation in progress (joining it if need be)."""
    if state.activation is None or state.activation.side != side:
        return []
    return [
        unit
        for unit in state.units.values()
        if unit.on_map and game.data.side_of(unit.id) == side and act.can_act_now(state, game.data, unit)
    ]


def joined_trial(game: Rules, state: GameState, unit_id: str) -> GameState | None:
    """A copy of the state in which the unit has joined the activation in progress (3.1), or ``None`` if it
    may not join it. Dice rolled for the join (9.4) are rolled on the copy only."""
    trial = state.copy()
    if trial.activation is not None and unit_id not in trial.activation.units:
        try:
            act.join(trial, game.data, trial.units[unit_id], dice_of(trial))
        except IllegalActionError:
            return None
    return trial


def reachable(game: Rules, state: GameState, unit_id: str) -> dict[Hex, movement.Route]:
    """[6] Where a unit could move now, each hex with its cheapest route, as if it joined the activation."""
    trial = joined_trial(game, state, unit_id)
    if trial is None:
        return {}
    unit = trial.units[unit_id]
    if unit.cannot_move or unit.improved_position or unit.must_attack:
        return {}
    return movement.legal_destinations(game.data, trial, [unit_id])


def unit_options(game: Rules, state: GameState, unit: UnitState) -> UnitOptions:
    """Destinations, attack targets and other actions of one unit, as if it joined the activation now."""
    trial = joined_trial(game, state, unit.id)
    if trial is None:
        return UnitOptions(unit.id, (), (), False, False)
    trial_unit = trial.units[unit.id]
    destinations = tuple(sorted(reachable(game, state, unit.id)))
    pos = Position(game.data, trial)
    side = game.data.side_of(unit.id)
    targets: tuple[Hex, ...] = ()
    definition = game.data.units[unit.id]
    if trial_unit.action_points >= 1 and not definition.is_hq and unit.hex is not None:
        targets = tuple(n for n in game.data.map.grid.neighbours(unit.hex) if pos.side_at(n) == other_side(side))
        if combat.owes_an_attack(pos, trial_unit) and trial_unit.action_points < 2 * action_cost(game.data, "normal"):
            # [4.2] With its last AP a unit owing an attack may only attack a unit exerting its zone on it.
            duty = {h for h, _ in combat.duty_attacks(game.data, trial, trial_unit)}
            targets = tuple(h for h in targets if h in duty)
    return UnitOptions(
        unit.id,
        destinations,
        targets,
        may_dig_in=act.improved_position_problem(trial, game.data, trial_unit, set(zoc.enemy_zoc(pos, side))) is None,
        may_recover=trial_unit.fatigued and trial_unit.activations == 1,
    )


def game_verbs(game: Rules, state: GameState, unit: UnitState) -> list[str]:
    """The game's own activation verbs (Alsace 1944: mine, clear_mines 14; trucks 17) the unit could use now."""
    data = game.data
    if "mines" not in data.extra and "trucks" not in data.extra:
        return []
    trial = joined_trial(game, state, unit.id)
    if trial is None:
        return []
    joined = trial.units[unit.id]
    verbs = []
    if "mines" in data.extra and mines.mine_problem(data, trial, joined) is None:
        verbs.append("mine")
    mined = mines.mined_hexes(data, trial, data.side_of(unit.id))
    if joined.hex in mined and joined.action_points >= 1:
        verbs.append("clear_mines")
    if "trucks" in data.extra and trucks.use_problem(data, trial, joined) is None:
        verbs.append("trucks")
    return verbs


def reinforcements_due(game: Rules, state: GameState, side: Side) -> list[tuple[str, list[Hex]]]:
    """[16.1] Reinforcements of the side that may enter now, each with its entry hexes."""
    if state.activation is None or state.activation.side != side:
        return []
    found = []
    scheduled = [u for r in game.data.reinforcements for u in r.units]
    # [Alsace 19.4.2] and the units only the variant's groups bring
    brought = sorted(u for u in state.arrivals if u not in set(scheduled))
    for unit_id in [*scheduled, *brought]:
        reinforcement = variant.reinforcement_of(game.data, state, unit_id)
        unit = state.units[unit_id]
        due = state.arrivals.get(unit_id, reinforcement.turn if reinforcement else 0)
        if reinforcement is None or unit.arrived or unit.eliminated or due > state.turn:
            continue
        if game.data.side_of(unit_id) != side:
            continue
        try:
            # [3.2, 9, 18.1] It enters when its formation is activated: it must be able to join this activation.
            act.check_can_join(state, game.data, unit, arriving=True)
        except IllegalActionError:
            continue
        hexes = turn.entry_hexes_for(game.data, state, unit_id)
        if hexes:
            found.append((unit_id, hexes))
    return found


def candidate_actions(game: Rules, state: GameState, side: Side, per_unit: int = 3) -> list[Action]:
    """A sample of concrete legal actions for ``side`` now: every listed choice, and for free actions a few
    moves, attacks and other actions per unit (``per_unit`` destinations each, spread over the reachable hexes).
    """
    prompt = game.prompts(state).get(side)
    if prompt is None:
        return []
    actions = [Action(side, c.verb, dict(c.args)) for c in prompt.choices]
    if "place" in prompt.free_verbs:  # [Alsace 19.2, 19.4.1] the set-up: a few legal hexes per unit placed
        for unit_id, hex_ in setup_phase.place_choices(game.data, state, side, per_unit):
            actions.append(Action(side, "place", {"unit": unit_id, "hex": hex_name(hex_)}))
    if "move" not in prompt.free_verbs:
        return actions
    for unit in units_that_may_act(game, state, side):
        options = unit_options(game, state, unit)
        step = max(1, len(options.destinations) // per_unit)
        for hex_ in options.destinations[::step][:per_unit]:
            actions.append(Action(side, "move", {"units": unit.id, "to": hex_name(hex_)}))
        for target in options.targets:
            actions.append(Action(side, "attack", {"kind": "normal", "attackers": unit.id, "target": hex_name(target)}))
        if options.may_dig_in:
            actions.append(Action(side, "enter_ip", {"unit": unit.id}))
        if options.may_recover:
            actions.append(Action(side, "recover", {"unit": unit.id}))
        for verb in game_verbs(game, state, unit):
            actions.append(Action(side, verb, {"unit": unit.id}))
    for unit_id, hexes in reinforcements_due(game, state, side):
        for hex_ in legal_entries(game, state, side, unit_id, hexes, per_unit):
            actions.append(Action(side, "enter", {"unit": unit_id, "at": hex_name(hex_)}))
    return actions


def legal_entries(
    game: Rules, state: GameState, side: Side, unit_id: str, hexes: Sequence[Hex], wanted: int
) -> list[Hex]:
    """[16.1, 18] Up to ``wanted`` of a due reinforcement's entry hexes that it may really enter now, spread
    along the edge. Each is tried: an entry hex may be closed to the unit (Alsace 1944's west edge starts in
    difficult terrain, which a mechanized unit enters only by road), or taken up by units entered before."""
    step = max(1, len(hexes) // wanted)
    spread = list(hexes[::step])
    found: list[Hex] = []
    for hex_ in [*spread, *(h for h in hexes if h not in spread)]:
        try:
            game.apply(state, Action(side, "enter", {"unit": unit_id, "at": hex_name(hex_)}))
        except RulesError:
            continue
        found.append(hex_)
        if len(found) == wanted:
            break
    return found
