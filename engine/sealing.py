"""Sealed secrets: hash receipts posted when a side commits, checkable by anyone after the reveal.

A secret's receipt is the SHA-256 of the canonical JSON of ``{"salt": <salt hex>, "secret": <content>}``.
The salt is derived from the game's seed, the campaign's correction epoch and the secret's id with
HMAC-SHA256, so it cannot be guessed before the reveal (which publishes it) and needs no extra randomness.
A moderator's correction starts a new epoch: a decision sealed again after it gets a fresh salt, so its
new receipt cannot be matched against the salt already published. Checking a receipt takes a few lines
of standard-library Python::

    import hashlib, json
    body = json.dumps({"salt": salt, "secret": content}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)
    assert hashlib.sha256(body.encode()).hexdigest() == receipt

Secret dice (the CPP variable arrival DR, RG strength, SW, leader and composition rolls) come from a
separate stream per side, seeded with ``HMAC(seed, "asl-secret-dice:<side>")`` (with ``:<epoch>`` after a
correction, so dice already seen are never dealt again), so the count of public rolls never tells the
channel how many secret rolls a side made.
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


def salt_for(seed: bytes, secret_id: str, epoch: int = 0) -> str:
    """The salt of one secret, derived from the game seed and the correction epoch (hex)."""
    label = f"asl-secret:{secret_id}" if epoch == 0 else f"asl-secret:{epoch}:{secret_id}"
    return hmac.new(seed, label.encode(), hashlib.sha256).hexdigest()


def sealed_text(content: Any, salt_hex: str) -> str:
    """The exact text a receipt is the SHA-256 of (posted as a file at the reveal)."""
    return canonical_json({"salt": salt_hex, "secret": content})


def receipt_for(content: Any, salt_hex: str) -> str:
    """The receipt (SHA-256 hex) of a sealed content with its salt."""
    return hashlib.sha256(sealed_text(content, salt_hex).encode()).hexdigest()


def verify_receipt(content: Any, salt_hex: str, receipt: str) -> bool:
    """Whether a revealed content and salt match the receipt posted when it was sealed.

    >>> salt = salt_for(bytes(32), "S1")
    >>> verify_receipt({"chit": "attack"}, salt, receipt_for({"chit": "attack"}, salt))
    True
    >>> verify_receipt({"chit": "idle"}, salt, receipt_for({"chit": "attack"}, salt))
    False
    """
    return hmac.compare_digest(receipt_for(content, salt_hex), receipt)


def secret_dice(seed: bytes, side: str, rolls_made: int, epoch: int = 0) -> Dice:
    """The secret dice stream of one side in a correction epoch (see the module docstring)."""
    label = f"asl-secret-dice:{side}" if epoch == 0 else f"asl-secret-dice:{side}:{epoch}"
    stream_seed = hmac.new(seed, label.encode(), hashlib.sha256).digest()
    return Dice(stream_seed, rolls_made)
