"""CVP awarded during the RePh (9.6202) and the end of a CG Scenario reported and confirmed (9.6211-9.6216)."""

from __future__ import annotations

from engine import arguments
from engine.asl.refit.arguments import action_note, action_note_text
from engine.asl.refit.auto_drms import last_scenario
from engine.asl.refit.commencement import end_campaign
from engine.asl.refit.run import Run
from engine.asl.refit.vocabulary import CONDITIONS
from engine.contract import Action, IllegalActionError, InvalidActionError


def award_cvp(run: Run, action: Action) -> None:
    by = arguments.text(action.args, "by", action.seat)
    if by not in run.module.sides:
        raise InvalidActionError(f"'by' must be a side ({', '.join(run.module.sides)}), not {by!r}")
    amount = arguments.whole(action.args, "amount")
    if amount <= 0:
        raise InvalidActionError(f"CVP awarded must be a positive number, not {amount}")
    last = last_scenario(run.state)
    if last is None or run.state.initial or run.state.after_idle:
        raise IllegalActionError("CVP can only be awarded in the RePh that follows a CG Scenario", rule="9.6202")
    if run.state.step_data.get("pending_cvp"):
        raise IllegalActionError("a CVP award already waits for the other side's confirmation", rule="9.6202")
    other = run.other(action.seat)
    run.state.step_data["pending_cvp"] = {"by": by, "amount": amount, "from": action.seat, "note": action_note(action)}
    run.public(
        "cvp_proposed",
        f"The {run.name(action.seat)} player awards {amount} CVP to the {run.name(by)} side during the RePh"
        f"{action_note_text(action)}; the {run.name(other)} player confirms or rejects it (9.6202).",
        side=by,
        amount=amount,
    )


def confirm_cvp(run: Run, action: Action) -> None:
    """[9.6202] The other side agrees to a CVP award made during the RePh: it counts for the ELR roll."""
    state = run.state
    award = state.step_data.pop("pending_cvp")
    last = last_scenario(state)
    assert last is not None
    by, amount = award["by"], int(award["amount"])
    last.cvp[by] = last.cvp.get(by, 0) + amount
    state.rosters[by].line(last.date).cvp = last.cvp[by]
    run.public(
        "cvp",
        f"The {run.name(action.seat)} player confirms: {amount} CVP to the {run.name(by)} side during the RePh"
        f" ({last.cvp[by]} for {last.date}).",
        side=by,
        amount=amount,
    )


def reject_cvp(run: Run, action: Action) -> None:
    award = run.state.step_data.pop("pending_cvp")
    run.public(
        "cvp_rejected",
        f"The {run.name(action.seat)} player rejects the award of {award['amount']} CVP to the"
        f" {run.name(award['by'])} side; nothing is counted (award it again once you agree).",
    )


def report_end(run: Run, action: Action) -> None:
    """[9.6211-9.6212] A side reports the end of the CG Scenario; the other side confirms it."""
    state, module = run.state, run.module
    cvp = {side: arguments.whole(action.args, f"cvp_{side}", 0) for side in module.sides}
    for side, amount in cvp.items():
        if amount < 0:
            raise InvalidActionError(f"cvp_{side} cannot be negative")
    sudden = arguments.flag(action.args, "sudden_death", False)
    winner = arguments.optional_text(action.args, "winner")
    last_date = state.date == state.cg["end"]
    if state.phase == "victory" and sudden:
        raise IllegalActionError("no CG Scenario was played on an Idle CG Date: no Sudden Death", rule="9.6212")
    conditions = _initial_conditions(run, action)
    if winner is not None and winner not in (*module.sides, "draw"):
        raise InvalidActionError(f"'winner' must be {', '.join(module.sides)} or draw, not {winner!r}")
    if last_date and not sudden and winner is None:
        raise InvalidActionError(
            f"{state.date} is the CG's last date: give the CG winner per the CG Victory Conditions "
            f"(winner={'/'.join(module.sides)}/draw)",
            rule="9.6211",
        )
    sudden_winner = module.sudden_death_side
    summary = ", ".join(f"{run.name(s)} inflicted {cvp[s]} CVP" for s in module.sides)
    if sudden:
        summary += f"; Sudden Death victory for the {run.name(sudden_winner or '')} (9.6212)"
    elif winner is not None:
        summary += f"; CG result: {winner}"
    notes = arguments.optional_text(action.args, "notes") or ""
    if notes:
        summary += f"; notes: {notes}"
    if conditions:
        summary += "; Initial Scenario " + ", ".join(f"{key} {value}" for key, value in conditions.items())
    state.report = {
        "conditions": conditions,
        "back_to": state.phase,
        "by": action.seat,
        "confirm_by": run.other(action.seat),
        "cvp": cvp,
        "sudden_death": sudden,
        "winner": sudden_winner if sudden else winner,
        "notes": notes,
        "summary": summary,
    }
    state.phase = "confirm_end"
    run.public("report", f"The {run.name(action.seat)} player reports the end of the {state.date} scenario: {summary}.")


def _initial_conditions(run: Run, action: Action) -> dict[str, str]:
    """[9.6216] The Initial Scenario's weather, EC and wind as its card gives them, for the next date's DRMs."""
    given = {key: value.lower() for key in CONDITIONS if (value := arguments.optional_text(action.args, key))}
    if given and not (run.state.record().initial and run.state.phase == "scenario"):
        raise IllegalActionError(
            "weather, EC and wind are given only for the CG Initial Scenario; the bot rolls them for the others",
            rule="9.6216",
        )
    for key, value in given.items():
        if value not in CONDITIONS[key]:
            raise InvalidActionError(f"{key} must be one of {', '.join(CONDITIONS[key])}, not {value!r}", rule="9.6216")
    return given


def confirm_end(run: Run, action: Action) -> None:
    state, module = run.state, run.module
    report = state.report
    assert report is not None, "the confirm_end phase holds the reported end"
    record = state.record()
    for key, value in report["conditions"].items():
        setattr(record, key, value)
    record.notes = report["notes"]
    if record.kind == "scenario":
        record.cvp = dict(report["cvp"])
        for side in module.sides:
            state.rosters[side].line(state.date).cvp = record.cvp[side]
    state.report = None
    what = "the CG result" if report["back_to"] == "victory" else f"the end of the {state.date} scenario"
    run.public("confirmed", f"The {run.name(action.seat)} player confirms {what}.")
    if report["sudden_death"]:
        sudden_winner = report["winner"]
        named = run.name(sudden_winner) if sudden_winner is not None else None
        end_campaign(run, sudden_winner, f"Sudden Death victory for the {named} (9.6212).")
        return
    if state.date == state.cg["end"]:
        winner = str(report["winner"])
        text = "The CG ends in a draw." if winner == "draw" else f"The CG ends: {run.name(winner)} victory."
        end_campaign(run, None if winner == "draw" else winner, text)
        return
    state.phase = "refit"
    state.initial = False
    state.after_idle = False
    state.step = 0
    state.step_data = {}
    run.public("reph", f"The Refit Phase after the {state.date} CG Scenario begins.")


def reject_end(run: Run, action: Action) -> None:
    back = run.state.report["back_to"] if run.state.report else "scenario"
    run.state.report = None
    run.state.phase = back
    run.public("rejected", f"The {run.name(action.seat)} player rejects the reported end; report it again.")
