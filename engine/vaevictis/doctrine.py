"""[9] Doctrine: who may join a formation activation besides the formation's own in-command units.

Read from the tables' ``[doctrine.<side>]`` (Alsace 1944; Ardennes 1944 has none of these keys, and there a
formation activation holds only the formation):

- ``formation_extra_independents``: independents within the activated HQ's command range may join its
  activation, ``"all-in-command-range"`` (French, 9.2) or at most a number of them (German, 3: 9.3). The
  range is measured when the unit joins.
- ``attached_combat_commands``: at the start of each turn (Umpire: in the support phase, before any
  activation) the side may attach the counters of that many Combat Commands in all to infantry divisions
  (formations with an HQ and no Combat Command counters). Each counter on the map must trace a line of
  command to that division's HQ then. An attached CC is activated by that HQ, and not by its own, for the
  rest of the turn (9.2). The attachments are per-turn facts (``state.flags["attached"]``).
- ``in_command_through_other_hq``: a unit that cannot trace a line of command to its own HQ at the start of
  the turn but can to another HQ of its side is in command (no C3I check), yet may be activated only in a
  general activation (9.3). Such units are listed in ``state.flags["command_through_other_hq"]``.
"""

from __future__ import annotations

import weakref
from typing import Any

from engine.contract import Event, IllegalActionError
from engine.hexgrid import Hex
from engine.vaevictis.data import GameData, Side
from engine.vaevictis.state import Activation, GameState, Position, UnitState
from engine.vaevictis.supply import SupplyNet

ATTACHED = "attached"
THROUGH_OTHER_HQ = "command_through_other_hq"


_AREAS: dict[int, tuple[weakref.ref[GameData], dict[tuple[str, Hex, frozenset[Hex]], frozenset[Hex]]]] = {}


def command_area(data: GameData, state: GameState, side: Side, hq_id: str) -> frozenset[Hex]:
    """[8.1] The hexes an HQ's lines of command reach now. They depend only on the HQ's hex and the hexes the
    enemy holds, so they are remembered per game data for those (the prompts ask for every independent)."""
    hq = state.units[hq_id]
    if hq.hex is None or not hq.on_map:
        return frozenset()
    enemy = frozenset(u.hex for u in state.on_map() if u.hex is not None and data.side_of(u.id) != side)
    cached = _AREAS.get(id(data))
    if cached is None or cached[0]() is not data:
        cached = (weakref.ref(data), {})
        _AREAS[id(data)] = cached
    areas = cached[1]
    key = (hq_id, hq.hex, enemy)
    if key not in areas:
        if len(areas) > 256:
            areas.clear()
        areas[key] = SupplyNet(Position(data, state), side).command_area(hq_id)
    return areas[key]


def _doctrine(data: GameData, side: Side) -> dict[str, Any]:
    return dict(data.tables.raw["doctrine"][side])


def _rule(side: Side) -> str:
    return "9.2" if side == "allied" else "9.3"


# --- Independents in a formation activation (9.2, 9.3) --------------------------------------------------


def independent_join_problem(
    state: GameState, data: GameData, unit: UnitState, activation: Activation
) -> IllegalActionError | None:
    """Why an independent unit may not join the formation activation in progress, or ``None`` if it may."""
    side = activation.side
    extra = _doctrine(data, side).get("formation_extra_independents")
    name = data.units[unit.id].name
    formation = data.formations[activation.formation or ""]
    if extra is None:
        return IllegalActionError(f"{name} is not in {formation.name}, the formation activated", "3.2")
    assert formation.hq is not None
    if unit.hex is None or unit.hex not in command_area(data, state, side, formation.hq):
        return IllegalActionError(
            f"{name} is an independent out of the command range of {data.units[formation.hq].name}: "
            "only independents within it may join the formation's activation",
            _rule(side),
        )
    if extra != "all-in-command-range":
        joined = [u for u in activation.units if data.formations[data.units[u].formation].independent]
        if len(joined) >= int(extra):
            return IllegalActionError(
                f"this formation activation already has its {extra} independent units", _rule(side)
            )
    return None


# --- Combat Commands attached to infantry divisions (9.2) ------------------------------------------------


def combat_command_units(data: GameData, combat_command: str) -> list[str]:
    """The counters of a Combat Command (0.4: three a CC)."""
    return sorted(u for u, d in data.units.items() if d.combat_command == combat_command)


