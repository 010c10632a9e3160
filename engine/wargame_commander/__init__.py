"""The Ardennes Wargame Commander: the board game a flight-sim league plays between its flown frames.

:data:`SYSTEM` offers the engine contract (:mod:`engine.contract`) over a
:class:`~engine.wargame_commander.state.SeriesState`. One module per chapter of the rules:

- :mod:`~engine.wargame_commander.board` - the board as data and its validating reader;
- :mod:`~engine.wargame_commander.air` - 1.0 air units: basing, step losses, airfield damage, capture;
- :mod:`~engine.wargame_commander.ground` - 2.2-2.3 ZOC, Army Control, frontline, movement;
- :mod:`~engine.wargame_commander.combat` - 2.4 combat, CRT, retreat, breakthrough;
- :mod:`~engine.wargame_commander.special` - 3.0 weather, Bodenplatte / Big Blow, Blitz;
- :mod:`~engine.wargame_commander.series` - 4.0 the phases in order, as prompts and actions;
- :mod:`~engine.wargame_commander.scoring` - 5.1 the score ledger and result bands;
- :mod:`~engine.wargame_commander.report` - the frame report (CSV or JSON).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.contract import Action, Event, Prompt, Result, Seat
from engine.wargame_commander import series
from engine.wargame_commander.state import SeriesState, state_from_json, state_to_json


class WargameCommanderSystem:
    """The Ardennes Wargame Commander as a game system (see :class:`engine.contract.GameSystem`)."""

    seats: tuple[Seat, ...] = ("allied", "german")

    def new_game(self, scenario: Mapping[str, Any], options: Mapping[str, Any], seed: bytes) -> SeriesState:
        """A series on a board document (the parsed board TOML)."""
        return series.new_game(scenario, seed)

    def prompts(self, state: SeriesState) -> dict[Seat, Prompt]:
        return series.prompts(state)

    def apply(self, state: SeriesState, action: Action) -> tuple[SeriesState, list[Event]]:
        return series.apply(state, action)

    def view(self, state: SeriesState, seat: Seat | None) -> dict[str, Any]:
        return series.view(state, seat)

    def result(self, state: SeriesState) -> Result | None:
        return series.result(state)

    def state_to_json(self, state: SeriesState) -> dict[str, Any]:
        return state_to_json(state)

    def state_from_json(self, data: dict[str, Any]) -> SeriesState:
        return state_from_json(data)


SYSTEM = WargameCommanderSystem()
