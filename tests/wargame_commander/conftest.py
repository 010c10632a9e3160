"""Helpers for the Wargame Commander rule tests: the bundled board and positions built on it."""

from __future__ import annotations

from typing import Any

import pytest

from engine.contract import Action, Event
from engine.wargame_commander import series
from engine.wargame_commander.board import Board
from engine.wargame_commander.state import SeriesState, board_of
from scenarios.wargame_commander import board_document

SEED = bytes(range(32))


@pytest.fixture
def doc() -> dict[str, Any]:
    return board_document("wargame-commander")


@pytest.fixture
def fresh(doc: dict[str, Any]) -> SeriesState:
    return series.new_game(doc, SEED)


@pytest.fixture
def board(fresh: SeriesState) -> Board:
    return board_of(fresh)


def position(state: SeriesState, phase: str, frame: int = 2, **hexes: int) -> SeriesState:
    """Only the named units on the board (by id, ``_`` for ``-``), at their hexes; the rest off it."""
    placed = {k.replace("_", "-"): v for k, v in hexes.items()}
    for unit in state.units.values():
        unit.hex = placed.get(unit.id)
    state.phase = phase
    state.frame = frame
    return state


def act(state: SeriesState, seat: str, verb: str, **args: Any) -> tuple[SeriesState, list[Event]]:
    return series.apply(state, Action(seat, verb, args))
