"""The hash chain of a game's action log: tampering with a stored action shows.

Each stored action carries two hashes: ``events_hash``, the SHA-256 of its events, and ``chain``, the SHA-256
of the chain so far (for the first action: the seed hash published at the game's creation) together with the
action itself (number, seat, user, verb, arguments) and its ``events_hash``. An undo is chained too: taking
back action ``n`` makes the chain so far ``SHA-256(canonical([chain, "undo", n]))``, and the undone action
records after which action it was taken back (``undone_after``). The game keeps the chain so far as its head,
posted in the channel with the seed when the game ends. Changing an action's arguments or events, deleting
or inserting a row, marking an action undone or live, or changing the seed all break the chain somewhere,
and :func:`check` says where.

Since schema version 7 an action also records the rules version it was applied under and the dice it drew
(:class:`engine.dice.Draw`), and a sealed decision's receipt when it carries one: these are chained too, as a
last element of the linked body (:func:`link`'s ``record``), so an action stored before them keeps its hash.

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
    previous: str,
    seq: int,
    seat: str,
    user_id: int | None,
    verb: str,
    args: Mapping[str, Any],
    events: str,
    record: Mapping[str, Any] | None = None,
) -> str:
    """The chain hash of one action, given the chain so far (the seed hash, before the first action);
    ``record`` is what the action records beside its events since version 7 (:func:`action_record`)."""
    parts: list[Any] = [previous, seq, seat, user_id, verb, dict(args), events]
    if record is not None:
        parts.append(dict(record))
    return hashlib.sha256(canonical(parts).encode()).hexdigest()


def action_record(
    rules: int | None, draws: Sequence[Mapping[str, Any]] | None, receipt: str | None
) -> dict[str, Any] | None:
    """What an action records beside its events, as chained: its rules version, the dice it drew and the receipt
    of the sealed decision it carries (``None`` for an action stored before version 7, which records none)."""
    if rules is None:
        return None
    record: dict[str, Any] = {"rules": rules, "draws": [dict(d) for d in draws or ()]}
    if receipt is not None:
        record["receipt"] = receipt
    return record


def undo_link(previous: str, seq: int) -> str:
    """The chain so far once action ``seq`` is taken back."""
    return hashlib.sha256(canonical([previous, "undo", seq]).encode()).hexdigest()


def undo_order(seqs: Sequence[int]) -> list[int]:
    """The order in which actions taken back together are chained: the latest first."""
    return sorted(seqs, reverse=True)


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
    undone: bool = False
    undone_after: int | None = None
    """The last action number when this one was taken back (``None`` while it stands)."""
    record: Mapping[str, Any] | None = None
    """What the action records beside its events (:func:`action_record`; ``None`` before version 7)."""


def check(seed_hash: str, rows: Sequence[StoredLink], head: str | None) -> list[str]:
    """Every place the stored chain disagrees with the actions, one sentence each; empty when it holds.

    ``rows`` are the game's stored actions in order of their numbers; ``head`` the head kept with the game.
    """
    return walk(seed_hash, rows, head)[0]


def points(seed_hash: str, rows: Sequence[StoredLink]) -> dict[str, str]:
    """Every head the chain passed through, recomputed from the actions (hash to where: ``after action #n`` or
    ``after taking back #n``), in order: the last is the head the log gives. A head posted in the channel must be
    one of them, or the log was changed after it was posted."""
    return walk(seed_hash, rows, None)[1]


def walk(seed_hash: str, rows: Sequence[StoredLink], head: str | None) -> tuple[list[str], dict[str, str]]:
    """:func:`check` and :func:`points` in one pass over the log: each action's hashes are computed once when
    the stored chain holds (the check links each action to the stored chain so far, the points to the chain
    recomputed from the actions alone: the two agree until something was changed)."""
    problems: list[str] = []
    undos: dict[int, list[int]] = {}
    for row in rows:
        if row.undone_after is not None:
            undos.setdefault(row.undone_after, []).append(row.seq)
        if row.undone and row.undone_after is None:
            problems.append(f"action #{row.seq} ({row.seat} {row.verb}) is marked undone, but no undo was chained")
        if not row.undone and row.undone_after is not None:
            problems.append(f"action #{row.seq} ({row.seat} {row.verb}) was taken back, but is marked as standing")
    found: dict[str, str] = {seed_hash: "at the game's creation"}
    previous = recomputed_so_far = seed_hash
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
        recomputed = link(
            previous, row.seq, row.seat, row.user_id, row.verb, row.args, row.events_hash or "", row.record
        )
        if row.chain != recomputed:
            problems.append(
                f"action #{row.seq} ({row.seat} {row.verb}): broken link (the action, or the one before it, was "
                "changed, inserted or deleted)"
            )
        if recomputed_so_far == previous and row.events_hash == own_events:
            recomputed_so_far = recomputed  # the same link from the same chain: no need to hash it twice
        else:
            recomputed_so_far = link(
                recomputed_so_far, row.seq, row.seat, row.user_id, row.verb, row.args, own_events, row.record
            )
        found[recomputed_so_far] = f"after action #{row.seq}"
        previous = row.chain or recomputed
        for undone in undo_order(undos.pop(row.seq, [])):
            same = recomputed_so_far == previous
            previous = undo_link(previous, undone)
            recomputed_so_far = previous if same else undo_link(recomputed_so_far, undone)
            found[recomputed_so_far] = f"after taking back #{undone}"
    if head is not None and head != previous:
        problems.append(
            f"the chain's head kept with the game ({head[:16]}) is not the one its log gives ({previous[:16]}): "
            "actions or undos were deleted, added or changed at the end"
        )
    found.pop(recomputed_so_far, None)
    found[recomputed_so_far] = "the log's head"
    return problems, found
