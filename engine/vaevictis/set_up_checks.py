"""[10.2, 6.2] Checks of a scenario's set-up against the map: every unit it places begins supplied and can move.

A rebuilt map can strand a set-up hex: a mechanized unit in difficult terrain with no road, an HQ with no
road within a hex. The rules place units where they can act, so each such case is a fault of the map or the
set-up, found by ``umpire validate`` and the tests rather than in a game. Static counters (strongpoints and
garrisons, 12.2 and 16) never move and draw no supply, and are not checked.
"""

from __future__ import annotations

from engine.hexgrid import hex_name
from engine.vaevictis import garrisons
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.movement import terrain_exits
from engine.vaevictis.state import Position
from engine.vaevictis.supply import SupplyNet

SEED = bytes(32)
"""The seed of the trial games; the checks read the set-up only, which no die decides."""


def set_up_problems(game: VaeVictisGame) -> list[str]:
    """Every unit of every scenario's set-up (with the German's suggested placements where he places units)
    that traces no line of supply (10.2) or can never leave its hex (6.2), one line each."""
    data = game.data
    problems: list[str] = []
    for scenario in data.scenarios:
        state = game.new_game(scenario, {}, SEED)
        pos = Position(data, state)
        nets = {side: SupplyNet(pos, side) for side in ("german", "allied")}
        for unit in state.on_map():
            if garrisons.is_static(data, unit.id) or unit.hex is None:
                continue
            name, where = data.units[unit.id].name, hex_name(unit.hex)
            if not nets[data.side_of(unit.id)].is_supplied(unit):
                problems.append(f"{scenario}: {name} in {where} traces no line of supply at the start (10.2)")
            if not terrain_exits(data, state, unit.id):
                problems.append(f"{scenario}: {name} in {where} can never leave its set-up hex (6.2, TEC)")
    return problems
