"""[7] Combat resolution: the die, the results, losses, retreats, advances and breakthroughs.

An attack is a sub-procedure on ``state.pending``: :func:`begin_attack` checks the plan (through
:func:`engine.vaevictis.odds.assess`, the same arithmetic as the preview), spends the action points and the
supports, rolls the optional C3I/SNAFU check and the combat die, reads the CRT and pushes a pending combat
record. Then each decision that belongs to a player is asked by :func:`pending_prompt` and applied by
:func:`apply_pending`, in the order of 7.6: the defender's losses and retreat, the attacker's losses and
retreat, then the attacker's advance.

Verbs of the pending combat (each listed in the prompt with its arguments):

- ``support_defence {hq, kind}``, ``air_defence``, ``choose_quality {unit}``, ``supports_done`` (defender):
  after the attacker's supports, the defender adds his own (7.5) and may choose the unit whose quality he
  uses (7.4), unless the plan already named his supports; the window also stays open while he may play
  Nuts! (15.3). ``supports_done`` goes on with the combat (his best quality if he chose none).
- ``choose_snafu_unit {unit}`` (defender): the attacker struck by SNAFU 9 or 11 (9.5).
- ``snafu_quality {unit}`` or ``snafu_die`` (the player who did not suffer it): an even VV60 SNAFU (9.5 of
  Alsace 1944, :mod:`engine.vaevictis.snafu_vv60`): the afflicted side's quality unit, or a die shift of 1.
- ``reroll`` / ``keep_roll`` (attacker): spend the Christmas present "reroll one die when attacking" (15.4);
  the new roll stands.
- ``take_loss {unit}`` or ``take_loss {marker: "hq:kind"}``: lose one step from that unit, or give up that
  armor support marker as the step (1.6.1). The first loss of a result is the quality unit's (7.4); when
  armored or mechanized units stand on both sides, the first or second loss is an armored/mechanized unit's
  or an armor marker's (7.6). Also used for the step lost per enemy-ZoC hex entered in retreat (7.7.1).
- ``retreat {to, units?}``: retreat one hex (the rest of the result becomes hexes of retreat once the first
  is taken; 7.6 "losses first"). ``units`` (comma-separated ids) splits part of a stack off (7.7.1).
- ``advance {to, units?}``: advance one hex after combat (7.7.2); ``end_advance`` stops advancing.

An attack on several hexes (7.2): the defender allocates the steps among the units of every target hex (the
quality unit first, the armor rule of 7.6 as for one hex); ``E`` eliminates them all; the units of each
target hex retreat from their own hex, all the same number of hexes (as the parts of a split stack, 7.7.1);
the advance may enter any vacated target hex first, then follow the retreat path that starts there (7.7.2);
a bold result puts a Breakthrough marker on each target hex, when the result is read (7.8).

The rules a game's tables change (:mod:`engine.vaevictis.combat_rules`): the attacker's losses after the
defender's (7.6, ``[losses]``), the mandatory advance (7.7.2), Disorganisation after a retreat (3.6,
:mod:`engine.vaevictis.disorganization`), units destroyed when their stack retreats (12.2, 16), markers given up
as a step that otherwise roll for retention after the combat (1.6.1, 1.6.2), and a support marker held by a
Combat Command (1.6, :mod:`engine.vaevictis.combat_command_support`).

State the combat keeps or leaves: ``state.returning[army][kind]`` for support markers going back to the pool
(1.6.1, 1.6.2, official answer to 9.5); ``UnitState.retreated_into_stack`` (7.7.1); a ``breakthrough``
:class:`MapMarker` for the attacker (7.8), to be removed at the end of the operations phase by the turn
sequence; ``state.flags["christmas_reroll"]``, the sides still holding the re-roll present (15.4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import arguments
from engine.contract import Action, Choice, Event, IllegalActionError, InvalidActionError, NotYourTurnError, Prompt
from engine.dice import Dice
from engine.hexgrid import Hex, hex_name
from engine.vaevictis import combat_command_support as cc_support
from engine.vaevictis import combat_rules, disorganization, snafu_vv60, zoc
from engine.vaevictis import retreat as rt
from engine.vaevictis.combat_command_support import holder_army, holder_name, is_combat_command
from engine.vaevictis.data import CrtCell, GameData, Side, other_side
from engine.vaevictis.events import attack_reactions
from engine.vaevictis.odds import (
    Assessment,
    AttackPlan,
    Modifier,
    SupportUse,
    action_cost,
    alone_in_its_hex,
    assess,
    attack_type,
    c3i_rating,
    crt_cell,
    default_quality_unit,
    is_armor,
    may_support,
    support_condition_problem,
    support_def,
)
from engine.vaevictis.pending_records import (
    ArmorMarkers,
    AttackKind,
    CombatRecord,
    RetreatGroup,
    Role,
    SideResult,
    advancing_units,
    pending_records,
    push,
)
from engine.vaevictis.state import GameState, MapMarker, Position, UnitState

# --- Dice ---------------------------------------------------------------------------------------------------


def roll_d6(state: GameState, purpose: str, rule: str, modifiers: Sequence[Modifier] = ()) -> tuple[int, Event]:
    """Roll one die through the game's verifiable dice, and the event that logs it with every modifier."""
    dice = Dice(bytes.fromhex(state.seed), state.rolls_made)
    number = state.rolls_made
    face = dice.d6()
    state.rolls_made = dice.rolls_made
    total = face + sum(m.amount for m in modifiers)
    mods = "".join(f", {m}" for m in modifiers)
    text = f"{purpose} ({rule}): rolled {face}{mods}" + (f" = {total}" if modifiers else "")
    return face, Event(
        "roll",
        text,
        {
            "purpose": purpose,
            "rule": rule,
            "number": number,
            "sides": 6,
            "die": face,
            "modifiers": [{"amount": m.amount, "reason": m.reason, "rule": m.rule} for m in modifiers],
            "total": total,
        },
    )


def _refuse(message: str, rule: str) -> IllegalActionError:
    return IllegalActionError(message, rule=rule)


def _name(data: GameData, unit_id: str) -> str:
    return data.units[unit_id].name


def _hex_names(hexes: Sequence[Hex]) -> str:
    return ", ".join(hex_name(h) for h in hexes)


def record_targets(record: CombatRecord) -> list[Hex]:
    """The hexes a pending combat attacks (a record written before attacks on several hexes has one)."""
    return [int(h) for h in record.get("targets") or [record["target"]]]


def _vacated(record: CombatRecord) -> list[Hex]:
    """[7.7.2] The target hexes the defender left, which the advance may enter first."""
    return [int(h) for h in record["advance"].get("vacated") or [record["target"]]]


# --- Beginning an attack --------------------------------------------------------------------------------


