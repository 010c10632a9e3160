"""[Alsace 15] Stratagems: the effects of Alsace 1944's ten event counters, each named by its ``effect``.

The module keys every rule on an event's ``effect`` and reads its figures from the event's ``params``
(docs/scenario-format.md); no event id or unit of a particular game appears here.

The initiative-phase stratagems (2.1 step 3) are played in :mod:`engine.vaevictis.initiative_stratagems`.

During the operations phase (the other effects):

- ``ap-toll-on-road`` (Bottleneck): during any activation, on a road intersection (two roads or more) or a hex
  beside a bridge that an enemy armoured or mechanised unit has moved through this turn; until the end of the
  turn, an enemy mechanised-class unit entering the hex pays ``ap`` AP more (6.1).
- ``blocks-armor`` (Antitank Ditch): during any activation, on any empty hex units may enter (15.2 sets no
  other condition; the choices offered are the hexes beside enemy armoured units, where it matters now, and any
  other hex may be named); it closes the hex to enemy armoured units; one enemy unit adjacent spends 1 AP to
  remove it and enters the hex for free.
- ``blocks-hex-in-town`` (Alarm Battalion): at any time outside a combat, on an empty city or village hex no
  enemy unit has entered this game; it closes the hex to enemy movement, has no zone of control, and one enemy
  unit adjacent spends 1 AP to remove it and enters the hex for free.
- ``no-reactivation`` (Lack of SS Elan): at the moment an enemy action would reactivate (3.5) a unit of the
  ``formations`` named, the action is held and the side is asked; played, the action is dropped and those
  formations may not be reactivated for the rest of the turn; declined, the action goes ahead.
- ``cancels-bridge-halving`` (Bridge captured by the FFI): the side's next attack of this activation is not
  halved for attacking across a bridge.
- ``raid-on-fort`` (Raid): on a hex of the ``overlay`` (the forts) holding only one enemy static garrison, at
  most ``reach`` hexes from a unit of the side; a face-down garrison is flipped first; at strength 0, or on a
  roll in ``succeeds_on``, the garrison is destroyed and the commando (the set-up's ``[raid_commando]``
  counter) takes the hex until the end of the turn; otherwise the raid fails and the garrison stays revealed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from engine.contract import Choice, Event, IllegalActionError, Prompt
from engine.hexgrid import Hex, hex_name
from engine.vaevictis import control, garrisons
from engine.vaevictis.data import GameData, Side, other_side
from engine.vaevictis.pending_records import ReactionRecord, pending_records, push
from engine.vaevictis.rolls import roll
from engine.vaevictis.state import GameState, MapMarker, Position
from engine.vaevictis.supply import no_entry_hexes
from engine.vaevictis.trucks import motorized_units

COMBINED = "initiative-combined-activation"
SUCCESSIVE = "initiative-successive-activations"
INITIATIVE_EFFECTS = (COMBINED, SUCCESSIVE)
AP_TOLL = "ap-toll-on-road"
BLOCKS_ARMOR = "blocks-armor"
BLOCKS_TOWN = control.CONTROL_EFFECTS[0]  # "blocks-hex-in-town": its hexes need control (15.2)
NO_REACTIVATION = "no-reactivation"
BRIDGE = "cancels-bridge-halving"
RAID = "raid-on-fort"
MARKER_EFFECTS = (AP_TOLL, BLOCKS_ARMOR, BLOCKS_TOWN)
"""Effects that put a marker on the map (removed at the end of the turn for the toll, else by the enemy)."""
ENTER_ON_REMOVAL = (BLOCKS_ARMOR, BLOCKS_TOWN)
"""[15.2 errata] The enemy unit that pays 1 AP to remove the marker enters its hex for free."""
OPERATIONS_EFFECTS = (AP_TOLL, BLOCKS_ARMOR, BLOCKS_TOWN, NO_REACTIVATION, BRIDGE, RAID)


def params_of(data: GameData, event_id: str) -> Mapping[str, Any]:
    return data.events[event_id].params


def counters_in_hand(data: GameData, state: GameState, side: Side, *effects: str) -> list[str]:
    """The side's unplayed counters with one of these effects, in id order."""
    return sorted(
        e for e in data.events_with_effect(*effects) if data.events[e].side == side and state.events_left.get(e, 0) > 0
    )


