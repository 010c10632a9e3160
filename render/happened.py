"""What just happened: the last activation's moves, attacks, retreats, advances and eliminations.

:func:`happenings` reads them from the engine's events alone (it decides nothing): the path of every
``move``, each ``combat`` (or an ``attack`` still waiting for its result) with the hexes its attackers stood
in, the hex-by-hex ``retreat`` and ``advance`` steps joined into arrows, and each ``eliminated`` unit's last
hex. Where the attackers stood is worked out by walking the events backwards from the positions the seat
sees now, undoing each move, retreat and advance; an attacker the seat cannot place gives no arrow.

:func:`draw_happenings` draws them over the counters: solid arrows along the hex centres for moves, red
arrows into the target with the result for attacks, dashed arrows for retreats (orange) and advances
(purple), and a red cross where a unit was eliminated.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from PIL import ImageDraw

from engine.contract import Event
from engine.hexgrid import Hex, parse_hex
from render import palette
from render.fonts import draw_text
from render.layout import Layout, Point
from render.picture import Arrow, AttackMark, Happenings

ACTIVATION_KINDS = ("activation",)
"""Event kinds that open an activation: the last activation's events start at the last of them."""


def last_activation(events: Sequence[Event]) -> list[Event]:
    """The events from the start of the last activation on (all of them when none starts one)."""
    for index in range(len(events) - 1, -1, -1):
        if events[index].kind in ACTIVATION_KINDS:
            return list(events[index:])
    return list(events)


def _hex(value: Any) -> Hex | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return parse_hex(value)
        except ValueError:
            return None
    return None


def _units(data: Mapping[str, Any]) -> list[str]:
    units = data.get("units")
    if isinstance(units, list):
        return [str(u) for u in units]
    unit = data.get("unit")
    return [str(unit)] if unit else []


def happenings(
    events: Iterable[Event],
    positions: Mapping[str, Hex],
    *,
    side_of: Callable[[str], str | None] = lambda unit: None,
    label_of: Callable[[str], str] = lambda unit: "",
) -> Happenings:
    """The marks of a list of events (normally :func:`last_activation`).

    ``positions``: the hex of each unit the seat sees now. ``side_of`` and ``label_of`` name a unit's side
    (for the arrow's colour) and the text at an arrow's head (empty to leave it bare, e.g. under fog of war).
    """
    events = list(events)
    where = dict(positions)
    placed: dict[int, dict[str, Hex]] = {}
    for index in range(len(events) - 1, -1, -1):
        event = events[index]
        data = event.data
        if event.kind in ("attack", "combat"):
            placed[index] = dict(where)
        elif event.kind == "move":
            path = [h for h in (_hex(p) for p in data.get("path", [])) if h is not None]
            if path:
                for unit in _units(data):
                    where[unit] = path[0]
        elif event.kind in ("retreat", "advance"):
            start = _hex(data.get("from"))
            if start is not None:
                for unit in _units(data):
                    where[unit] = start
        elif event.kind in ("eliminated", "eliminate"):
            hex_ = _hex(data.get("hex"))
            gone = data.get("unit")
            if hex_ is not None and gone:
                where[str(gone)] = hex_

    moves: list[Arrow] = []
    attacks: list[AttackMark] = []
    retreats: list[list[Any]] = []
    advances: list[list[Any]] = []
    eliminated: list[tuple[Hex, str]] = []
    open_attack: dict[Hex, int] = {}

    def step(chains: list[list[Any]], units: tuple[str, ...], start: Hex, end: Hex) -> None:
        for chain in reversed(chains):
            if chain[0] == units and chain[1][-1] == start:
                chain[1].append(end)
                return
        chains.append([units, [start, end]])

    for index, event in enumerate(events):
        data = event.data
        if event.kind == "move":
            steps = tuple(h for h in (_hex(p) for p in data.get("path", [])) if h is not None)
            movers = _units(data)
            if len(steps) >= 2 and movers:
                label = " + ".join(t for t in (label_of(u) for u in movers) if t)
                moves.append(Arrow(steps, _side(side_of, movers), label))
        elif event.kind in ("attack", "combat"):
            plan = data.get("plan", data)
            # 7.2: one attack may target several hexes; each gets its arrow and the combat's result.
            targets = [h for h in (_hex(t) for t in (plan.get("targets") or [plan.get("target")])) if h is not None]
            attackers = [str(a) for a in plan.get("attackers", [])]
            known = placed.get(index, {})
            for target in targets:
                sources = tuple(sorted({known[a] for a in attackers if a in known and known[a] != target}))
                mark = AttackMark(
                    target=target,
                    sources=sources,
                    result=str(data.get("result", "")) if event.kind == "combat" else "",
                    side=_side(side_of, attackers) or plan.get("side"),
                    breakthrough=bool(data.get("breakthrough", False)),
                )
                if target in open_attack and not attacks[open_attack[target]].result:
                    attacks[open_attack[target]] = mark  # the result of the attack announced just before
                else:
                    open_attack[target] = len(attacks)
                    attacks.append(mark)
        elif event.kind == "breakthrough":
            marked = _hex(data.get("hex"))
            for k in range(len(attacks) - 1, -1, -1):
                if attacks[k].target == marked:
                    old = attacks[k]
                    attacks[k] = AttackMark(old.target, old.sources, old.result, old.side, True)
                    break
        elif event.kind in ("retreat", "advance"):
            start, end = _hex(data.get("from")), _hex(data.get("to"))
            group = tuple(_units(data))
            if start is not None and end is not None and start != end and group:
                step(retreats if event.kind == "retreat" else advances, group, start, end)
        elif event.kind in ("eliminated", "eliminate"):
            hex_ = _hex(data.get("hex"))
            unit = str(data.get("unit", ""))
            if hex_ is not None:
                eliminated.append((hex_, label_of(unit) if unit else ""))

    def arrows(chains: list[list[Any]]) -> tuple[Arrow, ...]:
        return tuple(Arrow(tuple(path), _side(side_of, list(units)), "") for units, path in chains)

    return Happenings(
        moves=tuple(moves),
        attacks=tuple(attacks),
        retreats=arrows(retreats),
        advances=arrows(advances),
        eliminated=tuple(eliminated),
    )


