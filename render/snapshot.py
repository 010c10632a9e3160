"""A snapshot of the map: base layer, highlights, counters, then the title and key; and its PNG.

The same picture always gives the same pixels and the same PNG bytes, so snapshots can be compared,
cached and posted again without change.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.hexgrid import Hex, hex_name
from render import palette
from render.basemap import base_layer, draw_place_name
from render.counters import draw_hidden, draw_stack
from render.layout import Layout, Point
from render.legend import frame_map, title_height
from render.picture import MapPicture

PNG_COLOURS = 256
"""Palette size of the PNGs: plenty for a map of flat colours, and a quarter of full colour's size."""

MIN_ZOOM = 0.25
MAX_ZOOM = 2.0
"""Zoom range of snapshots. At zoom 2 the Ardennes map is 5200 x 4000 pixels, its base layer drawn at twice that."""

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


def frame(picture: MapPicture, zoom: float = 1.0, region: Region | None = None) -> Frame:
    """The frame of a snapshot of ``picture``.

    :raises ValueError: if the zoom is out of range, or the region's hex is not on the map or its radius
        is below 1.
    """
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
        crop = (cx - half_width, cy - half_height, cx + half_width, cy + half_height)
    return Frame(layout=layout, crop=crop, origin=(0, title_height(zoom)))


def render_map(picture: MapPicture, zoom: float = 1.0, region: Region | None = None) -> Image.Image:
    """Draw a picture: the whole map, or a close-up ``region`` (a hex and a radius) at the same scale.

    :raises ValueError: if the zoom is out of range or the region is not on the map.
    """
    where = frame(picture, zoom, region)
    layout = where.layout
    left, top, right, bottom = where.crop
    map_image = Image.new("RGB", (right - left, bottom - top), palette.BACKGROUND)
    map_image.paste(base_layer(picture.game_map, zoom), (-left, -top))

    def shift(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        return box[0] - left, box[1] - top, box[2] - left, box[3] - top

    def shown(hex_: Hex) -> bool:
        x, y = layout.center(hex_)
        margin = layout.size
        return left - margin <= x <= right + margin and top - margin <= y <= bottom + margin

    draw = ImageDraw.Draw(map_image)
    for highlight in picture.highlights:
        if picture.game_map.grid.contains(highlight.hex) and shown(highlight.hex):
            corners = [(x - left, y - top) for x, y in layout.corners(highlight.hex, 0.94)]
            draw.line(
                [*corners, corners[0]],
                fill=palette.rgb(highlight.color),
                width=max(2, round(layout.size / 12)),
                joint="curve",
            )
    occupied = sorted(set(picture.counters) | set(picture.hidden), key=lambda h: (layout.center(h)[1], h))
    for hex_ in occupied:
        if not shown(hex_):
            continue
        box = shift(layout.counter_box(hex_))
        if hex_ in picture.counters:
            draw_stack(map_image, box, picture.counters[hex_])
        else:
            draw_hidden(map_image, box, picture.hidden[hex_])
    draw = ImageDraw.Draw(map_image)
    for place in picture.game_map.places:
        if place.hex in picture.counters or place.hex in picture.hidden:
            draw_place_name(draw, layout, place, offset=(left, top))
    caption = picture.caption
    if region is not None:
        caption = f"{caption} (around {hex_name(region[0])})"
    image, _ = frame_map(map_image, caption, zoom)
    return image


def to_png(image: Image.Image, colours: int = PNG_COLOURS) -> bytes:
    """Encode a snapshot as an optimised PNG with a palette of at most ``colours`` colours.

    Snapshots are mostly flat colours, so a 256-colour palette (octree, no dithering) changes only the
    anti-aliased edges and makes the file about a quarter of full colour's size. ``colours=0`` keeps
    full colour. The result is deterministic: the same image gives the same bytes.
    """
    encoded = image.convert("RGB")
    if colours:
        encoded = encoded.quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    encoded.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()