def attached_formation(state: GameState, data: GameData, unit_id: str) -> str | None:
    """The formation a unit's Combat Command is attached to this turn, or ``None``."""
    cc = data.units[unit_id].combat_command
    if cc is None:
        return None
    found = state.flags.get(ATTACHED, {}).get(cc)
    return str(found) if found is not None else None


def activating_formation(state: GameState, data: GameData, unit_id: str) -> str:
    """The formation whose activation the unit joins: its own, or the division its CC is attached to."""
    return attached_formation(state, data, unit_id) or data.units[unit_id].formation


def infantry_divisions(data: GameData, side: Side) -> list[str]:
    """Formations that may receive an attached CC: a side's formations with an HQ and no CC counters."""
    with_cc = {d.formation for d in data.units.values() if d.combat_command is not None}
    return sorted(
        f.id
        for f in data.formations.values()
        if data.armies[f.army].side == side and f.hq is not None and not f.independent and f.id not in with_cc
    )


def attachment_choices(data: GameData, state: GameState, side: Side) -> list[tuple[str, str]]:
    """The (Combat Command, division) pairs the side may attach now."""
    if attach_problem(data, state, side, None, None) is not None:
        return []
    ccs = sorted({d.combat_command for u, d in data.units.items() if d.combat_command and data.side_of(u) == side})
    net = SupplyNet(Position(data, state), side)
    return [
        (cc, formation)
        for cc in ccs
        for formation in infantry_divisions(data, side)
        if attach_problem(data, state, side, cc, formation, net) is None
    ]


def attach_problem(
    data: GameData,
    state: GameState,
    side: Side,
    combat_command: str | None,
    formation_id: str | None,
    net: SupplyNet | None = None,
) -> IllegalActionError | None:
    """Why ``side`` may not attach the CC to the division now (``None`` arguments: whether it may attach any).
    ``net``: the side's lines of command in this position, if already computed."""
    allowed = int(_doctrine(data, side).get("attached_combat_commands", 0))
    if not allowed:
        return IllegalActionError("this side's doctrine attaches no Combat Commands", "9.2")
    if state.phase != "support" or side in state.flags.get("support_done", []):
        return IllegalActionError("Combat Commands are attached at the start of the turn, in the support phase", "9.2")
    attached: dict[str, str] = state.flags.get(ATTACHED, {})
    if combat_command is None or formation_id is None:
        if len(attached) >= allowed:
            return IllegalActionError(f"{allowed} Combat Commands are already attached this turn", "9.2")
        return None
    units = combat_command_units(data, combat_command)
    if not units or data.side_of(units[0]) != side:
        return IllegalActionError(f"{combat_command!r} is not one of your Combat Commands", "9.2")
    if formation_id not in infantry_divisions(data, side):
        return IllegalActionError(f"{formation_id!r} is not one of your infantry divisions", "9.2")
    if combat_command in attached:
        return IllegalActionError(f"{combat_command.upper()} is already attached this turn", "9.2")
    if len(attached) >= allowed:
        return IllegalActionError(f"{allowed} Combat Commands are already attached this turn", "9.2")
    formation = data.formations[formation_id]
    assert formation.hq is not None
    on_map = [state.units[u] for u in units if state.units[u].on_map]
    if not on_map:
        return IllegalActionError(f"no counter of {combat_command.upper()} is on the map", "9.2")
    area = (net or SupplyNet(Position(data, state), side)).command_area(formation.hq)
    cut = [data.units[u.id].name for u in on_map if u.hex not in area]
    if cut:
        return IllegalActionError(
            f"{', '.join(cut)} cannot trace a line of command to {data.units[formation.hq].name}", "9.2"
        )
    return None


def attach(data: GameData, state: GameState, side: Side, combat_command: str, formation_id: str) -> list[Event]:
    """[9.2] Attach a Combat Command's counters to an infantry division for this turn."""
    problem = attach_problem(data, state, side, combat_command, formation_id)
    if problem is not None:
        raise problem
    state.flags.setdefault(ATTACHED, {})[combat_command] = formation_id
    name = data.formations[formation_id].name
    return [
        Event(
            "attach",
            f"{combat_command.upper()} is attached to {name} this turn (9.2).",
            {"combat_command": combat_command, "formation": formation_id, "rule": "9.2"},
        )
    ]


# --- Command through another HQ (9.3) ---------------------------------------------------------------------


def general_activation_only(state: GameState, unit_id: str) -> bool:
    """[9.3] Whether the unit is in command only through another HQ this turn."""
    return unit_id in state.flags.get(THROUGH_OTHER_HQ, ())
