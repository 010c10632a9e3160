"""[9.5] SNAFUs, the optional rule of Alsace 1944 (from VV60), read from the game's ``[snafu_vv60]`` table.

Once both sides have committed their supports and the units whose quality they use (the defender's window,
7.5), the attacker rolls 2d6, adds the quality of his formation HQ, subtracts the defender's, adds 1 if the
defender is out of command and subtracts 1 if the attacker is. Below 4 the attacker suffers a SNAFU, above 10
the defender. On an even total the other player chooses either the afflicted side's unit whose quality is
used, or a die shift of 1 against it; on an odd total one of the afflicted side's committed supports, drawn at
random, goes back to the pool unused, or, if it committed none, the other side gets a surprise support drawn
at random from its pool.

Readings (docs/rules/alsace44.md, 9.5):

- An HQ's quality is its C3I letter through ``hq_quality`` (A 5, B 4, C 3, reconstructed).
- "If one side's units belong to more than one HQ, use the HQ which provides the most supports": the HQs of
  the side's units' formations, ranked by the markers each committed to this combat; "in case of a tie, it
  is the owning player's choice": a higher quality is always the better choice for its owner (it raises the
  attacker's total, lowers it for the defender), so the engine takes it without asking.
- "If one side has only independent units": the average quality of its units in the combat, rounded to the
  nearest (0.3). Independents beside formation units leave the choice to the formation HQs.
- A side "is out of command" when one of its units in the combat is.
- Even total: the chart's "penalty of -1" and "bonus of +1" are one choice seen from either side: a die shift
  of 1 against the afflicted side.
- Odd total: the marker that goes back returns to the pool for the next turn without a retention roll (as
  Ardennes' cancelled supports); the surprise support is drawn among the markers of the pool that may take part
  in this combat (the FlaK 88 only in defence against armour, the TD only on tank terrain), counted once per
  marker, beyond the attack type's limit, and rolls for retention after use like any other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Final, Literal

from engine import arguments
from engine.contract import Choice, Event, IllegalActionError, InvalidActionError
from engine.hexgrid import Hex
from engine.vaevictis.combat_command_support import holder_army, holder_name
from engine.vaevictis.data import GameData, Side, other_side
from engine.vaevictis.odds import AttackPlan, alone_in_its_hex, default_quality_unit, support_condition_problem
from engine.vaevictis.pending_records import CombatRecord, Role
from engine.vaevictis.rolls import dice_of
from engine.vaevictis.state import GameState, Position, UnitState

OPTION: Final = "snafu_vv60"
"""The game option of the VV60 SNAFU, and the key of its roll in the combat record."""
STAGE: Final = "snafu_vv60_choice"


def table(data: GameData) -> Mapping[str, Any]:
    found: Mapping[str, Any] = data.tables.raw["snafu_vv60"]
    return found


def _units(record: CombatRecord, role: Role) -> list[str]:
    return list(record["attackers"] if role == "attacker" else record["defenders"])


def command_quality(
    data: GameData, state: GameState, plan: AttackPlan, role: Role, units: Sequence[str]
) -> tuple[int, str]:
    """[9.5] The quality a side adds or subtracts, and where it comes from, in words."""
    scale: Mapping[str, int] = table(data)["hq_quality"]
    uses = plan.supports if role == "attacker" else plan.defender_supports
    hqs = sorted(
        {
            hq
            for u in units
            if not data.units[u].is_hq
            and (hq := data.formations[data.units[u].formation].hq) is not None
            and not data.formations[data.units[u].formation].independent
        }
    )
    if not hqs:
        fighters = [u for u in units if not data.units[u].is_hq] or list(units)
        mean = Fraction(sum(data.units[u].quality for u in fighters), len(fighters))
        rounded = int(mean + Fraction(1, 2))  # 0.3: to the nearest, a half up
        return rounded, f"average quality {rounded} of its independent units"

    def rank(hq: str) -> tuple[int, int]:
        return (sum(1 for h, _ in uses if h == hq), int(scale.get(data.units[hq].c3i or "", 0)))

    best = max(hqs, key=rank)
    quality = int(scale.get(data.units[best].c3i or "", 0))
    return quality, f"{data.units[best].name} (C3I {data.units[best].c3i}: quality {quality})"


def _out_of_command(state: GameState, units: Sequence[str]) -> bool:
    return any(state.units[u].out_of_command for u in units if state.units[u].on_map)


def _draw(state: GameState, sides: int, text: str) -> tuple[int, Event]:
    """A verifiable draw among ``sides`` items (a die of that many faces)."""
    dice = dice_of(state)
    number = dice.rolls_made
    value = dice.d(sides)
    state.rolls_made = dice.rolls_made
    return value, Event("roll", f"{text}: drew {value} of {sides}.", {"die": value, "sides": sides, "number": number})


def roll(data: GameData, state: GameState, record: CombatRecord, plan: AttackPlan) -> list[Event]:
    """[9.5] The SNAFU roll before the combat die; applies an odd result, or opens the even result's choice."""
    rules = table(data)
    dice = dice_of(state)
    first_number = dice.rolls_made
    first, second = dice.d6(), dice.d6()
    state.rolls_made = dice.rolls_made
    attack_q, attack_src = command_quality(data, state, plan, "attacker", plan.attackers)
    defence_q, defence_src = command_quality(data, state, plan, "defender", record["defenders"])
    parts: list[tuple[int, str]] = [
        (int(rules.get("attacker_hq_quality", 1)) * attack_q, f"attacker: {attack_src}"),
        (int(rules.get("defender_hq_quality", -1)) * defence_q, f"defender: {defence_src}"),
    ]
    if _out_of_command(state, record["defenders"]):
        parts.append((int(rules.get("defender_out_of_command", 1)), "the defender is out of command"))
    if _out_of_command(state, plan.attackers):
        parts.append((int(rules.get("attacker_out_of_command", -1)), "the attacker is out of command"))
    total = first + second + sum(amount for amount, _ in parts)
    mods = "".join(f", {amount:+d} {why}" for amount, why in parts)
    events = [
        Event(
            "roll",
            f"SNAFU (9.5): rolled {first} + {second}{mods} = {total}",
            {"rule": "9.5", "number": first_number, "dice": [first, second], "total": total, "sides": 6},
        )
    ]
    afflicted: Role | None = None
    if total < int(rules["attacker_snafu_below"]):
        afflicted = "attacker"
    elif total > int(rules["defender_snafu_above"]):
        afflicted = "defender"
    record[OPTION] = {"total": total, "afflicted": afflicted}
    if afflicted is None:
        events.append(Event("snafu", f"SNAFU roll {total}: no SNAFU (9.5)", {"total": total}))
        return events
    who = "attacker" if afflicted == "attacker" else "defender"
    if total % 2 == 0:
        record[OPTION]["chooser"] = other_side(_role_side(record, afflicted))
        record["stage"] = STAGE
        events.append(
            Event(
                "snafu",
                f"SNAFU {total}: the {who}'s troops lack enthusiasm; the other player chooses its effect (9.5)",
                {"total": total, "afflicted": afflicted},
            )
        )
        return events
    return events + _lose_a_support(data, state, record, afflicted, total)


