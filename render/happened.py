"""What just happened: the last activation's moves, attacks, retreats, advances and eliminations.

:func:`happenings` reads them from the engine's events alone (it decides nothing): the path of every
``move``, each ``combat`` (or an ``attack`` still waiting for its result) with the hexes its attackers stood
in, the hex-by-hex ``retreat`` and ``advance`` steps joined into arrows, and each ``eliminated`` unit's last
hex. Where the attackers stood is worked out by walking the events backwards from the positions the seat
sees now, undoing each move, retreat and advance; an attacker the seat cannot place gives no arrow.

:func:`draw_arrows` draws them under the counters (no arrow hides a counter's values): solid arrows along the
hex centres for moves, red arrows into the target for attacks, dashed arrows for retreats (orange) and
advances (purple). Over the counters, :func:`draw_crosses` puts a red cross where a unit was eliminated and
:func:`draw_results` each combat's result, where :class:`render.placement.Placer` finds room.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import ImageDraw

from engine.contract import Event
from engine.hexgrid import Hex, parse_hex
from render import palette
from render.fonts import draw_text, text_width
from render.layout import Layout, Point
from render.picture import Arrow, AttackMark, Happenings
from render.placement import Placer, centred, ring

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
    placed = _places_at_attacks(events, positions)
    marks = _Marks()
    for index, event in enumerate(events):
        data = event.data
        if event.kind == "move":
            steps = tuple(h for h in (_hex(p) for p in data.get("path", [])) if h is not None)
            movers = _units(data)
            if len(steps) >= 2 and movers:
                label = " + ".join(t for t in (label_of(u) for u in movers) if t)
                marks.moves.append(Arrow(steps, _side(side_of, movers), label))
        elif event.kind in ("attack", "combat"):
            marks.add_attack(event, placed.get(index, {}), side_of)
        elif event.kind == "breakthrough":
            marks.breakthrough(_hex(data.get("hex")))
        elif event.kind in ("retreat", "advance"):
            start, end = _hex(data.get("from")), _hex(data.get("to"))
            group = tuple(_units(data))
            if start is not None and end is not None and start != end and group:
                _step(marks.retreats if event.kind == "retreat" else marks.advances, group, start, end)
        elif event.kind in ("eliminated", "eliminate"):
            hex_ = _hex(data.get("hex"))
            unit = str(data.get("unit", ""))
            if hex_ is not None:
                marks.eliminated.append((hex_, label_of(unit) if unit else ""))

    def arrows(chains: list[list[Any]]) -> tuple[Arrow, ...]:
        return tuple(Arrow(tuple(path), _side(side_of, list(units)), "") for units, path in chains)

    return Happenings(
        moves=tuple(marks.moves),
        attacks=tuple(marks.attacks),
        retreats=arrows(marks.retreats),
        advances=arrows(marks.advances),
        eliminated=tuple(marks.eliminated),
    )


def _places_at_attacks(events: Sequence[Event], positions: Mapping[str, Hex]) -> dict[int, dict[str, Hex]]:
    """Where every unit stood when each attack or combat was announced (by its index in ``events``): the
    positions now, walked back through the moves, retreats, advances and eliminations after it."""
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
    return placed


def _step(chains: list[list[Any]], units: tuple[str, ...], start: Hex, end: Hex) -> None:
    """A retreat's or advance's step: it lengthens the same units' chain that ends where it starts, or begins
    a new one."""
    for chain in reversed(chains):
        if chain[0] == units and chain[1][-1] == start:
            chain[1].append(end)
            return
    chains.append([units, [start, end]])


@dataclass
class _Marks:
    """The marks of :func:`happenings` as the events are read, in order."""

    moves: list[Arrow] = field(default_factory=list)
    attacks: list[AttackMark] = field(default_factory=list)
    retreats: list[list[Any]] = field(default_factory=list)
    """Chains of steps: ``[units, [hex, hex, ...]]``."""
    advances: list[list[Any]] = field(default_factory=list)
    eliminated: list[tuple[Hex, str]] = field(default_factory=list)
    open_attack: dict[Hex, int] = field(default_factory=dict)
    """Each target's latest attack (its index in :attr:`attacks`)."""

    def add_attack(self, event: Event, known: Mapping[str, Hex], side_of: Callable[[str], str | None]) -> None:
        """An attack (or a combat's result, which completes the attack announced just before on its target)."""
        data = event.data
        plan = data.get("plan", data)
        # 7.2: one attack may target several hexes; each gets its arrow and the combat's result.
        targets = [h for h in (_hex(t) for t in (plan.get("targets") or [plan.get("target")])) if h is not None]
        attackers = [str(a) for a in plan.get("attackers", [])]
        for target in targets:
            sources = tuple(sorted({known[a] for a in attackers if a in known and known[a] != target}))
            mark = AttackMark(
                target=target,
                sources=sources,
                result=str(data.get("result", "")) if event.kind == "combat" else "",
                side=_side(side_of, attackers) or plan.get("side"),
                breakthrough=bool(data.get("breakthrough", False)),
            )
            if target in self.open_attack and not self.attacks[self.open_attack[target]].result:
                self.attacks[self.open_attack[target]] = mark  # the result of the attack announced just before
            else:
                self.open_attack[target] = len(self.attacks)
                self.attacks.append(mark)

    def breakthrough(self, marked: Hex | None) -> None:
        """The latest attack on ``marked`` made a breakthrough."""
        for k in range(len(self.attacks) - 1, -1, -1):
            if self.attacks[k].target == marked:
                old = self.attacks[k]
                self.attacks[k] = AttackMark(old.target, old.sources, old.result, old.side, True)
                break


