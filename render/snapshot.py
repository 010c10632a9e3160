"""A snapshot of the map: base layer, highlights, counters, then the title and key; and its PNG.

The same picture always gives the same pixels and the same PNG bytes, so snapshots can be compared,
cached and posted again without change.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.hexgrid import Hex, hex_name
from render import happened, overlays, palette
from render.basemap import base_layer, draw_place_name
from render.counters import draw_hidden, draw_map_mark, draw_stack, stack_value_boxes
from render.layout import Layout, Point
from render.legend import draw_title, key_band, picture_key, title_height
from render.margin import draw_margin, status_line
from render.picture import MapPicture
from render.placement import Placer

PNG_COLOURS = 256
"""Palette size of the PNGs: plenty for a map of flat colours, and a quarter of full colour's size."""

MIN_ZOOM = 0.25
MAX_ZOOM = 2.0
"""Zoom range of snapshots. At zoom 2 the Ardennes map is 5200 x 4000 pixels, its base layer drawn at twice that."""

MAP_ZOOM = 1.0
"""Default zoom of a whole-map snapshot."""
CLOSE_UP_ZOOM = 1.5
"""Default zoom of a close-up: at zoom 1 counters are too small to read on a phone in Discord."""

PNG_COMPRESS_LEVEL = 3
"""zlib level of the PNGs, chosen by size against time (``bench/bench_render.py``, docs/performance.md): on
the full map's palette image level 3 takes half the time of level 6 for a file 17% larger, level 1 saves
little more time for 8% more bytes, and level 9 is six times slower than 6 for 3% less."""

Region = tuple[Hex, int]
"""A close-up: the hex at its centre and its radius in hexes."""


@dataclass(frozen=True)
class Frame:
    """Where the map sits in a snapshot: its layout, the part of it shown, and where that part is drawn."""

    layout: Layout
    crop: tuple[int, int, int, int]
    """The part of the map image shown (left, top, right, bottom), in map pixels; may reach past the map."""
    origin: tuple[int, int]
    """Where the crop's top-left corner sits in the snapshot."""

    def pixel(self, hex_: Hex) -> Point:
        """The centre of a hex in the snapshot."""
        x, y = self.layout.center(hex_)
        return x - self.crop[0] + self.origin[0], y - self.crop[1] + self.origin[1]

    @property
    def map_size(self) -> tuple[int, int]:
        """Width and height of the map part of the snapshot."""
        return self.crop[2] - self.crop[0], self.crop[3] - self.crop[1]


def default_zoom(region: Region | None) -> float:
    """The zoom of a snapshot when none is asked for: :data:`CLOSE_UP_ZOOM` for a close-up, else :data:`MAP_ZOOM`."""
    return CLOSE_UP_ZOOM if region is not None else MAP_ZOOM


def frame(picture: MapPicture, zoom: float | None = None, region: Region | None = None) -> Frame:
    """The frame of a snapshot of ``picture`` (zoom: :func:`default_zoom` when ``None``).

    :raises ValueError: if the zoom is out of range, or the region's hex is not on the map or its radius
        is below 1.
    """
    if zoom is None:
        zoom = default_zoom(region)
    if not MIN_ZOOM <= zoom <= MAX_ZOOM:
        raise ValueError(f"zoom must be between {MIN_ZOOM} and {MAX_ZOOM}, not {zoom!r}")
    layout = Layout(picture.game_map.grid, zoom)
    width, height = layout.pixel_size
    crop = (0, 0, width, height)
    if region is not None:
        center, radius = region
        if not picture.game_map.grid.contains(center):
            raise ValueError(f"hex {hex_name(center)} is not on the {picture.game_map.name} map")
        if radius < 1:
            raise ValueError(f"a close-up needs a radius of 1 hex or more, not {radius!r}")
        cx, cy = (round(v) for v in layout.center(center))
        half_width = math.ceil((1.5 * radius + 1.1) * layout.size)
        half_height = math.ceil((radius + 0.55) * layout.height)
        # At a map edge the close-up slides inwards, so it is filled with map rather than background.
        cx = min(max(cx, half_width), max(half_width, width - half_width))
        cy = min(max(cy, half_height), max(half_height, height - half_height))
        crop = (cx - half_width, cy - half_height, cx + half_width, cy + half_height)
    return Frame(layout=layout, crop=crop, origin=(0, title_height(zoom)))


def render_map(
    picture: MapPicture, zoom: float | None = None, region: Region | None = None, *, margin: bool | None = None
) -> Image.Image:
    """Draw a picture: the whole map, or a close-up ``region`` (a hex and a radius); see :func:`render_placed`."""
    return render_placed(picture, zoom, region, margin=margin)[0]


