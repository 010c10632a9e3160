"""4.0 Board game phases: the series as prompts and actions, in the order of 4.1 and 4.2.

Phases (``state.phase``):

- ``basing`` (1.3, 1.4): both sides seal a basing plan (``basing {plan}``); revealed together;
- ``offensive_corps``, ``offensive_hq`` (2.31, 3.2, 4.1a-b): the German Ardennes Offensive, German only;
- ``redeploy`` (1.5c, 4.1c, 4.2p): both sides may move steps (``redeploy``) and squads (``rebase``), then ``done``;
- ``report`` (4.2d): the campaign manager (seat ``cm``) enters the flown frame's report (``report {text}``);
- ``dispute``: both Frame COs ``accept`` or ``dispute {reason}`` within the window (:mod:`.window`); the CM may
  ``correct {text}`` or ``close``; the clock's ``expire`` ends the window: silence is acceptance, an open
  dispute waits for the CM; the report is then applied (4.2e-h) and scored. The CM sets the window's length
  with ``window {hours}`` while a report is due or in dispute;
- ``designate`` (4.2i): both sides seal up to four battles (``designate {battles}``); revealed together, every
  die rolled before any result (2.4h);
- ``retreat`` (2.45): owners step their retreating units (``retreat {unit, to}``);
- ``breakthrough_allied``, ``breakthrough_german`` (2.46): ``advance {unit, to}``, then ``done``;
- ``move_allied_corps``, ``blitz`` (3.4, 4.2l), ``move_german_corps``, ``move_allied_hq``, ``move_german_hq``
  (2.3l-m, 4.2k-o): ``move {unit, to}`` then ``done``; the frontline is checked after each (2.2c);
- ``declare`` (3.3, 4.2q): the Germans ``declare {operation}`` (bodenplatte, bigblow or none);
- ``operation_basing`` (1.4, 3.3b): after a Big Blow or Bodenplatte whose rebasing the Allied plan does not
  already meet, the Allies base the squads that must move for that frame (``basing {plan}``, those squads only);
  the frame's report puts them back;
- ``over``: after the last frame's report, the final score and band (5.1).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from typing import Any, cast

from engine import arguments
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
from engine.hexgrid import hex_name
from engine.sealing import receipt_for, salt_for, sealed_text
from engine.wargame_commander import air, combat, ground, scoring, special, window
from engine.wargame_commander.board import Board, parse_board
from engine.wargame_commander.records import Battle, FrameReport, Phase, SealedDecision
from engine.wargame_commander.report import parse_report
from engine.wargame_commander.state import DepotState, FieldState, SeriesState, UnitState, board_of

CM: Seat = "cm"
"""The campaign manager: a moderator who enters the frame reports (4.2d)."""

MOVEMENT_PHASES: dict[Phase, tuple[str, bool]] = {
    "offensive_corps": ("german", False),
    "offensive_hq": ("german", True),
    "move_allied_corps": ("allied", False),
    "move_german_corps": ("german", False),
    "move_allied_hq": ("allied", True),
    "move_german_hq": ("german", True),
}
"""2.3l-m, 2.31: who moves in each movement phase, and whether it is the HQs (else the corps)."""

BREAKTHROUGH_PHASES: dict[str, Phase] = {"allied": "breakthrough_allied", "german": "breakthrough_german"}
"""2.46, 4.2j: each side's breakthrough movement phase."""

NEXT_PHASE: dict[Phase, Phase] = {
    "offensive_corps": "offensive_hq",
    "offensive_hq": "redeploy",
    "move_allied_corps": "blitz",
    "blitz": "move_german_corps",
    "move_german_corps": "move_allied_hq",
    "move_allied_hq": "move_german_hq",
    "move_german_hq": "redeploy",
}

PHASE_NAMES: dict[Phase, str] = {
    "basing": "basing plans (1.3)",
    "offensive_corps": "German Ardennes Offensive: German corps (4.1a)",
    "offensive_hq": "German Ardennes Offensive: German Army HQs (4.1b)",
    "redeploy": "aircraft steps redeployed (4.1c / 4.2p)",
    "report": "frame report (4.2d)",
    "dispute": "frame report dispute window (4.2d)",
    "designate": "attack designation (4.2i)",
    "retreat": "retreats (4.2j, 2.45)",
    "breakthrough_allied": "Allied breakthrough movement (4.2j, 2.46)",
    "breakthrough_german": "German breakthrough movement (4.2j, 2.46)",
    "move_allied_corps": "Allied corps movement (4.2k)",
    "blitz": "German Blitz designation (4.2l)",
    "move_german_corps": "German corps movement (4.2m)",
    "move_allied_hq": "Allied Army HQ movement (4.2n)",
    "move_german_hq": "German Army HQ movement (4.2o)",
    "declare": "Bodenplatte / Big Blow declaration (4.2q)",
    "operation_basing": "Allied basing for the declared operation (1.4, 3.3b)",
    "over": "the series is over (5.1)",
}


def salt_id(secret_id: str) -> str:
    """The id a sealed decision's salt is derived from (:func:`engine.sealing.salt_for`): ``wc:`` and its id, so
    that a series' salts never meet another system's. The reveal's details carry it for a check."""
    return f"wc:{secret_id}"


def new_game(board_raw: Mapping[str, Any], seed: bytes) -> SeriesState:
    """A series on a board document (checked: :class:`engine.wargame_commander.board.BoardError`)."""
    board = parse_board(board_raw)
    state = SeriesState(board=json.loads(json.dumps(board_raw)), seed=seed.hex())
    state.units = {u.id: UnitState(u.id, u.hex) for u in board.units.values()}
    state.fields = {f.id: FieldState(f.side, dict(f.steps)) for f in board.airfields.values()}
    state.depots = {d.id: DepotState(str(d.side)) for d in board.depots.values()}
    state.pool = {side: {} for side in board.sides}
    return state


