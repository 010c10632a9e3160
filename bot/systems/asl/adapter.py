"""The Historical ASL campaign-game keeper as the bot uses it: :class:`AslAdapter` over :data:`SYSTEM`.

The engine runs the Refit Phase (RePh) between CG Scenarios; this adapter adds what the bot needs around the
engine contract (:class:`bot.service.game_service.SystemAdapter`): the state as JSON, autocomplete sources, information
texts (the CG roster and the RG Purchase Record, 9.6178) and the items a sealed purchase is made of.

Secrets stay sealed here too: every text for the channel is built from the public view
(``SYSTEM.view(state, None)``); a seat's private texts come from its own view, which holds its
own secrets and never the other side's. A public event that carries a sealed content (which the engine
never emits) is turned into a private one before it leaves the adapter.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.service.sealed import SealedDecision, sealed_in_events
from bot.store.records import ActionRow
from engine.asl import AslCampaignSystem, CampaignState
from engine.asl.module import Module, module_from_raw
from engine.asl.refit import CONDITIONS, ORGANISER
from engine.asl.rules_version import RULES_VERSION
from engine.asl.units import EXPERIENCE, KINDS
from engine.contract import Action, Event, InvalidActionError, Prompt, Result
from scenarios.asl import MODULES, module_text

SYSTEM = AslCampaignSystem(module_text)
"""The campaign-game keeper over the bundled modules (the loading is here, not in the engine)."""

OPTIONS: dict[str, str] = {
    "cg": "the CG played (an id of the module's CGs, or a free name)",
    "start": "the CG's first CG Date (e.g. 17N)",
    "end": "the CG's last CG Date",
    "elr": "each side's ELR in the CG Initial Scenario, e.g. allied=5 german=3",
    "san": "each side's SAN in the CG Initial Scenario, e.g. allied=3 german=4",
    "cpp": "CPP each side has for the initial RG purchase, e.g. allied=8 german=12",
    "fpp": "FPP each side has for the initial Fortification purchase",
    "attack_chits": "Attack chits each side may use in the CG (9.62131)",
    "idle_chits": "Idle chits each side may use in the CG (9.62131)",
    "initial_rgs": "RGs in the CG Initial Scenario OB (recorded, never counted against limits, 9.6178)",
    "ammo_level": "the starting Ammunition Shortage Level (SSR CG 17)",
}
"""The campaign's settings (``/campaign create``); the service checks option names against these."""

SIDE_OPTIONS = ("elr", "san", "cpp", "fpp", "attack_chits", "idle_chits")
"""Settings that give one whole number per side."""

PHASES = {
    "created": "waiting for a player to begin the campaign",
    "refit": "Refit Phase",
    "scenario": "a CG Scenario is being played (on the table or in VASL)",
    "confirm_end": "the end of the CG Scenario (or the CG result) was reported and awaits confirmation",
    "victory": "the CG's last date was Idle: the CG winner is reported per the CG Victory Conditions",
    "over": "the campaign is over",
}


@dataclass(frozen=True)
class BasketItem:
    """One thing a sealed purchase may hold: an RG of the chart (9.617) or a Fortification (9.619)."""

    key: str
    """What the engine's action names: ``I1(K)`` or ``ap-mine``."""
    label: str
    cost: int
    """CPP (an RG) or FPP (a Fortification) each."""
    most: int
    """How many one purchase may hold (the RG's per-date maximum; 35 for a Fortification)."""


