"""[7.5, 11.1] The odds an attacker may know before he declares an attack on a stack he may not inspect.

Under fog of war (11) a stack is revealed only once the attack is declared (11.1), so the preview of an
attack (the bot's "odds before an attack", 7.5) must not use what the unseen counters are. It shows the
defenders the attacker sees, counts the others, and gives the odds as a range: from the unseen counters at
their weakest (the fewest strength points any counter of the defender's side can add, halvings included) to
their strongest (the strongest counter of that side at full strength), with the Improved Positions shift
(12.2), the defender's best quality (7.4) and his divisional integrity (7.4) counted where the unseen counters
could give them. Every figure comes from what the attacker sees and from the printed counters of the game;
the hidden counters themselves are never read, so the range tells nothing about them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement

from engine.hexgrid import hex_name
from engine.vaevictis import combat_rules, garrisons
from engine.vaevictis.combat_rules import retreat_rules
from engine.vaevictis.data import GameData, UnitDef, other_side
from engine.vaevictis.events import nuts_quality_bonus
from engine.vaevictis.odds import (
    Assessment,
    AttackPlan,
    Contribution,
    Modifier,
    assess,
    crt_cell,
    divisional_integrity,
    expected_steps_lost,
    quality_of,
    ratio_column,
    ratio_halves_up,
    round_ratio,
    rounding_mode,
    sum_strengths,
)
from engine.vaevictis.state import GameState, Position, UnitState

MAX_HALVINGS = 4
"""The most halvings a defending unit can suffer at once: fatigued, unsupplied, retreated into the stack and
armor in a city (3.5.1, 10.3, 7.7.1, 0.2)."""


@dataclass(frozen=True)
class Case:
    """One end of the range: its column, its die modifier and each result's chance."""

    column: str
    drm: int
    chances: tuple[tuple[str, Fraction], ...]

    def expected_losses_text(self, attacker_steps: int) -> str:
        """The steps each side may expect to lose (7.6); the defender's ``E`` is given as a chance, since the
        unseen counters' steps are not known."""
        attacker = sum(
            (chance * expected_steps_lost(text, attacker_steps, 0)[0] for text, chance in self.chances), Fraction(0)
        )
        defender = sum((chance * expected_steps_lost(text, 0, 0)[1] for text, chance in self.chances), Fraction(0))
        wiped = sum((chance for text, chance in self.chances if text.endswith("/E")), Fraction(0))
        out = f"Expected step losses (7.6): attacker {float(attacker):.1f}, defender {float(defender):.1f}"
        return out + (f" and elimination {float(wiped) * 100:.0f}%" if wiped else "")


