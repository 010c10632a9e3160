"""[3] Activation: formation and general activations, action points, fatigue, out-of-command checks.

A unit acts only while activated (3.1). A *formation activation* (3.2) activates a formation's HQ for free
and lets every in-command unit of the formation act; a *general activation* (3.3) lets a fixed number of
units of any formations act (3 German, 4 Allied: 9.2, 9.3). A unit joins the activation in progress when it
first acts. A unit already activated this turn may act again in a later activation, and is then fatigued
(3.5); a fatigued unit must recover before it can be fatigued again.
"""

from __future__ import annotations

from engine.contract import Event, IllegalActionError
from engine.dice import Dice
from engine.vaevictis import doctrine as doctrine_rules
from engine.vaevictis import mines, opening
from engine.vaevictis.data import GameData, Side
from engine.vaevictis.garrisons import static_rule
from engine.vaevictis.initiative_stratagems import may_join as may_join_combined
from engine.vaevictis.state import Activation, GameState, Position, UnitState
from engine.vaevictis.stratagems import reactivation_barred
from engine.vaevictis.trucks import motorized_units
from engine.vaevictis.variant import activation_refusal as variant_refusal
from engine.vaevictis.variant import joined as variant_joined
from engine.vaevictis.zoc import enemy_zoc


def doctrine(data: GameData, side: Side) -> dict[str, int]:
    """[9.2, 9.3] Command range and general-activation size of a side."""
    return dict(data.tables.raw["doctrine"][side])


def is_independent(data: GameData, unit_id: str) -> bool:
    """[16.3] Whether a unit belongs to no formation (pink bar)."""
    return data.formations[data.units[unit_id].formation].independent


def hq_of(data: GameData, unit_id: str) -> str | None:
    """The HQ of a unit's formation, or ``None`` for an independent."""
    return data.formations[data.units[unit_id].formation].hq


def hq_is_destroyed(state: GameState, data: GameData, unit_id: str) -> bool:
    """[3.3] Whether the unit's formation HQ has been destroyed (an HQ not yet arrived is not destroyed: its
    units are out of command at the start of the turn instead, 8.1, unless 16.1 or 17.1 puts them in command)."""
    hq = hq_of(data, unit_id)
    return hq is not None and state.units[hq].eliminated


def arrival_turn(data: GameData, state: GameState, unit_id: str) -> int:
    """[16.1] The turn a reinforcement is due (0 for a unit of the set-up), after any Southern Front delay."""
    scheduled = next((r.turn for r in data.reinforcements if unit_id in r.units), 0)
    return state.arrivals.get(unit_id, scheduled)


def is_waiting_to_enter(data: GameData, state: GameState, unit_id: str) -> bool:
    """[16.1] Whether a reinforcement is due by now and has not entered the map yet."""
    unit = state.units[unit_id]
    return not unit.arrived and not unit.eliminated and 0 < arrival_turn(data, state, unit_id) <= state.turn


def can_act_now(state: GameState, data: GameData, unit: UnitState) -> bool:
    """Whether the unit could take an action in the activation in progress (joining it if need be)."""
    try:
        check_can_join(state, data, unit)
    except IllegalActionError:
        return unit.id in (state.activation.units if state.activation else [])
    return True


