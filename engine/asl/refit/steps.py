"""Which RePh steps run (9.601: † steps before the CG Initial Scenario, 9.612-.620 after an Idle date) and
what a step that needs input waits for."""

from __future__ import annotations

from engine.asl.module import Step
from engine.asl.refit.automatic import ammo_elr, new_date, reinforcements
from engine.asl.refit.commencement import commencement_continue
from engine.asl.refit.run import Run
from engine.asl.state import CampaignState, StepData
from engine.contract import Seat


def _step_runs(state: CampaignState, step: Step) -> bool:
    if state.initial:
        return step.initial
    if state.after_idle:
        return step.repeat_after_idle or step.kind == "commencement"
    return True


def settle(run: Run) -> None:
    """Move through the steps that need nobody's input until one does (or the RePh ends)."""
    state = run.state
    for _ in range(1000):
        if state.phase != "refit":
            return
        step = run.current_step()
        if not _step_runs(state, step):
            _next_step(run)
            continue
        if step.kind == "new_date":
            new_date(run, step)
            if state.phase != "refit":
                return
            _next_step(run)
            continue
        if step.kind == "reinforcements":
            reinforcements(run, step)
            _next_step(run)
            continue
        if step.kind == "ammo_elr":
            ammo_elr(run, step)
            _next_step(run)
            continue
        if not state.step_data:
            _start_step(run, step)
        if state.step_data.get("waiting") or state.step_data.get("pending_cvp"):
            return
        if step.kind == "commencement" and commencement_continue(run, step):
            continue
        if step.kind != "commencement":
            _next_step(run)
            continue
        return
    raise RuntimeError("the RePh did not settle after 1000 steps")  # pragma: no cover


def _next_step(run: Run) -> None:
    run.state.step += 1
    run.state.step_data = {}
    if run.state.step >= len(run.module.steps):
        raise RuntimeError("the RePh ran past its last step")  # pragma: no cover


def _start_step(run: Run, step: Step) -> None:
    """Announce a step that needs input and set who must act."""
    state = run.state
    sides = list(run.module.sides)
    waiting = list(sides) if step.actor in ("both", "auto") else [step.actor]
    data: StepData = {"waiting": waiting}
    run.public("step", f"{step.rule} {step.title}: {step.text}", rule=step.rule, title=step.title)
    if step.kind == "cpp":
        date = run.module.date(state.date)
        for side in sides:
            if side not in date.cpp:
                waiting.remove(side)
                run.public(
                    "na",
                    f"{run.name(side)}: no CPP Base # for {date.id} (the chart shows '-'): no replenishment (9.6161).",
                    side=side,
                )
    elif step.kind == "rg_purchase":
        for side in sides:
            if not any(entry.side == side for entry in run.module.rg_chart):
                waiting.remove(side)
                _no_purchase(run, side)
                run.public(
                    "na",
                    f"{run.name(side)}: no RG can be purchased: the RG chart is not loaded "
                    f"({run.module.rg_chart_status}) (9.617). Unspent CPP are halved (FRU).",
                    side=side,
                )
    elif step.kind == "rg_rolls":
        for side in sides:
            can_buy = any(entry.side == side for entry in run.module.rg_chart)
            pending = [rg for rg in state.rosters[side].rg_record if not rg.rolled]
            if not can_buy and not pending:
                waiting.remove(side)
    elif step.kind == "fortifications":
        for side in sides:
            roster = state.rosters[side]
            can_buy_fpp = any(entry.side == side and entry.fpp for entry in run.module.rg_chart)
            if roster.fpp_given == 0 and not can_buy_fpp:
                waiting.remove(side)
    elif step.kind == "commencement":
        if state.initial:
            data["sub"] = "setup"
            run.public(
                "step",
                "9.6214 Unit Setup for the CG Initial Scenario: both sides set up as its scenario card says "
                "(setup order, initiative and weather come from the CG's Initial Scenario, not from 9.6213-9.6216).",
                rule="9.6214",
            )
        else:
            data["sub"] = "chits"
            data["chits"] = {}
    state.step_data = data


def _no_purchase(run: Run, side: Seat) -> None:
    """Close a side's 9.617 with no purchase possible: CPP left are halved (FRU)."""
    roster = run.state.rosters[side]
    line = roster.line(run.state.date)
    available = roster.cpp_available
    line.spent = 0
    line.left = -(-available // 2)
    roster.cpp_left = line.left
    roster.cpp_available = 0
