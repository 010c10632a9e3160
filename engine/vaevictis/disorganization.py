"""[3.6] Disorganisation: a unit that retreats after combat is halved in attack and defence until the end of the
turn (Alsace 1944; the game's ``[retreat] disorganizes``).

The units disorganised this turn are kept in ``state.flags["disorganized"]`` (a per-turn fact: the flags are
reset when a turn starts, and the administrative phase takes the markers off, 2.1 step 5). A game whose
retreats never disorganise never writes the key, so its states stay as they were.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.contract import Event
from engine.vaevictis.data import GameData
from engine.vaevictis.state import GameState

FLAG = "disorganized"


def is_disorganized(state: GameState, unit_id: str) -> bool:
    """Whether the unit carries a Disorganised marker (3.6)."""
    return unit_id in state.flags.get(FLAG, ())


def disorganize(data: GameData, state: GameState, unit_ids: Iterable[str]) -> list[Event]:
    """[3.6, 7.7.1] Mark the units that retreated (attacker or defender) as Disorganised."""
    marked: list[str] = state.flags.setdefault(FLAG, [])
    new = [u for u in unit_ids if u not in marked and state.units[u].on_map]
    if not new:
        return []
    marked.extend(new)
    names = ", ".join(data.units[u].name for u in new)
    return [
        Event(
            "disorganized",
            f"{names} retreated: Disorganised, halved in attack and defence until the end of the turn (3.6)",
            {"units": new, "rule": "3.6"},
        )
    ]


def clear(state: GameState) -> None:
    """[2.1 step 5] The administrative phase takes the Disorganised markers off."""
    state.flags.pop(FLAG, None)