def begin_attack(data: GameData, state: GameState, plan: AttackPlan) -> list[Event]:
    """[7.5] Declare and resolve an attack up to the first decision a player must take.

    Checks the plan, spends each attacker's APs (1 normal, 2 prepared: 3.4.1) and the committed supports,
    rolls the optional C3I check (9.5), the combat die with its modifier and the supports' retention rolls
    (1.6.1, 1.6.2), reads the CRT and pushes the pending combat record. Mutates ``state`` (pass a copy).

    :raises IllegalActionError: if the attack breaks a rule; the state is then unchanged.
    """
    if any(r["kind"] == "combat" for r in pending_records(state)):
        raise _refuse("finish the combat in progress first", "7.5")
    plan = AttackPlan.from_json({**plan.to_json(), "snafu": None, "snafu_unit": None})
    assessment = assess(data, state, plan)
    cost = action_cost(data, plan.kind)
    target_zone = _zone_of(Position(data, state), plan.targets)
    _check_attackers_action_points(data, state, plan, cost, target_zone)
    # The attack is legal: from here on the state changes.
    events: list[Event] = []
    for unit_id in plan.attackers:
        unit = state.units[unit_id]
        unit.action_points -= cost
        if unit.hex in target_zone:
            # [7.1, 4.2] The duty to attack is met by attacking a hex whose units exert a ZoC on the unit.
            unit.must_attack = False
    for hq_id, kind in (*plan.supports, *plan.defender_supports):
        _spend_support(data, state, hq_id, kind)
    defender_side = other_side(plan.side)
    if plan.air:
        state.air_missions[plan.side] = state.air_missions.get(plan.side, 0) - plan.air
    if plan.defender_air:
        state.air_missions[defender_side] = state.air_missions.get(defender_side, 0) - plan.defender_air
    events.append(
        Event(
            "attack",
            f"{data.side_name(plan.side)} {plan.kind} attack on {_hex_names(plan.targets)} by "
            + ", ".join(_name(data, u) for u in plan.attackers),
            {"plan": plan.to_json(), "ap_spent": cost},
        )
    )
    record: CombatRecord = {
        "kind": "combat",
        "plan": plan.to_json(),
        "side": plan.side,
        "target": plan.target,
        "targets": list(plan.targets),
        "attackers": list(plan.attackers),
        "defenders": list(assessment.defenders),
        "armor_on_both_sides": any(is_armor(data, u) for u in plan.attackers)
        and any(is_armor(data, u) for u in assessment.defenders),
        "snafu": None,
        "stage": "c3i",
    }
    push(state, record)
    # [7.5] "Beginning with the active player, the players add Support": the defender's turn, unless the plan
    # already names the defender's supports. The same window lets him choose his quality unit (7.4) and play
    # Nuts! "just at the start of a German attack" (15.3).
    if not plan.defender_supports and not plan.defender_air and defender_window_needed(data, state, record):
        record["stage"] = "defender_supports"
    events += _continue(data, state, record)
    return events


def _check_attackers_action_points(
    data: GameData, state: GameState, plan: AttackPlan, cost: int, target_zone: set[Hex]
) -> None:
    """[3.4.1, 4.2] Every attacker has the APs the attack costs, and none that owes an attack spends its last
    ones attacking a hex that exerts no zone of control on it.

    :raises IllegalActionError: naming the unit, and the attacks that would meet its duty.
    """
    for unit_id in plan.attackers:
        unit = state.units[unit_id]
        if unit.action_points < cost:
            raise _refuse(
                f"{_name(data, unit_id)} has {unit.action_points} AP left; a {plan.kind} attack costs {cost}", "3.4.1"
            )
    pos = Position(data, state)
    for unit_id in plan.attackers:
        unit = state.units[unit_id]
        if (
            owes_an_attack(pos, unit)
            and unit.hex not in target_zone
            and unit.action_points - cost < action_cost(data, "normal")
        ):
            # [4.2] Its last AP on a hex that exerts no zone on it would leave its duty to attack unmet for good.
            duty = ", ".join(hex_name(h) for h, _ in duty_attacks(data, state, unit))
            raise _refuse(
                f"{_name(data, unit_id)} entered an enemy zone of control: with its last AP it must attack a unit "
                "exerting that zone on it" + (f" ({duty})" if duty else ""),
                "4.2",
            )


def _zone_of(pos: Position, targets: Sequence[Hex]) -> set[Hex]:
    """[4.1] The hexes the units in ``targets`` exert a zone of control on."""
    return {h for target in targets for u in pos.units_at(target) for h in zoc.zoc_hexes(pos, u)}


def owes_an_attack(pos: Position, unit: UnitState) -> bool:
    """[4.2] Whether the unit entered an enemy zone of control, has not attacked since and still stands in an
    enemy zone (when no enemy unit exerts one on it any more, the duty lapses)."""
    return unit.must_attack and unit.hex in zoc.enemy_zoc(pos, pos.data.side_of(unit.id))


def duty_attacks(data: GameData, state: GameState, unit: UnitState) -> list[tuple[Hex, str]]:
    """[4.2, 7.1, 3.4.1] The attacks that would meet a unit's duty to attack, made by the unit alone: each
    adjacent hex whose units exert a zone of control on it, with the first kind (normal, then prepared) the
    attack rules and the unit's APs allow. Empty when the rules allow none (the duty cannot demand it)."""
    if unit.hex is None:
        return []
    side = data.side_of(unit.id)
    pos = Position(data, state)
    found: list[tuple[Hex, str]] = []
    kinds: tuple[AttackKind, ...] = ("normal", "prepared")
    for target in data.map.grid.neighbours(unit.hex):
        if pos.side_at(target) != other_side(side) or unit.hex not in _zone_of(pos, [target]):
            continue
        for kind in kinds:
            if unit.action_points < action_cost(data, kind):
                continue
            try:
                assess(data, state, AttackPlan(side=side, kind=kind, attackers=(unit.id,), targets=(target,)))
            except IllegalActionError:
                continue
            found.append((target, kind))
            break
    return found


def defence_support_options(data: GameData, state: GameState, record: CombatRecord) -> tuple[list[SupportUse], bool]:
    """[7.5, 1.6, 14.3] The HQ markers (``(hq, kind)``) the defender may still add, and whether an air support."""
    plan = current_plan(record)
    defender = other_side(plan.side)
    row = attack_type(data, plan.kind)
    pos = Position(data, state)
    defenders = [state.units[u] for u in record["defenders"]]
    markers: list[SupportUse] = []
    if len(plan.defender_supports) < int(row["hq_supports"]):
        for hq in state.units.values():
            if not hq.on_map or not hq.supports or data.side_of(hq.id) != defender or not data.units[hq.id].is_hq:
                continue
            if any(may_support(pos, hq.id, u) for u in defenders):
                markers += [(hq.id, kind) for kind in sorted(set(hq.supports))]
        for cc in sorted(cc_support.combat_commands(data)):
            for kind in sorted(set(cc_support.held(state, cc))):
                if cc_support.may_support(data, state, cc, kind, record["defenders"]) is None:
                    markers.append((cc, kind))
        attackers = [state.units[u] for u in record["attackers"]]
        links = [
            (u.hex, t)
            for u in attackers
            if u.hex is not None
            for t in record_targets(record)
            if data.map.grid.are_adjacent(u.hex, t)
        ]
        markers = [
            m for m in markers if support_condition_problem(data, defender, m[1], "defence", attackers, links) is None
        ]
    air = (
        plan.defender_air < int(row["air_supports"])
        and plan.air + plan.defender_air < 2
        and state.air_missions.get(defender, 0) > 0
    )
    return markers, air


def defender_quality_options(data: GameData, state: GameState, record: CombatRecord) -> list[str]:
    """[7.4, 1.3] The defending units whose quality the defender may use (an HQ only when alone in its hex),
    when he has a choice to make: none for a single candidate."""
    pos = Position(data, state)
    candidates = [
        u
        for u in _alive(state, record["defenders"])
        if not data.units[u].is_hq or alone_in_its_hex(pos, state.units[u])
    ]
    return candidates if len(candidates) > 1 else []


def defender_window_needed(data: GameData, state: GameState, record: CombatRecord) -> bool:
    """[7.5, 7.4, 15.3] Whether the defender has something to decide before the die: a support to add, his
    quality unit to choose, or a reaction event (Nuts!) to play at the start of the attack."""
    defender = other_side(record["side"])
    quality_open = "defender_quality" not in record and bool(defender_quality_options(data, state, record))
    return (
        any(defence_support_options(data, state, record))
        or quality_open
        or bool(attack_reactions(data, state, defender))
    )


