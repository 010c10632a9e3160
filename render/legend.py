"""The margin around a map: a title bar above it and a key to the terrain, symbols and markers below."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.hexgrid import Hex
from engine.vaevictis.data import GameMap, Side
from render import basemap, palette, symbols
from render.fonts import draw_text, fitting_size, text_width
from render.picture import (
    CommandOverlay,
    FrontLine,
    MapPicture,
    Reachable,
    SupplyOverlay,
    VictoryOverlay,
    ZocOverlay,
)

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
        size = fitting_size(text, max(7, round((bottom - top) * 0.7)), right - left - 2, smallest=6)
        draw_text(draw, ((left + right) / 2, (top + bottom) / 2), text, size, ink)

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


def _badge_swatch(text: str, colour: palette.RGB) -> Swatch:
    def draw_swatch(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
        left, top, right, bottom = box
        radius = (bottom - top) / 2
        cx, cy = (left + right) / 2, (top + bottom) / 2
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=colour, outline=(255, 255, 255))
        draw_text(draw, (cx, cy), text, max(7, round(radius * 1.2)), (255, 255, 255))

    return draw_swatch


def _box_swatch(text: str, colour: palette.RGB, rounded: bool = False) -> Swatch:
    def draw_swatch(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
        left, top, right, bottom = box
        if rounded:
            draw.rounded_rectangle(box, radius=3, fill=colour, outline=(255, 255, 255))
        else:
            draw.rectangle(box, fill=colour, outline=(255, 255, 255))
        ink = (0, 0, 0) if palette.is_light(colour) else (255, 255, 255)
        size = fitting_size(text, max(7, round((bottom - top) * 0.7)), right - left - 2, smallest=6)
        draw_text(draw, ((left + right) / 2, (top + bottom) / 2), text, size, ink)

    return draw_swatch


def _hidden_swatch(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    left, top, right, bottom = box
    draw.rounded_rectangle((left + 6, top, right - 6, bottom), radius=2, fill=palette.HIDDEN_BASE["german"])
    draw_text(draw, ((left + right) / 2, (top + bottom) / 2), "?", max(7, round((bottom - top) * 0.8)), (255, 255, 255))


def _arrow_swatch(colour: palette.RGB, dashed: bool) -> Swatch:
    def draw_swatch(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
        left, top, right, bottom = box
        middle, width = (top + bottom) / 2, max(2, round((bottom - top) * 0.2))
        head = (bottom - top) * 0.45
        if dashed:
            step = (right - head - left) / 5
            for k in range(0, 5, 2):
                draw.line((left + k * step, middle, left + (k + 1) * step, middle), fill=colour, width=width)
        else:
            draw.line((left, middle, right - head, middle), fill=colour, width=width)
        draw.polygon(
            [(right, middle), (right - head, middle - head * 0.7), (right - head, middle + head * 0.7)], fill=colour
        )

    return draw_swatch


def _dashed(colour: palette.RGB) -> Swatch:
    def draw_swatch(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
        left, top, right, bottom = box
        middle, width = (top + bottom) / 2, max(2, round((bottom - top) * 0.25))
        step = (right - left) / 5
        for k in range(0, 5, 2):
            draw.line((left + k * step, middle, left + (k + 1) * step, middle), fill=colour, width=width)

    return draw_swatch


def _cross_swatch(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    left, top, right, bottom = box
    cx, cy, half = (left + right) / 2, (top + bottom) / 2, (bottom - top) * 0.4
    for colour, grow in (((255, 255, 255), 2), (palette.ELIMINATED, 0)):
        draw.line((cx - half, cy - half, cx + half, cy + half), fill=colour, width=3 + grow)
        draw.line((cx - half, cy + half, cx + half, cy - half), fill=colour, width=3 + grow)


def _tint_swatch(colour: palette.RGB, text: str = "") -> Swatch:
    def draw_swatch(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
        left, top, right, bottom = box
        draw.rectangle(box, fill=colour, outline=palette.HEX_OUTLINE)
        if text:
            draw_text(
                draw, ((left + right) / 2, (top + bottom) / 2), text, max(7, round((bottom - top) * 0.6)), (0, 50, 140)
            )

    return draw_swatch


def _ring_swatch(colour: palette.RGB) -> Swatch:
    def draw_swatch(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
        left, top, right, bottom = box
        draw.rectangle(box, fill=palette.CLEAR, outline=palette.HEX_OUTLINE)
        draw.rectangle((left + 2, top + 2, right - 2, bottom - 2), outline=colour, width=3)

    return draw_swatch


def _mark_label(kind: str) -> str:
    """A map marker's entry in the key: ``"Breakthrough marker"``."""
    return f"{kind.replace('-', ' ').replace('_', ' ').capitalize()} marker"


def _support_label(kind: str) -> str:
    """A support marker's entry in the key: ``"Heavy artillery support"``."""
    return f"{kind.replace('_', ' ').capitalize()} support"


