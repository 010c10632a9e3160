"""Checking a game after its end (``game verify``, ``umpire verify``), in four layers reported apart:

1. **the chain**: the revealed seed against the hash published at the creation, and the log's hash chain
   (:mod:`bot.store.chain`), with any head posted in the channel, which must be a point of that chain;
2. **the dice**: every roll an action kept (:class:`engine.dice.Draw`) and every roll its events number,
   recomputed from the seed and the roll's number alone, without the rules, so they stay checkable whatever
   the rules become; a kept roll names the event it decided, and a roll that fails is reported with it;
3. **the sealed decisions**: every receipt recomputed from what was revealed, through :mod:`engine.sealing`:
   the answers to secret prompts the service sealed (the store's secrets), and the decisions a system sealed in
   its own events (:meth:`~bot.service.game_types.SystemAdapter.sealed_decisions`);
4. **the rules replay**: the game replayed from the set-up with the rules, comparing each action's events by
   their data (kind, data, to whom they were secret), never by their wording, for the actions played under the
   system's current rules version. A replay starts from the set-up, so it stops at the first action played
   under another version (a game finished before an upgrade, or played across one): from there on this is a
   note, not a problem, since those actions were checked by the three other layers. (Replaying them with rules
   that changed would report an honest game as tampered; starting later would need a state the chain does not
   cover.)

Tampering is always a problem with a sentence saying where; a note never fails a verification.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.service.game_types import SystemAdapter, replay_apply
from bot.store import chain
from bot.store.records import ActionRow, GameRow, SecretRow
from engine.contract import Action
from engine.dice import commitment, roll, stream_seed
from engine.sealing import verify_receipt, verify_sealed_text


@dataclass(frozen=True)
class Layer:
    """One layer of a verification: its name, what it checked (in words), its problems and its notes."""

    name: str
    checked: str
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Verification:
    """A finished game's verification: its layers in order, the rolls recomputed, the chain's head the log gives."""

    game: GameRow
    layers: tuple[Layer, ...]
    rolls: int
    head: str

    @property
    def problems(self) -> list[str]:
        """Every problem of every layer: tampering, or a bug; none when everything holds."""
        return [p for layer in self.layers for p in layer.problems]

    @property
    def notes(self) -> list[str]:
        """What could not be checked, and why (actions under older rules), never a failure."""
        return [n for layer in self.layers for n in layer.notes]


def verify_game(
    system: SystemAdapter,
    game: GameRow,
    rows: Sequence[ActionRow],
    secrets: Sequence[SecretRow] = (),
    posted_heads: Sequence[str] = (),
) -> Verification:
    """Check a finished game in its four layers (see the module docstring); never raises on tampered data.

    ``rows`` are every stored action, undone ones included; ``secrets`` the game's stored sealed answers;
    ``posted_heads`` heads of the chain as posted in the channel (with a map during the game, in full at its end),
    whole or their first digits (at least 16)."""
    try:
        seed = bytes.fromhex(game.seed)
    except ValueError:
        problem = "the revealed seed is not hexadecimal: it cannot be the game's seed"
        return Verification(game, (Layer("chain", "nothing checked without the seed", (problem,)),), 0, "")
    chained, head = _chain_layer(game, seed, rows, secrets, posted_heads)
    dice, rolls = _dice_layer(seed, rows)
    sealed = _secrets_layer(system, rows, secrets)
    replay = _replay_layer(system, game, seed, rows)
    return Verification(game, (chained, dice, sealed, replay), rolls, head)


def _chain_layer(
    game: GameRow, seed: bytes, rows: Sequence[ActionRow], secrets: Sequence[SecretRow], posted: Sequence[str]
) -> tuple[Layer, str]:
    problems: list[str] = []
    if commitment(seed) != game.seed_hash:
        problems.append("the revealed seed does not match the hash published at the game's creation")
    receipts = {s.seq: s.receipt for s in secrets if s.seq is not None}
    links = [
        chain.StoredLink(
            r.seq, r.seat, r.user_id, r.verb, r.args, r.events, r.events_hash, r.chain, r.undone, r.undone_after,
            chain.action_record(r.rules, r.draws, receipts.get(r.seq)),
        )
        for r in rows
    ]  # fmt: skip
    broken, points = chain.walk(game.seed_hash, links, game.chain_head)
    problems += broken
    head = next(reversed(points)) if points else game.seed_hash
    for posted_head in posted:
        wanted = posted_head.lower()
        if not any(point.startswith(wanted) for point in points):
            problems.append(
                f"the head {posted_head[:16]} posted in the channel is nowhere in the stored log's chain: the log was "
                "changed after it was posted (actions deleted, edited or reordered, or the head rewound)"
            )
    undos = sum(1 for r in rows if r.undone)
    checked = f"{len(rows)} action(s) and {undos} undo(s) chained from the published seed hash" + (
        f"; {len(posted)} posted head(s) found in the chain" if posted and not problems else ""
    )
    return Layer("chain", checked, tuple(dict.fromkeys(problems))), head


def _dice_layer(seed: bytes, rows: Sequence[ActionRow]) -> tuple[Layer, int]:
    """Every kept draw and every numbered roll of the events, against the seed (no rules run)."""
    problems: list[str] = []
    checked: set[tuple[str, int, int]] = set()
    seeds: dict[str, bytes] = {}
    for row in rows:
        head = f"action #{row.seq} ({row.seat} {row.verb})"
        for draw in row.draws or []:
            try:
                stream, number, sides, die = str(draw["stream"]), int(draw["number"]), int(draw["sides"]), draw["die"]
            except (KeyError, TypeError, ValueError):
                problems.append(f"{head}: a kept roll is not readable ({str(draw)[:60]})")
                continue
            if stream not in seeds:
                seeds[stream] = stream_seed(seed, stream)
            expected = roll(seeds[stream], number, sides) if sides > 0 else None
            checked.add((stream, number, sides))
            if expected != die:
                which = f"secret stream {stream!r}" if stream else "the public dice"
                problems.append(
                    f"{head}: roll #{number} of {which} (d{sides}){_decided(draw, row.events)} was kept as {die} "
                    f"but the seed gives {expected}"
                )
        for number, sides, die in _numbered_rolls(row.events):
            checked.add(("", number, sides))
            expected = roll(seed, number, sides) if sides > 0 else None
            if expected != die:
                problems.append(
                    f"{head}: roll #{number} (d{sides}) was announced as {die} but the seed gives {expected}"
                )
    kept = sum(1 for r in rows if r.draws is not None)
    words = f"{len(checked)} roll(s) recomputed from the seed and their numbers" + (
        f" ({len(rows) - kept} action(s) from before rolls were kept: their numbered rolls only)"
        if kept < len(rows)
        else ""
    )
    return Layer("dice", words, tuple(dict.fromkeys(problems))), len(checked)


def _decided(draw: Mapping[str, Any], events: Any) -> str:
    """Words naming the event a kept roll decided (:func:`engine.dice.linked`), or nothing for a roll kept without
    its event (before rolls were linked, or followed by none)."""
    place = draw.get("event")
    if not isinstance(place, int) or isinstance(place, bool):
        return ""
    event = events[place - 1] if isinstance(events, list) and 0 < place <= len(events) else None
    if not isinstance(event, Mapping):
        return f", which decided event {place} (not among the action's events)"
    text = str(event.get("text", ""))
    return f", which decided event {place} ({event.get('kind')}: {text[:60]!r})"


def _numbered_rolls(events: Any) -> list[tuple[int, int, Any]]:
    """(number, sides, value) of each event that names its roll's number."""
    found = []
    for event in events if isinstance(events, list) else []:
        data = event.get("data") if isinstance(event, Mapping) else None
        if isinstance(data, Mapping) and {"number", "die"} <= set(data):
            number, sides = data["number"], data.get("sides", 6)
            if isinstance(number, int) and isinstance(sides, int):
                found.append((number, sides, data["die"]))
    return found


