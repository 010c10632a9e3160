"""The contract every game system offers the bot: prompts, actions, events, refusals, views.

A game system is a set of pure functions over a JSON-serialisable state (see :class:`GameSystem`):

- ``new_game(scenario, options, seed)`` sets a game up;
- ``prompts(state)`` says, for each seat, what it must or may decide now and lists the legal choices;
- ``apply(state, action)`` returns the new state and the events that describe what happened, or raises
  :class:`IllegalActionError` whose message a player can read, with the rule number;
- ``view(state, seat)`` is what one seat may see;
- ``result(state)`` is the result once the game is over, else ``None``.

The bot only ever sends actions a prompt listed (or free actions a prompt allows), and the engine checks
them again anyway: a prompt is a promise about what is legal, never a way around the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.dice import announced

Seat = str
"""A seat at the table: a side such as ``"german"`` or ``"allied"``."""

ArgValue = str | int | bool | None


class RulesError(ValueError):
    """Base of every error the engine raises about a player's input.

    ``rule`` is the rule number that forbids the action, when a rule does.
    """

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.rule = rule
        super().__init__(f"{rule}: {message}" if rule else message)
        self.reason = message


class InvalidActionError(RulesError):
    """The action is malformed: unknown verb, missing or unreadable argument."""


class IllegalActionError(RulesError):
    """The action is well formed but the rules forbid it in this position."""


class NotYourTurnError(IllegalActionError):
    """The seat has nothing to decide now."""


@dataclass(frozen=True)
class Choice:
    """One legal choice in a prompt: a verb with its arguments and a label a player reads."""

    verb: str
    """The action's verb, e.g. ``"move"``."""
    args: Mapping[str, ArgValue] = field(default_factory=dict)
    """The action's arguments, e.g. ``{"unit": "us-99-393", "to": "2804"}``."""
    label: str = ""
    """Short words for a button or menu entry."""


@dataclass(frozen=True)
class Prompt:
    """What one seat must or may decide now."""

    seat: Seat
    """Who decides."""
    text: str
    """What is being asked, in a sentence."""
    choices: tuple[Choice, ...] = ()
    """The legal choices when they can be listed; free actions are described by ``free_verbs``."""
    free_verbs: tuple[str, ...] = ()
    """Verbs the seat may also use with arguments it chooses (move, attack, ...), checked on apply."""
    secret: bool = False
    """Whether the decision is sealed until every side has submitted (taken by DM)."""
    rule: str | None = None
    """The rule that asks for the decision."""
    optional: bool = False
    """A chance to act (an event played in reaction), not a decision the game waits for: no ping, no reminder."""


@dataclass(frozen=True)
class Action:
    """One seat's decision, as sent to :meth:`GameSystem.apply`."""

    seat: Seat
    verb: str
    args: Mapping[str, ArgValue] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The action as stored in the game's log."""
        return {"seat": self.seat, "verb": self.verb, "args": dict(self.args)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Action:
        """Read an action back from the game's log."""
        return cls(seat=str(data["seat"]), verb=str(data["verb"]), args=dict(data.get("args", {})))


@dataclass(frozen=True)
class Event:
    """Something that happened, for the game log, the channel and the map's "what just happened".

    ``secret_to`` lists the seats allowed to see the event before its reveal; an empty tuple means public.
    """

    kind: str
    """A short machine name such as ``"roll"``, ``"move"``, ``"combat"``."""
    text: str
    """One sentence for the log."""
    data: Mapping[str, Any] = field(default_factory=dict)
    """The structured details (hexes, units, dice and modifiers) a renderer or report may use."""
    secret_to: tuple[Seat, ...] = ()
    """Seats who may see it while it is sealed; empty for a public event."""

    def __post_init__(self) -> None:
        announced(self.kind, self.text)  # while dice are recorded, a roll is tied to the event that follows it

    def to_json(self) -> dict[str, Any]:
        """The event as stored and sent to the bot."""
        return {
            "kind": self.kind,
            "text": self.text,
            "data": dict(self.data),
            "secret_to": list(self.secret_to),
        }


@dataclass(frozen=True)
class Result:
    """How a game ended."""

    winner: Seat | None
    """The winning seat, or ``None`` for a draw or an abandoned game."""
    text: str
    """The result in words, e.g. "German offensive victory: the Meuse was crossed at 0410"."""
    level: str | None = None
    """The victory level, when the scenario has several (e.g. ``german-offensive``, ``german-defensive``)."""


@dataclass(frozen=True)
class ComputerDecision:
    """What a computer player decided for its seat, and why."""

    action: Action
    """The action to apply, exactly as a human at that seat could send it."""
    explanation: str = ""
    """One short line for the channel (its plan and main reasons); empty when there is nothing worth saying."""
    steps: int = 0
    """The engine steps the decision cost: its budget is counted in these, never in seconds."""


class ComputerPlayer(Protocol):
    """A computer player for one game system.

    It decides from what its seat may see and nothing else: ``view`` is ``GameSystem.view(state, seat)`` and
    ``prompt`` is the seat's own prompt, so twin games that differ only in what the seat may not see get the
    same decision. ``seed`` and ``level`` fix its deliberate noise, so a decision is the same on any machine.
    """

    levels: tuple[str, ...]
    """The difficulty levels it offers, easiest first, e.g. ``("easy", "normal", "hard")``."""

    def decide(self, view: Any, prompt: Prompt, level: str, seed: bytes) -> ComputerDecision: ...


class GameSystem(Protocol):
    """The functions a game system offers (see the module docstring)."""

    seats: tuple[Seat, ...]

    def new_game(self, scenario: str, options: Mapping[str, Any], seed: bytes) -> Any: ...

    def prompts(self, state: Any) -> dict[Seat, Prompt]: ...

    def apply(self, state: Any, action: Action) -> tuple[Any, list[Event]]: ...

    def view(self, state: Any, seat: Seat | None) -> Any: ...

    def result(self, state: Any) -> Result | None: ...
