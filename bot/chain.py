"""The hash chain of a game's action log: tampering with a stored action shows.

Each stored action carries two hashes: ``events_hash``, the SHA-256 of its events, and ``chain``, the SHA-256
of the previous action's ``chain`` (for the first action: the seed hash published at the game's creation)
together with the action itself (number, seat, user, verb, arguments) and its ``events_hash``. The game keeps
the last ``chain`` as its head, posted in the channel with the seed when the game ends. Changing an action's
arguments or events, deleting or inserting a row, or changing the seed all break the chain somewhere, and
:func:`check` says where.

Both hashes are computed over canonical JSON (sorted keys, no spaces), so anyone can recompute them with the
standard library from an export of the log.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


def canonical(value: Any) -> str:
    """The one JSON text of a value that the hashes are computed over."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def events_hash(events: Sequence[Mapping[str, Any]]) -> str:
    """The hash of an action's events (whatever JSON a tampered row holds instead)."""
    plain = [dict(e) if isinstance(e, Mapping) else e for e in events] if isinstance(events, list | tuple) else events
    return hashlib.sha256(canonical(plain).encode()).hexdigest()


def link(
    previous: str, seq: int, seat: str, user_id: int | None, verb: str, args: Mapping[str, Any], events: str
) -> str:
    """The chain hash of one action, given the previous action's (or the seed hash, for the first)."""
    body = canonical([previous, seq, seat, user_id, verb, dict(args), events])
    return hashlib.sha256(body.encode()).hexdigest()


@dataclass(frozen=True)
class StoredLink:
    """One stored action as the chain sees it (undone actions included: they stay in the log)."""

    seq: int
    seat: str
    user_id: int | None
    verb: str
    args: Mapping[str, Any]
    events: Sequence[Mapping[str, Any]]
    events_hash: str | None
    chain: str | None


def check(seed_hash: str, rows: Sequence[StoredLink], head: str | None) -> list[str]:
    """Every place the stored chain disagrees with the actions, one sentence each; empty when it holds.

    ``rows`` are the game's stored actions in order of their numbers; ``head`` the head kept with the game.
    """
    problems: list[str] = []
    previous = seed_hash
    expected_seq = 1
    for row in rows:
        if row.seq != expected_seq:
            gap = "missing" if row.seq > expected_seq else "repeated"
            problems.append(
                f"action #{row.seq} follows #{expected_seq - 1}: action number(s) {gap} (a row was deleted or inserted)"
            )
        expected_seq = row.seq + 1
        own_events = events_hash(row.events)
        if row.events_hash != own_events:
            problems.append(f"action #{row.seq} ({row.seat} {row.verb}): its events differ from the ones chained")
        recomputed = link(previous, row.seq, row.seat, row.user_id, row.verb, row.args, row.events_hash or "")
        if row.chain != recomputed:
            problems.append(
                f"action #{row.seq} ({row.seat} {row.verb}): broken link (the action, or the one before it, was "
                "changed, inserted or deleted)"
            )
        previous = row.chain or recomputed
    if head is not None and head != previous:
        problems.append(
            f"the chain's head kept with the game ({head[:16]}) is not the last action's ({previous[:16]}): "
            "actions were deleted or added at the end"
        )
    return problems


def head_of(seed_hash: str, rows: Sequence[StoredLink]) -> str:
    """The chain head of a log, recomputed from scratch (the seed hash when there is no action)."""
    previous = seed_hash
    for row in rows:
        previous = link(previous, row.seq, row.seat, row.user_id, row.verb, row.args, events_hash(row.events))
    return previous
