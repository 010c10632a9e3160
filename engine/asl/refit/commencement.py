"""[9.621] Scenario commencement: Initiative chits and matrix, setup order, first move, weather, EC and wind;
the start of the CG Scenario and the end of the CG."""

from __future__ import annotations

from engine.asl.module import Step
from engine.asl.refit.run import Run
from engine.asl.refit.vocabulary import WINDY
from engine.contract import Seat


def commencement_continue(run: Run, step: Step) -> bool:
    """Called when nobody is waiting in 9.621; returns True when the RePh moved back to 9.612."""
    state, module = run.state, run.module
    data = state.step_data
    if data.get("sub") == "chits":
        chits = data["chits"]
        record = state.record()
        for secret_id in data["secrets"].values():
            secret = next(s for s in state.secrets if s.id == secret_id)
            run.reveal(secret)
        for side in module.sides:
            chit = chits[side]
            state.rosters[side].chits[chit] += 1
            state.rosters[side].line(state.date).chit = chit
            record.chits[side] = chit
        key = "/".join(chits[side] for side in module.sides)
        outcome = module.initiative[key]
        run.public(
            "initiative",
            f"Initiative Matrix (9.62132): {', '.join(f'{run.name(s)} {chits[s]}' for s in module.sides)} → "
            f"{_scenario_name(run, outcome)}.",
            chits=dict(chits),
            outcome=outcome,
        )
        if outcome == "idle":
            record.kind = "idle"
            state.after_idle = True
            state.initial = False
            run.public(
                "idle",
                f"{state.date} is an Idle CG Date: no scenario; both sides repeat RePh steps 9.612-9.620 (9.62132).",
            )
            state.step = next(i for i, s in enumerate(module.steps) if s.kind == "new_date")
            state.step_data = {}
            return True
        record.scenario_type = outcome
        if outcome == "dual":
            roll = run.public_roll(module.tables["dual_setup"], module.tables["dual_setup"].roll_by)
            first = roll.effect or module.sides[0]
        else:
            attacker = outcome.removesuffix("_assault")
            first = run.other(attacker)
            record.move_first = attacker
        record.setup_first = first
        run.public(
            "setup",
            f"9.6214: the {run.name(first)} player sets up first, then the {run.name(run.other(first))}.",
            first=first,
        )
        state.step_data = {"sub": "setup", "waiting": [first], "then": [run.other(first)]}
        return True
    if data.get("sub") == "setup" and data.get("then"):
        state.step_data = {"sub": "setup", "waiting": data["then"]}
        return True
    # setup finished: first move, weather, scenario
    record = state.record()
    if not state.initial:
        if record.scenario_type == "dual":
            table = module.tables["first_move"]
            move = run.public_roll(table, table.roll_by)
            record.move_first = move.effect
        if record.move_first:
            run.public("first_move", f"9.6215: the {run.name(record.move_first)} player moves first.")
        for key in ("weather", "ec", "wind"):
            table = module.tables[key]
            rolled = run.public_roll(table, table.roll_by)
            setattr(record, key, rolled.effect)
        direction = module.tables.get("wind_direction")
        if direction is not None and record.wind in WINDY:
            record.wind_direction = run.public_roll(direction, direction.roll_by).effect
        if module.date(state.date).night:
            run.public("nvr", "9.62162: Night scenario: no Moon, Scattered Clouds; Base NVR per E1.11.")
    _start_scenario(run)
    return False


def _scenario_name(run: Run, outcome: str) -> str:
    if outcome == "dual":
        return "Dual Assault"
    if outcome == "idle":
        return "Idle CG Date"
    return f"{run.name(outcome.removesuffix('_assault'))} Assault"


def _start_scenario(run: Run) -> None:
    state = run.state
    record = state.record()
    record.kind = "scenario"
    state.phase = "scenario"
    state.step_data = {}
    state.after_idle = False
    kind = "CG Initial Scenario" if record.initial else _scenario_name(run, record.scenario_type or "")
    for side, roster in state.rosters.items():
        record.entered[side] = [u.id for u in roster.units if u.status == "retained"]
        for unit in roster.units:
            if unit.status == "retained":
                unit.history.append(f"{state.date}: entered the {kind}")
    run.public(
        "scenario",
        f"The {state.date} CG Scenario ({kind}) is ready to play. Report its end when it is over.",
        date=state.date,
    )


def end_campaign(run: Run, winner: Seat | None, text: str) -> None:
    """End the CG: every sealed secret is revealed so each receipt can be checked."""
    state = run.state
    state.phase = "over"
    state.step_data = {}
    for secret in state.secrets:
        if not secret.revealed:
            run.reveal(secret)
    state.result = {"winner": winner, "text": text}
    run.public("over", text, winner=winner, seed=state.seed)
