"""The Refit Phase (RePh, 9.601-9.6216) as a state machine of prompts and legal actions.

The campaign alternates between a RePh run by the bot and a CG Scenario played by the players (off the
bot). Each RePh walks the module's steps in order. A step either resolves itself with public dice
(9.612 SAN, 9.615 reinforcements, 9.620 ammunition and ELR), or waits for the sides: manual steps wait
for both to say ``done`` (rolling on the step's tables as they go); secret steps (9.616 CPP DR, 9.617
RG purchase, 9.618 RG rolls, 9.619 Fortifications, 9.6213 Initiative chits) are taken by DM and sealed
with a hash receipt posted at once. Which steps run: before the CG Initial Scenario only the † steps;
after an Idle CG Date only 9.612-.620 and then 9.621 again (9.62132 note 2).

Actions (verb and arguments):

- ``done`` - finish a manual step, or one's setup in 9.6214;
- ``roll`` ``{table, column?, drms?, label?}`` - a public roll on one of the step's tables;
- ``cvp`` ``{by, amount}`` - CVP awarded during the RePh (count for 9.6202);
- ``roll_cpp`` (secret, 9.6162); ``purchase`` ``{rgs}`` (secret, 9.617); ``roll_rgs`` (secret, 9.618);
  ``fortify`` ``{items}`` (secret, 9.619); ``choose_chit`` ``{chit}`` (secret, 9.6213);
- ``report_end`` ``{cvp_<side>..., sudden_death?, winner?, notes?}`` then ``confirm_end`` / ``reject_end``;
- ``reveal`` ``{secret}`` - the owner reveals one of its sealed secrets, at any time;
- ``load_table`` ``{text, file?}`` by the seat ``"organiser"`` - load or correct tables, RG chart, CGs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.asl.module import (
    Module,
    ModuleError,
    RgEntry,
    Step,
    Table,
    load_table_override,
    module_from_raw,
    overridden_keys,
    parse_module_text,
    rg_chart_changes,
)
from engine.asl.roster import RgLine, Roster
from engine.asl.state import CampaignState, DateRecord, Secret
from engine.asl.tables import AppliedDrm, TableRoll, look_up, parse_drm_spec, resolve, roll_dice
from engine.asl.units import (
    EXPERIENCE,
    FLAGS,
    KINDS,
    PERSONNEL,
    SMC,
    STATUSES,
    Unit,
    casualty_reduce,
    consequences,
    harden,
    replace,
)
from engine.contract import (
    Action,
    Choice,
    Event,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    Prompt,
    Result,
    Seat,
)
from engine.dice import Dice
from engine.sealing import receipt_for, salt_for, sealed_text, secret_dice

ORGANISER: Seat = "organiser"
"""The pseudo-seat of the campaign's organiser (the bot checks the moderator role)."""

SECRET_STEP_KINDS = ("cpp", "rg_purchase", "rg_rolls", "fortifications")
ORGANISER_VERBS = ("load_table", "corrected")
ROSTER_VERBS = ("add_units", "update_units", "recombine", "areas")
"""A side keeps its own roster and map state whenever it likes (not a decision the RePh waits for)."""
WINDY = ("mild_breeze", "heavy_wind")
"""Wind Force results that call for a Wind Direction (9.62164 note 1)."""
CONDITIONS = {
    "weather": ("mist", "overcast", "clear", "clear_gusty"),
    "ec": ("wet", "moist", "moderate", "dry"),
    "wind": ("no_wind", "mild_breeze", "heavy_wind"),
}
"""What the Initial Scenario's card may give for weather, EC and wind (the effect words of the 9.6216 tables)."""
"""What the organiser's pseudo-seat may do: load tables, and mark a moderator's correction."""
CHITS = ("attack", "idle")


# --- Running one action ------------------------------------------------------------------------------------


