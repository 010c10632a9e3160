"""[11] What one seat knows of the position: the whole state less what the seat may not see.

A seat's view (:mod:`engine.vaevictis.view`) carries this position so that a player's tools, and the computer
opponent, can reason with the rules engine from what that seat knows and nothing more. Taken out or replaced
by fixed stand-ins:

- the secret seed (the dice to come): the seed is emptied;
- under fog of war (11.1), the enemy counters hidden under the top of a stack out of the seat's zones of
  control: the hidden slots are filled, hex by hex in map order, with the enemy units on the map the seat does
  not see, in the order of their ids, each at full strength with no status. Twin games that differ only in
  which hidden unit stands where, or in its steps and statuses, give the same known position;
- what the seat cannot read on an enemy counter: its action points, movement points and duties of the
  activation in progress, and the status markers (all enemy statuses are kept only as the view shows them);
- the enemy's sealed choices (2.1 step 3: the initiative stratagems until revealed), its standing orders, and
  under fog of war the markers given to its Combat Commands (1.6).

Face-down garrisons (Alsace 16) keep their counter: the view names them, and the opponent's reasoning reads
their values through :mod:`engine.vaevictis.unseen_odds`, which never looks under the counter.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from engine.vaevictis import control
from engine.vaevictis import view as seen
from engine.vaevictis.combat_command_support import FLAG as CC_SUPPORTS
from engine.vaevictis.combat_command_support import holder_side
from engine.vaevictis.data import GameData, Side, other_side
from engine.vaevictis.initiative_stratagems import DECISION
from engine.vaevictis.state import GameState, Position, UnitState
from engine.vaevictis.view import stack_order


def known_state(data: GameData, state: GameState, seat: Side) -> GameState:
    """The position as ``seat`` knows it: a state the rules engine can play on, with no secret in it."""
    known = state.copy()
    known.seed = ""
    enemy = other_side(seat)
    fog = bool(state.options.get("fog_of_war", False))
    hidden = seen.unseen_units(data, state)[seat] if fog else set()
    for unit in known.units.values():
        if data.side_of(unit.id) != enemy:
            continue
        _hide_activation_details(unit)
        if unit.id in hidden:
            _stand_in(data, unit)
    if hidden:
        _reshuffle_hidden(data, state, known, seat, hidden)
        if known.activation is not None and known.activation.side == enemy:
            known.activation.units = [u for u in known.activation.units if u not in hidden]
    known.stack_tops = _stack_tops(data, state, seat)
    # [Alsace 15.2] The hexes passed through, as every action notes them: the same whether or not an action
    # the seat may not read (a sealed choice) came since.
    control.note_positions(data, known)
    known.standing_orders = {s: orders for s, orders in known.standing_orders.items() if s == seat}
    decision = known.flags.get(DECISION)
    if isinstance(decision, dict) and not decision.get("resolved"):
        own = {s: v for s, v in decision.items() if s == seat}
        if own:
            known.flags[DECISION] = own
        else:
            del known.flags[DECISION]  # as before anyone chose: the enemy's choice leaves no trace
    if fog and CC_SUPPORTS in known.flags:
        known.flags[CC_SUPPORTS] = {
            cc: kinds for cc, kinds in known.flags[CC_SUPPORTS].items() if holder_side(data, cc) == seat
        }
    return known


def known_position(data: GameData, state: GameState, seat: Side) -> dict[str, Any]:
    """:func:`known_state` as plain JSON data, as a seat's view carries it (``GameState.from_json`` reads it
    back). Written field by field: :meth:`GameState.to_json` copies through ``dataclasses.asdict``, ten times
    slower, and a view is built for every picture."""
    known = known_state(data, state, seat)  # a fresh copy: its containers are this view's own
    raw: dict[str, Any] = {f.name: getattr(known, f.name) for f in _FIELDS}
    raw["units"] = {unit_id: vars(unit) for unit_id, unit in known.units.items()}
    raw["markers"] = [vars(m) for m in known.markers]
    raw["activation"] = None if known.activation is None else vars(known.activation)
    return raw


_FIELDS = fields(GameState)


def _hide_activation_details(unit: UnitState) -> None:
    """Clear what no marker shows on an enemy counter: its AP, MP and the duties of its activation."""
    unit.action_points = 0
    unit.movement_points = 0.0
    unit.must_attack = False
    unit.retreated_into_stack = False


def _stand_in(data: GameData, unit: UnitState) -> None:
    """An unseen enemy unit as a stand-in: full strength, no status (its real values are not known)."""
    unit.steps = data.units[unit.id].steps
    unit.improved_position = False
    unit.fatigued = False
    unit.out_of_command = False
    unit.isolated = False
    unit.unsupplied = False
    unit.activations = 0
    unit.supports = []


def _stack_tops(data: GameData, state: GameState, seat: Side) -> list[str]:
    """[11.2] The order of the tops as the seat knows it: its own choices, then the top of each enemy stack it
    sees, hex by hex (not the order in which the enemy chose them, which it never saw)."""
    pos = Position(data, state)
    seen_tops = [stack_order(state, units)[0].id for _, units in sorted(pos.occupants.items())]
    own = [u for u in state.stack_tops if data.side_of(u) == seat]
    return [*own, *(u for u in seen_tops if data.side_of(u) != seat)]


def _reshuffle_hidden(data: GameData, state: GameState, known: GameState, seat: Side, hidden: set[str]) -> None:
    """Put the unseen enemy units into the hidden slots in a fixed order that depends only on what the seat
    sees: hexes in map order, each taking as many units as it hides, units in the order of their ids."""
    pos = Position(data, state)
    slots = []
    for hex_, units in sorted(pos.occupants.items()):
        count = sum(1 for u in units if u.id in hidden)
        slots.extend([hex_] * count)
    for unit_id, hex_ in zip(sorted(hidden), slots, strict=True):
        known.units[unit_id].hex = hex_
