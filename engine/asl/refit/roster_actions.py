"""A side's own roster: units added, changed, recombined (9.6111), and the Setup Areas entered (9.605)."""

from __future__ import annotations

from typing import Any

from engine import arguments
from engine.asl.refit.arguments import optional_ids, split_ids
from engine.asl.refit.run import Run
from engine.asl.units import EXPERIENCE, FLAGS, KINDS, STATUSES, Unit, harden
from engine.contract import Action, IllegalActionError, InvalidActionError, Seat


def named_units(run: Run, side: Seat, text: str) -> list[Unit]:
    """The side's own units named by id (``B3,B4``).

    :raises InvalidActionError: naming an id the side's roster does not hold.
    """
    roster = run.state.rosters[side]
    found = []
    for unit_id in split_ids(text):
        unit = roster.unit(unit_id)
        if unit is None:
            raise InvalidActionError(f"the {run.name(side)} roster has no unit {unit_id!r}; your roster lists the ids")
        found.append(unit)
    return found


def new_units(run: Run, side: Seat, kind: str, name: str, count: int, source: str, **fields: Any) -> list[Unit]:
    """Units joining a side's roster. A unit of a sealed RG takes its id from that secret (``BS4.2``), so the
    numbering of the units everybody sees (``B7``) never shows how many hidden units there are."""
    roster = run.state.rosters[side]
    prefix = run.name(side)[:1].upper()
    secret = fields.get("secret")
    made = []
    for _ in range(count):
        if secret is None:
            unit_id = f"{prefix}{roster.next_unit}"
            roster.next_unit += 1
        else:
            unit_id = f"{prefix}{secret}.{sum(1 for u in roster.units if u.secret == secret) + 1}"
        unit = Unit(unit_id, kind, name, since=run.state.date, source=source, **fields)
        unit.history.append(f"{run.state.date}: joined the roster ({source})")
        roster.units.append(unit)
        made.append(unit)
    return made


def _id_range(units: list[Unit]) -> str:
    return units[0].id if len(units) == 1 else f"{units[0].id}-{units[-1].id}"


def add_units(run: Run, action: Action) -> None:
    """A side adds units to its own roster (the Initial Scenario OB, or anything the bot did not add itself)."""
    side = action.seat
    kind = arguments.text(action.args, "kind").strip().lower()
    if kind not in KINDS:
        raise InvalidActionError(f"a unit is one of {', '.join(KINDS)}, not {kind!r}")
    name = arguments.text(action.args, "name").strip()[:40]
    if not name:
        raise InvalidActionError("give the unit's name as on its counter, e.g. 6-5-8 or 8-1")
    count = arguments.whole(action.args, "count", 1)
    if not 1 <= count <= 60:
        raise InvalidActionError(f"add from 1 to 60 units at a time, not {count}")
    experience = (arguments.optional_text(action.args, "experience") or "").lower()
    if experience and experience not in EXPERIENCE:
        raise InvalidActionError(f"experience is one of {', '.join(EXPERIENCE)}, not {experience!r}")
    area = (arguments.optional_text(action.args, "area") or "")[:40]
    source = "Initial OB" if run.state.initial else "added by its player"
    made = new_units(run, side, kind, name, count, source, experience=experience, area=area)
    where = f" in {area}" if area else ""
    run.public(
        "units",
        f"{run.name(side)} roster: {_id_range(made)} {name} {kind}{f' ({experience})' if experience else ''}"
        f"{where} added ({source}).",
        side=side,
        units=[u.id for u in made],
    )


UNIT_CHANGES = ("status", "area", "experience", "name", "harden", *FLAGS)