def _c3i_check(data: GameData, state: GameState, record: CombatRecord, plan: AttackPlan) -> list[Event]:
    order = "ABC"
    rating = max((c3i_rating(data, u) for u in plan.attackers), key=order.index)
    face, event = roll_d6(state, f"C3I check, rating {rating}", "9.5")
    events = [event]
    effect: str | None = None
    if data.tables.c3i[rating][face - 1]:
        first, e1 = roll_d6(state, "SNAFU table, first die", "9.5")
        second, e2 = roll_d6(state, "SNAFU table, second die", "9.5")
        effect = data.tables.snafu[first + second]
        texts = {int(total): entry["text"] for entry in data.tables.raw["snafu"] for total in entry["roll"]}
        events += [
            e1,
            e2,
            Event(
                "snafu",
                f"SNAFU {first + second}: {texts.get(first + second, effect)}",
                {"roll": first + second, "effect": effect},
            ),
        ]
    record["snafu"] = effect
    if effect == "hesitation":
        for unit_id in plan.attackers:
            unit = state.units[unit_id]
            if unit.action_points > 0:
                unit.action_points -= 1
    if effect == "halve-one-armored":
        choices = [u for u in plan.attackers if data.units[u].kind == "armored"]
        if len(choices) == 1:
            record["snafu_unit"] = choices[0]
        elif choices:
            record["stage"] = "snafu_choice"
            record["snafu_choices"] = choices
    if effect == "zero-one-attacker" and len(plan.attackers) > 1:
        record["stage"] = "snafu_choice"
        record["snafu_choices"] = list(plan.attackers)
    return events


def current_plan(record: CombatRecord) -> AttackPlan:
    """The plan of a pending combat, with its SNAFU once known."""
    return AttackPlan.from_json(
        {**record["plan"], "snafu": record.get("snafu"), "snafu_unit": record.get("snafu_unit")}
    )


def _roll_combat(data: GameData, state: GameState, record: CombatRecord) -> list[Event]:
    """[7.5] Roll the combat die with its modifier and read the CRT."""
    plan = current_plan(record)
    assessment = assess(data, state, plan, committed=True)
    face, roll_event = roll_d6(state, "Combat die", "7.5", assessment.drm)
    record["die"] = face
    record["assessment"] = {
        "column": assessment.column,
        "column_name": assessment.column_name,
        "drm": assessment.drm_total,
        "attacker_quality": assessment.attacker_quality,
        "defender_quality": assessment.defender_quality,
        "cancelled": list(assessment.cancelled),
        "attack_total": assessment.attack_total,
        "defence_total": assessment.defence_total,
        "ratio": assessment.ratio,
        "shifts": [{"amount": m.amount, "reason": m.reason, "rule": m.rule} for m in assessment.shifts],
        "drm_detail": [{"amount": m.amount, "reason": m.reason, "rule": m.rule} for m in assessment.drm],
    }
    rerollers = state.flags.get("christmas_reroll", [])
    if state.options.get("christmas_presents") and plan.side in rerollers:
        record["stage"] = "reroll"
        return [roll_event]
    return [roll_event, *_read_result(data, state, record, assessment)]


def _read_result(
    data: GameData, state: GameState, record: CombatRecord, assessment: Assessment | None = None
) -> list[Event]:
    plan = current_plan(record)
    if assessment is None:
        assessment = assess(data, state, plan, committed=True)
    info = record["assessment"]
    row, cell = crt_cell(data, info["column"], record["die"] + info["drm"])
    breakthrough = cell.breakthrough and record.get("snafu") != "hesitation"
    record["result"] = {
        "text": str(cell),
        "attacker": cell.attacker,
        "defender": cell.defender,
        "attacker_red": cell.attacker_red,
        "defender_red": cell.defender_red,
        "breakthrough": breakthrough,
        "row": row,
    }
    events = [
        Event(
            "combat",
            f"Combat at {_hex_names(plan.targets)}: {assessment.attack_total} against {assessment.defence_total}, "
            f"ratio {assessment.ratio}, column {assessment.column_name}, die {record['die']} "
            f"{assessment.drm_total:+d}: result {cell}" + (" (breakthrough)" if breakthrough else ""),
            {
                "attackers": list(plan.attackers),
                "defenders": list(assessment.defenders),
                "target": plan.target,
                "targets": list(plan.targets),
                "terrain_hex": assessment.terrain_hex,
                "ratio": assessment.ratio,
                "column": assessment.column_name,
                "shifts": info["shifts"],
                "drm": assessment.drm_total,
                "drm_detail": info["drm_detail"],
                "die": record["die"],
                "result": str(cell),
                "breakthrough": breakthrough,
                "snafu": record.get("snafu"),
                "lines": assessment.lines(),
            },
        )
    ]
    events += _supports_after_use(data, state, record, plan, assessment)
    if breakthrough:
        # [7.8] On the hex the defender occupied: each target hex of an attack on several (7.2).
        for target in plan.targets:
            state.markers.append(MapMarker("breakthrough", target, plan.side, state.turn))
            events.append(
                Event(
                    "breakthrough",
                    f"Breakthrough at {hex_name(target)} (7.8)",
                    {"hex": target, "side": plan.side},
                )
            )
    record["defender"] = _side_record(data, state, record, "defender", cell)
    record["attacker"] = _side_record(data, state, record, "attacker", cell)
    record["stage"] = "defender"
    events += _eliminate_if_e(data, state, record, "defender")
    events += _eliminate_if_e(data, state, record, "attacker")
    return events


def _supports_after_use(
    data: GameData, state: GameState, record: CombatRecord, plan: AttackPlan, assessment: Assessment
) -> list[Event]:
    """[1.6.1, 1.6.2, 9.5] Retention rolls for the artillery supports used; cancelled ones go back unrolled."""
    events: list[Event] = []
    cancelled = list(assessment.cancelled)
    armor: ArmorMarkers = {"attacker": [], "defender": []}
    defender_side = other_side(plan.side)
    sides: tuple[tuple[Role, Side, tuple[SupportUse, ...]], ...] = (
        ("attacker", plan.side, plan.supports),
        ("defender", defender_side, plan.defender_supports),
    )
    for role, owner, uses in sides:
        for hq_id, kind in uses:
            army = holder_army(data, hq_id).id
            definition = support_def(data, owner, kind)
            assert definition is not None
            label = f"{kind.replace('_', ' ')} of {holder_name(data, hq_id)}"
            if role == "attacker" and f"{hq_id}:{kind}" in cancelled:
                cancelled.remove(f"{hq_id}:{kind}")
                _return_marker(state, army, kind)
                events.append(
                    Event(
                        "support",
                        f"{label} cancelled by SNAFU: back to the pool next turn (9.5)",
                        {"hq": hq_id, "kind": kind, "kept": True, "cancelled": True},
                    )
                )
                continue
            if definition.get("may_absorb_step_loss"):
                # [1.6.1, 1.6.2] Kept aside until the losses are taken: it may be given up as a step.
                armor[role].append([hq_id, kind])
                continue
            events += _retention(state, army, kind, definition, label, {"hq": hq_id})
    record["armor_markers"] = armor
    if plan.surprise_support is not None:
        army, kind = plan.surprise_support
        definition = support_def(data, data.armies[army].side, kind)
        assert definition is not None
        label = f"{kind.replace('_', ' ')}, the surprise support (9.5)"
        events += _retention(state, army, kind, definition, label, {"surprise": True})
    return events


def _retention(
    state: GameState, army: str, kind: str, definition: Mapping[str, Any], label: str, info: Mapping[str, Any]
) -> list[Event]:
    """[1.6.1, 1.6.2] The die that says whether a used marker goes back to the pool or leaves the game."""
    face, event = roll_d6(state, f"Retention of {label}", "1.6")
    kept = face in definition.get("kept_on", [])
    if kept:
        _return_marker(state, army, kind)
    text = f"{label} " + ("back to the pool next turn" if kept else "removed from the game")
    return [event, Event("support", text, {**info, "kind": kind, "kept": kept, "die": face})]


def _spend_support(data: GameData, state: GameState, holder: str, kind: str) -> None:
    """A marker committed to a combat leaves its holder: an HQ, or a Combat Command (1.6)."""
    if is_combat_command(data, holder):
        cc_support.spend(state, holder, kind)
    else:
        state.units[holder].supports.remove(kind)


def _return_marker(state: GameState, army: str, kind: str) -> None:
    pool = state.returning.setdefault(army, {})
    pool[kind] = pool.get(kind, 0) + 1


