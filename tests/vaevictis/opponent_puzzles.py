"""Hand-built positions for the computer opponent's tactical puzzles (issue 30), on the Ardennes 1944 map.

:func:`puzzle` clears the board of The Initial Assault, puts the named counters on their hexes and starts an
activation of one formation on turn 2, so the opponent has one decision to make with nothing else in play.
"""

from __future__ import annotations

from functools import cache

from engine.contract import Action, ComputerDecision
from engine.hexgrid import parse_hex
from engine.vaevictis.data import Side
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.state import GameState
from scenarios import load_game


@cache
def ardennes() -> VaeVictisGame:
    return VaeVictisGame(load_game("ardennes44"))


def board(placements: dict[str, str], turn: int = 2) -> GameState:
    """The Initial Assault's state with only ``placements`` (unit id: hex) on the map, all at full strength."""
    game = ardennes()
    state = game.new_game("initial-assault", {}, b"\x05" * 32)
    for unit in state.units.values():
        unit.hex = None
        unit.arrived = True
        unit.eliminated = True
        unit.improved_position = False
    for unit_id, hex_ in placements.items():
        unit = state.units[unit_id]
        unit.hex = parse_hex(hex_)
        unit.eliminated = False
        unit.steps = game.data.units[unit_id].steps
    state.turn = turn
    state.phase = "operations"
    state.pending = []
    state.activation = None
    state.markers = []
    state.stack_tops = []
    return state


def puzzle(placements: dict[str, str], side: Side, formation: str, turn: int = 2) -> GameState:
    """:func:`board`, with ``side`` to act and ``formation`` activated."""
    state = board(placements, turn)
    state.active = side
    state.initiative = side
    state, _ = ardennes().apply(state, Action(side, "activate_formation", {"formation": formation}))
    return state


def decide(state: GameState, side: Side, level: str = "normal", seed: bytes = b"puzzle") -> ComputerDecision:
    """The computer opponent's decision for ``side`` in ``state``."""
    game = ardennes()
    return game.computer_player.decide(game.view(state, side), game.prompts(state)[side], level, seed)