def spend(state: GameState, event_id: str) -> None:
    state.events_left[event_id] = state.events_left.get(event_id, 0) - 1


# --- Facts the operations-phase stratagems read -------------------------------------------------------------

PASSED = "mechanised_passed"
"""Per-turn flag: hexes an armoured or mechanised unit has moved through this turn, by side."""
NO_REACTIVATION_FLAG = "no_reactivation"
"""Per-turn flag: the formations whose units may not be reactivated (3.5) for the rest of the turn."""
BRIDGE_FLAG = "bridge_captured"
"""Per-turn flag: ``{"side", "sequence", "target"}``: the side whose next attack in that activation sequence
is not halved across a bridge, and that attack's target once declared."""


def note_passage(data: GameData, state: GameState, side: Side, unit_ids: list[str], path: tuple[Hex, ...]) -> None:
    """Record this turn's hexes crossed by a side's armoured or mechanised units (15.2 Bottleneck), in a game
    with that stratagem. The hexes a side has entered this game (15.2 Alarm Battalion: "through which no
    French unit has passed") are :mod:`engine.vaevictis.control`'s record."""
    if not data.events_with_effect(AP_TOLL):
        return
    motorized = motorized_units(data, state)  # [17] a trucked battalion moves as a mechanised unit
    if any(data.units[u].is_mechanized or u in motorized for u in unit_ids):
        passed = state.flags.setdefault(PASSED, {}).setdefault(side, [])
        passed.extend(h for h in path if h not in passed)


def reactivation_barred(data: GameData, state: GameState, unit_id: str) -> bool:
    """[15.3 Lack of SS Elan] Whether the unit's formation may not be reactivated this turn."""
    return data.units[unit_id].formation in state.flags.get(NO_REACTIVATION_FLAG, ())


def bridge_halving_cancelled(state: GameState, side: Side) -> bool:
    """[15.3 Bridge captured by the FFI] Whether ``side``'s attack being declared or resolved now is not
    halved across a bridge: the first attack of the activation after the play, until its combat is over."""
    record = state.flags.get(BRIDGE_FLAG)
    if not isinstance(record, dict) or record["side"] != side or record["sequence"] != state.sequences_this_turn:
        return False
    target = record.get("target")
    if target is None or record.get("declaring"):
        return True
    return any(r["kind"] == "combat" and r["target"] == target for r in pending_records(state))


def attack_declared(state: GameState, side: Side, target: Hex) -> None:
    """The Bridge captured by the FFI serves one combat: the attack being declared (call before it)."""
    record = state.flags.get(BRIDGE_FLAG)
    if bridge_halving_cancelled(state, side) and isinstance(record, dict) and record.get("target") is None:
        record["target"] = target
        record["declaring"] = True


def attack_begun(state: GameState) -> None:
    """The declared attack is under way (its combat pending or over): the FFI's bridge stays with it only."""
    record = state.flags.get(BRIDGE_FLAG)
    if isinstance(record, dict):
        record.pop("declaring", None)


def toll_hexes(data: GameData, state: GameState, side: Side) -> dict[Hex, int]:
    """[15.2 Bottleneck] The hexes where ``side``'s mechanised-class units pay more APs, and how many."""
    tolls = {e: int(params_of(data, e).get("ap", 1)) for e in data.events_with_effect(AP_TOLL)}
    return {m.hex: tolls[m.kind] for m in state.markers if m.kind in tolls and m.side != side}


