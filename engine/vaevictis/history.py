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
from typing import Any

from engine.hexgrid import Hex, parse_hex
from engine.vaevictis.data import SIDES, GameData, Side

Events = Sequence[Mapping[str, Any]]

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
    sides: dict[Side, SideStats] = {side: SideStats() for side in SIDES}
    steps_left = {u: d.steps for u, d in data.units.items()}
    engaged: set[str] = set()
    every_die: list[int] = []
    turn = 1
    turns = {1}

    def known(unit: str) -> bool:
        return not fog or data.side_of(unit) == seat or unit in engaged

    def lose(unit: str, steps: int) -> None:
        if unit in data.units and steps > 0 and known(unit):
            figures = sides[data.side_of(unit)].steps_lost
            figures[turn] = figures.get(turn, 0) + steps

    def eliminate(unit: str) -> None:
        lose(unit, steps_left.get(unit, 0))
        steps_left[unit] = 0
        if unit in data.units and known(unit):
            sides[data.side_of(unit)].eliminated.setdefault(turn, []).append(data.units[unit].name)

    for events in log:
        for event in events:
            kind = event.get("kind")
            info = event.get("data", {})
            if kind == "turn":
                turn = int(info.get("turn", turn))
                turns.add(turn)
            if kind in ("turn", "activation", "end-activation", "pass"):
                engaged = set()
            if kind == "roll":
                every_die += [int(d) for d in info.get("dice", [info.get("die")]) if isinstance(d, int)]
            elif kind == "combat":
                engaged = {str(u) for u in (*info.get("attackers", []), *info.get("defenders", []))}
                attackers = [str(u) for u in info.get("attackers", []) if str(u) in data.units]
                if attackers:
                    figures = sides[data.side_of(attackers[0])]
                    figures.attacks.setdefault(str(info.get("column", "?")), []).append(str(info.get("result", "")))
                    figures.combat_dice.append(int(info.get("die", 0)))
            elif kind == "attack":
                plan = info.get("plan", {})
                if plan.get("side") in sides:
                    spent = sides[plan["side"]].supports_spent
                    for _hq, support in plan.get("supports", []):
                        spent[str(support)] = spent.get(str(support), 0) + 1
                    if plan.get("air"):
                        spent["air"] = spent.get("air", 0) + int(plan["air"])
            elif kind == "support" and info.get("side") in sides and "kept" not in info:
                spent = sides[info["side"]].supports_spent  # the defender adds a support (7.5)
                spent[str(info.get("kind"))] = spent.get(str(info.get("kind")), 0) + 1
            elif kind == "support" and info.get("kept") is False and str(info.get("hq")) in data.units:
                lost = sides[data.side_of(str(info["hq"]))].supports_lost
                lost[str(info.get("kind"))] = lost.get(str(info.get("kind")), 0) + 1
            elif kind == "loss" and info.get("given_up") and str(info.get("hq")) in data.units:
                lost = sides[data.side_of(str(info["hq"]))].supports_lost  # an armor marker taken as a loss
                lost[str(info.get("marker"))] = lost.get(str(info.get("marker")), 0) + 1
            elif kind == "loss":
                unit = str(info.get("unit", ""))
                if unit in steps_left:
                    left = int(info.get("steps", 0))
                    lose(unit, steps_left[unit] - left)
                    steps_left[unit] = left
            elif kind == "eliminated":
                unit = str(info.get("unit", ""))
                if unit in steps_left and steps_left[unit] > 0:
                    eliminate(unit)
                elif unit in data.units and known(unit):
                    sides[data.side_of(unit)].eliminated.setdefault(turn, []).append(data.units[unit].name)
            elif kind == "eliminate":
                for unit in info.get("units", []):
                    if str(unit) in steps_left:
                        eliminate(str(unit))
            elif kind == "detach":
                division, detachment = str(info.get("division", "")), str(info.get("detachment", ""))
                steps_left[detachment] = int(info.get("steps", 0))
                steps_left[division] = int(info.get("division_steps", steps_left.get(division, 0)))
            elif kind == "recombine":
                division = str(info.get("division", ""))
                steps_left[division] = steps_left.get(division, 0) + int(info.get("steps", 0))
                steps_left[str(info.get("detachment", ""))] = 0
    return Statistics(
        turns=tuple(sorted(turns)),
        sides=sides,
        all_dice=luck(every_die),
        combat_dice={side: luck(sides[side].combat_dice) for side in SIDES},
        hidden_losses=fog,
    )
