"""The game's history read from its log: the combats fought, and the statistics of the game so far.

The log is the list of the events each action announced (``{"kind", "text", "data"}`` as stored), in order.
Nothing here replays the rules: the events already carry what happened (a ``combat`` its targets, odds
column, die and result; a ``loss`` the steps left; a ``roll`` its die). The turn an event belongs to is
counted from the ``turn`` events that open each turn.

Under fog of war (11) a seat is told of the other side's losses only where they were inflicted in a combat
(the units engaged in a combat are revealed to both sides, 11.1); a combat itself (hex, side, column, die,
result) is public, as the die and the result were announced to both players.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine.hexgrid import Hex, parse_hex
from engine.vaevictis.data import SIDES, GameData, Side

Events = Sequence[Mapping[str, Any]]
K = TypeVar("K")

DIE_MEAN = 3.5
DIE_VARIANCE = 35 / 12
"""Mean and variance of one fair d6."""


@dataclass(frozen=True)
class Combat:
    """[7.5] One combat as the log tells it."""

    turn: int
    side: Side
    """The attacking side."""
    targets: tuple[Hex, ...]
    column: str
    die: int
    drm: int
    result: str
    breakthrough: bool
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    index: int
    """Its place in the game's combats, from 0."""


def _hex(value: Any) -> Hex | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    try:
        return parse_hex(str(value))
    except ValueError:
        return None


def combats(data: GameData, log: Sequence[Events]) -> list[Combat]:
    """[7.5] Every combat resolved so far, in order."""
    found: list[Combat] = []
    turn = 1
    for events in log:
        for event in events:
            kind = event.get("kind")
            info = event.get("data", {})
            if kind == "turn":
                turn = int(info.get("turn", turn))
            if kind != "combat":
                continue
            attackers = tuple(str(u) for u in info.get("attackers", []))
            side: Side = data.side_of(attackers[0]) if attackers and attackers[0] in data.units else "german"
            targets = tuple(h for h in (_hex(t) for t in info.get("targets") or [info.get("target")]) if h)
            found.append(
                Combat(
                    turn=turn,
                    side=side,
                    targets=targets,
                    column=str(info.get("column", "")),
                    die=int(info.get("die", 0)),
                    drm=int(info.get("drm", 0)),
                    result=str(info.get("result", "")),
                    breakthrough=bool(info.get("breakthrough", False)),
                    attackers=attackers,
                    defenders=tuple(str(u) for u in info.get("defenders", [])),
                    index=len(found),
                )
            )
    return found


def combats_at(data: GameData, log: Sequence[Events], hex_: Hex) -> list[Combat]:
    """The combats fought for one hex."""
    return [c for c in combats(data, log) if hex_ in c.targets]


# --- Statistics ----------------------------------------------------------------------------------------------


@dataclass
class SideStats:
    """One side's figures."""

    steps_lost: dict[int, int] = field(default_factory=dict)
    """Per turn."""
    eliminated: dict[int, list[str]] = field(default_factory=dict)
    """Per turn: unit names."""
    attacks: dict[str, list[str]] = field(default_factory=dict)
    """Per odds column: the results of the side's attacks there."""
    supports_spent: dict[str, int] = field(default_factory=dict)
    """Per kind: markers committed in combat (attack and defence)."""
    supports_lost: dict[str, int] = field(default_factory=dict)
    """Per kind: markers removed from the game after use (1.6.1)."""
    combat_dice: list[int] = field(default_factory=list)
    """The combat dice of the side's attacks (unmodified)."""


@dataclass(frozen=True)
class Luck:
    """Dice against expectation: how many, their mean, and how far the total lies from its expectation, in
    standard deviations (0 is exactly average; beyond 2 happens about once in 20 games)."""

    count: int
    mean: float
    deviations: float


@dataclass(frozen=True)
class Statistics:
    turns: tuple[int, ...]
    sides: Mapping[Side, SideStats]
    all_dice: Luck
    combat_dice: Mapping[Side, Luck]
    hidden_losses: bool
    """Whether the other side's losses outside combat were left out (fog of war, 11)."""


def luck(dice: Iterable[int]) -> Luck:
    """The luck of a set of d6 rolls."""
    faces = list(dice)
    if not faces:
        return Luck(0, 0.0, 0.0)
    total = sum(faces)
    spread = math.sqrt(len(faces) * DIE_VARIANCE)
    return Luck(len(faces), total / len(faces), (total - DIE_MEAN * len(faces)) / spread)


def statistics(data: GameData, log: Sequence[Events], seat: Side | None, fog: bool) -> Statistics:
    """[1.2, 1.6.1, 7.5] Steps lost and units eliminated per side and turn, attacks by odds column with their
    results, supports spent and lost, and dice luck, as ``seat`` may know them.

    With ``fog`` (fog of war, a game still being played) a side's losses outside combat are counted only for
    the seat's own side (none for a spectator).
    """
    tally = _Tally(data, seat, fog, steps_left={u: d.steps for u, d in data.units.items()})
    for events in log:
        for event in events:
            tally.read(event)
    sides = tally.sides
    return Statistics(
        turns=tuple(sorted(tally.turns)),
        sides=sides,
        all_dice=luck(tally.every_die),
        combat_dice={side: luck(sides[side].combat_dice) for side in SIDES},
        hidden_losses=fog,
    )


