"""[15] Historical events: the effects the engine can play, each named by a game's events in its data.

A game's ``[[event]]`` entries name their ``effect`` (:data:`engine.vaevictis.data.EVENT_EFFECTS`); this
module keys every rule on the effect, never on an event's id, so a second game reuses an effect under its own
event and a game's own events need their own handlers. The effects are those of Ardennes 1944's events,
described here by the event that uses them there: the German Stosser, Greif, 150 Pz Brigade and US Fuel
Dumps (15.2), the American Roadblocks, Nuts! and Air Supply (15.3). A marker on the map is named by its
event's id (``MapMarker.kind``), as before.

[15.1] Each counter is played once and then removed from the game, except Air Supply, which stays until a 6
is rolled. An event is played during an activation of either side, under the conditions of the event itself:

- Stosser (German activation): an empty hex within 6 hexes of a German unit; 1d6, 4-6 it stays. It closes its
  hex to Allied movement and supply (see :mod:`engine.vaevictis.movement`, :func:`engine.vaevictis.supply.
  blocking_markers`) until an adjacent Allied unit spends 1 AP to remove it or the turn ends.
- Greif (Allied activation): on an activated Allied stack within 6 hexes of a German unit; each of its units
  loses 1 AP at once and the marker is gone (official answer).
- 150 Pz Brigade (German activation): on a German stack within command range of a German HQ, activated or
  about to act (its units join the activation when they act, so it may go on a stack before it moves); each
  time the stack would enter an enemy zone of control it rolls 1d6, and on 5-6 ignores it; a failed roll
  removes the marker, and it goes at the end of the stack's activation anyway (official answer: it may pass
  through several zones as long as the rolls succeed).
- US Fuel Dump x2 (German activation): +1 AP to each unit of an activated German stack; the two markers never
  go to the same stack in the same activation.
- Roadblock x2 (German or Allied activation): an empty hex at most 6 hexes from an Allied unit; no zone of
  control; closes its hex to German movement, supply and retreat until an adjacent German unit spends 1 AP.

Removing a Stosser or a Roadblock (1 AP, from an adjacent hex) is an action of the unit: a unit not yet in
the activation in progress joins it by removing the marker, as it would by moving (3.1, 3.4.1).
- Nuts! (any time, even at the start of a German attack): on an Allied stack; +1 quality to Allied units in
  its hex and the six around it; it stays as long as an Allied unit holds the hex, later arrivals included.
- Air Supply (supply phase of a clear-weather turn): on an Allied stack; that stack and every Allied unit
  with a line of supply of at most 2 hexes to it are supplied; removed from the game on a 6.

Every ``play``/``remove_marker`` function changes the state it is given (the caller passes a copy) and
returns the events; a refusal raises :class:`IllegalActionError` naming the rule, and leaves the state as
it was. Arguments are ``{"hex": "0203"}`` for every event (a hex number as text, or the :data:`Hex` int).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Any

from engine import arguments
from engine.contract import ArgValue, Choice, Event, IllegalActionError, InvalidActionError
from engine.hexgrid import Hex, hex_name
from engine.vaevictis import stratagems
from engine.vaevictis.activation import can_act_now, join
from engine.vaevictis.data import GameData, Side, other_side
from engine.vaevictis.rolls import dice_of, roll
from engine.vaevictis.state import GameState, MapMarker, Position, UnitState
from engine.vaevictis.supply import SupplyNet, command_range

EventId = str
Effect = str

BLOCKS_HEX_ON_ROLL: Effect = "blocks-hex-on-roll"
"""Ardennes 15.2 Stosser: a marker on an empty hex near a friendly unit, kept on 4-6, closing the hex to the
enemy's movement and supply until removed or the turn ends."""
ENEMY_LOSES_AP: Effect = "enemy-stack-loses-ap"
"""Ardennes 15.2 Greif: each unit of an enemy stack moving in this activation loses 1 AP."""
ZOC_INFILTRATION: Effect = "zoc-infiltration"
"""Ardennes 15.2 150 Pz Brigade: an activated stack may ignore enemy zones of control on 5-6."""
STACK_GAINS_AP: Effect = "stack-gains-ap"
"""Ardennes 15.2 US Fuel Dump: +1 AP to each unit of an activated friendly stack."""
BLOCKS_HEX: Effect = "blocks-hex"
"""Ardennes 15.3 Roadblock: a marker closing an empty hex to the enemy's movement, supply and retreat."""
QUALITY_AURA: Effect = "quality-aura"
"""Ardennes 15.3 Nuts!: +1 quality to friendly units in the marker's hex and the six around."""
SUPPLY_DROP: Effect = "supply-drop"
"""Ardennes 15.3 Air Supply: supplies a stack and the units near it in a clear-weather supply phase."""