def _role_side(record: CombatRecord, role: Role) -> Side:
    side = record["side"]
    return side if role == "attacker" else other_side(side)


def _lose_a_support(data: GameData, state: GameState, record: CombatRecord, afflicted: Role, total: int) -> list[Event]:
    """[9.5] Odd total: a committed support of the afflicted side stays away, else the other side's surprise."""
    plan = record["plan"]
    committed = plan.get("supports", []) if afflicted == "attacker" else plan.get("defender_supports", [])
    who = "attacker" if afflicted == "attacker" else "defender"
    if committed:
        index, event = _draw(state, len(committed), "SNAFU: the support that does not arrive")
        holder, kind = committed.pop(index - 1)
        army = holder_army(data, holder).id
        pool = state.returning.setdefault(army, {})
        pool[kind] = pool.get(kind, 0) + 1
        text = (
            f"SNAFU {total}: the {kind.replace('_', ' ')} of {holder_name(data, holder)} does not arrive; "
            "it goes back to the pool for the next turn (9.5)"
        )
        return [event, Event("snafu", text, {"total": total, "afflicted": afflicted, "hq": holder, "kind": kind})]
    lucky = other_side(_role_side(record, afflicted))
    role: Literal["attack", "defence"] = "defence" if afflicted == "attacker" else "attack"
    pos = Position(data, state)
    attackers = [state.units[u] for u in record["attackers"] if state.units[u].on_map]
    links = _links(pos, attackers, [int(h) for h in record.get("targets") or [record["target"]]])
    candidates: list[tuple[str, str]] = []
    for army in sorted(a.id for a in data.armies.values() if a.side == lucky):
        for kind, count in sorted(state.pools.get(army, {}).items()):
            if support_condition_problem(data, lucky, kind, role, attackers, links) is None:
                candidates += [(army, kind)] * max(0, count)
    if not candidates:
        text = f"SNAFU {total}: the {who} committed no support and the other side's pool has none to send (9.5)"
        return [Event("snafu", text, {"total": total, "afflicted": afflicted})]
    index, event = _draw(state, len(candidates), "SNAFU: the surprise support")
    army, kind = candidates[index - 1]
    state.pools[army][kind] -= 1
    record["plan"]["surprise_support"] = [army, kind]
    text = (
        f"SNAFU {total}: the {who} committed no support; the {lucky} player gets a surprise "
        f"{kind.replace('_', ' ')} from his pool (9.5)"
    )
    return [event, Event("snafu", text, {"total": total, "afflicted": afflicted, "surprise": kind})]


