"""The colours of the map and the counters, in one place so the legend and the drawing agree."""

from __future__ import annotations

from typing import Final

from PIL import ImageColor

RGB = tuple[int, int, int]


def rgb(color: str) -> RGB:
    """An ``"#rrggbb"`` colour as an RGB triple.

    :raises ValueError: if the text is not a colour Pillow understands.
    """
    red, green, blue = ImageColor.getrgb(color)[:3]
    return red, green, blue


def darker(color: RGB, factor: float = 0.7) -> RGB:
    """The colour scaled towards black."""
    return (int(color[0] * factor), int(color[1] * factor), int(color[2] * factor))


def is_light(color: RGB) -> bool:
    """Whether black text reads better than white on this colour (relative luminance)."""
    red, green, blue = color
    return 0.299 * red + 0.587 * green + 0.114 * blue > 150


# --- The map ---------------------------------------------------------------------------------------------

BACKGROUND: Final[RGB] = (236, 232, 220)
CLEAR: Final[RGB] = (240, 238, 214)
ROUGH: Final[RGB] = (214, 190, 140)
ROUGH_HATCH: Final[RGB] = (168, 138, 88)
FOREST: Final[RGB] = (140, 178, 112)
FOREST_TREE: Final[RGB] = (72, 118, 58)
FOREST_TREE_LIGHT: Final[RGB] = (104, 150, 84)
DIFFICULT: Final[RGB] = (206, 196, 150)
MOUNTAIN: Final[RGB] = (176, 146, 110)
NO_ENTRY: Final[RGB] = (196, 196, 196)
FORT: Final[RGB] = (60, 56, 52)
FACTORY: Final[RGB] = (90, 90, 100)
WESTWALL: Final[RGB] = (70, 70, 70)
HEX_OUTLINE: Final[RGB] = (120, 116, 100)
HEX_NUMBER: Final[RGB] = (96, 90, 76)
HEX_NUMBER_HALO: Final[RGB] = (236, 234, 214)
RIVER: Final[RGB] = (38, 104, 214)
UNCROSSABLE_RIVER: Final[RGB] = (20, 70, 170)
BRIDGE: Final[RGB] = (40, 36, 32)
ROAD: Final[RGB] = (176, 48, 32)
CITY: Final[RGB] = (120, 84, 72)
CITY_GROUND: Final[RGB] = (212, 196, 184)
VILLAGE: Final[RGB] = (96, 72, 64)
PLACE_NAME: Final[RGB] = (20, 20, 20)
LOCALITY_NAME: Final[RGB] = (70, 60, 50)
HALO: Final[RGB] = (255, 255, 250)
TITLE_BAR: Final[RGB] = (44, 48, 40)
TITLE_TEXT: Final[RGB] = (245, 242, 230)
LEGEND_TEXT: Final[RGB] = (30, 30, 30)

SIDE_EDGE: Final[dict[str, RGB]] = {"allied": (60, 130, 60), "german": (40, 40, 40)}
"""The band along each side's friendly board edge."""

# --- The counters ----------------------------------------------------------------------------------------

COUNTER_BASE: Final[dict[str, RGB]] = {
    "german": (92, 100, 104),
    "us": (104, 110, 58),
    "british": (150, 118, 78),
}
"""The counter's ground by nationality: German field grey, US olive, British khaki-brown."""
COUNTER_TEXT: Final[RGB] = (250, 250, 245)
COUNTER_EDGE: Final[RGB] = (16, 16, 16)
STEPS_ARMOR: Final[RGB] = (200, 30, 30)
"""The steps box of armored and mechanized units, as printed."""
STEPS_INFANTRY: Final[RGB] = (30, 80, 200)
"""The steps box of infantry (and HQ) units, as printed."""
BADGE: Final[RGB] = (180, 20, 20)
HIDDEN_BASE: Final[dict[str, RGB]] = {"german": (92, 100, 104), "allied": (104, 110, 58)}

MARKERS: Final[dict[str, tuple[str, RGB]]] = {
    "improved-position": ("IP", (150, 105, 50)),
    "activated": ("ACT", (240, 200, 40)),
    "fatigue": ("FAT", (240, 130, 30)),
    "out-of-command": ("OoC", (140, 70, 170)),
    "isolated": ("ISO", (200, 30, 30)),
    "unsupplied": ("OoS", (20, 20, 20)),
    "breakthrough": ("BREAK", (30, 160, 90)),
    "disorganized": ("DIS", (120, 120, 130)),
}
"""Each marker's chip: short text and colour. Unknown markers get a grey chip with their first letters."""
UNKNOWN_MARKER: Final[RGB] = (150, 150, 150)