EVENT_RANGE = 6
"""[15.2, 15.3] "Six hexes or less" (official answer): the reach of Stosser, Greif and the Roadblock."""
AIR_SUPPLY_REACH = 2
"""[15.3] Units with a line of supply of at most 2 hexes to the Air Supply stack are supplied."""
BLOCK_STAYS_ON = (4, 5, 6)
BRIGADE_PASSES = (5, 6)
AIR_SUPPLY_SHOT_DOWN = 6

_BRIGADE_FLAG = "pz150"
_FUEL_FLAG = "fuel_dump"
_AIR_FLAG = "air_supply_played"

# --- Shared checks ---------------------------------------------------------------------------------------


def _name(data: GameData, event_id: EventId) -> str:
    return data.events[event_id].name if event_id in data.events else event_id


def effect_of(data: GameData, event_id: EventId) -> Effect:
    """The effect of one of the game's events ("" for an unknown event or one without a handler)."""
    definition = data.events.get(event_id)
    return definition.effect if definition is not None else ""


def _rule(data: GameData, event_id: EventId) -> str:
    """The rule number of an event, as its data gives it."""
    definition = data.events.get(event_id)
    return definition.rule if definition is not None and definition.rule else "15"


def _event_with(data: GameData, effect: Effect) -> EventId:
    """The id of the game's event with this effect (the first in id order, if several)."""
    ids = sorted(data.events_with_effect(effect))
    return ids[0] if ids else effect


def _activation_key(state: GameState) -> list[int]:
    """Which activation sequence of which turn is in progress: per-activation facts are keyed by it."""
    return [state.turn, state.sequences_this_turn]


def _units_of(pos: Position, side: Side) -> list[UnitState]:
    return [u for u in pos.state.on_map() if pos.side_of(u.id) == side]


def _within_range_of(pos: Position, hex_: Hex, side: Side, reach: int = EVENT_RANGE) -> bool:
    """[15.2, 15.3] Whether a unit of ``side`` stands at most ``reach`` hexes from ``hex_``."""
    return hex_ in _range_area(pos, side, reach)


def _range_area(pos: Position, side: Side, reach: int) -> frozenset[Hex]:
    """Every hex within ``reach`` of a unit of ``side``, computed once per position (the search for an
    event's targets asks about every hex of the map)."""
    key = ("event-range", side, reach)
    if key not in pos.memo:
        grid = pos.data.map.grid
        pos.memo[key] = frozenset(
            h for u in _units_of(pos, side) if u.hex is not None for h in grid.within(u.hex, reach)
        )
    area: frozenset[Hex] = pos.memo[key]
    return area


def _is_empty(pos: Position, hex_: Hex) -> bool:
    """No unit of either side, and no Roadblock, Stosser or Nuts! marker already there."""
    key = ("hex-takers",)
    if key not in pos.memo:
        pos.memo[key] = pos.data.events_with_effect(BLOCKS_HEX_ON_ROLL, BLOCKS_HEX, QUALITY_AURA)
    taken: frozenset[str] = pos.memo[key]
    return not pos.units_at(hex_) and not any(m.kind in taken for m in pos.state.markers_at(hex_))


def _active_stack(state: GameState, side: Side, hex_: Hex) -> list[UnitState]:
    """The units of ``side`` in ``hex_`` that belong to the activation in progress."""
    activation = state.activation
    if activation is None or activation.side != side:
        return []
    return [state.units[u] for u in activation.units if state.units[u].on_map and state.units[u].hex == hex_]


def _stack_that_may_act(data: GameData, state: GameState, side: Side, hex_: Hex) -> list[UnitState]:
    """[15.2] The units of ``side`` in ``hex_`` that are in the activation in progress or may join it now
    (the 150 Pz Brigade goes on a stack before it acts: its units join the activation when they act)."""
    activation = state.activation
    if activation is None or activation.side != side:
        return []
    return [
        unit
        for unit in state.units.values()
        if unit.on_map and unit.hex == hex_ and data.side_of(unit.id) == side and can_act_now(state, data, unit)
    ]