def _secrets_layer(system: SystemAdapter, rows: Sequence[ActionRow], secrets: Sequence[SecretRow]) -> Layer:
    problems: list[str] = []
    by_seq = {r.seq: r for r in rows}
    for secret in secrets:
        head = f"sealed decision {secret.id} ({secret.owner}" + (f", action #{secret.seq})" if secret.seq else ")")
        if not verify_sealed_text(secret.payload, secret.receipt):
            problems.append(f"{head}: its receipt {secret.receipt[:16]} is not the hash of the text revealed")
            continue
        action = by_seq.get(secret.seq) if secret.seq is not None else None
        try:
            revealed = json.loads(secret.payload)
        except ValueError:
            problems.append(f"{head}: the revealed text is not JSON")
            continue
        if action is not None and (
            not isinstance(revealed, Mapping)
            or (revealed.get("seat"), revealed.get("verb"), revealed.get("args"))
            != (action.seat, action.verb, action.args)
        ):
            problems.append(f"{head}: the revealed decision is not the action the log holds")
    live = [r for r in rows if not r.undone]
    own = system.sealed_decisions(live)
    waiting = 0
    for decision in own:
        if decision.revealed_at is None or decision.salt is None:
            waiting += 1
            continue
        if not verify_receipt(decision.content, decision.salt, decision.receipt):
            problems.append(
                f"sealed decision {decision.id} ({decision.owner}, sealed at action #{decision.sealed_at}): what "
                f"action #{decision.revealed_at} revealed does not give the receipt posted at the sealing "
                f"({decision.receipt[:16]})"
            )
    checked = f"{len(secrets) + len(own) - waiting} receipt(s) recomputed from what was revealed" + (
        f"; {waiting} sealed decision(s) never revealed (nothing to compare)" if waiting else ""
    )
    return Layer("sealed decisions", checked, tuple(problems))


