"""The RePh steps the bot resolves with public dice: 9.612 new CG Date and SAN, 9.615 reinforcements,
9.620 ammunition and ELR."""

from __future__ import annotations

from engine.asl.module import Step
from engine.asl.refit.auto_drms import previous_date_idle
from engine.asl.refit.run import Run
from engine.asl.roster import RgLine
from engine.asl.state import DateRecord


def new_date(run: Run, step: Step) -> None:
    """[9.612] A new CG Date starts; SANs below the floor are raised, high SANs roll for reduction."""
    state, module = run.state, run.module
    ids = [d.id for d in module.dates]
    index = ids.index(state.date)
    if state.date == state.cg["end"] or index + 1 >= len(ids):
        state.phase = "victory"
        state.step_data = {}
        run.public(
            "victory",
            f"{state.date} was the CG's last CG Date and it was Idle: the CG ends. Either side reports the CG winner"
            " per the CG Victory Conditions; the other side confirms it (9.6211).",
            rule="9.6211",
        )
        return
    _came_back(run)
    state.date = ids[index + 1]
    state.history.append(DateRecord(state.date))
    for side in module.sides:
        roster = state.rosters[side]
        roster.line(state.date)
        roster.fpp_given = 0
        roster.fpp_bought = 0
        roster.cpp_available = roster.cpp_left
    run.public("date", f"9.6121: the {state.date} CG Date begins.", date=state.date, rule="9.6121")
    floor = module.limits.get("san_floor")
    for side in module.sides:
        roster = state.rosters[side]
        if floor is not None and roster.san < floor:
            run.public(
                "san",
                f"{run.name(side)} SAN {roster.san} is below {floor}: raised to {floor} (9.6122).",
                side=side,
                san=floor,
            )
            roster.san = floor
        threshold = module.limits.get(f"san_check_{side}")
        table = module.tables.get(f"san_adjustment_{side}")
        if threshold is None or table is None or roster.san < threshold:
            continue
        outcome = run.public_roll(table, side, label=f"SAN {roster.san}")
        if outcome.effect == "reduce":
            before = roster.san
            roster.san = max(floor or 0, roster.san - module.limits.get("san_reduction", 2))
            run.public(
                "san", f"{run.name(side)} SAN {before} → {roster.san} ({table.rule}).", side=side, san=roster.san
            )


def _came_back(run: Run) -> None:
    """[9.612] What came back from the scenario just played, per unit, told to each side privately."""
    record = run.state.record()
    if record.kind != "scenario":
        return
    for side, roster in run.state.rosters.items():
        entered = [u for i in record.entered.get(side, []) if (u := roster.unit(i)) is not None]
        back = [u for u in entered if u.status == "retained"]
        record.returned[side] = [u.id for u in back]
        lost = [f"{u.label()} ({u.status})" for u in entered if u.status != "retained"]
        run.private(
            side,
            "units",
            f"Your units in the {record.date} scenario: {len(entered)} entered, {len(back)} came back"
            + (f"; lost: {', '.join(lost)}" if lost else "")
            + ". (Your roster shows each one.)",
            entered=[u.id for u in entered],
            returned=record.returned[side],
        )


def reinforcements(run: Run, step: Step) -> None:
    """[9.615] The schedule's RGs, FPP and SAN changes for the new CG Date."""
    state, module = run.state, run.module
    found = False
    for item in module.reinforcements:
        if item.date != state.date:
            continue
        found = True
        roster = state.rosters[item.side]
        parts = []
        for key in item.rgs:
            entry = module.rg(item.side, key)
            roster.rg_record.append(
                RgLine(state.date, entry.key if entry else key, entry.type if entry else "(not in the RG chart)", False)
            )
            parts.append(key)
        if item.fpp:
            roster.fpp_given += item.fpp
            parts.append(f"{item.fpp} FPP")
        if item.san:
            before = roster.san
            san = roster.san + item.san
            if item.san_max is not None:
                san = min(san, item.san_max)
            if item.san_min is not None:
                san = max(san, item.san_min)
            roster.san = san
            parts.append(f"SAN {item.san:+d} ({before} → {san})")
        notes = f" Notes: {'; '.join(item.notes)}." if item.notes else ""
        run.public(
            "reinforcements",
            f"{run.name(item.side)} OB-given reinforcements for {state.date}: {', '.join(parts)} (9.6152).{notes}",
            side=item.side,
            rgs=list(item.rgs),
            fpp=item.fpp,
            san=roster.san,
        )
    if not found:
        run.public("na", f"No OB-given reinforcements for {state.date} (9.6152).", rule="9.615")


def ammo_elr(run: Run, step: Step) -> None:
    """[9.620] Ammunition Shortage (9.6201) then ELR Loss/Gain (9.6202), both public DR."""
    state, module = run.state, run.module
    ammo_side = module.ammo_side
    ids = [d.id for d in module.dates]
    if ammo_side is not None and module.ammo_from is not None:
        if ids.index(state.date) < ids.index(module.ammo_from):
            run.public("na", f"9.6201: no Ammunition Shortage DR before {module.ammo_from}.", rule="9.6201")
        elif previous_date_idle(state):
            run.public(
                "na", "9.6201: no Ammunition Shortage DR: the previous CG Date was Idle (9.62132).", rule="9.6201"
            )
        else:
            outcome = run.public_roll(module.tables["ammo_shortage"], ammo_side)
            roster = state.rosters[ammo_side]
            if outcome.effect == "increase":
                roster.ammo_level += 1
            run.public(
                "ammo",
                f"{run.name(ammo_side)} Ammunition Shortage Level is now {roster.ammo_level} (9.6201).",
                side=ammo_side,
                level=roster.ammo_level,
            )
    table = module.tables["elr_loss"]
    low, high = module.limits.get("elr_min"), module.limits.get("elr_max")
    for side in module.sides:
        roster = state.rosters[side]
        outcome = run.public_roll(table, side, label=f"ELR {roster.elr}")
        before = roster.elr
        if outcome.effect == "gain":
            roster.elr += 1
        elif outcome.effect == "loss":
            roster.elr -= 1
        if high is not None:
            roster.elr = min(high, roster.elr)
        if low is not None:
            roster.elr = max(low, roster.elr)
        run.public("elr", f"{run.name(side)} ELR {before} → {roster.elr} (9.6202).", side=side, elr=roster.elr)
