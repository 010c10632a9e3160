"""Counters drawn in the style of the game's printed ones, and stacks of them.

A counter is a square on its nationality's ground with the formation's colour bar on top holding the
unit's name, the NATO type symbol with its size marks, and the bottom line ``strength-steps-quality``
(steps in a red box for armored and mechanized units, blue for infantry). An HQ shows its support rating
bottom-left and its C3I letter bottom-right. Counter faces are drawn once per size and cached.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from render import palette
from render.fonts import draw_text, fitting_size, font, printable, text_box, text_width
from render.layout import Layout, Point
from render.picture import CounterFace, HiddenStack, MapMark
from render.placement import Box as LabelBox
from render.placement import Placer, centred, ring

SUPERSAMPLE = 4
"""Counter shapes are drawn at this multiple of the final size, then reduced."""

Box = tuple[int, int, int, int]


@lru_cache(maxsize=1024)
def counter_tile(face: CounterFace, size: int) -> Image.Image:
    """The counter as an RGBA image ``size`` pixels square (shared: copy before drawing on it)."""
    base = palette.COUNTER_BASE.get(face.nationality, palette.COUNTER_BASE["us"])
    if face.flipped:
        base = _lighter(base, palette.BACK_SIDE_MIX)
    bar = palette.rgb(face.bar_color)
    tile = _shapes(size, base, bar, face)
    draw = ImageDraw.Draw(tile)
    _name(tile, face.label, size, bar)
    _bottom_line(draw, face, size)
    return tile


def _lighter(colour: palette.RGB, mix: float) -> palette.RGB:
    red, green, blue = (round(c + (255 - c) * mix) for c in colour)
    return red, green, blue


def _ink(face: CounterFace) -> palette.RGB:
    """Light print on a counter's front, dark on its lighter back."""
    return palette.BACK_SIDE_TEXT if face.flipped else palette.COUNTER_TEXT


@lru_cache(maxsize=64)
def hidden_tile(side: str, size: int) -> Image.Image:
    """A blank counter of a side, for a stack the seat may not inspect."""
    base = palette.HIDDEN_BASE.get(side, palette.HIDDEN_BASE["allied"])
    tile = _ground(size, base)
    draw = ImageDraw.Draw(tile)
    draw_text(draw, (size / 2, size / 2), "?", round(size * 0.55), palette.COUNTER_TEXT)
    return tile


def draw_stack(
    canvas: Image.Image, box: Box, faces: Sequence[CounterFace], hidden_under: HiddenStack | None = None
) -> None:
    """Draw a stack in its counter box: the others as offset edges under the top one, a count badge,
    the top counter's markers as chips, its loss marker (1.2) and an HQ's support markers.

    ``hidden_under``: the stack holds more counters than the seat may see (11); blank counters of its
    side go under the visible ones and the badge counts the whole stack.
    """
    if not faces:
        return
    size = box[2] - box[0]
    tiles = [counter_tile(face, size) for face in faces]
    count = len(faces)
    if hidden_under is not None and hidden_under.count > count:
        tiles += [hidden_tile(hidden_under.side, size)] * (hidden_under.count - count)
        count = hidden_under.count
    _paste_stack(canvas, box, tiles)
    draw = ImageDraw.Draw(canvas)
    top = faces[0]
    if top.steps_lost:
        _loss_marker(draw, box, top.steps_lost)
    if top.supports:
        _supports(draw, box, top.supports)
    _chips(draw, box, top.shown_markers)
    if count > 1:
        _badge(draw, box, count, partly_hidden=count > len(faces))