class _Run:
    """One action being applied: the new state, the board and the events so far."""

    def __init__(self, state: SeriesState) -> None:
        # The board document is never changed: the new state shares it.
        self.state = copy.deepcopy(state, memo={id(state.board): state.board})
        self.board: Board = board_of(state)
        self.events: list[Event] = []

    def say(self, kind: str, text: str, secret_to: tuple[Seat, ...] = (), **data: Any) -> None:
        self.events.append(Event(kind, text, data, secret_to))

    def name(self, unit_id: str) -> str:
        return self.board.units[unit_id].name

    def goto(self, phase: Phase) -> None:
        self.state.phase = phase
        self.state.moved = []
        self.state.done = []
        self.say("phase", f"Now: {PHASE_NAMES[phase]}, before frame {self.state.frame}.", phase=phase)

    def score(self, side: str, points: float, rule: str, source: str, text: str) -> None:
        if points:
            line = scoring.score(self.state, side, points, rule, source, text)
            self.say("score", f"{side.title()} +{points:g} ({rule}): {text}.", line=line)

    # --- Sealing -----------------------------------------------------------------------------------------

    def seal(self, owner: str, kind: str, content: Any, rule: str) -> None:
        secret_id = f"WC{len(self.state.secrets) + 1}"
        epoch = self.state.epoch
        receipt = receipt_for(content, salt_for(bytes.fromhex(self.state.seed), salt_id(secret_id), epoch))
        self.state.secrets.append(
            {
                "id": secret_id,
                "owner": owner,
                "kind": kind,
                "frame": self.state.frame,
                "rule": rule,
                "content": copy.deepcopy(content),
                "receipt": receipt,
                "revealed": False,
                "epoch": epoch,
            }
        )
        self.say(
            "sealed",
            f"The {owner.title()} side has sealed its {kind} ({rule}); receipt {receipt}.",
            secret=secret_id,
            owner=owner,
            receipt=receipt,
        )
        self.say(
            "sealed_content",
            f"Your sealed {kind}: {json.dumps(content)}.",
            secret_to=(owner,),
            secret=secret_id,
            content=content,
        )

    def sealed(self, kind: str) -> dict[str, SealedDecision]:
        return {
            s["owner"]: s
            for s in self.state.secrets
            if s["kind"] == kind and s["frame"] == self.state.frame and not s["revealed"]
        }

    def reveal(self, secret: SealedDecision) -> None:
        secret["revealed"] = True
        salt = salt_for(bytes.fromhex(self.state.seed), salt_id(secret["id"]), int(secret.get("epoch", 0)))
        self.say(
            "reveal",
            f"Revealed {secret['id']} ({secret['owner'].title()} {secret['kind']}): {json.dumps(secret['content'])} "
            f"(receipt {secret['receipt'][:16]}...: the attached file holds its salt and exact sealed text).",
            secret=secret["id"],
            owner=secret["owner"],
            content=secret["content"],
            salt=salt,
            receipt=secret["receipt"],
            details={
                "id": secret["id"],
                "salt_id": salt_id(secret["id"]),
                "epoch": int(secret.get("epoch", 0)),
                "receipt": secret["receipt"],
                "sealed": sealed_text(secret["content"], salt),
            },
        )

    # --- Dice --------------------------------------------------------------------------------------------

    def two_d6(self) -> tuple[int, int]:
        dice = Dice(bytes.fromhex(self.state.seed), self.state.rolls_made)
        rolled = dice.two_d6()
        self.state.rolls_made = dice.rolls_made
        return rolled

    # --- Moving units ------------------------------------------------------------------------------------

    def place(self, unit_id: str, to: int) -> None:
        """Put a unit in a hex and capture what it holds (1.5c, 5.1)."""
        unit = self.state.units[unit_id]
        if self.board.is_sea(to):
            neighbours = [n for n in self.board.grid.neighbours(to) if not self.board.is_sea(n)]
            origin = unit.hex or to
            unit.sea_entry = min(neighbours, key=lambda n: (self.board.grid.distance(n, origin), n))
        else:
            unit.sea_entry = None
        unit.hex = to
        side = self.board.units[unit_id].side
        for change in air.capture_at(self.state, self.board, side, to):
            if change["kind"] == "depot":
                depot = self.board.depots[change["id"]]
                verb = "recaptured" if depot.side == side else "captured"
                self.score(
                    side,
                    self.board.scoring.depot_captured,
                    "5.1",
                    f"{unit_id}@{hex_name(to)}",
                    f"{self.name(unit_id)} {verb} the {depot.name} supply depot",
                )
            else:
                field = self.board.airfields[change["id"]]
                self.say(
                    "capture",
                    f"{self.name(unit_id)} captured {field.name}; its aircraft steps go to the "
                    f"{change['from'].title()} force pool (1.5c).",
                    airfield=field.id,
                    unit=unit_id,
                )

    def surrender(self, unit_id: str, why: str) -> None:
        unit = self.state.units[unit_id]
        where = unit.hex
        unit.hex = None
        unit.blitz_active = False
        side = self.board.units[unit_id].side
        self.say(
            "surrender", f"{self.name(unit_id)} surrenders ({why}) and is removed from play.", unit=unit_id, hex=where
        )
        self.score(
            self.board.enemy(side),
            self.board.scoring.surrender,
            "5.1",
            unit_id,
            f"{self.name(unit_id)} forced to surrender",
        )

    def check_frontlines(self, score_breaks: bool, sides: tuple[str, ...] = ()) -> None:
        """2.2c after every movement phase; 5.1 breaks scored after the last one of the board phase, for the
        frontlines of ``sides`` (every side when empty): those whose side has had a movement phase."""
        for side in self.board.sides:
            breaks, gaps = ground.frontline_breaks(self.state, self.board, side)
            self.state.frontline[side] = breaks
            words = "holds" if breaks == 0 else f"has {breaks} break(s) at {', '.join(hex_name(h) for h in gaps)}"
            self.say("frontline", f"{side.title()} frontline {words} (2.2c).", side=side, breaks=breaks, gaps=gaps)
            if score_breaks and breaks and side in (sides or self.board.sides):
                self.score(
                    self.board.enemy(side),
                    breaks * self.board.scoring.frontline_break,
                    "5.1",
                    f"frontline {side}",
                    f"{breaks} break(s) in the {side.title()} frontline after movement",
                )