@dataclass(frozen=True)
class UnseenPreview:
    """[7.5, 11.1] The odds of an attack as the attacker may know them: a range, with the unseen defenders
    counted but not shown."""

    heading: tuple[str, ...]
    """The attack and the attacking units' strengths (the attacker's own units)."""
    seen: tuple[Contribution, ...]
    unseen: int
    """How many defending counters the attacker may not inspect."""
    defence: tuple[int, int]
    ratios: tuple[str, str]
    shifts: tuple[Modifier, ...]
    """The column shifts known whatever the unseen counters are."""
    improved_positions: Modifier | None
    """The Improved Positions shift (12.2), when the unseen counters could give it."""
    drm: tuple[Modifier, ...]
    """The die modifiers known whatever the unseen counters are."""
    quality: tuple[int, int, str]
    """The attacker's quality less the defender's best quality, at worst and at best, and the attacking unit."""
    integrity: tuple[int, int]
    """The defender's divisional integrity modifier (7.4), at worst and at best for the attacker."""
    worst: Case
    best: Case
    superiority: tuple[int, int] = (0, 0)
    """Both sides' armored superiority (7.4, Alsace 1944), at worst and at best for the attacker."""
    face_down: int = 0
    """How many of the unseen counters are face-down garrisons (Alsace 1944, 16), unseen whatever the fog."""
    attacker_steps: int = 0
    """The attacking units' steps, all lost on an ``E`` for the attacker."""

    def lines(self) -> list[str]:
        """The preview in words."""
        seen = "; ".join(f"{c.name} {c.strength}" + (" halved" if c.halvings else "") for c in self.seen)
        low, high = self.defence
        fogged = self.unseen - self.face_down
        why_unseen = [f"{fogged} counter(s) unseen (fog of war, 11.1)"] if fogged else []
        if self.face_down:
            why_unseen.append(garrisons.unseen_words(self.face_down))
        out = [
            *self.heading,
            f"Defence {low} to {high}: " + (f"{seen}; " if seen else "") + "; ".join(why_unseen),
            f"Ratio between {self.ratios[0]} and {self.ratios[1]} (7.5)",
            *(f"Shift {m}" for m in self.shifts),
        ]
        if self.improved_positions is not None:
            out.append(f"Shift {self.improved_positions}, if the unseen counters are in them too")
        out.append(f"Final column between {self.worst.column} and {self.best.column}")
        out += [f"Die {m}" for m in self.drm]
        worst_q, best_q, name = self.quality
        span = f"{worst_q:+d}" if worst_q == best_q else f"{worst_q:+d} to {best_q:+d}"
        out.append(f"Die {span}: quality of {name} less the defender's best quality (7.4)")
        if self.integrity != (0, 0):
            out.append(f"Die {self.integrity[0]:+d} to {self.integrity[1]:+d}: defender's divisional integrity (7.4)")
        if self.superiority != (0, 0):
            low, high = self.superiority
            span = f"{low:+d}" if low == high else f"{low:+d} to {high:+d}"
            out.append(f"Die {span}: armored superiority against tanks, as the unseen counters may give it (7.4)")
        out.append(f"Die modifier between {self.worst.drm:+d} and {self.best.drm:+d}")
        for title, case in (("At worst", self.worst), ("At best", self.best)):
            results = ", ".join(f"{text} {float(chance) * 100:.0f}%" for text, chance in case.chances)
            out.append(f"{title} (column {case.column}, die {case.drm:+d}): {results}")
            out.append(f"  {case.expected_losses_text(self.attacker_steps)}")
        if fogged:
            out.append("The stack is revealed when the attack is declared (11.1): the odds are then exact.")
        if self.face_down:
            out.append(garrisons.REVEALED_WHEN_ATTACKED)
        return out


