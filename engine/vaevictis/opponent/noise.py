"""The opponent's deliberate noise: reproducible numbers drawn from its seed, never from the game's dice."""

from __future__ import annotations

import hashlib


def uniform(seed: bytes, key: str) -> float:
    """A number in [-1, 1) fixed by the seed and the key: the same on every machine and every run."""
    digest = hashlib.blake2b(key.encode(), key=seed[:64], digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**63 - 1.0
