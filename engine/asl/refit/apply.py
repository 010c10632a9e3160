"""Applying one seat's action: whose turn it is, the verb's handler, then the steps that need nobody."""

from __future__ import annotations

import hashlib

from engine import arguments
from engine.asl.module import ModuleError, load_table_override, module_from_raw, overridden_keys, rg_chart_changes
from engine.asl.refit.prompts import prompts
from engine.asl.refit.rolls import roll
from engine.asl.refit.roster_actions import add_units, areas, recombine, update_units
from engine.asl.refit.run import Run
from engine.asl.refit.scenario_end import award_cvp, confirm_cvp, confirm_end, reject_cvp, reject_end, report_end
from engine.asl.refit.secret_steps import choose_chit, fortify, purchase, roll_cpp, roll_rgs
from engine.asl.refit.steps import settle
from engine.asl.refit.vocabulary import ORGANISER, ORGANISER_VERBS, ROSTER_VERBS
from engine.asl.state import CampaignState
from engine.contract import Action, Event, IllegalActionError, InvalidActionError, NotYourTurnError


def apply(state: CampaignState, action: Action) -> tuple[CampaignState, list[Event]]:
    """Apply one seat's action; the input state is never changed.

    :raises InvalidActionError: for an unknown verb or unreadable arguments.
    :raises NotYourTurnError: when the seat has nothing to decide now.
    :raises IllegalActionError: when the rules forbid the action, with the rule number.
    """
    run = Run(state.copy(), module_from_raw(state.module))
    verb = action.verb
    handler = _HANDLERS.get(verb)
    if handler is None:
        raise InvalidActionError(f"unknown action {verb!r}; known actions: {', '.join(sorted(_HANDLERS))}")
    if action.seat == ORGANISER:
        if verb not in ORGANISER_VERBS:
            raise NotYourTurnError(f"the organiser may only load or correct tables, not {verb!r}")
    elif action.seat not in run.module.sides:
        raise InvalidActionError(f"unknown seat {action.seat!r}; seats are {', '.join(run.module.sides)}")
    elif verb in ORGANISER_VERBS:
        raise IllegalActionError("only the organiser may load or correct tables")
    if verb in ROSTER_VERBS and run.state.phase == "over":
        raise IllegalActionError("the campaign is over")
    if verb not in ("reveal", *ORGANISER_VERBS, *ROSTER_VERBS):
        _check_turn(run, action)
    handler(run, action)
    settle(run)
    return run.state, run.events


def _check_turn(run: Run, action: Action) -> None:
    state = run.state
    if state.phase == "over":
        raise IllegalActionError("the campaign is over")
    current = prompts(state)
    prompt = current.get(action.seat)
    if prompt is None:
        waiting = ", ".join(run.name(s) for s in current) or "nobody"
        where = f"{run.current_step().rule} {run.current_step().title}" if state.phase == "refit" else state.phase
        raise NotYourTurnError(
            f"the {run.name(action.seat)} player has nothing to decide now ({where}; waiting for {waiting})",
            rule=run.current_step().rule if state.phase == "refit" else None,
        )
    allowed = {choice.verb for choice in prompt.choices} | set(prompt.free_verbs)
    if action.verb not in allowed:
        raise IllegalActionError(
            f"{action.verb!r} is not possible now; this step allows {', '.join(sorted(allowed)) or 'nothing'}",
            rule=prompt.rule,
        )


def _begin(run: Run, action: Action) -> None:
    state = run.state
    state.phase = "refit"
    run.public(
        "begin",
        f"The {state.cg['title']} campaign begins ({run.module.title}, {state.cg['start']} to {state.cg['end']}). "
        f"Dice seed commitment: {hashlib.sha256(run.seed).hexdigest()}. RePh before the CG Initial Scenario: "
        "only the steps marked † run.",
    )
    if run.module.rg_chart_status != "loaded":
        run.public("warning", f"RG chart: {run.module.rg_chart_status}.", rule="9.617")
    if not state.cg.get("attack_chits") or not state.cg.get("idle_chits"):
        run.public(
            "warning",
            "No Attack/Idle chit limits are known for this CG (9.62131; they are in the CG's own rules): no limit is"
            " enforced until an organiser loads them.",
            rule="9.62131",
        )


