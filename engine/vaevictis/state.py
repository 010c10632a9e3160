"""The state of a Vae Victis game in progress: counters on the map, markers, pools, the turn.

Everything here is plain data that round-trips through JSON (:meth:`GameState.to_json`,
:meth:`GameState.from_json`), so the store can snapshot it and a replay can compare it. Rules live in the
modules named after the rule chapters; this module only says what a position *is*, plus the few derived
facts (strength, action points, stacking) that every chapter asks for.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from engine.hexgrid import Hex
from engine.vaevictis.data import GameData, Side, UnitDef

Phase = str
"""One of ``air``, ``supply``, ``support``, ``initiative``, ``operations``, ``administrative``, ``over``."""


@dataclass
class UnitState:
    """What changes about one counter during a game."""

    id: str
    hex: Hex | None = None
    """Where the counter stands; ``None`` while it waits to arrive or once it is gone."""
    steps: int = 0
    """Steps left; 0 once eliminated."""
    arrived: bool = False
    """Whether the unit has entered the map (set up or arrived as a reinforcement)."""
    eliminated: bool = False
    improved_position: bool = False
    fatigued: bool = False
    out_of_command: bool = False
    isolated: bool = False
    unsupplied: bool = False
    activations: int = 0
    """How many times the unit has been activated this turn (3.1, 3.5)."""
    action_points: int = 0
    """APs left in the current activation (3.4.1)."""
    movement_points: float = 0.0
    """MPs left over from the unit's last move action, usable by a consecutive move action (6.1)."""
    must_attack: bool = False
    """It entered an enemy ZoC by movement and must attack before its activation ends (4.2)."""
    retreated_into_stack: bool = False
    """It retreated into a hex holding a friendly unit this turn, and so defends at half (7.7.1)."""
    cannot_move: bool = False
    """Forbidden to move this turn (17.1: US units that start adjacent to a German unit, turn 1)."""
    supports: list[str] = field(default_factory=list)
    """HQ only: the support markers allotted to it this turn, by kind (1.6)."""
    parent: str | None = None
    """Detachments only: the division they were detached from (18)."""

    @property
    def on_map(self) -> bool:
        return self.hex is not None and not self.eliminated

    def clone(self) -> UnitState:
        """An independent copy (the only mutable field is the list of supports)."""
        twin = object.__new__(UnitState)
        fields_ = self.__dict__.copy()
        fields_["supports"] = self.supports.copy()
        twin.__dict__ = fields_
        return twin


@dataclass
class MapMarker:
    """A marker on the map that is not a unit: Roadblock, Stosser, Nuts!, Breakthrough, Air Supply."""

    kind: str
    hex: Hex
    side: Side
    turn_placed: int


@dataclass
class Activation:
    """The activation sequence in progress (3)."""

    side: Side
    kind: str
    """``formation`` (3.2) or ``general`` (3.3)."""
    formation: str | None
    """The formation activated, for a formation activation."""
    units: list[str] = field(default_factory=list)
    """The units activated in this sequence, in order."""
    limit: int = 0
    """For a general activation: how many units it may activate (9.2, 9.3)."""


_ATOMS = (str, int, float, bool, type(None))
_ATOM_SET = frozenset(_ATOMS)


def plain_copy(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, tuples, sets of plain values), much cheaper than
    ``copy.deepcopy``, which keeps a memo per element: the flags hold long lists of hexes (control, 18)."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is dict:
        return {k: plain_copy(v) for k, v in value.items()}
    if kind is list:
        if _ATOM_SET.issuperset(map(type, value)):  # the types read in C: the flags hold long lists of hexes
            return value.copy()
        return [plain_copy(v) for v in value]
    if kind is tuple:
        return tuple(plain_copy(v) for v in value)
    if kind is set:
        return set(value)
    return copy.deepcopy(value)


