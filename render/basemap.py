"""The base layer of a map: terrain, hexes, water, roads, settlements, names and edges, drawn once.

The base layer depends only on the map and the zoom, so it is cached (a small LRU keyed by the map's
identity and the zoom); every snapshot starts from a copy of it. Shapes are drawn at twice the size and
reduced, for smooth edges; text is drawn at the final size, for crisp letters.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable

from PIL import Image, ImageDraw

from engine.hexgrid import Grid, Hex, hex_name
from engine.vaevictis.data import GameMap, Place
from render import palette, symbols
from render.fonts import draw_text, text_box
from render.layout import Layout, Point
from render.placement import Placer

SUPERSAMPLE = 2
"""Shapes are drawn at this multiple of the final size, then reduced."""

BAND_PIXELS = 4_000_000
"""The supersampled shapes are drawn one horizontal band of about this many pixels at a time (12 MB), not as
one image four times the map's size (at zoom 1.5, 157 MB): the peak memory of drawing a base layer."""

BAND_OVERLAP = 8
"""Rows drawn past each band's edges, beyond the reach of the reduction filter, then cut off: the bands join
without a seam."""

TERRAIN_FILL: dict[str, palette.RGB] = {
    "clear": palette.CLEAR,
    "rough": palette.ROUGH,
    "forest": palette.FOREST,
    "difficult": palette.DIFFICULT,
    "mountain": palette.MOUNTAIN,
    "switzerland": palette.NO_ENTRY,
}
HATCHED_TERRAIN = ("rough", "difficult", "mountain")


class BaseLayerCache:
    """A bounded LRU of base layers, keyed by map identity and zoom.

    Entries hold the map itself, so a key's ``id`` cannot be reused by another map while cached.
    Thread-safe: snapshots are rendered off the bot's event loop.
    """

    def __init__(self, maxsize: int = 4) -> None:
        self.maxsize = maxsize
        self._entries: OrderedDict[tuple[int, float], tuple[GameMap, Image.Image]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, game_map: GameMap, zoom: float) -> Image.Image:
        """The base layer of ``game_map`` at ``zoom``, drawn on first use.

        .. warning:: The image is shared; copy it before drawing on it.
        """
        key = (id(game_map), zoom)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0] is game_map:
                self._entries.move_to_end(key)
                return entry[1]
        image = draw_base_layer(game_map, Layout(game_map.grid, zoom), colours=_colours(game_map))
        with self._lock:
            self._entries[key] = (game_map, image)
            self._entries.move_to_end(key)
            while len(self._entries) > self.maxsize:
                self._entries.popitem(last=False)
        return image

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


CACHE = BaseLayerCache()
"""The process-wide base-layer cache."""


def base_layer(game_map: GameMap, zoom: float = 1.0) -> Image.Image:
    """The cached base layer of a map at a zoom, as a 256-colour palette image (shared: convert it to RGB,
    which copies it, before drawing on it)."""
    return CACHE.get(game_map, zoom)


