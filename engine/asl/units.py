"""The units of a side's CG roster, kept from CG Date to CG Date, and what the RePh tables do to a named unit.

Each unit has a short id that is never reused (``B7``: the side's initial and a number; ``BS4.2`` for a unit
of the RG whose rolls were sealed as S4, so hidden units leave no gap in the visible numbering): squads, half-squads,
crews, leaders and heroes (with their experience class, Battle Hardening and wounds), support weapons, guns
and vehicles (malfunctioned, immobilized, stunned). Units come from the Initial Scenario OB (typed in by
their owner), from the RG rolls of 9.618 (added by the engine) or from the OB-given reinforcements. A roll
on a RePh table may name units; :func:`consequences` reads the table's result and says what happens to
each of them (eliminated, wounded, Casualty Reduced, Replaced, repaired, shifted ...), so the rosters follow
the dice without anybody rewriting them by hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

KINDS = ("squad", "hs", "crew", "leader", "hero", "sw", "gun", "vehicle")
"""What a unit is: Multi-Man Counters (squad, half-squad, crew), Single-Man Counters (leader, hero), Equipment."""

PERSONNEL = ("squad", "hs", "crew", "leader", "hero")
SMC = ("leader", "hero")

STATUSES = ("retained", "eliminated", "captured", "recalled", "abandoned", "recombined")
"""``retained`` units are kept for the next CG Scenario; the others are gone from the roster's strength
(``recombined``: a half-squad that became part of a squad, 9.6111)."""

EXPERIENCE = ("conscript", "green", "2nd line", "1st line", "elite")
"""MMC experience classes from the lowest to the highest (Replacement steps down, Battle Hardening up)."""

FLAGS = ("wounded", "hardened", "malfunctioned", "immobilized", "stunned")


@dataclass
class Unit:
    """One unit of a side's CG roster."""

    id: str
    """``B7`` (the side's initial and a number), or ``BS4.2`` for the second unit of the RG rolled in secret S4."""
    kind: str
    name: str
    """As printed on the counter: ``6-5-8``, ``8-1``, ``LMG``, ``PzKpfw VG``."""
    experience: str = ""
    """For an MMC: one of :data:`EXPERIENCE` (empty when not given)."""
    status: str = "retained"
    area: str = ""
    """The Setup Area (Block) it is Retained in, or an Entry Area."""
    wounded: bool = False
    hardened: bool = False
    """Battle Hardened (9.611)."""
    malfunctioned: bool = False
    immobilized: bool = False
    stunned: bool = False
    since: str = ""
    """The CG Date it joined the roster."""
    source: str = ""
    """Where it came from: ``Initial OB``, ``RG I1 (S7)``, ``reinforcement``."""
    secret: str | None = None
    """The sealed RG rolls it came from: the other side sees it only once these are revealed."""
    history: list[str] = field(default_factory=list)
    """What happened to it, one line per event, each starting with the CG Date."""

    def label(self) -> str:
        """``B7 6-5-8 squad`` (with its state when not plain)."""
        marks = [m for m in FLAGS if getattr(self, m)]
        extra = f" ({', '.join(marks)})" if marks else ""
        return f"{self.id} {self.name} {self.kind}{extra}"

    def to_json(self) -> dict[str, Any]:
        """The unit as stored."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Unit:
        """Read a unit back."""
        values = dict(data)
        values["history"] = list(values.get("history", []))
        return cls(**values)


@dataclass(frozen=True)
class Consequence:
    """What a table's result does to one unit."""

    status: str | None = None
    set_flags: Mapping[str, bool] = field(default_factory=dict)
    reduce: bool = False
    """Casualty Reduction (A7.302): a squad becomes a HS; a HS, crew or wounded SMC is Eliminated; an SMC is
    wounded."""
    replace: bool = False
    """Replaced by the next-lower-quality unit (one experience class down)."""
    move: bool = False
    """The unit goes to the destination given with the roll (Escape, Shift)."""
    then_dr: bool = False
    """Shift note 2: Casualty Reduction (a vehicle: Elimination) only on a subsequent dr >= 4, per unit."""


def consequences(table_id: str, result: str, unit: Unit) -> Consequence:
    """[9.6054, 9.6101, 9.613, 9.6141, 9.6142] What the result of a roll on a RePh table does to a named unit.

    The result text is read for its keywords (so an organiser's corrected table still works); for a vehicle's
    Escape only the part before the crew's fate (``;``) concerns the vehicle.
    """
    text = result.split(";")[0].lower()
    if table_id == "wounded_leader":
        if "eliminated" in text:
            return Consequence(status="eliminated")
        return Consequence(set_flags={"wounded": "unwounded" not in text})
    if table_id == "shift":
        if "successful" in text:
            return Consequence(move=True, then_dr="casualty" in text)
        if "all units" in text:
            return Consequence(status="eliminated")  # note 3: the ambush; see docs/rules/asl-cg.md
        return Consequence()
    if table_id == "weapon_repair":
        if "repaired" in text:
            return Consequence(set_flags={"malfunctioned": False})
        return Consequence(status="eliminated" if unit.kind != "vehicle" else None)
    if table_id == "immobilization_repair":
        return Consequence(set_flags={"immobilized": False}) if "mobile" in text else Consequence()
    if table_id == "stun_recovery":
        if "eliminated" in text:
            return Consequence(status="eliminated")
        return Consequence(set_flags={"stunned": False}) if "recovers" in text else Consequence()
    if table_id == "escape":
        if "all units eliminated" in text or text.startswith("eliminated"):
            return Consequence(status="eliminated")
        if "abandoned" in text:
            return Consequence(status="abandoned")
        return Consequence(move="escapes" in text, reduce="casualty" in text, replace="replaced" in text)
    return Consequence()


def casualty_reduce(unit: Unit) -> str:
    """[A7.302] Casualty Reduction of one unit; returns what happened, in words."""
    if unit.kind == "squad":
        unit.kind = "hs"
        return "Casualty Reduced to a half-squad"
    if unit.kind in SMC and not unit.wounded:
        unit.wounded = True
        return "wounded (Casualty Reduction)"
    unit.status = "eliminated"
    return "Eliminated (Casualty Reduction)"


def replace(unit: Unit) -> str:
    """Replacement: the unit becomes the next-lower-quality unit of its kind (a crew is Eliminated instead)."""
    if unit.kind == "crew":
        unit.status = "eliminated"
        return "Eliminated (a crew cannot be Replaced)"
    if unit.experience in EXPERIENCE and unit.experience != EXPERIENCE[0]:
        unit.experience = EXPERIENCE[EXPERIENCE.index(unit.experience) - 1]
        return f"Replaced by a {unit.experience} unit"
    return "Replaced by the next-lower-quality unit (swap the counter)"


def harden(unit: Unit) -> str:
    """[9.611, A15.3] Battle Hardening: an MMC goes one experience class up; a leader is marked hardened."""
    unit.hardened = True
    if unit.kind in ("squad", "hs") and unit.experience in EXPERIENCE and unit.experience != EXPERIENCE[-1]:
        unit.experience = EXPERIENCE[EXPERIENCE.index(unit.experience) + 1]
        return f"Battle Hardened to {unit.experience}"
    return "Battle Hardened"