def _side(side_of: Callable[[str], str | None], units: Sequence[str]) -> Any:
    for unit in units:
        side = side_of(unit)
        if side:
            return side
    return None


# --- Drawing -------------------------------------------------------------------------------------------------

Boxes = Mapping[Hex, tuple[float, float, float, float]]
"""The counter box of each occupied hex, in canvas pixels."""

LANE_ORDER = (0, 1, -1, 2, -2, 3, -3)
"""Arrows that share a stretch between two hexes are drawn side by side: the first on the line, the next to
one side, the next to the other, and so on."""


def draw_arrows(
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    happened: Happenings,
    offset: Point,
    shown: Callable[[Hex], bool],
    counters: Boxes = {},  # noqa: B006 - read only
) -> None:
    """Draw the arrows of the last activation, under the counters (drawn next), so that no arrow hides a
    counter's values; each head stops at the edge of the counter it points at. Arrows along the same stretch
    between two hexes (a retreat and the advance after it, two moves down one road) are drawn side by side.
    ``offset`` is subtracted from map positions (a close-up's crop); ``counters``: the box of each occupied
    hex on the canvas."""
    if not happened:
        return
    width = max(3, round(layout.size * 0.09))
    lanes: dict[frozenset[Hex], int] = {}

    def at(hex_: Hex) -> Point:
        x, y = layout.center(hex_)
        return x - offset[0], y - offset[1]

    def draw_one(path: Sequence[Hex], colour: palette.RGB, line: int, dashed: bool, attack: bool = False) -> None:
        stretches = [frozenset(pair) for pair in itertools.pairwise(path) if pair[0] != pair[1]]
        lane = max((lanes.get(s, 0) for s in stretches), default=0)
        for stretch in stretches:
            lanes[stretch] = lane + 1
        shift = LANE_ORDER[min(lane, len(LANE_ORDER) - 1)] * line * 1.9
        points = _offset_path(path, [at(h) for h in path], shift)
        start = 0.1 if attack else 0.2
        points = _shorten(points, layout.size * start, 0.0)
        points[-1] = _stop_at(points[-2], points[-1], counters.get(path[-1]), layout.size * (0.4 if attack else 0.45))
        _arrow(draw, points, colour, line, dashed=dashed)

    for arrow in happened.moves:
        if any(shown(h) for h in arrow.path):
            draw_one(arrow.path, palette.MOVE_ARROW, width, dashed=False)
    for arrow in happened.retreats:
        if any(shown(h) for h in arrow.path):
            draw_one(arrow.path, palette.RETREAT_ARROW, width, dashed=True)
    for arrow in happened.advances:
        if any(shown(h) for h in arrow.path):
            draw_one(arrow.path, palette.ADVANCE_ARROW, width, dashed=True)
    for attack in happened.attacks:
        if not shown(attack.target):
            continue
        colour = palette.EARLIER_ATTACK_ARROW if attack.earlier else palette.ATTACK_ARROW
        for source in attack.sources:
            draw_one((source, attack.target), colour, width + 1, dashed=False, attack=True)


