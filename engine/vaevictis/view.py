"""[11] What one seat may see: the counters on the map, with the optional fog of war.

Without fog of war every counter is visible to both sides. With it (11.1), an enemy stack shows only the unit
its owner put on top (11.2) and how many counters it holds, unless a unit of the viewer exerts a zone of
control on it or it is engaged in the combat being resolved. ``seat=None`` is the channel's view: only what
both sides may see. The secret seed never appears in a view.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from engine.contract import Event
from engine.hexgrid import Hex
from engine.vaevictis import zoc
from engine.vaevictis.combat_command_support import FLAG as CC_SUPPORTS
from engine.vaevictis.combat_command_support import holder_side
from engine.vaevictis.data import SIDES, GameData, Side, other_side
from engine.vaevictis.disorganization import is_disorganized
from engine.vaevictis.pending_records import pending_records
from engine.vaevictis.state import GameState, Position, UnitState


def seat_view(data: GameData, state: GameState, seat: Side | None) -> dict[str, Any]:
    """What one seat may see (``None``: what both may see, for the channel).

    Without fog of war every counter is visible. With it (11.1), an enemy stack shows only the unit its
    owner put on top (11.2) and how many counters it holds, unless a unit of the viewer exerts a zone of
    control on it or it is engaged in the combat being resolved.
    """
    pos = Position(data, state)
    fog = state.options.get("fog_of_war", False)
    seen_by = inspected_hexes(pos) if fog else {}
    stacks = []
    for hex_, units in sorted(pos.occupants.items()):
        owner = pos.side_of(units[0].id)
        ordered = stack_order(state, units)
        visible = ordered
        if fog and seat != owner:
            enemy = other_side(owner)
            may_see = hex_ in seen_by[enemy] if (seat == enemy or seat is None) else False
            if not may_see:
                visible = ordered[:1]
        stacks.append(
            {
                "hex": hex_,
                "side": owner,
                "count": len(units),
                "units": [unit_view(pos, u) for u in visible],
                "hidden": len(units) - len(visible),
            }
        )
    return {
        "game": state.game,
        "scenario": state.scenario,
        "turn": state.turn,
        "date": data.turns[state.turn - 1].date,
        "weather": data.turns[state.turn - 1].weather or "",
        # [2.1] A game without an air phase (Alsace 1944) opens its turn with supply and command.
        "phase": state.phase if state.phase != "air" or "air" in data.extra else "supply",
        "initiative": state.initiative,
        "active": state.active,
        "fog_of_war": fog,
        "stacks": stacks,
        "markers": [{"kind": m.kind, "hex": m.hex, "side": m.side} for m in state.markers],
        "pools": {army: dict(pool) for army, pool in state.pools.items()},
        "air_missions": dict(state.air_missions),
        "events_left": dict(state.events_left),
        "result": state.result,
    } | _combat_command_supports(data, state, seat, fog)


def _combat_command_supports(data: GameData, state: GameState, seat: Side | None, fog: bool) -> dict[str, Any]:
    """[1.6] The markers given to Combat Commands; under fog of war (11) only their owner sees them."""
    held = {
        cc: list(kinds)
        for cc, kinds in state.flags.get(CC_SUPPORTS, {}).items()
        if kinds and (not fog or holder_side(data, cc) == seat)
    }
    return {"combat_command_supports": held} if held else {}


def inspected_hexes(pos: Position) -> dict[Side, set[Hex]]:
    """[11.1] For each side, the hexes whose enemy stacks it may inspect: where one of its units exerts a zone
    of control, and the hexes of the combat being resolved."""
    engaged = engaged_hexes(pos.state)
    return {side: set(zoc.enemy_zoc(pos, other_side(side))) | engaged for side in SIDES}


def engaged_hexes(state: GameState) -> set[Hex]:
    """[11.1] The hexes of the combat being resolved: its target and its attackers' hexes."""
    hexes: set[Hex] = set()
    for record in pending_records(state):
        if record["kind"] == "combat":
            hexes.add(record["target"])
            hexes.update(h for u in record.get("attackers", []) if (h := state.units[u].hex) is not None)
    return hexes


def stack_order(state: GameState, units: list[UnitState]) -> list[UnitState]:
    """The units of a stack, the one its owner put on top most recently first (11.2); the others in the order
    they were placed. The order travels with the units: a stack that moves keeps its top."""
    rank = {unit_id: index for index, unit_id in enumerate(state.stack_tops)}
    return sorted(units, key=lambda u: rank.get(u.id, len(rank)))