def check_can_join(state: GameState, data: GameData, unit: UnitState, arriving: bool = False) -> None:
    """Raise if the unit may not join the activation in progress (it has not joined it yet).

    ``arriving``: an HQ due this turn joins its formation's activation before it enters the map (16.1).

    :raises IllegalActionError: with the rule that forbids it.
    """
    activation = state.activation
    definition = data.units[unit.id]
    if activation is None:
        raise IllegalActionError(
            "no activation is in progress: activate a formation or make a general activation", "3.1"
        )
    if data.side_of(unit.id) != activation.side:
        raise IllegalActionError(f"{definition.name} is not one of your units", "3.1")
    if unit.id in activation.units:
        return
    if not unit.arrived and not arriving:
        raise IllegalActionError(f"{definition.name} has not arrived yet", data.rule("16.1"))
    if unit.eliminated:
        raise IllegalActionError(f"{definition.name} has been eliminated", "1.2")
    refusal = variant_refusal(data, state, unit.id)  # [Alsace 19.4.1] the offensive's divisions, a budget
    if refusal is not None:
        raise refusal
    static = static_rule(data, unit.id)
    if static is not None:
        raise IllegalActionError(f"{definition.name} has no action points: it is never activated", static)
    held_back = opening.activation_refusal(data, state, unit.id)
    if held_back is not None:
        raise IllegalActionError(held_back[1], held_back[0])
    if unit.activations >= 1 and reactivation_barred(data, state, unit.id):
        raise IllegalActionError(f"{definition.name} may not be reactivated this turn: a stratagem forbids it", "15.3")
    if unit.activations >= 1 and unit.fatigued:
        raise IllegalActionError(
            f"{definition.name} is fatigued and must recover before it can be activated again this turn", "3.5.2"
        )
    if activation.kind == "formation":
        combined = may_join_combined(data, state, unit.id)  # [Alsace 15.2] a corps HQ's combined activation
        if combined is not None:
            if not combined:
                raise IllegalActionError(f"{definition.name} may not join this combined activation", "15.2")
            return
        attached = doctrine_rules.attached_formation(state, data, unit.id)
        if is_independent(data, unit.id) and definition.formation != activation.formation:
            problem = doctrine_rules.independent_join_problem(state, data, unit, activation)
            if problem is not None:
                raise problem
            return
        if doctrine_rules.activating_formation(state, data, unit.id) != activation.formation:
            raise IllegalActionError(
                f"{definition.name} is not in {data.formations[activation.formation or ''].name}, "
                "the formation activated"
                + (f" (its Combat Command is attached to {data.formations[attached].name})" if attached else ""),
                "9.2" if attached else "3.2",
            )
        if doctrine_rules.general_activation_only(state, unit.id):
            raise IllegalActionError(
                f"{definition.name} is in command only through another HQ and can act only in a general activation",
                "9.3",
            )
        if unit.out_of_command and attached is None:
            raise IllegalActionError(
                f"{definition.name} is out of command and can act only in a general activation", "8.2"
            )
        return
    if len(activation.units) >= activation.limit:
        raise IllegalActionError(
            f"this general activation already has its {activation.limit} units",
            "9.2" if activation.side == "allied" else "9.3",
        )


def start_formation_activation(state: GameState, data: GameData, formation_id: str) -> list[Event]:
    """[3.2] Begin a formation activation: its HQ is activated for free (and fatigued if reactivated).

    [16.1] An HQ due as a reinforcement this turn may lead its formation's activation before it enters: it
    joins the activation now and enters the map with a move action ("they may enter the game when their
    formation is activated").

    :raises IllegalActionError: if the formation cannot be activated now.
    """
    side = state.active
    problem = formation_activation_problem(state, data, formation_id, side)
    if problem is not None:
        raise problem
    assert side is not None
    formation = data.formations[formation_id]
    assert formation.hq is not None
    hq = state.units[formation.hq]
    state.activation = Activation(side=side, kind="formation", formation=formation_id)
    events = [Event("activation", f"{data.side_name(side)} activates {formation.name}.", {"formation": formation_id})]
    events += join(state, data, hq, dice=None, arriving=not hq.on_map)
    return events


def formation_activation_problem(
    state: GameState, data: GameData, formation_id: str, side: Side | None
) -> IllegalActionError | None:
    """[3.2, 3.5.2, 15.3, 16.1, 16.3, 17.1] Why ``side`` may not activate the formation now, or ``None`` if it
    may (the prompt offers only the formations this allows)."""
    formation = data.formations.get(formation_id)
    if formation is None or side is None or data.armies[formation.army].side != side:
        return IllegalActionError(f"{formation_id!r} is not one of your formations", "3.2")
    if formation.independent or formation.hq is None:
        return IllegalActionError(
            f"{formation.name} are independents: they act only in general activations", data.rule("16.3")
        )
    hq = state.units[formation.hq]
    refusal = variant_refusal(data, state, formation.hq)
    if refusal is not None:
        return refusal
    if not hq.on_map and not is_waiting_to_enter(data, state, formation.hq):
        return IllegalActionError(
            f"the HQ of {formation.name} is not on the map, so the formation cannot be activated", "3.2"
        )
    if hq.activations >= 1 and reactivation_barred(data, state, formation.hq):
        return IllegalActionError(f"{formation.name} may not be reactivated this turn: a stratagem forbids it", "15.3")
    if hq.activations >= 1 and hq.fatigued:
        return IllegalActionError(
            f"the HQ of {formation.name} is fatigued and cannot be reactivated until it recovers", "3.5.2"
        )
    held_back = opening.activation_refusal(data, state, formation.hq)
    if held_back is not None:
        return IllegalActionError(f"{formation.name} may not be activated now: {held_back[1]}", held_back[0])
    restriction = formation_restriction(state, data, formation_id)
    if restriction:
        return IllegalActionError(restriction[1], restriction[0])
    return None