def _links(pos: Position, attackers: Sequence[UnitState], targets: Sequence[Hex]) -> list[tuple[Hex, Hex]]:
    grid = pos.data.map.grid
    return [(u.hex, t) for u in attackers if u.hex is not None for t in targets if grid.are_adjacent(u.hex, t)]


def _quality_options(data: GameData, state: GameState, record: CombatRecord) -> list[str]:
    afflicted = _afflicted(record)
    pos = Position(data, state)
    alive = [state.units[u] for u in _units(record, afflicted) if state.units[u].on_map]
    plan = record["plan"]
    named = plan.get("attacker_quality") if afflicted == "attacker" else plan.get("defender_quality")
    current = named or default_quality_unit(pos, alive, alone=False)
    out = []
    for u in _units(record, afflicted):
        unit = state.units[u]
        if not unit.on_map or u == current:
            continue
        if data.units[u].is_hq and not alone_in_its_hex(pos, unit):
            continue
        out.append(u)
    return out


def _afflicted(record: CombatRecord) -> Role:
    """The side that suffered the even SNAFU whose effect is being chosen."""
    afflicted = record[OPTION]["afflicted"]
    assert afflicted is not None
    return afflicted


def seat(record: CombatRecord) -> Side:
    """The player who chooses the even result's effect: the one who did not suffer the SNAFU."""
    return record[OPTION]["chooser"]


def choices(data: GameData, state: GameState, record: CombatRecord) -> tuple[str, list[Choice]]:
    """[9.5] The even result: the other player's choice of effect."""
    afflicted = _afflicted(record)
    who = "attacker" if afflicted == "attacker" else "defender"
    out = [
        Choice(
            "snafu_quality",
            {"unit": u},
            f"Use the quality of {data.units[u].name} for the {who} (it takes the first loss, 7.4)",
        )
        for u in _quality_options(data, state, record)
    ]
    out.append(Choice("snafu_die", {}, f"Shift the combat die 1 against the {who}"))
    return f"SNAFU: the {who}'s troops lack enthusiasm. Choose its effect", out


def apply(data: GameData, state: GameState, record: CombatRecord, verb: str, args: Mapping[str, Any]) -> list[Event]:
    """[9.5] Apply the other player's choice for an even SNAFU; the combat then rolls its die."""
    afflicted = _afflicted(record)
    who = "attacker" if afflicted == "attacker" else "defender"
    if verb == "snafu_die":
        shift = -1 if afflicted == "attacker" else 1
        record["plan"]["snafu_die"] = shift
        record["stage"] = "roll"
        return [Event("snafu", f"SNAFU: the combat die is shifted {shift:+d}, against the {who} (9.5)", {"die": shift})]
    if verb != "snafu_quality":
        raise InvalidActionError("answer snafu_quality {unit} or snafu_die")
    unit = arguments.text(args, "unit")
    if unit not in _quality_options(data, state, record):
        raise IllegalActionError(f"{unit!r} is not another {who} unit in this combat whose quality may be used", "9.5")
    if afflicted == "attacker":
        record["plan"]["attacker_quality"] = unit
    else:
        record["plan"]["defender_quality"] = unit
        record["defender_quality"] = unit
    record["stage"] = "roll"
    return [
        Event(
            "snafu",
            f"SNAFU: the {who} fights with the quality of {data.units[unit].name}, "
            "which takes the first loss (9.5, 7.4)",
            {"unit": unit},
        )
    ]