# --- The results ----------------------------------------------------------------------------------------


def _side_units(record: CombatRecord, role: Role) -> list[str]:
    return list(record["attackers"] if role == "attacker" else record["defenders"])


def _quality_unit(record: CombatRecord, role: Role) -> str:
    """[7.4] The unit of the side whose quality was used: it takes the side's first loss."""
    assessment = record["assessment"]
    return assessment["attacker_quality"] if role == "attacker" else assessment["defender_quality"]


def _armor_markers_held(record: CombatRecord, role: Role) -> list[list[str]]:
    """[1.6.1] The side's armor markers kept aside until its losses are taken, each ``[hq id, kind]``."""
    if "armor_markers" not in record:
        return []
    return record["armor_markers"][role]


def _alive(state: GameState, ids: Sequence[str]) -> list[str]:
    return [u for u in ids if state.units[u].on_map]


def _side_record(data: GameData, state: GameState, record: CombatRecord, role: Role, cell: CrtCell) -> SideResult:
    value = cell.attacker if role == "attacker" else cell.defender
    red = cell.attacker_red if role == "attacker" else cell.defender_red
    plan = current_plan(record)
    minimum = 0
    if value != "E" and value > 0:
        if red:
            minimum = 1
        if role == "attacker" and attack_type(data, plan.kind)["attacker_minimum_loss"]:
            minimum = 1
    hexes: dict[Hex, list[str]] = {}
    for u in _side_units(record, role):
        h = state.units[u].hex
        assert h is not None
        hexes.setdefault(h, []).append(u)
    return {
        "owed": value,
        "min_losses": minimum,
        "losses": 0,
        "steps_lost": 0,
        "retreat": None,
        "groups": [
            {"units": units, "path": [h], "zoc_owed": 0, "blocked": False} for h, units in sorted(hexes.items())
        ],
        "unfulfilled": 0,
        "done": value == 0,
    }


def _eliminate_if_e(data: GameData, state: GameState, record: CombatRecord, role: Role) -> list[Event]:
    side_record = record[role]
    if side_record["owed"] != "E":
        return []
    events = []
    for u in _alive(state, _side_units(record, role)):
        events += _eliminate(data, state, u, "the whole stack is eliminated (E, 7.6)")
    side_record["done"] = True
    return events


def _eliminate(data: GameData, state: GameState, unit_id: str, why: str) -> list[Event]:
    unit = state.units[unit_id]
    where = unit.hex
    unit.steps = 0
    unit.eliminated = True
    unit.hex = None
    events = [Event("eliminated", f"{_name(data, unit_id)} is eliminated: {why}", {"unit": unit_id, "hex": where})]
    if data.units[unit_id].is_hq and unit.supports:
        army = data.army_of(unit_id).id
        for kind in unit.supports:
            _return_marker(state, army, kind)
        events.append(
            Event(
                "support",
                f"The supports of {_name(data, unit_id)} go back to the pool (1.3)",
                {"hq": unit_id, "kinds": list(unit.supports)},
            )
        )
        unit.supports = []
    return events


def _lose_step(data: GameData, state: GameState, unit_id: str, why: str) -> list[Event]:
    unit = state.units[unit_id]
    if unit.steps <= 1:
        return [
            Event("loss", f"{_name(data, unit_id)} loses its last step ({why})", {"unit": unit_id, "steps": 0}),
            *_eliminate(data, state, unit_id, why),
        ]
    unit.steps -= 1
    return [
        Event(
            "loss",
            f"{_name(data, unit_id)} loses a step ({why}): {unit.steps} left",
            {"unit": unit_id, "steps": unit.steps},
        )
    ]


def _owed(side_record: SideResult) -> int:
    value = side_record["owed"]
    return 0 if value == "E" else int(value)


def _role_side(record: CombatRecord, role: Role) -> Side:
    side = record["side"]
    return side if role == "attacker" else other_side(side)


# --- Who may take a loss ---------------------------------------------------------------------------------


def _hq_may_fall(data: GameData, state: GameState, unit_id: str, among: Sequence[str]) -> bool:
    """[1.3] An HQ is destroyed only alone or once the units stacked with it are gone."""
    if not data.units[unit_id].is_hq:
        return True
    here = state.units[unit_id].hex
    return not any(
        u != unit_id and state.units[u].hex == here and not data.units[u].is_hq for u in _alive(state, among)
    )


def loss_targets(data: GameData, state: GameState, record: CombatRecord, role: Role) -> tuple[list[str], list[str]]:
    """[7.4, 7.6, 1.6.1] The units, and the armor markers (``"hq:kind"``), that may take the next step loss."""
    side_record = record[role]
    units = _alive(state, _side_units(record, role))
    held = _armor_markers_held(record, role)
    markers = [f"{h}:{k}" for h, k in held]
    owner = _role_side(record, role)
    # [7.6] Only a marker of the armor category stands for an armored unit (Ardennes' "armored HQ Support counter").
    armor_markers = [f"{h}:{k}" for h, k in held if (support_def(data, owner, k) or {}).get("category") == "armor"]
    zoc_group = next((g for g in side_record["groups"] if g["zoc_owed"] > 0 and _alive(state, g["units"])), None)
    if zoc_group is not None:
        members = _alive(state, zoc_group["units"])
        return [u for u in members if _hq_may_fall(data, state, u, members)], markers
    taken = side_record["losses"]
    quality = _quality_unit(record, role)
    if taken == 0 and quality in units:
        return [quality], []
    allowed = [u for u in units if _hq_may_fall(data, state, u, units)]
    if record["armor_on_both_sides"]:
        armored_index = 0 if is_armor(data, quality) else 1
        if taken == armored_index:
            armored = [u for u in allowed if is_armor(data, u)]
            if armored or armor_markers:
                return armored, armor_markers
    return allowed, markers


# --- The machine ----------------------------------------------------------------------------------------


def _continue(data: GameData, state: GameState, record: CombatRecord) -> list[Event]:
    """Run the automatic steps of the combat until a player must decide or the combat is over."""
    events: list[Event] = []
    for _ in range(1000):
        stage = record["stage"]
        if stage == "c3i":
            record["stage"] = "roll"
            if state.options.get("c3i_snafu"):
                # [9.5] The optional C3I check and the SNAFU table.
                events += _c3i_check(data, state, record, current_plan(record))
            elif state.options.get(snafu_vv60.OPTION):
                events += snafu_vv60.roll(data, state, record, current_plan(record))  # [9.5] Alsace 1944, VV60
            continue
        if stage == "roll":
            events += _roll_combat(data, state, record)
            continue
        if stage == "defender_supports":
            if defender_window_needed(data, state, record):
                return events
            record["stage"] = "c3i"
            continue
        if stage in ("snafu_choice", "reroll", snafu_vv60.STAGE):
            return events
        if stage in ("defender", "attacker"):
            role = stage
            events += _settle(data, state, record, role)
            if _needs_decision(data, state, record, role):
                return events
            if role == "defender":
                record["stage"] = "attacker"
                events += _attacker_loss_rules(data, record)
            else:
                events += _start_advance(data, state, record)
            continue
        if stage == "advance":
            if _advance_groups(data, state, record):
                return events
            record["stage"] = "done"
            continue
        if stage == "done":
            events += _finish(data, state, record)
            return events
    raise RuntimeError("combat procedure did not settle")  # pragma: no cover


