"""[7] The arithmetic of an attack: who may take part, strengths, odds, column shifts, die modifiers.

One function, :func:`assess`, computes everything about a proposed attack and names the source of every
figure; :func:`preview` adds the chance of each result on the Combat Results Table without rolling a die or
changing the state (the bot's "odds before an attack"); :mod:`engine.vaevictis.combat` resolves the attack
with the very same assessment, so the preview and the resolution can never disagree.

Every figure is read from the game's tables (``tables.raw``): the terrain and crossing effects (TEC), the
status table (1.4), the attack types (7.3), the support markers (1.6.1, 1.6.2) and the CRT (7.6).

Alsace 1944's differences come from its tables (:mod:`engine.vaevictis.combat_rules`, readings in
docs/rules/alsace44.md): one target hex (7.2), tanks and road-only terrain (7.1), combined arms and armoured
superiority without divisional integrity (7.4), Disorganised units halved (3.6), the FlaK 88's and the TD's
conditions and a Combat Command's own marker (1.6), the VV60 SNAFU's die shift and surprise support (9.5).

Readings of unclear text (recorded in docs/rules/ardennes44.md):

- 0.3: strengths are added before being halved, per group of units halved the same number of times; halving
  twice (fatigued and unsupplied) divides the group's sum by four, rounding up once.
- 7.5: a ratio beyond the table (better than 8:1, worse than 1:4) reads the extreme column ("8:1+"); the
  column shifts move from there and the final column is clamped to the table again.
- TEC city "Armor halved": armored units only (the rules say "armored or mechanized" when they mean both).
- 1.3: an HQ lends its quality (4) only when it is alone in its hex; it adds no strength in attack.
- 12.2: the IP shift needs every defending unit in the hex, HQ included, to be in Improved Positions.
- 7.3 / 14.3: each side may commit at most the attack type's number of HQ supports and of air supports,
  and at most two air supports in all for one combat.
- 15.3 Nuts!: +1 to the quality of an allied unit in the marker's hex or the six around it, in attack and in
  defence, when that unit lends its quality.
- 7.2 an attack on several hexes: every attacker attacks each target hex it is adjacent to, with its whole
  strength, and must touch at least one; every target hex must hold enemy units and touch an attacker; every
  unit of every target hex defends. The defender's terrain (7.4) is that of the target hex whose shifts
  (terrain, village or city, Westwall for a German defender, added up) favour the defender most, the first
  declared on a tie; the Westwall thus counts only when it is in that hex. Improved Positions need every
  defender of every target hex in them (12.2); armor is halved by the city of its own hex; an attacker
  across a river or bridge from any hex it attacks is halved, once; a tank adjacent across an unbridged
  river to any target hex may not take part. One quality unit per side, a defender from any target hex (an
  HQ only when alone in its hex).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Literal, cast

from engine.contract import IllegalActionError
from engine.hexgrid import Hex, hex_name
from engine.vaevictis import combat_rules
from engine.vaevictis.combat_command_support import holder_name, holder_side, is_combat_command
from engine.vaevictis.combat_command_support import may_support as cc_support_problem
from engine.vaevictis.data import CrtCell, GameData, Side, hq_name, other_side
from engine.vaevictis.disorganization import is_disorganized
from engine.vaevictis.doctrine import attached_formation
from engine.vaevictis.events import nuts_quality_bonus
from engine.vaevictis.geography import is_british_west_of_meuse
from engine.vaevictis.pending_records import AttackKind, PlanRecord
from engine.vaevictis.state import GameState, Position, UnitState
from engine.vaevictis.stratagems import bridge_halving_cancelled

SupportUse = tuple[str, str]
"""An HQ support marker committed to a combat: ``(hq id, marker kind)``, e.g. ``("hq-de-1ss", "tiger")``."""

SNAFU_EFFECTS = (
    "column-left",
    "hesitation",
    "cancel-artillery",
    "cancel-armor-support",
    "none",
    "halve-one-armored",
    "cancel-air",
    "zero-one-attacker",
    "command-confusion",
)
"""The effect codes of the SNAFU table (tables.toml ``[[snafu]]``, 9.5)."""


# --- The plan --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackPlan:
    """A proposed attack, as declared (7.5): the same plan drives the preview and the resolution."""

    side: Side
    """The attacking side."""
    kind: AttackKind
    """``"normal"`` (7.3.1) or ``"prepared"`` (7.3.2)."""
    attackers: tuple[str, ...]
    """The attacking units (from several hexes only for a prepared attack)."""
    targets: tuple[Hex, ...]
    """The hexes attacked, in the order declared; every enemy unit in each of them defends (7.2). A single
    hex (an ``int``) is accepted and read as a one-hex tuple; a hex named twice counts once."""
    supports: tuple[SupportUse, ...] = ()
    """The attacker's HQ support markers committed (1.6)."""
    air: int = 0
    """The attacker's air supports committed (14.3)."""
    defender_supports: tuple[SupportUse, ...] = ()
    """The defender's HQ support markers committed (1.6)."""
    defender_air: int = 0
    """The defender's air supports committed (14.3)."""
    attacker_quality: str | None = None
    """The attacking unit whose quality is used (7.4); ``None`` for the best."""
    defender_quality: str | None = None
    """The defending unit whose quality is used (7.4); ``None`` for the best."""
    snafu: str | None = None
    """The SNAFU effect code once rolled (9.5), else ``None``."""
    snafu_unit: str | None = None
    """The attacker the defender chose for SNAFU 9 (halved) or 11 (strength zero)."""
    snafu_die: int = 0
    """VV60 SNAFU, even total (9.5, Alsace 1944): the die shift the other player chose against the side that
    suffered it (negative when the attacker suffered it)."""
    surprise_support: tuple[str, str] | None = None
    """VV60 SNAFU, odd total (9.5): ``(army, kind)`` of the surprise support drawn from that army's pool."""

    def __post_init__(self) -> None:
        raw: object = self.targets
        hexes = (raw,) if isinstance(raw, int) else tuple(cast(Iterable[Hex], raw))
        object.__setattr__(self, "targets", tuple(dict.fromkeys(int(h) for h in hexes)))

    @property
    def target(self) -> Hex:
        """The first hex attacked (the only one of a one-hex attack)."""
        return self.targets[0]

    def to_json(self) -> PlanRecord:
        """The plan as plain JSON data (kept in the pending combat record).

        ``target`` (the first hex) is kept beside ``targets`` for readers of one-hex plans; the VV60 SNAFU's
        fields only once set, so that plans of games without it keep their old form.
        """
        record: PlanRecord = {
            "side": self.side,
            "kind": self.kind,
            "attackers": list(self.attackers),
            "target": self.target if self.targets else None,
            "targets": list(self.targets),
            "supports": [list(s) for s in self.supports],
            "air": self.air,
            "defender_supports": [list(s) for s in self.defender_supports],
            "defender_air": self.defender_air,
            "attacker_quality": self.attacker_quality,
            "defender_quality": self.defender_quality,
            "snafu": self.snafu,
            "snafu_unit": self.snafu_unit,
        }
        if self.snafu_die:
            record["snafu_die"] = self.snafu_die
        if self.surprise_support is not None:
            record["surprise_support"] = list(self.surprise_support)
        return record

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> AttackPlan:
        """Read a plan back from :meth:`to_json` (a plan written before ``targets`` has only ``target``)."""
        targets = data.get("targets")
        return cls(
            side=data["side"],
            kind=data["kind"],
            attackers=tuple(data["attackers"]),
            targets=tuple(int(h) for h in targets) if targets is not None else (int(data["target"]),),
            supports=tuple((str(h), str(k)) for h, k in data.get("supports", [])),
            air=int(data.get("air", 0)),
            defender_supports=tuple((str(h), str(k)) for h, k in data.get("defender_supports", [])),
            defender_air=int(data.get("defender_air", 0)),
            attacker_quality=data.get("attacker_quality"),
            defender_quality=data.get("defender_quality"),
            snafu=data.get("snafu"),
            snafu_unit=data.get("snafu_unit"),
            snafu_die=int(data.get("snafu_die", 0)),
            surprise_support=(
                (str(data["surprise_support"][0]), str(data["surprise_support"][1]))
                if data.get("surprise_support")
                else None
            ),
        )