# --- Prompts -----------------------------------------------------------------------------------------------


def prompts(state: SeriesState) -> dict[Seat, Prompt]:
    """What each seat (the two sides and the campaign manager ``cm``) must decide now."""
    board = board_of(state)
    if state.phase in MOVEMENT_PHASES:
        return _movement_prompts(state, board)
    ask = _PHASE_PROMPTS.get(state.phase)
    return ask(state, board) if ask is not None else {}


def _basing_prompts(state: SeriesState, board: Board) -> dict[Seat, Prompt]:
    """1.3: each side seals its basing plan."""
    found: dict[Seat, Prompt] = {}
    sealed = {s["owner"] for s in state.secrets if s["kind"] == "basing plan"}
    for side in board.sides:
        if side not in sealed:
            found[side] = Prompt(
                side,
                "Seal your basing plan: squad@airfield=steps, ... (1.3, 1.4).",
                free_verbs=("basing",),
                secret=True,
                rule="1.3",
            )
    return found


def _movement_prompts(state: SeriesState, board: Board) -> dict[Seat, Prompt]:
    """2.3: the side whose units move in this movement phase."""
    phase = state.phase
    found: dict[Seat, Prompt] = {}
    side, hqs = MOVEMENT_PHASES[phase]
    what = "Army HQs" if hqs else "corps"
    found[side] = Prompt(
        side,
        f"Move your {what} (move unit to), then say done ({PHASE_NAMES[phase]}).",
        choices=(Choice("done", {}, "done moving"),),
        free_verbs=("move",),
        rule="2.3",
    )
    return found


def _redeploy_prompts(state: SeriesState, board: Board) -> dict[Seat, Prompt]:
    """1.5c: each side redeploys steps and squads, then says done."""
    found: dict[Seat, Prompt] = {}
    for side in board.sides:
        if side not in state.done:
            found[side] = Prompt(
                side,
                "Redeploy aircraft steps (redeploy) or squads (rebase), then done (1.5c).",
                choices=(Choice("done", {}, "done redeploying"),),
                free_verbs=("redeploy", "rebase"),
                rule="1.5c",
            )
    return found


def _report_prompts(state: SeriesState, board: Board) -> dict[Seat, Prompt]:
    """4.2d: the campaign manager enters the flown frame's report."""
    found: dict[Seat, Prompt] = {}
    found[CM] = Prompt(
        CM,
        f"Enter the report of frame {state.frame} (CSV or JSON, 4.2d). {special.unchecked(state, board)}",
        free_verbs=("report", "window"),
        rule="4.2d",
    )
    return found


def _dispute_prompts(state: SeriesState, board: Board) -> dict[Seat, Prompt]:
    """4.2d: the sides accept or dispute the report; the campaign manager may correct it or close."""
    found: dict[Seat, Prompt] = {}
    for side in board.sides:
        if side not in state.report_answers and not state.window_closed:
            found[side] = Prompt(
                side,
                f"Accept or dispute the report of frame {state.frame} (4.2d).",
                choices=(Choice("accept", {}, "accept"),),
                free_verbs=("dispute",),
                rule="4.2d",
            )
    found[CM] = Prompt(
        CM,
        "Correct the report, or close the dispute window to apply it.",
        choices=(Choice("close", {}, "close the window"),),
        free_verbs=("correct", "window"),
        rule="4.2d",
        optional=not state.window_closed and any(s not in state.report_answers for s in board.sides),
    )
    return found


def _designate_prompts(state: SeriesState, board: Board) -> dict[Seat, Prompt]:
    """4.2i: each side seals its battles."""
    found: dict[Seat, Prompt] = {}
    sealed = {s["owner"] for s in state.secrets if s["kind"] == "attack designation" and s["frame"] == state.frame}
    for side in board.sides:
        if side not in sealed:
            found[side] = Prompt(
                side,
                "Seal up to four battles: defender:attacker+attacker; ... (4.2i).",
                free_verbs=("designate",),
                secret=True,
                rule="4.2i",
            )
    return found


def _retreat_prompts(state: SeriesState, board: Board) -> dict[Seat, Prompt]:
    """2.45: the retreating unit's side picks its next hex."""
    found: dict[Seat, Prompt] = {}
    entry = state.retreats[0]
    side = board.units[entry["unit"]].side
    options = combat.retreat_options(state, board, entry["unit"], entry["path"])
    found[side] = Prompt(
        side,
        f"Retreat {board.units[entry['unit']].name}: {entry['left']} hex(es) left (2.45).",
        choices=tuple(Choice("retreat", {"unit": entry["unit"], "to": hex_name(h)}, hex_name(h)) for h in options),
        rule="2.45",
    )
    return found


def _breakthrough_prompts(state: SeriesState, board: Board) -> dict[Seat, Prompt]:
    """2.46: the side whose breakthrough movement it is."""
    phase = state.phase
    found: dict[Seat, Prompt] = {}
    side = phase.removeprefix("breakthrough_")
    found[side] = Prompt(
        side,
        "Breakthrough movement (advance unit to), then done (2.46).",
        choices=(Choice("done", {}, "done"),),
        free_verbs=("advance",),
        rule="2.46",
    )
    return found


def _blitz_prompts(state: SeriesState, board: Board) -> dict[Seat, Prompt]:
    """3.4a: the Germans name the corps that Blitz."""
    found: dict[Seat, Prompt] = {}
    found["german"] = Prompt(
        "german",
        "Name the Panzer/SS corps that Blitz (blitz units), or none (3.4a).",
        choices=(Choice("blitz", {"units": ""}, "no Blitz"),),
        free_verbs=("blitz",),
        rule="3.4a",
    )
    return found