def blocked_hexes(data: GameData, state: GameState, side: Side, armored: bool) -> dict[Hex, str]:
    """[15.2 Antitank Ditch, Alarm Battalion] The hexes the enemy's markers close to a moving ``side`` group
    (an Antitank Ditch only to a group with armoured units), each with the marker's event id."""
    kinds = set(data.events_with_effect(BLOCKS_TOWN))
    if armored:
        kinds |= data.events_with_effect(BLOCKS_ARMOR)
    return {m.hex: m.kind for m in state.markers if m.kind in kinds and m.side != side}


# --- Playing them -------------------------------------------------------------------------------------------


def _refuse_timing(data: GameData, state: GameState, side: Side, event_id: str) -> None:
    """Raise unless the stratagem may be played now by ``side`` (its counter in hand)."""
    definition = data.events[event_id]
    rule = definition.rule or "15"
    effect = definition.effect
    if state.result is not None:
        raise IllegalActionError("the game is over", "19")
    if definition.side != side:
        raise IllegalActionError(f"{definition.name} is a {definition.side} stratagem", rule)
    if state.events_left.get(event_id, 0) <= 0:
        raise IllegalActionError(f"{definition.name} has already been played and removed from the game", "15.1")
    if state.phase != "operations":
        raise IllegalActionError(f"{definition.name} is played in the operations phase", rule)
    if state.pending:
        raise IllegalActionError(f"{definition.name} cannot be played in the middle of a combat", rule)
    if effect in (AP_TOLL, BLOCKS_ARMOR, RAID, BRIDGE) and state.activation is None:
        raise IllegalActionError(f"{definition.name} is played during an activation", rule)
    if effect in (RAID, BRIDGE) and state.activation is not None and state.activation.side != side:
        raise IllegalActionError(f"{definition.name} is played during one of your activations", rule)


def _check_hex(data: GameData, state: GameState, side: Side, event_id: str, hex_: Hex) -> None:
    """Raise unless ``hex_`` is a legal place for the stratagem now."""
    definition = data.events[event_id]
    rule = definition.rule or "15"
    effect = definition.effect
    pos = Position(data, state)
    where = hex_name(hex_)
    enemy = other_side(side)
    game_map = data.map
    if effect in MARKER_EFFECTS and any(m.hex == hex_ and m.kind in _marker_kinds(data) for m in state.markers):
        raise IllegalActionError(f"there is already a stratagem marker at {where}", rule)
    if effect == AP_TOLL:
        roads = sum(1 for road in game_map.roads if hex_ in road.hexes)
        by_bridge = any(hex_ in side_ for side_ in game_map.bridges)
        if roads < 2 and not by_bridge:
            raise IllegalActionError(f"{where} is neither a road intersection nor beside a bridge", rule)
        if hex_ not in state.flags.get(PASSED, {}).get(enemy, ()):
            raise IllegalActionError(f"no enemy armoured or mechanised unit has moved through {where} yet", rule)
        return
    if effect in (BLOCKS_ARMOR, BLOCKS_TOWN) and pos.units_at(hex_):
        raise IllegalActionError(f"{definition.name} goes on an empty hex; {where} is not empty", rule)
    if effect == BLOCKS_ARMOR:
        # 15.2 sets no other condition: any empty hex a unit may enter (not Switzerland, TEC).
        if hex_ in no_entry_hexes(data):
            raise IllegalActionError(f"{definition.name} goes on a hex units may enter; {where} is closed", rule)
        return
    if effect == BLOCKS_TOWN:
        place = game_map.settlements.get(hex_)
        if place is None or place.kind not in ("city", "village"):
            raise IllegalActionError(f"{definition.name} goes in a city or village; {where} is neither", rule)
        if not control.controls(state, side, enemy, hex_):
            raise IllegalActionError(f"an enemy unit has passed through {where}: it is not under your control", rule)
        return
    if effect == RAID:
        _check_raid_target(data, state, side, event_id, hex_)


def _marker_kinds(data: GameData) -> frozenset[str]:
    return data.events_with_effect(*MARKER_EFFECTS)


