"""[9.6101-9.6142, 9.605, 9.613] Public rolls on a step's tables, and their results applied to the units named."""

from __future__ import annotations

from engine import arguments
from engine.asl.module import Table
from engine.asl.refit.roster_actions import named_units
from engine.asl.refit.run import Run
from engine.asl.tables import TableRoll, parse_drm_spec
from engine.asl.units import PERSONNEL, SMC, Unit, casualty_reduce, consequences, replace
from engine.contract import Action, IllegalActionError, InvalidActionError


def roll(run: Run, action: Action) -> None:
    step = run.current_step()
    table_id = arguments.text(action.args, "table")
    if table_id not in step.tables:
        allowed = ", ".join(step.tables) or "none"
        raise IllegalActionError(
            f"the {table_id!r} table is not used in step {step.rule} {step.title} (tables of this step: {allowed})",
            rule=step.rule,
        )
    table = run.module.tables[table_id]
    quantities = parse_drm_spec(table, arguments.optional_text(action.args, "drms") or "")
    for drm_id in quantities:
        if table.drm(drm_id).auto is not None:
            raise InvalidActionError(
                f"DRM {drm_id!r} ({table.drm(drm_id).text}) comes from the campaign record; do not give it",
                rule=table.rule,
            )
    column = arguments.optional_text(action.args, "column")
    named = named_units(run, action.seat, arguments.optional_text(action.args, "units") or "")
    for unit in named:
        _check_unit_for_table(run, table, unit)
    label = arguments.optional_text(action.args, "label") or ", ".join(u.label() for u in named)
    outcome = run.public_roll(
        table,
        action.seat,
        quantities,
        column=column,
        label=label,
    )
    if named:
        _apply_to_units(run, action, table, outcome, named)


TABLE_UNITS: dict[str, tuple[tuple[str, ...], str | None, str]] = {
    "wounded_leader": (SMC, "wounded", "9.6101: the Wounded Leader Table is for wounded Retained leaders"),
    "weapon_repair": (("sw", "gun", "vehicle"), "malfunctioned", "9.6142: only a malfunctioned weapon rolls"),
    "immobilization_repair": (("vehicle",), "immobilized", "9.6141b: only an immobilized vehicle rolls"),
    "stun_recovery": (("vehicle",), "stunned", "9.6141d: only a stunned vehicle rolls"),
    "escape": ((*PERSONNEL, "vehicle", "gun", "sw"), None, "9.6054: only Isolated units and vehicles escape"),
    "shift": ((*PERSONNEL, "vehicle"), None, "9.613: Personnel and Mobile vehicles may Shift"),
}
"""For the tables that act on named units: the kinds that may roll, the state they need, the refusal."""


def _check_unit_for_table(run: Run, table: Table, unit: Unit) -> None:
    if unit.status != "retained":
        raise IllegalActionError(f"{unit.label()} is {unit.status}, not Retained", rule=table.rule)
    spec = TABLE_UNITS.get(table.id)
    if spec is None:
        return
    kinds, flag, reason = spec
    if unit.kind not in kinds or (flag is not None and not getattr(unit, flag)):
        raise IllegalActionError(f"{unit.label()} cannot roll here ({reason})", rule=table.rule)


def _apply_to_units(run: Run, action: Action, table: Table, outcome: TableRoll, named: list[Unit]) -> None:
    """The result of a roll, applied to each unit named with it (see :func:`engine.asl.units.consequences`)."""
    destination = arguments.optional_text(action.args, "to") or ""
    done = []
    for unit in named:
        effect = consequences(table.id, outcome.result, unit)
        what: list[str] = []
        if effect.status is not None:
            unit.status = effect.status
            what.append(effect.status)
        for flag, value in effect.set_flags.items():
            if getattr(unit, flag) != value:
                setattr(unit, flag, value)
                what.append(flag if value else f"no longer {flag}")
        if effect.replace:
            what.append(replace(unit))
        if effect.reduce:
            what.append(casualty_reduce(unit))
        if effect.then_dr:
            dr = run.public_d6(f"Shift note 2 for {unit.label()}: Casualty Reduction on a dr >= 4")
            if dr >= 4:
                if unit.kind == "vehicle":
                    unit.status = "eliminated"
                    what.append("Eliminated (Shift note 2)")
                else:
                    what.append(casualty_reduce(unit))
        if effect.move and destination and unit.status == "retained":
            unit.area = destination
            what.append(f"now in {destination}")
        summary = ", ".join(what) or "no change"
        unit.history.append(f"{run.state.date}: {table.title}, final {outcome.final}: {outcome.result} - {summary}")
        done.append(f"{unit.id} {unit.name}: {summary}")
    run.public(
        "units",
        f"{run.name(action.seat)} roster after the roll: " + "; ".join(done) + ".",
        side=action.seat,
        units=[u.id for u in named],
    )