def _settle(data: GameData, state: GameState, record: CombatRecord, role: Role) -> list[Event]:
    """Automatic consequences: eliminated sides, blocked or impossible retreats absorbed as losses."""
    side_record = record[role]
    events: list[Event] = []
    if side_record["done"]:
        return events
    side = _role_side(record, role)
    units = _alive(state, _side_units(record, role))
    owed = _owed(side_record)
    if not units:
        retreated = max((len(g["path"]) - 1 for g in side_record["groups"]), default=0)
        side_record["unfulfilled"] = max(0, owed - side_record["losses"] - retreated)
        side_record["done"] = True
        return events
    if side_record["retreat"] is None:
        if side_record["losses"] >= owed:
            side_record["done"] = True
        return events
    pos = Position(data, state)
    control = zoc.enemy_zoc(pos, side)
    for group in side_record["groups"]:
        members = _alive(state, group["units"])
        if not members or group["zoc_owed"] or group["blocked"]:
            continue
        left = side_record["retreat"] - (len(group["path"]) - 1)
        if left <= 0:
            continue
        options = rt.retreat_options(pos, side, _movers(data, members), group["path"], control)
        if options.hexes:
            continue
        if options.off_map:
            why = rt.lost_retreat_reason(data, group["path"][-1])
            for u in members:
                events += _eliminate(data, state, u, why)
            pos.invalidate()
            continue
        group["blocked"] = True
        group["zoc_owed"] += left
        events.append(
            Event(
                "retreat",
                f"{', '.join(_name(data, u) for u in members)} cannot retreat further from "
                f"{hex_name(group['path'][-1])}: the remaining {left} hex(es) are taken as step losses (7.7.1)",
                {"units": members, "hex": group["path"][-1], "absorbed": left},
            )
        )
    if not _alive(state, _side_units(record, role)):
        return events + _settle(data, state, record, role)
    finished = all(
        not _alive(state, g["units"])
        or (g["zoc_owed"] == 0 and (g["blocked"] or len(g["path"]) - 1 >= side_record["retreat"]))
        for g in side_record["groups"]
    )
    if finished:
        side_record["done"] = True
        if combat_rules.retreat_rules(data).into_friendly_stack_halves:
            events += _mark_retreated_into_stack(data, state, record, role)
    return events


def _mark_retreated_into_stack(data: GameData, state: GameState, record: CombatRecord, role: Role) -> list[Event]:
    side_record = record[role]
    mine = set(_side_units(record, role))
    pos = Position(data, state)
    events = []
    for group in side_record["groups"]:
        members = _alive(state, group["units"])
        if not members or len(group["path"]) < 2:
            continue
        others = [u for u in pos.units_at(group["path"][-1]) if u.id not in mine]
        if others:
            for u in members:
                state.units[u].retreated_into_stack = True
            events.append(
                Event(
                    "retreat",
                    f"{', '.join(_name(data, u) for u in members)} retreated into a friendly "
                    "stack: half strength if attacked again this turn (7.7.1)",
                    {"units": members, "hex": group["path"][-1], "retreated_into_stack": True},
                )
            )
    return events


def _attacker_loss_rules(data: GameData, record: CombatRecord) -> list[Event]:
    """[7.6] What the defender did bounds the attacker's choices (the game's ``[losses]``): a defender who lost
    steps costs the attacker at least one step of an adverse result; a defender who held his ground, taking
    his result as steps, leaves the attacker no retreat."""
    rules = combat_rules.loss_rules(data)
    attacker, defender = record["attacker"], record["defender"]
    owed = attacker["owed"]
    if owed == "E" or owed == 0 or attacker["done"]:
        return []
    lost = defender["owed"] == "E" or defender["losses"] > 0
    held = lost and defender["retreat"] is None
    events = []
    if rules.holds_if_defender_holds and held and attacker["min_losses"] < owed:
        attacker["min_losses"] = owed
        attacker["held_by_defender"] = True
        events.append(
            Event(
                "combat",
                "The defender held his ground and lost steps: the attacker takes his whole result as losses (7.6)",
                {"rule": "7.6", "attacker_minimum": owed},
            )
        )
    elif rules.minimum_if_defender_loses and lost and attacker["min_losses"] < 1:
        attacker["min_losses"] = 1
        attacker["defender_lost"] = True
        events.append(
            Event(
                "combat",
                "The defender lost steps: the attacker loses at least one step of his result (7.6)",
                {"rule": "7.6", "attacker_minimum": 1},
            )
        )
    return events


def _needs_decision(data: GameData, state: GameState, record: CombatRecord, role: Role) -> bool:
    return not record[role]["done"]


def _start_advance(data: GameData, state: GameState, record: CombatRecord) -> list[Event]:
    """[7.7.2] Whether the attacker may advance, and how far."""
    record["stage"] = "done"
    target = record["target"]
    attacker = record["attacker"]
    defender = record["defender"]
    side = record["side"]
    pos = Position(data, state)
    # [7.7.2, 7.2] Any target hex the defender left may be entered.
    vacated = [h for h in record_targets(record) if not pos.units_at(h)]
    if not vacated:
        return []
    if record.get("snafu") == "hesitation":
        return [Event("advance", "No advance after combat: SNAFU 3, hesitation (9.5)", {"hex": target})]
    if attacker["retreat"] is not None:
        return []
    units = _alive(state, record["attackers"])
    if not units:
        return []
    if defender["owed"] == "E":
        allowance = 1
    else:
        retreated = max((len(g["path"]) - 1 for g in defender["groups"]), default=0)
        allowance = max(1, retreated + int(defender["unfulfilled"]))
    record["advance"] = {
        "allowance": allowance,
        "vacated": vacated,
        "paths": [g["path"] for g in defender["groups"]],
        "units": advancing_units(state, units),
    }
    record["stage"] = "advance"
    return [
        Event(
            "advance",
            f"{data.side_name(side)} may advance up to {allowance} hex(es) from {_hex_names(vacated)} (7.7.2)",
            {"hex": vacated[0], "hexes": vacated, "allowance": allowance},
        )
    ]


def _advance_groups(data: GameData, state: GameState, record: CombatRecord) -> dict[tuple[Hex, int], list[str]]:
    """Advancing units still able to move, grouped by hex and hexes advanced."""
    advance = record["advance"]
    groups: dict[tuple[Hex, int], list[str]] = {}
    for u, info in advance["units"].items():
        if info["stopped"] or not state.units[u].on_map or info["moved"] >= advance["allowance"]:
            continue
        groups.setdefault((info["hex"], info["moved"]), []).append(u)
    pos = Position(data, state)
    side = record["side"]
    return {
        key: units
        for key, units in groups.items()
        if any(
            rt.advance_options(pos, side, [u], key[0], key[1], _vacated(record), advance["paths"], advance["allowance"])
            for u in units
        )
    }


def _finish(data: GameData, state: GameState, record: CombatRecord) -> list[Event]:
    """[1.6.1] Armor supports not given up go back to the pool; the combat leaves the pending stack."""
    events = []
    roles: tuple[Role, ...] = ("attacker", "defender")
    for role in roles:
        owner = _role_side(record, role)
        for hq_id, kind in _armor_markers_held(record, role):
            army = holder_army(data, hq_id).id
            definition = support_def(data, owner, kind) or {}
            if set(definition.get("kept_on", range(1, 7))) < set(range(1, 7)):
                # [1.6.1, 1.6.2] Not given up as a loss: it rolls to stay, as Alsace 1944's Pioneers and TDs do.
                label = f"{kind.replace('_', ' ')} of {holder_name(data, hq_id)}"
                events += _retention(state, army, kind, definition, label, {"hq": hq_id})
                continue
            _return_marker(state, army, kind)
            events.append(
                Event(
                    "support",
                    f"{kind} of {holder_name(data, hq_id)} back to the pool next turn (1.6.1)",
                    {"hq": hq_id, "kind": kind, "kept": True},
                )
            )
    pending_records(state).remove(record)
    events.append(
        Event(
            "combat_end",
            f"Combat at {_hex_names(record_targets(record))} is over",
            {"target": record["target"], "targets": record_targets(record)},
        )
    )
    return events


# --- Prompts ----------------------------------------------------------------------------------------------


def _top_record(state: GameState) -> CombatRecord:
    for record in pending_records(state)[::-1]:
        if record["kind"] == "combat":
            return record
    raise _refuse("no combat is waiting for a decision", "7.5")


