"""[18] Detachments: infantry divisions split steps off into detachment markers, and take them back.

[18] Most infantry divisions of both sides may detach strength steps to form a detachment, which then acts
on its own. A corps may never use more detachment markers than it was given, whatever becomes of them:
a marker taken back is out of the game. Creating a detachment is not an action and costs no AP; it is done
while the division is activated, and the detachment is activated with it for free (in a general activation
it does not use one of the 3/4 places), but counts as a unit in later activations. The steps are shared so
that the two never hold more than the division had: German detachments have 1 step, US and British 2 (the
``[[detachment]]`` templates), each worth 3 strength points. At any time during an activation in which both
are activated, a detachment stacked with its division may recombine: the marker is removed and the division
recovers its steps.

Detachment counters. Every unit of the engine is a :class:`~engine.vaevictis.data.UnitDef` in ``data.units``,
so a detachment needs one too. Its id is ``<division id>-det-<n>``, where ``n`` is the number of the corps'
marker (1 to ``formation.detachments``): unique for the whole game, since a corps never uses a marker twice.
:func:`detachment_counters` lists the counters every division could field, and
:func:`with_detachment_counters` returns the game data with them added (the loader calls it once, after its
checks); their quality is the division's, their size a regiment's, their strength the template's.
"""

from __future__ import annotations

import dataclasses
import re

from engine.contract import Choice, Event, IllegalActionError, InvalidActionError
from engine.hexgrid import hex_name
from engine.vaevictis.data import GameData, Side, UnitDef
from engine.vaevictis.state import GameState, UnitState

RULE = "18"
_MARKER_ID = re.compile(r"^(?P<division>.+)-det-(?P<number>\d+)$")


# --- The counters ----------------------------------------------------------------------------------------


def detachment_id(division_id: str, number: int) -> str:
    """The id of corps marker ``number`` when detached from ``division_id``."""
    return f"{division_id}-det-{number}"


def parse_detachment_id(unit_id: str) -> tuple[str, int] | None:
    """``(division id, marker number)`` for a detachment id of this scheme, else ``None``."""
    match = _MARKER_ID.match(unit_id)
    return (match["division"], int(match["number"])) if match else None


def is_detachment_marker(unit_id: str) -> bool:
    """Whether the id names a detachment created in play (:func:`detachment_id`), not a printed counter."""
    return parse_detachment_id(unit_id) is not None


def can_detach(data: GameData, division_id: str) -> bool:
    """[18] Whether a counter is an infantry division of a corps that has detachment markers."""
    definition = data.units.get(division_id)
    if definition is None or is_detachment_marker(division_id):
        return False
    formation = data.formations[definition.formation]
    return definition.kind == "infantry" and definition.size == "XX" and formation.detachments > 0


def detachment_counters(data: GameData) -> dict[str, UnitDef]:
    """[18] A counter for every marker every infantry division could detach (see the module docstring)."""
    counters: dict[str, UnitDef] = {}
    for division in data.units.values():
        if not can_detach(data, division.id):
            continue
        template = data.detachments.get(data.nationality_of(division.id))
        if template is None:
            continue
        for number in range(1, data.formations[division.formation].detachments + 1):
            unit_id = detachment_id(division.id, number)
            counters[unit_id] = UnitDef(
                id=unit_id,
                name=f"Det. {division.name}",
                long_name=f"Detachment {number} of {division.long_name}",
                formation=division.formation,
                division=division.division,
                kind="infantry",
                size="III",
                steps=template.steps,
                strength=template.steps * template.strength_per_step,
                quality=division.quality,
                reconstructed=("size", "quality"),
            )
    return counters


def with_detachment_counters(data: GameData) -> GameData:
    """The game data with the detachment counters of :func:`detachment_counters` added to ``units``."""
    extra = {k: v for k, v in detachment_counters(data).items() if k not in data.units}
    if not extra:
        return data
    return dataclasses.replace(data, units={**data.units, **extra})


def printed_detachments(data: GameData, formation_id: str) -> int:
    """Detachment counters of the corps printed in the order of battle (Detachment 4th DI, XII Corps): they
    hold one of the corps' markers from the start (``<...>-det`` ids)."""
    return sum(1 for u in data.units.values() if u.formation == formation_id and u.id.endswith("-det"))


def markers_used(data: GameData, state: GameState, formation_id: str) -> int:
    """[18] The corps' detachment markers already used: printed ones plus those created in play."""
    return printed_detachments(data, formation_id) + state.detachments_used.get(formation_id, 0)


