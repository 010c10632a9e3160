"""What each seat must decide now: one prompt per waiting seat, secret ones to go by DM."""

from __future__ import annotations

from collections.abc import Callable

from engine.asl.module import Module, Step, module_from_raw
from engine.asl.refit.vocabulary import CHITS
from engine.asl.state import CampaignState, Chit, chit_limits
from engine.contract import Choice, Prompt, Seat


def prompts(state: CampaignState) -> dict[Seat, Prompt]:
    """What each seat must decide now (secret prompts go by DM)."""
    module = module_from_raw(state.module)
    found: dict[Seat, Prompt] = {}
    if state.phase == "over":
        return found
    if state.phase == "created":
        for side in module.sides:
            found[side] = Prompt(
                side,
                f"The {state.cg['title']} campaign of {module.title} starts on {state.date}. Begin the Refit Phase"
                " before the CG Initial Scenario when both players are seated.",
                choices=(Choice("begin", {}, "Begin"),),
                rule="9.6",
            )
        return found
    if state.phase == "scenario":
        for side in module.sides:
            found[side] = Prompt(
                side,
                f"The {state.date} CG Scenario is being played. When it ends, report the CVP each side inflicted"
                f" (and a Sudden Death win, 9.6212, if any)"
                + (
                    "; give the weather, EC and wind of the Initial Scenario's card too, for the next date's"
                    " DRMs (9.6216)."
                    if state.record().initial
                    else "."
                ),
                free_verbs=("report_end",),
                rule="9.6211",
            )
        return found
    if state.phase == "victory":
        for side in module.sides:
            found[side] = Prompt(
                side,
                f"The CG is over after the Idle {state.date} CG Date: report the CG winner per the CG Victory"
                " Conditions (a side, or draw); the other side confirms it.",
                free_verbs=("report_end",),
                rule="9.6211",
            )
        return found
    if state.phase == "confirm_end":
        report = state.report
        assert report is not None, "the confirm_end phase holds the reported end"
        other = report["confirm_by"]
        found[other] = Prompt(
            other,
            f"The {module.side_name(report['by'])} player reports the end of the {state.date} CG Scenario: "
            f"{report['summary']}. Confirm it or reject it.",
            choices=(Choice("confirm_end", {}, "Confirm"), Choice("reject_end", {}, "Reject")),
            rule="9.6211",
        )
        return found
    step = module.steps[state.step]
    for side in state.step_data.get("waiting", []):
        found[side] = _step_prompt(state, module, step, side)
    award = state.step_data.get("pending_cvp")
    if award:
        confirmer = next(s for s in module.sides if s != award["from"])
        found[confirmer] = Prompt(
            confirmer,
            f"The {module.side_name(award['from'])} player awards {award['amount']} CVP to the"
            f" {module.side_name(award['by'])} side during the RePh"
            + (f" ({award['note']})" if award.get("note") else "")
            + ": confirm it, or reject it (9.6202).",
            choices=(Choice("confirm_cvp", {}, "Confirm CVP"), Choice("reject_cvp", {}, "Reject CVP")),
            rule="9.6202",
        )
    return found


def _step_prompt(state: CampaignState, module: Module, step: Step, side: Seat) -> Prompt:
    """The prompt of a RePh step for one side waiting in it."""
    return _STEP_PROMPTS[step.kind](state, module, step, side)


def _manual_prompt(state: CampaignState, module: Module, step: Step, side: Seat) -> Prompt:
    """A manual step: the players act on their map, roll on the step's tables and say done."""
    tables = ", ".join(f"{module.tables[t].title} ({t})" for t in step.tables)
    extra = f" Tables you may roll on: {tables}." if tables else ""
    # [9.605] Done is offered once the Setup Areas are entered: offered before, it could only be refused.
    areas_due = step.areas and state.rosters[side].areas_date != state.date
    if areas_due:
        extra += " Enter your Setup Areas, Strategic Locations and Perimeter (areas) before saying done."
    return Prompt(
        side,
        f"{step.rule} {step.title}: {step.text}{extra} Say done when your side has finished this step.",
        choices=() if areas_due else (Choice("done", {}, "Done"),),
        free_verbs=(*(("roll",) if step.tables else ()), "cvp", *(("areas",) if step.areas else ()), "done"),
        rule=step.rule,
    )