def _check_available(data: GameData, state: GameState, side: Side, event_id: EventId) -> str:
    if event_id not in data.events:
        raise InvalidActionError(f"there is no event {event_id!r} in this game")
    definition = data.events[event_id]
    rule = _rule(data, event_id)
    if not definition.effect:
        raise IllegalActionError(f"{definition.name} has no rules in this engine yet", rule)
    if definition.side != side:
        raise IllegalActionError(f"{definition.name} is a {definition.side} event", rule)
    if state.events_left.get(event_id, 0) <= 0:
        raise IllegalActionError(f"{definition.name} has already been played and removed from the game", "15.1")
    return rule


def _spend(data: GameData, state: GameState, event_id: EventId) -> None:
    """[15.1] The counter is removed from the game once played."""
    state.events_left[event_id] = state.events_left.get(event_id, 0) - 1


def _check_activation_of(state: GameState, side: Side, what: str, rule: str) -> None:
    if state.activation is None or state.activation.side != side:
        raise IllegalActionError(f"{what} is played during a {side} activation", rule)
    if state.pending:
        raise IllegalActionError(f"{what} cannot be played in the middle of a combat", rule)


# --- What may be played now ------------------------------------------------------------------------------


def playable(data: GameData, state: GameState, side: Side) -> list[Choice]:
    """[15] The events ``side`` may play right now, each with the hexes it may go to.

    Choices are ``Choice("play_event", {"event": id, "hex": "0203"}, label)``. They depend on the phase and on
    whose activation is in progress: Greif is played during an Allied activation, the Roadblock also during a
    German one, Nuts! at any time (a combat in progress included), Air Supply in the supply phase.
    """
    choices: list[Choice] = []
    for event_id in sorted(data.events):
        definition = data.events[event_id]
        if definition.side != side or state.events_left.get(event_id, 0) <= 0:
            continue
        for hex_ in _targets(data, state, event_id):
            args: dict[str, ArgValue] = {"event": event_id, "hex": hex_name(hex_)}
            choices.append(Choice("play_event", args, f"{definition.name} at {hex_name(hex_)}"))
    return choices + stratagems.choices(data, state, side)  # [Alsace 15] the stratagems of their own module


def attack_reactions(data: GameData, state: GameState, side: Side) -> list[Choice]:
    """[15.3] The events ``side`` may play at the start of an enemy attack: Nuts! (its window must exist
    whether or not the defender has supports to add)."""
    choices: list[Choice] = []
    for event_id in sorted(data.events_with_effect(QUALITY_AURA)):
        definition = data.events[event_id]
        if definition.side != side or state.events_left.get(event_id, 0) <= 0:
            continue
        choices += [
            Choice("play_event", {"event": event_id, "hex": hex_name(hex_)}, f"{definition.name} at {hex_name(hex_)}")
            for hex_ in _targets(data, state, event_id)
        ]
    return choices


def _targets(data: GameData, state: GameState, event_id: EventId) -> list[Hex]:
    """The hexes an event may go to now (empty when it cannot be played now)."""
    try:
        _check_timing(data, state, event_id)
    except IllegalActionError:
        return []
    pos = Position(data, state)
    candidates: list[Hex] = []
    effect = effect_of(data, event_id)
    if effect in (BLOCKS_HEX_ON_ROLL, BLOCKS_HEX):
        candidates = sorted(_range_area(pos, data.events[event_id].side, EVENT_RANGE))
    elif effect in (ENEMY_LOSES_AP, STACK_GAINS_AP):
        assert state.activation is not None
        hexes = (state.units[u].hex for u in state.activation.units if state.units[u].on_map)
        candidates = sorted({h for h in hexes if h is not None})
    elif effect == ZOC_INFILTRATION:
        own = data.events[event_id].side
        candidates = sorted({u.hex for u in _units_of(pos, own) if u.hex is not None})
    else:  # Nuts!, Air Supply: any hex holding Allied units
        candidates = sorted({u.hex for u in _units_of(pos, data.events[event_id].side) if u.hex is not None})
    legal: list[Hex] = []
    for hex_ in candidates:
        try:
            _check_target(data, state, pos, event_id, hex_)
        except IllegalActionError:
            continue
        legal.append(hex_)
    return legal