def _check_raid_target(data: GameData, state: GameState, side: Side, event_id: str, hex_: Hex) -> None:
    definition = data.events[event_id]
    params = params_of(data, event_id)
    rule = definition.rule or "15"
    where = hex_name(hex_)
    overlay = str(params.get("overlay", "fort"))
    if hex_ not in data.map.overlays.get(overlay, frozenset()):
        raise IllegalActionError(f"a raid is made on a {overlay}; {where} is not one", rule)
    units = state.units_at(hex_)
    if len(units) != 1 or data.side_of(units[0].id) == side or not garrisons.is_static(data, units[0].id):
        raise IllegalActionError(f"the {overlay} at {where} must hold a single enemy static unit", rule)
    reach = int(params.get("reach", 3))
    grid = data.map.grid
    if not any(
        u.hex is not None and grid.distance(u.hex, hex_) <= reach
        for u in state.on_map()
        if data.side_of(u.id) == side and not garrisons.is_static(data, u.id)
    ):
        raise IllegalActionError(f"{where} is not less than {reach + 1} hexes from one of your units", rule)


def choices(data: GameData, state: GameState, side: Side) -> list[Choice]:
    """[15] The stratagems of these effects ``side`` may play now, each with its hex where it has one."""
    out: list[Choice] = []
    for event_id in sorted(data.events_with_effect(*OPERATIONS_EFFECTS)):
        definition = data.events[event_id]
        try:
            _refuse_timing(data, state, side, event_id)
        except IllegalActionError:
            continue
        if definition.effect == NO_REACTIVATION:
            continue  # offered at the moment of a reactivation (reaction_prompt)
        if definition.effect == BRIDGE:
            out.append(Choice("play_event", {"event": event_id}, f"Play {definition.name}"))
            continue
        for hex_ in _candidates(data, state, side, event_id):
            try:
                _check_hex(data, state, side, event_id, hex_)
            except IllegalActionError:
                continue
            out.append(
                Choice(
                    "play_event", {"event": event_id, "hex": hex_name(hex_)}, f"{definition.name} at {hex_name(hex_)}"
                )
            )
    return out


def _candidates(data: GameData, state: GameState, side: Side, event_id: str) -> list[Hex]:
    effect = data.events[event_id].effect
    enemy = other_side(side)
    if effect == AP_TOLL:
        return sorted(state.flags.get(PASSED, {}).get(enemy, ()))
    if effect == BLOCKS_ARMOR:
        grid = data.map.grid
        return sorted(
            {
                n
                for u in state.on_map()
                if data.side_of(u.id) == enemy and data.units[u.id].kind == "armored" and u.hex is not None
                for n in grid.neighbours(u.hex)
            }
        )
    if effect == BLOCKS_TOWN:
        return sorted(h for h, p in data.map.settlements.items() if p.kind in ("city", "village"))
    overlay = str(params_of(data, event_id).get("overlay", "fort"))
    return sorted(data.map.overlays.get(overlay, frozenset()))


def play(data: GameData, state: GameState, side: Side, event_id: str, hex_: Hex | None) -> list[Event]:
    """[15] Play one of these stratagems (``hex_`` for those placed on the map).

    :raises IllegalActionError: when the counter is spent, out of its moment, or the hex is not allowed; the
        state is then unchanged.
    """
    _refuse_timing(data, state, side, event_id)
    definition = data.events[event_id]
    effect = definition.effect
    rule = definition.rule or "15"
    base: dict[str, Any] = {"event": event_id, "side": side, "rule": rule}
    if effect == NO_REACTIVATION:
        raise IllegalActionError(
            f"{definition.name} is played at the moment a unit it names is reactivated: the engine asks you then",
            rule,
        )
    if effect == BRIDGE:
        spend(state, event_id)
        state.flags[BRIDGE_FLAG] = {"side": side, "sequence": state.sequences_this_turn, "target": None}
        return [
            Event(
                "event",
                f"{data.side_name(side)} plays {definition.name}: its next attack is not halved across a bridge.",
                base,
            )
        ]
    if hex_ is None:
        raise IllegalActionError(f"{definition.name} is played on a hex: name it", rule)
    _check_hex(data, state, side, event_id, hex_)
    where = hex_name(hex_)
    base["hex"] = hex_
    spend(state, event_id)
    if effect == RAID:
        return _raid(data, state, side, event_id, hex_, base)
    state.markers.append(MapMarker(event_id, hex_, side, state.turn))
    return [Event("event", f"{data.side_name(side)} plays {definition.name} at {where}.", base)]


