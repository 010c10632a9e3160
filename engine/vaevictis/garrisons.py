"""[16] Hidden static garrisons: placed face down, drawn only when they are flipped.

A game's ``[garrisons]`` set-up table lists the ``hexes`` that get a face-down garrison and the ``pool`` of
garrison counters (more counters than hexes). Nobody knows what a face-down garrison is (the reading of
docs/rules/alsace44.md, 16): at set-up each hex gets a counter of the pool as a mere label, the rest of the
pool is set aside face down, and a counter's identity is drawn only when it is flipped, by one roll of the
game's verifiable dice among every counter still face down (on the map or set aside), without replacement.
Drawing late gives every hex the same odds as drawing all of them at set-up, and there is no secret to keep:
nothing in the state says more about a face-down garrison than its place. The drawn counter takes the
flipped hex; the label it stood for takes the drawn counter's place (another face-down hex or the set-aside
pile), so the ids on the map never carry a value.

A garrison is flipped for good (16): during a German activation at the German player's choice; by a French
Raid (15.3); or when attacked, once the attacker has declared the attack and committed his supports. A
garrison flipped at strength 0 is eliminated at once. Until flipped, it exerts a zone of control over the six
hexes around it (16; see :mod:`engine.vaevictis.zoc`), and no view, picture, odds preview or event shows a
value for it.

The facts are kept in ``state.flags`` (only for a game with garrisons): ``face_down`` (ids on the map, face
down) and ``set_aside`` (the counters never placed, face down off the map).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Protocol

from engine.contract import Event, IllegalActionError
from engine.hexgrid import Hex, hex_name, parse_hex
from engine.vaevictis.data import GameData, Side
from engine.vaevictis.pending_records import CombatRecord, PlanRecord, advancing_units, push
from engine.vaevictis.rolls import dice_of
from engine.vaevictis.state import GameState, UnitState
from engine.vaevictis.view import HIDDEN_GARRISON

FACE_DOWN = "face_down"
SET_ASIDE = "set_aside"
RULE = "16"


class AttackLike(Protocol):
    """What this module reads of an attack plan (:class:`engine.vaevictis.odds.AttackPlan`)."""

    @property
    def side(self) -> Side: ...

    @property
    def kind(self) -> str: ...

    @property
    def attackers(self) -> tuple[str, ...]: ...

    @property
    def targets(self) -> tuple[Hex, ...]: ...

    @property
    def target(self) -> Hex: ...

    def to_json(self) -> PlanRecord: ...


HIDDEN_NAME = HIDDEN_GARRISON
"""What a face-down garrison is called in views and messages: its label's name would suggest a value."""


def unseen_words(count: int) -> str:
    """[16] How an odds preview says that ``count`` of the defenders are face-down garrisons."""
    return f"{count} garrison{'s' if count > 1 else ''} face down ({RULE})"


REVEALED_WHEN_ATTACKED = (
    f"The garrison is flipped once the attack is declared and its supports allotted ({RULE}): the odds are then exact."
)
"""[16] The last line of the odds preview of an attack on a face-down garrison."""


def has_garrisons(data: GameData) -> bool:
    """Whether the game's data places hidden garrisons (a ``[garrisons]`` set-up table)."""
    return "garrisons" in data.extra


def place(data: GameData, state: GameState) -> None:
    """[16, 19.2] At set-up: one face-down counter of the pool on each garrison hex, the rest set aside."""
    if not has_garrisons(data):
        return
    table = data.extra["garrisons"]
    pool = [str(u) for u in table["pool"]]
    hexes = [str(h) for h in table["hexes"]]
    placed = pool[: len(hexes)]
    for unit_id, where in zip(placed, hexes, strict=True):
        unit = state.units[unit_id]
        unit.hex = parse_hex(where)
        unit.arrived = True
    for unit_id in pool[len(hexes) :]:
        state.units[unit_id].arrived = True  # set aside: never a reinforcement, never on the map
    state.flags[FACE_DOWN] = sorted(placed)
    state.flags[SET_ASIDE] = sorted(pool[len(hexes) :])


def face_down(state: GameState) -> frozenset[str]:
    """The garrisons on the map whose values nobody knows yet."""
    return frozenset(state.flags.get(FACE_DOWN, ()))


def is_face_down(state: GameState, unit_id: str) -> bool:
    return unit_id in state.flags.get(FACE_DOWN, ())


def face_down_at(state: GameState, hex_: Hex) -> list[str]:
    """The face-down garrisons in a hex."""
    hidden = face_down(state)
    return [u.id for u in state.units_at(hex_) if u.id in hidden]


def reveal(data: GameData, state: GameState, unit_id: str, why: str) -> list[Event]:
    """[16] Flip a face-down garrison for good: draw its identity, and eliminate it at once at strength 0.

    The draw is one roll of the game's dice with as many faces as counters still face down (on the map and
    set aside, in id order); the roll's number and faces are in the event, so ``verify`` checks it.
    Mutates ``state`` (pass a copy).
    """
    hidden = sorted([*state.flags.get(FACE_DOWN, ()), *state.flags.get(SET_ASIDE, ())])
    if unit_id not in state.flags.get(FACE_DOWN, ()):
        raise IllegalActionError("that garrison is not face down", RULE)
    where = state.units[unit_id].hex
    assert where is not None
    dice = dice_of(state)
    number = dice.rolls_made
    drawn_index = dice.d(len(hidden))
    state.rolls_made = dice.rolls_made
    drawn = hidden[drawn_index - 1]
    _exchange(state, unit_id, drawn)
    state.flags[FACE_DOWN] = sorted(u for u in state.flags[FACE_DOWN] if u != drawn)
    definition = data.units[drawn]
    events = [
        Event(
            "roll",
            f"Garrison at {hex_name(where)} flipped ({why}): drew counter {drawn_index} of the {len(hidden)} "
            "still face down",
            {"die": drawn_index, "number": number, "sides": len(hidden), "rule": RULE},
        ),
        Event(
            "garrison-revealed",
            f"The garrison at {hex_name(where)} is {definition.name}: strength {definition.strength}, "
            f"quality {definition.quality}.",
            {"unit": drawn, "hex": where, "strength": definition.strength, "quality": definition.quality, "rule": RULE},
        ),
    ]
    if definition.strength == 0:
        unit = state.units[drawn]
        unit.steps = 0
        unit.eliminated = True
        unit.hex = None
        events.append(
            Event(
                "eliminated",
                f"{definition.name} has strength 0 and is eliminated at once (16).",
                {"unit": drawn, "hex": where, "rule": RULE},
            )
        )
    return events