def update_units(run: Run, action: Action) -> None:
    """A side records what happened to its units (Melee, Encirclement, Recombining, Battle Hardening ...)."""
    side = action.seat
    named = named_units(run, side, arguments.text(action.args, "units"))
    if not named:
        raise InvalidActionError("name the units to change by id, e.g. units=B3,B4")
    # An empty value is a change too (area= clears the unit's area).
    changes = {key: arguments.optional_text(action.args, key) or "" for key in action.args if key in UNIT_CHANGES}
    unknown = sorted(set(action.args) - set(UNIT_CHANGES) - {"units", "note"})
    if unknown or not changes:
        raise InvalidActionError(
            f"change one or more of {', '.join(UNIT_CHANGES)}" + (f"; unknown: {', '.join(unknown)}" if unknown else "")
        )
    if "status" in changes and changes["status"].lower() not in STATUSES:
        raise InvalidActionError(f"status is one of {', '.join(STATUSES)}, not {changes['status']!r}")
    if "experience" in changes and changes["experience"].lower() not in EXPERIENCE:
        raise InvalidActionError(f"experience is one of {', '.join(EXPERIENCE)}, not {changes['experience']!r}")
    note = (arguments.optional_text(action.args, "note") or "")[:100]
    done = []
    for unit in named:
        what = []
        for key, value in changes.items():
            if key in FLAGS or key == "harden":
                flag = value.lower() in ("yes", "true", "1", "on")
                if key == "harden":
                    if flag:
                        what.append(harden(unit))
                    continue
                setattr(unit, key, flag)
                what.append(key if flag else f"not {key}")
            else:
                setattr(unit, key, value.lower() if key in ("status", "experience") else value[:40])
                what.append(f"{key} {getattr(unit, key)}")
        summary = ", ".join(what) + (f" ({note})" if note else "")
        unit.history.append(f"{run.state.date}: {summary}")
        done.append(f"{unit.id} {unit.name}: {summary}")
    hidden = any(u.secret is not None and u.secret not in run.state.revealed_ids() for u in named)
    text = f"{run.name(side)} roster: " + "; ".join(done) + "."
    if hidden:
        run.private(side, "units", text, units=[u.id for u in named])
    else:
        run.public("units", text, side=side, units=[u.id for u in named])


def recombine(run: Run, action: Action) -> None:
    """[9.6111] Two Retained half-squads alike (same counter, class, Walking Wounded state) in the same Setup Area
    recombine into a squad: the first becomes the squad, the second is marked recombined into it."""
    side = action.seat
    pair = named_units(run, side, arguments.text(action.args, "units"))
    if len(pair) != 2 or pair[0].id == pair[1].id:
        raise InvalidActionError("name the two half-squads that recombine, e.g. units=B3,B4", rule="9.6111")
    first, second = pair
    alike = all(u.kind == "hs" and u.status == "retained" for u in pair) and (
        (first.name, first.experience, first.wounded, first.area)
        == (second.name, second.experience, second.wounded, second.area)
    )
    if not alike:
        raise IllegalActionError(
            f"{first.label()} and {second.label()} cannot recombine: two Retained half-squads with the same"
            " counter, class and Walking Wounded state in the same Setup Area are needed",
            rule="9.6111",
        )
    first.kind = "squad"
    second.status = "recombined"
    first.history.append(f"{run.state.date}: recombined with {second.id} into a squad (9.6111)")
    second.history.append(f"{run.state.date}: recombined into {first.id} (9.6111)")
    hidden = any(u.secret is not None and u.secret not in run.state.revealed_ids() for u in pair)
    text = f"{run.name(side)} roster: {first.id} and {second.id} {first.name} recombine into squad {first.id} (9.6111)."
    if hidden:
        run.private(side, "units", text, units=[first.id, second.id])
    else:
        run.public("units", text, side=side, units=[first.id, second.id])


def areas(run: Run, action: Action) -> None:
    """[9.605] A side enters its Setup Areas, the Strategic Locations it Controls and its Perimeter."""
    side, state = action.seat, run.state
    setup = optional_ids(action, "setup")
    if not setup:
        raise InvalidActionError("name at least one Setup Area (a Block), e.g. setup=A,C", rule="9.605")
    roster = state.rosters[side]
    roster.setup_areas = [a[:20] for a in setup][:40]
    roster.strategic = [a[:20] for a in optional_ids(action, "strategic")][:80]
    roster.perimeter = (arguments.optional_text(action.args, "perimeter") or "")[:300]
    roster.areas_date = state.date
    run.public(
        "areas",
        f"{run.name(side)} after the {state.date} scenario: Setup Areas {', '.join(roster.setup_areas)}; Strategic"
        f" Locations {', '.join(roster.strategic) or 'none'}"
        + (f"; Perimeter: {roster.perimeter}" if roster.perimeter else "")
        + " (9.605).",
        side=side,
        setup=roster.setup_areas,
        strategic=roster.strategic,
        perimeter=roster.perimeter,
    )
