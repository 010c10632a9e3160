"""The data of a Vae Victis game, as loaded from its scenario folder: map, counters, setup, tables.

These are frozen, typed records; the loader (:mod:`engine.vaevictis.loader`) builds them from TOML and
checks every cross-reference, so the rules code can trust them.
"""

from __future__ import annotations

import itertools
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from engine.hexgrid import Grid, Hex, Hexside, hexside

Side = Literal["allied", "german"]
Nationality = Literal["us", "british", "french", "german"]
UnitKind = Literal["infantry", "mechanized", "armored", "hq", "strongpoint", "garrison"]
Terrain = str
"""A base terrain of the map, as the map's letter table names it ("clear", "forest", ...); the game's
Terrain Effects Chart has a ``[terrain.<name>]`` entry for each."""
PlaceKind = Literal["city", "village", "locality"]
Weather = Literal["clear", "overcast"]
RiverKind = Literal["river", "canal", "uncrossable"]
"""A river or canal is crossed at a cost and bridged; an uncrossable river (the Rhine in Alsace 1944) is not."""

SIDES: tuple[Side, Side] = ("german", "allied")


def other_side(side: Side) -> Side:
    """The opposing side."""
    return "allied" if side == "german" else "german"


# --- The map ---------------------------------------------------------------------------------------------


def without_accents(text: str) -> str:
    """``text`` with its accents dropped ("Montbéliard" → "Montbeliard"), for names typed on a keyboard
    without them."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


@dataclass(frozen=True)
class Place:
    """A named place on the map: a city or village (which are terrain) or a locality (a name only)."""

    name: str
    hex: Hex
    """The place's hex, or the first of them for a city that covers several."""
    kind: PlaceKind
    more_hexes: tuple[Hex, ...] = ()
    """The further hexes of a city that covers several (Belfort and Mulhouse in Alsace 1944)."""

    @property
    def hexes(self) -> tuple[Hex, ...]:
        """Every hex of the place."""
        return (self.hex, *self.more_hexes)


@dataclass(frozen=True)
class River:
    """A river or canal, as the hexsides it runs along, with the bridges over it."""

    name: str
    hexsides: frozenset[Hexside]
    bridges: frozenset[Hexside]
    kind: RiverKind = "river"


@dataclass(frozen=True)
class Road:
    """A road, as a chain of adjacent hexes."""

    name: str
    hexes: tuple[Hex, ...]

    @property
    def links(self) -> list[Hexside]:
        """The hexsides the road crosses, one per step."""
        return [hexside(a, b) for a, b in itertools.pairwise(self.hexes)]


@dataclass(frozen=True)
class GameMap:
    """Terrain, water, roads, names and edges of one map."""

    name: str
    grid: Grid
    terrain: Mapping[Hex, Terrain]
    westwall: frozenset[Hex]
    places: tuple[Place, ...]
    rivers: tuple[River, ...]
    roads: tuple[Road, ...]
    friendly_edges: Mapping[Side, frozenset[Hex]]
    """Each side's friendly board edge hexes (10.2)."""
    entry_hexes: Mapping[Side, frozenset[Hex]]
    """Each side's reinforcement entry hexes (16.1), on an edge or, where the rules say so, inside the map."""
    overlays: Mapping[str, frozenset[Hex]] = field(default_factory=dict)
    """Terrain printed over a hex's base terrain, by kind (Westwall, fort, factory), each with its own
    Terrain Effects Chart entry."""
    regions: Mapping[str, tuple[Hex, ...]] = field(default_factory=dict)
    """Named groups of hexes the rules place units in, enter by or score (a front line, a river bank)."""

    @cached_property
    def settlements(self) -> dict[Hex, Place]:
        """The city or village in each hex that has one (every hex of a city that covers several)."""
        return {h: p for p in self.places if p.kind != "locality" for h in p.hexes}

    def overlays_at(self, hex_: Hex) -> tuple[str, ...]:
        """The overlay kinds printed on a hex."""
        return tuple(kind for kind, hexes in self.overlays.items() if hex_ in hexes)

    @cached_property
    def river_at(self) -> dict[Hexside, River]:
        """The river along each river hexside."""
        return {side: river for river in self.rivers for side in river.hexsides}

    @cached_property
    def bridges(self) -> frozenset[Hexside]:
        """Every bridged hexside."""
        return frozenset(side for river in self.rivers for side in river.bridges)

    @cached_property
    def dry_neighbours(self) -> dict[Hex, tuple[Hex, ...]]:
        """Each hex's neighbours not across a river, bridged or not (where a zone of control reaches, 4.1)."""
        return {
            h: tuple(n for n in self.grid.neighbours(h) if hexside(h, n) not in self.river_at) for h in self.grid.hexes
        }

    @cached_property
    def road_links(self) -> frozenset[Hexside]:
        """Every hexside a road crosses."""
        return frozenset(link for road in self.roads for link in road.links)

    @cached_property
    def road_hexes(self) -> frozenset[Hex]:
        """Every hex a road passes through."""
        return frozenset(h for road in self.roads for h in road.hexes)

    def place(self, name: str) -> Place:
        """The place of that name, as the game prints it ("Montbéliard") or typed without its accents
        ("Montbeliard").

        :raises KeyError: if no place has that name.
        """
        for p in self.places:
            if p.name == name:
                return p
        plain = without_accents(name).casefold()
        for p in self.places:
            if without_accents(p.name).casefold() == plain:
                return p
        raise KeyError(name)

    def is_city(self, hex_: Hex) -> bool:
        """Whether the hex holds a city."""
        place = self.settlements.get(hex_)
        return place is not None and place.kind == "city"

    def is_village(self, hex_: Hex) -> bool:
        """Whether the hex holds a village."""
        place = self.settlements.get(hex_)
        return place is not None and place.kind == "village"

    def river_between(self, a: Hex, b: Hex) -> River | None:
        """The river between two adjacent hexes, if any."""
        return self.river_at.get(hexside(a, b))

    def is_bridged(self, a: Hex, b: Hex) -> bool:
        """Whether the hexside between two hexes carries a bridge."""
        return hexside(a, b) in self.bridges

    def has_road(self, a: Hex, b: Hex) -> bool:
        """Whether a road links two adjacent hexes."""
        return hexside(a, b) in self.road_links


