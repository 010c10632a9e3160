"""[18] Hex control (Alsace 1944): a hex is controlled by a side while no enemy unit has passed through it.

18 and 19.2 bring some German reinforcements in at "a German-controlled road hex on the north map edge" or
"a German-controlled hex north or north-east of Mulhouse"; 15.2 defines control as a hex "through which no
French unit has passed". Umpire records, for the whole game, every hex a side's units have entered by a move
(the whole path) or stood in after any action (so retreats and advances count where they end). The record
is kept only in a game whose data asks for control (a reinforcement marked ``controlled = true``, or an event
with one of the ``CONTROL_EFFECTS``), in ``state.flags["passed"]``, which outlives the turn. It starts with the
regions the set-up names as each side's from the start (:func:`start`).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.hexgrid import Hex
from engine.vaevictis.data import SIDES, GameData, Side
from engine.vaevictis.state import GameState

PASSED = "passed"


CONTROL_EFFECTS = ("blocks-hex-in-town",)
"""Event effects played only where no enemy unit has passed (15.2 Alarm Battalion, :mod:`stratagems`)."""


def tracked(data: GameData) -> bool:
    """Whether the game's data asks for hex control (read once per game's data: every action asks)."""
    found = data.derived.get(PASSED)
    if found is None:
        found = data.derived[PASSED] = any(r.controlled for r in data.reinforcements) or bool(
            data.events_with_effect(*CONTROL_EFFECTS)
        )
    return bool(found)


def start(data: GameData, state: GameState) -> None:
    """Record, before the first move, the hexes the data count as passed through from the set-up: the
    setup's ``[control] held_from_start`` names a map region per side (Alsace 1944: the French side of the
    front line, where the French army stands when the game begins, is not under German control, 15.2)."""
    if not tracked(data):
        return
    for side, region in dict(data.extra.get("control", {}).get("held_from_start", {})).items():
        note_passage(data, state, side, data.map.regions.get(str(region), ()))


def passed_by(state: GameState, side: Side) -> frozenset[Hex]:
    """The hexes the side's units have passed through in this game."""
    return frozenset(state.flags.get(PASSED, {}).get(side, ()))


def note_passage(data: GameData, state: GameState, side: Side, hexes: Iterable[Hex]) -> None:
    """Record that the side's units passed through the hexes."""
    if not tracked(data):
        return
    record = state.flags.setdefault(PASSED, {s: [] for s in SIDES})
    new = set(hexes).difference(record[side])
    if new:
        record[side] += sorted(new)


def note_positions(data: GameData, state: GameState) -> None:
    """Record the hex of every unit on the map (after retreats and advances)."""
    if not tracked(data):
        return
    units = state.units
    for side, ids in _units_by_side(data).items():
        # Every action asks: each side's units are read by id, with no question of their side per unit.
        hexes = {u.hex for u in map(units.get, ids) if u is not None and u.hex and not u.eliminated}
        note_passage(data, state, side, hexes)


def _units_by_side(data: GameData) -> dict[Side, tuple[str, ...]]:
    """The ids of each side's units (detachments included), read once per game's data."""
    found: dict[Side, tuple[str, ...]] | None = data.derived.get("units_by_side")
    if found is None:
        found = data.derived["units_by_side"] = {
            side: tuple(u for u in data.units if data.side_of(u) == side) for side in SIDES
        }
    return found


def controls(state: GameState, side: Side, enemy: Side, hex_: Hex) -> bool:
    """Whether ``side`` controls the hex: no unit of ``enemy`` has passed through it."""
    return hex_ not in passed_by(state, enemy)
