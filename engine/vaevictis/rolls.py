"""Rolling the game's verifiable dice from its state (the seed and the count of rolls made are in the state)."""

from __future__ import annotations

from engine.contract import Event
from engine.dice import Dice
from engine.vaevictis.state import GameState


def dice_of(state: GameState) -> Dice:
    """The game's dice, positioned at its next roll; write ``rolls_made`` back after rolling."""
    return Dice(bytes.fromhex(state.seed), state.rolls_made)


def roll(state: GameState, text: str, rule: str) -> tuple[int, Event]:
    """Roll one die, advance the state's roll count, and describe the roll for the log.

    The event carries the roll's ``number`` in the game, so that anyone holding the revealed seed can check it
    with :func:`engine.dice.roll`.
    """
    dice = dice_of(state)
    number = dice.rolls_made
    value = dice.d6()
    state.rolls_made = dice.rolls_made
    data = {"die": value, "rule": rule, "number": number, "sides": 6}
    return value, Event("roll", f"{text}: rolled {value}.", data)
