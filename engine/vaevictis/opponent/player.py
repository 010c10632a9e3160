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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.contract import Action, ComputerDecision, InvalidActionError, Prompt
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.state import GameState


@dataclass(frozen=True)
class Level:
    """A difficulty level: how many engine steps a decision may spend, and how much deliberate noise."""

    name: str
    budget: int
    """Engine steps (actions applied on the known position) one decision may spend."""
    noise: float
    """The spread of the random amount added to each candidate's score, in evaluation points."""
    reply: bool
    """Whether a plan is checked against the opponent's best reply (one activation deep)."""


LEVELS: dict[str, Level] = {
    "easy": Level("easy", budget=120, noise=6.0, reply=False),
    "normal": Level("normal", budget=600, noise=0.6, reply=True),
    "hard": Level("hard", budget=1500, noise=0.0, reply=True),
}
"""The levels offered, easiest first: they differ by budget and noise only, never by what they may see."""

Clock = Callable[[], float]


class Budget:
    """The engine steps a decision may still spend, with an optional wall-clock guard that only cuts short."""

    def __init__(self, steps: int, clock: Clock | None = None, seconds: float | None = None) -> None:
        self.limit = steps
        self.used = 0
        self._clock = clock
        self._deadline = clock() + seconds if clock is not None and seconds is not None else None

    def spend(self, steps: int = 1) -> None:
        self.used += steps

    @property
    def left(self) -> int:
        return self.limit - self.used

    def exhausted(self) -> bool:
        if self.used >= self.limit:
            return True
        return self._deadline is not None and self._clock is not None and self._clock() >= self._deadline


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

    def __init__(self, game: VaeVictisGame | None = None, clock: Clock | None = None, seconds: float = 8.0) -> None:
        """``game``: the game it plays (else it looks the view's game up in :data:`GAMES`); ``clock``: an
        optional wall clock (e.g. ``time.monotonic``) whose ``seconds`` cut a long decision short."""
        self._game = game
        self._clock = clock
        self._seconds = seconds

    def game_of(self, view: Any) -> VaeVictisGame:
        if self._game is not None:
            return self._game
        game_id = view.get("game") if isinstance(view, dict) else None
        game = GAMES.get(str(game_id))
        if game is None:
            raise InvalidActionError(
                f"the computer opponent does not know the game {game_id!r}: build its VaeVictisGame first "
                "(its computer_player registers it)"
            )
        return game

    def decide(self, view: Any, prompt: Prompt, level: str, seed: bytes) -> ComputerDecision:
        """Choose the seat's answer to ``prompt`` from ``view`` (see the module docstring).

        :raises InvalidActionError: for an unknown level, or a view that is not a seat's view.
        """
        if level not in LEVELS:
            raise InvalidActionError(f"no level {level!r}; choose one of {', '.join(LEVELS)}")
        from engine.vaevictis.opponent.decisions import decide  # the search imports this module's budget

        game = self.game_of(view)
        own_seed = opponent_seed(seed, level, prompt)
        state = working_state(view, own_seed)
        budget = Budget(LEVELS[level].budget, self._clock, self._seconds if self._clock is not None else None)
        return decide(game, state, prompt, LEVELS[level], own_seed, budget)


GAMES: dict[str, VaeVictisGame] = {}
"""The games the shared :data:`COMPUTER_PLAYER` plays, by data id (filled by :func:`register`)."""


def register(game: VaeVictisGame) -> VaeVictisOpponent:
    """Let the shared opponent play ``game``'s views, and return an opponent bound to it."""
    GAMES[game.data.id] = game
    return VaeVictisOpponent(game)


def action_key(action: Action) -> tuple[str, str]:
    """A total order on actions, so that ties are broken the same way everywhere."""
    return action.verb, repr(sorted(action.args.items()))
