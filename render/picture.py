"""What the renderer draws: counter faces and a map picture, independent of the engine's state.

The bot builds a :class:`MapPicture` from what one seat may see (fog of war applied), and the renderer
draws exactly that. :func:`setup_picture` builds the picture of a game's initial set-up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine.hexgrid import Hex
from engine.vaevictis.data import GameData, GameMap, Nationality, Side, UnitKind

DEFAULT_STEP_STRENGTH = 3
"""Strength lost per step (1.2), when the game's tables do not say."""


@dataclass(frozen=True)
class CounterFace:
    """One counter as it shows on the map: the printed values and the markers on it."""

    label: str
    """The unit's name as printed (``"Peiper/1"``, ``"HQ V"``)."""
    side: Side
    nationality: Nationality
    """Chooses the counter's ground: German field grey, US olive, British khaki-brown."""
    kind: UnitKind
    size: str
    """NATO size symbol: ``"III"``, ``"X"``, ``"XX"``, ``"XXX"``."""
    bar_color: str
    """The formation's colour bar, ``"#rrggbb"``."""
    strength: int
    """Current combat strength."""
    steps: int
    """Steps left."""
    max_steps: int
    quality: int
    support: int = 0
    """HQ support rating (1.3); HQs only."""
    c3i: str | None = None
    """HQ C3I rating (9.5), A to C; HQs only."""
    activated: bool = False
    """An HQ that has been activated this turn."""
    markers: tuple[str, ...] = ()
    """Markers on the counter, drawn as chips: "improved-position", "activated", "fatigue",
    "out-of-command", "isolated", "unsupplied", "breakthrough" (``render.palette.MARKERS``); any other
    name gets a grey chip with its first letters."""
    supports: tuple[str, ...] = ()
    """Support markers allotted to an HQ (1.3, 1.6): ``"artillery"``, ``"tank"``, ... in allotment order."""
    face_down: bool = False
    """A counter whose values nobody knows yet (Alsace 1944 16: a hidden garrison): drawn with a "?"."""

    @property
    def is_hq(self) -> bool:
        return self.kind == "hq"

    @property
    def flipped(self) -> bool:
        """Whether the counter shows its back: an activated HQ, or a two-step unit down to one step (1.2)."""
        if self.is_hq:
            return self.activated
        return self.max_steps == 2 and self.steps == 1

    @property
    def steps_lost(self) -> int:
        """Steps shown by a loss marker under the counter: units of more than two steps only (1.2)."""
        return max(0, self.max_steps - self.steps) if self.max_steps > 2 else 0

    @property
    def shown_markers(self) -> tuple[str, ...]:
        """The markers to draw, ``"activated"`` included when the HQ is activated."""
        if self.activated and "activated" not in self.markers:
            return (*self.markers, "activated")
        return self.markers


@dataclass(frozen=True)
class HiddenStack:
    """A stack the viewing seat may not inspect: only its side and how many counters it holds."""

    side: Side
    count: int


@dataclass(frozen=True)
class Highlight:
    """A hex outlined in a colour (a unit's move, a target, the hex a prompt is about)."""

    hex: Hex
    color: str = "#ffc800"


@dataclass(frozen=True)
class MapMark:
    """A marker on the map that is not on a counter: Breakthrough, Roadblock, Stosser, Nuts!, Air Supply."""

    kind: str
    hex: Hex
    side: Side | None = None


# --- What just happened --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Arrow:
    """A line along hex centres with a head at the last hex: a move, a retreat or an advance."""

    path: tuple[Hex, ...]
    side: Side | None = None
    label: str = ""
    """Text at the arrow's head (the unit's name), empty for none."""


@dataclass(frozen=True)
class AttackMark:
    """An attack: arrows from the attackers' hexes to the target, with the result ("1/2") and a breakthrough."""

    target: Hex
    sources: tuple[Hex, ...]
    result: str = ""
    side: Side | None = None
    breakthrough: bool = False
    earlier: bool = False
    """An earlier combat shown for history (``/map overlay:combats``): drawn muted; the latest stays red."""


@dataclass(frozen=True)
class Happenings:
    """What the last activation did, as drawn over the counters."""

    moves: tuple[Arrow, ...] = ()
    attacks: tuple[AttackMark, ...] = ()
    retreats: tuple[Arrow, ...] = ()
    advances: tuple[Arrow, ...] = ()
    eliminated: tuple[tuple[Hex, str], ...] = ()
    """Each eliminated unit's last hex and name."""

    def __bool__(self) -> bool:
        return bool(self.moves or self.attacks or self.retreats or self.advances or self.eliminated)


# --- Overlays ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reachable:
    """Hexes a unit may reach, each labelled with its cost (``"3"`` MP, ``"2+1AP"``), and where it stands."""

    costs: Mapping[Hex, str]
    origin: Hex | None = None


@dataclass(frozen=True)
class ZocOverlay:
    """Hexes under a side's zone of control, hatched in that side's colour."""

    hexes: frozenset[Hex]
    side: Side