@dataclass
class _Run:
    """One action (or setup) being applied: the working copy of the state, its module and the events."""

    state: CampaignState
    module: Module
    events: list[Event] = field(default_factory=list)

    @property
    def seed(self) -> bytes:
        return bytes.fromhex(self.state.seed)

    def public(self, kind: str, text: str, **data: Any) -> None:
        self.events.append(Event(kind, text, data))

    def private(self, seat: Seat, kind: str, text: str, **data: Any) -> None:
        self.events.append(Event(kind, text, data, secret_to=(seat,)))

    def name(self, side: Seat) -> str:
        return self.module.side_name(side)

    def other(self, side: Seat) -> Seat:
        return next(s for s in self.module.sides if s != side)

    # dice ------------------------------------------------------------------------------------------------

    def public_roll(
        self,
        table: Table,
        side: Seat | None,
        quantities: Mapping[str, int] | None = None,
        column: str | None = None,
        extra: Mapping[str, str] | None = None,
        label: str = "",
    ) -> TableRoll:
        """Roll a public table with the engine's auto DRMs plus any asked for; log it in the channel."""
        amounts = dict(auto_quantities(self, table, side, extra or {}))
        amounts.update(quantities or {})
        drms = resolve(table, amounts, side, column)
        dice = Dice(self.seed, self.state.rolls_made)
        rolled = roll_dice(table, dice)
        self.state.rolls_made = dice.rolls_made
        outcome = look_up(table, rolled, drms, column)
        who = f"{self.name(side)}: " if side else ""
        what = f" for {label}" if label else ""
        self.public("roll", f"{who}{outcome.describe(table.title)}{what}", roll=outcome.to_json(), side=side)
        return outcome

    def public_d6(self, what: str) -> int:
        """One public die for a sub-roll a table's note asks for, logged in the channel."""
        dice = Dice(self.seed, self.state.rolls_made)
        value = dice.d6()
        self.state.rolls_made = dice.rolls_made
        self.public("subroll", f"{what}: dr {value}.", dr=value)
        return value

    def secret_roll(
        self, table: Table, side: Seat, column: str | None = None, extra: Mapping[str, str] | None = None
    ) -> TableRoll:
        """Roll a secret table on the side's own dice stream, with the auto DRMs; nothing is logged."""
        drms = resolve(table, auto_quantities(self, table, side, extra or {}), side, column)
        dice = self.secret_dice(side)
        rolled = roll_dice(table, dice)
        self.state.secret_rolls[side] = dice.rolls_made
        return look_up(table, rolled, drms, column)

    def secret_dice(self, side: Seat) -> Dice:
        return secret_dice(self.seed, side, self.state.secret_rolls.get(side, 0), self.state.epoch)

    def secret_d6(self, side: Seat) -> int:
        dice = self.secret_dice(side)
        value = dice.d6()
        self.state.secret_rolls[side] = dice.rolls_made
        return value

    # secrets ---------------------------------------------------------------------------------------------

    def seal(self, owner: Seat, kind: str, rule: str, content: dict[str, Any], what: str) -> Secret:
        """Seal a secret: a public receipt for the channel, the content by DM to its owner."""
        secret_id = f"S{len(self.state.secrets) + 1}"
        epoch = self.state.epoch
        receipt = receipt_for(content, salt_for(self.seed, secret_id, epoch))
        secret = Secret(secret_id, owner, kind, rule, self.state.date, content, receipt, epoch=epoch)
        self.state.secrets.append(secret)
        self.public(
            "sealed",
            f"The {self.name(owner)} player has committed {what} ({rule}); receipt {receipt}.",
            secret=secret_id,
            owner=owner,
            secret_kind=kind,
            rule=rule,
            receipt=receipt,
        )
        return secret

    def reveal(self, secret: Secret) -> None:
        """Reveal a sealed secret: its content and salt become public, so anyone can check the receipt."""
        secret.revealed = True
        salt = salt_for(self.seed, secret.id, secret.epoch)
        self.public(
            "reveal",
            f"Revealed {secret.id} ({self.name(secret.owner)}, {secret.kind}, {secret.date}, {secret.rule}): "
            f"{describe_secret(secret)} (receipt {secret.receipt[:16]}...: the attached file holds its salt and exact"
            " sealed text).",
            secret=secret.id,
            owner=secret.owner,
            secret_kind=secret.kind,
            content=secret.content,
            salt=salt,
            receipt=secret.receipt,
            epoch=secret.epoch,
            details={"id": secret.id, "receipt": secret.receipt, "sealed": sealed_text(secret.content, salt)},
        )

    def steps(self) -> tuple[Step, ...]:
        return self.module.steps

    def current_step(self) -> Step:
        return self.module.steps[self.state.step]


def describe_secret(secret: Secret) -> str:
    """The content of a secret in words."""
    content = secret.content
    if secret.kind == "chit":
        return f"{content['chit']} chit"
    if secret.kind == "cpp":
        return f"CPP DR {content['dice']} + Base # {content['base']} = {content['received']} CPP received"
    if secret.kind == "rg_purchase":
        bought = ", ".join(content["rgs"]) or "no RG"
        return f"{bought}; {content['spent']} CPP spent, {content['left']} left"
    if secret.kind == "fortifications":
        return ", ".join(content["items"]) or "no Fortification"
    if secret.kind == "rg_rolls":
        return "; ".join(result["summary"] for result in content["results"]) or "nothing to roll"
    return str(content)


# --- Auto DRMs: the quantities the campaign record supplies ---------------------------------------------------


def _last_scenario(state: CampaignState) -> DateRecord | None:
    for record in reversed(state.history):
        if record.kind == "scenario":
            return record
    return None


def _since(state: CampaignState, kind: str) -> list[DateRecord]:
    """The finished records after the last record of ``kind`` (all finished ones if none)."""
    finished = [r for r in state.history if r.kind != "pending"]
    for index in range(len(finished) - 1, -1, -1):
        if finished[index].kind == kind:
            return finished[index + 1 :]
    return finished


def _previous_date_idle(state: CampaignState) -> bool:
    finished = [r for r in state.history if r.kind != "pending"]
    return bool(finished) and finished[-1].kind == "idle"


def auto_quantity(run: _Run, auto: str, side: Seat | None, extra: Mapping[str, str]) -> int | None:
    """The quantity of an auto DRM for a side, or ``None`` when it does not apply."""
    state, module = run.state, run.module
    name, _, arg = auto.partition(":")
    last = _last_scenario(state)
    if name == "side":
        return 1
    if name == "completed_night":
        return 1 if last is not None and module.date(last.date).night else None
    if name == "night":
        return 1 if module.date(state.date).night else None
    if name == "previous_idle":
        return 1 if _previous_date_idle(state) else None
    if name == "exhaustion":
        return module.date(state.date).exhaustion
    if name == "ammo_level":
        ammo_side = module.ammo_side or side
        return state.rosters[ammo_side].ammo_level if ammo_side else None
    if name == "san":
        return state.rosters[side].san if side else None
    if name == "cvp_inflicted":
        return last.cvp.get(side, 0) if last is not None and side else 0
    if name == "idle_since_scenario":
        return sum(1 for r in _since(state, "scenario") if r.kind == "idle")
    if name == "scenarios_since_idle":
        return sum(1 for r in _since(state, "idle") if r.kind == "scenario")
    if name == "attack_chits_since_idle":
        return sum(1 for r in _since(state, "idle") if side and r.chits.get(side) == "attack")
    if name == "attack_chits_cg":
        chit_side = module.ammo_side or side
        return state.rosters[chit_side].chits["attack"] if chit_side else None
    if name == "previous_weather":
        return 1 if last is not None and last.weather in arg.split("|") else None
    if name == "previous_ec":
        return 1 if last is not None and last.ec in arg.split("|") else None
    if name == "weather":
        return 1 if state.record().weather in arg.split("|") else None
    if name == "rg_class":
        return 1 if extra.get("rg_class") in arg.split("|") else None
    return None


