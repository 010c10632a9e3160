"""Drive the Vae Victis state machine on the mini game: start a game, place counters, act, expect refusals."""

from __future__ import annotations

from typing import Any

import pytest

from engine.contract import Action, Event, RulesError
from engine.vaevictis.data import GameData
from engine.vaevictis.game import VaeVictisGame
from tests.vaevictis.positions import mini_data

FRONT = {
    "hq-us-v": 101,
    "us-2-id": 203,
    "us-3-id": 204,
    "us-cca": 104,
    "hq-de-1ss": 803,
    "de-peiper": 703,
    "de-hansen": 704,
    "de-12-vg": 604,
}
"""A small front on the mini map: V Corps in the west (columns 01-02), I SS Pz Korps in the east (06-08)."""


class Table:
    """A game in progress on the mini game, with helpers to act and to expect refusals."""

    def __init__(self, data: GameData | None = None, placements: dict[str, int] | None = None, **options: bool) -> None:
        self.game = VaeVictisGame(data or mini_data())
        self.state = self.game.new_game("test", options, b"\x07" * 32)
        self.events: list[Event] = []
        for side in ("german", "allied"):
            if self.state.phase == "support" and side in self.game.prompts(self.state):
                self.act(side, "end_support")
        assert self.state.phase == "operations", self.state.phase
        if placements is not None:
            for unit in self.state.units.values():
                unit.hex, unit.arrived = None, False
            for unit_id, hex_ in placements.items():
                unit = self.state.units[unit_id]
                unit.hex, unit.arrived = hex_, True
        self.state.initiative = self.state.active = "german"

    @property
    def data(self) -> GameData:
        return self.game.data

    def act(self, seat: str, verb: str, **args: Any) -> list[Event]:
        self.state, events = self.game.apply(self.state, Action(seat, verb, args))
        self.events += events
        return events

    def refused(self, seat: str, verb: str, rule: str | None = None, match: str = "", **args: Any) -> RulesError:
        """Expect a refusal; check the rule number and words, and that nothing changed."""
        before = self.state.to_json()
        with pytest.raises(RulesError) as caught:
            self.game.apply(self.state, Action(seat, verb, args))
        assert caught.value.rule == rule, caught.value
        assert match in str(caught.value), caught.value
        assert self.state.to_json() == before
        return caught.value

    def unit(self, unit_id: str) -> Any:
        return self.state.units[unit_id]

    def set(self, unit_id: str, **fields: Any) -> None:
        for key, value in fields.items():
            setattr(self.state.units[unit_id], key, value)