@dataclass
class GameState:
    """A whole game at one moment."""

    game: str
    """The id of the game's data (``ardennes44``)."""
    scenario: str
    options: dict[str, bool]
    seed: str
    """The secret seed, hex-encoded; never shown in a view before the game ends."""
    rolls_made: int = 0
    turn: int = 1
    phase: Phase = "air"
    initiative: Side | None = None
    active: Side | None = None
    """The side whose activation sequence it is, in the operations phase."""
    units: dict[str, UnitState] = field(default_factory=dict)
    pools: dict[str, dict[str, int]] = field(default_factory=dict)
    """Support markers available to each army (1.6)."""
    returning: dict[str, dict[str, int]] = field(default_factory=dict)
    """Markers back in each army's pool from the next turn on (1.6.1, official answer to 9.5)."""
    air_missions: dict[str, int] = field(default_factory=dict)
    """Air supports left this turn per side (14)."""
    events_left: dict[str, int] = field(default_factory=dict)
    markers: list[MapMarker] = field(default_factory=list)
    activation: Activation | None = None
    consecutive_passes: int = 0
    sequences_this_turn: int = 0
    detachments_used: dict[str, int] = field(default_factory=dict)
    pending: list[dict[str, Any]] = field(default_factory=list)
    """Stack of sub-procedures awaiting a decision (combat results, retreats, advances)."""
    standing_orders: dict[str, list[str]] = field(default_factory=dict)
    """Each side's standing orders, in priority order: answers given in advance to combat prompts."""
    stack_tops: list[str] = field(default_factory=list)
    """The units their owners put on top of a stack (11.2), the latest first: the order travels with the
    units, so a stack that moves keeps the top its owner chose."""
    meuse_crossed: bool = False
    """A German unit has crossed the Meuse: the British restriction of 16.2 is lifted for good."""
    arrivals: dict[str, int] = field(default_factory=dict)
    """Reinforcements whose arrival was put back (16.1 Southern Front): unit id → new turn."""
    hq_destroyed: dict[str, int] = field(default_factory=dict)
    """HQs destroyed, with the turn it happened; they return in a later supply phase (1.3)."""
    flags: dict[str, Any] = field(default_factory=dict)
    """Per-turn facts a rule remembers (e.g. which German armies activated on turn 1)."""
    result: dict[str, Any] | None = None

    # --- Serialisation ---------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The state as plain JSON data."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        """Rebuild a state from :meth:`to_json`'s output."""
        raw = copy.deepcopy(data)
        raw["units"] = {k: UnitState(**v) for k, v in raw["units"].items()}
        raw["markers"] = [MapMarker(**m) for m in raw["markers"]]
        if raw.get("activation") is not None:
            raw["activation"] = Activation(**raw["activation"])
        if isinstance(raw.get("stack_tops"), dict):  # written when the tops were kept by hex
            raw["stack_tops"] = list(raw["stack_tops"].values())
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in raw.items() if k in known})

    def copy(self) -> GameState:
        """An independent copy: actions never mutate the state they were given.

        Written out field by field because a generic deep copy dominated the cost of applying an action;
        ``tests/vaevictis/test_state.py`` checks that no mutable container is shared.
        """
        twin = copy.copy(self)
        twin.options = dict(self.options)
        twin.units = units = {}
        new = object.__new__
        for unit_id, unit in self.units.items():  # UnitState.clone, inlined: a state holds hundreds of units
            clone = new(UnitState)
            fields_ = unit.__dict__.copy()
            fields_["supports"] = unit.supports.copy()
            clone.__dict__ = fields_
            units[unit_id] = clone
        twin.pools = {army: dict(pool) for army, pool in self.pools.items()}
        twin.returning = {army: dict(pool) for army, pool in self.returning.items()}
        twin.air_missions = dict(self.air_missions)
        twin.events_left = dict(self.events_left)
        twin.markers = [MapMarker(m.kind, m.hex, m.side, m.turn_placed) for m in self.markers]
        if self.activation is not None:
            twin.activation = Activation(
                self.activation.side,
                self.activation.kind,
                self.activation.formation,
                list(self.activation.units),
                self.activation.limit,
            )
        twin.detachments_used = dict(self.detachments_used)
        twin.pending = plain_copy(self.pending)
        twin.arrivals = dict(self.arrivals)
        twin.stack_tops = list(self.stack_tops)
        twin.standing_orders = {side: list(orders) for side, orders in self.standing_orders.items()}
        twin.hq_destroyed = dict(self.hq_destroyed)
        twin.flags = plain_copy(self.flags)
        twin.result = plain_copy(self.result)
        return twin

    # --- Where things are ------------------------------------------------------------------------------

    def units_at(self, hex_: Hex) -> list[UnitState]:
        """The units in a hex, in the order they were placed."""
        return [u for u in self.units.values() if u.hex == hex_ and not u.eliminated]

    def on_map(self) -> Iterator[UnitState]:
        """Every unit on the map."""
        return (u for u in self.units.values() if u.on_map)

    def markers_at(self, hex_: Hex, kind: str | None = None) -> list[MapMarker]:
        """The map markers in a hex, optionally of one kind."""
        return [m for m in self.markers if m.hex == hex_ and (kind is None or m.kind == kind)]