def unseen_preview(data: GameData, state: GameState, plan: AttackPlan, unseen: set[str]) -> UnseenPreview | None:
    """[7.5, 11.1] The preview of ``plan`` when some defenders are among ``unseen`` (the units the attacker may
    not inspect); ``None`` when he sees every defender (the exact preview applies).

    :raises IllegalActionError: as :func:`engine.vaevictis.odds.assess`.
    """
    exact = assess(data, state, plan)
    hidden = [u for u in exact.defenders if u in unseen]
    if not hidden:
        return None
    pos = Position(data, state)
    enemy = other_side(plan.side)
    seen = tuple(c for c in exact.defenders_detail if c.unit not in unseen)
    seen_units = [state.units[c.unit] for c in seen]
    printed = [d for d in data.units.values() if data.side_of(d.id) == enemy]
    low, high = _defence_range(data, seen, len(hidden), printed)
    halves_up = ratio_halves_up(data)
    worst_ratio = round_ratio(exact.attack_total, high, halves_up)
    best_ratio = round_ratio(exact.attack_total, low, halves_up)

    shifts = tuple(m for m in exact.shifts if m.rule != data.rule("12.2"))
    ip_shift = int(data.tables.raw["status"]["improved_position"]["column_shift_if_all_in_ip"])
    improved = (
        Modifier(ip_shift, "every defender in Improved Positions", data.rule("12.2"))
        if all(u.improved_position for u in seen_units)
        else None
    )
    known_shift = sum(m.amount for m in shifts)
    top = len(data.tables.crt_columns) - 1

    def column(ratio: tuple[int, int], extra: int) -> int:
        return max(0, min(top, ratio_column(data, ratio) + known_shift + extra))

    worst_column = column(worst_ratio, improved.amount if improved else 0)
    best_column = column(best_ratio, 0)

    # Quality, divisional integrity and armored superiority depend on the defenders: worked out below. The
    # attacker's combined arms (7.4) depends on his own units only and stays.
    drm = tuple(m for m in exact.drm if m.rule != "7.4" or m.reason.startswith("combined arms"))
    attackers = [state.units[u] for u in plan.attackers]
    quality = _quality_range(pos, exact, hidden, seen_units, printed)
    rules = combat_rules.modifiers(data)
    if rules.divisional_integrity:
        own_integrity = 1 if divisional_integrity(pos, attackers) else 0
        integrity = (-1, -1) if divisional_integrity(pos, seen_units) else (-1, 0)
    else:
        own_integrity, integrity = 0, (0, 0)
    superiority = _superiority_range(data, pos, attackers, seen_units, printed, rules.armored_superiority)
    known_drm = sum(m.amount for m in drm) + own_integrity
    worst = _case(data, worst_column, known_drm + quality[0] + integrity[0] + superiority[0])
    best = _case(data, best_column, known_drm + quality[1] + integrity[1] + superiority[1])
    if own_integrity:
        drm = (*drm, Modifier(1, "attacker's divisional integrity", "7.4"))

    return UnseenPreview(
        heading=_heading(plan, exact),
        seen=seen,
        unseen=len(hidden),
        defence=(low, high),
        ratios=(f"{worst_ratio[0]}:{worst_ratio[1]}", f"{best_ratio[0]}:{best_ratio[1]}"),
        shifts=shifts,
        improved_positions=improved,
        drm=drm,
        quality=quality,
        integrity=integrity,
        superiority=superiority,
        face_down=len(set(hidden) & garrisons.face_down(state)),
        attacker_steps=sum(state.units[a].steps for a in plan.attackers if a in state.units),
        worst=worst,
        best=best,
    )


def _defence_range(
    data: GameData, seen: Sequence[Contribution], hidden: int, printed: Sequence[UnitDef]
) -> tuple[int, int]:
    """[0.3, 1.2] The least and the greatest defence strength: the seen defenders as they are, each hidden one
    from the weakest face of any counter of that side (a detachment's among them) halved as often as the rules
    allow, to the strongest counter at full strength."""
    weakest = min(
        [_weakest_face(data, d) for d in printed]
        + [
            t.strength_per_step
            for n, t in data.detachments.items()
            if n in {data.nationality_of(d.id) for d in printed}
        ]
    )
    strongest = max(d.strength for d in printed)
    rounding = rounding_mode(data)
    # 3.6 (Alsace 1944): disorganised may halve too, and a retreat into a stack no longer does.
    retreats = retreat_rules(data)
    most_halvings = MAX_HALVINGS + int(retreats.disorganizes) - int(not retreats.into_friendly_stack_halves)
    low = min(
        sum_strengths([*seen, *(Contribution("?", "?", weakest, ("?",) * k) for k in halvings)], rounding)
        for halvings in combinations_with_replacement(range(most_halvings + 1), hidden)
    )
    high = sum_strengths(seen, rounding) + strongest * hidden
    return low, high