def _side(side_of: Callable[[str], str | None], units: Sequence[str]) -> Any:
    for unit in units:
        side = side_of(unit)
        if side:
            return side
    return None


# --- Drawing -------------------------------------------------------------------------------------------------


def draw_happenings(
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    happened: Happenings,
    offset: Point,
    shown: Callable[[Hex], bool],
    occupied: frozenset[Hex] = frozenset(),
) -> None:
    """Draw the arrows and crosses of the last activation; ``offset`` is subtracted from map positions (a
    close-up's crop). A unit eliminated in a hex that holds a stack now (the victor advanced into it) gets its
    cross beside that stack, not over it. The combat results go on top of everything: :func:`draw_results`."""
    if not happened:
        return
    width = max(3, round(layout.size * 0.09))

    def at(hex_: Hex) -> Point:
        x, y = layout.center(hex_)
        return x - offset[0], y - offset[1]

    for arrow in happened.moves:
        if any(shown(h) for h in arrow.path):
            _arrow(draw, [at(h) for h in arrow.path], palette.MOVE_ARROW, width, layout.size, dashed=False)
    for arrow in happened.retreats:
        if any(shown(h) for h in arrow.path):
            _arrow(draw, [at(h) for h in arrow.path], palette.RETREAT_ARROW, width, layout.size, dashed=True)
    for arrow in happened.advances:
        if any(shown(h) for h in arrow.path):
            _arrow(draw, [at(h) for h in arrow.path], palette.ADVANCE_ARROW, width, layout.size, dashed=True)
    for attack in happened.attacks:
        if not shown(attack.target):
            continue
        for source in attack.sources:
            _arrow(
                draw,
                [at(source), at(attack.target)],
                palette.EARLIER_ATTACK_ARROW if attack.earlier else palette.ATTACK_ARROW,
                width + 1,
                layout.size,
                dashed=False,
                start=0.1,
                end=0.4,
            )
    for hex_, _ in happened.eliminated:
        if not shown(hex_):
            continue
        if hex_ in occupied:
            x, y = at(hex_)
            _cross(draw, (x - layout.size * 0.76, y), layout.size * 0.17, max(3, round(layout.size * 0.07)))
        else:
            _cross(draw, at(hex_), layout.size * 0.42, max(4, round(layout.size * 0.12)))


def draw_results(
    draw: ImageDraw.ImageDraw, layout: Layout, happened: Happenings, offset: Point, shown: Callable[[Hex], bool]
) -> None:
    """Draw each combat's result box over its target, after everything else so nothing hides it."""

    def at(hex_: Hex) -> Point:
        x, y = layout.center(hex_)
        return x - offset[0], y - offset[1]

    for attack in happened.attacks:
        if shown(attack.target):
            _result(draw, layout, attack, at)