def _raid(data: GameData, state: GameState, side: Side, event_id: str, hex_: Hex, base: dict[str, Any]) -> list[Event]:
    """[15.3] The garrison is revealed once the raid is declared; at 0, or on a success roll, the fort falls
    and the commando takes it; otherwise the raid fails and the garrison stays revealed."""
    definition = data.events[event_id]
    where = hex_name(hex_)
    events = [Event("event", f"{data.side_name(side)} plays {definition.name} on the {where} fort.", dict(base))]
    garrison = state.units_at(hex_)[0].id
    if garrisons.is_face_down(state, garrison):
        events += garrisons.reveal(data, state, garrison, "by a raid")
    defenders = state.units_at(hex_)
    success = not defenders
    if defenders:
        succeeds_on = [int(f) for f in definition.params.get("succeeds_on", [1, 2, 3, 4])]
        die, rolled = roll(
            state, f"{definition.name} on {where} (succeeds on {succeeds_on[0]}-{succeeds_on[-1]})", "15.3"
        )
        events.append(rolled)
        success = die in succeeds_on
        if success:
            for unit in defenders:
                unit.steps, unit.eliminated, unit.hex = 0, True, None
                events.append(
                    Event(
                        "eliminated",
                        f"{data.units[unit.id].name} is taken by surprise and destroyed (15.3).",
                        {"unit": unit.id, "hex": hex_, "rule": "15.3"},
                    )
                )
    if not success:
        events.append(Event("event", f"The raid on {where} fails: the garrison holds, revealed.", dict(base)))
        return events
    commando = next((u for u in commando_ids(data) if not state.units[u].on_map), None)
    if commando is not None:
        unit = state.units[commando]
        unit.hex, unit.arrived, unit.eliminated, unit.steps = hex_, True, False, data.units[commando].steps
        state.flags.setdefault(COMMANDOS, []).append(commando)
        events.append(
            Event(
                "event",
                f"The fort at {where} falls: the commando holds it until the end of the turn (15.3).",
                {**base, "unit": commando},
            )
        )
    return events


# --- The raid's commando counters ---------------------------------------------------------------------------

COMMANDOS = "commandos"
"""Per-turn flag: the commandos on the map (removed at the end of the turn)."""


def commando_ids(data: GameData) -> list[str]:
    """The commando counters a game's ``[raid_commando]`` table makes (one per Raid counter)."""
    table = data.extra.get("raid_commando")
    if not table:
        return []
    return sorted(u for u, d in data.units.items() if u.startswith(str(table.get("id", "raid-commando"))))


def with_commando_counters(data: GameData) -> GameData:
    """The game data with the commando counters of ``[raid_commando]`` (15.3) added: ``count`` counters of
    the table's ``formation`` with its strength, quality and steps, of kind ``kind`` (a static kind: no AP)."""
    import dataclasses

    from engine.vaevictis.data import UnitDef

    table = data.extra.get("raid_commando")
    if not table:
        return data
    prefix = str(table.get("id", "raid-commando"))
    made = {
        f"{prefix}-{n}": UnitDef(
            id=f"{prefix}-{n}",
            name=f"{table.get('name', 'Commando')} {n}",
            long_name=str(table.get("long_name", "Raid commando (15.3)")),
            formation=str(table["formation"]),
            division=None,
            kind=table.get("kind", "garrison"),
            size="",
            steps=int(table.get("steps", 1)),
            strength=int(table["strength"]),
            quality=int(table["quality"]),
        )
        for n in range(1, int(table.get("count", 1)) + 1)
    }
    return dataclasses.replace(data, units={**data.units, **made})