def pending_seat(state: GameState) -> Side:
    """The seat the top pending combat waits for: :func:`pending_prompt`'s seat, without its choices.

    :raises IllegalActionError: if no combat is pending.
    """
    return _seat(_top_record(state))


def _seat(record: CombatRecord) -> Side:
    stage = record["stage"]
    attacker = record["side"]
    if stage == snafu_vv60.STAGE:
        return snafu_vv60.seat(record)
    if stage in ("snafu_choice", "defender", "defender_supports"):
        return other_side(attacker)
    return attacker


def choices(data: GameData, state: GameState) -> tuple[Side, str, list[Choice], str]:
    """The seat that decides, the question, the legal choices and the rule, for the top pending combat."""
    record = _top_record(state)
    seat = _seat(record)
    stage = record["stage"]
    if stage == "defender_supports":
        text, options = _defence_support_question(data, state, record, seat)
        return seat, text, options, "7.5"
    if stage == snafu_vv60.STAGE:
        text, options = snafu_vv60.choices(data, state, record)
        return seat, text, options, "9.5"
    if stage == "snafu_choice":
        return (
            seat,
            "SNAFU: choose the attacking unit it strikes",
            [Choice("choose_snafu_unit", {"unit": u}, _name(data, u)) for u in record["snafu_choices"]],
            "9.5",
        )
    if stage == "reroll":
        return (
            seat,
            f"Combat die {record['die']}: use your Christmas re-roll?",
            [
                Choice("reroll", {}, "Re-roll (the new roll stands)"),
                Choice("keep_roll", {}, f"Keep the {record['die']}"),
            ],
            "15.4",
        )
    if stage == "advance":
        text, options = _advance_question(data, state, record, seat)
        return seat, text, options, "7.7.2"
    if stage not in ("defender", "attacker"):  # pragma: no cover - the machine never rests elsewhere
        raise _refuse("no decision is due", "7.5")
    text, options = _result_question(data, state, record, stage)
    return seat, text, options, "7.6" if record[stage]["retreat"] is None else "7.7.1"


def _defence_support_question(
    data: GameData, state: GameState, record: CombatRecord, seat: Side
) -> tuple[str, list[Choice]]:
    """[7.5, 7.4, 15.3] The defender's window before the die: his supports, his quality unit, Nuts!."""
    offered, air = defence_support_options(data, state, record)
    options = [
        Choice("support_defence", {"hq": h, "kind": k}, f"{k.replace('_', ' ')} of {holder_name(data, h)}")
        for h, k in offered
    ]
    if air:
        options.append(Choice("air_defence", {}, "An air support"))
    chosen = record.get("defender_quality")
    options += [
        Choice("choose_quality", {"unit": u}, f"Use the quality of {_name(data, u)} (it takes the first loss)")
        for u in defender_quality_options(data, state, record)
        if u != chosen
    ]
    options.append(Choice("supports_done", {}, "Go on with the combat"))
    text = f"Attack on {_hex_names(record_targets(record))}: add supports to your defence"
    if defender_quality_options(data, state, record):
        best = chosen or default_quality_unit(
            Position(data, state), [state.units[u] for u in _alive(state, record["defenders"])], alone=False
        )
        text += f", choose the unit whose quality you use (now {_name(data, best)}, 7.4)"
    reactions = attack_reactions(data, state, seat)
    if reactions:
        names = sorted({data.events[str(c.args["event"])].name for c in reactions})
        text += f", or play {' or '.join(names)} (15.3)"
    return text + "?", options


def _advance_question(data: GameData, state: GameState, record: CombatRecord, seat: Side) -> tuple[str, list[Choice]]:
    """[7.7.2] Each hex a group of advancing units may enter next, and stopping unless the advance is owed."""
    out = []
    advance = record["advance"]
    pos = Position(data, state)
    for (here, moved), units in sorted(_advance_groups(data, state, record).items()):
        reach = {
            u: rt.advance_options(pos, seat, [u], here, moved, _vacated(record), advance["paths"], advance["allowance"])
            for u in units
        }
        for h in sorted({h for u in units for h in reach[u]}):
            able = [u for u in units if h in reach[u]]
            out.append(
                Choice(
                    "advance",
                    {"to": h, "units": ",".join(able)},
                    f"Advance {', '.join(_name(data, u) for u in able)} to {hex_name(h)}",
                )
            )
    if _advance_owed(data, record):
        return "Advance after combat: a prepared attack must advance at least one unit", out
    out.append(Choice("end_advance", {}, "Stop advancing"))
    return f"Advance after combat (up to {advance['allowance']} hex(es))?", out


def _result_question(data: GameData, state: GameState, record: CombatRecord, role: Role) -> tuple[str, list[Choice]]:
    """[7.6, 7.7.1] A side taking its result: the units (or armor markers) that may lose the next step, and
    each hex a group may retreat into once the losses owed first are taken."""
    side_record = record[role]
    out = []
    units, markers = loss_targets(data, state, record, role)
    zoc_due = any(g["zoc_owed"] > 0 and _alive(state, g["units"]) for g in side_record["groups"])
    owed = _owed(side_record)
    if zoc_due or (side_record["retreat"] is None and side_record["losses"] < owed):
        out += [Choice("take_loss", {"unit": u}, f"{_name(data, u)} loses a step") for u in units]
        out += [Choice("take_loss", {"marker": m}, f"Give up the {m.split(':')[1]} marker as a step") for m in markers]
    if not zoc_due and side_record["losses"] >= side_record["min_losses"] and side_record["losses"] < owed:
        out += _retreat_choices(data, state, record, role)
    who = "Defender" if role == "defender" else "Attacker"
    lost = int(side_record.get("steps_lost", 0))
    so_far = "no step lost yet" if lost == 0 else f"{lost} step{'s' if lost > 1 else ''} lost so far"
    text = f"{who}: result {record['result']['text']}; {so_far}"
    if side_record["retreat"] is not None:
        text += f", retreating {side_record['retreat']} hex(es)"
    if zoc_due:
        text += "; lose the step owed for the retreat (7.7.1)"
    return text, out


def _retreat_choices(data: GameData, state: GameState, record: CombatRecord, role: Role) -> list[Choice]:
    """[7.7.1] Each hex each retreating group may enter next, with what entering it costs."""
    side_record = record[role]
    owed = _owed(side_record)
    pos = Position(data, state)
    side = _role_side(record, role)
    out = []
    for group in side_record["groups"]:
        members = _alive(state, group["units"])
        left = owed - side_record["losses"] - (len(group["path"]) - 1)
        if not members or group["blocked"] or left <= 0:
            continue
        for h in rt.retreat_options(pos, side, _movers(data, members), group["path"]).hexes:
            # [7.7.1] Say what a hex costs before the player chooses it.
            cost = " (enemy ZoC: costs a step, 7.7.1)" if rt.is_in_enemy_zoc(pos, side, h) else ""
            out.append(
                Choice(
                    "retreat",
                    {"to": h, "units": ",".join(members)},
                    f"Retreat {', '.join(_name(data, u) for u in members)} to {hex_name(h)}{cost}",
                )
            )
    return out


def pending_prompt(data: GameData, state: GameState) -> Prompt:
    """[7.6] The decision the top pending combat waits for: whose it is and the legal choices.

    :raises IllegalActionError: if no combat is pending.
    """
    seat, text, options, rule = choices(data, state)
    free = ("retreat", "advance") if any(c.verb in ("retreat", "advance") for c in options) else ()
    return Prompt(seat, text, tuple(options), free_verbs=free, rule=rule)


# --- Applying a decision ----------------------------------------------------------------------------------


