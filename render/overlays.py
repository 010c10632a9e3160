"""Overlays drawn on request: reachable hexes with their cost, zones of control, command ranges, supply
lines, victory hexes.

The renderer draws sets it is given (:mod:`render.picture` ``Reachable``, ``ZocOverlay``, ...).
:func:`overlay_sets` is a convenience for the bot that asks the engine for them; it only calls engine
functions (``movement.legal_destinations``, ``zoc.enemy_zoc``, ``supply.SupplyNet``, ``command_range``) and
decides no rule itself.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageChops, ImageDraw

from engine.hexgrid import Hex
from engine.vaevictis.data import Side, other_side
from render import palette
from render.fonts import draw_text, text_box
from render.layout import Layout, Point
from render.picture import (
    CommandOverlay,
    FrontLine,
    Overlay,
    Reachable,
    SupplyOverlay,
    VictoryOverlay,
    ZocOverlay,
    front_line,
)
from render.placement import Placer, ring

OverlayKind = Literal["reachable", "zoc", "command", "supply", "victory", "front"]
OVERLAY_KINDS: tuple[OverlayKind, ...] = ("reachable", "zoc", "command", "supply", "victory", "front")

Shown = Callable[[Hex], bool]


# --- Drawing -------------------------------------------------------------------------------------------------


def draw_under(image: Image.Image, layout: Layout, overlays: tuple[Overlay, ...], offset: Point, shown: Shown) -> None:
    """The overlays that go under the counters: tints, hatching, range outlines, victory rings."""
    for overlay in overlays:
        if isinstance(overlay, Reachable):
            _tint(image, layout, [h for h in overlay.costs if shown(h)], palette.REACHABLE, 95, offset)
        elif isinstance(overlay, ZocOverlay):
            _hatch(image, layout, [h for h in sorted(overlay.hexes) if shown(h)], palette.ZOC[overlay.side], offset)
        elif isinstance(overlay, CommandOverlay):
            draw = ImageDraw.Draw(image)
            colour = palette.COMMAND[overlay.side]
            for hq in sorted(overlay.ranges):
                _outline(draw, layout, overlay.ranges[hq], colour, offset)
        elif isinstance(overlay, SupplyOverlay):  # under the counters, whose values no line may cross
            draw = ImageDraw.Draw(image)
            width = max(2, round(layout.size * 0.05))
            for source, unit in overlay.lines:
                if not (shown(source) or shown(unit)):
                    continue
                (ax, ay), (bx, by) = layout.center(source), layout.center(unit)
                draw.line(
                    (ax - offset[0], ay - offset[1], bx - offset[0], by - offset[1]), fill=palette.SUPPLY, width=width
                )
        elif isinstance(overlay, FrontLine):
            _front(ImageDraw.Draw(image), layout, overlay, offset)
        elif isinstance(overlay, VictoryOverlay):
            draw = ImageDraw.Draw(image)
            for hex_ in sorted(overlay.hexes):
                if shown(hex_):
                    corners = [(x - offset[0], y - offset[1]) for x, y in layout.corners(hex_, 0.9)]
                    draw.line(
                        [*corners, corners[0]],
                        fill=palette.VICTORY,
                        width=max(3, round(layout.size * 0.1)),
                        joint="curve",
                    )


def draw_over(
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    overlays: tuple[Overlay, ...],
    offset: Point,
    shown: Shown,
    counters: Mapping[Hex, tuple[float, float, float, float]] | None = None,
    placer: Placer | None = None,
) -> None:
    """The overlays that go over the counters: cost labels (at the hex's centre, or beside the counter that
    stands there, where ``placer`` finds room that hides no value), rings round units without supply.
    ``counters``: the box of each occupied hex on the canvas."""
    counters = counters or {}
    for overlay in overlays:
        if isinstance(overlay, Reachable):
            size = max(10, round(layout.size * 0.32))
            halo = max(2, round(size / 6))
            for hex_ in sorted(overlay.costs):
                if not shown(hex_):
                    continue
                x, y = layout.center(hex_)
                x, y = x - offset[0], y - offset[1]
                text = overlay.costs[hex_]
                box = text_box((x, y), text, size, halo_width=halo)
                width, height = box[2] - box[0], box[3] - box[1]
                candidates = [box]
                if hex_ in counters:
                    candidates = ring(counters[hex_], width, height, gap=1.0)
                chosen = placer.place(candidates) if placer is not None else candidates[0]
                draw_text(
                    draw,
                    ((chosen[0] + chosen[2]) / 2, (chosen[1] + chosen[3]) / 2),
                    text,
                    size,
                    (0, 50, 140),
                    halo=(255, 255, 255),
                    halo_width=halo,
                )
            if overlay.origin is not None and shown(overlay.origin):
                corners = [(x - offset[0], y - offset[1]) for x, y in layout.corners(overlay.origin, 0.95)]
                draw.line(
                    [*corners, corners[0]], fill=palette.REACHABLE, width=max(3, round(layout.size / 10)), joint="curve"
                )
        elif isinstance(overlay, SupplyOverlay):
            for hex_ in sorted(overlay.cut):
                if shown(hex_):
                    x, y = layout.center(hex_)
                    r = layout.size * 0.72
                    box = (x - offset[0] - r, y - offset[1] - r, x - offset[0] + r, y - offset[1] + r)
                    draw.ellipse(box, outline=palette.ELIMINATED, width=max(3, round(layout.size / 12)))


def _front(draw: ImageDraw.ImageDraw, layout: Layout, line: FrontLine, offset: Point) -> None:
    """The front line through its hexes' centres, dashed on a white casing, under the counters."""
    points = [(x - offset[0], y - offset[1]) for x, y in (layout.center(h) for h in line.hexes)]
    if len(points) < 2:
        return
    width = max(3, round(layout.size * 0.1))
    draw.line(points, fill=(255, 255, 255), width=width + 4, joint="curve")
    for a, b in itertools.pairwise(points):
        length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
        dash = width * 3.0
        steps = max(1, int(length // (dash * 1.6)))
        for k in range(steps):
            t0, t1 = k / steps, (k + 0.62) / steps
            draw.line(
                (
                    a[0] + (b[0] - a[0]) * t0,
                    a[1] + (b[1] - a[1]) * t0,
                    a[0] + (b[0] - a[0]) * t1,
                    a[1] + (b[1] - a[1]) * t1,
                ),
                fill=palette.FRONT_LINE,
                width=width,
            )


def _tint(image: Image.Image, layout: Layout, hexes: list[Hex], colour: palette.RGB, alpha: int, offset: Point) -> None:
    """Blend ``colour`` over each hex, inside its outline."""
    if not hexes:
        return
    mask = Image.new("L", image.size, 0)
    draw = ImageDraw.Draw(mask)
    for hex_ in hexes:
        draw.polygon([(x - offset[0], y - offset[1]) for x, y in layout.corners(hex_, 0.96)], fill=alpha)
    image.paste(Image.new("RGB", image.size, colour), (0, 0), mask)


@lru_cache(maxsize=8)
def _hatch_mask(size: int, height: int) -> Image.Image:
    """Diagonal hatching inside one hex, as a mask ``2 size`` wide and ``height`` high."""
    width = 2 * size
    lines = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(lines)
    step = max(6, size // 4)
    for x in range(-height, width + height, step):
        draw.line((x, height, x + height, 0), fill=200, width=max(2, size // 16))
    hexagon = Image.new("L", (width, height), 0)
    corners = [
        (
            width / 2 + size * 0.95 * math.cos(math.radians(60 * k)),
            height / 2 + size * 0.95 * math.sin(math.radians(60 * k)),
        )
        for k in range(6)
    ]
    ImageDraw.Draw(hexagon).polygon(corners, fill=255)
    return ImageChops.multiply(lines, hexagon)


def _hatch(image: Image.Image, layout: Layout, hexes: list[Hex], colour: palette.RGB, offset: Point) -> None:
    if not hexes:
        return
    mask = _hatch_mask(round(layout.size), math.ceil(layout.height))
    ink = Image.new("RGB", mask.size, colour)
    for hex_ in hexes:
        x, y = layout.center(hex_)
        image.paste(ink, (round(x - offset[0] - mask.width / 2), round(y - offset[1] - mask.height / 2)), mask)


def _outline(
    draw: ImageDraw.ImageDraw, layout: Layout, hexes: frozenset[Hex], colour: palette.RGB, offset: Point
) -> None:
    """The outer boundary of a set of hexes: every side whose neighbour is outside the set."""
    width = max(2, round(layout.size * 0.07))
    for hex_ in sorted(hexes):
        corners = layout.corners(hex_, 0.97)
        for side in range(6):
            if layout.side_neighbour(hex_, side) in hexes:
                continue
            (ax, ay), (bx, by) = corners[side], corners[(side + 1) % 6]
            draw.line((ax - offset[0], ay - offset[1], bx - offset[0], by - offset[1]), fill=colour, width=width)


# --- Overlay sets from the engine --------------------------------------------------------------------------


def cost_label(mp_spent: float, ap_spent: int) -> str:
    """A reachable hex's label: the MPs spent, and the APs when more than one move action is used."""
    mp = f"{mp_spent:g}"
    return f"{mp} MP" if ap_spent <= 1 else f"{mp} MP {ap_spent}AP"


def overlay_sets(game: object, state: object, seat: str, kind: OverlayKind, unit: str | None = None) -> Overlay:
    """The overlay ``kind`` for ``seat``, computed by the engine's own functions.

    ``reachable`` needs ``unit`` (one of ``seat``'s units): its legal destinations as if it joined the
    activation now (``legal.unit_options``), labelled with the cheapest route's cost
    (``movement.legal_destinations``). ``zoc``: the hexes where the enemy exerts a zone of control on ``seat``.
    ``command``: each of ``seat``'s HQs with the hexes within its command range (``supply.command_range``,
    traced by the engine's own ``SupplyNet``). ``supply``: from each of ``seat``'s supplied units to its
    formation's HQ, and the units without supply. ``victory``: the scenario's victory cities.

    .. warning:: This reads the full game state; give it only the seat's own view of what it returns.

    :raises ValueError: for an unknown kind, or ``reachable`` without a unit of the seat.
    """
    from engine.vaevictis import supply, zoc
    from engine.vaevictis.game import VaeVictisGame
    from engine.vaevictis.state import GameState, Position

    if not isinstance(game, VaeVictisGame) or not isinstance(state, GameState):
        raise ValueError("overlay_sets needs a VaeVictisGame and its GameState")
    data = game.data
    side: Side = "allied" if seat == "allied" else "german"
    if kind == "reachable":
        from engine.vaevictis.legal import reachable

        if unit is None or unit not in state.units or data.side_of(unit) != side:
            raise ValueError(f"the reachable overlay needs one of the {seat} units, not {unit!r}")
        routes = reachable(game, state, unit)
        return Reachable({h: cost_label(r.mp_spent, r.ap_spent) for h, r in routes.items()}, state.units[unit].hex)
    pos = Position(data, state)
    if kind == "zoc":
        return ZocOverlay(frozenset(zoc.enemy_zoc(pos, side)), other_side(side))
    if kind == "command":
        net = supply.SupplyNet(pos, side)
        ranges: dict[Hex, frozenset[Hex]] = {}
        for hq in pos.state.on_map():
            if data.units[hq.id].is_hq and data.side_of(hq.id) == side and hq.hex is not None:
                ranges[hq.hex] = net.command_area(hq.id)
        return CommandOverlay(ranges, side)
    if kind == "supply":
        net = supply.SupplyNet(pos, side)
        lines: list[tuple[Hex, Hex]] = []
        cut: set[Hex] = set()
        for member in pos.state.on_map():
            if data.side_of(member.id) != side or member.hex is None:
                continue
            if not net.is_supplied(member):
                cut.add(member.hex)
                continue
            hq_id = data.formations[data.units[member.id].formation].hq
            source = state.units.get(hq_id) if hq_id else None
            if source is not None and source.on_map and source.hex is not None and source.hex != member.hex:
                lines.append((source.hex, member.hex))
        return SupplyOverlay(tuple(sorted(set(lines))), side, frozenset(cut))
    if kind == "victory":
        return victory_overlay(data, state.scenario)
    if kind == "front":
        line = front_line(data.map)
        if line is None:
            raise ValueError(f"the {data.name} map has no front line")
        return line
    raise ValueError(f"unknown overlay {kind!r}; choose one of {', '.join(OVERLAY_KINDS)}")


def victory_overlay(data: object, scenario: str) -> VictoryOverlay:
    """The victory cities of a scenario (17), from its data."""
    from engine.vaevictis.data import GameData

    assert isinstance(data, GameData)
    hexes: set[Hex] = set()
    definition = data.scenarios.get(scenario)
    if definition is not None:
        for condition in definition.victory:
            for name in condition.cities:
                try:
                    hexes.add(data.map.place(name).hex)
                except KeyError:
                    continue
    return VictoryOverlay(frozenset(hexes))