def _cpp_prompt(state: CampaignState, module: Module, step: Step, side: Seat) -> Prompt:
    """[9.6162] The secret CPP Variable Arrival DR."""
    base = module.date(state.date).cpp[side]
    return Prompt(
        side,
        f"9.6162: make your secret CPP Variable Arrival DR (added to your Base # of {base} for {state.date}).",
        choices=(Choice("roll_cpp", {}, "Roll CPP DR"),),
        secret=True,
        rule="9.6162",
    )


def _rg_purchase_prompt(state: CampaignState, module: Module, step: Step, side: Seat) -> Prompt:
    """[9.617] The secret RG purchase."""
    # A secret prompt's text says nothing secret (CPP available, CG maximums left): the channel may list
    # every prompt's text; the owner sees the figures in its private roster.
    options = [
        f"{entry.key} {entry.type} ({entry.cost} CPP, {entry.date_max} per date)"
        for entry in module.rg_chart
        if entry.side == side
    ]
    return Prompt(
        side,
        f"9.617: buy RGs for {state.date} in secret (e.g. I1,I1) with the CPP your private roster shows;"
        f" CPP not spent are halved (FRU). RG chart: {'; '.join(options)}.",
        choices=(Choice("purchase", {"rgs": ""}, "Buy nothing"),),
        free_verbs=("purchase",),
        secret=True,
        rule="9.617",
    )


def _rg_rolls_prompt(state: CampaignState, module: Module, step: Step, side: Seat) -> Prompt:
    """[9.618] The secret RG rolls."""
    return Prompt(
        side,
        "9.618: make your secret RG rolls (strength, SW, leaders, composition) for every RG of your record not"
        " yet rolled for.",
        choices=(Choice("roll_rgs", {}, "Roll for my RGs"),),
        secret=True,
        rule="9.618",
    )


def _fortifications_prompt(state: CampaignState, module: Module, step: Step, side: Seat) -> Prompt:
    """[9.619] The secret Fortification purchase."""
    costs = "; ".join(
        f"{fort.id} {fort.name} {fort.cost[side]} FPP" for fort in module.fortifications if side in fort.cost
    )
    return Prompt(
        side,
        f"9.619: buy Fortifications in secret with the FPP your private roster shows (e.g."
        f" trench,ap-mine=6); FPP left unspent are forfeit. Costs: {costs}.",
        choices=(Choice("fortify", {"items": ""}, "Buy nothing"),),
        free_verbs=("fortify",),
        secret=True,
        rule="9.619",
    )


def _commencement_prompt(state: CampaignState, module: Module, step: Step, side: Seat) -> Prompt:
    """[9.6213] The secret Initiative chit, or [9.6214] the setup."""
    if state.step_data.get("sub") == "chits":
        choices = tuple(
            Choice("choose_chit", {"chit": chit}, f"{chit.title()} chit")
            for chit in CHITS
            if chits_left(state, side, chit) != 0
        )
        limits = ", ".join(
            f"{chit} {'unlimited' if (n := chits_left(state, side, chit)) is None else f'{n} left'}" for chit in CHITS
        )
        return Prompt(
            side,
            f"9.6213: choose your Initiative chit for {state.date} in secret ({limits}).",
            choices=choices,
            secret=True,
            rule="9.6213",
        )
    return Prompt(
        side,
        "9.6214: set up your Retained units, Equipment and new Fortifications, then say done.",
        choices=(Choice("done", {}, "Setup done"),),
        rule="9.6214",
    )


_STEP_PROMPTS: dict[str, Callable[[CampaignState, Module, Step, Seat], Prompt]] = {
    "manual": _manual_prompt,
    "cpp": _cpp_prompt,
    "rg_purchase": _rg_purchase_prompt,
    "rg_rolls": _rg_rolls_prompt,
    "fortifications": _fortifications_prompt,
    "commencement": _commencement_prompt,
}
"""The prompt of each kind of step that waits for the sides."""


def chits_left(state: CampaignState, side: Seat, chit: Chit) -> int | None:
    limits = chit_limits(state.cg, chit)
    if not limits or side not in limits:
        return None
    return max(0, int(limits[side]) - state.rosters[side].chits[chit])
