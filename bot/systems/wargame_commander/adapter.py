"""The Ardennes Wargame Commander as the bot uses it: :class:`WargameCommanderAdapter`.

The adapter wraps :data:`engine.wargame_commander.SYSTEM` with what the bot needs around the engine contract
(:class:`bot.service.game_service.SystemAdapter`): a third seat for the campaign manager (``cm``, who enters the frame
reports), autocomplete, information texts (status, the score ledger, the possible battles with their odds,
the plan sheet) and the map picture (:mod:`render.wargame_commander`). It decides no rule.

Sealed contents stay sealed: the channel's texts come from the public view; a side's texts from its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from bot.service.sealed import SealedDecision, sealed_in_events
from bot.store.records import ActionRow
from engine.contract import Action, Event, InvalidActionError, Prompt, Result
from engine.wargame_commander import SYSTEM, combat, ground, series, special
from engine.wargame_commander.board import Board
from engine.wargame_commander.rules_version import RULES_VERSION
from engine.wargame_commander.state import SeriesState, board_of

if TYPE_CHECKING:
    from render.record.data import Chart

PICTURE_PHASES = frozenset({"designate", "move_allied_corps", "report", "over"})
"""After combat, after the frame report (before the designations) and before each frame: the channel's map."""


class WargameCommanderAdapter:
    """The Ardennes Wargame Commander (see :class:`bot.service.game_service.SystemAdapter`)."""

    id = "wargame-commander"
    name = "The Ardennes Wargame Commander"
    rules_version = RULES_VERSION
    moderator_seats: ClassVar[Mapping[str, str]] = {series.CM: "the campaign manager"}
    """4.2d: the campaign manager's seat; only a moderator acts for it (the service checks every path)."""
    seals_own_secrets = True
    """The engine posts one checkable receipt per sealed decision (:mod:`engine.sealing`); the service adds none."""

    def __init__(self) -> None:
        from scenarios.wargame_commander import BOARDS

        self.seats: tuple[str, ...] = (*SYSTEM.seats, series.CM)
        self.scenarios: tuple[str, ...] = BOARDS
        self.options: Mapping[str, str] = {}
        self.unused_options: Mapping[str, tuple[str, ...]] = {"move": ("path",)}
        """2.3: a corps or HQ moves to a hex by the cheapest way (no route is given), so `help move` names none."""

    # --- The engine contract --------------------------------------------------------------------------

    def new_game(self, scenario: str, options: Mapping[str, Any], seed: bytes) -> SeriesState:
        from scenarios.wargame_commander import board_document

        return SYSTEM.new_game(board_document(scenario), options, seed)

    def prompts(self, state: SeriesState) -> dict[str, Prompt]:
        return SYSTEM.prompts(state)

    def apply(self, state: SeriesState, action: Action) -> tuple[SeriesState, list[Event]]:
        return SYSTEM.apply(state, action)

    def view(self, state: SeriesState, seat: str | None) -> dict[str, Any]:
        return SYSTEM.view(state, seat if seat in SYSTEM.seats else None)

    def result(self, state: SeriesState) -> Result | None:
        return SYSTEM.result(state)

    def state_to_json(self, state: SeriesState) -> Any:
        return SYSTEM.state_to_json(state)

    def state_from_json(self, data: Any) -> SeriesState:
        return SYSTEM.state_from_json(data)

    # --- Autocomplete ---------------------------------------------------------------------------------

    def suggest(
        self, state: SeriesState, seat: str | None, source: str, typed: str, given: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        """Own units, hexes a unit may reach, the prompt's verbs, seats."""
        from engine.hexgrid import hex_name

        board = board_of(state)
        prompt = SYSTEM.prompts(state).get(seat or "")
        if source == "verb":
            return [
                (v, v)
                for v in dict.fromkeys(
                    [*(c.verb for c in (prompt.choices if prompt else ())), *(prompt.free_verbs if prompt else ())]
                )
            ]
        if source == "seat":
            return [(s, s) for s in self.seats]
        if source in ("unit", "own_unit"):
            return [
                (f"{board.units[u.id].name} ({u.id})", u.id)
                for u in ground.on_board(state, seat)
                if seat in SYSTEM.seats and typed.lower() in f"{board.units[u.id].name} {u.id}".lower()
            ][:25]
        if source in ("destination", "any_hex") and given.get("unit") in state.units:
            return [(hex_name(h), hex_name(h)) for h in sorted(ground.reachable(state, board, str(given["unit"])))][:25]
        return []

    def preview(self, state: SeriesState, seat: str, verb: str, args: Mapping[str, Any]) -> str | None:
        return None

    # --- Information ----------------------------------------------------------------------------------

    def describe(self, state: SeriesState, seat: str | None, topic: str, key: str) -> str:
        """``status``, ``score`` (the ledger), ``battles`` (possible battles with odds), ``plan`` (a side's plan
        sheet), ``oob``, ``unit``, ``hex``.

        :raises InvalidActionError: for an unknown topic or key.
        """
        board = board_of(state)
        side = seat if seat in SYSTEM.seats else None
        view = SYSTEM.view(state, side)
        if topic == "status":
            return status_text(board, view)
        if topic == "score":
            return score_text(board, view)
        if topic == "battles":
            return battles_text(state, board, side or board.sides[0])
        if topic == "plan":
            return plan_text(state, board, view, (key.strip().lower() or side or board.sides[0]))
        if topic == "oob":
            return "\n".join(
                _unit_line(board, view, u) for u in board.units if side is None or board.units[u].side == side
            )
        if topic == "unit":
            if key not in board.units:
                raise InvalidActionError(f"no unit {key!r}")
            return _unit_line(board, view, key)
        if topic in ("hex", "stack"):
            from engine.hexgrid import parse_hex

            try:
                hex_ = parse_hex(key)
            except ValueError as error:
                raise InvalidActionError(str(error)) from None
            if not board.grid.contains(hex_):
                raise InvalidActionError(f"hex {key} is not on the map")
            names = board.place_names(hex_)
            units = [_unit_line(board, view, u) for u, v in view["units"].items() if v["hex"] == hex_]
            return (
                f"{key}: {board.terrain[hex_]}"
                + (f" ({', '.join(names)})" if names else "")
                + ("\n" + "\n".join(units) if units else "")
            )
        raise InvalidActionError(f"nothing to say about {topic!r}")

    def picture(self, state: SeriesState, seat: str | None, events: Sequence[Mapping[str, Any]]) -> bytes | None:
        """The whole map as the seat sees it (everything on this board is public once revealed)."""
        from render.wargame_commander import draw_map

        board = board_of(state)
        view = SYSTEM.view(state, seat if seat in SYSTEM.seats else None)
        ranges = {
            h: sorted(ground.army_control_range(state, board, h)) for h in board.units if board.units[h].type == "hq"
        }
        frontlines = {s: ground.frontline(state, board, s) for s in board.sides}
        return draw_map(board, view, ranges, frontlines)

    def record_charts(
        self,
        states: Sequence[tuple[int, SeriesState]],
        seat: str | None,
        log: Sequence[Mapping[str, Any]],
        over: bool,
    ) -> list[Chart]:
        """5.1: a record's charts (issue 34): each side's score after each picture, and the points each side
        scored in each frame (the score ledger's lines, losses inflicted among them)."""
        from render.record.data import Chart, Series

        if not states:
            return []
        board = board_of(states[-1][1])
        viewer = seat if seat in SYSTEM.seats else None
        views = [(index, SYSTEM.view(state, viewer)) for index, state in states]
        score = Chart(
            "Score",
            "picture",
            "points",
            tuple(
                Series(side.title(), tuple((float(i + 1), float(v["score"][side])) for i, v in views))
                for side in board.sides
            ),
        )
        ledger = views[-1][1]["ledger"]
        frames = sorted({int(line["frame"]) for line in ledger})

        def scored(side: str, frame: int) -> float:
            return float(sum(x["points"] for x in ledger if int(x["frame"]) == frame and x["side"] == side))

        per_frame = Chart(
            "Points scored per frame",
            "frame",
            "points",
            tuple(
                Series(
                    side.title(),
                    tuple((float(f), scored(side, f)) for f in frames),
                )
                for side in board.sides
            ),
            bars=True,
        )
        return [score, per_frame]

    def plan_sheet(self, state: SeriesState, side: str) -> bytes:
        """4.2r: the plan sheet picture of ``side`` before the next frame (:mod:`render.wargame_commander_plan`)."""
        from render.wargame_commander_plan import draw_plan_sheet

        board = board_of(state)
        if side not in board.sides:
            raise InvalidActionError(f"no side {side!r}")
        declared = state.declaration if state.declaration and state.declaration["frame"] == state.frame else None
        text = special.declaration_text(state, board) if declared else None
        return draw_plan_sheet(board, SYSTEM.view(state, side), side, text)

    # --- Sealed decisions by DM (the baskets of bot.systems.wargame_commander.sealed) ------------------

    def designation_items(self, state: SeriesState, side: str) -> list[tuple[str, str]]:
        """4.2i: the battles ``side`` may designate, as (menu label with the odds, ``defender:a+b``)."""
        board = board_of(state)
        found = []
        for defender, attackers in combat.designation_options(state, board, side):
            odds = combat.battle_odds(state, board, defender, attackers)
            label = (
                f"{defender} <- {'+'.join(attackers)}: {odds['attack']} to {odds['defence']}, "
                f"{odds['column']}, DRM {odds['drm']:+d}"
            )
            found.append((label, f"{defender}:{'+'.join(attackers)}"))
        return found

    def basing_items(self, state: SeriesState, side: str) -> tuple[list[tuple[str, str, str]], dict[str, int]]:
        """1.3: the (squad, airfield, menu label) pairs of a basing plan, each squad at each of its side's open
        fields holding a type it flies; and each squad's steps."""
        board = board_of(state)
        pairs = []
        for squad in board.squads.values():
            if squad.side != side:
                continue
            for field_id, live in state.fields.items():
                if live.side != side or live.closed or not any(live.steps.get(t, 0) for t in squad.types):
                    continue
                spec = board.airfields[field_id]
                cap = board.field_sizes[spec.size][0]
                pairs.append((squad.id, field_id, f"{squad.id} @ {field_id} ({spec.name}, cap {cap})"))
        return pairs, {s.id: s.steps for s in board.squads.values() if s.side == side}

    def field_caps(self, state: SeriesState, side: str) -> dict[str, int]:
        """1.1, 1.3: the squad-step cap of each of ``side``'s airfields, by id."""
        board = board_of(state)
        return {
            field_id: board.field_sizes[board.airfields[field_id].size][0]
            for field_id, live in state.fields.items()
            if live.side == side
        }

    def dispute_deadline(self, state: SeriesState) -> float | None:
        """4.2d: when the open dispute window closes (the clock's ``expire`` is due), if it is timed."""
        from engine.wargame_commander import window

        return window.deadline(state)

    def picture_due(self, events: Sequence[Mapping[str, Any]]) -> bool:
        return any(
            e.get("kind") == "phase" and e.get("data", {}).get("phase") in PICTURE_PHASES for e in events
        ) or any(e.get("kind") == "result" for e in events)

    def sealed_decisions(self, actions: Sequence[ActionRow]) -> list[SealedDecision]:
        """Every designation and plan the series sealed (its ``sealed`` and ``reveal`` events)."""
        return sealed_in_events(actions)


# --- Texts -------------------------------------------------------------------------------------------------


def _unit_line(board: Board, view: Mapping[str, Any], unit_id: str) -> str:
    from engine.hexgrid import hex_name

    spec = board.units[unit_id]
    unit = view["units"][unit_id]
    where = hex_name(unit["hex"]) if unit["hex"] is not None else "surrendered"
    flags = [
        f
        for f, on in (("engaged", unit["engaged"]), ("Blitz", unit["blitz"]), ("Blitz used", unit["blitz_used"]))
        if on
    ]
    return (
        f"{spec.name} ({unit_id}), {board.unit_types[spec.type].name}, {spec.side}: {where}, CS {unit['strength']}"
        + (f" (-{unit['damage']} tac air)" if unit["damage"] else "")
        + (f" [{', '.join(flags)}]" if flags else "")
    )


def status_text(board: Board, view: Mapping[str, Any]) -> str:
    decl = view["declaration"]
    lines = [
        f"**{board.title}**: frame {view['frame']} of {board.frames}; now {view['phase_name']}.",
        f"Weather: {view['weather']}.",
        "Declaration: " + (f"{decl['operation']} before frame {decl['frame']}." if decl else "none yet."),
        "Score: " + ", ".join(f"{s.title()} {p:g}" for s, p in view["score"].items()) + " (`score` for the ledger).",
    ]
    if view["report"] is not None:
        answers = ", ".join(f"{s}: {a}" for s, a in view["report_answers"].items()) or "no answer yet"
        lines.append(f"Frame report awaiting the Frame COs ({answers}).")
    sealed = [s for s in view["secrets"] if not s["revealed"]]
    if sealed:
        lines.append("Sealed: " + "; ".join(f"{s['owner']} {s['kind']} `{s['receipt'][:16]}`" for s in sealed) + ".")
    return "\n".join(lines)


def score_text(board: Board, view: Mapping[str, Any]) -> str:
    """The totals (and the result band once over) first, then the ledger, newest lines last."""
    totals = view["score"]
    first, second = board.sides
    lines = [f"**Score** (5.1): {first.title()} {totals[first]:g}, {second.title()} {totals[second]:g}."]
    if view["phase"] == "over":
        from engine.wargame_commander.scoring import band

        lines.append(f"Result: {band(board, abs(totals[first] - totals[second]))} (5.1).")
    lines.append("Score ledger: # | frame | side | points | rule | source | what")
    ledger = [
        f"{line['n']} | {line['frame']} | {line['side']} | {line['points']:g} | {line['rule']} | {line['source']} | "
        f"{line['text']}"
        for line in view["ledger"]
    ]
    shown: list[str] = []
    for line in reversed(ledger):
        if sum(len(x) + 1 for x in [*lines, *shown, line]) > 1850:
            lines.append(f"(the {len(ledger) - len(shown)} earlier line(s): `log`)")
            break
        shown.insert(0, line)
    return "\n".join([*lines, *shown])


def battles_text(state: SeriesState, board: Board, side: str) -> str:
    """4.2i, 2.4e: every battle the side could fight, with the designated attacker and the exact odds."""
    lines = [f"**Possible battles for the {side.title()} side** (designate up to four, 2.4a):"]
    for battle in combat.possible_battles(state, board, side):
        odds = combat.battle_odds(state, board, battle.defender, battle.attackers)
        drm = ", ".join(f"{r} {v:+d}" for r, v in odds["drms"]) or "no DRM"
        who = "you attack" if battle.designated else "the defender has the higher CS (2.4f)"
        lines.append(
            f"- {battle.defender}:{'+'.join(battle.attackers)}: {odds['attack']} to {odds['defence']}, "
            f"{odds['column']}, {drm}; {who}"
        )
    return "\n".join(lines) if len(lines) > 1 else "No enemy unit stands next to your corps."


def plan_text(state: SeriesState, board: Board, view: Mapping[str, Any], side: str) -> str:
    """4.2r: the plan sheet a side gets before a frame: its airfields, squads, targets, weather, declaration."""
    if side not in board.sides:
        raise InvalidActionError(f"no side {side!r}")
    lines = [f"**{side.title()} plan sheet, frame {view['frame']}**", f"Weather: {view['weather']}."]
    if view["declaration"] and view["declaration"]["frame"] == view["frame"]:
        lines.append(special.declaration_text(state, board))
    for field_id, field in view["fields"].items():
        if field["side"] != side:
            continue
        spec = board.airfields[field_id]
        based = [
            f"{sq} {n}"
            for sq, fields in view["basing"].get(side, {}).items()
            for f, n in fields.items()
            if f == field_id
        ]
        steps = ", ".join(f"{t} {n}" for t, n in field["steps"].items() if n) or "no aircraft"
        cap = board.field_sizes[spec.size][0]
        closed = " CLOSED" if field["closed"] else ""
        lines.append(
            f"{spec.name}{closed}: {steps}; squads {', '.join(based) or 'none'} ({field['squad_steps']}/{cap})"
        )
    enemy = board.enemy(side)
    targets = [
        d.name + (" (damaged)" if view["depots"][d.id]["damaged"] else "")
        for d in board.depots.values()
        if view["depots"][d.id]["side"] == enemy
    ]
    lines.append("Enemy supply depots: " + ", ".join(targets) + ".")
    return "\n".join(lines)
