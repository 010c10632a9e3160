"""The CG roster of each side and its RG Purchase Record (9.617, 9.6178), with their public parts.

The roster keeps, per CG Date, the CPP received, spent and left (secret to their owner, 9.617), the CVP
inflicted and the Initiative chit once revealed; and for the side as a whole its ELR, SAN, ammunition
shortage level and the chits used so far. The RG Purchase Record has one line per RG purchased or
given by the OB.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.asl.units import Unit
from engine.contract import Seat


@dataclass
class DateLine:
    """One line of a side's CG roster: one CG Date."""

    date: str
    received: int | None = None
    """CPP received at 9.616 (Base # + secret DR); secret."""
    spent: int | None = None
    """CPP spent on RGs at 9.617; secret."""
    left: int | None = None
    """CPP left after halving (FRU) at 9.617; secret."""
    fortifications: list[str] = field(default_factory=list)
    """Fortifications bought at 9.619; secret."""
    cvp: int = 0
    """CVP this side inflicted in the CG Scenario of this date and the RePh after it; public."""
    chit: str | None = None
    """The Initiative chit, once revealed; public."""

    def public(self) -> dict[str, Any]:
        """What the channel may see of this line."""
        return {"date": self.date, "cvp": self.cvp, "chit": self.chit}


@dataclass
class RgLine:
    """One line of the RG Purchase Record (9.6178)."""

    date: str
    key: str
    """The RG ID with its KG, e.g. ``I1(K)``."""
    type: str
    purchased: bool
    """False for an RG given by the OB (these never count against the purchase limits, 9.6176)."""
    cost: int = 0
    number_purchased: int | None = None
    """#P: RG of this type purchased so far in the CG, this one included."""
    number_remaining: int | None = None
    """#R: RG of this type still available in the CG (``None`` when the chart gives no maximum)."""
    strength: str = ""
    """``F`` (Full) or ``D`` (Depleted) once rolled (9.6181); empty when not eligible or not yet rolled."""
    units: str = ""
    sw: list[str] = field(default_factory=list)
    leaders: list[str] = field(default_factory=list)
    vehicles: str = ""
    rolled: bool = False
    purchase_secret: str | None = None
    """The id of the sealed purchase that bought it (``None`` for an OB-given RG)."""
    rolls_secret: str | None = None
    """The id of the sealed rolls that fixed its strength, SW, leaders and vehicles."""

    def visible(self, revealed: set[str]) -> dict[str, Any] | None:
        """What the channel may see given the revealed secret ids (``None``: nothing yet)."""
        if self.purchase_secret is not None and self.purchase_secret not in revealed:
            return None
        data = asdict(self)
        if self.rolls_secret is not None and self.rolls_secret not in revealed:
            for key in ("strength", "units", "sw", "leaders", "vehicles"):
                data[key] = "sealed" if key in ("strength", "units", "vehicles") else []
        return data


@dataclass
class Roster:
    """One side's CG roster."""

    side: Seat
    elr: int
    san: int
    ammo_level: int = 0
    """Ammunition Shortage Level (SSR CG 17); used by the side named in the module's ``ammo_side``."""
    cpp_left: int = 0
    """CPP carried to the next purchase (the last "Left" figure, or the CG's initial CPP); secret."""
    cpp_available: int = 0
    """CPP available for the current 9.617 purchase; secret."""
    fpp_given: int = 0
    """FPP given by the OB for the current CG Date (public, 9.615)."""
    fpp_bought: int = 0
    """FPP bought with RGs for the current CG Date; secret."""
    chits: dict[str, int] = field(default_factory=lambda: {"attack": 0, "idle": 0})
    """Initiative chits selected so far in the CG, counted at their reveal."""
    lines: list[DateLine] = field(default_factory=list)
    rg_record: list[RgLine] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)
    """Every unit the side has had in the CG, gone ones included (their status says so)."""
    next_unit: int = 1
    """The number of the next unit id (ids are never reused)."""
    setup_areas: list[str] = field(default_factory=list)
    """The Setup Areas (Blocks) the side Controls for the next CG Scenario (9.605); public."""
    strategic: list[str] = field(default_factory=list)
    """The Strategic Locations the side Controls (9.6051); public."""
    perimeter: str = ""
    """The side's line or Perimeter as its player describes it; public."""
    areas_date: str | None = None
    """The CG Date whose scenario the areas above were entered after."""

    def line(self, date: str) -> DateLine:
        """The roster line of a CG Date, created if missing."""
        for line in self.lines:
            if line.date == date:
                return line
        line = DateLine(date)
        self.lines.append(line)
        return line

    def purchased(self, key: str) -> int:
        """How many RG of this ID the side has purchased in the CG (OB-given ones do not count)."""
        return sum(1 for rg in self.rg_record if rg.purchased and rg.key.lower() == key.lower())

    def unit(self, unit_id: str) -> Unit | None:
        """The unit with this id (case does not matter), if any."""
        return next((u for u in self.units if u.id.lower() == unit_id.strip().lower()), None)

    def public(self, revealed: set[str]) -> dict[str, Any]:
        """What the channel may see of this roster: units only once the rolls that made them are revealed."""
        return {
            "units": [u.to_json() for u in self.units if u.secret is None or u.secret in revealed],
            "setup_areas": list(self.setup_areas),
            "strategic": list(self.strategic),
            "perimeter": self.perimeter,
            "areas_date": self.areas_date,
            "side": self.side,
            "elr": self.elr,
            "san": self.san,
            "ammo_level": self.ammo_level,
            "fpp_given": self.fpp_given,
            "chits": dict(self.chits),
            "lines": [line.public() for line in self.lines],
            "rg_record": [data for rg in self.rg_record if (data := rg.visible(revealed)) is not None],
        }

    def private(self) -> dict[str, Any]:
        """Everything, for the owner."""
        return asdict(self)

    def to_json(self) -> dict[str, Any]:
        """The roster as stored in the state."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Roster:
        """Read a roster back from the state."""
        values = dict(data)
        values["lines"] = [DateLine(**line) for line in values.get("lines", [])]
        values["rg_record"] = [RgLine(**rg) for rg in values.get("rg_record", [])]
        values["units"] = [Unit.from_json(unit) for unit in values.get("units", [])]
        values["chits"] = dict(values.get("chits", {}))
        return cls(**values)