def _shorten(points: list[Point], start: float, end: float) -> list[Point]:
    """The polyline with ``start`` pixels cut from its beginning and ``end`` from its end."""
    (x0, y0), (x1, y1) = points[0], points[1]
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    first = (x0 + (x1 - x0) * start / length, y0 + (y1 - y0) * start / length)
    (xa, ya), (xb, yb) = points[-2], points[-1]
    length = math.hypot(xb - xa, yb - ya) or 1.0
    last = (xb - (xb - xa) * end / length, yb - (yb - ya) * end / length)
    if len(points) == 2:
        return [first, last]
    return [first, *points[1:-1], last]


def _arrow(
    draw: ImageDraw.ImageDraw,
    points: list[Point],
    colour: palette.RGB,
    width: int,
    hex_size: float,
    dashed: bool,
    start: float = 0.2,
    end: float = 0.45,
) -> None:
    """A cased polyline with a head, stopping short of the last centre so the counter there stays readable;
    ``start`` and ``end`` are cut from its ends, in hex radii."""
    if len(points) < 2:
        return
    points = _shorten(points, hex_size * start, hex_size * end)
    (xa, ya), (xb, yb) = points[-2], points[-1]
    angle = math.atan2(yb - ya, xb - xa)
    head = max(12.0, width * 4.2)
    tip = (xb, yb)
    left = (xb - head * math.cos(angle - 0.45), yb - head * math.sin(angle - 0.45))
    right = (xb - head * math.cos(angle + 0.45), yb - head * math.sin(angle + 0.45))
    base = (xb - head * 0.8 * math.cos(angle), yb - head * 0.8 * math.sin(angle))
    line_points = [*points[:-1], base]
    casing = (255, 255, 255)
    segments = _dashes(line_points, width * 2.5, width * 1.6) if dashed else [line_points]
    for segment in segments:
        draw.line(segment, fill=casing, width=width + 4, joint="curve")
    draw.polygon([tip, left, right], fill=casing, outline=casing, width=3)
    for segment in segments:
        draw.line(segment, fill=colour, width=width, joint="curve")
    draw.polygon([tip, left, right], fill=colour)
    x, y = points[0]
    r = width * 0.9
    draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=casing, width=2)


def _dashes(points: list[Point], dash: float, gap: float) -> list[list[Point]]:
    """A polyline cut into dashes of ``dash`` pixels with ``gap`` pixels between them."""
    dashes: list[list[Point]] = []
    current: list[Point] = [points[0]]
    drawing, left = True, dash
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        length = math.hypot(x1 - x0, y1 - y0)
        done = 0.0
        while length - done > left:
            done += left
            point = (x0 + (x1 - x0) * done / length, y0 + (y1 - y0) * done / length)
            if drawing:
                current.append(point)
                dashes.append(current)
            current = [point]
            drawing, left = not drawing, gap if drawing else dash
        left -= length - done
        if drawing:
            current.append((x1, y1))
    if drawing and len(current) > 1:
        dashes.append(current)
    return dashes


def _cross(draw: ImageDraw.ImageDraw, center: Point, half: float, width: int) -> None:
    x, y = center
    for colour, grow in (((255, 255, 255), 4), (palette.ELIMINATED, 0)):
        draw.line((x - half, y - half, x + half, y + half), fill=colour, width=width + grow)
        draw.line((x - half, y + half, x + half, y - half), fill=colour, width=width + grow)


def _result(draw: ImageDraw.ImageDraw, layout: Layout, attack: AttackMark, at: Callable[[Hex], Point]) -> None:
    """The combat result in a red box over the target's hex number, "BT" added on a breakthrough (green)."""
    text = attack.result or "?"
    if attack.breakthrough:
        text += " BT"
    tx, ty = at(attack.target)
    size = max(9, round(layout.size * 0.3))
    half_w, half_h = size * (0.32 * len(text) + 0.4), size * 0.72
    counter_top = layout.center(attack.target)[1] - layout.counter_box(attack.target)[1]
    x, y = tx, ty - counter_top - half_h + 2
    fill = palette.MAP_MARKS["breakthrough"][1] if attack.breakthrough else palette.ATTACK_ARROW
    if attack.earlier:
        fill = palette.EARLIER_ATTACK_ARROW
    draw.rounded_rectangle(
        (x - half_w, y - half_h, x + half_w, y + half_h), radius=size * 0.3, fill=fill, outline=(255, 255, 255), width=2
    )
    draw_text(draw, (x, y), text, size, (255, 255, 255))