def _check_timing(data: GameData, state: GameState, event_id: EventId) -> None:
    """Raise unless the phase and the activation in progress allow the event now."""
    rule = _rule(data, event_id)
    name = _name(data, event_id)
    effect = effect_of(data, event_id)
    own = data.events[event_id].side
    if state.result is not None:
        raise IllegalActionError("the game is over", data.rule("17"))
    if effect in (BLOCKS_HEX_ON_ROLL, ZOC_INFILTRATION, STACK_GAINS_AP):
        _check_activation_of(state, own, name, rule)
    elif effect == ENEMY_LOSES_AP:
        _check_activation_of(state, other_side(own), f"{name} (during an American stack's movement)", rule)
    elif effect == BLOCKS_HEX:
        if state.activation is None:
            raise IllegalActionError(f"{name} is played during a German movement or an Allied activation", rule)
        if state.pending:
            raise IllegalActionError(f"{name} cannot be played in the middle of a combat", rule)
    elif effect == QUALITY_AURA:
        return  # Nuts! may be played whenever the Allies like, a German attack about to start included
    elif effect == SUPPLY_DROP:
        if state.phase != "supply":
            raise IllegalActionError(f"{name} is placed during the supply phase", rule)
        if not is_clear_weather(data, state):
            raise IllegalActionError(f"{name} needs clear weather (turns 5 and 6)", rule)
        if state.flags.get(_AIR_FLAG) == state.turn:
            raise IllegalActionError(f"{name} has already been played this turn", rule)
    else:
        raise IllegalActionError(f"{name} has no rules in this engine yet", rule)


def _check_target(data: GameData, state: GameState, pos: Position, event_id: EventId, hex_: Hex) -> None:
    """Raise unless ``hex_`` is a legal place for the event now (timing already checked)."""
    rule = _rule(data, event_id)
    name = _name(data, event_id)
    where = hex_name(hex_)
    effect = effect_of(data, event_id)
    own = data.events[event_id].side
    if effect in (BLOCKS_HEX_ON_ROLL, BLOCKS_HEX):
        if not _is_empty(pos, hex_):
            raise IllegalActionError(f"{name} goes on an empty hex; {where} is not empty", rule)
        if not _within_range_of(pos, hex_, own):
            who = "a German" if own == "german" else "an American"
            raise IllegalActionError(f"{where} is more than {EVENT_RANGE} hexes from {who} unit", rule)
        return
    if effect == ENEMY_LOSES_AP:
        stack = _active_stack(state, other_side(own), hex_)
        if not stack:
            raise IllegalActionError(
                f"{name} goes on an American stack moving in this activation; none at {where}", rule
            )
        if not any(u.action_points > 0 for u in stack):
            raise IllegalActionError(f"the American stack at {where} has no AP left to lose", rule)
        if not _within_range_of(pos, hex_, own):
            raise IllegalActionError(f"{where} is more than {EVENT_RANGE} hexes from a German unit", rule)
        return
    if effect == ZOC_INFILTRATION:
        stack = _stack_that_may_act(data, state, own, hex_)
        if not stack:
            raise IllegalActionError(
                f"{name} goes on a German stack that is activated or may act in this activation; none at {where}",
                rule,
            )
        if _brigade_record(state) is not None:
            raise IllegalActionError(f"{name} is already on a stack", rule)  # pragma: no cover - one counter
        if not _in_hq_command_range(pos, hex_, own):
            raise IllegalActionError(f"{where} is not within command range of a German HQ", rule)
        return
    if effect == STACK_GAINS_AP:
        stack = _active_stack(state, own, hex_)
        if not stack:
            raise IllegalActionError(f"{name} goes on a German stack activated now; none at {where}", rule)
        fuelled = set(_fuelled_units(state))
        if any(u.id in fuelled for u in stack):
            raise IllegalActionError(
                f"the two {name} markers may not go to the same stack in the same activation", rule
            )
        return
    # Nuts!, Air Supply
    allied = [u for u in pos.units_at(hex_) if pos.side_of(u.id) == own]
    if not allied:
        raise IllegalActionError(f"{name} goes on an American stack; there is none at {where}", rule)
    if effect == QUALITY_AURA and any(m.kind == event_id for m in state.markers):  # pragma: no cover - one counter
        raise IllegalActionError(f"{name} is already on the map", rule)


def _in_hq_command_range(pos: Position, hex_: Hex, side: Side) -> bool:
    """[8.1, 15.2] Whether a line of command (no enemy-held hex) of at most the command range joins an HQ."""
    data = pos.data
    reach = command_range(data, side)
    enemy = {h for h, units in pos.occupants.items() if pos.side_of(units[0].id) != side}
    hqs = {u.hex for u in _units_of(pos, side) if data.units[u.id].is_hq and u.hex is not None}
    if hex_ in hqs:
        return True
    seen = {hex_: 0}
    queue = deque([hex_])
    while queue:
        here = queue.popleft()
        if seen[here] == reach:
            continue
        for n in data.map.grid.neighbours(here):
            if n in seen:
                continue
            if n in hqs:
                return True
            if n in enemy:
                continue
            seen[n] = seen[here] + 1
            queue.append(n)
    return False