def stack_value_boxes(
    box: Box, faces: Sequence[CounterFace], hidden_under: HiddenStack | None = None
) -> list[LabelBox]:
    """What no label may cover on a stack drawn by :func:`draw_stack` (or :func:`draw_hidden`, without faces):
    the top counter's values (:func:`value_boxes`), its marker chips, loss marker and support markers, and
    the count badge."""
    boxes: list[LabelBox] = []
    count = len(faces)
    if hidden_under is not None and hidden_under.count > count:
        count = hidden_under.count
    if faces:
        top = faces[0]
        boxes += value_boxes(top, box)
        marks = chip_boxes(box, len(top.shown_markers))
        if top.steps_lost:
            marks.append(loss_box(box))
        if top.supports:
            marks += support_boxes(box, len(top.supports))
        boxes += [(float(a), float(b), float(c), float(d)) for a, b, c, d in marks]
    if count > 1:
        a, b, c, d = badge_box(box)
        boxes.append((float(a), float(b), float(c), float(d)))
    return boxes


def badge_box(box: Box) -> Box:
    """Where a stack's count badge goes: a circle on the top counter's top-right corner."""
    left, top, right, _ = box
    radius = max(6, round((right - left) * 0.14))
    cx, cy = right + radius // 2, top - radius // 2
    return cx - radius, cy - radius, cx + radius, cy + radius


def draw_hidden(canvas: Image.Image, box: Box, stack: HiddenStack) -> None:
    """Draw a hidden stack: blank counters of the side with the count."""
    size = box[2] - box[0]
    tile = hidden_tile(stack.side, size)
    _paste_stack(canvas, box, [tile] * max(1, stack.count))
    if stack.count > 1:
        _badge(ImageDraw.Draw(canvas), box, stack.count)


def loss_box(box: Box) -> Box:
    """Where the loss marker of a counter goes: straddling its left edge between the colour bar and the bottom
    line, so it hides neither the name nor the strength (issue 33)."""
    left, top, right, _ = box
    size = right - left
    side = max(10, round(size * 0.3))
    x, y = left - side // 2, top + round(size * 0.71) - side
    return x, y, x + side, y + side


def value_boxes(face: CounterFace, box: Box) -> list[LabelBox]:
    """Where a counter's printed values are: the ink of its name in the colour bar and of its bottom line
    (``strength-steps-quality``; an HQ's support rating and C3I letter). No label may cover them."""
    left, top, right, _ = box
    size = right - left
    name_size = fitting_size(
        printable(face.label), max(7, round(size * 0.19)), size * 0.92, smallest=max(7, round(size * 0.15))
    )
    name_width = min(size * 0.92, text_width(face.label, name_size))
    bar_middle = top + size * 0.135
    boxes: list[LabelBox] = [centred(left + size / 2, bar_middle, name_width + 2, name_size + 2)]
    text_size = max(7, round(size * 0.22))
    y = top + size * 0.83
    if face.is_hq:
        first = text_box((left + size * 0.2, y), str(face.support), text_size)
        last = text_box((left + size * 0.8, y), face.c3i or "", text_size)
        boxes.append((first[0], y - text_size * 0.55, max(last[2], first[2]), y + text_size * 0.55))
        return boxes
    half = size * 0.12
    if face.face_down:
        strength, quality = "", ""
    else:
        strength, quality = f"{face.strength}-", f"-{face.quality}"
    west = left + size / 2 - half - 1 - text_width(strength, text_size)
    east = left + size / 2 + half + 1 + text_width(quality, text_size)
    boxes.append((west - 1, y - text_size * 0.55, east + 1, y + text_size * 0.55))
    return boxes


def support_boxes(box: Box, count: int) -> list[Box]:
    """Where an HQ's support markers go: small squares down its left edge."""
    left, top, right, _ = box
    size = right - left
    side = max(9, round(size * 0.22))
    return [
        (
            left - side // 2,
            top + round(size * 0.27) + k * (side + 1),
            left - side // 2 + side,
            top + round(size * 0.27) + k * (side + 1) + side,
        )
        for k in range(count)
    ]