def apply_pending(data: GameData, state: GameState, action: Action) -> list[Event]:
    """Apply one decision to the top pending combat (see the module docstring for the verbs).

    Mutates ``state`` (pass a copy).

    :raises NotYourTurnError: if the decision is the other side's.
    :raises IllegalActionError: if the rules forbid it, with the rule number.
    :raises InvalidActionError: for an unknown verb or a malformed argument.
    """
    record = _top_record(state)
    seat = _seat(record)
    if action.seat != seat:
        raise NotYourTurnError(f"the {data.side_name(seat)} player decides now")
    stage = record["stage"]
    verb, args = action.verb, action.args
    events: list[Event] = []
    if stage == "defender_supports":
        events += _apply_defence_support(data, state, record, verb, args)
    elif stage == snafu_vv60.STAGE:
        events += snafu_vv60.apply(data, state, record, verb, args)
    elif stage == "snafu_choice":
        if verb != "choose_snafu_unit":
            raise InvalidActionError("choose the attacking unit the SNAFU strikes (choose_snafu_unit)")
        unit = arguments.text(args, "unit")
        if unit not in record["snafu_choices"]:
            raise _refuse(f"{unit!r} is not an attacker this SNAFU may strike", "9.5")
        record["snafu_unit"] = unit
        record["stage"] = "roll"
        events.append(Event("snafu", f"SNAFU strikes {_name(data, unit)}", {"unit": unit}))
    elif stage == "reroll":
        if verb == "reroll":
            state.flags["christmas_reroll"] = [s for s in state.flags.get("christmas_reroll", []) if s != seat]
            plan = current_plan(record)
            drm = assess(data, state, plan, committed=True).drm
            face, event = roll_d6(state, "Combat die, Christmas re-roll", "15.4", drm)
            record["die"] = face
            events.append(event)
        elif verb != "keep_roll":
            raise InvalidActionError("answer 'reroll' or 'keep_roll'")
        events += _read_result(data, state, record)
    elif stage in ("defender", "attacker"):
        events += _apply_result_decision(data, state, record, stage, verb, args)
    elif stage == "advance":
        events += _apply_advance(data, state, record, verb, args)
    else:  # pragma: no cover - the machine never rests elsewhere
        raise _refuse("no decision is due", "7.5")
    return events + _continue(data, state, record)


def _apply_defence_support(
    data: GameData, state: GameState, record: CombatRecord, verb: str, args: Mapping[str, Any]
) -> list[Event]:
    """[7.5, 1.6, 14.3, 7.4] The defender adds one support to the combat, chooses his quality unit, or is done."""
    if verb == "supports_done":
        record["stage"] = "c3i"
        return []
    if verb == "choose_quality":
        unit = arguments.text(args, "unit")
        if unit not in defender_quality_options(data, state, record):
            raise _refuse(f"{unit!r} is not a defending unit whose quality may be used", "7.4")
        record["defender_quality"] = unit
        record["plan"]["defender_quality"] = unit
        return [
            Event(
                "quality",
                f"The defender uses the quality of {_name(data, unit)}, which takes the first loss (7.4)",
                {"side": _seat(record), "unit": unit},
            )
        ]
    markers, air = defence_support_options(data, state, record)
    defender = _seat(record)
    if verb == "air_defence":
        if not air:
            raise _refuse("no air support may be added: none left, or the combat's limit is reached", data.rule("14.3"))
        record["plan"]["defender_air"] = int(record["plan"].get("defender_air", 0)) + 1
        state.air_missions[defender] = state.air_missions.get(defender, 0) - 1
        text = f"The defender adds an air support ({data.rule('14.3')})"
        return [Event("support", text, {"side": defender, "kind": "air"})]
    if verb != "support_defence":
        raise InvalidActionError(
            "the combat waits for the defender's supports: add an HQ or air support, choose the unit whose "
            "quality counts, or say the supports are done"
        )
    use = (arguments.text(args, "hq"), arguments.text(args, "kind"))
    if use not in markers:
        raise _refuse(
            f"{use[1]!r} of {use[0]!r} cannot be added: the HQ does not hold it, cannot support these units, "
            "or the attack type's limit is reached",
            "1.6",
        )
    _spend_support(data, state, use[0], use[1])
    record["plan"]["defender_supports"] = [*record["plan"].get("defender_supports", []), list(use)]
    return [
        Event(
            "support",
            f"The defender adds the {use[1].replace('_', ' ')} of {holder_name(data, use[0])}",
            {"side": defender, "hq": use[0], "kind": use[1]},
        )
    ]


def _apply_result_decision(
    data: GameData, state: GameState, record: CombatRecord, role: Role, verb: str, args: Mapping[str, Any]
) -> list[Event]:
    side_record = record[role]
    owed = _owed(side_record)
    zoc_group = next((g for g in side_record["groups"] if g["zoc_owed"] > 0 and _alive(state, g["units"])), None)
    if verb == "take_loss":
        if zoc_group is None and (side_record["retreat"] is not None or side_record["losses"] >= owed):
            raise _refuse("no step loss is owed now: losses come before the retreat", "7.6")
        units, markers = loss_targets(data, state, record, role)
        why = (
            "retreat through enemy ZoC, 7.7.1"
            if zoc_group is not None and not zoc_group["blocked"]
            else (
                "retreat absorbed as losses, 7.7.1"
                if zoc_group is not None
                else f"combat result {record['result']['text']}"
            )
        )
        if args.get("marker"):
            marker = arguments.text(args, "marker")
            if marker not in markers:
                raise _refuse(f"{marker!r} is not an armor support marker that may take this loss", "1.6.1")
            hq_id, kind = marker.split(":", 1)
            record["armor_markers"][role].remove([hq_id, kind])
            events = [
                Event(
                    "loss",
                    f"The {kind} marker of {holder_name(data, hq_id)} is given up as a step loss (1.6.1)",
                    {"marker": kind, "hq": hq_id, "given_up": True},
                )
            ]
        else:
            unit = arguments.text(args, "unit")
            if unit not in units:
                raise _refuse(_loss_refusal(data, state, record, role, unit), "7.6")
            events = _lose_step(data, state, unit, why)
        if zoc_group is not None:
            zoc_group["zoc_owed"] -= 1
        else:
            side_record["losses"] += 1
        side_record["steps_lost"] = side_record.get("steps_lost", 0) + 1
        return events
    if verb == "retreat":
        if zoc_group is not None:
            raise _refuse("take the step lost in enemy ZoC before retreating further", "7.7.1")
        if side_record["losses"] >= owed:
            raise _refuse("the whole result has been taken as losses: no retreat is owed", "7.6")
        if side_record.get("held_by_defender"):
            raise _refuse("the defender held his ground and lost steps: take your whole result as losses", "7.6")
        if side_record["losses"] < side_record["min_losses"]:
            result = record["result"]
            if result["attacker_red"] if role == "attacker" else result["defender_red"]:
                reason, rule = "the result is red", "7.6"
            elif side_record.get("defender_lost") and current_plan(record).kind != "prepared":
                reason, rule = "the defender lost steps", "7.6"
            else:
                reason, rule = "a prepared attack costs the attacker a step", "7.3.2"
            raise _refuse(f"at least one step must be lost before retreating ({reason})", rule)
        to, units = arguments.hex_number(args, "to", data.map.grid), arguments.names(args, "units", required=False)
        return _retreat_step(data, state, record, role, to, units or None)
    raise InvalidActionError("the combat waits for its losses: take a step loss or retreat")


def _loss_refusal(data: GameData, state: GameState, record: CombatRecord, role: Role, unit: str) -> str:
    if unit not in _alive(state, _side_units(record, role)):
        return f"{unit!r} is not one of your units in this combat"
    quality = _quality_unit(record, role)
    if record[role]["losses"] == 0 and unit != quality:
        return f"the first step loss is {_name(data, quality)}'s, whose quality was used (7.4)"
    if data.units[unit].is_hq:
        return "an HQ is destroyed only when alone or once the units stacked with it are gone (1.3)"
    return "with armored or mechanized units on both sides this loss must be an armored or mechanized unit's (7.6)"