def render_placed(
    picture: MapPicture, zoom: float | None = None, region: Region | None = None, *, margin: bool | None = None
) -> tuple[Image.Image, Placer]:
    """Draw a picture: the whole map, or a close-up ``region`` (a hex and a radius).

    Layers, bottom up: the cached base map, overlays' tints and lines, highlights, the last activation's
    arrows, counters and stacks; then the labels, each placed by a :class:`render.placement.Placer` where it
    hides no counter's values (issue 33): map markers, place names of occupied hexes, crosses, overlays'
    labels, combat results. Then the title bar, the side margin (turn track, pools, events; whole map by
    default, when the picture has a status) and the key.

    Everything is drawn on one canvas, the size of the finished picture: the map's layers first, at the
    map's place under the title bar, then the margin, the key and the title bar over whatever a layer drew
    past the map's edges (as if the map had been drawn on its own image and framed). One full-size image
    alive at a time, not three, keeps a bot drawing whole maps within its memory bound (issue 12).

    ``zoom``: :data:`MAP_ZOOM` for the whole map and :data:`CLOSE_UP_ZOOM` for a close-up when ``None``.

    :raises ValueError: if the zoom is out of range or the region is not on the map.
    """
    where = frame(picture, zoom, region)
    layout = where.layout
    zoom = layout.zoom
    left, top = where.crop[:2]
    title = where.origin[1]
    map_width, map_height = where.map_size
    with_margin = picture.status is not None and (region is None if margin is None else margin)
    panel = draw_margin(picture.status, map_height, zoom) if with_margin and picture.status is not None else None
    width = map_width + (panel.width if panel is not None else 0)
    shown = showing(where)
    key = key_band(width, zoom, picture_key(picture, shown))
    canvas = _canvas((width, title + map_height + key.height), base_layer(picture.game_map, zoom), where)
    offset = (left, top - title)
    """Subtracted from a map pixel to find its place on the canvas."""
    if picture.overlays:
        overlays.draw_under(canvas, layout, picture.overlays, offset, shown)
    draw = ImageDraw.Draw(canvas)
    _draw_highlights(draw, picture, layout, offset, shown)
    occupied = sorted(set(picture.counters) | set(picture.hidden), key=lambda h: (layout.center(h)[1], h))
    boxes = {hex_: _shifted(layout.counter_box(hex_), offset) for hex_ in occupied if shown(hex_)}
    happened.draw_arrows(draw, layout, picture.happened, offset, shown, boxes)  # under the counters: no value hidden
    placer = _draw_stacks(canvas, picture, boxes)
    map_area = (0, title, map_width, title + map_height)
    _draw_labels(ImageDraw.Draw(canvas), picture, layout, offset, shown, boxes, placer, map_area)
    if panel is not None:
        canvas.paste(panel, (map_width, title))
    canvas.paste(key, (0, title + map_height))
    draw_title(canvas, _caption(picture, region), zoom)
    return canvas, placer


Box = tuple[int, int, int, int]


def _shifted(box: Box, offset: Point) -> Box:
    """A box of map pixels at its place on the canvas (``offset`` subtracted)."""
    dx, dy = int(offset[0]), int(offset[1])
    return box[0] - dx, box[1] - dy, box[2] - dx, box[3] - dy


def _draw_highlights(
    draw: ImageDraw.ImageDraw, picture: MapPicture, layout: Layout, offset: Point, shown: Callable[[Hex], bool]
) -> None:
    """The highlighted hexes' outlines."""
    for highlight in picture.highlights:
        if picture.game_map.grid.contains(highlight.hex) and shown(highlight.hex):
            corners = [(x - offset[0], y - offset[1]) for x, y in layout.corners(highlight.hex, 0.94)]
            draw.line(
                [*corners, corners[0]],
                fill=palette.rgb(highlight.color),
                width=max(2, round(layout.size / 12)),
                joint="curve",
            )


def _draw_stacks(canvas: Image.Image, picture: MapPicture, boxes: dict[Hex, Box]) -> Placer:
    """The stacks in their boxes (north first); a :class:`Placer` holding their values and bodies."""
    placer = Placer()
    for hex_, box in boxes.items():
        if hex_ in picture.counters:
            draw_stack(canvas, box, picture.counters[hex_], picture.hidden.get(hex_))
            placer.add_values(stack_value_boxes(box, picture.counters[hex_], picture.hidden.get(hex_)))
        else:
            draw_hidden(canvas, box, picture.hidden[hex_])
            placer.add_values(stack_value_boxes(box, (), picture.hidden[hex_]))
        placer.bodies.append(box)
    return placer