def _colours(game_map: GameMap) -> Image.Image:
    """The 256 colours of a map's base layers: those of the whole map drawn small (zoom 0.25)."""
    small = draw_base_layer(game_map, Layout(game_map.grid, 0.25))
    return small.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def draw_base_layer(game_map: GameMap, layout: Layout, colours: Image.Image | None = None) -> Image.Image:
    """Draw the base layer of a map, one horizontal band at a time: shapes supersampled, then names and hex
    numbers. With ``colours`` (a palette image) each band is reduced to those colours as it is drawn, and
    the layer is a palette image: the whole layer is never held in full colour (a third of the memory;
    every snapshot is posted in a palette of 256 anyway, :func:`render.snapshot.to_png`)."""
    width, height = layout.pixel_size
    image = Image.new("RGB" if colours is None else "P", (width, height))
    if colours is not None:
        image.putpalette(colours.getpalette() or [])
    rows = max(1, BAND_PIXELS // (width * SUPERSAMPLE * SUPERSAMPLE))
    tiles: dict[str, tuple[Image.Image, Image.Image]] = {}
    for top in range(0, height, rows):
        bottom = min(height, top + rows)
        first, last = max(0, top - BAND_OVERLAP), min(height, bottom + BAND_OVERLAP)
        band = _shapes(game_map, layout.zoom, first, last - first, width, tiles)
        band = band.crop((0, top - first, width, bottom - first))
        draw = ImageDraw.Draw(band)
        shifted = Layout(game_map.grid, layout.zoom, origin=(layout.origin[0], layout.origin[1] + top))
        reach = 2 * shifted.size  # a name across two bands is drawn in both, each clipped

        def near(hex_: Hex, layout: Layout = shifted, rows: int = band.height, reach: float = reach) -> bool:
            return -reach <= layout.center(hex_)[1] <= rows + reach

        _hex_numbers(draw, game_map.grid, shifted, near)
        _names(draw, game_map, shifted, near)
        if colours is not None:
            band = band.quantize(palette=colours, dither=Image.Dither.NONE)
        image.paste(band, (0, top))
    return image


def _shapes(
    game_map: GameMap, zoom: float, top: int, rows: int, width: int, tiles: dict[str, tuple[Image.Image, Image.Image]]
) -> Image.Image:
    """The shapes of the rows ``top`` to ``top + rows`` of the base layer, drawn supersampled and reduced.

    ``tiles``: the terrain textures, made for the first band and kept for the others."""
    big = Layout(game_map.grid, zoom * SUPERSAMPLE, origin=(0, top * SUPERSAMPLE))
    image = Image.new("RGB", (width * SUPERSAMPLE, rows * SUPERSAMPLE), palette.BACKGROUND)
    draw = ImageDraw.Draw(image)
    _terrain(image, draw, game_map, big, tiles)
    _outlines(draw, game_map.grid, big)
    _settlement_grounds(draw, game_map, big)
    _roads(draw, game_map, big)
    _settlements(draw, game_map, big)
    _westwall(draw, game_map, big)
    _forts_and_factories(draw, game_map, big)
    _rivers(draw, game_map, big)
    _edges(draw, game_map, big)
    _entries(draw, game_map, big)
    return image.resize((width, rows), Image.Resampling.LANCZOS)


# --- Shapes ------------------------------------------------------------------------------------------------


def _terrain(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    game_map: GameMap,
    layout: Layout,
    tiles: dict[str, tuple[Image.Image, Image.Image]] | None = None,
) -> None:
    reach = layout.size * 1.2
    shown = [h for h in game_map.grid.hexes if -reach <= layout.center(h)[1] <= image.height + reach]
    for hex_ in shown:
        fill = TERRAIN_FILL.get(game_map.terrain.get(hex_, "clear"), palette.CLEAR)
        draw.polygon(layout.corners(hex_), fill=fill)
    tiles = {} if tiles is None else tiles
    for terrains, texture in ((HATCHED_TERRAIN, _hatching), (("forest",), _trees)):
        hexes = [h for h in shown if game_map.terrain.get(h) in terrains]
        if not hexes:
            continue
        if terrains[0] not in tiles:
            tiles[terrains[0]] = texture(layout), _hex_mask(layout)
        tile, mask = tiles[terrains[0]]
        for hex_ in hexes:
            x, y = layout.center(hex_)
            image.paste(tile, (round(x - tile.width / 2), round(y - tile.height / 2)), mask)


def _hex_mask(layout: Layout) -> Image.Image:
    """A hex-shaped mask the size of one hex, slightly inset so the outline stays clean."""
    width, height = math.ceil(2 * layout.size), math.ceil(layout.height)
    mask = Image.new("L", (width, height), 0)
    radius = layout.size * 0.97
    corners = [
        (width / 2 + radius * math.cos(math.radians(60 * k)), height / 2 + radius * math.sin(math.radians(60 * k)))
        for k in range(6)
    ]
    ImageDraw.Draw(mask).polygon(corners, fill=255)
    return mask


def _hatching(layout: Layout) -> Image.Image:
    """Short diagonal strokes in staggered rows: the rough-terrain texture of one hex."""
    width, height = math.ceil(2 * layout.size), math.ceil(layout.height)
    texture = Image.new("RGB", (width, height), palette.ROUGH)
    draw = ImageDraw.Draw(texture)
    step = layout.size * 0.3
    stroke = layout.size * 0.12
    line = max(1, round(layout.size / 40))
    for j in range(int(height / step) + 2):
        y = j * step
        shift = step / 2 if j % 2 else 0.0
        for i in range(int(width / step) + 2):
            x = i * step + shift
            draw.line((x - stroke, y + stroke, x + stroke, y - stroke), fill=palette.ROUGH_HATCH, width=line)
    return texture


def _trees(layout: Layout) -> Image.Image:
    """Small trees in staggered rows: the forest texture of one hex."""
    width, height = math.ceil(2 * layout.size), math.ceil(layout.height)
    texture = Image.new("RGB", (width, height), palette.FOREST)
    draw = ImageDraw.Draw(texture)
    step = layout.size * 0.36
    for j in range(int(height / step) + 2):
        y = j * step
        shift = step / 2 if j % 2 else 0.0
        fill = palette.FOREST_TREE if j % 2 else palette.FOREST_TREE_LIGHT
        for i in range(int(width / step) + 2):
            symbols.tree(draw, (i * step + shift, y), layout.size * 0.22, fill)
    return texture


def _outlines(draw: ImageDraw.ImageDraw, grid: Grid, layout: Layout) -> None:
    width = max(1, round(layout.size / 40))
    for hex_ in grid.hexes:
        corners = layout.corners(hex_)
        draw.line([*corners, corners[0]], fill=palette.HEX_OUTLINE, width=width)


def _settlement_grounds(draw: ImageDraw.ImageDraw, game_map: GameMap, layout: Layout) -> None:
    for hex_, place in game_map.settlements.items():
        if place.kind == "city":
            draw.polygon(layout.corners(hex_, 0.82), fill=palette.CITY_GROUND)


def _settlements(draw: ImageDraw.ImageDraw, game_map: GameMap, layout: Layout) -> None:
    for hex_, place in game_map.settlements.items():
        center = layout.center(hex_)
        if place.kind == "city":
            symbols.city(draw, center, layout.size)
        else:
            symbols.village(draw, center, layout.size)


def _roads(draw: ImageDraw.ImageDraw, game_map: GameMap, layout: Layout) -> None:
    width = max(2, round(layout.size * 0.09))
    for road in game_map.roads:
        points = [layout.center(h) for h in road.hexes]
        draw.line(points, fill=palette.ROAD, width=width, joint="curve")
        for x, y in points:
            draw.ellipse((x - width / 2, y - width / 2, x + width / 2, y + width / 2), fill=palette.ROAD)


def _westwall(draw: ImageDraw.ImageDraw, game_map: GameMap, layout: Layout) -> None:
    """Dragon's teeth just inside the border of the Westwall hexes, so the line shows around counters."""
    tooth = layout.size * 0.15
    for hex_ in sorted(game_map.westwall):
        inner = layout.corners(hex_, 0.84)
        for side in range(6):
            if layout.side_neighbour(hex_, side) in game_map.westwall:
                continue
            symbols.dragon_teeth(draw, inner[side], inner[(side + 1) % 6], tooth)


def _forts_and_factories(draw: ImageDraw.ImageDraw, game_map: GameMap, layout: Layout) -> None:
    """A bastion outline round a fort hex; a small works with a chimney in a factory hex's corner."""
    for hex_ in sorted(game_map.overlays.get("fort", ())):
        corners = layout.corners(hex_, 0.9)
        draw.line([*corners, corners[0]], fill=palette.FORT, width=max(2, round(layout.size * 0.07)))
    unit = layout.size * 0.1
    for hex_ in sorted(game_map.overlays.get("factory", ())):
        x, y = layout.center(hex_)
        left, bottom = x + layout.size * 0.35, y - layout.height * 0.12
        draw.rectangle((left, bottom - 2 * unit, left + 3 * unit, bottom), fill=palette.FACTORY)
        draw.rectangle((left + 2 * unit, bottom - 4 * unit, left + 2.8 * unit, bottom), fill=palette.FACTORY)


def _rivers(draw: ImageDraw.ImageDraw, game_map: GameMap, layout: Layout) -> None:
    for river in game_map.rivers:
        # The uncrossable river (the Rhine in Alsace 1944) is drawn broader and darker.
        broad = river.kind == "uncrossable"
        width = max(3, round(layout.size * (0.24 if broad else 0.13)))
        colour = palette.UNCROSSABLE_RIVER if broad else palette.RIVER
        for a, b in sorted(river.hexsides):
            start, end = layout.hexside_points(a, b)
            draw.line((start, end), fill=colour, width=width)
            for x, y in (start, end):
                draw.ellipse((x - width / 2, y - width / 2, x + width / 2, y + width / 2), fill=colour)
    bar = max(3, round(layout.size * 0.11))
    for a, b in sorted(game_map.bridges):
        (ax, ay), (bx, by) = layout.center(a), layout.center(b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = (bx - ax) * 0.16, (by - ay) * 0.16
        draw.line((mx - dx, my - dy, mx + dx, my + dy), fill=palette.BRIDGE, width=bar)
        length = math.hypot(dx, dy)
        nx, ny = -dy / length * bar * 0.9, dx / length * bar * 0.9
        for sign in (-1, 1):
            draw.line(
                (mx - dx + sign * nx, my - dy + sign * ny, mx + dx + sign * nx, my + dy + sign * ny),
                fill=palette.BRIDGE,
                width=max(1, bar // 3),
            )


def _edges(draw: ImageDraw.ImageDraw, game_map: GameMap, layout: Layout) -> None:
    width = max(3, round(layout.size * 0.2))
    for side in sorted(game_map.friendly_edges):
        colour = palette.SIDE_EDGE.get(side, palette.HEX_OUTLINE)
        for hex_ in sorted(game_map.friendly_edges[side]):
            for start, end in layout.outer_sides(hex_):
                draw.line((start, end), fill=colour, width=width)
                for x, y in (start, end):
                    draw.ellipse((x - width / 2, y - width / 2, x + width / 2, y + width / 2), fill=colour)


def _entries(draw: ImageDraw.ImageDraw, game_map: GameMap, layout: Layout) -> None:
    radius = layout.size * 0.19
    for side in sorted(game_map.entry_hexes):
        for hex_ in sorted(game_map.entry_hexes[side]):
            x, y = layout.center(hex_)
            point = (x - layout.size * 0.62, y + layout.height * 0.08)
            if side == "allied":
                symbols.star(draw, point, radius, (255, 255, 255), (20, 20, 20))
            else:
                symbols.cross(draw, point, radius * 0.9, (20, 20, 20), (255, 255, 255))


# --- Text --------------------------------------------------------------------------------------------------


def _hex_numbers(
    draw: ImageDraw.ImageDraw, grid: Grid, layout: Layout, near: Callable[[Hex], bool] = lambda _: True
) -> None:
    size = max(7, round(layout.size * 0.19))
    for hex_ in filter(near, grid.hexes):
        x, y = layout.center(hex_)
        draw_text(
            draw,
            (x, y - layout.height / 2 + 1),
            hex_name(hex_),
            size,
            palette.HEX_NUMBER,
            anchor="mt",
            halo=palette.HEX_NUMBER_HALO,
            halo_width=1,
        )


def _names(
    draw: ImageDraw.ImageDraw, game_map: GameMap, layout: Layout, near: Callable[[Hex], bool] = lambda _: True
) -> None:
    _river_names(draw, game_map, layout)  # drawn whole in every band, clipped to it: a few dozen labels
    for place in (p for p in game_map.places if near(p.hex)):
        draw_place_name(draw, layout, place)


RIVER_LABEL_EVERY = 16
"""A river gets its name once per this many hexsides (at least once)."""


def river_labels(game_map: GameMap, layout: Layout) -> list[tuple[str, Point]]:
    """Where each river's name goes: beside hexsides of its course spread along it (one per
    :data:`RIVER_LABEL_EVERY` hexsides, at least one), away from the hexes of named places when it can."""
    named = {place.hex for place in game_map.places}
    labels = []
    for river in game_map.rivers:
        sides = sorted(river.hexsides)
        if not sides:
            continue
        # Beside the river, not on it: a third of the way from the hexside's middle to a hex centre.
        points = [_towards(_midpoint(*layout.hexside_points(a, b)), layout.center(a), 0.35) for a, b in sides]
        xs, ys = [x for x, _ in points], [y for _, y in points]
        along = 0 if max(xs) - min(xs) >= max(ys) - min(ys) else 1
        order = sorted(range(len(sides)), key=lambda i: points[i][along])
        free = [i for i in order if not set(sides[i]) & named] or order
        count = max(1, len(sides) // RIVER_LABEL_EVERY)
        for k in range(count):
            target = points[order[int((k + 0.5) * len(order) / count)]]
            best = min(free, key=lambda i: math.dist(points[i], target))
            labels.append((river.name, points[best]))
    return labels


def _river_names(draw: ImageDraw.ImageDraw, game_map: GameMap, layout: Layout) -> None:
    size = max(8, round(layout.size * 0.3))
    for name, point in river_labels(game_map, layout):
        draw_text(draw, point, name, size, palette.RIVER, halo=palette.HALO, halo_width=max(1, round(layout.size / 20)))


def _midpoint(a: Point, b: Point) -> Point:
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


def _towards(a: Point, b: Point, share: float) -> Point:
    return a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share


def draw_place_name(
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    place: Place,
    offset: Point = (0.0, 0.0),
    within: tuple[int, int, int, int] | None = None,
    placer: Placer | None = None,
) -> None:
    """A place's name with a halo, just under its hex's counter (well above the next hex's number).

    Snapshots draw the names of occupied hexes again over the counters' stack edges, hence ``offset``
    (subtracted from the map position). ``within`` (left, top, right, bottom): a name that would fall
    wholly outside that box is not drawn (a close-up shows a few of the names of the whole map). With a
    ``placer`` (the counters' values), a name that would hide a value is not drawn again: the base layer's
    copy under the counters stays.
    """
    x, y = layout.center(place.hex)
    counter_bottom = layout.counter_box(place.hex)[3] - y
    size = max(7, round(layout.size * (0.26 if place.kind == "city" else 0.22)))
    colour = palette.PLACE_NAME if place.kind != "locality" else palette.LOCALITY_NAME
    at = (x - offset[0], y + counter_bottom + 1 - offset[1])
    halo_width = max(1, round(layout.size / 25))
    if within is not None:
        box = text_box(at, place.name, size, anchor="mt", halo_width=halo_width)
        if box[2] < within[0] or box[0] > within[2] or box[3] < within[1] or box[1] > within[3]:
            return
    if placer is not None:
        box = text_box(at, place.name, size, anchor="mt", halo_width=halo_width)
        if placer.covers_value(box):
            return
        placer.placed.append(box)
    draw_text(draw, at, place.name, size, colour, anchor="mt", halo=palette.HALO, halo_width=halo_width)