@dataclass
class _Tally:
    """The figures of :func:`statistics` while the log is read, event by event."""

    data: GameData
    seat: Side | None
    fog: bool
    steps_left: dict[str, int]
    """Each unit's steps as the events have left them."""
    sides: dict[Side, SideStats] = field(default_factory=lambda: {side: SideStats() for side in SIDES})
    engaged: set[str] = field(default_factory=set)
    """The units of the last combat of the current activation, whose losses every seat knows (11)."""
    every_die: list[int] = field(default_factory=list)
    turn: int = 1
    turns: set[int] = field(default_factory=lambda: {1})

    def read(self, event: Mapping[str, Any]) -> None:
        """Count one event."""
        data, sides = self.data, self.sides
        kind = event.get("kind")
        info = event.get("data", {})
        if kind == "turn":
            self.turn = int(info.get("turn", self.turn))
            self.turns.add(self.turn)
        if kind in ("turn", "activation", "end-activation", "pass"):
            self.engaged = set()
        if kind == "roll":
            self.every_die += [int(d) for d in info.get("dice", [info.get("die")]) if isinstance(d, int)]
        elif kind == "combat":
            self._combat(info)
        elif kind == "attack":
            self._attack(info.get("plan", {}))
        elif kind == "support" and info.get("side") in sides and "kept" not in info:
            _add(sides[info["side"]].supports_spent, str(info.get("kind")), 1)  # the defender adds a support (7.5)
        elif kind == "support" and info.get("kept") is False and str(info.get("hq")) in data.units:
            _add(sides[data.side_of(str(info["hq"]))].supports_lost, str(info.get("kind")), 1)
        elif kind == "loss" and info.get("given_up") and str(info.get("hq")) in data.units:
            # An armor marker taken as a loss (1.6.1).
            _add(sides[data.side_of(str(info["hq"]))].supports_lost, str(info.get("marker")), 1)
        elif kind == "loss":
            unit = str(info.get("unit", ""))
            if unit in self.steps_left:
                left = int(info.get("steps", 0))
                self._lose(unit, self.steps_left[unit] - left)
                self.steps_left[unit] = left
        elif kind == "eliminated":
            self._eliminated(str(info.get("unit", "")))
        elif kind == "eliminate":
            for unit in info.get("units", []):
                if str(unit) in self.steps_left:
                    self._eliminate(str(unit))
        elif kind in ("detach", "recombine"):
            self._detachment(kind, info)

    def _known(self, unit: str) -> bool:
        return not self.fog or self.data.side_of(unit) == self.seat or unit in self.engaged

    def _lose(self, unit: str, steps: int) -> None:
        if unit in self.data.units and steps > 0 and self._known(unit):
            _add(self.sides[self.data.side_of(unit)].steps_lost, self.turn, steps)

    def _eliminate(self, unit: str) -> None:
        self._lose(unit, self.steps_left.get(unit, 0))
        self.steps_left[unit] = 0
        self._record_eliminated(unit)

    def _record_eliminated(self, unit: str) -> None:
        if unit in self.data.units and self._known(unit):
            self.sides[self.data.side_of(unit)].eliminated.setdefault(self.turn, []).append(self.data.units[unit].name)

    def _eliminated(self, unit: str) -> None:
        """A unit eliminated: its steps left are lost, unless the events already took them."""
        if unit in self.steps_left and self.steps_left[unit] > 0:
            self._eliminate(unit)
        else:
            self._record_eliminated(unit)

    def _combat(self, info: Mapping[str, Any]) -> None:
        """[7.5] A combat resolved: its units become known to both seats; the attacker's column, result, die."""
        self.engaged = {str(u) for u in (*info.get("attackers", []), *info.get("defenders", []))}
        attackers = [str(u) for u in info.get("attackers", []) if str(u) in self.data.units]
        if attackers:
            figures = self.sides[self.data.side_of(attackers[0])]
            figures.attacks.setdefault(str(info.get("column", "?")), []).append(str(info.get("result", "")))
            figures.combat_dice.append(int(info.get("die", 0)))

    def _attack(self, plan: Mapping[str, Any]) -> None:
        """[1.6, 14.3] An attack declared: the supports and air supports its plan commits are spent."""
        if plan.get("side") not in self.sides:
            return
        spent = self.sides[plan["side"]].supports_spent
        for _hq, support in plan.get("supports", []):
            _add(spent, str(support), 1)
        if plan.get("air"):
            _add(spent, "air", int(plan["air"]))

    def _detachment(self, kind: str, info: Mapping[str, Any]) -> None:
        """[18] A detachment formed or recombined: the steps move between it and its division."""
        division, detachment = str(info.get("division", "")), str(info.get("detachment", ""))
        if kind == "detach":
            self.steps_left[detachment] = int(info.get("steps", 0))
            self.steps_left[division] = int(info.get("division_steps", self.steps_left.get(division, 0)))
        else:
            self.steps_left[division] = self.steps_left.get(division, 0) + int(info.get("steps", 0))
            self.steps_left[detachment] = 0


def _add(figures: dict[K, int], key: K, amount: int) -> None:
    figures[key] = figures.get(key, 0) + amount
