"""The computer opponent of the Vae Victis games: :class:`VaeVictisOpponent`, a :class:`ComputerPlayer`.

It decides from its seat's view and prompt only. The view carries the position as the seat knows it
(:mod:`engine.vaevictis.known`: no seed, under fog of war the unseen enemy counters replaced by fixed
stand-ins), so the engine's own rules can be run on it: every action it returns was accepted by the engine on
that position, and the dice it rolls there come from its own seed, never from the game's.

Deterministic: the same view, prompt, level and seed give the same decision on any machine; its effort is
counted in engine steps (``apply`` calls), and an optional wall-clock guard can only cut a search short.
"""

from __future__ import annotations

import hashlib
from typing import Any

from engine.contract import ComputerDecision, InvalidActionError, Prompt
from engine.vaevictis.opponent.attacks import Referee
from engine.vaevictis.opponent.decisions import decide
from engine.vaevictis.opponent.levels import LEVELS, Budget, Clock
from engine.vaevictis.state import GameState


def opponent_seed(seed: bytes, level: str, prompt: Prompt) -> bytes:
    """The opponent's own randomness for one decision: from the seed it was given, its level and the prompt."""
    return hashlib.sha256(b"umpire-opponent\0" + seed + b"\0" + level.encode() + b"\0" + prompt.text.encode()).digest()


def working_state(view: Any, seed: bytes) -> GameState:
    """The known position of the view, with the opponent's own dice in place of the game's secret seed.

    :raises InvalidActionError: when the view is not a seat's view of a Vae Victis game.
    """
    position = view.get("position") if isinstance(view, dict) else None
    if not isinstance(position, GameState):
        raise InvalidActionError("the computer opponent needs a seat's view (it carries the known position)")
    state = position.copy()
    state.seed = seed.hex()
    state.rolls_made = 0
    return state


class VaeVictisOpponent:
    """The computer opponent for one Vae Victis game (its data), or for any game registered with it."""

    levels: tuple[str, ...] = tuple(LEVELS)

    def __init__(self, game: Referee | None = None, clock: Clock | None = None, seconds: float = 8.0) -> None:
        """``game``: the game it plays (else it looks the view's game up in :data:`GAMES`); ``clock``: an
        optional wall clock (e.g. ``time.monotonic``) whose ``seconds`` cut a long decision short."""
        self._game = game
        self._clock = clock
        self._seconds = seconds

    def game_of(self, view: Any) -> Referee:
        if self._game is not None:
            return self._game
        game_id = view.get("game") if isinstance(view, dict) else None
        game = GAMES.get(str(game_id))
        if game is None:
            raise InvalidActionError(
                f"the computer opponent does not know the game {game_id!r}: build its Referee first "
                "(its computer_player registers it)"
            )
        return game

    def decide(self, view: Any, prompt: Prompt, level: str, seed: bytes) -> ComputerDecision:
        """Choose the seat's answer to ``prompt`` from ``view`` (see the module docstring).

        :raises InvalidActionError: for an unknown level, or a view that is not a seat's view.
        """
        if level not in LEVELS:
            raise InvalidActionError(f"no level {level!r}; choose one of {', '.join(LEVELS)}")
        game = self.game_of(view)
        own_seed = opponent_seed(seed, level, prompt)
        state = working_state(view, own_seed)
        budget = Budget(LEVELS[level].budget, self._clock, self._seconds if self._clock is not None else None)
        return decide(game, state, prompt, LEVELS[level], own_seed, budget)


GAMES: dict[str, Referee] = {}
"""The games the shared :data:`COMPUTER_PLAYER` plays, by data id (filled by :func:`register`)."""


def register(game: Referee) -> VaeVictisOpponent:
    """Let the shared opponent play ``game``'s views, and return an opponent bound to it."""
    GAMES[game.data.id] = game
    return VaeVictisOpponent(game)