def _done(run: Run, action: Action) -> None:
    step = run.current_step()
    roster = run.state.rosters[action.seat]
    if step.areas and roster.areas_date != run.state.date:
        raise IllegalActionError(
            f"enter your Setup Areas, Strategic Locations and Perimeter after the {run.state.date} scenario first",
            rule=step.rule,
        )
    data = run.state.step_data
    data["waiting"] = [s for s in data["waiting"] if s != action.seat]
    step = run.current_step()
    title = "setup (9.6214)" if step.kind == "commencement" else f"{step.rule} {step.title}"
    run.public("done", f"The {run.name(action.seat)} player has finished {title}.", side=action.seat)


def _reveal(run: Run, action: Action) -> None:
    secret_id = arguments.text(action.args, "secret")
    secret = next((s for s in run.state.secrets if s.id == secret_id), None)
    if secret is None:
        raise InvalidActionError(f"no sealed secret {secret_id!r}")
    if secret.owner != action.seat:
        raise IllegalActionError(
            f"{secret_id} belongs to the {run.name(secret.owner)} player; only its owner may reveal it"
        )
    if secret.revealed:
        raise IllegalActionError(f"{secret_id} is already revealed")
    if secret.kind == "chit":
        raise IllegalActionError("Initiative chits are revealed together when both sides have chosen", rule="9.62132")
    run.reveal(secret)


def _load_table(run: Run, action: Action) -> None:
    arguments.text(action.args, "text")  # refuses a missing or empty text
    text = str(action.args["text"])  # as given: the digest posted is the one of the file loaded
    file = arguments.optional_text(action.args, "file") or "override.toml"
    side = arguments.optional_text(action.args, "side")
    try:
        module = load_table_override(run.module, text, file, str(side) if side else None)
    except ModuleError as error:
        raise InvalidActionError(str(error)) from None
    keys = overridden_keys(text)
    changes = f"; {rg_chart_changes(run.state.module, module.raw)}" if "rg_chart" in keys else ""
    run.state.module = dict(module.raw)
    run.module = module
    only = f" ({run.name(str(side))} side only)" if side else ""
    run.state.overrides.append(f"{file}: {', '.join(keys)}{only}")
    cg = module.cgs.get(run.state.cg["id"])
    if cg is not None:
        for key in ("attack_chits", "idle_chits"):
            value = getattr(cg, key)
            if value is not None:
                run.state.cg[key] = dict(value)
    digest = hashlib.sha256(text.encode()).hexdigest()
    run.public(
        "override",
        f"The organiser loaded {file}: {', '.join(keys)} replaced{only}{changes} (sha256 {digest[:16]}).",
        file=file,
        keys=keys,
        sha256=digest,
    )


def _corrected(run: Run, action: Action) -> None:
    """A moderator took actions back: what is sealed from now on gets fresh salts and fresh secret dice.

    ``epoch`` counts every action ever taken back in the game (the bot reads it from its log), so it only grows,
    even when a later correction takes back this very action.
    """
    state = run.state
    epoch = arguments.whole(action.args, "epoch")
    if epoch <= state.epoch:
        raise InvalidActionError(f"the correction epoch must grow: it is {state.epoch}, not {epoch}")
    state.epoch = epoch
    stale = [s.id for s in state.secrets if not s.revealed]
    run.public(
        "corrected",
        "After the moderator's correction, every decision sealed from now on gets a fresh salt and secret dice come"
        f" from a fresh stream (correction epoch {epoch})."
        + (f" Still sealed from before: {', '.join(stale)}." if stale else ""),
        epoch=epoch,
    )


_HANDLERS = {
    "begin": _begin,
    "done": _done,
    "roll": roll,
    "cvp": award_cvp,
    "confirm_cvp": confirm_cvp,
    "add_units": add_units,
    "update_units": update_units,
    "recombine": recombine,
    "areas": areas,
    "reject_cvp": reject_cvp,
    "roll_cpp": roll_cpp,
    "purchase": purchase,
    "roll_rgs": roll_rgs,
    "fortify": fortify,
    "choose_chit": choose_chit,
    "report_end": report_end,
    "confirm_end": confirm_end,
    "reject_end": reject_end,
    "reveal": _reveal,
    "load_table": _load_table,
    "corrected": _corrected,
}
