"""The secret steps, sealed with a receipt: 9.616 CPP DR, 9.617 RG purchase, 9.618 RG rolls,
9.619 Fortifications, 9.6213 Initiative chit."""

from __future__ import annotations

from typing import Any

from engine import arguments
from engine.asl.module import RgEntry
from engine.asl.refit.arguments import optional_ids
from engine.asl.refit.prompts import chits_left
from engine.asl.refit.roster_actions import new_units
from engine.asl.refit.run import Run
from engine.asl.refit.vocabulary import CHITS
from engine.asl.roster import RgLine
from engine.asl.state import chit_limits
from engine.asl.tables import AppliedDrm, look_up, roll_dice
from engine.asl.units import Unit
from engine.contract import Action, IllegalActionError, InvalidActionError, Seat


def roll_cpp(run: Run, action: Action) -> None:
    """[9.6162] The secret CPP Variable Arrival DR."""
    side, state = action.seat, run.state
    base = run.module.date(state.date).cpp[side]
    dice = run.secret_dice(side)
    rolled = dice.two_d6()
    state.secret_rolls[side] = dice.rolls_made
    received = base + sum(rolled)
    roster = state.rosters[side]
    line = roster.line(state.date)
    line.received = received
    roster.cpp_available += received
    content = {"side": side, "date": state.date, "dice": list(rolled), "base": base, "received": received}
    secret = run.seal(side, "cpp", "9.6162", content, "its CPP Variable Arrival DR")
    run.private(
        side,
        "secret",
        f"Your CPP DR: {rolled[0]}+{rolled[1]} + Base # {base} = {received} CPP received; "
        f"with {roster.cpp_left} left from before you have {roster.cpp_available} CPP ({secret.id}).",
        secret=secret.id,
        content=content,
    )
    _done_quietly(run, side)


def _done_quietly(run: Run, side: Seat) -> None:
    data = run.state.step_data
    data["waiting"] = [s for s in data["waiting"] if s != side]