def marker_chip(name: str) -> tuple[str, RGB]:
    """The chip text and colour of a marker."""
    return MARKERS.get(name, (name[:3].upper(), UNKNOWN_MARKER))


PARTLY_HIDDEN_BADGE: Final[RGB] = (70, 70, 150)
"""The count badge of a stack whose lower counters the seat may not see (11): blue, with a "?"."""
LOSS_MARKER: Final[RGB] = (190, 20, 20)
"""The step-loss marker under a counter of more than two steps (1.2)."""
BACK_SIDE_MIX: Final[float] = 0.5
"""How far a counter's back (reduced, or activated HQ) is lightened towards white."""
BACK_SIDE_TEXT: Final[RGB] = (20, 20, 20)

SUPPORTS: Final[dict[str, tuple[str, RGB]]] = {
    "artillery": ("Art", (200, 40, 40)),
    "heavy_artillery": ("HArt", (130, 20, 20)),
    "tank": ("Tk", (40, 90, 170)),
    "nebelwerfer": ("NW", (200, 90, 20)),
    "stug": ("StuG", (60, 60, 60)),
    "tiger": ("Tig", (20, 20, 20)),
    "hetzer": ("Hz", (90, 90, 50)),
    "air": ("Air", (60, 140, 200)),
    "light_artillery": ("LArt", (200, 40, 40)),
    "pioneers": ("Pio", (90, 70, 40)),
    "flak88": ("88", (60, 60, 60)),
    "tank_destroyer": ("TD", (40, 90, 170)),
}
"""Support markers on an HQ (1.6): short text and colour (Ardennes 1944's, then Alsace 1944's)."""


def support_chip(kind: str) -> tuple[str, RGB]:
    """The chip text and colour of a support marker."""
    return SUPPORTS.get(kind, (kind[:3].capitalize(), UNKNOWN_MARKER))


MAP_MARKS: Final[dict[str, tuple[str, RGB]]] = {
    "breakthrough": ("BREAK", (30, 160, 90)),
    "roadblock": ("ROADBLK", (170, 40, 30)),
    "stosser": ("STOSSER", (70, 70, 70)),
    "nuts": ("NUTS!", (40, 110, 40)),
    "air-supply": ("AIR SUP", (60, 140, 200)),
    "greif": ("GREIF", (90, 70, 120)),
    "mines": ("MINES", (160, 90, 20)),
}
"""Markers on the map itself (7.8, 15; Alsace 1944 14 mines): text and colour."""


def map_mark(kind: str) -> tuple[str, RGB]:
    return MAP_MARKS.get(kind, (kind[:7].upper(), UNKNOWN_MARKER))


MOVE_ARROW: Final[RGB] = (20, 20, 20)
"""Moves are black with a white casing, apart from the blue rivers and red roads and attacks."""
ATTACK_ARROW: Final[RGB] = (220, 20, 20)
EARLIER_ATTACK_ARROW: Final[RGB] = (120, 90, 90)
"""An earlier combat in the history overlay: the latest stays red."""
RETREAT_ARROW: Final[RGB] = (230, 120, 0)
ADVANCE_ARROW: Final[RGB] = (150, 30, 160)
ELIMINATED: Final[RGB] = (200, 0, 0)
REACHABLE: Final[RGB] = (60, 170, 255)
ZOC: Final[dict[str, RGB]] = {"german": (60, 60, 60), "allied": (30, 130, 50)}
COMMAND: Final[dict[str, RGB]] = {"german": (90, 90, 90), "allied": (40, 120, 60)}
SUPPLY: Final[RGB] = (0, 150, 150)
FRONT_LINE: Final[RGB] = (200, 0, 90)
"""The front line at set-up (Alsace 1944 19.2): a dashed crimson line."""
VICTORY: Final[RGB] = (230, 170, 0)
TURN_CURRENT: Final[RGB] = (255, 215, 60)
WEATHER: Final[dict[str, RGB]] = {"clear": (120, 190, 250), "overcast": (150, 150, 160)}
PANEL: Final[RGB] = (226, 221, 205)