def end_of_turn(data: GameData, state: GameState) -> list[Event]:
    """[15.2, 15.3] The Bottleneck markers and the commandos go at the end of the turn."""
    events: list[Event] = []
    tolls = data.events_with_effect(AP_TOLL)
    for marker in [m for m in state.markers if m.kind in tolls]:
        state.markers.remove(marker)
        events.append(
            Event(
                "event-removed",
                f"{data.events[marker.kind].name} at {hex_name(marker.hex)} is removed at the end of the turn.",
                {"event": marker.kind, "hex": marker.hex, "rule": "15.2"},
            )
        )
    for commando in state.flags.pop(COMMANDOS, []):
        unit = state.units[commando]
        if unit.on_map:
            events.append(
                Event(
                    "event-removed",
                    f"{data.units[commando].name} leaves the game at the end of the turn (15.3).",
                    {"unit": commando, "hex": unit.hex, "rule": "15.3"},
                )
            )
        unit.hex = None
    return events


# --- The loader's checks ------------------------------------------------------------------------------------

KNOWN_PARAMS: dict[str, frozenset[str]] = {
    COMBINED: frozenset({"hqs", "independents"}),
    SUCCESSIVE: frozenset({"hqs"}),
    AP_TOLL: frozenset({"ap"}),
    NO_REACTIVATION: frozenset({"formations"}),
    RAID: frozenset({"overlay", "reach", "succeeds_on"}),
}
"""The ``params`` each effect reads (the others take none)."""


def data_problems(data: GameData) -> list[tuple[str, str]]:
    """``(entry, problem)`` for each stratagem figure of the data that cannot be played: unknown params, a
    formation or overlay that does not exist, a forced event that is not an event, a commando without a
    formation."""
    found: list[tuple[str, str]] = []
    for event in data.events.values():
        entry = f"event '{event.id}'"
        unknown = set(event.params) - KNOWN_PARAMS.get(event.effect, frozenset())
        if unknown:
            found.append((entry, f"params {', '.join(sorted(unknown))} mean nothing to the effect '{event.effect}'"))
        for formation in event.params.get("formations", []):
            if formation not in data.formations:
                found.append((entry, f"formation {formation!r} does not exist"))
        overlay = event.params.get("overlay")
        if overlay is not None and overlay not in data.map.overlays:
            found.append((entry, f"overlay {overlay!r} is not on the map"))
    for forced in data.extra.get("forced_event", []):
        if forced.get("event") not in data.events:
            found.append(("[[forced_event]]", f"event {forced.get('event')!r} does not exist"))
        elif not 1 <= int(forced.get("turn", 0)) <= len(data.turns):
            found.append(("[[forced_event]]", f"turn {forced.get('turn')!r} is not on the turn track"))
    commando = data.extra.get("raid_commando")
    if commando:
        if commando.get("formation") not in data.formations:
            found.append(("[raid_commando]", f"formation {commando.get('formation')!r} does not exist"))
        for key in ("strength", "quality"):
            if not isinstance(commando.get(key), int):
                found.append(("[raid_commando]", f"'{key}' must be a whole number"))
    return found


# --- Lack of SS Elan: the window at the moment of a reactivation ------------------------------------------

REACTION: Final = "reaction"
"""The kind of the pending record of a reactivation window (15.3 Lack of SS Elan)."""
_UNIT_KEYS = ("units", "unit", "attackers")