def formation_restriction(state: GameState, data: GameData, formation_id: str) -> tuple[str, str] | None:
    """[17.1] Turn 1: the German opens with three formation activations in succession, one from each army.

    The restriction binds only that opening run; once it is over (the third formation, a general activation
    or a pass), the German may activate any formation, a second one of an army included.
    """
    if not in_german_opening_run(state, data):
        return None
    used = state.flags.get("turn1_german_armies", [])
    army = data.formations[formation_id].army
    if data.armies[army].side == "german" and army in used:
        return (
            data.rule("17.1"),
            f"on turn 1 the three German formation activations come one from each army; "
            f"{data.armies[army].name} has had its turn",
        )
    return None


def in_german_opening_run(state: GameState, data: GameData) -> bool:
    """[17.1] Whether the German's opening run of turn 1 (three formations, one per army) is still going on."""
    return (
        state.turn == 1
        and "german-three-formations-turn-1" in scenario_rules(state, data)
        and len(state.flags.get("turn1_german_armies", [])) < 3
        and not state.flags.get("turn1_run_over")
    )


def scenario_rules(state: GameState, data: GameData) -> tuple[str, ...]:
    return data.scenarios[state.scenario].special_rules


def start_general_activation(state: GameState, data: GameData) -> list[Event]:
    """[3.3] Begin a general activation of 3 (German) or 4 (Allied) units of the player's choice."""
    side = state.active
    assert side is not None
    limit = doctrine(data, side)["general_activation"]
    state.activation = Activation(side=side, kind="general", formation=None, limit=limit)
    return [
        Event(
            "activation", f"{data.side_name(side)} makes a general activation of up to {limit} units.", {"limit": limit}
        )
    ]


def join(
    state: GameState,
    data: GameData,
    unit: UnitState,
    dice: Dice | None,
    arriving: bool = False,
    action_points: int | None = None,
) -> list[Event]:
    """Bring a unit into the activation in progress: count the activation, set its APs, roll C3I if needed.

    ``action_points``: the APs a rule gives the unit for this activation in place of its own (16.1: a US
    reinforcement entering by truck has 3), so that the log says what it really has.

    [3.5] A unit already activated this turn is fatigued as it joins. [9.4] In a general activation a unit
    that is out of command, or whose HQ is destroyed, rolls 1d6 and needs less than its quality; on a
    failure it has 1 AP. A reinforcement is in command on its turn of entry (16.1), as is every American unit
    on turn 1 (17.1): neither rolls.
    """
    activation = state.activation
    assert activation is not None
    check_can_join(state, data, unit, arriving)
    if unit.id in activation.units:
        return []
    definition = data.units[unit.id]
    events: list[Event] = []
    if unit.activations >= 1:
        unit.fatigued = True
        events.append(Event("fatigue", f"{definition.name} is reactivated and becomes fatigued.", {"unit": unit.id}))
    unit.activations += 1
    activation.units.append(unit.id)
    pos = Position(data, state)
    unit.action_points = pos.base_action_points(unit)
    for cap in (opening.action_point_cap(data, state, unit.id), entry_turn_action_points(data, state, unit.id)):
        if cap is not None:
            unit.action_points = min(unit.action_points, cap)
    if action_points is not None:
        unit.action_points = action_points
    unit.movement_points = 0.0
    variant_joined(data, state, unit.id)
    needs_check = (
        activation.kind == "general"
        and not definition.is_hq
        and not is_independent(data, unit.id)
        and (unit.out_of_command or hq_is_destroyed(state, data, unit.id))
    )
    if needs_check:
        assert dice is not None
        number = dice.rolls_made
        die = dice.d6()
        passed = die < definition.quality
        if not passed:
            unit.action_points = min(unit.action_points, 1)
        events.append(
            Event(
                "roll",
                f"C3I check for {definition.name}: rolled {die} against quality {definition.quality}: "
                + ("passed." if passed else "failed, 1 AP only."),
                {
                    "unit": unit.id,
                    "die": die,
                    "number": number,
                    "sides": 6,
                    "need_below": definition.quality,
                    "passed": passed,
                    "rule": "9.4",
                },
            )
        )
    events.append(
        Event(
            "join",
            f"{definition.name} is activated with {unit.action_points} AP.",
            {"unit": unit.id, "ap": unit.action_points},
        )
    )
    return events


def entry_turn_action_points(data: GameData, state: GameState, unit_id: str) -> int | None:
    """[18] The cap on a reinforcement's APs on its turn of entry (Alsace 1944 19.2: "1 AP remaining"), or
    ``None``."""
    for reinforcement in data.reinforcements:
        if unit_id in reinforcement.units and reinforcement.action_points is not None:
            return reinforcement.action_points if arrival_turn(data, state, unit_id) == state.turn else None
    return None