# --- The assessment ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Modifier:
    """One column shift or die modifier, with its reason and rule."""

    amount: int
    reason: str
    rule: str

    def __str__(self) -> str:
        return f"{self.amount:+d} {self.reason} ({self.rule})"


@dataclass(frozen=True)
class Contribution:
    """One unit's part in the sums: its strength and every halving applied to it."""

    unit: str
    name: str
    strength: int
    """Current strength before halving (1.2)."""
    halvings: tuple[str, ...]
    """Each halving with its reason and rule, e.g. ``"fatigued (3.5.1)"``."""
    zeroed: bool = False
    """SNAFU 11: the unit adds nothing but shares the result."""
    hex: Hex | None = None
    """Where the unit stands (a defender's target hex)."""

    @property
    def divisor(self) -> int:
        return 0 if self.zeroed else 2 ** len(self.halvings)


@dataclass(frozen=True)
class Assessment:
    """Everything about an attack before the die is rolled, each figure with its source."""

    plan: AttackPlan
    defenders: tuple[str, ...]
    attacker_hexes: tuple[Hex, ...]
    attackers_detail: tuple[Contribution, ...]
    defenders_detail: tuple[Contribution, ...]
    attack_total: int
    defence_total: int
    ratio: str
    """The rounded force ratio (7.5), e.g. ``"2:1"`` or ``"1:3"``; may lie beyond the table."""
    base_column: int
    """Index in ``tables.crt_columns`` of the ratio's column (extreme columns beyond the table)."""
    base_column_name: str
    shifts: tuple[Modifier, ...]
    column: int
    """Index of the final column, after the shifts, clamped to the table."""
    column_name: str
    drm: tuple[Modifier, ...]
    drm_total: int
    attacker_quality: str
    defender_quality: str
    cancelled: tuple[str, ...] = ()
    """Supports cancelled by SNAFU, as ``"hq:kind"`` or ``"air"`` (they go back without a roll, 9.5)."""
    notes: tuple[str, ...] = ()
    terrain_hex: Hex | None = None
    """The target hex whose terrain gives the defender's shifts: the most favourable to the defender (7.4)."""

    def lines(self) -> list[str]:
        """The assessment in words, one line per figure, for the bot and the log."""
        several = len(self.plan.targets) > 1
        out = [
            f"{'Prepared' if self.plan.kind == 'prepared' else 'Normal'} attack on "
            + ", ".join(hex_name(h) for h in self.plan.targets),
        ]
        if several and self.terrain_hex is not None:
            out.append(
                f"Terrain of {hex_name(self.terrain_hex)} used: the most favourable to the defender among the "
                "target hexes (7.2, 7.4)"
            )
        for title, detail, total in (
            ("Attack", self.attackers_detail, self.attack_total),
            ("Defence", self.defenders_detail, self.defence_total),
        ):
            parts = []
            for c in detail:
                how = "0 (SNAFU 11)" if c.zeroed else str(c.strength)
                if c.halvings and not c.zeroed:
                    how += " halved: " + ", ".join(c.halvings)
                where = f" at {hex_name(c.hex)}" if several and title == "Defence" and c.hex is not None else ""
                parts.append(f"{c.name}{where} {how}")
            out.append(f"{title} {total}: " + "; ".join(parts))
        out.append(f"Ratio {self.ratio} (7.5): column {self.base_column_name}")
        out.extend(f"Shift {m}" for m in self.shifts)
        out.append(f"Final column {self.column_name}")
        out.extend(f"Die {m}" for m in self.drm)
        out.append(f"Die modifier {self.drm_total:+d}")
        out.extend(f"Cancelled by SNAFU: {c}" for c in self.cancelled)
        out.extend(self.notes)
        return out


@dataclass(frozen=True)
class Outcome:
    """What one die face gives."""

    face: int
    modified: int
    row: int
    result: str
    breakthrough: bool


@dataclass(frozen=True)
class Preview:
    """[7.5] The odds of an attack: its assessment and the chance of each result, without rolling."""

    assessment: Assessment
    outcomes: tuple[Outcome, ...]
    probabilities: Mapping[str, Fraction] = field(default_factory=dict)
    """Chance of each result text (``"1/2"``), exact."""
    breakthrough: Fraction = Fraction(0)
    """Chance of a breakthrough (7.8)."""
    expected_losses: tuple[Fraction, Fraction] = (Fraction(0), Fraction(0))
    """The steps the attacker and the defender may expect to lose, the CRT's numbers over the six faces (7.6;
    an ``E`` counts every step of that side in the combat)."""

    def lines(self) -> list[str]:
        """The preview in words."""
        out = self.assessment.lines()
        for result, chance in sorted(self.probabilities.items(), key=lambda kv: -kv[1]):
            out.append(f"{result}: {float(chance) * 100:.0f}%")
        if self.breakthrough:
            out.append(f"Breakthrough: {float(self.breakthrough) * 100:.0f}%")
        attacker, defender = self.expected_losses
        out.append(f"Expected step losses (7.6): attacker {float(attacker):.1f}, defender {float(defender):.1f}")
        return out


def expected_steps_lost(result: str, attacker_steps: int, defender_steps: int) -> tuple[int, int]:
    """The steps a CRT result (``"1/2"``, ``"-/E"``) takes from attacker and defender; ``E`` takes all."""
    attacker, _, defender = result.partition("/")

    def steps(text: str, whole: int) -> int:
        text = text.strip()
        if text == "E":
            return whole
        return int(text) if text.isdigit() else 0

    return steps(attacker, attacker_steps), steps(defender, defender_steps)


# --- Table readers ----------------------------------------------------------------------------------------


def support_def(data: GameData, side: Side, kind: str) -> Mapping[str, Any] | None:
    """The support marker of that kind for a side (tables.toml ``[support.*]``), or ``None``."""
    for name, entry in data.tables.raw["support"].items():
        if entry.get("key", name) == kind and entry.get("side") in (side, "both"):
            return cast(Mapping[str, Any], entry)
    return None