# --- The counters ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Army:
    """An army: the owner of a support-marker pool (1.6)."""

    id: str
    name: str
    side: Side
    nationality: Nationality


@dataclass(frozen=True)
class Formation:
    """A formation (a corps): its HQ and the units with its colour bar (1.5)."""

    id: str
    name: str
    army: str
    color: str
    hq: str | None
    independent: bool
    detachments: int
    """Detachment markers available to the formation's divisions (18)."""


@dataclass(frozen=True)
class UnitDef:
    """A counter as printed: what does not change during a game."""

    id: str
    name: str
    long_name: str
    formation: str
    division: str | None
    kind: UnitKind
    size: str
    steps: int
    strength: int
    """Full combat strength; unless ``reduced_strength`` is printed, each step lost costs ``step_strength``
    points (1.2)."""
    quality: int
    reduced_strength: int | None = None
    """The strength printed on the back of a two-step counter (Alsace 1944 1.2), when the game has them."""
    armored_superiority: bool = False
    """The dot (or asterisk) after the strength: a bonus against tanks (Alsace 1944 1.1, 7.4)."""
    combat_command: str | None = None
    """The Combat Command of a French armoured division this counter is one of three of (0.4, 9.2)."""
    support: int = 0
    """HQ support rating (1.3): markers it may receive in the support phase."""
    c3i: str | None = None
    """HQ C3I rating (9.5), A to C."""
    reconstructed: tuple[str, ...] = ()
    """The fields whose values were reconstructed rather than read in the document."""

    @property
    def is_hq(self) -> bool:
        return self.kind == "hq"

    @property
    def is_mechanized(self) -> bool:
        """Armored and mechanized units share the mechanized movement class (6.1) and ZoC/river rules."""
        return self.kind in ("mechanized", "armored")


@dataclass(frozen=True)
class DetachmentTemplate:
    """The size of a nationality's detachment markers (18)."""

    nationality: Nationality
    steps: int
    strength_per_step: int


# --- The setup -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnDef:
    number: int
    date: str
    weather: Weather | None
    """The turn's weather, for games that have weather (Ardennes 1944); None for those that do not."""


@dataclass(frozen=True)
class Placement:
    unit: str
    hex: Hex
    """The set-up hex; for a unit the owner places, the suggested hex used when nobody places it."""
    improved_position: bool
    choices: frozenset[Hex] = frozenset()
    """For a unit its owner places: the hexes allowed (empty for a fixed set-up)."""


