"""Rolling on a module table: dice, each DRM with its reason and rounding, the final roll and the row.

A roll request names DRMs as a short text a button or a slash command can carry, e.g.
``"encircled,hexes=5,leader=-1"``: a ``flag`` DRM is named alone, a ``count`` or ``number`` DRM takes
``=n``. :func:`parse_drm_spec` reads it, :func:`resolve` computes the modifiers, :func:`roll_dice`
rolls the dice and :func:`look_up` reads the final roll's row.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.asl.module import Drm, Row, Side, Table
from engine.contract import InvalidActionError
from engine.dice import Dice


@dataclass(frozen=True)
class AppliedDrm:
    """One DRM as applied to a roll: its reason, its quantity and the modifier it gave."""

    id: str
    text: str
    quantity: int
    modifier: int

    def to_json(self) -> dict[str, Any]:
        """The DRM as stored in an event."""
        return {"id": self.id, "text": self.text, "quantity": self.quantity, "modifier": self.modifier}


@dataclass(frozen=True)
class TableRoll:
    """The outcome of one roll on a table."""

    table: str
    rule: str
    dice: tuple[int, ...]
    drms: tuple[AppliedDrm, ...]
    final: int
    column: str
    result: str
    effect: str | None
    row: str
    """The row's printed range, e.g. ``≤ 8``."""

    @property
    def original(self) -> int:
        """The roll before any DRM."""
        return sum(self.dice)

    def describe(self, title: str) -> str:
        """One sentence for the log: dice, each DRM with its reason, final roll and result."""
        dice = "+".join(str(d) for d in self.dice)
        mods = "".join(f", {drm.modifier:+d} {drm.text}" for drm in self.drms if drm.modifier)
        return f"{title} ({self.rule}): rolled {dice}{mods}; final {self.final} → {self.result}"

    def to_json(self) -> dict[str, Any]:
        """The roll as stored in an event."""
        return {
            "table": self.table,
            "rule": self.rule,
            "dice": list(self.dice),
            "drms": [drm.to_json() for drm in self.drms],
            "final": self.final,
            "column": self.column,
            "result": self.result,
            "effect": self.effect,
            "row": self.row,
        }


def parse_drm_spec(table: Table, spec: str) -> dict[str, int]:
    """Read a DRM request such as ``"encircled,hexes=5"`` into quantities by DRM id.

    :raises InvalidActionError: naming the table's DRMs when an id is unknown or a quantity unreadable.
    """
    quantities: dict[str, int] = {}
    known = ", ".join(drm.id for drm in table.drms) or "none"
    for part in (p.strip() for p in spec.split(",")):
        if not part:
            continue
        name, _, amount = part.partition("=")
        name = name.strip()
        try:
            drm = table.drm(name)
        except KeyError:
            raise InvalidActionError(
                f"the {table.title} has no DRM {name!r}; its DRMs are: {known}", rule=table.rule
            ) from None
        if drm.input == "flag":
            if amount.strip() not in ("", "1", "yes", "true"):
                raise InvalidActionError(f"DRM {name!r} is a yes/no modifier; name it without '='", table.rule)
            quantities[name] = 1
            continue
        try:
            value = int(amount)
        except ValueError:
            raise InvalidActionError(
                f"DRM {name!r} needs a number, written {name}=n (e.g. {name}=2)", rule=table.rule
            ) from None
        if drm.input == "count" and value < 0:
            raise InvalidActionError(f"DRM {name!r} counts occurrences and cannot be negative", rule=table.rule)
        quantities[name] = value
    return quantities


def resolve(
    table: Table, quantities: Mapping[str, int], side: Side | None = None, column: str | None = None
) -> tuple[AppliedDrm, ...]:
    """The DRMs that apply, in the table's order, skipping those for another side or column.

    :raises InvalidActionError: when a requested DRM applies only to the other side or another column.
    """
    applied = []
    for drm in table.drms:
        if drm.id not in quantities:
            continue
        if not _applies(drm, side, column):
            where = f"the {drm.side} side" if drm.side and drm.side != side else f"the {', '.join(drm.columns)} column"
            raise InvalidActionError(f"DRM {drm.id!r} ({drm.text}) applies only to {where}", rule=table.rule)
        quantity = quantities[drm.id]
        applied.append(AppliedDrm(drm.id, drm.text, quantity, drm.modifier(quantity)))
    return tuple(applied)


def _applies(drm: Drm, side: Side | None, column: str | None) -> bool:
    if drm.side is not None and side is not None and drm.side != side:
        return False
    return not (drm.columns and column is not None and column not in drm.columns)


def roll_dice(table: Table, dice: Dice) -> tuple[int, ...]:
    """Roll the table's dice: one die for a dr, two for a DR."""
    return dice.two_d6() if table.dice == "DR" else (dice.d6(),)


def look_up(table: Table, dice_rolled: tuple[int, ...], drms: tuple[AppliedDrm, ...], column: str | None) -> TableRoll:
    """Apply DRMs to rolled dice and read the row (beyond the printed range, the nearest end row)."""
    column = column or table.columns[0]
    if column not in table.columns:
        raise InvalidActionError(
            f"the {table.title} has no column {column!r}; its columns are {', '.join(table.columns)}", table.rule
        )
    final = sum(dice_rolled) + sum(drm.modifier for drm in drms)
    row: Row = table.row_for(final)
    return TableRoll(
        table=table.id,
        rule=table.rule,
        dice=dice_rolled,
        drms=drms,
        final=final,
        column=column,
        result=row.results[column],
        effect=row.effect,
        row=row.label(),
    )