def _exchange(state: GameState, label: str, drawn: str) -> None:
    """The drawn counter takes the label's place on the map; the label takes the drawn counter's place."""
    if label == drawn:
        return
    first, second = state.units[label], state.units[drawn]
    for item in fields(UnitState):
        if item.name == "id":
            continue
        value = getattr(first, item.name)
        setattr(first, item.name, getattr(second, item.name))
        setattr(second, item.name, value)
    for key in (FACE_DOWN, SET_ASIDE):
        ids = state.flags.get(key, [])
        state.flags[key] = sorted(drawn if u == label else label if u == drawn else u for u in ids)


def reveal_by_choice(data: GameData, state: GameState, side: Side, hex_: Hex) -> list[Event]:
    """[16] During a German activation, the German player flips a face-down garrison of his choice.

    :raises IllegalActionError: outside a German activation, during a combat, or with no face-down garrison
        in the hex; the state is then unchanged.
    """
    if side != "german" or state.activation is None or state.activation.side != side:
        raise IllegalActionError("the German player flips a garrison during one of his activations", RULE)
    if state.pending:
        raise IllegalActionError("finish the combat in progress before flipping a garrison", RULE)
    hidden = face_down_at(state, hex_)
    if not hidden:
        raise IllegalActionError(f"there is no face-down garrison at {hex_name(hex_)}", RULE)
    return reveal(data, state, hidden[0], "at the German player's choice")


def reveal_attacked(data: GameData, state: GameState, targets: tuple[Hex, ...]) -> list[Event]:
    """[16] An attack has been declared and its supports committed (the caller has checked it is legal): every
    face-down garrison it targets is flipped."""
    events: list[Event] = []
    for unit_id in [u for h in targets for u in face_down_at(state, h)]:
        events += reveal(data, state, unit_id, "it is attacked")
    return events


def attack_on_emptied_hex(data: GameData, state: GameState, plan: AttackLike, cost: int) -> list[Event]:
    """[16] The attacked garrison was flipped at 0 and is gone: the attack is spent (its APs paid, the duty
    to attack met, the supports unused and kept by their HQs) and the attackers may advance into the empty
    hex as after an "E" (7.7.2; reading in docs/rules/alsace44.md)."""
    for unit_id in plan.attackers:
        unit = state.units[unit_id]
        unit.action_points -= cost
        unit.must_attack = False
    targets = list(plan.targets)
    events = [
        Event(
            "attack",
            f"{data.side_name(plan.side)} {plan.kind} attack on {', '.join(hex_name(h) for h in targets)}: the hex is "
            "empty once the garrison is flipped; the attack is spent (16).",
            {"plan": plan.to_json(), "ap_spent": cost, "rule": RULE},
        )
    ]
    record: CombatRecord = {
        "kind": "combat",
        "plan": plan.to_json(),
        "side": plan.side,
        "target": plan.target,
        "targets": targets,
        "attackers": list(plan.attackers),
        "defenders": [],
        "armor_on_both_sides": False,
        "snafu": None,
        "stage": "advance",
        "advance": {
            "allowance": 1,
            "vacated": targets,
            "paths": [[h] for h in targets],
            "units": advancing_units(state, plan.attackers),
        },
    }
    push(state, record)
    events.append(
        Event(
            "advance",
            f"{data.side_name(plan.side)} may advance up to 1 hex into "
            f"{', '.join(hex_name(h) for h in targets)} (7.7.2)",
            {"hex": targets[0], "hexes": targets, "allowance": 1},
        )
    )
    return events


def static_rule(data: GameData, unit_id: str) -> str | None:
    """The rule by which a counter of this kind never activates, moves or attacks (the tables' ``[static]
    kinds``: Alsace 1944 strongpoints 12.2, garrisons 16), or ``None`` for a unit that acts."""
    kinds = data.tables.raw.get("static", {}).get("kinds", {})
    rule = kinds.get(data.units[unit_id].kind)
    return str(rule) if rule is not None else None


def is_static(data: GameData, unit_id: str) -> bool:
    """[12.2, 16] Whether the counter never activates (a strongpoint, a garrison)."""
    return static_rule(data, unit_id) is not None


def reveal_choices(state: GameState, side: Side) -> list[tuple[Hex, str]]:
    """[16] The hexes of the face-down garrisons the German may flip now, with a label for each."""
    if side != "german" or state.activation is None or state.activation.side != side or state.pending:
        return []
    hexes = sorted({h for u in face_down(state) if (h := state.units[u].hex) is not None})
    return [(h, f"Flip the garrison at {hex_name(h)} (16)") for h in hexes]