def attack_type(data: GameData, kind: str) -> Mapping[str, Any]:
    """The attack type's row of Table 7.3."""
    return cast(Mapping[str, Any], data.tables.raw["attack_type"][kind])


def action_cost(data: GameData, kind: str) -> int:
    """APs a unit spends on an attack of this kind (Actions Table 3.4.1)."""
    return int(data.tables.raw["actions"][f"{kind}_attack"])


def column_index(data: GameData, name: str) -> int:
    return data.tables.crt_columns.index(name)


def round_ratio(attack: int, defence: int, halves_up: bool = False) -> tuple[int, int]:
    """[7.5] The force ratio rounded to the nearest whole number, never in the defender's favour; with
    ``halves_up`` (Alsace 1944 0.3, 7.5: no such exception) an exact half rounds up on either side.

    Returns ``(a, d)`` with one of them 1: ``(2, 1)`` for 2:1, ``(1, 3)`` for 1:3.

    >>> round_ratio(149, 100), round_ratio(150, 100), round_ratio(10, 25), round_ratio(10, 26)
    ((1, 1), (2, 1), (1, 2), (1, 3))
    >>> round_ratio(10, 15), round_ratio(10, 15, halves_up=True)
    ((1, 1), (1, 2))
    """
    if defence <= 0:
        return (max(1, attack), 1) if attack > 0 else (1, 1)
    if attack <= 0:
        return (1, 99)
    if attack >= defence:
        # attack / defence rounded half up: floor(a/d + 1/2).
        return ((2 * attack + defence) // (2 * defence), 1)
    if halves_up:
        return (1, (2 * defence + attack) // (2 * attack))
    # defence / attack rounded half down (toward the attacker): ceil(d/a - 1/2).
    return (1, max(1, _half_down(defence, attack)))


def ratio_halves_up(data: GameData) -> bool:
    """[7.5] Whether an exact half of the force ratio rounds up even in the defender's favour (the tables'
    ``[rounding] ratio_halves = "up"``; Ardennes 1944 rounds it toward the attacker)."""
    return bool(data.tables.raw.get("rounding", {}).get("ratio_halves") == "up")


def _half_down(num: int, den: int) -> int:
    """``num / den`` rounded to the nearest integer, exact halves rounded down."""
    return (2 * num + den - 1) // (2 * den)


def ratio_column(data: GameData, ratio: tuple[int, int]) -> int:
    """The CRT column of a rounded ratio; beyond the table, the extreme column (7.5, "8:1+")."""
    columns = data.tables.crt_columns
    even = column_index(data, "1:1")
    a, d = ratio
    index = even + (a - 1) if d == 1 else even - (d - 1)
    return max(0, min(len(columns) - 1, index))


def crt_cell(data: GameData, column: int, modified_roll: int) -> tuple[int, CrtCell]:
    """The CRT row for a modified roll (clamped to the table's rows) and the cell at a column."""
    lowest = int(data.tables.raw["crt"].get("lowest_row", 0))
    row = max(lowest, min(lowest + len(data.tables.crt) - 1, modified_roll)) - lowest
    return row, data.tables.crt[row][column]


# --- Who is who ---------------------------------------------------------------------------------------------


def is_armor(data: GameData, unit_id: str) -> bool:
    """Armored or mechanized (7.4 divisional integrity, 7.6 armor losses, 7.7.2 advances)."""
    return data.units[unit_id].is_mechanized


def hq_of(data: GameData, unit_id: str) -> str | None:
    """The HQ of the unit's formation, if it has one."""
    return data.formations[data.units[unit_id].formation].hq


def c3i_rating(data: GameData, unit_id: str) -> str:
    """[9.5] The C3I rating an attacking unit uses: its HQ's; independents A with quality 5+, else B."""
    formation = data.formations[data.units[unit_id].formation]
    if formation.independent or formation.hq is None:
        return "A" if data.units[unit_id].quality >= 5 else "B"
    return data.units[formation.hq].c3i or "B"


def command_range(data: GameData, side: Side) -> int:
    """[8.1, 9.2, 9.3] How far an HQ's command reaches."""
    return int(data.tables.raw["doctrine"][side]["command_range"])


def in_command_range(pos: Position, hq: UnitState, unit: UnitState) -> bool:
    """[8.1] Whether a Line of Command of at most the HQ's range joins the HQ to the unit.

    The line may cross any terrain and enemy ZoC but no hex holding an enemy unit.
    """
    assert hq.hex is not None and unit.hex is not None
    side = pos.side_of(hq.id)
    reach = command_range(pos.data, side)
    grid = pos.data.map.grid
    if grid.distance(hq.hex, unit.hex) > reach:
        return False
    frontier = [hq.hex]
    seen = {hq.hex}
    for _ in range(reach):
        nxt = []
        for h in frontier:
            for n in grid.neighbours(h):
                if n in seen:
                    continue
                seen.add(n)
                if n == unit.hex:
                    return True
                holder = pos.side_at(n)
                if holder is not None and holder != side:
                    continue
                nxt.append(n)
        frontier = nxt
    return hq.hex == unit.hex


def may_support(pos: Position, hq_id: str, unit: UnitState) -> bool:
    """[1.3, 16.3] Whether an HQ may support a unit: US/British HQs any unit of their army, German HQs
    their own formation's units; independents any HQ of their side; in command range either way."""
    return support_problem(pos, hq_id, unit) is None


def support_problem(pos: Position, hq_id: str, unit: UnitState) -> str | None:
    """[1.3, 16.3] Why an HQ may not support a unit, in a few words (the formation, the army, the command
    range, or not on the map), or ``None`` when it may (see :func:`may_support`)."""
    data = pos.data
    hq = pos.state.units[hq_id]
    if not hq.on_map or not unit.on_map:
        return "not on the map"
    formation = data.formations[data.units[unit.id].formation]
    if data.side_of(hq_id) != data.side_of(unit.id):
        return "the other side"
    attached = attached_formation(pos.state, data, unit.id)
    if attached is not None and data.formations[attached].hq != hq_id:
        return f"another formation (its Combat Command is attached to {data.formations[attached].name}, 9.2)"
    if not formation.independent:
        if data.nationality_of(hq_id) == "german":
            if data.units[hq_id].formation != formation.id:
                return "another formation (a German HQ supports its own formation's units)"
        elif data.army_of(hq_id).id != data.army_of(unit.id).id and data.nationality_of(unit.id) != "british":
            return "another army (an Allied HQ supports its own army's units)"
    elif not data.tables.raw.get("doctrine", {}).get(data.side_of(hq_id), {}).get("hq_supports_independents", True):
        return "an independent unit (this side's HQs support only their own formation's units)"  # Alsace 1944 1.3
    if first_turn_all_in_command(pos.data, pos.state, data.side_of(unit.id)):
        return None
    if is_british_west_of_meuse(data, unit) and data.nationality_of(hq_id) == "british":
        return None  # 16.2: XXX Corps supports the British west of the Meuse wherever they are
    return None if in_command_range(pos, hq, unit) else "out of its command range"


def first_turn_all_in_command(data: GameData, state: GameState, side: Side) -> bool:
    """[17.1, 17.2] On turn 1 every American unit is in command, however far its HQ, and can receive support."""
    scenario = data.scenarios.get(state.scenario)
    return (
        side == "allied"
        and state.turn == 1
        and scenario is not None
        and "us-all-in-command-turn-1" in scenario.special_rules
    )


def defending_units(pos: Position, target: Hex | Iterable[Hex]) -> list[UnitState]:
    """[7.2] Every unit in the target hex, or in each of the target hexes in turn, defends."""
    hexes = (target,) if isinstance(target, int) else tuple(target)
    return [u for h in hexes for u in pos.units_at(h)]


def alone_in_its_hex(pos: Position, unit: UnitState) -> bool:
    """Whether no other unit stands in the unit's hex (1.3: an HQ's own quality)."""
    return unit.hex is not None and all(u.id == unit.id for u in pos.units_at(unit.hex))


def default_quality_unit(pos: Position, units: Sequence[UnitState], alone: bool) -> str:
    """[7.4] The best quality among the units; an HQ counts only when alone in its hex (1.3).

    ``alone`` says that the units are a single unit on its own; an HQ also counts when the map shows it alone
    in its hex (one of several target hexes, 7.2).
    """
    eligible = [
        u for u in units if not pos.unit_def(u.id).is_hq or (alone and len(units) == 1) or alone_in_its_hex(pos, u)
    ]
    if not eligible:
        eligible = list(units)
    return max(eligible, key=lambda u: (quality_of(pos, u), pos.strength(u))).id


def quality_of(pos: Position, unit: UnitState) -> int:
    """[7.4, 1.3, 15.3] A unit's quality: an HQ alone 4; Nuts! +1 near the marker."""
    data = pos.data
    quality = data.units[unit.id].quality
    if data.units[unit.id].is_hq:
        quality = int(data.tables.raw["stacking"]["hq_alone_quality"])
    return quality + aura_bonus(pos, unit)


def aura_bonus(pos: Position, unit: UnitState) -> int:
    """[15.3] +1 quality for allied units with the Nuts! marker or in the six hexes around it."""
    if pos.side_of(unit.id) != "allied" or unit.hex is None:
        return 0
    return nuts_quality_bonus(pos.data, pos.state, unit.hex)


def tables_no_attack_across(data: GameData, kind: str) -> bool:
    """[TEC] Whether the crossing chart forbids any attack across this kind of water (Alsace 1944's Rhine)."""
    chart = data.tables.raw["crossing"].get(kind, {})
    return bool(chart.get("no_attack_across"))


def crossing_of(data: GameData, a: Hex, b: Hex) -> str | None:
    """``"river"``, ``"bridge"`` or ``None`` for the hexside between two adjacent hexes."""
    if data.map.river_between(a, b) is None:
        return None
    return "bridge" if data.map.is_bridged(a, b) else "river"


def divisional_integrity(pos: Position, units: Iterable[UnitState]) -> bool:
    """[7.4] Whether some stack among the units holds two armored/mechanized units of one division."""
    seen: Counter[tuple[Hex | None, str]] = Counter()
    for u in units:
        definition = pos.unit_def(u.id)
        if definition.is_mechanized and definition.division:
            seen[(u.hex, definition.division)] += 1
    return any(count >= 2 for count in seen.values())


# --- The assessment ---------------------------------------------------------------------------------------


def _refuse(message: str, rule: str) -> IllegalActionError:
    return IllegalActionError(message, rule=rule)


def defender_terrain_shifts(data: GameData, hex_: Hex, defender: Side) -> list[Modifier]:
    """[7.4, 0.2] The column shifts the terrain of one defender's hex gives: its terrain, its village or city,
    the Westwall for a German defender."""
    tables = data.tables.raw
    shifts: list[Modifier] = []
    terrain = data.map.terrain.get(hex_, "clear")
    terrain_shift = int(tables["terrain"][terrain].get("column_shift", 0))
    if terrain_shift:
        shifts.append(Modifier(terrain_shift, f"defender in {terrain}", "0.2"))
    settlement = data.map.settlements.get(hex_)
    if settlement is not None and settlement.kind in ("city", "village"):
        shift = int(tables["terrain"][settlement.kind].get("column_shift", 0))
        if shift:
            shifts.append(Modifier(shift, f"defender in the {settlement.kind} of {settlement.name}", "0.2, 7.4"))
    for overlay in data.map.overlays_at(hex_):
        # Terrain printed over the hex (Westwall, fort, factory), some for one side only.
        chart = tables["terrain"][overlay]
        shift = int(chart.get("column_shift", 0))
        if shift and chart.get("column_shift_only_for", defender) == defender:
            where = f"the {overlay.capitalize()}"
            shifts.append(
                Modifier(shift, f"{defender.capitalize()} defender in {where}", str(chart.get("rule", "0.2")))
            )
    return shifts


def _validate_supports(
    pos: Position,
    side: Side,
    uses: Sequence[SupportUse],
    units: Sequence[UnitState],
    limit: int,
    who: str,
    committed: bool,
) -> None:
    data = pos.data
    if len(uses) > limit:
        raise _refuse(f"{who} may commit at most {limit} HQ support marker(s) to this attack, not {len(uses)}", "7.3")
    wanted: Counter[SupportUse] = Counter(uses)
    for (hq_id, kind), count in wanted.items():
        if is_combat_command(data, hq_id) and holder_side(data, hq_id) == side:
            # [1.6] A marker given to a Combat Command supports its own counters, at any range.
            if support_def(data, side, kind) is None:
                raise _refuse(f"{kind!r} is not a support marker of the {data.side_name(side)} side", "1.6")
            if committed:
                continue
            if count > 1:
                raise _refuse("a Combat Command holds one marker", "1.6")
            why = cc_support_problem(data, pos.state, hq_id, kind, [u.id for u in units])
            if why is not None:
                raise _refuse(why, "1.6")
            continue
        if hq_id not in data.units or not data.units[hq_id].is_hq or data.side_of(hq_id) != side:
            raise _refuse(f"{hq_id!r} is not an HQ of the {data.side_name(side)} side", "1.6")
        if support_def(data, side, kind) is None:
            raise _refuse(f"{kind!r} is not a support marker of the {data.side_name(side)} side", "1.6")
        hq = pos.state.units[hq_id]
        if not committed and hq.supports.count(kind) < count:
            raise _refuse(f"{data.units[hq_id].name} holds {hq.supports.count(kind)} {kind} marker(s)", "1.6")
        problems = {u.id: support_problem(pos, hq_id, u) for u in units}
        if not committed and all(problems.values()):
            why = "; ".join(f"{data.units[u].name}: {p}" for u, p in problems.items())
            raise _refuse(f"{data.units[hq_id].name} cannot support any unit in this combat: {why}", "1.3")


def _snafu_vv60_note(state: GameState, plan: AttackPlan) -> tuple[str, ...]:
    """[9.5] With the VV60 SNAFU option, a roll before the die may still change the odds shown."""
    if not state.options.get("snafu_vv60") or plan.snafu_die or plan.surprise_support:
        return ()
    return (
        "A SNAFU roll (9.5) comes before the die: it may shift the die 1, change a quality unit, "
        "send a support back or bring a surprise one.",
    )


def road_only_for_mechanized(data: GameData, hex_: Hex) -> bool:
    """[TEC] Whether a mechanized unit enters the hex's terrain only along a road (difficult, mountain)."""
    chart = data.tables.raw["terrain"].get(data.map.terrain.get(hex_, "clear"), {})
    return "mechanized" in chart.get("road_only", ())


def tank_link(data: GameData, a: Hex, b: Hex) -> bool:
    """[7.1, 1.6.2] Whether tanks may fight between two adjacent hexes: neither is terrain they enter only by
    road, or a road joins them ("out of a difficult terrain hex that is not connected by road")."""
    if not (road_only_for_mechanized(data, a) or road_only_for_mechanized(data, b)):
        return True
    return data.map.has_road(a, b)


def support_condition_problem(
    data: GameData,
    owner: Side,
    kind: str,
    role: Literal["attack", "defence"],
    attackers: Sequence[UnitState],
    links: Sequence[tuple[Hex, Hex]],
) -> str | None:
    """[1.6.1, 1.6.2] Why a marker's own conditions forbid it in this combat, or ``None``.

    ``defence_only`` (FlaK 88: "useable only in defense"), ``only_against`` (FlaK 88: "against armored units
    (whether or not accompanied by infantry)": some attacking unit is of that kind), ``needs_tank_terrain``
    (TD: "the defender's terrain and at least one attacker's hex are not impassable for tanks": some attacking
    hex and the target hex are joined as :func:`tank_link` allows). ``links`` are the (attacker's hex, target
    hex) pairs of the attack.
    """
    definition = support_def(data, owner, kind)
    if definition is None:
        return None
    label = kind.replace("_", " ")
    if definition.get("defence_only") and role == "attack":
        return f"the {label} marker is used only in defence"
    against = definition.get("only_against")
    if against and role == "defence" and not any(data.units[u.id].kind == against for u in attackers):
        return f"the {label} marker is used only against an attack that includes {against} units"
    if definition.get("needs_tank_terrain") and not any(tank_link(data, a, t) for a, t in links):
        return (
            f"the {label} marker needs the defender's hex and an attacking hex that tanks may fight between "
            "(not terrain they enter only by road, unless a road joins them)"
        )
    return None


def combined_arms(pos: Position, attackers: Iterable[UnitState]) -> bool:
    """[7.4] Whether some attacking hex holds a tank unit and an infantry unit (foot or mechanized) that both
    attack: "+1 drm when attacking, regardless of the number of 'tank-infantry' groups"."""
    kinds: dict[Hex | None, set[str]] = {}
    for u in attackers:
        kinds.setdefault(u.hex, set()).add(pos.unit_def(u.id).kind)
    return any("armored" in k and k & {"infantry", "mechanized"} for k in kinds.values())


def armored_superiority(pos: Position, side: Iterable[UnitState], facing: Iterable[UnitState]) -> bool:
    """[7.4, 1.1] Whether a tank unit of ``side`` with the dot (armored superiority) faces a tank unit."""
    return any(pos.unit_def(u.id).armored_superiority and pos.unit_def(u.id).kind == "armored" for u in side) and any(
        pos.unit_def(u.id).kind == "armored" for u in facing
    )


def _contribution(pos: Position, unit: UnitState, halvings: list[str], zeroed: bool = False) -> Contribution:
    return Contribution(unit.id, pos.unit_def(unit.id).name, pos.strength(unit), tuple(halvings), zeroed, unit.hex)


def sum_strengths(details: Iterable[Contribution], rounding: str = "up") -> int:
    """[0.3] Add strengths per group halved the same number of times, then halve each group once.

    ``rounding`` is the game's (``[rounding] mode``): "up" (Ardennes 1944: 5 halved is 3) or "nearest", a half
    going up (Alsace 1944: 7/3 is 2, 3/2 is 2). The two differ only once a value is quartered or more.
    """
    groups: dict[int, int] = {}
    for c in details:
        if c.zeroed:
            continue
        groups[c.divisor] = groups.get(c.divisor, 0) + c.strength
    if rounding == "nearest":
        return sum((2 * total + divisor) // (2 * divisor) for divisor, total in groups.items())
    return sum(-(-total // divisor) for divisor, total in groups.items())


def rounding_mode(data: GameData) -> str:
    """[0.3] How the game rounds a divided value: "up" unless its tables say otherwise."""
    return str(data.tables.raw.get("rounding", {}).get("mode", "up"))


def assess(data: GameData, state: GameState, plan: AttackPlan, *, committed: bool = False) -> Assessment:
    """[7] Check an attack and work out its odds, column shifts and die modifier, naming every source.

    ``committed`` is for an attack already declared, whose markers and air missions have been spent: their
    availability is then not checked again.

    :raises IllegalActionError: if the attack breaks a rule (adjacency, one hex for a normal attack, supports
        beyond the attack type's limit, status forbidding a prepared attack, ...), with the rule number.
    """
    pos = Position(data, state)
    _check_declaration(plan)
    defenders = _defending_units_of(pos, plan)
    attackers, attacked = _attacking_units_of(pos, plan)
    attacker_hexes = tuple(sorted({u.hex for u in attackers if u.hex is not None}))
    kind_row = attack_type(data, plan.kind)
    if len(attacker_hexes) > 1 and not kind_row["from_several_hexes"]:
        raise _refuse(
            "a normal attack is made from a single hex; attacking from several needs a prepared attack", "7.3.1"
        )
    _check_hq_supports(pos, plan, kind_row, attackers, defenders, attacked, committed)
    _check_air_supports(pos, plan, kind_row, committed)
    attacker_q, defender_q = _quality_units(pos, plan, attackers, defenders)
    snafu = plan.snafu if plan.snafu in SNAFU_EFFECTS else None
    zeroed, halved_by_snafu = _units_struck_by_snafu(data, plan, snafu, attackers)

    attack_details = tuple(
        _attacker_contribution(pos, plan, unit, attacked[unit.id], halved_by_snafu, zeroed) for unit in attackers
    )
    defence_details = tuple(_defender_contribution(pos, unit) for unit in defenders)
    attack_total = sum_strengths(attack_details, rounding_mode(data))
    defence_total = sum_strengths(defence_details, rounding_mode(data))
    ratio = round_ratio(attack_total, defence_total, ratio_halves_up(data))
    base = ratio_column(data, ratio)

    terrain_hex, terrain_shifts = _defender_terrain(data, plan)
    support_shifts, support_drm, cancelled = _support_effects(data, plan, snafu)
    shifts = [
        *terrain_shifts,
        *_improved_position_shifts(data, defenders),
        *_attack_type_shifts(data, plan, kind_row, attackers),
        *support_shifts,
    ]
    if snafu == "column-left":
        shifts.append(Modifier(-1, "SNAFU 2, poor air-ground coordination", "9.5"))
    top = len(data.tables.crt_columns) - 1
    column = max(0, min(top, base + sum(m.amount for m in shifts)))
    drm = [
        _quality_modifier(pos, attacker_q, defender_q),
        *support_drm,
        *_formation_modifiers(pos, snafu, attackers, defenders),
        *_snafu_die_modifiers(plan, snafu, attacker_hexes),
    ]

    return Assessment(
        plan=plan,
        defenders=tuple(u.id for u in defenders),
        attacker_hexes=attacker_hexes,
        attackers_detail=attack_details,
        defenders_detail=defence_details,
        attack_total=attack_total,
        defence_total=defence_total,
        ratio=f"{ratio[0]}:{ratio[1]}",
        base_column=base,
        base_column_name=data.tables.crt_columns[base],
        shifts=tuple(shifts),
        column=column,
        column_name=data.tables.crt_columns[column],
        drm=tuple(m for m in drm if m.amount or m.rule == "7.4"),
        drm_total=sum(m.amount for m in drm),
        attacker_quality=attacker_q,
        defender_quality=defender_q,
        cancelled=tuple(cancelled),
        terrain_hex=terrain_hex,
    )


def _check_declaration(plan: AttackPlan) -> None:
    """[7.1, 7.2, 7.3] The plan names an attack type, distinct attackers and at least one target hex."""
    if plan.kind not in ("normal", "prepared"):
        raise _refuse(f"an attack is normal or prepared, not {plan.kind!r}", "7.3")
    if not plan.attackers:
        raise _refuse("name at least one attacking unit", "7.1")
    if len(set(plan.attackers)) != len(plan.attackers):
        raise _refuse("a unit is named twice among the attackers; its strength cannot be divided", "7.2")
    if not plan.targets:
        raise _refuse("name at least one target hex", "7.1")


def _defending_units_of(pos: Position, plan: AttackPlan) -> list[UnitState]:
    """[7.1, 7.2] Every enemy unit of every target hex, each hex on the map and holding the enemy; several
    target hexes only where the attack type allows them."""
    data = pos.data
    enemy = other_side(plan.side)
    defenders: list[UnitState] = []
    for target in plan.targets:
        if not data.map.grid.contains(target):
            raise _refuse(f"{target} is not a hex of the map", "7.1")
        # [7.2] Every enemy unit in each target hex defends.
        here = defending_units(pos, target)
        if not here or pos.side_of(here[0].id) != enemy:
            raise _refuse(f"{hex_name(target)} holds no enemy unit to attack", "7.1")
        defenders += here
    if len(plan.targets) > 1 and not combat_rules.several_targets(data, plan.kind):
        raise _refuse("each attack is made on a single target hex and resolved separately", "7.2")
    return defenders


def _attacking_units_of(pos: Position, plan: AttackPlan) -> tuple[list[UnitState], dict[str, tuple[Hex, ...]]]:
    """[7.1, 7.2, 0.2, 10.3] The attacking units and the target hexes each attacks (every one it is adjacent
    to, its strength undivided), once each attacker may attack them and every target hex has an attacker."""
    attackers: list[UnitState] = []
    attacked: dict[str, tuple[Hex, ...]] = {}
    for unit_id in plan.attackers:
        unit, reach = _attacker_and_reach(pos, plan, unit_id)
        attacked[unit_id] = reach
        attackers.append(unit)
    for h in plan.targets:
        if not any(h in attacked[u.id] for u in attackers):
            raise _refuse(f"no attacking unit is adjacent to {hex_name(h)}", "7.1")
    return attackers, attacked


def _attacker_and_reach(pos: Position, plan: AttackPlan, unit_id: str) -> tuple[UnitState, tuple[Hex, ...]]:
    """[7.1, 7.2, 0.2, 10.3] One attacker and the target hexes it attacks, refused if it may not attack one
    of them (across water that forbids it, an unbridged river for a unit other than infantry, terrain a
    mechanized unit enters only by road) or may not join this attack type."""
    data, state = pos.data, pos.state
    side = plan.side
    several = len(plan.targets) > 1
    if unit_id not in state.units:
        raise _refuse(f"no unit {unit_id!r}", "7.1")
    unit = state.units[unit_id]
    name = data.units[unit_id].name
    if not unit.on_map or data.side_of(unit_id) != side:
        raise _refuse(f"{name} is not a {data.side_name(side)} unit on the map", "7.1")
    if data.units[unit_id].is_hq:
        raise _refuse(f"{hq_name(name)} has a combat strength only in defence", "1.3")
    assert unit.hex is not None
    reach = tuple(h for h in plan.targets if data.map.grid.are_adjacent(unit.hex, h))
    if not reach:
        targets_text = ", ".join(hex_name(h) for h in plan.targets)
        where = f"any of the target hexes {targets_text}" if several else targets_text
        raise _refuse(f"{name} at {hex_name(unit.hex)} is not adjacent to {where}", "7.1")
    for h in reach:
        water = data.map.river_between(unit.hex, h)
        if water is not None and tables_no_attack_across(data, water.kind):
            raise _refuse(f"{name} cannot attack across the {water.name}: no attack is allowed across it", "0.2")
        if crossing_of(data, unit.hex, h) == "river" and data.units[unit_id].kind != "infantry":
            into = f" (into {hex_name(h)})" if several else ""
            raise _refuse(f"{name} cannot attack across an unbridged river{into}: only infantry may", "0.2")
        if data.units[unit_id].is_mechanized and not tank_link(data, unit.hex, h):
            raise _refuse(
                f"{name} cannot attack between {hex_name(unit.hex)} and {hex_name(h)}: a mechanized unit enters "
                "that terrain only by road, and no road joins the two hexes",
                "7.1",
            )
    if plan.kind == "prepared" and (unit.isolated or unit.unsupplied):
        status = "unsupplied" if unit.unsupplied else "isolated"
        raise _refuse(f"{name} is {status} and cannot take part in a prepared attack", "10.3")
    return unit, reach


def _check_hq_supports(
    pos: Position,
    plan: AttackPlan,
    kind_row: Mapping[str, Any],
    attackers: Sequence[UnitState],
    defenders: Sequence[UnitState],
    attacked: Mapping[str, tuple[Hex, ...]],
    committed: bool,
) -> None:
    """[1.6, 7.3] Both sides' HQ support markers: within the attack type's limit, each side's own, in range,
    and allowed by the marker's own conditions in this combat."""
    side, enemy = plan.side, other_side(plan.side)
    limit = int(kind_row["hq_supports"])
    links = tuple((u.hex, h) for u in attackers if u.hex is not None for h in attacked[u.id])
    _validate_supports(pos, side, plan.supports, attackers, limit, "The attacker", committed)
    _validate_supports(pos, enemy, plan.defender_supports, defenders, limit, "The defender", committed)
    roles: tuple[tuple[Side, Sequence[SupportUse], Literal["attack", "defence"]], ...] = (
        (side, plan.supports, "attack"),
        (enemy, plan.defender_supports, "defence"),
    )
    for owner, uses, role in roles:
        for _, kind in uses:
            problem = support_condition_problem(pos.data, owner, kind, role, attackers, links)
            if problem is not None:
                raise _refuse(problem, "1.6")


def _check_air_supports(pos: Position, plan: AttackPlan, kind_row: Mapping[str, Any], committed: bool) -> None:
    """[7.3, 14.2, 14.3] Both sides' air supports: never negative, only in a game with air power, within the
    attack type's limit and the side's missions left, and at most two in one combat."""
    data, state = pos.data, pos.state
    air_limit = int(kind_row["air_supports"])
    sides = (("The attacker", plan.air, plan.side), ("The defender", plan.defender_air, other_side(plan.side)))
    for who, count, owner in sides:
        if count < 0:
            raise _refuse("a number of air supports cannot be negative", data.rule("14.3"))
        if count > 0 and not data.has_air_power:
            raise _refuse(f"{data.name} has no air support", data.rule("14.3"))
        if count > air_limit:
            raise _refuse(f"{who} may commit at most {air_limit} air support(s) to this attack", "7.3")
        if not committed and count > state.air_missions.get(owner, 0):
            raise _refuse(
                f"{who} has {state.air_missions.get(owner, 0)} air support mission(s) left", data.rule("14.2")
            )
    if plan.air + plan.defender_air > 2:
        raise _refuse("there cannot be more than two air supports in a single combat", data.rule("14.3"))


def _quality_units(
    pos: Position, plan: AttackPlan, attackers: Sequence[UnitState], defenders: Sequence[UnitState]
) -> tuple[str, str]:
    """[7.4, 1.3] The attacking and the defending unit whose qualities are compared: the ones the plan names
    (a defender from any target hex, an HQ only when alone in its hex), else the best of each side."""
    data = pos.data
    if plan.attacker_quality is None:
        attacker_q = default_quality_unit(pos, attackers, alone=False)
    elif plan.attacker_quality in plan.attackers:
        attacker_q = plan.attacker_quality
    else:
        raise _refuse(f"{plan.attacker_quality!r} is not one of the attackers", "7.4")
    if plan.defender_quality is None:
        defender_q = default_quality_unit(pos, defenders, alone=False)
    elif plan.defender_quality in {u.id for u in defenders}:
        defender_q = plan.defender_quality
        if data.units[defender_q].is_hq and not alone_in_its_hex(pos, pos.state.units[defender_q]):
            raise _refuse("an HQ has a quality of its own only when it is alone in its hex", "1.3")
    else:
        raise _refuse(f"{plan.defender_quality!r} is not one of the defenders", "7.4")
    return attacker_q, defender_q


def _units_struck_by_snafu(
    data: GameData, plan: AttackPlan, snafu: str | None, attackers: Sequence[UnitState]
) -> tuple[str | None, str | None]:
    """[9.5] The attacker SNAFU 11 brings to strength zero and the armored attacker SNAFU 9 halves, each
    ``None`` unless that effect was rolled and the unit chosen."""
    zeroed: str | None = None
    halved: str | None = None
    if snafu == "zero-one-attacker" and len(attackers) > 1 and plan.snafu_unit:
        if plan.snafu_unit not in plan.attackers:
            raise _refuse("SNAFU 11 strikes one of the attackers", "9.5")
        zeroed = plan.snafu_unit
    if snafu == "halve-one-armored" and plan.snafu_unit:
        if plan.snafu_unit not in plan.attackers or data.units[plan.snafu_unit].kind != "armored":
            raise _refuse("SNAFU 9 strikes one attacking armored unit", "9.5")
        halved = plan.snafu_unit
    return zeroed, halved


def _attacker_contribution(
    pos: Position,
    plan: AttackPlan,
    unit: UnitState,
    attacked: tuple[Hex, ...],
    halved_by_snafu: str | None,
    zeroed: str | None,
) -> Contribution:
    """[1.2, 0.3] An attacker's strength with each halving: fatigue, supply, a river or bridge crossed to
    any hex it attacks (once), SNAFU 9, disorganisation; nothing under SNAFU 11."""
    data = pos.data
    halvings = []
    if unit.fatigued:
        halvings.append("fatigued (3.5.1)")
    if unit.unsupplied:
        halvings.append("unsupplied (10.3)")
    assert unit.hex is not None
    # [0.2, 7.2] Across a river or bridge from any hex it attacks: the whole unit is halved, once.
    crossing_table = data.tables.raw["crossing"]
    crossings = {crossing_of(data, unit.hex, h) for h in attacked}
    crossing = next((c for c in ("river", "bridge") if c in crossings and crossing_table[c].get("attack_halved")), None)
    if crossing == "bridge" and bridge_halving_cancelled(pos.state, plan.side):
        crossing = None  # [Alsace 15.3] Bridge captured by the FFI
    if crossing is not None:
        halvings.append(f"attacking across a {'bridge' if crossing == 'bridge' else 'river'} (0.2)")
    if unit.id == halved_by_snafu:
        halvings.append("SNAFU 9, supply problems (9.5)")
    if is_disorganized(pos.state, unit.id):
        halvings.append("disorganized (3.6)")
    return _contribution(pos, unit, halvings, zeroed=unit.id == zeroed)


def _defender_contribution(pos: Position, unit: UnitState) -> Contribution:
    """[1.2, 0.3] A defender's strength with each halving: fatigue, supply, retreat into the stack (7.7.1),
    disorganisation, armor in a city (its own hex)."""
    data = pos.data
    halvings = []
    if unit.fatigued:
        halvings.append("fatigued (3.5.1)")
    if unit.unsupplied:
        halvings.append("unsupplied (10.3)")
    if unit.retreated_into_stack:
        halvings.append("retreated into this stack (7.7.1)")
    if is_disorganized(pos.state, unit.id):
        halvings.append("disorganized (3.6)")
    # [0.2] Armor halved in a city: each defending unit by its own hex.
    city_halves_armor = bool(data.tables.raw["terrain"]["city"].get("armor_halved_in_defence"))
    in_city = unit.hex is not None and data.map.is_city(unit.hex)
    if city_halves_armor and in_city and data.units[unit.id].kind == "armored":
        halvings.append("armor in a city (0.2)")
    return _contribution(pos, unit, halvings)


def _defender_terrain(data: GameData, plan: AttackPlan) -> tuple[Hex, list[Modifier]]:
    """[7.4, 7.2] The target hex whose terrain shifts (terrain, village or city, Westwall) favour the
    defender most, the first declared on a tie, with those shifts."""
    enemy = other_side(plan.side)
    return min(
        ((h, defender_terrain_shifts(data, h, enemy)) for h in plan.targets),
        key=lambda entry: sum(m.amount for m in entry[1]),
    )


def _improved_position_shifts(data: GameData, defenders: Sequence[UnitState]) -> list[Modifier]:
    """[12.2] The shift for every defender in Improved Positions. Counters that never act (strongpoints)
    share the Improved Position of the units stacked with them, and have none alone."""
    static = data.tables.raw.get("static", {}).get("kinds", {})
    dug_in = [u for u in defenders if data.units[u.id].kind not in static]
    if dug_in and all(u.improved_position for u in dug_in):
        shift = int(data.tables.raw["status"]["improved_position"]["column_shift_if_all_in_ip"])
        return [Modifier(shift, "every defender in Improved Positions", data.rule("12.2"))]
    return []


def _attack_type_shifts(
    data: GameData, plan: AttackPlan, kind_row: Mapping[str, Any], attackers: Sequence[UnitState]
) -> list[Modifier]:
    """[7.3.2] The attack type's shift, the smallest among the attackers' nationalities."""
    nationalities = {data.nationality_of(u.id) for u in attackers}
    type_shift = min(int(kind_row["column_shift"][n]) for n in nationalities)
    if not type_shift:
        return []
    return [Modifier(type_shift, f"{data.side_name(plan.side)} prepared attack", "7.3.2")]


def _cancelled_by_snafu(snafu: str | None, category: str) -> bool:
    """[9.5] Whether the SNAFU rolled cancels the attacker's supports of this category (12 cancels all)."""
    if snafu == "command-confusion":
        return True
    return (
        (snafu == "cancel-artillery" and category == "artillery")
        or (snafu == "cancel-armor-support" and category == "armor")
        or (snafu == "cancel-air" and category == "air")
    )


def _support_effects(
    data: GameData, plan: AttackPlan, snafu: str | None
) -> tuple[list[Modifier], list[Modifier], list[str]]:
    """[1.6, 14.3, 9.5] The column shifts and die modifiers of both sides' support markers (the VV60
    surprise support among them) and air supports, and the attacker's supports the SNAFU cancelled (as
    ``"hq:kind"`` or ``"air"``)."""
    side, enemy = plan.side, other_side(plan.side)
    shifts: list[Modifier] = []
    drm: list[Modifier] = []
    cancelled: list[str] = []
    uses_by_side: list[tuple[Side, Sequence[SupportUse], int]] = [
        (side, plan.supports, 1),
        (enemy, plan.defender_supports, -1),
    ]
    if plan.surprise_support is not None:
        # [9.5 VV60] The surprise support drawn from the pool of the side that did not suffer the SNAFU.
        army, kind = plan.surprise_support
        lucky = data.armies[army].side
        uses_by_side.append((lucky, (("pool", kind),), 1 if lucky == side else -1))
    for owner, uses, sign in uses_by_side:
        for hq_id, kind in uses:
            definition = support_def(data, owner, kind)
            assert definition is not None
            holder = "the pool, a surprise (9.5)" if hq_id == "pool" else holder_name(data, hq_id)
            label = f"{kind.replace('_', ' ')} support of {holder}"
            if sign > 0 and _cancelled_by_snafu(snafu, str(definition.get("category"))):
                cancelled.append(f"{hq_id}:{kind}")
                continue
            if "column_shift" in definition:
                shifts.append(Modifier(sign * int(definition["column_shift"]), label, "1.6"))
            if "die_modifier" in definition:
                drm.append(Modifier(sign * int(definition["die_modifier"]), label, "1.6"))
    air_def = data.tables.raw["support"].get("air", {"column_shift": 0})  # a game without air power has no such row
    for owner_air, sign in ((plan.air, 1), (plan.defender_air, -1)):
        for _ in range(owner_air):
            if sign > 0 and _cancelled_by_snafu(snafu, "air"):
                cancelled.append("air")
                continue
            who = "attacker" if sign > 0 else "defender"
            shifts.append(
                Modifier(sign * int(air_def["column_shift"]), f"air support for the {who}", data.rule("14.3"))
            )
    return shifts, drm, cancelled


def _quality_modifier(pos: Position, attacker_q: str, defender_q: str) -> Modifier:
    """[7.4] The attacking quality unit's quality less the defending one's."""
    data = pos.data
    aq = quality_of(pos, pos.state.units[attacker_q])
    dq = quality_of(pos, pos.state.units[defender_q])
    return Modifier(
        aq - dq,
        f"quality {aq} of {data.units[attacker_q].name} less quality {dq} of {data.units[defender_q].name}",
        "7.4",
    )


def _formation_modifiers(
    pos: Position, snafu: str | None, attackers: Sequence[UnitState], defenders: Sequence[UnitState]
) -> list[Modifier]:
    """[7.4] Divisional integrity of either side (the attacker's lost to SNAFU 12), combined arms and
    armored superiority, as the game's combat rules have them."""
    rules = combat_rules.modifiers(pos.data)
    drm: list[Modifier] = []
    if rules.divisional_integrity and divisional_integrity(pos, attackers) and snafu != "command-confusion":
        drm.append(Modifier(1, "attacker's divisional integrity", "7.4"))
    if rules.divisional_integrity and divisional_integrity(pos, defenders):
        drm.append(Modifier(-1, "defender's divisional integrity", "7.4"))
    if rules.combined_arms and combined_arms(pos, attackers):
        drm.append(Modifier(rules.combined_arms, "combined arms: tanks and infantry attacking from one hex", "7.4"))
    if rules.armored_superiority:
        if armored_superiority(pos, attackers, defenders):
            drm.append(Modifier(rules.armored_superiority, "attacker's armored superiority against tanks", "7.4"))
        if armored_superiority(pos, defenders, attackers):
            drm.append(Modifier(-rules.armored_superiority, "defender's armored superiority against tanks", "7.4"))
    return drm


def _snafu_die_modifiers(plan: AttackPlan, snafu: str | None, attacker_hexes: tuple[Hex, ...]) -> list[Modifier]:
    """[9.5] The VV60 SNAFU's die shift, and SNAFU 12's -1 per attacking stack."""
    drm: list[Modifier] = []
    if plan.snafu_die:
        drm.append(Modifier(plan.snafu_die, "SNAFU, lack of enthusiasm", "9.5"))
    if snafu == "command-confusion":
        drm.append(
            Modifier(-len(attacker_hexes), f"SNAFU 12, command confusion ({len(attacker_hexes)} stack(s))", "9.5")
        )
    return drm


def preview(data: GameData, state: GameState, plan: AttackPlan) -> Preview:
    """[7.5, 7.6] The odds of an attack: the assessment and each result's chance over the six die faces.

    Rolls nothing and changes nothing.

    :raises IllegalActionError: as :func:`assess`.
    """
    assessment = assess(data, state, plan)
    if note := _snafu_vv60_note(state, plan):
        assessment = replace(assessment, notes=(*assessment.notes, *note))
    outcomes = []
    chances: dict[str, Fraction] = {}
    breakthrough = Fraction(0)
    sixth = Fraction(1, 6)
    for face in range(1, 7):
        modified = face + assessment.drm_total
        row, cell = crt_cell(data, assessment.column, modified)
        text = str(cell)
        bold = cell.breakthrough and plan.snafu != "hesitation"
        outcomes.append(Outcome(face, modified, row, text, bold))
        chances[text] = chances.get(text, Fraction(0)) + sixth
        if bold:
            breakthrough += sixth
    attacker_steps = sum(state.units[a].steps for a in plan.attackers if a in state.units)
    defender_steps = sum(state.units[d].steps for d in assessment.defenders if d in state.units)
    lost = [expected_steps_lost(o.result, attacker_steps, defender_steps) for o in outcomes]
    expected = (
        sum((Fraction(a) for a, _ in lost), Fraction(0)) * sixth,
        sum((Fraction(d) for _, d in lost), Fraction(0)) * sixth,
    )
    return Preview(assessment, tuple(outcomes), chances, breakthrough, expected)