# --- Playing an event ------------------------------------------------------------------------------------


def play(data: GameData, state: GameState, side: Side, event_id: EventId, args: Mapping[str, Any]) -> list[Event]:
    """[15] Play one of ``side``'s event markers on the hex ``args["hex"]``.

    :raises InvalidActionError: for an unknown event or a missing or unreadable hex.
    :raises IllegalActionError: when the event is spent, out of its moment, or the hex is not allowed; the
        state is then unchanged.
    """
    if effect_of(data, event_id) in stratagems.OPERATIONS_EFFECTS:
        spot = arguments.hex_number(args, "hex", data.map.grid) if arguments.optional_text(args, "hex") else None
        return stratagems.play(data, state, side, event_id, spot)
    rule = _check_available(data, state, side, event_id)
    hex_ = arguments.hex_number(args, "hex", data.map.grid)
    _check_timing(data, state, event_id)
    pos = Position(data, state)
    _check_target(data, state, pos, event_id, hex_)
    base = {"event": event_id, "hex": hex_, "side": side, "rule": rule}
    effect = effect_of(data, event_id)

    if effect == SUPPLY_DROP:
        return _play_air_supply(data, state, hex_, base)
    _spend(data, state, event_id)
    if effect in (BLOCKS_HEX_ON_ROLL, BLOCKS_HEX):
        return _play_block(data, state, side, event_id, hex_, base)
    if effect == ENEMY_LOSES_AP:
        return _play_enemy_loses_ap(data, state, side, event_id, hex_, base)
    if effect == ZOC_INFILTRATION:
        return _play_zoc_infiltration(data, state, side, event_id, hex_, base)
    if effect == STACK_GAINS_AP:
        return _play_stack_gains_ap(data, state, side, event_id, hex_, base)
    # Nuts!
    state.markers.append(MapMarker(event_id, hex_, side, state.turn))
    return [
        Event(
            "event",
            f"Allied plays {_name(data, event_id)} at {hex_name(hex_)}: +1 quality to American units there and in "
            "the six hexes around.",
            base,
        )
    ]


def _play_block(
    data: GameData, state: GameState, side: Side, event_id: EventId, hex_: Hex, base: dict[str, Any]
) -> list[Event]:
    """[15.2, 15.3] A marker that blocks the hex (Stosser, Roadblock); one kept only on a roll may be removed
    at once."""
    name, where = _name(data, event_id), hex_name(hex_)
    events = [Event("event", f"{data.side_name(side)} plays {name} at {where}.", base)]
    if effect_of(data, event_id) == BLOCKS_HEX_ON_ROLL:
        die, rolled = roll(state, f"{name} at {where} (stays on 4-6)", str(base["rule"]))
        events.append(rolled)
        if die not in BLOCK_STAYS_ON:
            events.append(Event("event-removed", f"{name} fails: the marker is removed.", {**base, "die": die}))
            return events
    state.markers.append(MapMarker(event_id, hex_, side, state.turn))
    events.append(Event("marker", f"{name} marker placed at {where}.", base))
    return events


def _play_enemy_loses_ap(
    data: GameData, state: GameState, side: Side, event_id: EventId, hex_: Hex, base: dict[str, Any]
) -> list[Event]:
    """[15.2] Each unit of the enemy's active stack in the hex loses 1 AP; the marker goes."""
    stack = _active_stack(state, other_side(side), hex_)
    for unit in stack:
        unit.action_points = max(0, unit.action_points - 1)
    return _played_on_stack(data, event_id, stack, hex_, "each loses 1 AP, and the marker is removed.", base)


def _play_zoc_infiltration(
    data: GameData, state: GameState, side: Side, event_id: EventId, hex_: Hex, base: dict[str, Any]
) -> list[Event]:
    """[15.2] The stack in the hex may, on 5-6, ignore an enemy zone of control during this activation."""
    stack = _stack_that_may_act(data, state, side, hex_)
    state.flags[_BRIGADE_FLAG] = {"units": [u.id for u in stack], "activation": _activation_key(state)}
    effect = "on 5-6 the stack may ignore an enemy zone of control."
    return _played_on_stack(data, event_id, stack, hex_, effect, base)


