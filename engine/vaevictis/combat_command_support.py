"""[1.6] A support marker given to a Combat Command rather than to an HQ (Alsace 1944: "each French Combat
Command may receive a Tank Destroyer support marker, even if it is out of command range from its HQ").

Reading (docs/rules/alsace44.md, 1.6): in the support phase a Combat Command (its three counters, 0.4) may be
allotted one marker of a kind whose chart entry says ``combat_command_exception = true``, straight from its
side's pool and outside any HQ's support rating; that marker supports only the Combat Command's own counters,
wherever they stand. A combat names it as a support whose holder is the Combat Command's id (``"cc2"``)
instead of an HQ's. Unused, it goes back to the pool in the administrative phase, like an HQ's markers.

The markers held are kept in ``state.flags["combat_command_supports"]`` ({Combat Command: [kinds]}), a
per-turn fact; a game without Combat Commands never writes it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.contract import Choice, Event, IllegalActionError
from engine.vaevictis.data import Army, GameData, Side
from engine.vaevictis.state import GameState

FLAG = "combat_command_supports"
LIMIT = 1
"""Markers a Combat Command may hold ("a Tank Destroyer support marker")."""


def combat_commands(data: GameData) -> dict[str, tuple[str, ...]]:
    """Each Combat Command's counters, by its id (``combat_command`` in counters.toml)."""
    groups: dict[str, list[str]] = {}
    for unit in data.units.values():
        if unit.combat_command:
            groups.setdefault(unit.combat_command, []).append(unit.id)
    return {cc: tuple(units) for cc, units in groups.items()}


def is_combat_command(data: GameData, holder: str) -> bool:
    """Whether a support's holder names a Combat Command rather than an HQ."""
    return holder not in data.units and holder in combat_commands(data)


def holder_name(data: GameData, holder: str) -> str:
    """The name of a support marker's holder: an HQ's name, or the Combat Command's ("CC2")."""
    if holder in data.units:
        return data.units[holder].name
    return holder.upper()


def holder_army(data: GameData, holder: str) -> Army:
    """The army whose pool a holder's markers come from and go back to."""
    if holder in data.units:
        return data.army_of(holder)
    return data.army_of(combat_commands(data)[holder][0])


def holder_side(data: GameData, holder: str) -> Side:
    return holder_army(data, holder).side


def held(state: GameState, cc: str) -> list[str]:
    """The markers a Combat Command holds this turn."""
    holdings: Mapping[str, list[str]] = state.flags.get(FLAG, {})
    return list(holdings.get(cc, []))


def marker_kinds(data: GameData, side: Side) -> list[str]:
    """The kinds of marker a side may give to a Combat Command (``combat_command_exception``)."""
    out = []
    for name, entry in data.tables.raw["support"].items():
        if entry.get("combat_command_exception") and entry.get("side") in (side, "both"):
            out.append(str(entry.get("key", name)))
    return out


def may_support(data: GameData, state: GameState, cc: str, kind: str, units: Sequence[str]) -> str | None:
    """Why the Combat Command's marker may not support these units, or ``None`` when it may."""
    if kind not in held(state, cc):
        return f"{cc.upper()} holds no {kind.replace('_', ' ')} marker"
    if not any(data.units[u].combat_command == cc for u in units):
        return f"a marker of {cc.upper()} supports only {cc.upper()}'s own counters (1.6)"
    return None


def _present(data: GameData, state: GameState, cc: str) -> bool:
    """A Combat Command is on the map, or arrives this turn (1.6: HQs "arriving as reinforcements")."""
    for unit_id in combat_commands(data)[cc]:
        unit = state.units.get(unit_id)
        if unit is None or unit.eliminated:
            continue
        if unit.on_map:
            return True
        if any(unit_id in r.units and r.turn == state.turn for r in data.reinforcements):
            return True
    return False


def choices(data: GameData, state: GameState, side: Side) -> list[Choice]:
    """[1.6] The markers a side may still give to its Combat Commands this support phase."""
    out: list[Choice] = []
    kinds = marker_kinds(data, side)
    if not kinds:
        return out
    for cc in sorted(combat_commands(data)):
        army = holder_army(data, cc)
        if army.side != side or len(held(state, cc)) >= LIMIT or not _present(data, state, cc):
            continue
        for kind in kinds:
            if state.pools.get(army.id, {}).get(kind, 0) > 0:
                out.append(
                    Choice(
                        "allot_combat_command",
                        {"cc": cc, "marker": kind},
                        f"{kind.replace('_', ' ')} to {cc.upper()} (1.6)",
                    )
                )
    return out


def allot(data: GameData, state: GameState, side: Side, cc: str, kind: str) -> list[Event]:
    """[1.6] Give one marker from the pool to a Combat Command."""
    groups = combat_commands(data)
    if cc not in groups or holder_side(data, cc) != side:
        raise IllegalActionError(f"{cc!r} is not one of your Combat Commands", "1.6")
    if kind not in marker_kinds(data, side):
        raise IllegalActionError(
            f"a Combat Command may receive only {' or '.join(marker_kinds(data, side)) or 'no'} marker(s)", "1.6"
        )
    if len(held(state, cc)) >= LIMIT:
        raise IllegalActionError(f"{cc.upper()} already holds its marker", "1.6")
    if not _present(data, state, cc):
        raise IllegalActionError(f"{cc.upper()} is neither on the map nor arriving this turn", "1.6")
    army = holder_army(data, cc).id
    if state.pools.get(army, {}).get(kind, 0) <= 0:
        raise IllegalActionError(f"the pool has no {kind.replace('_', ' ')} marker left", "1.6")
    state.pools[army][kind] -= 1
    holdings: dict[str, list[str]] = state.flags.setdefault(FLAG, {})
    holdings.setdefault(cc, []).append(kind)
    text = f"{kind.replace('_', ' ').capitalize()} given to {cc.upper()}, out of any HQ's command range (1.6)."
    # The counters are named so that, under fog of war (11), the event stays with those who may see them.
    return [Event("support", text, {"cc": cc, "marker": kind, "units": list(groups[cc])})]


def spend(state: GameState, cc: str, kind: str) -> None:
    """The marker is committed to a combat: the Combat Command no longer holds it."""
    holdings: dict[str, list[str]] = state.flags.get(FLAG, {})
    holdings[cc].remove(kind)


def return_unused(data: GameData, state: GameState) -> None:
    """[2.1 step 5, 1.6] Markers not used this turn go back to the pool."""
    holdings: dict[str, Any] = state.flags.pop(FLAG, {})
    for cc, kinds in holdings.items():
        pool = state.pools.setdefault(holder_army(data, cc).id, {})
        for kind in kinds:
            pool[kind] = pool.get(kind, 0) + 1
