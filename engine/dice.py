"""Verifiable dice: every roll is derived from the game's secret seed and the roll's number.

At creation a game draws a secret seed and publishes only its SHA-256 hash. Roll number ``n`` (counted
from 0 over the whole game) is::

    value = int.from_bytes(hmac.new(seed, str(n).encode(), "sha256").digest()[:8], "big") % sides + 1

so once the seed is revealed anyone can recompute every roll with the standard library. The modulo bias
of a 64-bit draw over six faces is below one in 10**18.

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
from dataclasses import dataclass


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


@dataclass
class Dice:
    """The dice of one game: the seed and how many rolls have been made so far.

    The engine keeps ``rolls_made`` in the game state, so replaying the same actions on the same seed
    rolls the same numbers.
    """

    seed: bytes
    rolls_made: int = 0

    def d6(self) -> int:
        """Roll one six-sided die."""
        value = roll(self.seed, self.rolls_made)
        self.rolls_made += 1
        return value

    def d(self, sides: int) -> int:
        """Roll one die of any number of sides."""
        value = roll(self.seed, self.rolls_made, sides)
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