def _draw_labels(
    draw: ImageDraw.ImageDraw,
    picture: MapPicture,
    layout: Layout,
    offset: Point,
    shown: Callable[[Hex], bool],
    boxes: dict[Hex, Box],
    placer: Placer,
    map_area: Box,
) -> None:
    """The labels over the stacks, each where ``placer`` finds room: map markers, the place names of occupied
    hexes, crosses, overlays' labels, then the combat results (last: no ring or line hides them)."""
    marks_at: dict[Hex, int] = {}
    for mark in picture.map_marks:
        if picture.game_map.grid.contains(mark.hex) and shown(mark.hex):
            draw_map_mark(draw, layout, mark, offset, marks_at.get(mark.hex, 0), placer)
            marks_at[mark.hex] = marks_at.get(mark.hex, 0) + 1
    for place in picture.game_map.places:  # over the stacks' edges and the markers, never over a value
        if place.hex in picture.counters or place.hex in picture.hidden or place.hex in marks_at:
            draw_place_name(draw, layout, place, offset=offset, within=map_area, placer=placer)
    happened.draw_crosses(draw, layout, picture.happened, offset, shown, boxes, placer)
    if picture.overlays:
        overlays.draw_over(draw, layout, picture.overlays, offset, shown, boxes, placer)
    happened.draw_results(draw, layout, picture.happened, offset, shown, placer)


def _caption(picture: MapPicture, region: Region | None) -> str:
    """The title bar's caption: a close-up names its centre hex and, when the picture has one, the status."""
    caption = picture.caption
    if region is not None:
        caption = f"{caption} (around {hex_name(region[0])})"
        if picture.status is not None:
            caption = f"{caption}: {status_line(picture.status)}"
    return caption


def showing(where: Frame) -> Callable[[Hex], bool]:
    """Whether a hex is drawn in the frame (within a hex's size of its edges: it may show in part)."""
    layout = where.layout
    left, top, right, bottom = where.crop

    def shown(hex_: Hex) -> bool:
        x, y = layout.center(hex_)
        margin_px = layout.size
        return left - margin_px <= x <= right + margin_px and top - margin_px <= y <= bottom + margin_px

    return shown


def _canvas(size: tuple[int, int], base: Image.Image, where: Frame) -> Image.Image:
    """The canvas of a picture ``size`` big with the base layer's part in place. Only the map's part the base
    layer does not reach is filled with the background: the title bar, the margin and the key cover the rest
    (filling a whole map's canvas first was a tenth of its drawing, issue 32)."""
    canvas = Image.new("RGB", size, None)  # None: not filled
    left, top, right, bottom = where.crop
    if left < 0 or top < 0 or right > base.width or bottom > base.height:
        x, y = where.origin
        canvas.paste(palette.BACKGROUND, (x, y, x + right - left, y + bottom - top))
    _paste_base(canvas, base, where)
    return canvas


BASE_ROWS = 512
"""Rows of the base layer converted to full colour at a time when pasted (a whole map at once is 23 MB)."""


def _paste_base(canvas: Image.Image, base: Image.Image, where: Frame) -> None:
    """The part of the (palette) base layer the frame shows, at the map's place on the canvas, in bands."""
    left, top, right, bottom = where.crop
    x0, y0 = max(left, 0), max(top, 0)
    x1, y1 = min(right, base.width), min(bottom, base.height)
    for y in range(y0, y1, BASE_ROWS):
        band = base.crop((x0, y, x1, min(y + BASE_ROWS, y1))).convert("RGB")
        canvas.paste(band, (x0 - left + where.origin[0], y - top + where.origin[1]))


PALETTE_SAMPLE = 3
"""The palette of a PNG is chosen from every third pixel of every third row (a ninth of the picture)."""


def to_png(image: Image.Image, colours: int = PNG_COLOURS, compress_level: int = PNG_COMPRESS_LEVEL) -> bytes:
    """Encode a snapshot as a PNG with a palette of at most ``colours`` colours.

    Snapshots are mostly flat colours, so a 256-colour palette (no dithering) changes only the anti-aliased
    edges and makes the file about a quarter of full colour's size; one byte a pixel also makes it four times
    faster to compress than full colour. ``colours=0`` keeps full colour. The result is deterministic: the same
    image gives the same bytes.

    The palette is the octree's choice on a ninth of the pixels (every third one of every third row), and
    every pixel then takes the nearest colour of that palette: a third of the work of the octree on the whole
    picture, and closer to it (the octree's own mapping gives a pixel its cell's colour, not the nearest one;
    ``bench/bench_render.py`` measures both, issue 32).
    """
    encoded = image if image.mode == "RGB" else image.convert("RGB")
    if colours:
        step = PALETTE_SAMPLE
        sample = encoded.resize((-(-encoded.width // step), -(-encoded.height // step)), Image.Resampling.NEAREST)
        chosen = sample.quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        encoded = encoded.quantize(palette=chosen, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    encoded.save(buffer, format="PNG", compress_level=compress_level)
    return buffer.getvalue()