@dataclass(frozen=True)
class CommandOverlay:
    """Each HQ's hex with the hexes within its command range."""

    ranges: Mapping[Hex, frozenset[Hex]]
    side: Side


@dataclass(frozen=True)
class SupplyOverlay:
    """Lines of supply drawn from a source hex (an HQ) to a unit's hex; ``cut``: units without supply."""

    lines: tuple[tuple[Hex, Hex], ...]
    side: Side
    cut: frozenset[Hex] = frozenset()


@dataclass(frozen=True)
class VictoryOverlay:
    """Victory hexes, ringed in gold with their names."""

    hexes: frozenset[Hex]


@dataclass(frozen=True)
class FrontLine:
    """A front line (Alsace 1944 19.2: strongpoints go within 5 hexes of it at set-up), drawn through the centres
    of its hexes in order."""

    hexes: tuple[Hex, ...]


FRONT_LINE_REGION = "front line"
"""The map region that holds a game's front line, hex by hex in order (Alsace 1944's map data)."""


Overlay = Reachable | ZocOverlay | CommandOverlay | SupplyOverlay | VictoryOverlay | FrontLine


def front_line(game_map: GameMap) -> FrontLine | None:
    """The map's front line, if its data has one."""
    hexes = game_map.regions.get(FRONT_LINE_REGION, ())
    return FrontLine(tuple(hexes)) if hexes else None


# --- The margin --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnBox:
    number: int
    date: str
    weather: str


@dataclass(frozen=True)
class PoolLine:
    """One army's support pool (1.6) as its owner's side sees it."""

    side: Side
    army: str
    markers: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class GameStatus:
    """The game's state in the margin: turn track, weather, phase, pools, events left, air missions."""

    turns: tuple[TurnBox, ...]
    turn: int
    weather: str
    phase: str = ""
    active: Side | None = None
    pools: tuple[PoolLine, ...] = ()
    events_left: tuple[tuple[Side, str, int], ...] = ()
    """Each event marker still to play: its side, name and how many are left."""
    air_missions: tuple[tuple[Side, int], ...] = ()


@dataclass(frozen=True, eq=False)
class MapPicture:
    """Everything one image shows: the map, the counters a seat may see, and a title."""

    game_map: GameMap
    counters: Mapping[Hex, tuple[CounterFace, ...]] = field(default_factory=dict)
    """The counters in each hex, in stack order, top first."""
    hidden: Mapping[Hex, HiddenStack] = field(default_factory=dict)
    """Stacks under fog of war: drawn as blank counters with a count. When the hex also has counters (the
    visible top of an enemy stack, 11), ``count`` is the whole stack and the blanks go under them."""
    title: str = ""
    """The caption above the map; the map's name when empty."""
    highlights: tuple[Highlight, ...] = ()
    map_marks: tuple[MapMark, ...] = ()
    happened: Happenings = field(default_factory=Happenings)
    """The last activation's moves, attacks, retreats, advances and eliminations."""
    overlays: tuple[Overlay, ...] = ()
    status: GameStatus | None = None
    """Turn track, pools and events in a side margin (full-map snapshots), when given."""

    @property
    def caption(self) -> str:
        return self.title or self.game_map.name


def counter_face(
    data: GameData,
    unit_id: str,
    *,
    steps: int | None = None,
    markers: Iterable[str] = (),
    activated: bool = False,
) -> CounterFace:
    """The face of a unit with ``steps`` left (full strength by default) and the given markers.

    :raises KeyError: if the unit is not in the game.
    """
    unit = data.units[unit_id]
    formation = data.formations[unit.formation]
    left = unit.steps if steps is None else steps
    stacking = data.tables.raw.get("stacking", {})
    step_strength = int(stacking.get("step_strength", DEFAULT_STEP_STRENGTH))
    return CounterFace(
        label=unit.name,
        side=data.side_of(unit_id),
        nationality=data.nationality_of(unit_id),
        kind=unit.kind,
        size=unit.size,
        bar_color=formation.color,
        strength=max(0, unit.strength - step_strength * (unit.steps - left)),
        steps=left,
        max_steps=unit.steps,
        quality=unit.quality,
        support=unit.support,
        c3i=unit.c3i,
        activated=activated,
        markers=tuple(markers),
    )


def setup_picture(data: GameData, title: str | None = None) -> MapPicture:
    """The picture of the initial set-up: every placed unit at full strength, improved positions marked, and
    the front line where the game has one (Alsace 1944 19.2)."""
    stacks: dict[Hex, list[CounterFace]] = {}
    for placement in data.setup:
        markers = ("improved-position",) if placement.improved_position else ()
        stacks.setdefault(placement.hex, []).append(counter_face(data, placement.unit, markers=markers))
    line = front_line(data.map)
    return MapPicture(
        game_map=data.map,
        counters={hex_: tuple(faces) for hex_, faces in stacks.items()},
        title=title if title is not None else f"{data.name}: initial set-up",
        overlays=(line,) if line is not None else (),
    )