def draw_crosses(
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    happened: Happenings,
    offset: Point,
    shown: Callable[[Hex], bool],
    counters: Boxes = {},  # noqa: B006 - read only
    placer: Placer | None = None,
) -> None:
    """A red cross where each unit was eliminated; in a hex that holds a stack now (the victor advanced into
    it), a small one beside the stack where ``placer`` finds room, not over it."""
    for hex_, _ in happened.eliminated:
        if not shown(hex_):
            continue
        box = counters.get(hex_)
        if box is None:
            x, y = layout.center(hex_)
            _cross(draw, (x - offset[0], y - offset[1]), layout.size * 0.42, max(4, round(layout.size * 0.12)))
            continue
        half = layout.size * 0.17
        side = 2 * half + 4
        cy = (box[1] + box[3]) / 2
        candidates = [centred(box[0] - side / 2 - 3, cy, side, side), *ring(box, side, side)]
        chosen = placer.place(candidates) if placer is not None else candidates[0]
        _cross(
            draw, ((chosen[0] + chosen[2]) / 2, (chosen[1] + chosen[3]) / 2), half, max(3, round(layout.size * 0.07))
        )


def draw_results(
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    happened: Happenings,
    offset: Point,
    shown: Callable[[Hex], bool],
    placer: Placer | None = None,
) -> None:
    """Draw each combat's result box by its target, after everything else so nothing hides it: over the
    target's hex number, or where ``placer`` finds room that hides no counter's values."""
    for attack in happened.attacks:
        if shown(attack.target):
            _result(draw, layout, attack, offset, placer)


def _offset_path(path: Sequence[Hex], points: list[Point], shift: float) -> list[Point]:
    """The polyline moved ``shift`` pixels sideways, each stretch the same way whichever way it is walked (so
    that arrows in opposite directions along one stretch part)."""
    if not shift or len(points) < 2:
        return list(points)
    normals: list[Point] = []
    for (a, b), (pa, pb) in zip(itertools.pairwise(path), itertools.pairwise(points), strict=True):
        (x0, y0), (x1, y1) = (pa, pb) if a <= b else (pb, pa)
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        normals.append((-(y1 - y0) / length, (x1 - x0) / length))
    moved: list[Point] = []
    for index, (x, y) in enumerate(points):
        near = [normals[k] for k in (index - 1, index) if 0 <= k < len(normals)]
        nx, ny = sum(n[0] for n in near) / len(near), sum(n[1] for n in near) / len(near)
        moved.append((x + nx * shift, y + ny * shift))
    return moved


def _stop_at(before: Point, end: Point, box: tuple[float, float, float, float] | None, default: float) -> Point:
    """Where an arrow ending at ``end`` stops: a few pixels short of the counter ``box`` it points at, or
    ``default`` pixels short of ``end`` when no counter is there."""
    (xa, ya), (xb, yb) = before, end
    length = math.hypot(xb - xa, yb - ya) or 1.0
    ux, uy = (xb - xa) / length, (yb - ya) / length
    if box is None:
        cut = default
    else:
        left, top, right, bottom = box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3
        # How far back from ``end`` the segment leaves the box (``end`` lies inside it).
        limits = []
        if ux:
            limits.append(((xb - left) / ux) if ux > 0 else ((xb - right) / ux))
        if uy:
            limits.append(((yb - top) / uy) if uy > 0 else ((yb - bottom) / uy))
        cut = min(limits) if limits else default
        cut = max(0.0, cut)
    cut = min(cut, length * 0.8)
    return xb - ux * cut, yb - uy * cut


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


def _arrow(draw: ImageDraw.ImageDraw, points: list[Point], colour: palette.RGB, width: int, dashed: bool) -> None:
    """A cased polyline with a head at its last point and a dot at its first."""
    if len(points) < 2:
        return
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


def _result(
    draw: ImageDraw.ImageDraw, layout: Layout, attack: AttackMark, offset: Point, placer: Placer | None
) -> None:
    """The combat result in a red box, " BREAK" added on a breakthrough (green): over the target's hex number
    if nothing is there, else the nearest place round the target's counter that hides no value."""
    text = attack.result or "?"
    if attack.breakthrough:
        text += " BREAK"
    size = max(9, round(layout.size * 0.3))
    width, height = text_width(text, size) + size * 0.8, size * 1.44
    box = layout.counter_box(attack.target)
    counter = (box[0] - offset[0], box[1] - offset[1], box[2] - offset[0], box[3] - offset[1])
    candidates = ring(counter, width, height, gap=1.0)
    chosen = placer.place(candidates) if placer is not None else candidates[0]
    fill = palette.MAP_MARKS["breakthrough"][1] if attack.breakthrough else palette.ATTACK_ARROW
    if attack.earlier:
        fill = palette.EARLIER_ATTACK_ARROW
    draw.rounded_rectangle(chosen, radius=size * 0.3, fill=fill, outline=(255, 255, 255), width=2)
    draw_text(draw, ((chosen[0] + chosen[2]) / 2, (chosen[1] + chosen[3]) / 2), text, size, (255, 255, 255))