def chip_boxes(box: Box, count: int) -> list[Box]:
    """Where the marker chips of a counter go: two down its right edge, two more beside them (in the gap
    between the hexes to the north-east and south-east), then down its left edge; none reaches the bottom
    line, whose numbers they would hide (issue 33)."""
    left, top, right, _ = box
    size = right - left
    height = max(8, round(size * 0.21))
    width = max(14, round(size * 0.42))
    per_column = 2
    boxes = []
    for k in range(count):
        column, place = divmod(k, per_column)
        y = top + round(size * 0.27) + place * (height + 1)
        x = (right - width // 2, right + width // 2 + 1, left - width // 2)[column % 3]
        boxes.append((x, y, x + width, y + height))
    return boxes


# --- Counter parts -----------------------------------------------------------------------------------------


def _ground(size: int, base: palette.RGB) -> Image.Image:
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (0, 0, big - 1, big - 1), radius=big * 0.06, fill=base, outline=palette.COUNTER_EDGE, width=SUPERSAMPLE
    )
    return image.resize((size, size), Image.Resampling.LANCZOS)


def _shapes(size: int, base: palette.RGB, bar: palette.RGB, face: CounterFace) -> Image.Image:
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    edge = SUPERSAMPLE
    draw.rounded_rectangle(
        (0, 0, big - 1, big - 1), radius=big * 0.06, fill=base, outline=palette.COUNTER_EDGE, width=edge
    )
    draw.rounded_rectangle(
        (edge, edge, big - 1 - edge, round(big * 0.25)), radius=big * 0.04, fill=bar, corners=(True, True, False, False)
    )
    draw.line(
        (edge, round(big * 0.25), big - 1 - edge, round(big * 0.25)),
        fill=palette.COUNTER_EDGE,
        width=max(1, SUPERSAMPLE // 2),
    )
    _nato(draw, face, big)
    if not face.is_hq:
        _steps_box(draw, face, big)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def _nato(draw: ImageDraw.ImageDraw, face: CounterFace, big: int) -> None:
    """The NATO symbol: a box with the type inside and the size marks above it."""
    ink = _ink(face)
    line = round(big * 0.028)
    width, height = big * 0.46, big * 0.25
    left, top = (big - width) / 2, big * 0.40
    right, bottom = left + width, top + height
    if face.is_hq:
        # The HQ flag: the box on a staff rising from the bottom line.
        left, right = left + big * 0.04, right + big * 0.04
        draw.line((left, top, left, big * 0.76), fill=ink, width=line)
    draw.rectangle((left, top, right, bottom), outline=ink, width=line)
    if face.kind in ("infantry", "mechanized"):
        draw.line((left, top, right, bottom), fill=ink, width=line)
        draw.line((left, bottom, right, top), fill=ink, width=line)
    if face.kind in ("armored", "mechanized"):
        inset_x, inset_y = width * 0.16, height * 0.2
        draw.ellipse((left + inset_x, top + inset_y, right - inset_x, bottom - inset_y), outline=ink, width=line)
    if face.is_hq:
        draw.rectangle((left, top, right, top + height * 0.45), fill=ink)
    _size_marks(draw, face.size, (left + right) / 2, top - big * 0.025, big * 0.085, line, ink)


def _size_marks(
    draw: ImageDraw.ImageDraw, size: str, center_x: float, bottom: float, height: float, line: int, ink: palette.RGB
) -> None:
    """NATO size marks (``I``, ``II``, ``III``, ``X``, ``XX``, ``XXX``) drawn as strokes above the box."""
    marks = [c for c in size.upper() if c in "IX"]
    if not marks:
        return
    widths = [height * (0.12 if c == "I" else 0.75) for c in marks]
    gap = height * 0.35
    total = sum(widths) + gap * (len(marks) - 1)
    x = center_x - total / 2
    top = bottom - height
    for mark, width in zip(marks, widths, strict=True):
        if mark == "I":
            draw.line((x + width / 2, top, x + width / 2, bottom), fill=ink, width=line)
        else:
            draw.line((x, top, x + width, bottom), fill=ink, width=line)
            draw.line((x, bottom, x + width, top), fill=ink, width=line)
        x += width + gap


def _steps_box(draw: ImageDraw.ImageDraw, face: CounterFace, big: int) -> None:
    colour = palette.STEPS_ARMOR if face.kind in ("armored", "mechanized") else palette.STEPS_INFANTRY
    half = big * 0.12
    cx, cy = big / 2, big * 0.83
    draw.rectangle(
        (cx - half, cy - half, cx + half, cy + half),
        fill=colour,
        outline=palette.COUNTER_EDGE,
        width=max(1, SUPERSAMPLE // 2),
    )


def _name(tile: Image.Image, label: str, size: int, bar: palette.RGB) -> None:
    """The unit's name in the colour bar, condensed sideways when it is too long to fit."""
    ink = (0, 0, 0) if palette.is_light(bar) else (255, 255, 255)
    room = size * 0.92
    label = printable(label)
    text_size = fitting_size(label, max(7, round(size * 0.19)), room, smallest=max(7, round(size * 0.15)))
    text_font = font(text_size, label)
    left, top, right, bottom = text_font.getbbox(label, anchor="ls")
    width, height = max(1, int(right - left) + 2), max(1, int(bottom - top) + 2)
    stamp = Image.new("L", (width, height), 0)
    ImageDraw.Draw(stamp).text((1 - left, 1 - top), label, font=text_font, fill=255, anchor="ls")
    if width > room:
        width = round(room)
        stamp = stamp.resize((width, height), Image.Resampling.LANCZOS)
    colour = Image.new("RGBA", (width, height), (*ink, 255))
    bar_middle = size * 0.135
    tile.paste(colour, (round((size - width) / 2), round(bar_middle - height / 2)), stamp)


def _bottom_line(draw: ImageDraw.ImageDraw, face: CounterFace, size: int) -> None:
    text_size = max(7, round(size * 0.22))
    y = size * 0.83
    ink = _ink(face)
    if face.is_hq:
        draw_text(draw, (size * 0.2, y), str(face.support), text_size, ink)
        draw_text(draw, (size * 0.8, y), face.c3i or "", text_size, ink)
        return
    half = size * 0.12
    if face.face_down:  # [Alsace 16] a garrison's values are unknown until it is flipped
        draw_text(draw, (size / 2, y), "?", text_size, ink)
        return
    draw_text(draw, (size / 2, y), str(face.steps), text_size, (255, 255, 255))
    draw_text(draw, (size / 2 - half - 1, y), f"{face.strength}-", text_size, ink, anchor="rm")
    draw_text(draw, (size / 2 + half + 1, y), f"-{face.quality}", text_size, ink, anchor="lm")


# --- Stacks and markers ------------------------------------------------------------------------------------


def _paste_stack(canvas: Image.Image, box: Box, tiles: Sequence[Image.Image]) -> None:
    size = box[2] - box[0]
    shift = max(2, round(size * 0.06))
    under = min(len(tiles) - 1, 3)
    for depth in range(under, 0, -1):
        tile = tiles[depth]
        canvas.paste(tile, (box[0] + depth * shift, box[1] + depth * shift), tile)
    canvas.paste(tiles[0], (box[0], box[1]), tiles[0])


def _loss_marker(draw: ImageDraw.ImageDraw, box: Box, lost: int) -> None:
    left, top, right, bottom = loss_box(box)
    draw.rectangle((left, top, right, bottom), fill=palette.LOSS_MARKER, outline=(255, 255, 255), width=1)
    text_size = max(7, round((bottom - top) * 0.7))
    draw_text(draw, ((left + right) / 2, (top + bottom) / 2), f"-{lost}", text_size, (255, 255, 255))


def _supports(draw: ImageDraw.ImageDraw, box: Box, supports: Sequence[str]) -> None:
    for kind, (left, top, right, bottom) in zip(supports, support_boxes(box, len(supports)), strict=True):
        text, colour = palette.support_chip(kind)
        draw.rectangle((left, top, right, bottom), fill=colour, outline=(255, 255, 255), width=1)
        text_size = fitting_size(text, max(7, round((bottom - top) * 0.6)), right - left - 1, smallest=6)
        draw_text(draw, ((left + right) / 2, (top + bottom) / 2), text, text_size, (255, 255, 255))


def _badge(draw: ImageDraw.ImageDraw, box: Box, count: int, partly_hidden: bool = False) -> None:
    """The count of a stack in a red circle; a stack partly hidden under fog of war (11) gets a blue one
    with a "?" after the count."""
    left, top, right, bottom = badge_box(box)
    radius = (right - left) // 2
    cx, cy = (left + right) / 2, (top + bottom) / 2
    text = f"{count}?" if partly_hidden else str(count)
    draw.ellipse(
        (left, top, right, bottom),
        fill=palette.PARTLY_HIDDEN_BADGE if partly_hidden else palette.BADGE,
        outline=(255, 255, 255),
        width=max(1, radius // 6),
    )
    draw_text(draw, (cx, cy), text, fitting_size(text, round(radius * 1.3), radius * 1.9, smallest=6), (255, 255, 255))


def _chips(draw: ImageDraw.ImageDraw, box: Box, markers: Sequence[str]) -> None:
    for marker, (left, top, right, bottom) in zip(markers, chip_boxes(box, len(markers)), strict=True):
        text, colour = palette.marker_chip(marker)
        draw.rounded_rectangle((left, top, right, bottom), radius=3, fill=colour, outline=(255, 255, 255), width=1)
        ink = (0, 0, 0) if palette.is_light(colour) else (255, 255, 255)
        text_size = fitting_size(text, max(7, round((bottom - top) * 0.75)), right - left - 2, smallest=6)
        draw_text(draw, ((left + right) / 2, (top + bottom) / 2), text, text_size, ink)


def map_mark_box(layout: Layout, hex_: int, index: int = 0) -> Box:
    """Where a map marker goes in its hex when nothing is in the way: a small square at the counter's lower
    right, further ones stepping left."""
    left, _top, right, bottom = layout.counter_box(hex_)
    side = max(12, round((right - left) * 0.46))
    x = right - side // 2 - index * (side + 2)
    y = bottom - side // 2
    return x, y, x + side, y + side


def map_mark_candidates(layout: Layout, hex_: int, index: int, offset: Point) -> list[LabelBox]:
    """The places a map marker may take, best first: its usual place at the counter's lower right (stepping
    left for further markers), then round the counter."""
    usual = map_mark_box(layout, hex_, index)
    shifted = (usual[0] - offset[0], usual[1] - offset[1], usual[2] - offset[0], usual[3] - offset[1])
    side = usual[2] - usual[0]
    counter = layout.counter_box(hex_)
    around = (counter[0] - offset[0], counter[1] - offset[1], counter[2] - offset[0], counter[3] - offset[1])
    right_low = (around[2] - side * 0.3, around[3] - side, around[2] - side * 0.3 + side, around[3])
    return [shifted, right_low, *ring(around, side, side)]


def draw_map_mark(
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    mark: MapMark,
    offset: Point,
    index: int = 0,
    placer: Placer | None = None,
) -> None:
    """A map marker (Breakthrough, Roadblock, Stosser, Nuts!, ...) as a small square counter with its name,
    where ``placer`` finds room (at its usual place without one)."""
    candidates = map_mark_candidates(layout, mark.hex, index, offset)
    left, top, right, bottom = placer.place(candidates) if placer is not None else candidates[0]
    text, colour = palette.map_mark(mark.kind)
    draw.rounded_rectangle((left, top, right, bottom), radius=3, fill=colour, outline=(255, 255, 255), width=2)
    ink = (0, 0, 0) if palette.is_light(colour) else (255, 255, 255)
    text_size = fitting_size(text, max(7, round((bottom - top) * 0.4)), right - left - 3, smallest=6)
    draw_text(draw, ((left + right) / 2, (top + bottom) / 2), text, text_size, ink)