@dataclass(frozen=True)
class Reinforcement:
    """Units arriving on a turn, at one entry hex or at the player's choice among several (16.1)."""

    turn: int
    units: tuple[str, ...]
    hexes: tuple[Hex, ...]
    trucks: bool
    action_points: int | None = None
    """A cap on the units' APs on their entry turn ("1 AP remaining"), when the list gives one."""
    controlled: bool = False
    """The entry hexes must be controlled by the side: no enemy unit has passed through them (Alsace 1944
    18, 19.2 "a German-controlled hex")."""
    region: str | None = None
    """The map region the entry hexes are, when the list names one (Alsace 1944 18: "along the west or south
    edge"): reports name it instead of listing its hexes."""


@dataclass(frozen=True)
class SupportGrant:
    """Markers an army's pool starts with (turn 0) or receives on a turn (17)."""

    army: str
    turn: int
    markers: Mapping[str, int]


EVENT_EFFECTS = (
    "blocks-hex-on-roll",
    "blocks-hex",
    "enemy-stack-loses-ap",
    "zoc-infiltration",
    "stack-gains-ap",
    "quality-aura",
    "supply-drop",
    "initiative-combined-activation",
    "initiative-successive-activations",
    "ap-toll-on-road",
    "blocks-armor",
    "blocks-hex-in-town",
    "no-reactivation",
    "cancels-bridge-halving",
    "raid-on-fort",
)
"""The event handlers the engine has (engine/vaevictis/events.py, engine/vaevictis/stratagems.py); a game's
events name theirs."""


@dataclass(frozen=True)
class EventDef:
    """A historical event marker (15)."""

    id: str
    side: Side
    name: str
    count: int
    rule: str
    effect: str = ""
    """The engine's handler for it, one of :data:`EVENT_EFFECTS`; empty for an event the engine cannot play."""
    params: Mapping[str, Any] = field(default_factory=dict)
    """The figures of its effect (e.g. ``hqs = 2``), as the effect's handler documents them."""


VICTORY_KINDS = ("cross-meuse", "hold-cities", "hold-places", "hold-overlay", "reached-region", "exit-units", "all")
"""The kinds of victory condition a game's scenarios may use (docs/scenario-format.md)."""


@dataclass(frozen=True)
class VictoryCondition:
    """One way for a side to win (Ardennes 17, Alsace 19)."""

    kind: str
    """One of :data:`VICTORY_KINDS`."""
    side: Side
    when: Literal["any-time", "end-of-turn", "end"]
    result: str
    supplied: bool = False
    cities: tuple[str, ...] = ()
    count: int = 0
    river: str = ""
    """``cross-meuse``: the river to cross."""
    places: tuple[str, ...] = ()
    """``hold-places``: the named places, ``count`` of which must be held."""
    city_hexes: Literal["any", "all"] = "any"
    """``hold-places``: whether one hex of a multi-hex city holds it, or only all of them."""
    overlay: str = ""
    """``hold-overlay``: the overlay kind whose every hex must be held."""
    region: str = ""
    """``reached-region`` and ``exit-units``: the map region."""
    hq: int = 0
    combat_commands: int = 0
    """``exit-units``: how many HQs and whole Combat Commands of one formation must leave the map."""
    of: tuple[VictoryCondition, ...] = ()
    """``all``: the conditions that must all hold."""


@dataclass(frozen=True)
class ScenarioDef:
    """A scenario of the game (17.1, 17.2)."""

    id: str
    name: str
    rule: str
    turns: int
    victory: tuple[VictoryCondition, ...]
    default_result: str
    special_rules: tuple[str, ...]
    variant: bool = False
    """Whether the scenario uses the game's variant set-up and reinforcements (Alsace 1944 19.4)."""


# --- The tables ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CrtCell:
    """One result of the Combat Results Table: attacker's then defender's."""

    attacker: int | Literal["E"]
    defender: int | Literal["E"]
    breakthrough: bool
    attacker_red: bool
    defender_red: bool

    def __str__(self) -> str:
        def fmt(value: int | str) -> str:
            return "-" if value == 0 else str(value)

        return f"{fmt(self.attacker)}/{fmt(self.defender)}"


@dataclass(frozen=True)
class Tables:
    """The charts of the game (terrain, status, actions, attack types, CRT, C3I, SNAFU, supports)."""

    raw: Mapping[str, Any] = field(repr=False)
    """The parsed TOML, for the chart-by-chart accessors of the rules modules."""
    crt_columns: tuple[str, ...]
    crt: tuple[tuple[CrtCell, ...], ...]
    """``crt[row][column]``; row 0 is a modified roll of 0 or less."""
    c3i: Mapping[str, tuple[bool, ...]]
    """Per rating, whether each die face (index 0 = a roll of 1) calls for the SNAFU table; empty for a game
    without that table."""
    snafu: Mapping[int, str]
    """Effect code per 2d6 total; empty for a game without that table."""