def markers_left(data: GameData, state: GameState, formation_id: str) -> int:
    """[18] The corps' detachment markers still available (the limit is absolute)."""
    return max(0, data.formations[formation_id].detachments - markers_used(data, state, formation_id))


def detachments_of(state: GameState, division_id: str) -> list[UnitState]:
    """The division's detachments on the map."""
    return [u for u in state.units.values() if u.parent == division_id and u.on_map]


# --- Detach ----------------------------------------------------------------------------------------------


def _refuse(message: str, rule: str = RULE) -> IllegalActionError:
    return IllegalActionError(message, rule)


def _own_unit(data: GameData, state: GameState, side: Side, unit_id: str) -> UnitState:
    if unit_id not in state.units or unit_id not in data.units:
        raise InvalidActionError(f"there is no unit {unit_id!r}")
    if data.side_of(unit_id) != side:
        raise _refuse(f"{data.units[unit_id].name} is not one of your units", "3.1")
    return state.units[unit_id]


def detach(data: GameData, state: GameState, side: Side, division_id: str, steps: int | None = None) -> list[Event]:
    """[18] Detach ``steps`` steps of an activated infantry division into a new detachment in its hex.

    ``steps`` defaults to a full detachment (the template's steps), or as many as the division can spare.
    The detachment joins the activation in progress for free with the division's APs and statuses.

    :raises InvalidActionError: for an unknown unit.
    :raises IllegalActionError: (rule 18 or 3.1) if the counter is not an infantry division, is not
        activated now, the corps has no marker left, the steps are not between 1 and the template's, or the
        division would be left without a step.
    """
    division, steps = _check_detachment(data, state, side, division_id, steps)
    definition = data.units[division_id]
    formation = data.formations[definition.formation]
    activation = state.activation
    assert activation is not None and division.hex is not None
    number = markers_used(data, state, formation.id) + 1
    unit_id = detachment_id(division_id, number)
    if unit_id not in data.units:
        raise RuntimeError(
            f"no counter {unit_id!r} in the game data: load it through detachments.with_detachment_counters"
        )
    state.units[unit_id] = _detachment_counter(division, unit_id, steps)
    division.steps -= steps
    state.detachments_used[formation.id] = state.detachments_used.get(formation.id, 0) + 1
    activation.units.append(unit_id)
    if activation.kind == "general":
        activation.limit += 1  # activated for free: it does not take one of the general activation's places
    where = hex_name(division.hex)
    return [
        Event(
            "detach",
            f"{definition.name} detaches {steps} step(s) at {where}: {data.units[unit_id].name} is activated with it "
            f"({division.steps} step(s) left to the division; {markers_left(data, state, formation.id)} "
            f"marker(s) left to {formation.name}).",
            {
                "division": division_id,
                "detachment": unit_id,
                "steps": steps,
                "division_steps": division.steps,
                "hex": division.hex,
                "rule": RULE,
            },
        )
    ]


def _check_detachment(
    data: GameData, state: GameState, side: Side, division_id: str, steps: int | None
) -> tuple[UnitState, int]:
    """[18, 3.1] The division and the steps it detaches (by default a full detachment, or as many as it can
    spare), once the rules allow it: an activated infantry division on the map, outside a combat, whose corps
    has a marker left, keeping a step.

    :raises IllegalActionError: as :func:`detach`.
    """
    division = _own_unit(data, state, side, division_id)
    definition = data.units[division_id]
    if not can_detach(data, division_id):
        if definition.kind == "infantry" and definition.size == "XX":
            raise _refuse(f"{data.formations[definition.formation].name} has no detachment markers")
        raise _refuse(f"only infantry divisions may form detachments; {definition.name} is not one")
    activation = state.activation
    if activation is None or activation.side != side or division_id not in activation.units:
        raise _refuse(f"{definition.name} must be activated to form a detachment")
    if state.pending:
        raise _refuse("finish the combat in progress before forming a detachment")
    if not division.on_map or division.hex is None:
        raise _refuse(f"{definition.name} is not on the map")
    formation = data.formations[definition.formation]
    if markers_left(data, state, formation.id) <= 0:
        raise _refuse(
            f"{formation.name} has used all its {formation.detachments} detachment marker(s); the limit is absolute"
        )
    template = data.detachments.get(data.nationality_of(division_id))
    if template is None:
        raise _refuse(f"{data.army_of(division_id).nationality} divisions have no detachment markers")
    if steps is None:
        steps = min(template.steps, division.steps - 1)
    if isinstance(steps, bool) or not 1 <= steps <= template.steps:
        raise _refuse(f"a detachment has 1 to {template.steps} step(s), not {steps}")
    if steps >= division.steps:
        raise _refuse(
            f"{definition.name} has {division.steps} step(s) left and must keep at least one: "
            f"it can detach at most {division.steps - 1}"
        )
    return division, steps


