"""Verifiable dice: every roll is derived from the game's secret seed and the roll's number.

At creation a game draws a secret seed and publishes only its SHA-256 hash. Roll number ``n`` (counted
from 0 over the whole game) is::

    value = int.from_bytes(hmac.new(seed, str(n).encode(), "sha256").digest()[:8], "big") % sides + 1

so once the seed is revealed anyone can recompute every roll with the standard library. The modulo bias
of a 64-bit draw over six faces is below one in 10**18. A secret stream (:func:`engine.sealing.secret_dice`)
draws the same way with its own seed, ``HMAC-SHA256(seed, label)``, its label naming the stream.

While :func:`recording` is open, every roll made is noted as a :class:`Draw` (stream, number, sides, value), so
the bot can keep with each action the dice it used and check them later from the seed alone, without the rules.
:func:`linked` then ties each roll to the event it decided: the first event the rules announced after rolling
it (every :class:`engine.contract.Event` made while the recording is open is noted by :func:`announced`), by
its place among the action's events, so a roll that fails its check is reported with the event it decided.

>>> seed = bytes.fromhex("00" * 32)
>>> [roll(seed, n) for n in range(5)]
[6, 5, 5, 6, 1]
>>> commitment(seed)[:16]
'66687aadf862bd77'
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any


def new_seed() -> bytes:
    """A fresh secret seed of 32 random bytes (the only place Umpire draws randomness)."""
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    """The public hash of a seed, posted when a game is created."""
    return hashlib.sha256(seed).hexdigest()


def roll(seed: bytes, number: int, sides: int = 6) -> int:
    """The value of roll ``number`` of a game with this seed, from 1 to ``sides``."""
    digest = hmac.new(seed, str(number).encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") % sides + 1


@dataclass(frozen=True)
class Draw:
    """One roll as made: its stream (``""``: the game's public dice; else the label of a secret stream), its
    number in that stream, the die's sides and the value rolled."""

    stream: str
    number: int
    sides: int
    value: int
    event: int | None = None
    """The event the roll decided, by its place (from 1) among its action's events (:func:`linked`); ``None``
    when no event followed it, or for a roll kept before rolls were linked."""

    def to_json(self) -> dict[str, object]:
        """The roll as the bot stores it with its action (its event, when linked)."""
        kept: dict[str, object] = {"stream": self.stream, "number": self.number, "sides": self.sides, "die": self.value}
        if self.event is not None:
            kept["event"] = self.event
        return kept


class Recording(list[Draw]):
    """The rolls made while :func:`recording` is open, and the events announced meanwhile (kind and text), with
    how many had been announced before each roll."""

    def __init__(self) -> None:
        super().__init__()
        self.announced: list[tuple[str, str]] = []
        self.before: list[int] = []


_drawn: ContextVar[Recording | None] = ContextVar("umpire_drawn", default=None)


@contextmanager
def recording() -> Iterator[Recording]:
    """Note every roll made inside the block (in this context) in the list it yields."""
    drawn = Recording()
    token = _drawn.set(drawn)
    try:
        yield drawn
    finally:
        _drawn.reset(token)


def announced(kind: str, text: str) -> None:
    """Note an event made while a recording is open (called by every :class:`engine.contract.Event`)."""
    drawn = _drawn.get()
    if drawn is not None:
        drawn.announced.append((kind, text))


def linked(drawn: Sequence[Draw], events: Sequence[Any]) -> list[Draw]:
    """The rolls of a recording, each tied to the event it decided among the action's ``events`` (objects with a
    ``kind`` and a ``text``): the first event announced after the roll that the action reports, found by its
    kind and text (a system may hand back a copy of an event, marked for fog of war, in place of the one it
    made). Rolls no reported event followed stay unlinked; a plain list (no recording) is returned as it is."""
    if not isinstance(drawn, Recording):
        return list(drawn)
    places: dict[tuple[str, str], int] = {}
    for place, event in enumerate(events, 1):
        places.setdefault((event.kind, event.text), place)
    out = []
    for draw, before in zip(drawn, drawn.before, strict=True):
        decided = next((places[e] for e in drawn.announced[before:] if e in places), None)
        out.append(replace(draw, event=decided))
    return out


def stream_seed(seed: bytes, stream: str) -> bytes:
    """The seed of a stream: the game's own for ``""``, else ``HMAC-SHA256(seed, label)``."""
    return hmac.new(seed, stream.encode(), hashlib.sha256).digest() if stream else seed


@dataclass
class Dice:
    """The dice of one game: the seed and how many rolls have been made so far.

    The engine keeps ``rolls_made`` in the game state, so replaying the same actions on the same seed
    rolls the same numbers.
    """

    seed: bytes
    rolls_made: int = 0
    stream: str = ""
    """The label of a secret stream whose seed this is (:func:`stream_seed`); ``""`` for the game's dice."""

    def d6(self) -> int:
        """Roll one six-sided die."""
        return self.d(6)

    def d(self, sides: int) -> int:
        """Roll one die of any number of sides."""
        value = roll(self.seed, self.rolls_made, sides)
        drawn = _drawn.get()
        if drawn is not None:
            drawn.append(Draw(self.stream, self.rolls_made, sides, value))
            drawn.before.append(len(drawn.announced))
        self.rolls_made += 1
        return value

    def two_d6(self) -> tuple[int, int]:
        """Roll two six-sided dice."""
        return self.d6(), self.d6()


def verify(seed_hex: str, published_hash: str, recorded: list[tuple[int, int, int]]) -> list[str]:
    """Check a revealed seed against its published hash and a list of ``(number, sides, value)`` rolls.

    Returns the problems found, one sentence each; an empty list means every roll checks out.
    """
    problems = []
    seed = bytes.fromhex(seed_hex)
    if commitment(seed) != published_hash:
        problems.append("the revealed seed does not match the hash published at the game's creation")
    for number, sides, value in recorded:
        expected = roll(seed, number, sides)
        if expected != value:
            problems.append(f"roll #{number} (d{sides}) was recorded as {value} but the seed gives {expected}")
    return problems