class Position:
    """A state read together with the game's data: the questions every rule chapter asks.

    It is a thin, read-only view; rules that change the state take the :class:`GameState` itself.
    """

    def __init__(self, data: GameData, state: GameState) -> None:
        self.data = data
        self.state = state
        self._occupant: dict[Hex, list[UnitState]] | None = None
        self.memo: dict[tuple[Any, ...], Any] = {}
        """Facts a rules module computed once for this position (cleared by :meth:`invalidate`)."""

    @property
    def occupants(self) -> dict[Hex, list[UnitState]]:
        """Units per occupied hex (computed once per Position)."""
        if self._occupant is None:
            table: dict[Hex, list[UnitState]] = {}
            for unit in self.state.units.values():  # GameState.on_map, inlined: every Position asks
                if unit.hex is not None and not unit.eliminated:
                    table.setdefault(unit.hex, []).append(unit)
            self._occupant = table
        return self._occupant

    def invalidate(self) -> None:
        """Forget cached facts after the state changed."""
        self._occupant = None
        self.memo.clear()

    def unit_def(self, unit_id: str) -> UnitDef:
        return self.data.units[unit_id]

    def side_of(self, unit_id: str) -> Side:
        return self.data.side_of(unit_id)

    def units_at(self, hex_: Hex) -> list[UnitState]:
        return self.occupants.get(hex_, [])

    def side_at(self, hex_: Hex) -> Side | None:
        """The side whose units hold a hex, if any."""
        units = self.units_at(hex_)
        return self.side_of(units[0].id) if units else None

    def steps_at(self, hex_: Hex) -> int:
        """Stacking weight of a hex: steps actually left, an HQ counting one (5)."""
        return sum(u.steps for u in self.units_at(hex_))

    def strength(self, unit: UnitState) -> int:
        """Current combat strength before any halving: the back's printed value once reduced, when the counter
        has one (Alsace 1944 1.2), else full strength less 3 points per step lost (Ardennes 1944 1.2)."""
        definition = self.unit_def(unit.id)
        if definition.reduced_strength is not None:
            return definition.strength if unit.steps >= definition.steps else definition.reduced_strength
        if unit.parent is not None:
            template = self.data.detachments[self.data.nationality_of(unit.id)]
            return template.strength_per_step * unit.steps
        if unit.steps >= definition.steps:
            return definition.strength
        step_strength = int(self.data.tables.raw["stacking"]["step_strength"])
        return max(0, definition.strength - step_strength * (definition.steps - unit.steps))

    def base_action_points(self, unit: UnitState) -> int:
        """The APs a unit starts an activation with, from its class and status (1.1, 1.4)."""
        kind = self.unit_def(unit.id).kind
        status = self.data.tables.raw["status"]
        if unit.unsupplied:
            points = int(status["unsupplied"]["action_points"][kind])
        elif unit.isolated:
            points = int(status["isolated"]["action_points"][kind])
        else:
            points = int(status["normal"]["action_points"][kind])
        if unit.fatigued:
            points += int(status["fatigued"]["action_point_change"])
        return max(0, points)
