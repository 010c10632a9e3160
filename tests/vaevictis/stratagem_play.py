"""Alsace 1944 stratagem play for the tests: the formations and units named, a game to its operations, the
second turn's initiative and a reactivation of the 30th SS."""

from __future__ import annotations

from engine.contract import Action
from engine.hexgrid import hex_name
from engine.vaevictis import activation as act
from engine.vaevictis.data import GameData
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.state import GameState

SEED = bytes(range(32))
LXIII = "lxiii-ak-hq"
FIRST_CA = "1st-army-corps-hq"


def initiative_of_turn_2(game: VaeVictisGame) -> GameState:
    """The initiative phase of a turn without a forced stratagem, both counters in hand."""
    state = game.new_game("entire-battle", {}, SEED)
    state.turn = 2
    state.phase = "initiative"
    state.flags = {"phase_done": [], **{k: v for k, v in state.flags.items() if k in ("face_down", "set_aside")}}
    state.events_left[FIRST_CA] = 1
    state.events_left[LXIII] = 1
    return state


def operations(game: VaeVictisGame, side: str) -> GameState:
    """Turn 2's operations phase, ``side`` in a general activation, every counter still in hand."""
    state = game.new_game("entire-battle", {}, SEED)
    state.turn, state.phase, state.active, state.pending = 2, "operations", side, []  # type: ignore[assignment]
    act.start_general_activation(state, game.data)
    return state


def empty_area(data: GameData, state: GameState, hexes: list[int]) -> None:
    """Clear every counter from these hexes and the hexes around them."""
    grid = data.map.grid
    area = {n for h in hexes for n in (h, *grid.neighbours(h))}
    for unit in state.on_map():
        if unit.hex in area:
            unit.hex = None
            unit.arrived = True


def ss_reactivation(game: VaeVictisGame) -> tuple[GameState, str, Action]:
    """A German general activation about to move a unit of the 30th SS activated once already this turn."""
    data = game.data
    state = operations(game, "german")
    ss = next(u for u, d in data.units.items() if d.formation == "de-30-ss" and not d.is_hq)
    start, goal = 3105, 3106
    empty_area(data, state, [start, goal])
    state.units[ss].hex, state.units[ss].arrived, state.units[ss].activations = start, True, 1
    return state, ss, Action("german", "move", {"units": ss, "to": hex_name(goal)})