def comparable(events: Any) -> Any:
    """Events as the replay compares them: kind, data and to whom they were secret, without their wording."""
    if not isinstance(events, list):
        return events
    return [{k: v for k, v in e.items() if k != "text"} if isinstance(e, Mapping) else e for e in events]


def _replay_layer(system: SystemAdapter, game: GameRow, seed: bytes, rows: Sequence[ActionRow]) -> Layer:
    current = system.rules_version
    live = [r for r in rows if not r.undone]
    try:
        state = system.new_game(game.scenario, game.options, seed)
    except Exception as error:  # tampered setup: say so, never crash
        return Layer("rules replay", "nothing replayed", (f"the game's setup does not load: {error}",))
    replayed = 0
    apply = replay_apply(system)  # each state is dropped once the next is made; a refusal stops the replay
    for index, row in enumerate(live):
        if (row.rules or 0) != current:  # the replay starts from the set-up: it cannot pass an older action
            return Layer("rules replay", _replayed(replayed, current), (), (_older(live[index:], current),))
        head = f"action #{row.seq} ({row.seat} {row.verb})"
        try:
            state, events = apply(state, Action(row.seat, row.verb, row.args))
        except Exception as error:  # a refused or broken action: the replay cannot go on
            reason = getattr(error, "reason", str(error))
            problem = f"{head} is refused by the rules it was played under (version {current}): {reason}"
            return Layer("rules replay", _replayed(replayed, current), (f"{problem}; the replay stops there",))
        told, again = comparable(row.events), comparable([e.to_json() for e in events])
        if again != told:  # a tuple is not equal to the list the log read back: compare as stored
            again = comparable(json.loads(json.dumps([e.to_json() for e in events])))
        if again != told:
            problem = _difference(row, again)
            return Layer("rules replay", _replayed(replayed, current), (f"{problem}; the replay stops there",))
        replayed += 1
    return Layer("rules replay", _replayed(replayed, current))


def from_setup(system: SystemAdapter, game: GameRow, rows: Sequence[ActionRow]) -> Any:
    """The state after ``rows`` (the live actions, in order) replayed from the game's set-up (``umpire replay``).

    :raises RulesError: if an action is refused (a log edited by hand, or played under older rules); a row edited
        into arguments the rules cannot read may raise ``LookupError``, ``ValueError`` or ``TypeError``.
    """
    apply = replay_apply(system)
    state = system.new_game(game.scenario, game.options, bytes.fromhex(game.seed))
    for row in rows:
        state, _ = apply(state, Action(row.seat, row.verb, row.args))
    return state


def _replayed(count: int, current: int) -> str:
    return f"{count} action(s) replayed from the set-up with rules {current}, their events agreeing by data"


def _older(rest: Sequence[ActionRow], current: int) -> str:
    """The note for the actions a replay with the current rules cannot reach."""
    first = rest[0]
    older = [r for r in rest if (r.rules or 0) != current]
    versions = sorted({r.rules or 0 for r in older})
    under = " and ".join(str(v) for v in versions) + (" (before rules versions were recorded)" if 0 in versions else "")
    span = f"actions #{first.seq} to #{rest[-1].seq}" if len(rest) > 1 else f"action #{first.seq}"
    after = len(rest) - len(older)
    tail = f" ({after} of them under rules {current}, after those)" if after else ""
    return (
        f"{span}{tail}: played under rules {under}; dice, secrets and chain checked; rules replay not possible "
        f"with this version ({current})"
    )


def _difference(row: ActionRow, again: list[dict[str, Any]]) -> str:
    """Where an action's recorded events and the replay's differ by their data, in one sentence."""
    head = f"action #{row.seq} ({row.seat} {row.verb})"
    told_all = comparable(row.events)
    if not isinstance(told_all, list):
        return f"{head}: the events announced are not a list of events"
    for index, (told, replayed) in enumerate(zip(told_all, again, strict=False), 1):
        if told == replayed:
            continue
        if not isinstance(told, Mapping):
            return f"{head}: event {index} was announced as {str(told)[:40]!r}, which is not an event"
        data = told.get("data")
        was = data.get("die", data.get("dice")) if isinstance(data, Mapping) else None
        now = replayed.get("data", {}).get("die", replayed.get("data", {}).get("dice"))
        if now is not None and was is not None and was != now:
            rule = replayed.get("data", {}).get("rule") or ""
            return f"{head}: a die{f' ({rule})' if rule else ''} was announced as {was} but the seed gives {now}"
        kind = told.get("kind")
        fields = sorted(
            k
            for k in set(data or {}) | set(replayed.get("data", {}))
            if (data or {}).get(k) != replayed.get("data", {}).get(k)
        )
        what = f" (data {', '.join(map(str, fields[:4]))})" if fields else ""
        return f"{head}: event {index} ({kind}) differs from the replay's ({replayed.get('kind')}){what}"
    return f"{head}: {len(told_all)} event(s) were announced but the replay gives {len(again)}"