def auto_quantities(run: _Run, table: Table, side: Seat | None, extra: Mapping[str, str]) -> dict[str, int]:
    """The auto DRMs of a table that apply to a side, by DRM id."""
    found: dict[str, int] = {}
    for drm in table.drms:
        if drm.auto is None or (drm.side is not None and drm.side != side):
            continue
        quantity = auto_quantity(run, drm.auto, side, extra)
        if quantity is not None and drm.modifier(quantity) != 0:
            found[drm.id] = quantity
    return found


# --- New campaign ----------------------------------------------------------------------------------------------


def _side_ints(options: Mapping[str, Any], key: str, sides: tuple[str, ...]) -> dict[str, int] | None:
    value = options.get(key)
    if value is None:
        return None
    if not isinstance(value, Mapping) or set(value) - set(sides):
        raise InvalidActionError(f"option {key!r} must give a number for each side ({', '.join(sides)})")
    result: dict[str, int] = {}
    for side, number in value.items():
        if isinstance(number, bool) or not isinstance(number, int):
            raise InvalidActionError(f"option {key}.{side} must be a whole number, not {number!r}")
        result[side] = number
    return result


ModuleSource = Callable[[str], tuple[str, str]]
"""Where a module's data comes from: a module id to (file name, TOML text); raises :class:`KeyError` for an
unknown id. The caller gives it (the bot: ``scenarios.asl.module_text``): the engine reads no file."""


def new_game(
    module_id: str, options: Mapping[str, Any], seed: bytes, modules: ModuleSource | None = None
) -> CampaignState:
    """[9.6] A campaign for a module and a CG, ready for the RePh before its Initial Scenario.

    ``options``: ``cg`` (a CG id of the module, or a free name), ``start`` and ``end`` (CG Dates; the
    CG's own when the module defines it), ``elr`` and ``san`` (``{side: n}``, the CG Initial Scenario's),
    ``attack_chits`` / ``idle_chits`` (``{side: n}`` chit limits, 9.62131), ``cpp`` and ``fpp``
    (``{side: n}`` given for the initial purchase), ``initial_rgs`` (``{side: "I1,I2"}`` RGs in the
    Initial Scenario OB, recorded but never counted against limits, 9.6178), ``ammo_level`` (default 0)
    and ``module_text`` (a TOML module to use instead of the one ``modules`` gives for ``module_id``).

    :raises InvalidActionError: naming the option that is missing or wrong.
    """
    text = options.get("module_text")
    try:
        if isinstance(text, str):
            module = parse_module_text(text, f"{module_id}.toml")
        elif modules is not None:
            file, text = modules(module_id)
            module = parse_module_text(text, file)
        else:
            raise InvalidActionError(f"no data for the module {module_id!r}: give its TOML text (module_text)")
    except KeyError as error:
        raise InvalidActionError(str(error.args[0])) from None
    except ModuleError as error:
        raise InvalidActionError(str(error)) from None
    sides = module.sides
    date_ids = [d.id for d in module.dates]
    cg_id = str(options.get("cg", "custom"))
    cg_def = module.cgs.get(cg_id)
    start = options.get("start") or (cg_def.start if cg_def else None)
    end = options.get("end") or (cg_def.end if cg_def else None) or date_ids[-1]
    if start is None:
        raise InvalidActionError(
            f"option 'start' is needed: the CG's start date, one of {', '.join(date_ids)}"
            + ("" if cg_def else f" (CG {cg_id!r} is not defined in the module: {module.cgs_status})")
        )
    for key, value in (("start", start), ("end", end)):
        if value not in date_ids:
            raise InvalidActionError(f"option {key!r} is {value!r}; CG Dates are {', '.join(date_ids)}")
    if date_ids.index(end) < date_ids.index(start):
        raise InvalidActionError(f"the CG cannot end ({end}) before it starts ({start})")
    elr = _side_ints(options, "elr", sides) or (dict(cg_def.elr) if cg_def and cg_def.elr else None)
    san = _side_ints(options, "san", sides) or (dict(cg_def.san) if cg_def and cg_def.san else None)
    for key, value in (("elr", elr), ("san", san)):
        if value is None or set(value) != set(sides):
            raise InvalidActionError(
                f"option {key!r} is needed for each side ({', '.join(sides)}): the CG Initial Scenario's {key.upper()}"
            )
    attack = _side_ints(options, "attack_chits", sides) or (
        dict(cg_def.attack_chits) if cg_def and cg_def.attack_chits else None
    )
    idle = _side_ints(options, "idle_chits", sides) or (
        dict(cg_def.idle_chits) if cg_def and cg_def.idle_chits else None
    )
    cpp = _side_ints(options, "cpp", sides) or {}
    fpp = _side_ints(options, "fpp", sides) or {}
    assert elr is not None and san is not None
    rosters = {
        side: Roster(
            side,
            elr=elr[side],
            san=san[side],
            ammo_level=int(options.get("ammo_level", 0)) if side == module.ammo_side else 0,
            cpp_left=cpp.get(side, 0),
            cpp_available=cpp.get(side, 0),
            fpp_given=fpp.get(side, 0),
        )
        for side in sides
    }
    state = CampaignState(
        module=dict(module.raw),
        cg={
            "id": cg_id,
            "title": cg_def.title if cg_def else cg_id,
            "start": start,
            "end": end,
            "attack_chits": attack,
            "idle_chits": idle,
        },
        seed=seed.hex(),
        rosters=rosters,
        date=start,
        secret_rolls={side: 0 for side in sides},
        history=[DateRecord(start, initial=True)],
        phase="created",
    )
    for side in sides:
        rosters[side].line(start)
    initial_rgs = options.get("initial_rgs") or {}
    if not isinstance(initial_rgs, Mapping):
        raise InvalidActionError("option 'initial_rgs' must map each side to a list of RG IDs such as \"I1,I2\"")
    for side, ids in initial_rgs.items():
        if side not in sides:
            raise InvalidActionError(f"option 'initial_rgs' names unknown side {side!r}")
        for key in _split_ids(str(ids)):
            entry = module.rg(side, key)
            rosters[side].rg_record.append(
                RgLine(start, entry.key if entry else key, entry.type if entry else "(not in the RG chart)", False)
            )
    return state


