"""The opponent's levels and its budget of engine steps."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.contract import Action


@dataclass(frozen=True)
class Level:
    """A difficulty level: how many engine steps a decision may spend, and how much deliberate noise."""

    name: str
    budget: int
    """Engine steps (actions applied on the known position) one decision may spend."""
    noise: float
    """The spread of the random amount added to each candidate's score, in evaluation points."""
    finalists: int
    """How many of the best moves get the full evaluation, supply lines included."""


LEVELS: dict[str, Level] = {
    "easy": Level("easy", budget=30, noise=1.5, finalists=2),
    "normal": Level("normal", budget=90, noise=0.1, finalists=6),
    "hard": Level("hard", budget=240, noise=0.0, finalists=14),
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


def action_key(action: Action) -> tuple[str, str]:
    """A total order on actions, so that ties are broken the same way everywhere."""
    return action.verb, repr(sorted(action.args.items()))
