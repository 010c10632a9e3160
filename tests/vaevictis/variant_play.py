"""Alsace 1944 variant scenario (19.4) play for the tests: the German and French set-ups, the offensive effort,
and a variant started."""

from __future__ import annotations

from engine.contract import Action
from engine.hexgrid import Hex, hex_name
from engine.vaevictis import variant
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.state import GameState
from engine.vaevictis.supply import command_range

SEED = bytes(range(32))
LONG = "entire-battle-variant"
AREA = "German variant set-up area"


def place(game: VaeVictisGame, state: GameState, side: str, unit: str, hex_: Hex) -> GameState:
    state, _ = game.apply(state, Action(side, "place", {"unit": unit, "hex": hex_name(hex_)}))
    return state


def german_set_up(game: VaeVictisGame, state: GameState) -> GameState:
    """A German set-up the variant accepts: the historical one, the reserves moved into their region and
    every front-line hex held by a unit whose HQ is near enough."""
    data = game.data
    regions = variant.placeable(data, "german")
    for unit_id, region in sorted(regions.items()):
        hex_ = state.units[unit_id].hex
        if region and hex_ not in data.map.regions[region]:
            free = [h for h in sorted(data.map.regions[region]) if not state.units_at(h)]
            state = place(game, state, "german", unit_id, free[len(free) // 2])
    reach = command_range(data, "german")
    grid = data.map.grid
    moved: set[str] = set()
    for _ in range(40):
        problem = variant.setup_problem(data, state, "german")
        if problem is None or "front-line hex" not in problem:
            break
        target = int(problem.split("hex ")[1][:4])
        for unit_id in sorted(regions):
            definition = data.units[unit_id]
            hq = data.formations[definition.formation].hq
            hq_hex = state.units[hq].hex if hq else None
            if (
                unit_id in moved
                or definition.is_hq
                or hq_hex is None
                or regions[unit_id] != AREA
                or grid.distance(hq_hex, target) > reach - 1
                or state.units[unit_id].hex in data.map.regions["front line"]
            ):
                continue
            if state.units_at(target):
                continue
            moved.add(unit_id)
            state = place(game, state, "german", unit_id, target)
            break
        else:
            raise AssertionError(f"cannot cover {target}")
    state, _ = game.apply(state, Action("german", "setup_done", {}))
    return state


def both_set_up(game: VaeVictisGame, scenario: str = LONG) -> GameState:
    state = german_set_up(game, game.new_game(scenario, {}, SEED))
    state, _ = game.apply(state, Action("allied", "setup_done", {}))
    return state


def effort(game: VaeVictisGame, state: GameState, heavy: int, divisions: str) -> GameState:
    state, _ = game.apply(
        state, Action("allied", "offensive_effort", {"heavy_artillery": heavy, "divisions": divisions})
    )
    return state


def started(game: VaeVictisGame) -> GameState:
    state = effort(game, both_set_up(game), 1, "fr-2-dim")
    state.turn, state.phase, state.active = 2, "operations", "allied"
    return state