def _split_ids(text: str) -> list[str]:
    return [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]


# --- Which steps run -----------------------------------------------------------------------------------------


def _step_runs(state: CampaignState, step: Step) -> bool:
    if state.initial:
        return step.initial
    if state.after_idle:
        return step.repeat_after_idle or step.kind == "commencement"
    return True


def _settle(run: _Run) -> None:
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
            _new_date(run, step)
            if state.phase != "refit":
                return
            _next_step(run)
            continue
        if step.kind == "reinforcements":
            _reinforcements(run, step)
            _next_step(run)
            continue
        if step.kind == "ammo_elr":
            _ammo_elr(run, step)
            _next_step(run)
            continue
        if not state.step_data:
            _start_step(run, step)
        if state.step_data.get("waiting") or state.step_data.get("pending_cvp"):
            return
        if step.kind == "commencement" and _commencement_continue(run, step):
            continue
        if step.kind != "commencement":
            _next_step(run)
            continue
        return
    raise RuntimeError("the RePh did not settle after 1000 steps")  # pragma: no cover


def _next_step(run: _Run) -> None:
    run.state.step += 1
    run.state.step_data = {}
    if run.state.step >= len(run.module.steps):
        raise RuntimeError("the RePh ran past its last step")  # pragma: no cover


def _start_step(run: _Run, step: Step) -> None:
    """Announce a step that needs input and set who must act."""
    state = run.state
    sides = list(run.module.sides)
    waiting = list(sides) if step.actor in ("both", "auto") else [step.actor]
    data: dict[str, Any] = {"waiting": waiting}
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