HIDDEN_GARRISON = "Garrison (face down)"
"""[Alsace 16] What a face-down garrison is called: its counter's own name would suggest values."""


def unit_view(pos: Position, unit: UnitState) -> dict[str, Any]:
    """A counter as a player sees it; [16] a face-down garrison shows neither its values nor its name."""
    definition = pos.unit_def(unit.id)
    if unit.id in pos.state.flags.get("face_down", ()):
        return {
            "id": unit.id,
            "name": HIDDEN_GARRISON,
            "kind": definition.kind,
            "steps": unit.steps,
            "max_steps": definition.steps,
            "strength": "?",
            "quality": "?",
            "face_down": True,
            "status": [],
            "supports": [],
        }
    return {
        "id": unit.id,
        "name": definition.name,
        "kind": definition.kind,
        "steps": unit.steps,
        "max_steps": definition.steps,
        "strength": pos.strength(unit),
        "quality": definition.quality,
        "status": [
            flag
            for flag in ("improved_position", "fatigued", "out_of_command", "isolated", "unsupplied")
            if getattr(unit, flag)
        ]
        + (["activated"] if unit.activations else [])
        + (["disorganized"] if is_disorganized(pos.state, unit.id) else []),
        "supports": list(unit.supports),
    }


# --- What each side may read of what happened -------------------------------------------------------------

HIDDEN_FROM = "hidden_from"
"""The key an event's data gets under fog of war: the sides that may not read it (see :func:`mark_events`)."""


def unseen_units(data: GameData, state: GameState) -> dict[Side, set[str]]:
    """[11.1] For each side, the enemy units on the map it may not inspect now (all of them but the top of
    each enemy stack out of its zones of control and out of the combat being resolved)."""
    unseen: dict[Side, set[str]] = {side: set() for side in SIDES}
    if not state.options.get("fog_of_war", False):
        return unseen
    pos = Position(data, state)
    seen_by = inspected_hexes(pos)
    for hex_, units in pos.occupants.items():
        if len(units) < 2:
            continue
        viewer = other_side(pos.side_of(units[0].id))
        if hex_ not in seen_by[viewer]:
            unseen[viewer] |= {u.id for u in stack_order(state, units)[1:]}
    return unseen


def mark_events(data: GameData, before: GameState, after: GameState, events: Sequence[Event]) -> list[Event]:
    """[11] Under fog of war, give every public event the sides that may not read it (``data["hidden_from"]``).

    A side may not read an event that names (by id in its data, or by name in its text) an enemy unit it may
    not inspect once the action is over, unless that unit stood in the combat being resolved before or after
    the action (11.1: a combat reveals both sides' units; its results are public). Units that left the map
    are not hidden. Without fog of war the events are returned unchanged.
    """
    if not after.options.get("fog_of_war", False):
        return list(events)
    unseen = unseen_units(data, after)
    engaged = {u.id for s in (before, after) for h in engaged_hexes(s) for u in s.units_at(h)}
    patterns = {
        side: [(u, _name_pattern(data.units[u].name)) for u in sorted(ids - engaged) if u in data.units]
        for side, ids in unseen.items()
    }
    marked = []
    for event in events:
        if event.secret_to:
            marked.append(event)
            continue
        named = named_units(data, event.data)
        hidden_from = [
            side for side in SIDES if any(u in named or pattern.search(event.text) for u, pattern in patterns[side])
        ]
        marked.append(Event(event.kind, event.text, {**event.data, HIDDEN_FROM: hidden_from}, event.secret_to))
    return marked


def named_units(data: GameData, value: Any) -> set[str]:
    """The unit ids anywhere in an event's data (values, list items and keys, at any depth)."""
    found: set[str] = set()
    if isinstance(value, str):
        if value in data.units:
            found.add(value)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            found |= named_units(data, key) | named_units(data, item)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            found |= named_units(data, item)
    return found


def _name_pattern(name: str) -> re.Pattern[str]:
    """A counter's name as a whole word ("HQ V" is not found in "HQ VIII", nor "12" in "12:30")."""
    return re.compile(rf"(?<![\w/.]){re.escape(name)}(?![\w/])")