def purchase(run: Run, action: Action) -> None:
    """[9.617] A secret RG purchase, checked against CPP, CG Date and CG maximums."""
    side, state, module = action.seat, run.state, run.module
    roster = state.rosters[side]
    keys = optional_ids(action, "rgs")
    available = roster.cpp_available
    entries: list[RgEntry] = []
    for key in keys:
        entry = module.rg(side, key)
        if entry is None:
            known = ", ".join(e.key for e in module.rg_chart if e.side == side) or "none (the chart is not loaded)"
            raise InvalidActionError(f"no RG {key!r} in your RG chart; your RGs are: {known}", rule="9.6171")
        entries.append(entry)
    for entry in {e.key: e for e in entries}.values():
        count = sum(1 for e in entries if e.key == entry.key)
        if count > entry.date_max:
            raise IllegalActionError(
                f"{entry.key} {entry.type}: at most {entry.date_max} may be purchased per CG Date, not {count}",
                rule="9.6175",
            )
        limit = entry.max_in_cg(state.cg["id"])
        if limit is not None and roster.purchased(entry.key) + count > limit:
            already = roster.purchased(entry.key)
            raise IllegalActionError(
                f"{entry.key} {entry.type}: the CG maximum is {limit} and {already} already purchased, so "
                f"{max(0, limit - already)} more at most",
                rule="9.6176",
            )
    spent = sum(entry.cost for entry in entries)
    if spent > available:
        raise IllegalActionError(f"these RGs cost {spent} CPP but you have {available} CPP", rule="9.6173")
    left = -(-(available - spent) // 2)
    line = roster.line(state.date)
    line.spent, line.left = spent, left
    roster.cpp_left, roster.cpp_available = left, 0
    content = {
        "side": side,
        "date": state.date,
        "rgs": [e.key for e in entries],
        "costs": [e.cost for e in entries],
        "spent": spent,
        "left": left,
    }
    secret = run.seal(side, "rg_purchase", "9.617", content, "its RG purchases")
    for entry in entries:
        number = roster.purchased(entry.key) + 1
        limit = entry.max_in_cg(state.cg["id"])
        roster.rg_record.append(
            RgLine(
                state.date,
                entry.key,
                entry.type,
                True,
                entry.cost,
                number,
                None if limit is None else limit - number,
                purchase_secret=secret.id,
            )
        )
        roster.fpp_bought += entry.fpp
    run.private(
        side,
        "secret",
        f"You bought {', '.join(e.key for e in entries) or 'no RG'} for {spent} CPP; {available - spent} unspent,"
        " halved (FRU)"
        f" to {left} Left ({secret.id}).",
        secret=secret.id,
        content=content,
    )
    _done_quietly(run, side)


def roll_rgs(run: Run, action: Action) -> None:
    """[9.618] Secret strength, SW, leader and composition rolls for every RG not yet rolled for."""
    side, state = action.seat, run.state
    roster = state.rosters[side]
    results: list[dict[str, Any]] = []
    lines = [rg for rg in roster.rg_record if not rg.rolled]
    secret_id = f"S{len(state.secrets) + 1}"
    for rg in lines:
        results.append(_roll_one_rg(run, side, rg, secret_id))
    content = {"side": side, "date": state.date, "results": results}
    secret = run.seal(side, "rg_rolls", "9.618", content, "its secret RG rolls")
    assert secret.id == secret_id
    run.private(
        side,
        "secret",
        f"Your RG rolls ({secret.id}): " + (" | ".join(r["summary"] for r in results) or "nothing to roll") + ".",
        secret=secret.id,
        content=content,
    )
    _done_quietly(run, side)


def _roll_one_rg(run: Run, side: Seat, rg: RgLine, secret_id: str) -> dict[str, Any]:
    """[9.618] One RG's secret rolls, recorded on its line and in the roster; what the sealed secret says of it."""
    module = run.module
    entry = module.rg(side, rg.key)
    rg.rolled = True
    rg.rolls_secret = secret_id
    if entry is None:
        summary = f"{rg.key}: not in the RG chart; roll for it by hand once the chart is loaded"
        return {"rg": rg.key, "summary": summary}
    result: dict[str, Any] = {"rg": rg.key}
    full = _rg_strength(run, side, entry, result)
    rg.strength = "F" if full else "D"
    count = entry.units_full if full else entry.units_depleted
    rg.units = f"{count} {entry.unit_type}".strip()
    rg.sw = _rg_support_weapons(run, side, entry, full, result)
    if entry.leader:
        rg.leaders = [_rg_leader(run, side, entry, result)]
    if entry.composition:
        outcome = run.secret_roll(module.tables[entry.composition], side)
        rg.vehicles = outcome.result
        result["composition_roll"] = outcome.to_json()
    parts = [f"{rg.key} {entry.type}: {'Full' if full else 'Depleted'}, {rg.units}"]
    if rg.sw:
        parts.append("SW " + ", ".join(rg.sw))
    if rg.leaders:
        parts.append("leader " + ", ".join(rg.leaders))
    if rg.vehicles:
        parts.append(rg.vehicles)
    result["summary"] = "; ".join(parts)
    result["units"] = _rg_units(run, side, rg, entry, count, secret_id)
    return result


def _rg_strength(run: Run, side: Seat, entry: RgEntry, result: dict[str, Any]) -> bool:
    """[9.6181] Whether the RG arrives Full: an RG eligible for Depletion rolls for it."""
    if not entry.depletion:
        return True
    outcome = run.secret_roll(run.module.tables["rg_strength"], side, extra={"rg_class": entry.leader_class})
    result["strength_roll"] = outcome.to_json()
    return outcome.effect != "depleted"


def _rg_support_weapons(run: Run, side: Seat, entry: RgEntry, full: bool, result: dict[str, Any]) -> list[str]:
    """[9.6182] The SW the RG receives: a Full RG all of its chart's, a Depleted one each on its dr."""
    sw_received: list[str] = []
    sw_rolls: list[dict[str, Any]] = []
    for item in run.module.sw_charts.get(side, {}).get(entry.id, ()):
        weapon = item.weapon
        if item.choice:
            pick = run.secret_d6(side)
            weapon = next(w for low, high, w in item.choice if low <= pick <= high)
            sw_rolls.append({"choice": item.weapon, "dr": pick, "weapon": weapon})
        for _ in range(item.count):
            if full:
                sw_received.append(weapon)
                continue
            dr = run.secret_d6(side)
            sw_rolls.append({"weapon": weapon, "dr": dr, "needed": item.depleted_max})
            if dr <= item.depleted_max:
                sw_received.append(weapon)
    result["sw"] = sw_received
    result["sw_rolls"] = sw_rolls
    return sw_received


def _rg_leader(run: Run, side: Seat, entry: RgEntry, result: dict[str, Any]) -> str:
    """[9.6183] The RG's leader, on the Leader Table with its class's DRM."""
    state, module = run.state, run.module
    table = module.tables["leader"]
    column = "armor" if entry.leader == "armor" else side
    bonus = module.leader_drms.get(f"{side}:{entry.leader_class}", 0)
    dice = run.secret_dice(side)
    rolled = roll_dice(table, dice)
    state.secret_rolls[side] = dice.rolls_made
    drms = (AppliedDrm(entry.leader_class, f"{entry.leader_class} RG", 1, bonus),) if bonus else ()
    outcome = look_up(table, rolled, drms, column)
    leader = outcome.result
    if "(†)" in leader and entry.leader_class == "hvy_tank":
        leader = "9-1 AL"
    leader = leader.replace(" (†)", "")
    result["leader_roll"] = outcome.to_json()
    result["leader"] = leader
    return leader


def _rg_units(run: Run, side: Seat, rg: RgLine, entry: RgEntry, count: int, secret_id: str) -> list[str]:
    """[9.618] The units an RG brings, added to the roster (hidden from the other side until its rolls are
    revealed): its MMC, its SW, its leader and its vehicles."""
    source = f"RG {rg.key}, {rg.date}"
    made: list[Unit] = []
    if not entry.composition and count:
        kind = _mmc_kind(entry.unit_type)
        made += new_units(run, side, kind, entry.type[:40], count, source, secret=secret_id)
    for weapon in rg.sw:
        made += new_units(run, side, "sw", weapon, 1, source, secret=secret_id)
    for leader in rg.leaders:
        made += new_units(run, side, "leader", leader, 1, source, secret=secret_id)
    for part in (p.strip() for p in rg.vehicles.split(",") if p.strip()):
        name, _, times = part.rpartition(" x")
        number = int(times) if times.isdigit() and name else 1
        made += new_units(run, side, "vehicle", (name or part)[:40], number, source, secret=secret_id)
    return [u.id for u in made]


def _mmc_kind(unit_type: str) -> str:
    words = unit_type.lower()
    if "crew" in words:
        return "crew"
    if "hs" in words.split() or "half" in words:
        return "hs"
    return "squad"


def fortify(run: Run, action: Action) -> None:
    """[9.619] Secret Fortification purchase with the side's FPP; FPP unspent are forfeit."""
    side, state, module = action.seat, run.state, run.module
    roster = state.rosters[side]
    fpp = roster.fpp_given + roster.fpp_bought
    items: list[str] = []
    spent = 0
    for part in optional_ids(action, "items"):
        fort_id, _, amount = part.partition("=")
        fort = module.fortification(fort_id.strip())
        if fort is None:
            known = ", ".join(f.id for f in module.fortifications)
            raise InvalidActionError(f"no Fortification {fort_id.strip()!r}; they are: {known}", rule="9.619")
        if side not in fort.cost:
            raise IllegalActionError(f"the {run.name(side)} player may not buy {fort.name}", rule="9.619")
        try:
            count = int(amount) if amount.strip() else 1
        except ValueError:
            raise InvalidActionError(f"write {fort.id}=n for n of them, not {part!r}", rule="9.619") from None
        if count < 1:
            raise InvalidActionError(f"{fort.id}: the number must be at least 1", rule="9.619")
        spent += fort.cost[side] * count
        items.append(f"{fort.name} x{count}")
    if spent > fpp:
        raise IllegalActionError(f"these Fortifications cost {spent} FPP but you have {fpp} FPP", rule="9.619")
    roster.line(state.date).fortifications = items
    content = {"side": side, "date": state.date, "items": items, "fpp": fpp, "spent": spent, "forfeit": fpp - spent}
    secret = run.seal(side, "fortifications", "9.619", content, "its Fortification purchases")
    roster.fpp_given, roster.fpp_bought = 0, 0
    run.private(
        side,
        "secret",
        f"You bought {', '.join(items) or 'no Fortification'} for {spent} FPP; {fpp - spent} FPP forfeit"
        f" ({secret.id}).",
        secret=secret.id,
        content=content,
    )
    _done_quietly(run, side)


def choose_chit(run: Run, action: Action) -> None:
    """[9.6213] A secret Initiative chit, within the CG's chit limits (9.62131)."""
    side, state = action.seat, run.state
    word = arguments.text(action.args, "chit").lower()
    chit = next((c for c in CHITS if c == word), None)
    if chit is None:
        raise InvalidActionError(f"the chit must be 'attack' or 'idle', not {word!r}", rule="9.6213")
    left = chits_left(state, side, chit)
    if left == 0:
        limits = chit_limits(state.cg, chit)
        assert limits is not None, "a side has no chit left only under a limit"
        limit = limits[side]
        raise IllegalActionError(
            f"the {run.name(side)} player has used all {limit} {chit.title()} chits this CG allows", rule="9.62131"
        )
    data = state.step_data
    content = {"side": side, "date": state.date, "chit": chit}
    secret = run.seal(side, "chit", "9.6213", content, "its Initiative chit")
    data["chits"][side] = chit
    data.setdefault("secrets", {})[side] = secret.id
    run.private(side, "secret", f"You chose the {chit.title()} chit for {state.date} ({secret.id}).", secret=secret.id)
    _done_quietly(run, side)
