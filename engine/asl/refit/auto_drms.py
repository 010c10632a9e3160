"""Auto DRMs: the quantities the campaign record supplies to a table's DRMs (the rest the players give)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.asl.module import Module, Table
from engine.asl.state import CampaignState, DateRecord
from engine.contract import Seat


def last_scenario(state: CampaignState) -> DateRecord | None:
    for record in reversed(state.history):
        if record.kind == "scenario":
            return record
    return None


def _since(state: CampaignState, kind: str) -> list[DateRecord]:
    """The finished records after the last record of ``kind`` (all finished ones if none)."""
    finished = [r for r in state.history if r.kind != "pending"]
    for index in range(len(finished) - 1, -1, -1):
        if finished[index].kind == kind:
            return finished[index + 1 :]
    return finished


def previous_date_idle(state: CampaignState) -> bool:
    finished = [r for r in state.history if r.kind != "pending"]
    return bool(finished) and finished[-1].kind == "idle"


def auto_quantity(
    state: CampaignState, module: Module, auto: str, side: Seat | None, extra: Mapping[str, str]
) -> int | None:
    """The quantity of an auto DRM for a side, or ``None`` when it does not apply."""
    name, _, arg = auto.partition(":")
    last = last_scenario(state)
    if name == "side":
        return 1
    if name == "completed_night":
        return 1 if last is not None and module.date(last.date).night else None
    if name == "night":
        return 1 if module.date(state.date).night else None
    if name == "previous_idle":
        return 1 if previous_date_idle(state) else None
    if name == "exhaustion":
        return module.date(state.date).exhaustion
    if name == "ammo_level":
        ammo_side = module.ammo_side or side
        return state.rosters[ammo_side].ammo_level if ammo_side else None
    if name == "san":
        return state.rosters[side].san if side else None
    if name == "cvp_inflicted":
        return last.cvp.get(side, 0) if last is not None and side else 0
    if name == "idle_since_scenario":
        return sum(1 for r in _since(state, "scenario") if r.kind == "idle")
    if name == "scenarios_since_idle":
        return sum(1 for r in _since(state, "idle") if r.kind == "scenario")
    if name == "attack_chits_since_idle":
        return sum(1 for r in _since(state, "idle") if side and r.chits.get(side) == "attack")
    if name == "attack_chits_cg":
        chit_side = module.ammo_side or side
        return state.rosters[chit_side].chits["attack"] if chit_side else None
    if name == "previous_weather":
        return 1 if last is not None and last.weather in arg.split("|") else None
    if name == "previous_ec":
        return 1 if last is not None and last.ec in arg.split("|") else None
    if name == "weather":
        return 1 if state.record().weather in arg.split("|") else None
    if name == "rg_class":
        return 1 if extra.get("rg_class") in arg.split("|") else None
    return None


def auto_quantities(
    state: CampaignState, module: Module, table: Table, side: Seat | None, extra: Mapping[str, str]
) -> dict[str, int]:
    """The auto DRMs of a table that apply to a side, by DRM id."""
    found: dict[str, int] = {}
    for drm in table.drms:
        if drm.auto is None or (drm.side is not None and drm.side != side):
            continue
        quantity = auto_quantity(state, module, drm.auto, side, extra)
        if quantity is not None and drm.modifier(quantity) != 0:
            found[drm.id] = quantity
    return found