def recover_fatigue(state: GameState, data: GameData, unit: UnitState) -> list[Event]:
    """[3.5.2] Spend 2 AP to remove Fatigue, as the first action of the unit's first activation this turn.

    The 2 AP are counted on the unit's APs before the fatigue penalty, so that a fatigued infantry unit
    (2 AP less 1) can still recover; see docs/rules/ardennes44.md.
    """
    definition = data.units[unit.id]
    if not unit.fatigued:
        raise IllegalActionError(f"{definition.name} is not fatigued", "3.5.2")
    if unit.activations != 1:
        raise IllegalActionError(f"{definition.name} can recover only in its first activation of the turn", "3.5.2")
    pos = Position(data, state)
    unfatigued = pos.base_action_points(unit) + 1
    riding = unit.id in motorized_units(data, state)  # [Alsace 17] the trucks were its first action
    if unit.action_points != pos.base_action_points(unit) or unfatigued < 2 or riding:
        raise IllegalActionError(f"recovery must be {definition.name}'s first action of the activation", "3.5.2")
    unit.fatigued = False
    unit.action_points = unfatigued - 2
    return [Event("recover", f"{definition.name} recovers from fatigue.", {"unit": unit.id})]


def improved_position_problem(
    state: GameState, data: GameData, unit: UnitState, enemy_zoc_hexes: set[int]
) -> IllegalActionError | None:
    """[12.1] Why the unit may not take up an Improved Position now, or ``None`` if it may.

    Never in an enemy zone of control; with the tables' ``[status.improved_position] refused_in =
    "attack-required"`` (Alsace 1944 12.1) only a unit required to attack is refused: one that entered an
    enemy zone of control by moving this activation, outside the terrain where attack is optional, and has
    not attacked yet (4.2). A unit that began its activation in the zone need not attack (4.3), and may dig in.
    [14] Never in a mined village.
    """
    definition = data.units[unit.id]
    if unit.improved_position:
        return IllegalActionError(f"{definition.name} is already in an Improved Position", "12.1")
    refused_in = data.tables.raw["status"]["improved_position"].get("refused_in", "enemy-zoc")
    if unit.hex in enemy_zoc_hexes:
        if refused_in != "attack-required":
            return IllegalActionError(f"{definition.name} is in an enemy zone of control and cannot dig in", "12.1")
        if unit.must_attack:
            return IllegalActionError(
                f"{definition.name} entered an enemy zone of control this activation and must attack (4.2) "
                "before it may dig in",
                "12.1",
            )
    mined = mines.ip_refusal(data, state, unit)
    if mined is not None:
        return mined
    if unit.action_points < 1:
        return IllegalActionError(f"{definition.name} has no AP left; an Improved Position costs 1 AP", "3.4.1")
    return None


def enter_improved_position(
    state: GameState, data: GameData, unit: UnitState, enemy_zoc_hexes: set[int]
) -> list[Event]:
    """[12.1] Spend 1 AP to take up an Improved Position where :func:`improved_position_problem` allows it."""
    definition = data.units[unit.id]
    problem = improved_position_problem(state, data, unit, enemy_zoc_hexes)
    if problem is not None:
        raise problem
    unit.action_points -= 1
    unit.improved_position = True
    return [
        Event(
            "improved-position", f"{definition.name} takes up an Improved Position.", {"unit": unit.id, "hex": unit.hex}
        )
    ]


def leave_improved_position(state: GameState, data: GameData, unit: UnitState) -> list[Event]:
    """[12.1] Leave an Improved Position at no AP cost."""
    definition = data.units[unit.id]
    if not unit.improved_position:
        raise IllegalActionError(f"{definition.name} is not in an Improved Position", "12.1")
    unit.improved_position = False
    return [Event("leave-improved-position", f"{definition.name} leaves its Improved Position.", {"unit": unit.id})]


def units_owing_an_attack(state: GameState, data: GameData) -> list[UnitState]:
    """[4.2] Units of the activation that entered an enemy zone of control and have not attacked yet.

    The duty is to attack a unit exerting that zone on it: when no enemy unit does any more (it retreated or
    was eliminated by another attack), the duty lapses.
    """
    if state.activation is None:
        return []
    owing = [state.units[u] for u in state.activation.units if state.units[u].must_attack and state.units[u].on_map]
    if not owing:
        return []
    controlled = enemy_zoc(Position(data, state), state.activation.side)
    return [u for u in owing if u.hex in controlled]
