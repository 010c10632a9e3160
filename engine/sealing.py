"""Sealed decisions for every game system: salts, commitments (receipts), reveals, and secret dice.

A decision taken in secret (an initiative chit, a purchase, a secret die roll, a battle designation) is sealed:
the channel sees only its receipt, the SHA-256 of a text that holds the decision and a salt; at the reveal the
text is published, and anyone can check it against the receipt posted earlier. Two forms are in use, both
checkable with a few lines of standard-library Python:

- **A system's own secrets** (the ASL Refit Phase, the Wargame Commander): the receipt is the SHA-256 of the
  canonical JSON of ``{"salt": <salt hex>, "secret": <content>}`` (:func:`sealed_text`, :func:`receipt_for`).
  The salt is derived from the game's seed, the correction epoch and the secret's id with HMAC-SHA256
  (:func:`salt_for`), so it cannot be guessed before the reveal and needs no extra randomness. A moderator's
  correction starts a new epoch: a decision sealed again after it gets a fresh salt, so its new receipt cannot
  be matched against the salt already published::

      import hashlib, json
      body = json.dumps({"salt": salt, "secret": content}, sort_keys=True, separators=(",", ":"),
                        ensure_ascii=False)
      assert hashlib.sha256(body.encode()).hexdigest() == receipt

- **A sealed prompt's answer** (an engine prompt marked secret, such as Alsace 1944's initiative stratagems,
  sealed by the bot for the system): the receipt is the SHA-256 of ``json.dumps({"salt", "seat", "verb",
  "args"}, sort_keys=True)`` with a random salt the bot draws (:func:`sealed_answer`).

Secret dice come from a separate stream per side (:func:`secret_dice`), seeded with HMAC(seed, a label naming
the side and the epoch), so the count of public rolls never tells the channel how many secret rolls a side made.

The labels mixed into salts and dice streams (``asl-secret:...``, ``asl-secret-dice:...``) were fixed when the
first system used them; they are part of every receipt already posted and never change.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from typing import Any

from engine.dice import Dice, stream_seed


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
    return Dice(stream_seed(seed, label), rolls_made, stream=label)


def sealed_answer(seat: str, verb: str, args: Mapping[str, Any], salt_hex: str) -> tuple[str, str]:
    """The stored text and the receipt (SHA-256 hex) of one seat's answer to a sealed prompt.

    >>> text, receipt = sealed_answer("german", "stratagem", {"play": True}, "00" * 16)
    >>> text
    '{"args": {"play": true}, "salt": "00000000000000000000000000000000", "seat": "german", "verb": "stratagem"}'
    >>> verify_sealed_text(text, receipt)
    True
    """
    text = json.dumps({"salt": salt_hex, "seat": seat, "verb": verb, "args": dict(args)}, sort_keys=True)
    return text, hashlib.sha256(text.encode()).hexdigest()


def verify_sealed_text(text: str, receipt: str) -> bool:
    """Whether a revealed text is the one whose receipt was posted when it was sealed."""
    return hmac.compare_digest(hashlib.sha256(text.encode()).hexdigest(), receipt)
