"""Sealed decisions as verification sees them: what was sealed (its receipt, posted when it was sealed) and what
was revealed (its content and salt), whichever system sealed it, checked through :mod:`engine.sealing`.

A system that seals its own decisions in its events (the ASL Refit Phase, the Wargame Commander) lists them with
:meth:`bot.service.game_types.SystemAdapter.sealed_decisions`; :func:`sealed_in_events` reads the events every
such system posts: a ``sealed`` event with the decision's ``secret`` id and ``receipt``, and at the reveal a
``reveal`` event with the same ``secret`` id, its ``content`` and ``salt``. The answers to secret prompts that the
service seals itself are kept in the store's ``secrets`` table and checked from there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.records import ActionRow


@dataclass(frozen=True)
class SealedDecision:
    """One sealed decision of a system's own: its id, owner, the action that sealed it and the receipt it posted;
    once revealed, the action that revealed it and the content and salt it published."""

    id: str
    owner: str
    sealed_at: int
    receipt: str
    revealed_at: int | None = None
    content: Any = None
    salt: str | None = None


def sealed_in_events(actions: Sequence[ActionRow]) -> list[SealedDecision]:
    """The sealed decisions announced by the ``sealed`` and ``reveal`` events of these (live) actions, in order.

    A decision sealed again under the same id (after a moderator's correction) counts from its latest sealing."""
    found: dict[str, SealedDecision] = {}
    for row in actions:
        for event in row.events if isinstance(row.events, list) else []:
            data = event.get("data") if isinstance(event, Mapping) else None
            if not isinstance(data, Mapping) or not isinstance(data.get("secret"), str):
                continue
            secret_id = str(data["secret"])
            if event.get("kind") == "sealed" and isinstance(data.get("receipt"), str):
                found[secret_id] = SealedDecision(secret_id, str(data.get("owner", "")), row.seq, data["receipt"])
            elif event.get("kind") == "reveal" and secret_id in found and "content" in data:
                sealed = found[secret_id]
                salt = data.get("salt")
                found[secret_id] = SealedDecision(
                    sealed.id, sealed.owner, sealed.sealed_at, sealed.receipt, row.seq, data["content"],
                    salt if isinstance(salt, str) else None,
                )  # fmt: skip
    return list(found.values())