def _play_stack_gains_ap(
    data: GameData, state: GameState, side: Side, event_id: EventId, hex_: Hex, base: dict[str, Any]
) -> list[Event]:
    """[15.2] Each unit of the side's active stack in the hex gains 1 AP, remembered for this activation."""
    stack = _active_stack(state, side, hex_)
    for unit in stack:
        unit.action_points += 1
    record = state.flags.get(_FUEL_FLAG)
    if not isinstance(record, dict) or record.get("activation") != _activation_key(state):
        record = {"activation": _activation_key(state), "units": []}
    record["units"] = [*record["units"], *(u.id for u in stack)]
    state.flags[_FUEL_FLAG] = record
    return _played_on_stack(data, event_id, stack, hex_, "each gains 1 AP.", base)


def _played_on_stack(
    data: GameData, event_id: EventId, stack: list[UnitState], hex_: Hex, effect: str, base: dict[str, Any]
) -> list[Event]:
    """The event of a German stratagem played on a stack: its units, its hex and what it does to them."""
    names = ", ".join(data.units[u.id].name for u in stack)
    text = f"German plays {_name(data, event_id)} on {names} at {hex_name(hex_)}: {effect}"
    return [Event("event", text, {**base, "units": [u.id for u in stack]})]


def _play_air_supply(data: GameData, state: GameState, hex_: Hex, base: dict[str, Any]) -> list[Event]:
    """[15.3] Place Air Supply for this turn's supply check, then roll: on a 6 it leaves the game."""
    event_id: EventId = base["event"]
    name = _name(data, event_id)
    state.markers.append(MapMarker(event_id, hex_, base["side"], state.turn))
    state.flags[_AIR_FLAG] = state.turn
    events = [Event("event", f"Allied plays {name} at {hex_name(hex_)}.", base)]
    die, rolled = roll(state, f"{name}: German anti-aircraft (removed on a 6)", "15.3")
    events.append(rolled)
    if die == AIR_SUPPLY_SHOT_DOWN:
        _spend(data, state, event_id)
        events.append(Event("event-removed", f"{name} is shot down: removed from the game.", {**base, "die": die}))
    else:
        events.append(Event("event", f"{name} may be played again next turn if the weather is clear.", base))
    return events


# --- Removing markers ------------------------------------------------------------------------------------


def removal_choices(data: GameData, state: GameState, side: Side) -> list[Choice]:
    """[15.2, 15.3] The enemy Stosser or Roadblock markers ``side``'s units may remove (1 AP) now: its
    activated units with an AP left, and the units that may join the activation by removing one."""
    activation = state.activation
    if activation is None or activation.side != side or state.pending:
        return []
    kinds = removable_kinds(data, side)
    grid = data.map.grid
    choices: list[Choice] = []
    for marker in state.markers:
        if marker.kind not in kinds:
            continue
        for unit in state.units.values():
            if (
                unit.on_map
                and unit.hex is not None
                and grid.are_adjacent(unit.hex, marker.hex)
                and data.side_of(unit.id) == side
                and (unit.action_points >= 1 if unit.id in activation.units else can_act_now(state, data, unit))
            ):
                unit_id = unit.id
                choices.append(
                    Choice(
                        "remove_marker",
                        {"unit": unit_id, "hex": hex_name(marker.hex)},
                        f"{data.units[unit_id].name} removes the {_name(data, marker.kind)}"
                        f" at {hex_name(marker.hex)} (1 AP)",
                    )
                )
    return choices


def removable_kinds(data: GameData, side: Side) -> frozenset[EventId]:
    """The enemy's hex-blocking markers ``side`` may remove (15.2, 15.3): its events of those effects."""
    return frozenset(
        e
        for e in data.events_with_effect(BLOCKS_HEX_ON_ROLL, BLOCKS_HEX, *stratagems.ENTER_ON_REMOVAL)
        if data.events[e].side == other_side(side)
    )