class AslAdapter:
    """The ASL campaign-game keeper (see :class:`bot.service.game_service.SystemAdapter`)."""

    id = "asl"
    name = "ASL campaign game (Historical ASL Refit Phase)"
    campaign = True
    """Marks a campaign-game system for the campaign commands (``bot.campaign``)."""
    seals_own_secrets = True
    rules_version = RULES_VERSION
    """The engine posts one checkable receipt per sealed decision, so the service adds none of its own."""
    has_map = False
    """No map picture: the scenarios are played on the table or in VASL (nothing to post at the start)."""

    def __init__(self) -> None:
        self.seats: tuple[str, ...] = tuple(SYSTEM.seats)
        self.scenarios: tuple[str, ...] = tuple(MODULES)
        self.options: Mapping[str, str] = dict(OPTIONS)

    # --- The engine contract --------------------------------------------------------------------------

    def new_game(self, scenario: str, options: Mapping[str, Any], seed: bytes) -> CampaignState:
        return SYSTEM.new_game(scenario, options, seed)

    def prompts(self, state: CampaignState) -> dict[str, Prompt]:
        return {seat: _with_command_hint(prompt) for seat, prompt in SYSTEM.prompts(state).items()}

    def apply(self, state: CampaignState, action: Action) -> tuple[CampaignState, list[Event]]:
        new, events = SYSTEM.apply(state, action)
        return new, [_sealed_safe(event) for event in events]

    def view(self, state: CampaignState, seat: str | None) -> dict[str, Any]:
        return SYSTEM.view(state, seat if seat in self.seats else None)

    def result(self, state: CampaignState) -> Result | None:
        return SYSTEM.result(state)

    def state_to_json(self, state: CampaignState) -> Any:
        return SYSTEM.state_to_json(state)

    def state_from_json(self, data: Any) -> CampaignState:
        return SYSTEM.state_from_json(data)

    # --- Autocomplete ---------------------------------------------------------------------------------

    def suggest(
        self, state: CampaignState, seat: str | None, source: str, typed: str, given: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        """Suggestions: the current prompt's verbs, the step's tables, one's own sealed secrets, the module's
        tables (for the organiser), dates, sides and RGs."""
        module = module_from_raw(state.module)
        prompts = SYSTEM.prompts(state)
        prompt = prompts.get(seat) if seat is not None else None
        if source == "verb":
            if prompt is None:
                return []
            return [(v, v) for v in dict.fromkeys([*(c.verb for c in prompt.choices), *prompt.free_verbs, "reveal"])]
        if source == "step_table":
            view = SYSTEM.view(state, None)
            rule = (view.get("step") or {}).get("rule")
            step = next((s for s in module.steps if s.rule == rule), None)
            return [(f"{module.tables[t].title} ({t})", t) for t in (step.tables if step else ())]
        if source == "table":
            return [(f"{t.rule} {t.title} ({t.id})", t.id) for t in module.tables.values()]
        if source == "column":
            table = module.tables.get(str(given.get("table", "")))
            return [(c, c) for c in table.columns] if table else []
        if source == "own_secret":
            return [
                (f"{s.id}: {s.kind} {s.date} ({s.rule})", s.id)
                for s in state.secrets
                if s.owner == seat and not s.revealed and s.kind != "chit"
            ]
        if source == "side":
            return [(module.side_name(s), s) for s in module.sides]
        if source == "winner":
            return [*((module.side_name(s), s) for s in module.sides), ("draw", "draw")]
        if source == "date":
            return [(d.id, d.id) for d in module.dates]
        if source == "own_unit" and seat in state.rosters:
            before, _, last = typed.rpartition(",")
            chosen = {part.strip().lower() for part in before.split(",")}
            prefix = f"{before}," if before else ""
            return [
                (f"{prefix}{u.label()}", f"{prefix}{u.id}")
                for u in state.rosters[seat].units
                if u.status == "retained" and u.id.lower() not in chosen and last.strip().lower() in u.label().lower()
            ]
        if source == "unit_kind":
            return [(kind, kind) for kind in KINDS]
        if source == "experience":
            return [(level, level) for level in EXPERIENCE]
        if source in CONDITIONS:
            return [(value.replace("_", " "), value) for value in CONDITIONS[source]]
        if source == "basket":
            kind = basket_kind(prompt)
            if kind is None or seat is None:
                return []
            return [(f"{item.label}", item.key) for item in self.basket_items(state, seat, kind)]
        return []

    # --- Preview, information, pictures ---------------------------------------------------------------

    def preview(self, state: CampaignState, seat: str, verb: str, args: Mapping[str, Any]) -> str | None:
        """No action of the RePh needs a confirmation of odds."""
        return None

    def describe(self, state: CampaignState, seat: str | None, topic: str, key: str) -> str:
        """``status`` (public), ``roster`` (a side's CG roster: all of it for its owner, the public parts for
        anyone else), ``purchases`` (the RG Purchase Record, 9.6178, likewise) and ``secrets`` (the receipts).

        :raises InvalidActionError: for a map topic or an unknown side.
        """
        module = module_from_raw(state.module)
        if seat not in module.sides:
            seat = None
        if topic == "status":
            return status_text(state, module)
        if topic in ("roster", "purchases"):
            side = key.strip().lower() or seat
            if side is None:
                return "\n\n".join(self.describe(state, None, topic, s) for s in module.sides)
            if side not in module.sides:
                raise InvalidActionError(f"no side {key!r}; the sides are {', '.join(module.sides)}")
            view = SYSTEM.view(state, seat)
            roster = view["rosters"][side]
            if topic == "roster":
                return "\f".join(roster_pages(module, state, roster, private=side == seat))
            return purchase_record_text(module, roster, private=side == seat)
        if topic == "secrets":
            return secrets_text(module, SYSTEM.view(state, seat)["secrets"], seat)
        if topic in ("oob", "hex", "unit", "stack"):
            raise InvalidActionError(
                "an ASL campaign has no map in the bot (the scenarios are played on the table or in VASL): "
                "see `campaign roster` and `campaign purchases`"
            )
        raise InvalidActionError(f"nothing to say about {topic!r}")

    def picture(self, state: CampaignState, seat: str | None, events: Sequence[Mapping[str, Any]]) -> bytes | None:
        """No map: the bot keeps the campaign between scenarios."""
        return None

    def picture_due(self, events: Sequence[Mapping[str, Any]]) -> bool:
        return False

    def record_sections(self, state: CampaignState, seat: str | None, over: bool) -> dict[str, str]:
        """A campaign's record has no map (issue 34): it shows the CG rosters, the RG Purchase Records (9.6178)
        and the sealed receipts, as ``seat`` may read them (each side's own in full after the end)."""
        module = module_from_raw(state.module)
        sides = module.sides

        def each(topic: str) -> str:
            return "\n\n".join(self.describe(state, side if over else seat, topic, side) for side in sides)

        return {
            "Rosters": each("roster").replace("\f", "\n"),
            "Purchase records (9.6178)": each("purchases"),
            "Sealed receipts": self.describe(state, seat, "secrets", ""),
        }

    def sealed_decisions(self, actions: Sequence[ActionRow]) -> list[SealedDecision]:
        """Every purchase and secret the Refit Phase sealed (its ``sealed`` and ``reveal`` events)."""
        return sealed_in_events(actions)

    # --- Sealed purchases -----------------------------------------------------------------------------

    def basket_items(self, state: CampaignState, seat: str, kind: str) -> list[BasketItem]:
        """What a sealed purchase of ``kind`` (``purchase`` or ``fortify``) may hold for a side."""
        module = module_from_raw(state.module)
        if kind == "purchase":
            return [
                BasketItem(e.key, f"{e.key} {e.type} ({e.cost} CPP)", e.cost, e.date_max)
                for e in module.rg_chart
                if e.side == seat
            ]
        return [
            BasketItem(f.id, f"{f.name} ({f.cost[seat]} FPP)", f.cost[seat], 35)
            for f in module.fortifications
            if seat in f.cost
        ]

    def funds(self, state: CampaignState, seat: str, kind: str) -> tuple[int, str]:
        """The CPP (``purchase``) or FPP (``fortify``) a side may spend now: private to that side."""
        roster = state.rosters[seat]
        if kind == "purchase":
            return roster.cpp_available, "CPP"
        return roster.fpp_given + roster.fpp_bought, "FPP"


def basket_kind(prompt: Prompt | None) -> str | None:
    """``purchase`` or ``fortify`` when a prompt asks for a sealed purchase made of several items."""
    if prompt is None or not prompt.secret:
        return None
    for verb in ("purchase", "fortify"):
        if verb in prompt.free_verbs:
            return verb
    return None


BUY_HINTS = {"purchase": "I1,I1", "fortify": "trench,ap-mine=6"}
"""An example of the ``items`` a sealed purchase takes, by engine verb."""


def _with_command_hint(prompt: Prompt) -> Prompt:
    """A prompt names the command that answers it by typing: a sealed purchase (the menus do the same), 9.605's
    areas."""
    if "areas" in prompt.free_verbs:
        hint = " Enter them with `/campaign areas setup: strategic: perimeter:`."
        return dataclasses.replace(prompt, text=prompt.text + hint)
    kind = basket_kind(prompt)
    if kind is None:
        return prompt
    hint = f" Use the menus below, or type it: `/campaign buy items:{BUY_HINTS[kind]}`."
    return dataclasses.replace(prompt, text=prompt.text + hint)


def _sealed_safe(event: Event) -> Event:
    """A public event never carries a sealed content: anything else would be an engine bug, kept private."""
    if event.secret_to or event.kind == "reveal" or "content" not in event.data:
        return event
    owner = str(event.data.get("owner") or event.data.get("side") or ORGANISER)
    return Event(event.kind, event.text, event.data, secret_to=(owner,))


# --- Texts -------------------------------------------------------------------------------------------------


def status_text(state: CampaignState, module: Module) -> str:
    """Where the campaign stands, for the channel."""
    view = SYSTEM.view(state, None)
    cg = view["cg"]
    lines = [f"**{module.title}**, CG {cg['title']} ({cg['start']} to {cg['end']}): CG Date {view['date']}."]
    phase = PHASES.get(view["phase"], view["phase"])
    step = view.get("step")
    if step:
        phase += f", step {step['rule']} {step['title']}"
    if view["initial"] and view["phase"] == "refit":
        phase += " (before the CG Initial Scenario: only the † steps)"
    if view["after_idle"]:
        phase += " (repeating 9.612-9.620 after an Idle CG Date)"
    lines.append(f"Now: {phase}.")
    for side in module.sides:
        roster = view["rosters"][side]
        chits = roster["chits"]
        lines.append(
            f"{module.side_name(side)}: ELR {roster['elr']}, SAN {roster['san']}"
            + (f", Ammunition Shortage Level {roster['ammo_level']}" if side == module.ammo_side else "")
            + f"; chits used: {chits.get('attack', 0)} Attack, {chits.get('idle', 0)} Idle"
            + _limits(cg, side)
            + "."
        )
        if roster.get("areas_date"):
            lines.append(
                f"  Setup Areas after {roster['areas_date']}: {', '.join(roster['setup_areas'])}; Strategic Locations"
                f" {', '.join(roster['strategic']) or 'none'}"
                + (f"; Perimeter: {roster['perimeter']}" if roster["perimeter"] else "")
                + "."
            )
    done = [r for r in view["history"] if r["kind"] != "pending"]
    if done:
        lines.append("CG Dates: " + "; ".join(_date_line(module, r) for r in done) + ".")
    if view["rg_chart_status"] != "loaded":
        lines.append(f"RG chart: {view['rg_chart_status']}.")
    if view["overrides"]:
        lines.append("Organiser's corrections: " + "; ".join(view["overrides"]) + ".")
    sealed = [s for s in view["secrets"] if not s["revealed"]]
    if sealed:
        lines.append(f"Sealed: {len(sealed)} decision(s), receipts in `campaign purchases`.")
    return "\n".join(lines)


def _limits(cg: Mapping[str, Any], side: str) -> str:
    parts = []
    for chit in ("attack", "idle"):
        limits = cg.get(f"{chit}_chits") or {}
        if side in limits:
            parts.append(f"{limits[side]} {chit.title()}")
    return f" (CG limits: {', '.join(parts)})" if parts else ""


def _date_line(module: Module, record: Mapping[str, Any]) -> str:
    if record["kind"] == "idle":
        return f"{record['date']} Idle"
    kind = "Initial Scenario" if record["initial"] else _scenario_type(module, record.get("scenario_type"))
    cvp = ", ".join(f"{module.side_name(s)} {n}" for s, n in record["cvp"].items())
    return f"{record['date']} {kind}" + (f" (CVP {cvp})" if cvp else "")


def _scenario_type(module: Module, kind: str | None) -> str:
    if kind == "dual":
        return "Dual Assault"
    if kind and kind.endswith("_assault"):
        return f"{module.side_name(kind.removesuffix('_assault'))} Assault"
    return "scenario"


UNITS_PER_PAGE = 18
"""Unit lines on one page of the roster sheet (a Discord message holds 2,000 characters)."""


def roster_pages(module: Module, state: CampaignState, roster: Mapping[str, Any], private: bool) -> list[str]:
    """The roster sheet of a side as pages of at most ~1,900 characters: the summary and map state, the Retained
    units by Setup Area, the units gone, and what entered each scenario and what came back."""
    side = roster["side"]
    name = module.side_name(side)
    head = f"**{name} CG roster**" + (" (private)" if private else " (public parts)")
    summary = [
        head,
        f"ELR {roster['elr']}, SAN {roster['san']}"
        + (f", Ammunition Shortage Level {roster['ammo_level']}" if side == module.ammo_side else "")
        + f"; chits used: {roster['chits'].get('attack', 0)} Attack, {roster['chits'].get('idle', 0)} Idle.",
    ]
    if roster.get("areas_date"):
        summary.append(
            f"Map after the {roster['areas_date']} scenario (9.605): Setup Areas {', '.join(roster['setup_areas'])};"
            f" Strategic Locations {', '.join(roster['strategic']) or 'none'}"
            + (f"; Perimeter: {roster['perimeter']}" if roster["perimeter"] else "")
            + "."
        )
    else:
        summary.append("Map: no Setup Areas entered yet (they are entered in 9.605, after each scenario).")
    if private:
        summary.append(
            f"CPP left from the last purchase: {roster['cpp_left']}; available for the purchase in progress: "
            f"{roster['cpp_available']}; FPP: {roster['fpp_given']} given + {roster['fpp_bought']} bought."
        )
        table = ["Date  | CPP received | spent | left | CVP | chit   | Fortifications"]
        for line in roster["lines"]:
            table.append(
                f"{line['date']:<5} | {_dash(line['received']):>12} | {_dash(line['spent']):>5} | "
                f"{_dash(line['left']):>4} | {line['cvp']:>3} | {line['chit'] or '-':<6} | "
                f"{', '.join(line['fortifications']) or '-'}"
            )
    else:
        table = ["Date  | CVP | chit"]
        for line in roster["lines"]:
            table.append(f"{line['date']:<5} | {line['cvp']:>3} | {line['chit'] or '-'}")
    summary.append(_block(table))
    pages = ["\n".join(summary)]

    units = list(roster.get("units", []))
    retained = sorted((u for u in units if u["status"] == "retained"), key=lambda u: (u["area"], _unit_order(u)))
    gone = [u for u in units if u["status"] != "retained"]
    counts = ", ".join(f"{n} {kind}" for kind in UNIT_KINDS if (n := sum(1 for u in retained if u["kind"] == kind)))
    title = f"**{name} units Retained** ({len(retained)}: {counts or 'none'})"
    if not private:
        title += " - units from RGs whose rolls are still sealed are not shown"
    rows = [_unit_row(u) for u in retained] or ["(none recorded: add them with /campaign add-units)"]
    for start in range(0, len(rows), UNITS_PER_PAGE):
        chunk = rows[start : start + UNITS_PER_PAGE]
        pages.append(title + "\n" + _block(["Id      | Unit                 | Class    | State        | Area", *chunk]))
    if gone:
        lines = [f"{u['id']} {u['name']} {u['kind']}: {u['status']}" + _last(u) for u in gone]
        for start in range(0, len(lines), UNITS_PER_PAGE):
            pages.append(f"**{name} units gone** ({len(gone)})\n" + "\n".join(lines[start : start + UNITS_PER_PAGE]))
    report = [f"**{name} units by scenario** (what entered each CG Scenario and what came back)"]
    by_id = {u["id"]: u for u in units}
    for record in state.history:
        if record.kind != "scenario" or side not in record.entered:
            continue
        entered = [i for i in record.entered[side] if private or i in by_id]
        line = f"{record.date}: {len(entered)} entered"
        if side in record.returned:
            back = set(record.returned[side])
            lost = [i for i in entered if i not in back]
            line += f", {len(entered) - len(lost)} came back"
            if lost:
                line += "; lost: " + ", ".join(f"{i} {by_id[i]['name']}" for i in lost if i in by_id)
        else:
            line += " (the scenario is being played or its RePh has not reached 9.612)"
        report.append(line)
    if len(report) == 1:
        report.append("(no CG Scenario played yet)")
    pages.append("\n".join(report))
    return [page[:1950] for page in pages]


UNIT_KINDS = ("squad", "hs", "crew", "leader", "hero", "sw", "gun", "vehicle")


def _unit_order(unit: Mapping[str, Any]) -> tuple[int, int]:
    kind = UNIT_KINDS.index(unit["kind"]) if unit["kind"] in UNIT_KINDS else len(UNIT_KINDS)
    number = int(unit["id"][1:]) if unit["id"][1:].isdigit() else 0
    return kind, number


def _unit_row(unit: Mapping[str, Any]) -> str:
    marks = [m for m in ("wounded", "hardened", "malfunctioned", "immobilized", "stunned") if unit.get(m)]
    what = f"{unit['name']} {unit['kind']}"
    return (
        f"{unit['id']:<7} | {what[:20]:<20} | {unit['experience'] or '-':<8} | {', '.join(marks)[:12] or '-':<12} | "
        f"{unit['area'] or '-'}"
    )


def _last(unit: Mapping[str, Any]) -> str:
    history = unit.get("history") or []
    return f" - {history[-1]}" if history else ""


def _block(lines: Sequence[str]) -> str:
    return "```\n" + "\n".join(lines) + "\n```"


def purchase_record_text(module: Module, roster: Mapping[str, Any], private: bool) -> str:
    """The RG Purchase Record (9.6178): every line for its owner; the revealed ones for anyone else."""
    side = roster["side"]
    head = f"**{module.side_name(side)} RG Purchase Record** (9.6178)" + (
        " (private)" if private else " (what has been revealed)"
    )
    lines = [head, "Date | RG | type | P/OB | CPP | #P | #R | F/D | units | SW | leaders | vehicles"]
    for rg in roster["rg_record"]:
        lines.append(
            f"{rg['date']} | {rg['key']} | {rg['type']} | {'P' if rg['purchased'] else 'OB'} | {rg['cost']} | "
            f"{_dash(rg['number_purchased'])} | {_dash(rg['number_remaining'])} | {rg['strength'] or '-'} | "
            f"{rg['units'] or '-'} | {', '.join(rg['sw']) or '-'} | {', '.join(rg['leaders']) or '-'} | "
            f"{rg['vehicles'] or '-'}"
        )
    if len(lines) == 2:
        lines.append("(nothing recorded" + ("" if private else " or revealed") + " yet)")
    return "\n".join(lines)


def secrets_text(module: Module, secrets: Sequence[Mapping[str, Any]], seat: str | None) -> str:
    """Every sealed decision with its receipt; contents only for their owner or once revealed."""
    if not secrets:
        return "No sealed decision yet."
    lines = ["**Sealed decisions** (receipt: SHA-256 of the content with its salt, checkable after the reveal)"]
    for s in secrets:
        state = "revealed" if s["revealed"] else "sealed"
        line = (
            f"{s['id']} {module.side_name(s['owner'])} {s['kind']} {s['date']} ({s['rule']}), {state}: `{s['receipt']}`"
        )
        if "content" in s and (s["revealed"] or s["owner"] == seat):
            line += f" - {_content(s['kind'], s['content'])}"
        lines.append(line)
    return "\n".join(lines)


def _content(kind: str, content: Mapping[str, Any]) -> str:
    if kind == "chit":
        return f"{content['chit']} chit"
    if kind == "cpp":
        return f"DR {content['dice']} + Base # {content['base']} = {content['received']} CPP"
    if kind == "rg_purchase":
        return f"{', '.join(content['rgs']) or 'no RG'}; {content['spent']} CPP spent, {content['left']} left"
    if kind == "fortifications":
        return ", ".join(content["items"]) or "no Fortification"
    if kind == "rg_rolls":
        return "; ".join(r["summary"] for r in content["results"]) or "nothing to roll"
    return str(dict(content))


def _dash(value: object) -> str:
    return "-" if value is None else str(value)


def parse_side_numbers(text: str, sides: Sequence[str], what: str) -> dict[str, int]:
    """``allied=5 german=3`` (or ``allied:5, german:3``) into ``{"allied": 5, "german": 3}``.

    :raises InvalidActionError: naming the piece that cannot be read.
    """
    found: dict[str, int] = {}
    for side, value in parse_side_values(text, sides, what).items():
        try:
            found[side] = int(value)
        except ValueError:
            raise InvalidActionError(f"{what}: {side} needs a whole number, not {value!r}") from None
    return found


def parse_side_values(text: str, sides: Sequence[str], what: str) -> dict[str, str]:
    """``allied=I1,I2 german=I1(K)`` into ``{"allied": "I1,I2", "german": "I1(K)"}``.

    :raises InvalidActionError: naming the piece that cannot be read.
    """
    found: dict[str, str] = {}
    for piece in text.replace(";", " ").split():
        side, sep, value = piece.replace(":", "=", 1).partition("=")
        side = side.strip().lower().rstrip(",")
        if not sep or not value.strip(","):
            raise InvalidActionError(f"{what}: write side=value for each side ({', '.join(sides)}), not {piece!r}")
        if side not in sides:
            raise InvalidActionError(f"{what}: no side {side!r}; the sides are {', '.join(sides)}")
        found[side] = value.strip(",")
    return found