MARK_SWATCHES: dict[str, Swatch] = {
    "Steps lost": _box_swatch("-1", palette.LOSS_MARKER),
    "Stack (counters in it)": _badge_swatch("3", palette.BADGE),
    "Partly hidden stack": _badge_swatch("3?", palette.PARTLY_HIDDEN_BADGE),
    "Hidden stack": _hidden_swatch,
    "Move": _arrow_swatch(palette.MOVE_ARROW, dashed=False),
    "Retreat": _arrow_swatch(palette.RETREAT_ARROW, dashed=True),
    "Advance": _arrow_swatch(palette.ADVANCE_ARROW, dashed=True),
    "Attack": _arrow_swatch(palette.ATTACK_ARROW, dashed=False),
    "Earlier attack": _arrow_swatch(palette.EARLIER_ATTACK_ARROW, dashed=False),
    "Combat result (attacker/defender steps)": _box_swatch("1/2", palette.ATTACK_ARROW, rounded=True),
    "Result and breakthrough": _box_swatch("BREAK", palette.MAP_MARKS["breakthrough"][1], rounded=True),
    "Eliminated": _cross_swatch,
    "Reachable (cost)": _tint_swatch(palette.REACHABLE, "3"),
    "Allied zone of control": _tint_swatch(palette.ZOC["allied"]),
    "German zone of control": _tint_swatch(palette.ZOC["german"]),
    "Allied command range": _ring_swatch(palette.COMMAND["allied"]),
    "German command range": _ring_swatch(palette.COMMAND["german"]),
    "Supply line": _line(palette.SUPPLY, 0.2),
    "Out of supply": _ring_swatch(palette.ELIMINATED),
    "Victory hex": _ring_swatch(palette.VICTORY),
    "Front line": _dashed(palette.FRONT_LINE),
    **{_mark_label(kind): _box_swatch(text, colour) for kind, (text, colour) in palette.MAP_MARKS.items()},
    **{_support_label(kind): _box_swatch(text, colour) for kind, (text, colour) in palette.SUPPORTS.items()},
}
"""The key's entries for the marks a picture may carry besides terrain and counters' chips (issue 33)."""

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
    **MARK_SWATCHES,
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


def marks_key(picture: MapPicture, shown: Callable[[Hex], bool] = lambda _: True) -> Key:
    """The key's entries for what ``picture`` carries in the hexes ``shown``, besides terrain and chips: loss
    markers, count badges (a partly hidden stack's too, 11), hidden stacks, support and map markers, the last
    activation's arrows, results and crosses, and the overlays."""
    faces = [stack for hex_, stack in picture.counters.items() if shown(hex_)]
    hidden = [stack for hex_, stack in picture.hidden.items() if shown(hex_)]
    partly = any(
        stack.count > len(picture.counters[h])
        for h, stack in picture.hidden.items()
        if h in picture.counters and shown(h)
    )
    happened = picture.happened
    labels: list[str] = []
    labels += ["Steps lost"] if any(stack[0].steps_lost for stack in faces) else []
    labels += (
        ["Stack (counters in it)"] if any(len(stack) > 1 for stack in faces) or any(s.count > 1 for s in hidden) else []
    )
    labels += ["Partly hidden stack"] if partly else []
    labels += ["Hidden stack"] if any(h not in picture.counters for h, _ in picture.hidden.items() if shown(h)) else []
    supports = {kind for stack in faces for kind in stack[0].supports}
    labels += [_support_label(kind) for kind in sorted(supports)]
    marks = {mark.kind for mark in picture.map_marks if shown(mark.hex)}
    labels += [_mark_label(kind) for kind in sorted(marks)]
    labels += ["Move"] if any(any(shown(h) for h in a.path) for a in happened.moves) else []
    labels += ["Retreat"] if any(any(shown(h) for h in a.path) for a in happened.retreats) else []
    labels += ["Advance"] if any(any(shown(h) for h in a.path) for a in happened.advances) else []
    attacks = [a for a in happened.attacks if shown(a.target)]
    labels += ["Attack"] if any(not a.earlier for a in attacks) else []
    labels += ["Earlier attack"] if any(a.earlier for a in attacks) else []
    labels += ["Combat result (attacker/defender steps)"] if attacks else []
    labels += ["Result and breakthrough"] if any(a.breakthrough for a in attacks) else []
    labels += ["Eliminated"] if any(shown(h) for h, _ in happened.eliminated) else []
    for overlay in picture.overlays:
        if isinstance(overlay, Reachable):
            labels.append("Reachable (cost)")
        elif isinstance(overlay, ZocOverlay):
            labels.append(f"{overlay.side.capitalize()} zone of control")
        elif isinstance(overlay, CommandOverlay):
            labels.append(f"{overlay.side.capitalize()} command range")
        elif isinstance(overlay, SupplyOverlay):
            labels += ["Supply line", *(["Out of supply"] if overlay.cut else [])]
        elif isinstance(overlay, VictoryOverlay):
            labels.append("Victory hex")
        elif isinstance(overlay, FrontLine):
            labels.append("Front line")
    return tuple(label for label in dict.fromkeys(labels) if label in SWATCHES)


def picture_key(picture: MapPicture, shown: Callable[[Hex], bool] = lambda _: True) -> Key:
    """The whole key of a picture: its map's terrain and features shown, the counters' chips, then every other
    mark it carries (:func:`marks_key`)."""
    return (*key_for(picture.game_map, shown), *marks_key(picture, shown))


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