def remove_marker(data: GameData, state: GameState, side: Side, unit_id: str, hex_: Hex) -> list[Event]:
    """[15.2, 15.3] A unit adjacent to an enemy Stosser (Allied) or Roadblock (German) marker spends 1 AP to
    remove it, during an activation of its side. Removing it is one of the unit's actions (3.4.1): a unit not
    yet in the activation joins it first, as when it moves (3.1; its C3I check included, 9.4).

    :raises IllegalActionError: if there is no such marker, no activation of ``side`` is in progress, the
        unit is not adjacent, may not join the activation (with the rule that forbids it), or has no AP left.
    """
    kinds = removable_kinds(data, side)
    kind = next((m.kind for m in state.markers_at(hex_) if m.kind in kinds), min(kinds, default=""))
    rule = _rule(data, kind)
    name = _name(data, kind)
    if unit_id not in state.units or unit_id not in data.units:
        raise InvalidActionError(f"there is no unit {unit_id!r}")
    unit = state.units[unit_id]
    unit_name = data.units[unit_id].name
    if data.side_of(unit_id) != side:
        raise IllegalActionError(f"{unit_name} is not one of your units", rule)
    markers = state.markers_at(hex_, kind)
    if not markers:
        raise IllegalActionError(f"there is no {name} marker at {hex_name(hex_)}", rule)
    activation = state.activation
    if activation is None or activation.side != side:
        raise IllegalActionError(f"the {name} is removed by a unit acting in one of your activations", "3.1")
    if state.pending:
        raise IllegalActionError(f"finish the combat before removing the {name}", rule)
    if not unit.on_map or unit.hex is None or not data.map.grid.are_adjacent(unit.hex, hex_):
        raise IllegalActionError(f"{unit_name} must be adjacent to the {name} to remove it", rule)
    removed: list[Event] = []
    if unit_id not in activation.units:
        dice = dice_of(state)
        removed += join(state, data, unit, dice)  # raises with the rule when the unit may not join now
        state.rolls_made = dice.rolls_made
    if unit.action_points < 1:
        raise IllegalActionError(f"{unit_name} has no AP left: removing the {name} costs 1 AP", rule)
    unit.action_points -= 1
    state.markers.remove(markers[0])
    removed += [
        Event(
            "event-removed",
            f"{unit_name} spends 1 AP and removes the {name} at {hex_name(hex_)}.",
            {"event": kind, "hex": hex_, "unit": unit_id, "rule": rule},
        )
    ]
    if effect_of(data, kind) in stratagems.ENTER_ON_REMOVAL and not state.units_at(hex_):
        # [Alsace 15.2 errata] The unit that removes it enters its hex for free.
        unit.hex = hex_
        unit.improved_position = False
        removed.append(Event("move", f"{unit_name} enters {hex_name(hex_)} for free.", {"unit": unit_id, "to": hex_}))
    return removed


# --- 150 Pz Brigade and Fuel Dumps during an activation --------------------------------------------------


def _brigade_record(state: GameState) -> dict[str, Any] | None:
    record = state.flags.get(_BRIGADE_FLAG)
    if not isinstance(record, dict) or record.get("activation") != _activation_key(state):
        return None
    return record


def brigade_150_units(state: GameState) -> list[str]:
    """[15.2] The units carrying the 150 Pz Brigade marker in the activation in progress (else empty)."""
    record = _brigade_record(state)
    return list(record["units"]) if record else []


def brigade_150_allows(data: GameData, state: GameState, unit_ids: list[str]) -> tuple[bool, list[Event]]:
    """[15.2] Roll for a stack carrying the 150 Pz Brigade marker that would enter an enemy zone of control.

    Call it once per enemy zone the stack's move would enter. On 5-6 the move may ignore that zone
    (``movement.legal_destinations(..., ignore_zoc=True)``) and the marker goes on with ``unit_ids`` (part of
    the marked stack may move on alone); on 1-4 the marker is removed and the stack stops in zones as usual.
    Returns ``(False, [])`` without a roll when the units do not all carry the marker.
    """
    carriers = set(brigade_150_units(state))
    if not unit_ids or not carriers or not set(unit_ids) <= carriers:
        return False, []
    brigade = _event_with(data, ZOC_INFILTRATION)
    name = _name(data, brigade)
    die, rolled = roll(state, f"{name}: ignore the enemy zone of control on 5-6", "15.2")
    if die in BRIGADE_PASSES:
        record = _brigade_record(state)
        assert record is not None
        record["units"] = list(unit_ids)  # the marker goes on with the units that passed
        return True, [
            rolled,
            Event("event", f"{name}: the stack passes through the enemy zone of control.", {"die": die}),
        ]
    state.flags.pop(_BRIGADE_FLAG, None)
    return False, [
        rolled,
        Event(
            "event-removed",
            f"{name} fails: the marker is removed and the stack stops in enemy zones of control.",
            {"event": brigade, "die": die, "rule": "15.2"},
        ),
    ]


def _fuelled_units(state: GameState) -> list[str]:
    record = state.flags.get(_FUEL_FLAG)
    if not isinstance(record, dict) or record.get("activation") != _activation_key(state):
        return []
    return list(record["units"])


def end_of_activation(data: GameData, state: GameState) -> list[Event]:
    """[15.2] At the end of an activation sequence: the 150 Pz Brigade marker goes, Fuel Dump records clear.

    Call it before ``state.activation`` is cleared (or at any time after: the records are per activation).
    """
    events: list[Event] = []
    if _brigade_record(state) is not None:
        brigade = _event_with(data, ZOC_INFILTRATION)
        events.append(
            Event(
                "event-removed",
                f"{_name(data, brigade)} is removed at the end of the stack's activation.",
                {"event": brigade, "rule": "15.2"},
            )
        )
    state.flags.pop(_BRIGADE_FLAG, None)
    state.flags.pop(_FUEL_FLAG, None)
    return events