def _operation_basing_prompts(state: SeriesState, board: Board) -> dict[Seat, Prompt]:
    """1.4, 3.3b: the Allies base anew the squads the declared operation moves."""
    found: dict[Seat, Prompt] = {}
    operation = state.declaration["operation"] if state.declaration else ""
    rule = "1.4" if operation == "bigblow" else "3.3b"
    must = (
        "every strike and bomber squad at the heavy bomber fields in England"
        if operation == "bigblow"
        else "every squad on the mainland"
    )
    found["allied"] = Prompt(
        "allied",
        f"Base the squads that must move for this frame ({must}): squad@airfield=steps, ... ({rule}).",
        free_verbs=("basing",),
        rule=rule,
    )
    return found


def _declare_prompts(state: SeriesState, board: Board) -> dict[Seat, Prompt]:
    """3.3, 4.2q: the Germans declare an operation, or none."""
    found: dict[Seat, Prompt] = {}
    allowed = special.declarable(state, board)
    found["german"] = Prompt(
        "german",
        "Declare Operation Bodenplatte, The Big Blow, or nothing (3.3, 4.2q).",
        choices=tuple(Choice("declare", {"operation": op}, op) for op in (*allowed, "none")),
        rule="3.3",
    )
    return found


_PHASE_PROMPTS: dict[Phase, Callable[[SeriesState, Board], dict[Seat, Prompt]]] = {
    "basing": _basing_prompts,
    "redeploy": _redeploy_prompts,
    "report": _report_prompts,
    "dispute": _dispute_prompts,
    "designate": _designate_prompts,
    "retreat": _retreat_prompts,
    "breakthrough_allied": _breakthrough_prompts,
    "breakthrough_german": _breakthrough_prompts,
    "blitz": _blitz_prompts,
    "operation_basing": _operation_basing_prompts,
    "declare": _declare_prompts,
}
"""Who is asked what in each phase but the movement phases (nobody once the series is over)."""


# --- Applying actions ----------------------------------------------------------------------------------------


def apply(state: SeriesState, action: Action) -> tuple[SeriesState, list[Event]]:
    """Apply one seat's action; the input state is never changed.

    :raises InvalidActionError: for an unknown verb or unreadable arguments.
    :raises NotYourTurnError: when the seat has nothing to decide now.
    :raises IllegalActionError: when the rules forbid it, with the rule number.
    """
    if state.phase == "over":
        raise IllegalActionError("the series is over", "5.1")
    if action.verb == "corrected" and action.seat == CM:
        run = _Run(state)
        _corrected(run, action)
        return run.state, run.events
    handler = _HANDLERS.get(action.verb)
    if handler is None:
        raise InvalidActionError(f"unknown action {action.verb!r}; known: {', '.join(sorted(_HANDLERS))}")
    prompt = prompts(state).get(action.seat)
    if prompt is None:
        raise NotYourTurnError(f"the {action.seat} seat has nothing to decide now ({PHASE_NAMES[state.phase]})")
    # The clock's verb closes a dispute window: nobody is asked for it, the CM's seat carries it (4.2d).
    allowed = {c.verb for c in prompt.choices} | set(prompt.free_verbs) | ({"expire"} if action.seat == CM else set())
    if action.verb not in allowed:
        raise NotYourTurnError(f"{action.verb!r} is not asked for now; asked: {', '.join(sorted(allowed))}")
    run = _Run(state)
    handler(run, action)
    return run.state, run.events


def _basing(run: _Run, action: Action) -> None:
    if run.state.phase == "operation_basing":
        _operation_basing(run, action)
        return
    plan = air.parse_basing(arguments.text(action.args, "plan"))
    air.check_basing(run.state, run.board, action.seat, plan)
    run.seal(action.seat, "basing plan", plan, "1.3")
    sealed = run.sealed("basing plan")
    if len(sealed) == len(run.board.sides):
        for side, secret in sealed.items():
            run.reveal(secret)
            run.state.basing[side] = copy.deepcopy(secret["content"])  # a rebase later must not change what was sealed
        run.goto("offensive_corps")


def _move(run: _Run, action: Action) -> None:
    side, hqs = MOVEMENT_PHASES[run.state.phase]
    # The bot's shared `move` command names its option `units` (one unit here).
    unit_id = arguments.optional_text(action.args, "unit") or arguments.optional_text(action.args, "units") or ""
    if not unit_id or "," in unit_id:
        raise InvalidActionError("move one unit at a time: `/move units:us-8 to:1412`", "2.3")
    spec = run.board.units.get(unit_id)
    if spec is None or spec.side != side or run.state.units[unit_id].hex is None:
        raise IllegalActionError(f"{unit_id!r} is not one of your units on the board", "2.3")
    if (spec.type == "hq") != hqs:
        rule = "2.3m" if hqs else "2.3l"
        raise IllegalActionError(f"{spec.name} moves in the {'HQ' if spec.type == 'hq' else 'corps'} phase", rule)
    to = arguments.hex_number(action.args, "to", run.board.grid)
    cost = ground.check_move(run.state, run.board, unit_id, to)
    origin = run.state.units[unit_id].hex
    run.place(unit_id, to)
    run.state.moved.append(unit_id)
    run.say(
        "move",
        f"{spec.name} moves {hex_name(origin or 0)} to {hex_name(to)} ({cost} MP).",
        unit=unit_id,
        path=[origin, to],
    )


def _done(run: _Run, action: Action) -> None:
    phase = run.state.phase
    if phase == "redeploy":
        run.state.done.append(action.seat)
        if len(run.state.done) == len(run.board.sides):
            _end_board_phase(run)
        return
    if phase.startswith("breakthrough_"):
        run.state.breakthroughs = [b for b in run.state.breakthroughs if b["side"] != action.seat]
        if phase == "breakthrough_allied":
            _start_breakthrough(run, "german")
        else:
            _after_breakthroughs(run)
        return
    last = phase in ("offensive_hq", "move_german_hq")
    # W-29: after the Offensive only the Germans have moved; the Allied frontline's breaks are not "remaining"
    # after a movement of theirs (2.31, 3.2: they cannot move before frame 1), so they score from frame 2 on.
    scored = ("german",) if phase == "offensive_hq" else tuple(run.board.sides)
    run.check_frontlines(score_breaks=last, sides=scored)
    if last:
        for unit in run.state.units.values():
            unit.engaged = False  # 2.47: the subsequent movement phase is over
    nxt = NEXT_PHASE[phase]
    run.goto(nxt)
    if nxt == "move_german_corps":
        special.blitz_movement_check(run.state, run.board, run.events)