def _detachment_counter(division: UnitState, unit_id: str, steps: int) -> UnitState:
    """[18] The new detachment in the division's hex, with its APs and statuses."""
    return UnitState(
        id=unit_id,
        hex=division.hex,
        steps=steps,
        arrived=True,
        fatigued=division.fatigued,
        out_of_command=division.out_of_command,
        isolated=division.isolated,
        unsupplied=division.unsupplied,
        activations=division.activations,
        action_points=division.action_points,
        movement_points=division.movement_points,
        must_attack=division.must_attack,
        retreated_into_stack=division.retreated_into_stack,
        cannot_move=division.cannot_move,
        parent=division.id,
    )


# --- Recombine -------------------------------------------------------------------------------------------


def recombine(data: GameData, state: GameState, side: Side, detachment_id_: str) -> list[Event]:
    """[18] A detachment stacked with its division, both activated now, rejoins it: the marker leaves the
    game (it is not available again) and the division recovers the detachment's steps left.

    :raises IllegalActionError: (rule 18) if the unit is not a detachment, its division is gone, the two are
        not both activated in this activation, or not stacked together.
    """
    detachment = _own_unit(data, state, side, detachment_id_)
    name = data.units[detachment_id_].name
    if detachment.parent is None or detachment.parent not in state.units:
        raise _refuse(f"{name} is not a detachment formed in play, so it has no division to rejoin")
    division = state.units[detachment.parent]
    division_name = data.units[division.id].name
    if not detachment.on_map:
        raise _refuse(f"{name} is not on the map")
    if not division.on_map:
        raise _refuse(f"{division_name} is no longer on the map: {name} cannot rejoin it")
    activation = state.activation
    if activation is None or activation.side != side or not {division.id, detachment.id} <= set(activation.units):
        raise _refuse(f"{name} and {division_name} must both be activated in this activation to recombine")
    if state.pending:
        raise _refuse("finish the combat in progress before recombining")
    if division.hex != detachment.hex:
        raise _refuse(f"{name} must be stacked with {division_name} to recombine")
    printed = data.units[division.id].steps
    others = sum(u.steps for u in detachments_of(state, division.id) if u.id != detachment.id)
    gained = max(0, min(detachment.steps, printed - others - division.steps))
    division.steps += gained
    assert detachment.hex is not None
    where = hex_name(detachment.hex)
    detachment.hex = None
    detachment.steps = 0
    detachment.eliminated = True
    detachment.action_points = 0
    detachment.movement_points = 0.0
    detachment.must_attack = False
    return [
        Event(
            "recombine",
            f"{name} rejoins {division_name} at {where}: the division has {division.steps} step(s); "
            "the marker is out of the game.",
            {"division": division.id, "detachment": detachment_id_, "steps": gained, "hex": where, "rule": RULE},
        )
    ]


def choices(data: GameData, state: GameState, side: Side) -> list[Choice]:
    """[18] The detachments and recombinations ``side`` may make now.

    ``Choice("detach", {"division": id, "steps": n})`` and ``Choice("recombine", {"detachment": id})``.
    """
    activation = state.activation
    if activation is None or activation.side != side or state.pending:
        return []
    options: list[Choice] = []
    for unit_id in activation.units:
        unit = state.units[unit_id]
        if not unit.on_map:
            continue
        if can_detach(data, unit_id) and markers_left(data, state, data.units[unit_id].formation) > 0:
            template = data.detachments.get(data.nationality_of(unit_id))
            if template is not None:
                for steps in range(1, min(template.steps, unit.steps - 1) + 1):
                    label = f"Detach {steps} step(s) from {data.units[unit_id].name}"
                    options.append(Choice("detach", {"division": unit_id, "steps": steps}, label))
        parent = unit.parent
        if (
            parent is not None
            and parent in activation.units
            and state.units[parent].on_map
            and state.units[parent].hex == unit.hex
        ):
            label = f"{data.units[unit_id].name} rejoins {data.units[parent].name}"
            options.append(Choice("recombine", {"detachment": unit_id}, label))
    return options