def _no_purchase(run: _Run, side: Seat) -> None:
    """Close a side's 9.617 with no purchase possible: CPP left are halved (FRU)."""
    roster = run.state.rosters[side]
    line = roster.line(run.state.date)
    available = roster.cpp_available
    line.spent = 0
    line.left = -(-available // 2)
    roster.cpp_left = line.left
    roster.cpp_available = 0


# --- Automatic steps --------------------------------------------------------------------------------------------


def _new_date(run: _Run, step: Step) -> None:
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


def _came_back(run: _Run) -> None:
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


def _reinforcements(run: _Run, step: Step) -> None:
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


def _ammo_elr(run: _Run, step: Step) -> None:
    """[9.620] Ammunition Shortage (9.6201) then ELR Loss/Gain (9.6202), both public DR."""
    state, module = run.state, run.module
    ammo_side = module.ammo_side
    ids = [d.id for d in module.dates]
    if ammo_side is not None and module.ammo_from is not None:
        if ids.index(state.date) < ids.index(module.ammo_from):
            run.public("na", f"9.6201: no Ammunition Shortage DR before {module.ammo_from}.", rule="9.6201")
        elif _previous_date_idle(state):
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


# --- 9.621 Scenario commencement -------------------------------------------------------------------------------


def _commencement_continue(run: _Run, step: Step) -> bool:
    """Called when nobody is waiting in 9.621; returns True when the RePh moved back to 9.612."""
    state, module = run.state, run.module
    data = state.step_data
    if data.get("sub") == "chits":
        chits: dict[str, str] = data["chits"]
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


def _scenario_name(run: _Run, outcome: str) -> str:
    if outcome == "dual":
        return "Dual Assault"
    if outcome == "idle":
        return "Idle CG Date"
    return f"{run.name(outcome.removesuffix('_assault'))} Assault"


def _start_scenario(run: _Run) -> None:
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


def _end_campaign(run: _Run, winner: Seat | None, text: str) -> None:
    """End the CG: every sealed secret is revealed so each receipt can be checked."""
    state = run.state
    state.phase = "over"
    state.step_data = {}
    for secret in state.secrets:
        if not secret.revealed:
            run.reveal(secret)
    state.result = {"winner": winner, "text": text}
    run.public("over", text, winner=winner, seed=state.seed)


# --- Prompts ------------------------------------------------------------------------------------------------


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
        report = state.report or {}
        other = report.get("confirm_by", "")
        found[other] = Prompt(
            other,
            f"The {module.side_name(report.get('by', ''))} player reports the end of the {state.date} CG Scenario: "
            f"{report.get('summary', '')}. Confirm it or reject it.",
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
    if step.kind == "manual":
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
    if step.kind == "cpp":
        base = module.date(state.date).cpp[side]
        return Prompt(
            side,
            f"9.6162: make your secret CPP Variable Arrival DR (added to your Base # of {base} for {state.date}).",
            choices=(Choice("roll_cpp", {}, "Roll CPP DR"),),
            secret=True,
            rule="9.6162",
        )
    if step.kind == "rg_purchase":
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
    if step.kind == "rg_rolls":
        return Prompt(
            side,
            "9.618: make your secret RG rolls (strength, SW, leaders, composition) for every RG of your record not"
            " yet rolled for.",
            choices=(Choice("roll_rgs", {}, "Roll for my RGs"),),
            secret=True,
            rule="9.618",
        )
    if step.kind == "fortifications":
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
    if step.kind == "commencement":
        if state.step_data.get("sub") == "chits":
            choices = tuple(
                Choice("choose_chit", {"chit": chit}, f"{chit.title()} chit")
                for chit in CHITS
                if _chits_left(state, side, chit) != 0
            )
            limits = ", ".join(
                f"{chit} {'unlimited' if (n := _chits_left(state, side, chit)) is None else f'{n} left'}"
                for chit in CHITS
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
    raise AssertionError(f"no prompt for step kind {step.kind}")  # pragma: no cover


def _chits_left(state: CampaignState, side: Seat, chit: str) -> int | None:
    limits = state.cg.get(f"{chit}_chits")
    if not limits or side not in limits:
        return None
    return max(0, int(limits[side]) - state.rosters[side].chits[chit])


# --- Apply --------------------------------------------------------------------------------------------------


def apply(state: CampaignState, action: Action) -> tuple[CampaignState, list[Event]]:
    """Apply one seat's action; the input state is never changed.

    :raises InvalidActionError: for an unknown verb or unreadable arguments.
    :raises NotYourTurnError: when the seat has nothing to decide now.
    :raises IllegalActionError: when the rules forbid the action, with the rule number.
    """
    run = _Run(state.copy(), module_from_raw(state.module))
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
    _settle(run)
    return run.state, run.events


def _check_turn(run: _Run, action: Action) -> None:
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


def _arg_str(action: Action, key: str, default: str | None = None) -> str:
    value = action.args.get(key, default)
    if value is None:
        raise InvalidActionError(f"{action.verb!r} needs the argument {key!r}")
    return str(value)


def _arg_int(action: Action, key: str, default: int | None = None) -> int:
    value = action.args.get(key, default)
    if value is None:
        raise InvalidActionError(f"{action.verb!r} needs the argument {key!r} (a whole number)")
    if isinstance(value, bool):
        raise InvalidActionError(f"argument {key!r} must be a whole number, not {value!r}")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise InvalidActionError(f"argument {key!r} must be a whole number, not {value!r}") from None


def _begin(run: _Run, action: Action) -> None:
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


def _done(run: _Run, action: Action) -> None:
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


def _roll(run: _Run, action: Action) -> None:
    step = run.current_step()
    table_id = _arg_str(action, "table")
    if table_id not in step.tables:
        allowed = ", ".join(step.tables) or "none"
        raise IllegalActionError(
            f"the {table_id!r} table is not used in step {step.rule} {step.title} (tables of this step: {allowed})",
            rule=step.rule,
        )
    table = run.module.tables[table_id]
    quantities = parse_drm_spec(table, str(action.args.get("drms") or ""))
    for drm_id in quantities:
        if table.drm(drm_id).auto is not None:
            raise InvalidActionError(
                f"DRM {drm_id!r} ({table.drm(drm_id).text}) comes from the campaign record; do not give it",
                rule=table.rule,
            )
    column = action.args.get("column")
    named = _named_units(run, action.seat, str(action.args.get("units") or ""))
    for unit in named:
        _check_unit_for_table(run, table, unit)
    label = str(action.args.get("label") or "") or ", ".join(u.label() for u in named)
    outcome = run.public_roll(
        table,
        action.seat,
        quantities,
        column=str(column) if column is not None else None,
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


def _check_unit_for_table(run: _Run, table: Table, unit: Unit) -> None:
    if unit.status != "retained":
        raise IllegalActionError(f"{unit.label()} is {unit.status}, not Retained", rule=table.rule)
    spec = TABLE_UNITS.get(table.id)
    if spec is None:
        return
    kinds, flag, reason = spec
    if unit.kind not in kinds or (flag is not None and not getattr(unit, flag)):
        raise IllegalActionError(f"{unit.label()} cannot roll here ({reason})", rule=table.rule)


def _apply_to_units(run: _Run, action: Action, table: Table, outcome: TableRoll, named: list[Unit]) -> None:
    """The result of a roll, applied to each unit named with it (see :func:`engine.asl.units.consequences`)."""
    destination = str(action.args.get("to") or "").strip()
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


def _named_units(run: _Run, side: Seat, text: str) -> list[Unit]:
    """The side's own units named by id (``B3,B4``).

    :raises InvalidActionError: naming an id the side's roster does not hold.
    """
    roster = run.state.rosters[side]
    found = []
    for unit_id in _split_ids(text):
        unit = roster.unit(unit_id)
        if unit is None:
            raise InvalidActionError(f"the {run.name(side)} roster has no unit {unit_id!r}; your roster lists the ids")
        found.append(unit)
    return found


def _new_units(run: _Run, side: Seat, kind: str, name: str, count: int, source: str, **fields: Any) -> list[Unit]:
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


def _add_units(run: _Run, action: Action) -> None:
    """A side adds units to its own roster (the Initial Scenario OB, or anything the bot did not add itself)."""
    side = action.seat
    kind = _arg_str(action, "kind").strip().lower()
    if kind not in KINDS:
        raise InvalidActionError(f"a unit is one of {', '.join(KINDS)}, not {kind!r}")
    name = _arg_str(action, "name").strip()[:40]
    if not name:
        raise InvalidActionError("give the unit's name as on its counter, e.g. 6-5-8 or 8-1")
    count = _arg_int(action, "count", 1)
    if not 1 <= count <= 60:
        raise InvalidActionError(f"add from 1 to 60 units at a time, not {count}")
    experience = str(action.args.get("experience") or "").strip().lower()
    if experience and experience not in EXPERIENCE:
        raise InvalidActionError(f"experience is one of {', '.join(EXPERIENCE)}, not {experience!r}")
    area = str(action.args.get("area") or "").strip()[:40]
    source = "Initial OB" if run.state.initial else "added by its player"
    made = _new_units(run, side, kind, name, count, source, experience=experience, area=area)
    where = f" in {area}" if area else ""
    run.public(
        "units",
        f"{run.name(side)} roster: {_id_range(made)} {name} {kind}{f' ({experience})' if experience else ''}"
        f"{where} added ({source}).",
        side=side,
        units=[u.id for u in made],
    )


UNIT_CHANGES = ("status", "area", "experience", "name", "harden", *FLAGS)


def _update_units(run: _Run, action: Action) -> None:
    """A side records what happened to its units (Melee, Encirclement, Recombining, Battle Hardening ...)."""
    side = action.seat
    named = _named_units(run, side, _arg_str(action, "units"))
    if not named:
        raise InvalidActionError("name the units to change by id, e.g. units=B3,B4")
    changes = {key: str(value).strip() for key, value in action.args.items() if key in UNIT_CHANGES}
    unknown = sorted(set(action.args) - set(UNIT_CHANGES) - {"units", "note"})
    if unknown or not changes:
        raise InvalidActionError(
            f"change one or more of {', '.join(UNIT_CHANGES)}" + (f"; unknown: {', '.join(unknown)}" if unknown else "")
        )
    if "status" in changes and changes["status"].lower() not in STATUSES:
        raise InvalidActionError(f"status is one of {', '.join(STATUSES)}, not {changes['status']!r}")
    if "experience" in changes and changes["experience"].lower() not in EXPERIENCE:
        raise InvalidActionError(f"experience is one of {', '.join(EXPERIENCE)}, not {changes['experience']!r}")
    note = str(action.args.get("note") or "")[:100]
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


def _recombine(run: _Run, action: Action) -> None:
    """[9.6111] Two Retained half-squads alike (same counter, class, Walking Wounded state) in the same Setup Area
    recombine into a squad: the first becomes the squad, the second is marked recombined into it."""
    side = action.seat
    pair = _named_units(run, side, _arg_str(action, "units"))
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


def _areas(run: _Run, action: Action) -> None:
    """[9.605] A side enters its Setup Areas, the Strategic Locations it Controls and its Perimeter."""
    side, state = action.seat, run.state
    setup = _split_ids(str(action.args.get("setup") or ""))
    if not setup:
        raise InvalidActionError("name at least one Setup Area (a Block), e.g. setup=A,C", rule="9.605")
    roster = state.rosters[side]
    roster.setup_areas = [a[:20] for a in setup][:40]
    roster.strategic = [a[:20] for a in _split_ids(str(action.args.get("strategic") or ""))][:80]
    roster.perimeter = str(action.args.get("perimeter") or "")[:300]
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


def _cvp(run: _Run, action: Action) -> None:
    by = _arg_str(action, "by", action.seat)
    if by not in run.module.sides:
        raise InvalidActionError(f"'by' must be a side ({', '.join(run.module.sides)}), not {by!r}")
    amount = _arg_int(action, "amount")
    if amount <= 0:
        raise InvalidActionError(f"CVP awarded must be a positive number, not {amount}")
    last = _last_scenario(run.state)
    if last is None or run.state.initial or run.state.after_idle:
        raise IllegalActionError("CVP can only be awarded in the RePh that follows a CG Scenario", rule="9.6202")
    if run.state.step_data.get("pending_cvp"):
        raise IllegalActionError("a CVP award already waits for the other side's confirmation", rule="9.6202")
    other = run.other(action.seat)
    run.state.step_data["pending_cvp"] = {"by": by, "amount": amount, "from": action.seat, "note": _note(action)}
    run.public(
        "cvp_proposed",
        f"The {run.name(action.seat)} player awards {amount} CVP to the {run.name(by)} side during the RePh"
        f"{_note_text(action)}; the {run.name(other)} player confirms or rejects it (9.6202).",
        side=by,
        amount=amount,
    )


def _note(action: Action) -> str:
    return str(action.args.get("note") or action.args.get("label") or "")[:200]


def _note_text(action: Action) -> str:
    return f" ({_note(action)})" if _note(action) else ""


def _confirm_cvp(run: _Run, action: Action) -> None:
    """[9.6202] The other side agrees to a CVP award made during the RePh: it counts for the ELR roll."""
    state = run.state
    award = state.step_data.pop("pending_cvp")
    last = _last_scenario(state)
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


def _reject_cvp(run: _Run, action: Action) -> None:
    award = run.state.step_data.pop("pending_cvp")
    run.public(
        "cvp_rejected",
        f"The {run.name(action.seat)} player rejects the award of {award['amount']} CVP to the"
        f" {run.name(award['by'])} side; nothing is counted (award it again once you agree).",
    )


def _roll_cpp(run: _Run, action: Action) -> None:
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


def _done_quietly(run: _Run, side: Seat) -> None:
    data = run.state.step_data
    data["waiting"] = [s for s in data["waiting"] if s != side]


def _purchase(run: _Run, action: Action) -> None:
    """[9.617] A secret RG purchase, checked against CPP, CG Date and CG maximums."""
    side, state, module = action.seat, run.state, run.module
    roster = state.rosters[side]
    keys = _split_ids(str(action.args.get("rgs") or ""))
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


def _roll_rgs(run: _Run, action: Action) -> None:
    """[9.618] Secret strength, SW, leader and composition rolls for every RG not yet rolled for."""
    side, state, module = action.seat, run.state, run.module
    roster = state.rosters[side]
    results: list[dict[str, Any]] = []
    lines = [rg for rg in roster.rg_record if not rg.rolled]
    secret_id = f"S{len(state.secrets) + 1}"
    for rg in lines:
        entry = module.rg(side, rg.key)
        rg.rolled = True
        rg.rolls_secret = secret_id
        if entry is None:
            summary = f"{rg.key}: not in the RG chart; roll for it by hand once the chart is loaded"
            results.append({"rg": rg.key, "summary": summary})
            continue
        result: dict[str, Any] = {"rg": rg.key}
        extra = {"rg_class": entry.leader_class}
        full = True
        if entry.depletion:
            outcome = run.secret_roll(module.tables["rg_strength"], side, extra=extra)
            full = outcome.effect != "depleted"
            result["strength_roll"] = outcome.to_json()
        rg.strength = "F" if full else "D"
        count = entry.units_full if full else entry.units_depleted
        rg.units = f"{count} {entry.unit_type}".strip()
        sw_received: list[str] = []
        sw_rolls: list[dict[str, Any]] = []
        for item in module.sw_charts.get(side, {}).get(entry.id, ()):
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
        rg.sw = sw_received
        result["sw"] = sw_received
        result["sw_rolls"] = sw_rolls
        if entry.leader:
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
            rg.leaders = [leader]
            result["leader_roll"] = outcome.to_json()
            result["leader"] = leader
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
        results.append(result)
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


def _rg_units(run: _Run, side: Seat, rg: RgLine, entry: RgEntry, count: int, secret_id: str) -> list[str]:
    """[9.618] The units an RG brings, added to the roster (hidden from the other side until its rolls are
    revealed): its MMC, its SW, its leader and its vehicles."""
    source = f"RG {rg.key}, {rg.date}"
    made: list[Unit] = []
    if not entry.composition and count:
        kind = _mmc_kind(entry.unit_type)
        made += _new_units(run, side, kind, entry.type[:40], count, source, secret=secret_id)
    for weapon in rg.sw:
        made += _new_units(run, side, "sw", weapon, 1, source, secret=secret_id)
    for leader in rg.leaders:
        made += _new_units(run, side, "leader", leader, 1, source, secret=secret_id)
    for part in (p.strip() for p in rg.vehicles.split(",") if p.strip()):
        name, _, times = part.rpartition(" x")
        number = int(times) if times.isdigit() and name else 1
        made += _new_units(run, side, "vehicle", (name or part)[:40], number, source, secret=secret_id)
    return [u.id for u in made]


def _mmc_kind(unit_type: str) -> str:
    words = unit_type.lower()
    if "crew" in words:
        return "crew"
    if "hs" in words.split() or "half" in words:
        return "hs"
    return "squad"


def _fortify(run: _Run, action: Action) -> None:
    """[9.619] Secret Fortification purchase with the side's FPP; FPP unspent are forfeit."""
    side, state, module = action.seat, run.state, run.module
    roster = state.rosters[side]
    fpp = roster.fpp_given + roster.fpp_bought
    items: list[str] = []
    spent = 0
    for part in _split_ids(str(action.args.get("items") or "")):
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


def _choose_chit(run: _Run, action: Action) -> None:
    """[9.6213] A secret Initiative chit, within the CG's chit limits (9.62131)."""
    side, state = action.seat, run.state
    chit = _arg_str(action, "chit").lower()
    if chit not in CHITS:
        raise InvalidActionError(f"the chit must be 'attack' or 'idle', not {chit!r}", rule="9.6213")
    left = _chits_left(state, side, chit)
    if left == 0:
        limit = state.cg[f"{chit}_chits"][side]
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


def _report_end(run: _Run, action: Action) -> None:
    """[9.6211-9.6212] A side reports the end of the CG Scenario; the other side confirms it."""
    state, module = run.state, run.module
    cvp = {side: _arg_int(action, f"cvp_{side}", 0) for side in module.sides}
    for side, amount in cvp.items():
        if amount < 0:
            raise InvalidActionError(f"cvp_{side} cannot be negative")
    sudden = bool(action.args.get("sudden_death", False))
    winner = action.args.get("winner")
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
    notes = str(action.args.get("notes") or "")
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


def _initial_conditions(run: _Run, action: Action) -> dict[str, str]:
    """[9.6216] The Initial Scenario's weather, EC and wind as its card gives them, for the next date's DRMs."""
    given = {key: str(action.args[key]).lower() for key in CONDITIONS if action.args.get(key)}
    if given and not (run.state.record().initial and run.state.phase == "scenario"):
        raise IllegalActionError(
            "weather, EC and wind are given only for the CG Initial Scenario; the bot rolls them for the others",
            rule="9.6216",
        )
    for key, value in given.items():
        if value not in CONDITIONS[key]:
            raise InvalidActionError(f"{key} must be one of {', '.join(CONDITIONS[key])}, not {value!r}", rule="9.6216")
    return given


def _confirm_end(run: _Run, action: Action) -> None:
    state, module = run.state, run.module
    report = state.report or {}
    record = state.record()
    for key, value in report.get("conditions", {}).items():
        setattr(record, key, value)
    record.notes = report.get("notes", "")
    if record.kind == "scenario":
        record.cvp = dict(report["cvp"])
        for side in module.sides:
            state.rosters[side].line(state.date).cvp = record.cvp[side]
    state.report = None
    what = "the CG result" if report.get("back_to") == "victory" else f"the end of the {state.date} scenario"
    run.public("confirmed", f"The {run.name(action.seat)} player confirms {what}.")
    if report.get("sudden_death"):
        _end_campaign(run, report["winner"], f"Sudden Death victory for the {run.name(report['winner'])} (9.6212).")
        return
    if state.date == state.cg["end"]:
        winner = str(report.get("winner"))
        text = "The CG ends in a draw." if winner == "draw" else f"The CG ends: {run.name(winner)} victory."
        _end_campaign(run, None if winner == "draw" else winner, text)
        return
    state.phase = "refit"
    state.initial = False
    state.after_idle = False
    state.step = 0
    state.step_data = {}
    run.public("reph", f"The Refit Phase after the {state.date} CG Scenario begins.")


def _reject_end(run: _Run, action: Action) -> None:
    back = (run.state.report or {}).get("back_to", "scenario")
    run.state.report = None
    run.state.phase = back
    run.public("rejected", f"The {run.name(action.seat)} player rejects the reported end; report it again.")


def _reveal(run: _Run, action: Action) -> None:
    secret_id = _arg_str(action, "secret")
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


def _load_table(run: _Run, action: Action) -> None:
    text = _arg_str(action, "text")
    file = str(action.args.get("file") or "override.toml")
    side = action.args.get("side")
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


def _corrected(run: _Run, action: Action) -> None:
    """A moderator took actions back: what is sealed from now on gets fresh salts and fresh secret dice.

    ``epoch`` counts every action ever taken back in the game (the bot reads it from its log), so it only grows,
    even when a later correction takes back this very action.
    """
    state = run.state
    epoch = _arg_int(action, "epoch")
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
    "roll": _roll,
    "cvp": _cvp,
    "confirm_cvp": _confirm_cvp,
    "add_units": _add_units,
    "update_units": _update_units,
    "recombine": _recombine,
    "areas": _areas,
    "reject_cvp": _reject_cvp,
    "roll_cpp": _roll_cpp,
    "purchase": _purchase,
    "roll_rgs": _roll_rgs,
    "fortify": _fortify,
    "choose_chit": _choose_chit,
    "report_end": _report_end,
    "confirm_end": _confirm_end,
    "reject_end": _reject_end,
    "reveal": _reveal,
    "load_table": _load_table,
    "corrected": _corrected,
}


# --- Views and result -----------------------------------------------------------------------------------------


def view(state: CampaignState, seat: Seat | None) -> dict[str, Any]:
    """What a seat may see (``None``: the channel). A seat sees its own secrets, never the other's."""
    module = module_from_raw(state.module)
    revealed = state.revealed_ids()
    step = module.steps[state.step] if state.phase == "refit" else None
    current = prompts(state)
    secrets = []
    for secret in state.secrets:
        item: dict[str, Any] = {
            "id": secret.id,
            "owner": secret.owner,
            "kind": secret.kind,
            "rule": secret.rule,
            "date": secret.date,
            "receipt": secret.receipt,
            "revealed": secret.revealed,
        }
        if secret.revealed or secret.owner == seat:
            item["content"] = secret.content
        if secret.revealed:
            item["salt"] = salt_for(bytes.fromhex(state.seed), secret.id, secret.epoch)
        secrets.append(item)
    rosters = {
        side: (roster.private() if side == seat else roster.public(revealed)) for side, roster in state.rosters.items()
    }
    visible = {
        side: {u.id for u in roster.units if side == seat or u.secret is None or u.secret in revealed}
        for side, roster in state.rosters.items()
    }
    history = []
    for record in state.history:
        history.append(
            {
                "date": record.date,
                "kind": record.kind,
                "initial": record.initial,
                "scenario_type": record.scenario_type,
                "chits": dict(record.chits),
                "setup_first": record.setup_first,
                "move_first": record.move_first,
                "weather": record.weather,
                "ec": record.ec,
                "wind": record.wind,
                "wind_direction": record.wind_direction,
                "cvp": dict(record.cvp),
                "entered": {side: len([i for i in ids if i in visible[side]]) for side, ids in record.entered.items()},
                "returned": {
                    side: len([i for i in ids if i in visible[side]]) for side, ids in record.returned.items()
                },
            }
        )
    data: dict[str, Any] = {
        "module": {"id": module.id, "title": module.title},
        "cg": dict(state.cg),
        "date": state.date,
        "phase": state.phase,
        "initial": state.initial,
        "after_idle": state.after_idle,
        "step": {"rule": step.rule, "title": step.title, "text": step.text} if step else None,
        "waiting_for": sorted(current),
        "rosters": rosters,
        "history": history,
        "secrets": secrets,
        "rg_chart_status": module.rg_chart_status,
        "cgs_status": module.cgs_status,
        "overrides": list(state.overrides),
        "dice": {"commitment": hashlib.sha256(bytes.fromhex(state.seed)).hexdigest(), "rolls_made": state.rolls_made},
        "result": dict(state.result) if state.result else None,
    }
    if seat is not None and seat in current:
        prompt = current[seat]
        data["prompt"] = {"text": prompt.text, "secret": prompt.secret, "rule": prompt.rule}
    if state.phase == "over":
        data["seed"] = state.seed
    return data


def result(state: CampaignState) -> Result | None:
    """The CG's result once it is over, else ``None``."""
    if state.result is None:
        return None
    return Result(state.result.get("winner"), str(state.result.get("text", "")))