def _redeploy(run: _Run, action: Action) -> None:
    type_ = arguments.text(action.args, "type")
    count = arguments.whole(action.args, "count")
    source = arguments.optional_text(action.args, "from") or arguments.optional_text(action.args, "source") or "pool"
    to = arguments.text(action.args, "to")
    air.check_redeploy(run.state, run.board, action.seat, type_, count, source, to)
    if source == "pool":
        run.state.pool[action.seat][type_] -= count
    else:
        run.state.fields[source].steps[type_] -= count
    target = run.state.fields[to]
    target.steps[type_] = target.steps.get(type_, 0) + count
    run.say("redeploy", f"{action.seat.title()}: {count} {type_} step(s) from {source} to {to} (1.5c).")


def _rebase(run: _Run, action: Action) -> None:
    squad_id, to = arguments.text(action.args, "squad"), arguments.text(action.args, "to")
    source = arguments.optional_text(action.args, "from") or arguments.optional_text(action.args, "source") or "unbased"
    steps = arguments.whole(action.args, "steps")
    if squad_id not in run.board.squads or run.board.squads[squad_id].side != action.seat:
        raise IllegalActionError(f"no {action.seat} squad {squad_id!r}", "1.5d")
    if to not in run.board.airfields:
        raise IllegalActionError(f"no airfield {to!r}", "1.5d")
    air.check_rebase(run.board, source, to)
    plan = copy.deepcopy(run.state.basing.get(action.seat, {}))
    placed = plan.get(squad_id, {})
    if placed.get(source, 0) < steps and source != "unbased":
        raise IllegalActionError(f"{squad_id} has {placed.get(source, 0)} step(s) at {source}", "1.5d")
    if source != "unbased":
        placed[source] -= steps
        if not placed[source]:
            del placed[source]
    placed[to] = placed.get(to, 0) + steps
    plan[squad_id] = placed
    air.check_basing(run.state, run.board, action.seat, plan)
    run.state.basing[action.seat] = plan
    run.say("rebase", f"{run.board.squads[squad_id].name}: {steps} step(s) to {to} (1.5d).")


def _report(run: _Run, action: Action) -> None:
    run.state.report = parse_report(arguments.text(action.args, "text"), run.board)
    special.check_report(run.state, run.board, run.state.report)
    _open_window(run, action)
    run.say(
        "report",
        f"Frame {run.state.frame} report entered: {special.report_summary(run.board, run.state.report)}. "
        f"Both Frame COs may accept or dispute it{_until(run.state)} (4.2d).",
        report=run.state.report,
        deadline=window.deadline(run.state),
    )
    run.goto("dispute")


def _open_window(run: _Run, action: Action) -> None:
    run.state.report_answers = {}
    run.state.report_at = window.reading(action.args)
    run.state.window_closed = False


def _until(state: SeriesState) -> str:
    closes = window.deadline(state)
    return f" until {window.when(closes)}" if closes is not None else ""


def _window(run: _Run, action: Action) -> None:
    run.state.dispute_hours = window.check_hours(arguments.text(action.args, "hours"))
    length = f"{run.state.dispute_hours:g} hours" if run.state.dispute_hours else "open until the CM closes it"
    run.say(
        "window",
        f"The dispute window of frame reports: {length}{_until(run.state)} (4.2d).",
        deadline=window.deadline(run.state),
    )


def _expire(run: _Run, action: Action) -> None:
    window.check_expiry(run.state, window.reading(action.args))
    disputes = {s: a for s, a in run.state.report_answers.items() if a != "accepted"}
    if not disputes:
        run.say(
            "close",
            f"The dispute window of the frame {run.state.frame} report has run out with no dispute: it stands (4.2d).",
        )
        _apply_report(run)
        return
    run.state.window_closed = True
    run.say(
        "window_closed",
        f"The dispute window of the frame {run.state.frame} report has run out with a dispute open "
        f"({'; '.join(f'{s}: {r}' for s, r in disputes.items())}): the campaign manager corrects or closes (4.2d).",
    )


def _accept(run: _Run, action: Action) -> None:
    window.check_answer_in_time(run.state, window.reading(action.args))
    run.state.report_answers[action.seat] = "accepted"
    run.say("accept", f"The {action.seat.title()} Frame CO accepts the frame {run.state.frame} report.")
    if all(run.state.report_answers.get(s) == "accepted" for s in run.board.sides):
        _apply_report(run)


def _dispute(run: _Run, action: Action) -> None:
    window.check_answer_in_time(run.state, window.reading(action.args))
    reason = arguments.text(action.args, "reason")
    run.state.report_answers[action.seat] = reason
    run.say("dispute", f"The {action.seat.title()} Frame CO disputes the frame {run.state.frame} report: {reason}.")


def _correct(run: _Run, action: Action) -> None:
    run.state.report = parse_report(arguments.text(action.args, "text"), run.board)
    special.check_report(run.state, run.board, run.state.report)
    _open_window(run, action)
    run.say(
        "report",
        f"Frame {run.state.frame} report corrected: "
        f"{special.report_summary(run.board, run.state.report)}. Accept or dispute it again{_until(run.state)} (4.2d).",
        report=run.state.report,
        deadline=window.deadline(run.state),
    )


def _close(run: _Run, action: Action) -> None:
    run.say("close", f"The campaign manager closes the dispute window of frame {run.state.frame}.")
    _apply_report(run)


def _apply_report(run: _Run) -> None:
    """4.2e-h: steps shot down, airfield and depot damage, corps damage; Army Control; all scored."""
    state = run.state
    report = state.report
    assert report is not None, "a report is applied only once entered"
    state.reports.append({"frame": state.frame, "report": report, "answers": dict(state.report_answers)})
    source = f"frame {state.frame} report"
    _apply_shot_down(run, report, source)
    _apply_airfield_damage(run, report, source)
    _apply_closed_fields_and_depots(run, report, source)
    _apply_corps_damage(run, report)
    state.radar_lost = list(report.get("radar", []))
    for pilot in report.get("pilots", []):
        totals = state.pilots.setdefault(pilot["name"], {"kills": 0, "assists": 0, "losses": 0})
        for key in ("kills", "assists", "losses"):
            totals[key] += pilot[key]
    _next_frame(run)


