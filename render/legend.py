"""The margin around a map: a title bar above it and a key to the terrain, symbols and markers below."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.hexgrid import Hex
from engine.vaevictis.data import GameMap, Side
from render import basemap, palette, symbols
from render.fonts import draw_text, fitting_size, text_width

Swatch = Callable[[ImageDraw.ImageDraw, tuple[float, float, float, float]], None]

KEYS_KEPT = 16
"""Keys kept drawn (one per picture width, zoom and key: whole maps with and without margin, close-ups, whose
keys list what they show)."""


def title_height(zoom: float) -> int:
    """Height of the title bar."""
    return round(34 * zoom)


def _hex_swatch(
    fill: palette.RGB, texture: Callable[[ImageDraw.ImageDraw, tuple[float, ...]], None] | None = None
) -> Swatch:
    def draw_swatch(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
        draw.rectangle(box, fill=fill, outline=palette.HEX_OUTLINE)
        if texture is not None:
            texture(draw, box)

    return draw_swatch


def _hatch(draw: ImageDraw.ImageDraw, box: tuple[float, ...]) -> None:
    left, top, right, bottom = box
    step = (right - left) / 4
    for k in range(4):
        x = left + step * (k + 0.5)
        draw.line((x - step * 0.35, bottom - 3, x + step * 0.35, top + 3), fill=palette.ROUGH_HATCH, width=1)


def _forest(draw: ImageDraw.ImageDraw, box: tuple[float, ...]) -> None:
    left, top, right, bottom = box
    height = bottom - top
    for k in range(2):
        symbols.tree(
            draw, (left + (right - left) * (0.3 + 0.4 * k), top + height * 0.35), height * 0.6, palette.FOREST_TREE
        )


def _line(colour: palette.RGB, width_factor: float) -> Swatch:
    def draw_swatch(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
        left, top, right, bottom = box
        middle = (top + bottom) / 2
        draw.line((left, middle, right, middle), fill=colour, width=max(2, round((bottom - top) * width_factor)))

    return draw_swatch


def _bridge(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    left, top, right, bottom = box
    middle, center = (top + bottom) / 2, (left + right) / 2
    draw.line((left, middle, right, middle), fill=palette.RIVER, width=max(2, round((bottom - top) * 0.3)))
    draw.line((center, top, center, bottom), fill=palette.BRIDGE, width=max(2, round((bottom - top) * 0.25)))


def _westwall(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    left, top, right, bottom = box
    middle = top + (bottom - top) * 0.3
    draw.rectangle(box, fill=palette.CLEAR, outline=palette.HEX_OUTLINE)
    symbols.dragon_teeth(draw, (left + 3, middle), (right - 3, middle), (bottom - top) * 0.45)


def _settlement(kind: str) -> Swatch:
    def draw_swatch(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
        left, top, right, bottom = box
        draw.rectangle(box, fill=palette.CITY_GROUND if kind == "city" else palette.CLEAR, outline=palette.HEX_OUTLINE)
        center = ((left + right) / 2, (top + bottom) / 2)
        if kind == "city":
            symbols.city(draw, center, (bottom - top) * 0.75)
        else:
            symbols.village(draw, center, (bottom - top) * 0.9)

    return draw_swatch


def _entry(side: str) -> Swatch:
    def draw_swatch(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
        left, top, right, bottom = box
        center, radius = ((left + right) / 2, (top + bottom) / 2), (bottom - top) * 0.45
        draw.rectangle(box, fill=palette.CLEAR, outline=palette.HEX_OUTLINE)
        if side == "allied":
            symbols.star(draw, center, radius, (255, 255, 255), (20, 20, 20))
        else:
            symbols.cross(draw, center, radius * 0.9, (20, 20, 20), (255, 255, 255))

    return draw_swatch


def _chip(marker: str) -> Swatch:
    def draw_swatch(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
        text, colour = palette.marker_chip(marker)
        left, top, right, bottom = box
        draw.rounded_rectangle(box, radius=3, fill=colour, outline=(255, 255, 255))
        ink = (0, 0, 0) if palette.is_light(colour) else (255, 255, 255)
        draw_text(draw, ((left + right) / 2, (top + bottom) / 2), text, max(7, round((bottom - top) * 0.7)), ink)

    return draw_swatch


def _fort(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    left, top, right, bottom = box
    draw.rectangle(box, fill=palette.CLEAR, outline=palette.HEX_OUTLINE)
    inset = 3
    draw.rectangle((left + inset, top + inset, right - inset, bottom - inset), outline=palette.FORT, width=2)


def _factory(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    left, top, right, bottom = box
    draw.rectangle(box, fill=palette.CLEAR, outline=palette.HEX_OUTLINE)
    unit = (bottom - top) / 6
    x, base = (left + right) / 2 - 1.5 * unit, bottom - unit
    draw.rectangle((x, base - 2 * unit, x + 3 * unit, base), fill=palette.FACTORY)
    draw.rectangle((x + 2 * unit, base - 4 * unit, x + 2.8 * unit, base), fill=palette.FACTORY)


def _terrain_swatch(kind: str) -> Swatch:
    if kind in basemap.HATCHED_TERRAIN:
        return _hex_swatch(basemap.TERRAIN_FILL[kind], _hatch)
    return _hex_swatch(basemap.TERRAIN_FILL[kind], _forest if kind == "forest" else None)


SWATCHES: dict[str, Swatch] = {
    **{kind.capitalize(): _terrain_swatch(kind) for kind in basemap.TERRAIN_FILL},
    "Westwall": _westwall,
    "Fort": _fort,
    "Factory": _factory,
    "City": _settlement("city"),
    "Village": _settlement("village"),
    "River": _line(palette.RIVER, 0.35),
    "Canal": _line(palette.RIVER, 0.35),
    "Uncrossable river": _line(palette.UNCROSSABLE_RIVER, 0.5),
    "Bridge": _bridge,
    "Road": _line(palette.ROAD, 0.25),
    "Allied edge": _line(palette.SIDE_EDGE["allied"], 0.45),
    "German edge": _line(palette.SIDE_EDGE["german"], 0.45),
    "Allied entry": _entry("allied"),
    "German entry": _entry("german"),
    **{name.replace("-", " ").capitalize(): _chip(name) for name in palette.MARKERS},
}
"""Every entry a key may have, by its label."""

MARKER_KEY: tuple[str, ...] = tuple(name.replace("-", " ").capitalize() for name in palette.MARKERS)

Key = tuple[str, ...]
"""A key: the labels of its entries (see :data:`SWATCHES`), in reading order."""

KEY: Key = (
    "Clear",
    "Rough",
    "Forest",
    "Westwall",
    "City",
    "Village",
    "River",
    "Bridge",
    "Road",
    "Allied edge",
    "German edge",
    "Allied entry",
    "German entry",
    *MARKER_KEY,
)
"""The key of a map whose contents are not known (Ardennes 1944's)."""


def key_for(game_map: GameMap, shown: Callable[[Hex], bool] = lambda _: True) -> Key:
    """The key of one map: the terrain and features drawn in its hexes that are ``shown`` (Alsace 1944 has
    forts, not the Westwall; a close-up keys what it shows), then the markers."""
    terrain = {game_map.terrain.get(h, "clear") for h in game_map.grid.hexes if shown(h)}
    settlements = {p.kind for p in game_map.places if any(shown(h) for h in p.hexes)}
    rivers = {r.kind for r in game_map.rivers if any(shown(a) or shown(b) for a, b in r.hexsides)}

    def has(area: Iterable[Hex]) -> bool:
        return any(shown(h) for h in area)

    labels = [kind.capitalize() for kind in basemap.TERRAIN_FILL if kind in terrain]
    labels += ["Westwall"] if has(game_map.westwall) else []
    labels += ["Fort"] if has(game_map.overlays.get("fort", ())) else []
    labels += ["Factory"] if has(game_map.overlays.get("factory", ())) else []
    labels += [kind.capitalize() for kind in ("city", "village") if kind in settlements]
    labels += [kind.capitalize() for kind in ("river", "canal") if kind in rivers]
    labels += ["Uncrossable river"] if "uncrossable" in rivers else []
    labels += ["Bridge"] if any(shown(a) or shown(b) for a, b in game_map.bridges) else []
    labels += ["Road"] if any(has(road.hexes) for road in game_map.roads) else []
    sides: tuple[Side, ...] = ("allied", "german")
    labels += [f"{side.capitalize()} edge" for side in sides if has(game_map.friendly_edges.get(side, frozenset()))]
    labels += [f"{side.capitalize()} entry" for side in sides if has(game_map.entry_hexes.get(side, frozenset()))]
    return (*labels, *MARKER_KEY)


def key_height(width: int, zoom: float, key: Key = KEY) -> int:
    """Height of the key when it is laid out in rows across ``width`` pixels."""
    return len(_rows(width, zoom, key)) * _row_height(zoom) + round(10 * zoom)


def _row_height(zoom: float) -> int:
    return round(24 * zoom)


def _entry_width(label: str, zoom: float) -> float:
    return 30 * zoom + 6 * zoom + text_width(label, _text_size(zoom)) + 16 * zoom


def _text_size(zoom: float) -> int:
    return max(8, round(12 * zoom))


def _rows(width: int, zoom: float, key: Key) -> list[list[tuple[str, Swatch]]]:
    rows: list[list[tuple[str, Swatch]]] = [[]]
    used = 10 * zoom
    for label in key:
        needed = _entry_width(label, zoom)
        if rows[-1] and used + needed > width:
            rows.append([])
            used = 10 * zoom
        rows[-1].append((label, SWATCHES[label]))
        used += needed
    return rows


@lru_cache(maxsize=KEYS_KEPT)
def key_band(width: int, zoom: float, key: Key = KEY) -> Image.Image:
    """The key laid out in rows across ``width`` pixels, on the background (:func:`key_height` high).

    The same for every picture of that width, zoom and key, so it is drawn once and pasted (shared: never
    draw on it). Drawing its rows and labels took a fifth of a close-up's time.
    """
    band = Image.new("RGB", (width, key_height(width, zoom, key)), palette.BACKGROUND)
    draw = ImageDraw.Draw(band)
    y = round(6 * zoom)
    for row in _rows(width, zoom, key):
        x = 10 * zoom
        for label, swatch in row:
            swatch_box = (x, y + 4 * zoom, x + 30 * zoom, y + _row_height(zoom) - 4 * zoom)
            swatch(draw, swatch_box)
            draw_text(
                draw,
                (x + 36 * zoom, y + _row_height(zoom) / 2),
                label,
                _text_size(zoom),
                palette.LEGEND_TEXT,
                anchor="lm",
            )
            x += _entry_width(label, zoom)
        y += _row_height(zoom)
    return band


def draw_title(image: Image.Image, caption: str, zoom: float) -> None:
    """The title bar across the top of ``image`` (:func:`title_height` high), with the caption."""
    width = image.width
    top = title_height(zoom)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, top - 1), fill=palette.TITLE_BAR)
    title_size = fitting_size(caption, max(10, round(18 * zoom)), width - 20 * zoom, smallest=9)
    draw_text(draw, (round(10 * zoom), top / 2), caption, title_size, palette.TITLE_TEXT, anchor="lm")