# --- Nuts! -----------------------------------------------------------------------------------------------


def nuts_quality_bonus(data: GameData, state: GameState, hex_: Hex) -> int:
    """[15.3] +1 quality for Allied units in ``hex_`` when the Nuts! marker is there or in one of the six
    hexes around (rivers do not matter). The caller applies it to Allied units only."""
    grid = data.map.grid
    auras = data.events_with_effect(QUALITY_AURA)
    for marker in state.markers:
        if marker.kind in auras and (marker.hex == hex_ or grid.are_adjacent(marker.hex, hex_)):
            return 1
    return 0


def tidy_markers(data: GameData, state: GameState) -> list[Event]:
    """[15.3] Nuts! stays only while an Allied unit holds its hex; call after moves, retreats and losses."""
    pos = Position(data, state)
    events: list[Event] = []
    kept: list[MapMarker] = []
    auras = data.events_with_effect(QUALITY_AURA)
    for marker in state.markers:
        if marker.kind in auras and not any(pos.side_of(u.id) == marker.side for u in pos.units_at(marker.hex)):
            events.append(
                Event(
                    "event-removed",
                    f"{_name(data, marker.kind)} is removed: no American unit holds {hex_name(marker.hex)} any more.",
                    {"event": marker.kind, "hex": marker.hex, "rule": "15.3"},
                )
            )
            continue
        kept.append(marker)
    state.markers = kept
    return events


# --- Air Supply ------------------------------------------------------------------------------------------


def is_clear_weather(data: GameData, state: GameState) -> bool:
    """[14, 15.3] Whether the current turn's weather is clear (turns 5 and 6 in Ardennes 1944)."""
    return 1 <= state.turn <= len(data.turns) and data.turns[state.turn - 1].weather == "clear"


def air_supplied_units(data: GameData, state: GameState) -> set[str]:
    """[15.3] The Allied units supplied by air this turn: those in the Air Supply stack's hex and every
    Allied unit whose line of supply (10.1) to that hex is at most 2 hexes long.

    Pass the result to :func:`engine.vaevictis.turn.supply_phase` (``air_supplied``).
    """
    drop_kinds = data.events_with_effect(SUPPLY_DROP)
    drops = [m.hex for m in state.markers if m.kind in drop_kinds and m.turn_placed == state.turn]
    if not drops:
        return set()
    pos = Position(data, state)
    net = SupplyNet(pos, "allied")
    game_map = data.map
    supplied: set[str] = set()
    allied: dict[Hex, list[str]] = {}
    for unit in _units_of(pos, "allied"):
        assert unit.hex is not None
        allied.setdefault(unit.hex, []).append(unit.id)
    for drop in drops:
        seen = {drop: 0}
        queue = deque([drop])
        while queue:
            here = queue.popleft()
            supplied.update(allied.get(here, []))
            if seen[here] == AIR_SUPPLY_REACH:
                continue
            for n in game_map.grid.neighbours(here):
                if n in seen or n in net.supply_closed:
                    continue
                if game_map.river_between(here, n) is not None and not game_map.is_bridged(here, n):
                    continue
                seen[n] = seen[here] + 1
                queue.append(n)
    return supplied


# --- End of the turn -------------------------------------------------------------------------------------


def end_of_turn(data: GameData, state: GameState) -> list[Event]:
    """[15.2, 15.3] Stosser disappears at the end of the turn, and so does this turn's Air Supply marker
    (the counter itself stays playable unless it was shot down). Roadblocks and Nuts! stay."""
    events: list[Event] = []
    kept: list[MapMarker] = []
    passing = data.events_with_effect(BLOCKS_HEX_ON_ROLL, SUPPLY_DROP)
    for marker in state.markers:
        if marker.kind in passing:
            events.append(
                Event(
                    "event-removed",
                    f"{_name(data, marker.kind)} at {hex_name(marker.hex)} is removed at the end of the turn.",
                    {"event": marker.kind, "hex": marker.hex, "rule": _rule(data, marker.kind)},
                )
            )
            continue
        kept.append(marker)
    state.markers = kept
    state.flags.pop(_BRIGADE_FLAG, None)
    state.flags.pop(_FUEL_FLAG, None)
    return events + stratagems.end_of_turn(data, state)