def _apply_shot_down(run: _Run, report: FrameReport, source: str) -> None:
    """1.5a, 5.1: the aircraft shot down leave rear airfields, and score for the other side."""
    state, board = run.state, run.board
    for line in report.get("shot_down", []):
        side, type_, count = line["side"], line["type"], line["count"]
        steps = count // board.scoring.aircraft_per_step
        plane = board.aircraft[type_]
        removed = air.remove_steps(state, board, side, type_, steps, rear_first=True)
        run.say(
            "steps",
            f"{side.title()} loses {removed} {type_} step(s) from rear airfields (1.5a).",
            side=side,
            type=type_,
            steps=removed,
        )
        run.score(
            board.enemy(side),
            steps * board.scoring.classes[plane.klass][0],
            "5.1",
            source,
            f"{steps} {side.title()} {type_} step(s) shot down",
        )


def _apply_airfield_damage(run: _Run, report: FrameReport, source: str) -> None:
    """1.5b, 5.1: each damaged airfield loses steps by its size and the level of damage, scored."""
    state, board = run.state, run.board
    for hit in report.get("airfields", []):
        field = board.airfields[hit["airfield"]]
        lost = air.damage_losses(state, board, field.id, hit["damage"])
        run.say(
            "airfield",
            f"{field.name}: {hit['damage']} damage, {sum(lost.values())} step(s) lost (1.5b).",
            airfield=field.id,
            lost=lost,
        )
        owner = state.fields[field.id].side
        for type_, n in lost.items():
            run.score(
                board.enemy(owner),
                n * board.scoring.classes[board.aircraft[type_].klass][1],
                "5.1",
                source,
                f"{n} {type_} step(s) destroyed on the ground at {field.name}",
            )


def _apply_closed_fields_and_depots(run: _Run, report: FrameReport, source: str) -> None:
    """1.5d: closed airfields; 1.6b, 2.3c, 5.1: the depots ruled damaged in this frame (and only those), scored."""
    state, board = run.state, run.board
    for field_id in report.get("closed", []):
        state.fields[field_id].closed = True
        run.say("closed", f"{board.airfields[field_id].name} is closed: its squads must move (1.5d).")
    for depot in state.depots.values():
        depot.damaged = False
    for depot_id in report.get("depots", []):
        state.depots[depot_id].damaged = True
        run.score(
            board.enemy(state.depots[depot_id].side),
            board.scoring.depot_damaged,
            "5.1",
            source,
            f"supply depot {board.depots[depot_id].name} damaged",
        )


def _apply_corps_damage(run: _Run, report: FrameReport) -> None:
    """1.6c, 2.41: the corps hit by tac air lose 1 or 2 CS in this board phase's combat."""
    state = run.state
    for unit in state.units.values():
        unit.damage = 0
    for corps_hit in report.get("corps", []):
        state.units[corps_hit["unit"]].damage = 1 if corps_hit["damage"] == "damage" else 2
        run.say(
            "corps_damage",
            f"{run.name(corps_hit['unit'])}: {special.DAMAGE_WORDS[corps_hit['damage']]} from tac air, "
            f"-{state.units[corps_hit['unit']].damage} CS this combat (2.41).",
        )


def _next_frame(run: _Run) -> None:
    """The report applied: the operation's basing undone (1.4, 3.3b), then the series ends after its last frame,
    or the next board phase begins with Army Control (4.2h) and the designations (4.2i)."""
    state, board = run.state, run.board
    state.report = None
    state.report_at = None
    state.window_closed = False
    if state.home_basing is not None:
        state.basing["allied"] = state.home_basing
        state.home_basing = None
        run.say("rebase", "The operation's frame is flown: the Allied squads return to their home fields (1.4, 3.3b).")
    if state.frame >= board.frames:
        winner, text = scoring.final_result(state, board)
        state.phase = "over"
        run.say("result", f"The series is over: {text}.", winner=winner)
        return
    state.frame += 1
    isolated = [u.id for u in ground.on_board(state) if not ground.in_army_control(state, board, u.id)]
    run.say(
        "army_control",
        "Out of Army Control (4.2h): " + (", ".join(run.name(u) for u in isolated) or "nobody") + ".",
        units=isolated,
    )
    state.battles = []
    run.goto("designate")


def _designate(run: _Run, action: Action) -> None:
    battles = combat.parse_designation(arguments.optional_text(action.args, "battles") or "")
    combat.check_designation(run.state, run.board, action.seat, battles)
    run.seal(action.seat, "attack designation", [[d, list(a)] for d, a in battles], "4.2i")
    sealed = run.sealed("attack designation")
    if len(sealed) == len(run.board.sides):
        for secret in sealed.values():
            run.reveal(secret)
        _resolve_combat(run, {side: copy.deepcopy(s["content"]) for side, s in sealed.items()})


def _designated_battles(run: _Run, designations: dict[str, list[list[Any]]]) -> list[Battle]:
    """2.4g: each side's designated battles in order, with their odds fixed before any die is rolled."""
    state, board = run.state, run.board
    battles: list[Battle] = []
    for side in board.sides:
        for number, (defender, attackers) in enumerate(designations.get(side, []), start=1):
            odds = combat.battle_odds(state, board, defender, tuple(attackers))
            # Its dice, total and result come once every battle's odds are fixed (2.4h).
            battle = cast(
                Battle,
                {
                    "id": f"{side[0].upper()}{number}",
                    "side": side,
                    "defender": defender,
                    "attackers": list(attackers),
                    "defender_hex": state.units[defender].hex,
                    "attacker_hexes": [state.units[a].hex for a in attackers],
                    **odds,
                },
            )
            battles.append(battle)
    return battles