@dataclass(frozen=True)
class RuleNumbers:
    """How the game's rule book numbers its rules (``rule_numbers.toml``; docs/scenario-format.md).

    The shared rules code was written from Ardennes 1944 and cites that book's numbers through
    :meth:`GameData.rule`; a game whose book numbers a rule otherwise says so in ``same_rule``.
    """

    book: frozenset[str] = frozenset()
    """Every rule number the game's book prints, chapters included; empty when the data does not say."""
    same_rule: Mapping[str, str] = field(default_factory=dict)
    """Ardennes 1944's number of a rule -> this book's number of the same rule, where they differ."""


# --- Everything ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameData:
    """One game's complete data, as loaded and validated."""

    id: str
    name: str
    map: GameMap
    armies: Mapping[str, Army]
    formations: Mapping[str, Formation]
    units: Mapping[str, UnitDef]
    detachments: Mapping[Nationality, DetachmentTemplate]
    turns: tuple[TurnDef, ...]
    setup: tuple[Placement, ...]
    reinforcements: tuple[Reinforcement, ...]
    support: tuple[SupportGrant, ...]
    events: Mapping[str, EventDef]
    scenarios: Mapping[str, ScenarioDef]
    tables: Tables
    extra: Mapping[str, Any] = field(default_factory=dict, repr=False)
    """Further setup sections (air, fuel shortage, Christmas presents) as parsed, for the rules modules."""
    rule_numbers: RuleNumbers = field(default_factory=RuleNumbers, repr=False)
    """The numbering of the game's rule book."""

    def rule(self, cited: str) -> str:
        """The number this game's book gives the rule that Ardennes 1944 numbers ``cited``.

        The shared rules code cites through it (``data.rule("16.1")`` is "18.1" in Alsace 1944); a module of
        one game's own rules cites that game's numbers directly.
        """
        return self.rule_numbers.same_rule.get(cited, cited)

    @property
    def has_air_power(self) -> bool:
        """Whether the game has air supports: a ``[support.air]`` row (Ardennes 1944; Alsace 1944 has none, 2.1)."""
        return "air" in self.tables.raw.get("support", {})

    def side_name(self, side: str) -> str:
        """How the game's texts name a side: the setup's ``[side_names]`` (Alsace 1944: the seat ``allied`` is
        "French", as the rules say), else the seat id capitalised ("Allied", "German")."""
        names = self.extra.get("side_names", {})
        return str(names.get(side, side.capitalize()))

    def result_name(self, result: str) -> str:
        """A victory result for a reader: "allied-strategic" is "French strategic" in Alsace 1944 (the stored
        result keeps the seat id, 19)."""
        side, _, rest = result.partition("-")
        if side in SIDES:
            return f"{self.side_name(side)} {rest.replace('-', ' ')}".strip()
        return result.replace("-", " ").capitalize()

    def events_with_effect(self, *effects: str) -> frozenset[str]:
        """The ids of the game's events that have one of these effects."""
        return frozenset(e.id for e in self.events.values() if e.effect in effects)

    def side_of(self, unit_id: str) -> Side:
        """The side a unit fights for."""
        try:
            return self._sides[unit_id]
        except KeyError:  # an unknown id raises the KeyError it always raised
            return self.armies[self.formations[self.units[unit_id].formation].army].side

    @cached_property
    def _sides(self) -> dict[str, Side]:
        """Each unit's side, read once: the rules ask it hundreds of thousands of times a game."""
        return {u: self.armies[self.formations[d.formation].army].side for u, d in self.units.items()}

    @cached_property
    def derived(self) -> dict[str, Any]:
        """Facts a rules module derives from this data and keeps, by the module's own key (a cache, never part
        of a game's state: see :mod:`engine.vaevictis.zoc`)."""
        return {}

    def nationality_of(self, unit_id: str) -> Nationality:
        """The nationality of a unit's army."""
        return self.armies[self.formations[self.units[unit_id].formation].army].nationality

    def army_of(self, unit_id: str) -> Army:
        """The army a unit belongs to."""
        return self.armies[self.formations[self.units[unit_id].formation].army]


def hq_name(name: str) -> str:
    """An HQ's name with "HQ" once (some games print it on the counter, some do not)."""
    return name if name.startswith("HQ") else f"HQ {name}"
