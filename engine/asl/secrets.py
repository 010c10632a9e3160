"""Sealed secrets: hash receipts posted when a side commits, checkable by anyone after the reveal.

A secret's receipt is the SHA-256 of the canonical JSON of ``{"salt": <salt hex>, "secret": <content>}``.
The salt is derived from the game's seed and the secret's id with HMAC-SHA256, so it cannot be guessed
before the reveal (which publishes it) and needs no extra randomness. Checking a receipt takes a few
lines of standard-library Python::

    import hashlib, json
    body = json.dumps({"salt": salt, "secret": content}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)
    assert hashlib.sha256(body.encode()).hexdigest() == receipt

Secret dice (the CPP variable arrival DR, RG strength, SW, leader and composition rolls) come from a
separate stream per side, seeded with ``HMAC(seed, "asl-secret-dice:<side>")``, so the count of public
rolls never tells the channel how many secret rolls a side made.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

from engine.dice import Dice


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no spaces: the same content always gives the same text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def salt_for(seed: bytes, secret_id: str) -> str:
    """The salt of one secret, derived from the game seed (hex)."""
    return hmac.new(seed, f"asl-secret:{secret_id}".encode(), hashlib.sha256).hexdigest()


def receipt_for(content: Any, salt_hex: str) -> str:
    """The receipt (SHA-256 hex) of a sealed content with its salt."""
    body = canonical_json({"salt": salt_hex, "secret": content})
    return hashlib.sha256(body.encode()).hexdigest()


def verify_receipt(content: Any, salt_hex: str, receipt: str) -> bool:
    """Whether a revealed content and salt match the receipt posted when it was sealed.

    >>> salt = salt_for(bytes(32), "S1")
    >>> verify_receipt({"chit": "attack"}, salt, receipt_for({"chit": "attack"}, salt))
    True
    >>> verify_receipt({"chit": "idle"}, salt, receipt_for({"chit": "attack"}, salt))
    False
    """
    return hmac.compare_digest(receipt_for(content, salt_hex), receipt)


def secret_dice(seed: bytes, side: str, rolls_made: int) -> Dice:
    """The secret dice stream of one side (see the module docstring)."""
    stream_seed = hmac.new(seed, f"asl-secret-dice:{side}".encode(), hashlib.sha256).digest()
    return Dice(stream_seed, rolls_made)