def _resolve_combat(run: _Run, designations: dict[str, list[list[Any]]]) -> None:
    """2.4g-h: odds fixed and every die rolled first, then the results applied together."""
    state, board = run.state, run.board
    battles = _designated_battles(run, designations)
    for battle in battles:
        battle["dice"] = list(run.two_d6())
        battle["total"] = sum(battle["dice"]) + battle["drm"]
        battle["result"] = combat.CRT[combat.crt_row(battle["total"])][battle["column_index"]]
    retreat_hexes: dict[str, int] = {}
    surrendered: set[str] = set()
    for battle in battles:
        run.say("combat", f"Battle {battle['id']}: {combat.describe_battle(board, battle)}.", **battle)
        who, hexes, attackers_engaged, defender_engaged = combat.result_effects(battle["result"])
        attacker_side, defender_side = battle["side"], board.enemy(battle["side"])
        if battle["result"] == "DS":
            surrendered.add(battle["defender"])
        elif who == "defender":
            retreat_hexes[battle["defender"]] = retreat_hexes.get(battle["defender"], 0) + hexes
        elif who == "attacker":
            for a in battle["attackers"]:
                retreat_hexes[a] = retreat_hexes.get(a, 0) + hexes
        for a in battle["attackers"] if attackers_engaged else []:
            state.units[a].engaged = True
        if defender_engaged:
            state.units[battle["defender"]].engaged = True
        engagement = f"{battle['result']} in battle {battle['id']}: enemy engaged"
        if defender_engaged:
            run.score(attacker_side, board.scoring.engagement, "5.1", battle["id"], engagement)
        if attackers_engaged:
            run.score(defender_side, board.scoring.engagement, "5.1", battle["id"], engagement)
        if who == "defender":
            run.score(attacker_side, board.scoring.retreat, "5.1", battle["id"], f"{battle['result']}: enemy retreat")
        elif who == "attacker":
            run.score(defender_side, board.scoring.retreat, "5.1", battle["id"], f"{battle['result']}: enemy retreat")
        winner = attacker_side if battle["result"] in ("D1", "D2", "D3", "DS") else defender_side
        gain = 1 if battle["result"] == "DS" else hexes
        if gain:
            units = battle["attackers"] if winner == attacker_side else [battle["defender"]]
            vacated = [battle["defender_hex"]] if winner == attacker_side else battle["attacker_hexes"]
            state.breakthroughs.append(
                {
                    "side": winner,
                    "battle": battle["id"],
                    "units": units,
                    "left": gain,
                    "vacated": vacated,
                    "used": False,
                }
            )
    for unit_id in sorted(surrendered):
        run.surrender(unit_id, "DS result, 2.43")
    for unit_id in sorted(retreat_hexes, key=lambda u: (board.sides.index(board.units[u].side), u)):
        unit = state.units[unit_id]
        if unit_id in surrendered or unit.hex is None:
            continue
        if unit.blitz_active:
            unit.lost += 1
            unit.blitz_check = False
            run.say(
                "blitz_loss",
                f"{run.name(unit_id)} Blitzed and was forced to retreat: -1 CS for the rest of the series (3.4d).",
            )
        state.retreats.append({"unit": unit_id, "left": retreat_hexes[unit_id], "path": [unit.hex]})
    state.battles = battles
    _next_retreat(run)


def _next_retreat(run: _Run) -> None:
    state = run.state
    while state.retreats:
        entry = state.retreats[0]
        if state.units[entry["unit"]].hex is None or entry["left"] <= 0:
            state.retreats.pop(0)
            continue
        if not combat.retreat_options(state, run.board, entry["unit"], entry["path"]):
            state.retreats.pop(0)
            run.surrender(entry["unit"], "no legal retreat hex, 2.45")
            continue
        if state.phase != "retreat":
            run.goto("retreat")
        return
    _start_breakthrough(run, "allied")


def _retreat(run: _Run, action: Action) -> None:
    entry = run.state.retreats[0]
    if arguments.text(action.args, "unit") != entry["unit"]:
        raise IllegalActionError(f"{run.name(entry['unit'])} retreats now", "2.45")
    to = arguments.hex_number(action.args, "to", run.board.grid)
    if to not in combat.retreat_options(run.state, run.board, entry["unit"], entry["path"]):
        raise IllegalActionError(f"{hex_name(to)} is not a legal retreat hex", "2.45")
    run.place(entry["unit"], to)
    entry["path"].append(to)
    entry["left"] -= 1
    run.say("retreat", f"{run.name(entry['unit'])} retreats to {hex_name(to)} (2.45).", unit=entry["unit"], hex=to)
    _next_retreat(run)


def _start_breakthrough(run: _Run, side: str) -> None:
    state = run.state
    mine = [b for b in state.breakthroughs if b["side"] == side]
    if mine:
        breaks, _ = ground.frontline_breaks(state, run.board, side)
        if breaks:
            state.breakthroughs = [b for b in state.breakthroughs if b["side"] != side]
            run.say(
                "no_breakthrough",
                f"The {side.title()} frontline has {breaks} break(s): no breakthrough "
                "movement until it is restored (2.2c).",
                side=side,
            )
        elif any(not state.units[u].engaged and state.units[u].hex is not None for b in mine for u in b["units"]):
            run.goto(BREAKTHROUGH_PHASES[side])
            return
        else:
            state.breakthroughs = [b for b in state.breakthroughs if b["side"] != side]
    if side == "allied":
        _start_breakthrough(run, "german")
    else:
        _after_breakthroughs(run)


def _advance(run: _Run, action: Action) -> None:
    unit_id = arguments.text(action.args, "unit")
    to = arguments.hex_number(action.args, "to", run.board.grid)
    breaks, _ = ground.frontline_breaks(run.state, run.board, action.seat)
    if breaks:
        raise IllegalActionError("your frontline is broken: no breakthrough movement until it is restored", "2.2c")
    allowance = combat.check_advance(run.state, run.board, action.seat, unit_id, to)
    run.place(unit_id, to)
    allowance["left"] -= 1
    allowance["used"] = True
    run.say(
        "advance",
        f"{run.name(unit_id)} advances to {hex_name(to)} (2.46, battle {allowance['battle']}).",
        unit=unit_id,
        hex=to,
    )


