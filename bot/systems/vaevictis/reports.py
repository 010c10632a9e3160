"""The information answers of a Vae Victis game, worded for a player: :func:`inform`.

The facts come from the engine's pure reports (:mod:`engine.vaevictis.reports`, :mod:`engine.vaevictis.history`)
over one seat's view; this module only words them, draws the small pictures (a hex's close-up, a counter's
face, a past activation, the combats of the last turns) and says which next steps a button may offer. The
buttons' press verbs are those of :mod:`bot.commands.info`: ``ia`` attack a hex, ``ix`` a unit's action, ``im`` where a
unit may move, ``io`` one formation of the order of battle, ``ip`` one past activation.

A past position is rebuilt by replaying the log from the game's seed (:func:`replay_activations`); the
pictures are drawn from the asking seat's view of that position.

One idea: the wording of every answer (one function per topic, each short); split by topic,
the shared helpers (names, hexes, the seat's view) would have to move to a third module.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bot.service.game_service import Info
from engine import arguments
from engine.contract import Action, Event, InvalidActionError
from engine.hexgrid import Hex, hex_name
from engine.vaevictis import history, legal, reports
from engine.vaevictis.data import SIDES, Side, hq_name
from engine.vaevictis.game import OPTIONS, VaeVictisGame
from engine.vaevictis.state import GameState, Position

if TYPE_CHECKING:
    from render.picture import AttackMark

Region = Callable[[Sequence[Event]], "tuple[Hex, int] | None"]
"""The close-up holding a list of events (the adapter's), ``None`` for the whole map."""

Log = Sequence[Mapping[str, Any]]
"""Each action as the seat may read it: ``{"seq", "seat", "verb", "args", "events"}``."""

HEX_CLOSE_UP_RADIUS = 2
"""The radius of the close-up ``hex`` answers with."""
MAX_ATTACK_BUTTONS = 6
"""A unit's answer offers at most this many attack buttons (one per hex it may attack)."""


def inform(
    game: VaeVictisGame,
    state: GameState,
    seat: Side | None,
    topic: str,
    key: str,
    log: Log,
    over: bool,
    region: Region = lambda events: None,
) -> Info:
    """The answer to an information command.

    :raises InvalidActionError: for an unknown topic, hex, unit or turn.
    """
    if topic == "hex":
        return hex_info(game, state, seat, arguments.hex_on_map(key, game.data.map.grid), log)
    if topic == "unit":
        return unit_info(game, state, seat, key)
    if topic == "hq":
        return hq_info(game, state, seat, key)
    if topic == "oob":
        return oob_info(game, state, seat, key)
    if topic == "victory":
        return Info(victory_text(reports.victory_status(game.data, state, seat)))
    if topic == "brief":
        return Info(brief_text(reports.briefing(game.data, state.scenario, state.options)))
    if topic == "turn-report":
        if seat is None:
            raise InvalidActionError("the turn report is for a seated player")
        return Info(turn_report_text(game, state, seat, log))
    if topic == "stats":
        fog = bool(state.options.get("fog_of_war")) and not over
        return Info(stats_text(game, history.statistics(game.data, [r["events"] for r in log], seat, fog)))
    if topic == "replay":
        return replay_info(game, state, seat, key, log, region)
    if topic == "attackers":
        if seat is None:
            raise InvalidActionError("only a seated player's units attack")
        return Info(attackers_text(game, state, seat, arguments.hex_on_map(key, game.data.map.grid)))
    if topic == "attack-group":
        return Info(
            ",".join(attack_group(game, state, seat, arguments.hex_on_map(key, game.data.map.grid))) if seat else ""
        )
    if topic == "combats":
        return combats_info(game, state, seat, key, log, region)
    raise InvalidActionError(f"nothing to say about {topic!r}")


def _mp(value: float) -> str:
    if value == float("inf"):
        return "prohibited"
    return f"{value:g} MP"


def _pool(pool: Mapping[str, int]) -> str:
    return ", ".join(f"{kind.replace('_', ' ')} {count}" for kind, count in sorted(pool.items()) if count) or "none"


def unit_line(unit: Mapping[str, Any]) -> str:
    """A counter in one line: name, id, strength, steps, quality, statuses."""
    status = f" [{', '.join(str(s).replace('_', ' ') for s in unit['status'])}]" if unit.get("status") else ""
    supports = f" holding {', '.join(unit['supports'])}" if unit.get("supports") else ""
    return (
        f"{unit['name']} ({unit['id']}): strength {unit['strength']}, steps {unit['steps']}/{unit['max_steps']}, "
        f"quality {unit['quality']}{status}{supports}"
    )


# --- /hex ----------------------------------------------------------------------------------------------------


def hex_info(game: VaeVictisGame, state: GameState, seat: Side | None, where: Hex, log: Log) -> Info:
    """[0.2, 4, 5, 6.2, 7.4, 17] A hex: terrain, sides, costs, shifts, holder, ZoC, stack, markers, combats."""
    data = game.data
    report = reports.hex_report(data, state, seat, where)
    place = ""
    if report.settlement:
        place = f", {report.settlement[0]} of {report.settlement[1]}"
    elif report.locality:
        place = f" ({report.locality})"
    lines = [f"**Hex {hex_name(where)}**: {report.terrain}{place}" + (", Westwall" if report.westwall else "")]
    for hexside in report.hexsides:
        what = []
        if hexside.river:
            what.append(f"{hexside.river}" + (" (bridged)" if hexside.bridge else " (no bridge)"))
        if hexside.road:
            what.append("road")
        lines.append(f"- side to {hex_name(hexside.neighbour)}: {', '.join(what)}")
    costs = ", ".join(f"{c} {_mp(v)}" for c, v in report.entry_costs.items())
    road = ", ".join(f"{c} {_mp(v)}" for c, v in report.road_costs.items())
    lines.append(f"Entering off road (6.2): {costs}" + (f"; along a road: {road} per hex" if road else ""))
    if report.shelter:
        who = "A unit" if len(report.shelter) == len(SIDES) else f"A {report.shelter[0]} unit"
        lines.append(f"{who} entering an enemy zone of control here need not attack (4.2, 4.3).")
    for side in SIDES:
        shifts = report.column_shifts[side]
        total = sum(s[0] for s in shifts)
        detail = "; ".join(f"{s[1]} ({s[2]})" for s in shifts) or "no shift"
        lines.append(f"{game.data.side_name(side)} defender here: {total:+d} column(s): {detail}")
    if report.victory:
        holder = game.data.side_name(report.holder) if report.holder else "nobody"
        lines.append(f"Victory place ({data.rule('17')}), held by {holder}: " + "; ".join(report.victory))
    for side, names in report.zoc.items():
        lines.append(f"Zone of control of the {side} side (4): {', '.join(names)}")
    if report.markers:
        lines.append(f"Markers: {', '.join(report.markers)}")
    if report.holder is None:
        lines.append(f"No units (stacking limit {report.stack_limit} steps, 5).")
    else:
        steps = f"{report.steps} of {report.stack_limit} steps (5)" if report.steps is not None else "steps unknown"
        lines.append(f"{game.data.side_name(report.holder)} stack of {report.stack_count} counter(s), {steps}:")
        lines += [f"- {unit_line(u)}" for u in report.units]
        if report.hidden:
            lines.append(f"- {report.hidden} more counter(s) hidden by the fog of war (11)")
    fought = history.combats_at(data, [r["events"] for r in log], where)
    if fought:
        lines.append("Combats fought here (7.5):")
        lines += [
            f"- turn {c.turn}: {c.side} attack, column {c.column}, die {c.die} {c.drm:+d}: {c.result}"
            + (" (breakthrough)" if c.breakthrough else "")
            for c in fought[-10:]
        ]
    buttons: tuple[tuple[str, str, str], ...] = ()
    if seat is not None and attackers_of(game, state, seat, where):
        lines.append(attackers_text(game, state, seat, where))
        buttons = (("Attack this hex", "ia", hex_name(where)),)
    picture = close_up(game, state, seat, where)
    return Info("\n".join(lines), picture=picture, buttons=buttons)


def attackers_of(game: VaeVictisGame, state: GameState, seat: Side, target: Hex) -> list[str]:
    """The seat's units that may attack ``target`` in the activation in progress."""
    grid = game.data.map.grid
    return [
        u.id
        for u in legal.units_that_may_act(game, state, seat)
        if u.hex is not None
        and grid.are_adjacent(u.hex, target)
        and target in legal.unit_options(game, state, u).targets
    ]


ATTACK_KINDS = ("normal", "prepared")
"""[7.3] The kinds of attack, compared side by side in an attack's preview."""


def attack_kinds(game: VaeVictisGame, state: GameState, seat: Side, args: Mapping[str, Any]) -> list[str]:
    """[7.3, 7.5, 7.6] Every kind of attack the attackers may make on the target, side by side: its action
    points, column, die modifier, the chance of each result and the steps each side may expect to lose; a kind
    they may not make, with the reason."""
    from engine.contract import RulesError
    from engine.vaevictis.odds import Preview, action_cost

    lines = ["Attack kinds side by side (7.3):"]
    for kind in ATTACK_KINDS:
        cost = action_cost(game.data, kind)
        head = f"- {kind} ({cost} AP)"
        try:
            odds = game.preview(state, seat, {**args, "kind": kind})
        except RulesError as error:
            lines.append(f"{head}: not possible: {error}")
            continue
        if isinstance(odds, Preview):
            results = ", ".join(
                f"{text} {float(chance) * 100:.0f}%"
                for text, chance in sorted(odds.probabilities.items(), key=lambda kv: -kv[1])
            )
            attacker, defender = odds.expected_losses
            lines.append(
                f"{head}: column {odds.assessment.column_name}, die {odds.assessment.drm_total:+d}: {results}; "
                f"steps lost expected: yours {float(attacker):.1f}, the defender's {float(defender):.1f}"
            )
        else:
            worst, best = odds.worst, odds.best
            lines.append(
                f"{head}: column {worst.column} to {best.column}, die {worst.drm:+d} to {best.drm:+d}; at worst "
                f"{worst.expected_losses_text(odds.attacker_steps).lower()}; at best "
                f"{best.expected_losses_text(odds.attacker_steps).lower()}"
            )
    return lines


def attackers_text(game: VaeVictisGame, state: GameState, seat: Side, target: Hex) -> str:
    """The units of ``seat`` that may join an attack on ``target`` now, by hex, with their ids (7.1)."""
    able = attackers_of(game, state, seat, target)
    if not able:
        return f"None of your units may attack {hex_name(target)} now (7.1: an attacker stands next to it and may act)."
    by_hex: dict[Hex, list[str]] = {}
    for unit_id in able:
        by_hex.setdefault(state.units[unit_id].hex or 0, []).append(unit_id)
    lines = [f"Your units that may attack {hex_name(target)} now (7.1):"]
    for where, units in sorted(by_hex.items()):
        named = ", ".join(f"{game.data.units[u].name} ({u})" for u in units)
        lines.append(f"- from {hex_name(where)}: {named}")
    lines.append(f"To attack with all of them: attack target={hex_name(target)} attackers={','.join(able)}")
    return "\n".join(lines)


def attack_group(game: VaeVictisGame, state: GameState, seat: Side, target: Hex) -> list[str]:
    """[7.3.1] The units that may attack ``target`` together in a normal attack: those of the one hex (of the
    seat's hexes next to it) whose units are the strongest together."""
    pos = Position(game.data, state)
    by_hex: dict[Hex, list[str]] = {}
    for unit_id in attackers_of(game, state, seat, target):
        by_hex.setdefault(state.units[unit_id].hex or 0, []).append(unit_id)
    if not by_hex:
        return []
    return max(by_hex.values(), key=lambda units: sum(pos.strength(state.units[u]) for u in units))


def close_up(game: VaeVictisGame, state: GameState, seat: Side | None, where: Hex) -> bytes:
    """A small close-up round a hex, as the seat sees it."""
    from render.snapshot import render_map, to_png
    from render.view_picture import picture_from_view

    picture = picture_from_view(game.data, game.view(state, seat), seat=seat)
    return to_png(render_map(picture, region=(where, HEX_CLOSE_UP_RADIUS)))


# --- /unit ---------------------------------------------------------------------------------------------------


def unit_info(game: VaeVictisGame, state: GameState, seat: Side | None, key: str) -> Info:
    """[1, 3, 4.2, 8, 10, 12] A unit: its counter, formation and HQ; for its owner command, supply, AP, MP,
    fatigue, IP, a duty to attack, and what it may do now, with buttons."""
    data = game.data
    named = [u for u, d in data.units.items() if d.name.lower() == key.lower()]
    unit_id = key if key in data.units else (named[0] if named else "")
    report = reports.unit_report(data, state, seat, unit_id) if unit_id else None
    if report is None:
        raise InvalidActionError(f"no unit {key!r} that you can see")
    lines = [
        f"**{report.name}**"
        + (f" ({report.long_name})" if report.long_name else "")
        + f", {report.side}, in {hex_name(report.hex)}",
        unit_line(report.view),
        f"Formation: {report.formation}" + (f", {hq_name(report.hq)}" if report.hq else ", no HQ"),
    ]
    buttons: list[tuple[str, str, str]] = []
    if report.own:
        ap = (
            f"{report.action_points} AP left in this activation, {report.movement_points:g} MP left over (3.4.1, 6.1)"
            if report.in_activation
            else f"{report.action_points} AP if activated now (1.1)"
        )
        lines += [
            f"Command: {report.command}",
            f"Supply: {report.supply}",
            f"{ap}; activated {report.activations} time(s) this turn (3.5)",
            f"Fatigued: {'yes' if report.fatigued else 'no'} (3.5.2); improved position: "
            f"{'yes' if report.improved_position else 'no'} (12)",
        ]
        if report.must_attack:
            lines.append("Must attack before its activation ends (4.2).")
        if report.cannot_move:
            lines.append(f"May not move this turn ({data.rule('17.1')}).")
        unit = state.units[unit_id]
        if unit in legal.units_that_may_act(game, state, report.side):
            options = legal.unit_options(game, state, unit)
            may = []
            if options.destinations:
                may.append(f"move to {len(options.destinations)} hexes")
                buttons.append(("Where can it move", "im", unit_id))
            if options.targets:
                may.append("attack " + ", ".join(hex_name(h) for h in options.targets))
                targets = options.targets[:MAX_ATTACK_BUTTONS]
                buttons += [(f"Attack {hex_name(h)}", "ia", f"{hex_name(h)}.{unit_id}") for h in targets]
            if options.may_dig_in:
                may.append("dig in (12)")
                buttons.append(("Dig in", "ix", f"enter_ip.{unit_id}"))
            if options.may_recover:
                may.append("recover (3.5.2)")
                buttons.append(("Recover", "ix", f"recover.{unit_id}"))
            lines.append("May now: " + ("; ".join(may) if may else "nothing more in this activation"))
        else:
            lines.append("May not act now: it is not part of an activation of its side that it may join.")
    return Info("\n".join(lines), picture=counter_picture(game, report.view), buttons=tuple(buttons))


def counter_picture(game: VaeVictisGame, unit: Mapping[str, Any]) -> bytes:
    """The counter's face, large."""
    from render.counters import counter_tile
    from render.snapshot import to_png
    from render.view_picture import face_from_view

    return to_png(counter_tile(face_from_view(game.data, unit), 160))


# --- /hq -----------------------------------------------------------------------------------------------------


def hq_info(game: VaeVictisGame, state: GameState, seat: Side | None, key: str) -> Info:
    """[1.3, 1.6, 8.1, 9.5] An HQ: ratings, markers held, range, supply, the units in and out of command."""
    report = reports.hq_report(game.data, state, seat, key)
    if report is None:
        raise InvalidActionError(f"no HQ {key!r} that you can see")
    where = f"in {hex_name(report.hex)}" if report.hex is not None else "off the map"
    lines = [
        f"**{hq_name(report.name)}** ({report.formation}), {report.side}, {where}",
        f"Support rating {report.support} (1.3); C3I rating {report.c3i or '-'} (9.5); "
        f"command range {report.command_range} hexes (8.1)",
        f"Support markers held (1.6): {', '.join(m.replace('_', ' ') for m in report.markers) or 'none'}",
    ]
    if report.supplied is not None:
        lines.append(f"Supplied now (10.2): {'yes' if report.supplied else 'no'}")
    if seat == report.side:
        lines.append(f"In command ({len(report.in_command)}): {', '.join(report.in_command) or 'none'}")
        lines.append(f"Out of command ({len(report.out_of_command)}): {', '.join(report.out_of_command) or 'none'}")
    return Info("\n".join(lines))


# --- /oob ----------------------------------------------------------------------------------------------------


def oob_info(game: VaeVictisGame, state: GameState, seat: Side | None, key: str) -> Info:
    """[1.5, 1.6, 16.1, 18] The seat's army, formation by formation; with ``key`` one formation only."""
    data = game.data
    if seat is None:
        return Info("You hold no seat: the order of battle is for the players.")
    oob = reports.order_of_battle(data, state, seat)
    lines = [] if key else [f"**{data.side_name(seat)} order of battle**, turn {state.turn}"]
    menu = []
    for army in oob.armies:
        if not key:
            returning = f"; back next turn: {_pool(army.returning)}" if any(army.returning.values()) else ""
            lines.append(f"__{army.name}__: support pool {_pool(army.pool)}{returning}")
        for formation in army.formations:
            menu.append((formation.name[:100], formation.id))
            if key and key != formation.id:
                continue
            head = f"**{formation.name}**"
            if formation.hq is not None:
                hq = formation.hq
                where = f"in {hex_name(hq.hex)}" if hq.hex is not None else "off the map"
                held = ", ".join(m.replace("_", " ") for m in hq.markers) or "no supports"
                head += f": {hq_name(hq.name)} {where}, range {hq.command_range}, {held}"
            lines.append(head)
            lines += [f"- {hex_name(h)}: {unit_line(u)}" for h, u in formation.units]
            if not formation.units:
                lines.append("- no units on the map")
    if key and not any(f.id == key for a in oob.armies for f in a.formations):
        raise InvalidActionError(f"you have no formation {key!r}")
    if not key:
        if oob.detachments:
            made = "; ".join(f"{d} of {p} in {hex_name(h)}" for d, p, h in oob.detachments)
            lines.append(f"Detachments (18): {made}")
        lines.append(f"Reinforcements to come ({data.rule('16.1')}):")
        coming = [f"- turn {r.turn} at {entry_place(r)}: {', '.join(r.units)}" for r in oob.reinforcements]
        lines += coming or ["- none"]
        lines.append(f"Eliminated: {', '.join(oob.eliminated) or 'none'}")
        lines.append("Events left (15): " + (", ".join(f"{n} {c}" for n, c in oob.events_left if c) or "none"))
        orders = ", ".join(state.standing_orders.get(seat, [])) or "none"
        lines.append(f"Standing orders: {orders}")
    return Info("\n".join(lines), menu=tuple(menu[:25]), menu_verb="io", menu_placeholder="Open one formation")


def entry_place(reinforcements: reports.Reinforcements) -> str:
    """Where reinforcements enter: the region the list names (Alsace 1944 18: an edge of the map), or their
    hexes one by one."""
    if reinforcements.region is not None:
        return f"one of the {len(reinforcements.hexes)} hexes of {reinforcements.region}"
    return " or ".join(hex_name(h) for h in reinforcements.hexes)


# --- /victory, /brief ----------------------------------------------------------------------------------------


def victory_text(status: reports.VictoryStatus) -> str:
    """[17] The conditions as they stand, the turns left, the result if the game ended now."""
    left = status.last_turn - status.turn
    lines = [
        f"**Victory** ({status.scenario}): turn {status.turn} of {status.last_turn}"
        + (", the game is over" if status.over else f", {left} turn(s) after this one")
    ]
    for condition in status.conditions:
        lines.append(f"- {condition.condition}: {'MET' if condition.met else 'not met'}; {condition.detail}")
    winner, result = status.if_ended_now
    lines.append(("Result" if status.over else "If the game ended now") + f": {winner} wins ({result})")
    return "\n".join(lines)


def brief_text(brief: reports.Briefing) -> str:
    """[17] The scenario's briefing."""
    lines = [f"**{brief.game}: {brief.scenario}** (rule {brief.rule}), {len(brief.turns)} turns"]
    lines += [f"- turn {n}: {', '.join(w for w in (date, weather) if w)}" for n, date, weather in brief.turns]
    lines.append("Special rules:")
    lines += [f"- {r}" for r in brief.special_rules] or ["- none"]
    lines.append("Victory conditions:")
    lines += [f"- {v}" for v in brief.victory]
    lines.append(f"- otherwise: {brief.default_result} wins")
    options = [f"{OPTIONS.get(o, o)}" for o in brief.options]
    lines.append(f"Optional rules in force: {', '.join(options) or 'none'}")
    return "\n".join(lines)


# --- The turn report -----------------------------------------------------------------------------------------


def turn_report_text(game: VaeVictisGame, state: GameState, seat: Side, log: Log) -> str:
    """[2.1] The report of the turn begun last: statuses changed, statuses in force, reinforcements due,
    pools, events left, victory status."""
    began: list[Mapping[str, Any]] = []
    for row in reversed(log):
        if any(e.get("kind") == "turn" for e in row["events"]):
            events = list(row["events"])
            start = max(i for i, e in enumerate(events) if e.get("kind") == "turn")
            began = events[start:]
            break
    report = reports.turn_report(game.data, state, seat, began)
    when = ", ".join(w for w in (report.date, report.weather) if w)  # Alsace 1944 has no weather
    lines = [f"**Turn {report.turn}** ({when}): your report, {game.data.side_name(seat)} player"]
    if report.changes:
        changed = ", ".join(f"{n} {s}" for n, s in report.changes)
        lines.append(f"Changed at the start of the turn (8.1, 10.3): {changed}")
    lines.append(f"Out of command (8.1): {', '.join(report.out_of_command) or 'none'}")
    lines.append(f"Isolated (10.3): {', '.join(report.isolated) or 'none'}")
    lines.append(f"Unsupplied (10.3): {', '.join(report.unsupplied) or 'none'}")
    due = [f"{', '.join(r.units)} at {entry_place(r)}" for r in report.reinforcements]
    lines.append(f"Reinforcements due this turn ({game.data.rule('16.1')}): {'; '.join(due) or 'none'}")
    lines.append("Support pools (1.6): " + "; ".join(f"{a}: {_pool(p)}" for a, p in report.pools))
    lines.append("Events left (15): " + (", ".join(f"{n} {c}" for n, c in report.events_left) or "none"))
    lines.append(f"Events you may play now (15): {', '.join(report.playable) or 'none'}")
    lines.append(victory_text(report.victory))
    return "\n".join(lines)


# --- /stats --------------------------------------------------------------------------------------------------


def stats_text(game: VaeVictisGame, stats: history.Statistics) -> str:
    """[1.2, 1.6.1, 7.5] The statistics of the game so far."""
    lines = ["**Statistics**"]
    for side in SIDES:
        figures = stats.sides[side]
        lost = sum(figures.steps_lost.values())
        eliminated = sum(len(v) for v in figures.eliminated.values())
        lines.append(f"__{game.data.side_name(side)}__: {lost} step(s) lost, {eliminated} unit(s) eliminated")
        for turn in stats.turns:
            if figures.steps_lost.get(turn) or figures.eliminated.get(turn):
                gone = figures.eliminated.get(turn, [])
                lines.append(
                    f"- turn {turn}: {figures.steps_lost.get(turn, 0)} step(s)"
                    + (f"; eliminated {', '.join(gone)}" if gone else "")
                )
        if figures.attacks:
            attacks = "; ".join(f"{column}: {', '.join(found)}" for column, found in sorted(figures.attacks.items()))
            lines.append(f"- attacks by column (results attacker/defender): {attacks}")
        lines.append(f"- supports committed: {_pool(figures.supports_spent)}; lost: {_pool(figures.supports_lost)}")
        dice = stats.combat_dice[side]
        if dice.count:
            lines.append(f"- combat dice of its attacks: {dice.count}, mean {dice.mean:.2f} ({_luck(dice)})")
    every = stats.all_dice
    if every.count:
        lines.append(f"All dice: {every.count} rolled, mean {every.mean:.2f} against 3.50 expected ({_luck(every)}).")
    if stats.hidden_losses:
        lines.append("Fog of war (11): the other side's losses are counted only where inflicted in combat.")
    return "\n".join(lines)


def _luck(luck: history.Luck) -> str:
    words = "about as expected" if abs(luck.deviations) < 1 else "lucky" if luck.deviations > 0 else "unlucky"
    return f"{luck.deviations:+.1f} standard deviations, {words}"


# --- /replay -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PastActivation:
    """One activation of the game, as rebuilt from the log."""

    turn: int
    number: int
    """Its number within the turn, from 1."""
    text: str
    """The event that opened it."""
    state: GameState
    """The position when it ended."""
    events: tuple[Mapping[str, Any], ...]
    """Its events, from its opening to its end."""


@dataclass(frozen=True)
class Replayed:
    """What a replay of the log gives the pictures of the past."""

    activations: tuple[PastActivation, ...]
    attack_sources: tuple[tuple[int, frozenset[Hex]], ...]
    """For each combat of the game in order: its turn and the hexes its attackers stood in."""


REPLAY_CACHE_SIZE = 1
"""Replays kept (the last game browsed with ``replay`` buttons is not replayed again at each press)."""

_replays: OrderedDict[tuple[str, str | None, str], Replayed] = OrderedDict()
_replays_lock = threading.Lock()


def replayed(game: VaeVictisGame, state: GameState, log: Log, seat: Side | None = None) -> Replayed:
    """The replay of the log (kept for the next question about the same log)."""
    actions = json.dumps([[r["seat"], r["verb"], r["args"]] for r in log], sort_keys=True, default=str)
    setup = json.dumps([state.scenario, state.options], sort_keys=True)
    key = (state.seed, seat, hashlib.sha256(f"{setup}{actions}".encode()).hexdigest())
    with _replays_lock:
        if key in _replays:
            _replays.move_to_end(key)
            return _replays[key]
    sources: list[tuple[int, frozenset[Hex]]] = []
    found = Replayed(tuple(replay_activations(game, state, log, sources)), tuple(sources))
    with _replays_lock:
        _replays[key] = found
        while len(_replays) > REPLAY_CACHE_SIZE:
            _replays.popitem(last=False)
    return found


def replay_activations(
    game: VaeVictisGame, state: GameState, log: Log, attack_sources: list[tuple[int, frozenset[Hex]]] | None = None
) -> Iterator[PastActivation]:
    """Every activation of the game in order, each with the position when it ended, by replaying the log
    from the game's seed (``state`` gives the scenario, options and seed). ``attack_sources`` receives, for
    each combat, its turn and the hexes its attackers stood in."""
    position = game.new_game(state.scenario, state.options, bytes.fromhex(state.seed))
    turn = 1
    counts: dict[int, int] = {}
    current: list[Mapping[str, Any]] | None = None
    opened = (0, 0, "")
    for row in log:
        before = position
        position, _ = game.apply(position, Action(str(row["seat"]), str(row["verb"]), dict(row["args"])))
        for event in row["events"]:
            kind = event.get("kind")
            if kind == "activation":
                counts[turn] = counts.get(turn, 0) + 1
                current = []
                opened = (turn, counts[turn], str(event.get("text", "")))
            if current is not None:
                current.append(event)
            if kind == "turn":
                turn = int(event.get("data", {}).get("turn", turn))
            if kind == "combat" and attack_sources is not None:
                attackers = [str(a) for a in event.get("data", {}).get("attackers", [])]
                stood = {before.units[a].hex for a in attackers if a in before.units}
                attack_sources.append((turn, frozenset(h for h in stood if h is not None)))
            if kind == "end-activation" and current is not None:
                yield PastActivation(opened[0], opened[1], opened[2], position.copy(), tuple(current))
                current = None
    if current is not None:
        yield PastActivation(opened[0], opened[1], opened[2], position.copy(), tuple(current))


def activation_picture(game: VaeVictisGame, past: PastActivation, seat: Side | None, region: Region) -> bytes:
    """The picture of a past activation with its arrows, as ``seat`` saw the position when it ended."""
    from render.happened import last_activation
    from render.snapshot import render_map, to_png
    from render.view_picture import picture_from_view

    events = [Event(str(e["kind"]), str(e.get("text", "")), dict(e.get("data", {}))) for e in past.events]
    who = f", seen by {game.data.side_name(seat)}" if seat else ""
    picture = picture_from_view(
        game.data,
        game.view(past.state, seat),
        last_activation(events),
        seat=seat,
        title=f"{game.data.name}, turn {past.turn}, activation {past.number}{who}",
    )
    return to_png(render_map(picture, region=region(last_activation(events))))


def replay_info(game: VaeVictisGame, state: GameState, seat: Side | None, key: str, log: Log, region: Region) -> Info:
    """[3] ``key`` "turn" or "turn.activation": the picture of that activation (the first of the turn by
    default), and buttons for the turn's others."""
    turn_text, _, number_text = key.partition(".")
    if not turn_text.isdigit() or (number_text and not number_text.isdigit()):
        raise InvalidActionError("give a turn number, and an activation number if you like")
    turn, number = int(turn_text), int(number_text or 1)
    found = [p for p in replayed(game, state, log, seat).activations if p.turn == turn]
    if not found:
        raise InvalidActionError(f"no activation was played on turn {turn}")
    chosen = next((p for p in found if p.number == number), None)
    if chosen is None:
        raise InvalidActionError(f"turn {turn} had {len(found)} activation(s); choose 1 to {len(found)}")
    lines = [f"**Turn {turn}, activation {number}** of {len(found)}: {chosen.text}"]
    picture = activation_picture(game, chosen, seat, region)
    buttons = tuple((f"Activation {p.number}", "ip", f"{turn}.{p.number}") for p in found if p.number != number)
    return Info("\n".join(lines), picture=picture, buttons=buttons[:20])


def replay_pictures(
    game: VaeVictisGame, state: GameState, seat: Side | None, log: Log, region: Region
) -> Iterator[tuple[str, bytes]]:
    """Every activation's picture as ``seat`` saw it: (file name, PNG), in order."""
    for past in replay_activations(game, state, log):
        name = f"turn{past.turn}-activation{past.number:02d}-{seat or 'public'}.png"
        yield name, activation_picture(game, past, seat, region)


# --- /map overlay:combats ------------------------------------------------------------------------------------


def combat_marks(game: VaeVictisGame, state: GameState, seat: Side | None, log: Log, turns: int) -> list[AttackMark]:
    """[7.5] The combats of the last ``turns`` turns (this one included) as attack marks, each arrow from the
    hexes its attackers stood in (from the replayed position), the latest in red and the others muted."""
    from render.picture import AttackMark

    first = state.turn - max(1, turns) + 1
    sources = replayed(game, state, log, seat).attack_sources
    fought = history.combats(game.data, [r["events"] for r in log])
    marks = [
        AttackMark(
            target,
            tuple(sorted(h for h in stood if h != target)),
            combat.result,
            combat.side,
            combat.breakthrough,
            earlier=combat.index != len(fought) - 1,
        )
        for combat, (turn, stood) in zip(fought, sources, strict=True)
        if turn >= first
        for target in combat.targets
    ]
    return marks


def combats_info(game: VaeVictisGame, state: GameState, seat: Side | None, key: str, log: Log, region: Region) -> Info:
    """[7.5] The map with the combats of this turn (``key``: of the last N turns), results at the arrows'
    heads, the latest in red: a close-up when they lie close together."""
    from render.picture import Happenings
    from render.snapshot import render_map, to_png
    from render.view_picture import picture_from_view

    turns = int(key) if key.isdigit() and int(key) > 0 else 1
    marks = combat_marks(game, state, seat, log, turns)
    span = f"turn {state.turn}" if turns == 1 else f"turns {max(1, state.turn - turns + 1)}-{state.turn}"
    who = f", seen by {game.data.side_name(seat)}" if seat else ""
    picture = picture_from_view(game.data, game.view(state, seat), seat=seat, title=f"Combats of {span}{who}")
    picture = replace(picture, happened=Happenings(attacks=tuple(marks)))
    combats = history.combats(game.data, [r["events"] for r in log])
    listed = [c for c in combats if c.turn >= state.turn - turns + 1]
    lines = [f"**Combats of {span}**: {len(listed)} (the latest in red)"]
    lines += [
        f"- turn {c.turn}, {', '.join(hex_name(h) for h in c.targets)}: {c.side} attack, column {c.column}, "
        f"die {c.die} {c.drm:+d}: {c.result}" + (" (breakthrough)" if c.breakthrough else "")
        for c in listed
    ]
    touched = [Event("combat", "", {"hexes": [m.target, *m.sources]}) for m in marks]
    return Info("\n".join(lines), picture=to_png(render_map(picture, region=region(touched))))