def _retreat_step(
    data: GameData, state: GameState, record: CombatRecord, role: Role, to: Hex, units: list[str] | None
) -> list[Event]:
    side_record = record[role]
    owed = _owed(side_record)
    side = _role_side(record, role)
    length = side_record["retreat"]
    if length is None:
        length = side_record["retreat"] = owed - side_record["losses"]
    groups = [
        g
        for g in side_record["groups"]
        if _alive(state, g["units"]) and not g["blocked"] and len(g["path"]) - 1 < length
    ]
    if units is None:
        # The first group that may enter ``to`` (the stacks of several target hexes retreat apart, 7.2).
        pos = Position(data, state)
        group = next(
            (
                g
                for g in groups
                if to in rt.retreat_options(pos, side, _movers(data, _alive(state, g["units"])), g["path"]).hexes
            ),
            groups[0] if groups else None,
        )
        moving = _alive(state, group["units"]) if group else []
    else:
        group = next((g for g in groups if set(units) <= set(_alive(state, g["units"]))), None)
        moving = units
    if group is None or not moving:
        raise _refuse("those units have no retreat left to make together", "7.7.1")
    pos = Position(data, state)
    destroyed = _staying_units(data, state, group) if len(group["path"]) == 1 else []
    moving = _movers(data, moving)
    options = rt.retreat_options(pos, side, moving, group["path"])
    if to not in options.hexes:
        if to in options.legal:
            raise _refuse(
                f"{hex_name(to)} is open but the retreat priorities prefer "
                f"{', '.join(hex_name(h) for h in options.hexes)} ({options.priority})",
                "7.7.1",
            )
        raise _refuse(
            f"cannot retreat into {hex_name(to)}: enemy-held, impassable, already crossed, overstacked or not adjacent",
            "7.7.1",
        )
    events: list[Event] = []
    for u in destroyed:
        # [12.2, 16] Strongpoints and garrisons do not retreat: their stack's retreat destroys them.
        events += _eliminate(data, state, u, "it cannot retreat and is destroyed when its stack retreats (7.7.1)")
    moving = [u for u in moving if u not in destroyed]
    if not moving:
        return events
    if set(moving) != set(_alive(state, group["units"])):
        # [7.7.1] Units of a stack may retreat into different hexes, the same number of hexes each.
        group["units"] = [u for u in group["units"] if u not in moving]
        group = {"units": list(moving), "path": list(group["path"]), "zoc_owed": 0, "blocked": False}
        side_record["groups"].append(group)
    came_from = group["path"][-1]
    # [4.3, 7.7.1] A step per hex of enemy ZoC entered, unless a friendly unit is already there.
    entered_zoc = rt.is_in_enemy_zoc(pos, side, to)
    events += _leave_hex(data, state, came_from, moving)
    for u in moving:
        state.units[u].hex = to
        state.units[u].improved_position = False
    group["path"].append(to)
    text = f"{', '.join(_name(data, u) for u in moving)} retreat from {hex_name(came_from)} to {hex_name(to)}"
    if entered_zoc:
        group["zoc_owed"] += 1
        text += ": into an enemy ZoC, a step to lose (7.7.1)"
    events.append(Event("retreat", text, {"units": list(moving), "from": came_from, "to": to, "zoc_loss": entered_zoc}))
    if combat_rules.retreat_rules(data).disorganizes:
        events += disorganization.disorganize(data, state, moving)  # [3.6, 7.7.1] attacker or defender
    return events


def _staying_units(data: GameData, state: GameState, group: RetreatGroup) -> list[str]:
    """[12.2, 16] The units of a group that never retreat (the game's ``[retreat] destroyed_kinds``)."""
    kinds = combat_rules.retreat_rules(data).destroyed_kinds
    return [u for u in _alive(state, group["units"]) if data.units[u].kind in kinds]


def _movers(data: GameData, members: Sequence[str]) -> list[str]:
    """The units of a group whose movement limits its retreat: all but those its retreat destroys, unless
    only those are left (they are offered the same hexes, and are destroyed on taking one)."""
    kinds = combat_rules.retreat_rules(data).destroyed_kinds
    moving = [u for u in members if data.units[u].kind not in kinds]
    return moving or list(members)


def _leave_hex(data: GameData, state: GameState, hex_: Hex, units: Sequence[str]) -> list[Event]:
    """[15.3] Nuts! helps only while its stack does not retreat: the marker goes when the stack leaves."""
    events = []
    auras = data.events_with_effect("quality-aura")
    for marker in list(state.markers):
        if marker.kind in auras and marker.hex == hex_ and any(data.side_of(u) == marker.side for u in units):
            state.markers.remove(marker)
            name = data.events[marker.kind].name
            events.append(
                Event(
                    "marker",
                    f"The {name} stack at {hex_name(hex_)} retreated: the marker is removed (15.3)",
                    {"kind": marker.kind, "hex": hex_},
                )
            )
    return events


def _apply_advance(
    data: GameData, state: GameState, record: CombatRecord, verb: str, args: Mapping[str, Any]
) -> list[Event]:
    advance = record["advance"]
    side = record["side"]
    if verb == "end_advance":
        if _advance_owed(data, record):
            raise _refuse("after a prepared attack at least one unit must advance into the vacated hex", "7.7.2")
        for info in advance["units"].values():
            info["stopped"] = True
        return [Event("advance", "The attacker stops advancing", {"hex": _vacated(record)[0]})]
    if verb != "advance":
        raise InvalidActionError("the combat waits for the advance after combat: advance a unit or stop advancing")
    to = arguments.hex_number(args, "to", data.map.grid)
    groups = _advance_groups(data, state, record)
    units = arguments.names(args, "units", required=False) or None
    if units is None:
        key = next((k for k in sorted(groups) if to in _group_options(data, state, record, k, groups[k])), None)
        units = groups[key] if key else []
    if not units:
        raise _refuse(f"no advancing unit may enter {hex_name(to)}", "7.7.2")
    for u in units:
        if u not in advance["units"]:
            raise _refuse(f"{_name(data, u) if u in data.units else u!r} did not take part in the combat", "7.7.2")
        info = advance["units"][u]
        if info["stopped"]:
            raise _refuse(f"{_name(data, u)} has stopped advancing", "7.7.2")
    starts = {(advance["units"][u]["hex"], advance["units"][u]["moved"]) for u in units}
    if len(starts) != 1:
        raise _refuse("units advancing together must stand in the same hex", "7.7.2")
    here, moved = starts.pop()
    pos = Position(data, state)
    options = rt.advance_options(
        pos, side, units, here, moved, _vacated(record), advance["paths"], advance["allowance"]
    )
    if to not in options:
        raise _refuse(
            f"cannot advance into {hex_name(to)}: the advance enters the vacated hex first, follows the retreat path "
            "(armor may leave it after the first hex), within the result, never enemy-held, impassable or overstacked",
            "7.7.2",
        )
    for u in units:
        state.units[u].hex = to
        state.units[u].improved_position = False
    pos = Position(data, state)
    stop = rt.advance_stops(pos, side, here, to, _vacated(record))
    for u in units:
        info = advance["units"][u]
        info["hex"] = to
        info["moved"] = moved + 1
        info["stopped"] = stop is not None
    text = f"{', '.join(_name(data, u) for u in units)} advance to {hex_name(to)}" + (f": stop, {stop}" if stop else "")
    return [Event("advance", text, {"units": list(units), "from": here, "to": to, "stopped": stop})]


def _advance_owed(data: GameData, record: CombatRecord) -> bool:
    """[7.7.2] Whether the attacker still owes the advance of one unit: the attack type makes it mandatory
    and no unit has advanced yet (it is asked only while some unit can)."""
    if not combat_rules.advance_is_mandatory(data, current_plan(record).kind):
        return False
    return not any(info["moved"] > 0 for info in record["advance"]["units"].values())


def _group_options(
    data: GameData, state: GameState, record: CombatRecord, key: tuple[Hex, int], units: list[str]
) -> tuple[Hex, ...]:
    advance = record["advance"]
    return rt.advance_options(
        Position(data, state),
        record["side"],
        units,
        key[0],
        key[1],
        _vacated(record),
        advance["paths"],
        advance["allowance"],
    )