def _after_breakthroughs(run: _Run) -> None:
    for unit in run.state.units.values():
        unit.blitz_active = False  # 3.4b: until the combat and breakthrough movement after the Blitz are over
    run.state.breakthroughs = []
    run.goto("move_allied_corps")


def _blitz(run: _Run, action: Action) -> None:
    names = arguments.names(action.args, "units", required=False)
    special.check_blitz(run.state, run.board, names)
    for unit_id in names:
        unit = run.state.units[unit_id]
        unit.blitz_active = unit.blitz_used = unit.blitz_check = True
    run.say("blitz", "Blitz (3.4): " + (", ".join(run.name(u) for u in names) or "none") + ".", units=names)
    run.goto("move_german_corps")
    special.blitz_movement_check(run.state, run.board, run.events)


def _end_board_phase(run: _Run) -> None:
    for unit in run.state.units.values():
        unit.damage = 0
    if run.state.frame == 1 and run.state.declaration is None and not run.state.reports:
        run.goto("report")
        return
    run.goto("declare")


def _declare(run: _Run, action: Action) -> None:
    operation = arguments.text(action.args, "operation")
    if operation != "none":
        special.check_declaration(run.state, run.board, operation)
        run.state.declaration = {"operation": operation, "frame": run.state.frame}
        run.say("declare", special.declaration_text(run.state, run.board), operation=operation)
        try:
            air.check_basing(run.state, run.board, "allied", run.state.basing.get("allied", {}), operation)
        except IllegalActionError as error:
            run.say(
                "operation_basing",
                f"The Allied basing must change for this frame: {error.reason} ({error.rule}).",
                rule=error.rule,
            )
            run.goto("operation_basing")
            return
        run.say("operation_basing", "The Allied basing already meets the operation's demands (1.4, 3.3b).")
    else:
        run.say("declare", f"No German declaration before frame {run.state.frame}.")
    run.goto("report")


def _operation_basing(run: _Run, action: Action) -> None:
    """1.4, 3.3b: the Allied squads named are based anew for the operation's frame; the others stay."""
    operation = run.state.declaration["operation"] if run.state.declaration else ""
    home = run.state.basing.get("allied", {})
    plan = copy.deepcopy(home)
    plan.update(air.parse_basing(arguments.text(action.args, "plan")))
    air.check_basing(run.state, run.board, "allied", plan, operation)
    run.state.home_basing = copy.deepcopy(home)
    run.state.basing["allied"] = plan
    moved = ", ".join(
        f"{run.board.squads[s].name} to {', '.join(f'{f} {n}' for f, n in plan[s].items())}"
        for s in plan
        if plan[s] != home.get(s)
    )
    run.say("rebase", f"Allied basing for frame {run.state.frame}: {moved or 'no change'} (1.4, 3.3b).")
    run.goto("report")


def _corrected(run: _Run, action: Action) -> None:
    """A moderator took actions back (``mod correct``): whatever is sealed from now on gets a fresh salt, so a
    decision sealed again cannot be matched against a salt a taken-back reveal published. Asked of nobody:
    the bot sends it in the CM's seat after a correction."""
    run.state.epoch += 1
    run.say(
        "corrected",
        "After the moderator's correction, every decision sealed from now on gets a fresh salt "
        f"(correction {run.state.epoch}).",
        epoch=run.state.epoch,
    )


_HANDLERS = {
    "basing": _basing,
    "move": _move,
    "done": _done,
    "redeploy": _redeploy,
    "rebase": _rebase,
    "report": _report,
    "accept": _accept,
    "dispute": _dispute,
    "correct": _correct,
    "close": _close,
    "window": _window,
    "expire": _expire,
    "designate": _designate,
    "retreat": _retreat,
    "advance": _advance,
    "blitz": _blitz,
    "declare": _declare,
}


# --- Views and result -----------------------------------------------------------------------------------------


def view(state: SeriesState, seat: Seat | None) -> dict[str, Any]:
    """What a seat may see: everything but the other side's sealed contents and the dice seed."""
    board = board_of(state)
    secrets = []
    for s in state.secrets:
        item = {k: v for k, v in s.items() if k != "content"}
        if s["revealed"] or s["owner"] == seat:
            item["content"] = s["content"]
        secrets.append(item)
    basing = {side: plan for side, plan in state.basing.items()}
    return {
        "phase": state.phase,
        "phase_name": PHASE_NAMES[state.phase],
        "frame": state.frame,
        "weather": special.weather(state.frame),
        "units": {
            u.id: {
                "hex": u.hex,
                "strength": board.unit_types[board.units[u.id].type].strength - u.lost,
                "lost": u.lost,
                "damage": u.damage,
                "engaged": u.engaged,
                "blitz": u.blitz_active,
                "blitz_used": u.blitz_used,
            }
            for u in state.units.values()
        },
        "fields": {
            k: {
                "side": f.side,
                "steps": dict(f.steps),
                "closed": f.closed,
                "captured": f.captured,
                "squad_steps": air.squad_steps_at(state, k),
            }
            for k, f in state.fields.items()
        },
        "depots": {k: {"side": d.side, "damaged": d.damaged} for k, d in state.depots.items()},
        "basing": basing,
        "pool": copy.deepcopy(state.pool),
        "secrets": secrets,
        "report": state.report,
        "report_answers": dict(state.report_answers),
        "dispute_hours": state.dispute_hours,
        "dispute_deadline": window.deadline(state),
        "window_closed": state.window_closed,
        "battles": copy.deepcopy(state.battles),
        "declaration": state.declaration,
        "ledger": copy.deepcopy(state.ledger),
        "score": scoring.totals(state, board),
        "frontline": dict(state.frontline),
        "radar_lost": list(state.radar_lost),
    }


def result(state: SeriesState) -> Result | None:
    """The final score and band once the last frame's report is applied (5.1)."""
    if state.phase != "over":
        return None
    winner, text = scoring.final_result(state, board_of(state))
    return Result(winner, text)