def reactivations(data: GameData, state: GameState, side: Side, verb: str, args: Mapping[str, Any]) -> list[str]:
    """[15.3] The units an action of ``side`` would reactivate (3.5) that an enemy no-reactivation stratagem
    in hand could stop now; empty when there is no such moment."""
    if state.pending or state.phase != "operations":
        return []
    held = counters_in_hand(data, state, other_side(side), NO_REACTIVATION)
    formations = {str(f) for e in held for f in params_of(data, e).get("formations", [])}
    if not formations:
        return []
    named: list[str] = []
    if verb == "activate_formation":
        for key in ("formation", "also"):
            formation = data.formations.get(str(args.get(key, "")))
            if formation is not None and formation.hq is not None:
                named.append(formation.hq)
    elif state.activation is not None and state.activation.side == side:
        for key in _UNIT_KEYS:
            named += [u.strip() for u in str(args.get(key, "") or "").split(",") if u.strip()]
    current = set(state.activation.units) if state.activation is not None else set()
    return [
        u
        for u in dict.fromkeys(named)
        if u in data.units
        and data.side_of(u) == side
        and data.units[u].formation in formations
        and state.units[u].activations >= 1
        and u not in current
        and not reactivation_barred(data, state, u)
    ]


def open_window(
    data: GameData, state: GameState, side: Side, verb: str, args: Mapping[str, Any], units: list[str]
) -> list[Event]:
    """[15.3] Hold the action that reactivates ``units`` and ask the enemy whether it plays its stratagem."""
    event_id = counters_in_hand(data, state, other_side(side), NO_REACTIVATION)[0]
    push(state, {"kind": REACTION, "event": event_id, "side": side, "verb": verb, "args": dict(args), "units": units})
    names = ", ".join(data.units[u].name for u in units)
    return [
        Event(
            "reaction",
            f"The {data.side_name(side)} player reactivates {names}: "
            f"the {data.side_name(other_side(side))} player may play "
            f"{data.events[event_id].name} (15.3).",
            {"units": units, "event": event_id, "rule": "15.3"},
        )
    ]


def _held_reaction(state: GameState) -> ReactionRecord:
    """The reactivation window on top of ``state.pending``."""
    record = pending_records(state)[-1]
    assert record["kind"] == REACTION
    return record


def reaction_prompt(data: GameData, state: GameState) -> Prompt:
    record = _held_reaction(state)
    enemy = other_side(record["side"])
    name = data.events[record["event"]].name
    names = ", ".join(data.units[u].name for u in record["units"])
    return Prompt(
        enemy,
        f"The {record['side']} player reactivates {names}: play {name} to stop it (15.3)?",
        (Choice("react", {"play": True}, f"Play {name}"), Choice("react", {"play": False}, "Let it happen")),
        rule="15.3",
    )


def answer_reaction(
    data: GameData, state: GameState, side: Side, play: bool
) -> tuple[list[Event], dict[str, Any] | None]:
    """[15.3] The enemy's answer: played, the reactivation is stopped (the held action is dropped) and no
    unit of those formations may be reactivated this turn; declined, the held action goes ahead (returned
    as ``{"side", "verb", "args"}`` for the caller to apply)."""
    record = _held_reaction(state)
    pending_records(state).pop()
    if side != other_side(record["side"]):  # pragma: no cover - the prompt is the enemy's
        push(state, record)
        raise IllegalActionError("the other player answers this", "15.3")
    if not play:
        event = Event("reaction", f"The {data.side_name(side)} player lets the reactivation happen.", {"rule": "15.3"})
        return [event], {"side": record["side"], "verb": record["verb"], "args": record["args"]}
    events = play_no_reactivation(data, state, side, str(record["event"]))
    names = ", ".join(data.units[u].name for u in record["units"])
    events.append(
        Event("event", f"The reactivation of {names} is stopped.", {"units": record["units"], "rule": "15.3"})
    )
    return events, None


def play_no_reactivation(data: GameData, state: GameState, side: Side, event_id: str) -> list[Event]:
    definition = data.events[event_id]
    formations = [str(f) for f in definition.params.get("formations", [])]
    spend(state, event_id)
    barred = state.flags.setdefault(NO_REACTIVATION_FLAG, [])
    barred.extend(f for f in formations if f not in barred)
    names = ", ".join(data.formations[f].name for f in formations if f in data.formations)
    base = {"event": event_id, "side": side, "rule": definition.rule or "15"}
    return [
        Event(
            "event", f"{data.side_name(side)} plays {definition.name}: {names} may not be reactivated this turn.", base
        )
    ]