def _quality_range(
    pos: Position, exact: Assessment, hidden: Sequence[str], seen_units: Sequence[UnitState], printed: Sequence[UnitDef]
) -> tuple[int, int, str]:
    """[7.4, 15.3] The quality modifier at worst and at best for the attacker, and his quality unit's name: the
    best seen defender's quality, or any printed counter's of that side (Nuts! included) for the hidden ones."""
    data, state = pos.data, pos.state
    attacker = state.units[exact.attacker_quality]
    own_quality = quality_of(pos, attacker)
    target = state.units[hidden[0]].hex
    assert target is not None
    bonus = nuts_quality_bonus(data, state, target) if other_side(exact.plan.side) == "allied" else 0
    hidden_best = max(d.quality for d in printed if not d.is_hq) + bonus
    seen_best = max((quality_of(pos, u) for u in seen_units if not data.units[u.id].is_hq), default=None)
    defender_low = seen_best if seen_best is not None else min(d.quality for d in printed if not d.is_hq) + bonus
    defender_high = max(defender_low, hidden_best)
    return (own_quality - defender_high, own_quality - defender_low, data.units[attacker.id].name)


def _heading(plan: AttackPlan, exact: Assessment) -> tuple[str, ...]:
    """The attack, the target hex whose terrain counts when there are several (7.2), and the attack strength."""
    heading = [
        f"{'Prepared' if plan.kind == 'prepared' else 'Normal'} attack on "
        + ", ".join(hex_name(h) for h in plan.targets)
    ]
    if len(plan.targets) > 1 and exact.terrain_hex is not None:
        heading.append(f"Terrain of {hex_name(exact.terrain_hex)} used (7.2, 7.4)")
    parts = "; ".join(
        f"{c.name} {c.strength}" + (f" halved: {', '.join(c.halvings)}" if c.halvings else "")
        for c in exact.attackers_detail
    )
    heading.append(f"Attack {exact.attack_total}: {parts}")
    return tuple(heading)


def _weakest_face(data: GameData, definition: UnitDef) -> int:
    """The least strength a printed counter can show: its printed back (Alsace 1944 1.2), or its front less the
    points of every step but one (Ardennes 1944 1.2)."""
    if definition.steps <= 1:
        return definition.strength
    if definition.reduced_strength is not None:
        return definition.reduced_strength
    step_strength = int(data.tables.raw["stacking"].get("step_strength", 0))
    return max(0, definition.strength - step_strength * (definition.steps - 1))


def _superiority_range(
    data: GameData,
    pos: Position,
    attackers: Sequence[UnitState],
    seen: Sequence[UnitState],
    printed: Sequence[UnitDef],
    amount: int,
) -> tuple[int, int]:
    """[7.4] The armored superiority modifiers at worst and at best for the attacker, from what he sees and
    from the printed counters of the defender's side (the hidden ones are never read)."""
    if not amount:
        return (0, 0)

    def tank(definition: UnitDef) -> bool:
        return definition.kind == "armored"

    def dotted(definition: UnitDef) -> bool:
        return tank(definition) and definition.armored_superiority

    own_tank = any(tank(pos.unit_def(u.id)) for u in attackers)
    own_dot = any(dotted(pos.unit_def(u.id)) for u in attackers)
    seen_tank = any(tank(pos.unit_def(u.id)) for u in seen)
    seen_dot = any(dotted(pos.unit_def(u.id)) for u in seen)
    could_tank = seen_tank or any(tank(d) for d in printed)
    could_dot = seen_dot or any(dotted(d) for d in printed)
    worst = (amount if own_dot and seen_tank else 0) - (amount if own_tank and could_dot else 0)
    best = (amount if own_dot and could_tank else 0) - (amount if own_tank and seen_dot else 0)
    return worst, best


def _case(data: GameData, column: int, drm: int) -> Case:
    chances: dict[str, Fraction] = {}
    for face in range(1, 7):
        _, cell = crt_cell(data, column, face + drm)
        chances[str(cell)] = chances.get(str(cell), Fraction(0)) + Fraction(1, 6)
    ordered: Sequence[tuple[str, Fraction]] = sorted(chances.items(), key=lambda kv: -kv[1])
    return Case(data.tables.crt_columns[column], drm, tuple(ordered))
