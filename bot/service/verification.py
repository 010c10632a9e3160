"""Checking a game after its end (``game verify``, ``umpire verify``): the revealed seed against its published
hash, the log's hash chain, and every action replayed with every die recomputed from the seed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.service.game_types import SystemAdapter
from bot.store import chain
from bot.store.records import ActionRow, GameRow
from engine.contract import Action
from engine.dice import commitment


def verify_game(system: SystemAdapter, game: GameRow, rows: Sequence[ActionRow]) -> tuple[GameRow, int, list[str]]:
    """(the game, how many rolls were recomputed, the problems found: none when everything holds)."""
    from engine.dice import verify as verify_rolls

    problems: list[str] = []
    try:
        seed = bytes.fromhex(game.seed)
    except ValueError:
        return game, 0, ["the revealed seed is not hexadecimal: it cannot be the game's seed"]
    if commitment(seed) != game.seed_hash:
        problems.append("the revealed seed does not match the hash published at the game's creation")
    links = [
        chain.StoredLink(
            r.seq, r.seat, r.user_id, r.verb, r.args, r.events, r.events_hash, r.chain, r.undone, r.undone_after
        )
        for r in rows
    ]
    problems += chain.check(game.seed_hash, links, game.chain_head)
    try:
        state = system.new_game(game.scenario, game.options, seed)
    except Exception as error:  # tampered setup: say so, never crash
        return game, 0, [*problems, f"the game's setup does not load: {error}"]
    rolls = 0
    recorded: list[tuple[int, int, int]] = []
    for row in rows:
        if row.undone:
            continue
        try:
            state, events = system.apply(state, Action(row.seat, row.verb, row.args))
        except Exception as error:  # a refused or broken action: report and stop, the rest cannot replay
            reason = getattr(error, "reason", str(error))
            problems.append(
                f"action #{row.seq} ({row.seat} {row.verb}) is refused by the rules on replay: {reason}; "
                "the replay stops there"
            )
            break
        again = json.loads(json.dumps([e.to_json() for e in events]))
        rolls += sum(1 for e in again if e["kind"] == "roll" or {"die", "dice"} & set(e["data"]))
        recorded += [
            (int(e["data"]["number"]), int(e["data"].get("sides", 6)), int(e["data"]["die"]))
            for e in (row.events if isinstance(row.events, list) else [])
            if isinstance(e, dict)
            and e.get("kind") == "roll"
            and isinstance(e.get("data"), dict)
            and {"number", "die"} <= set(e["data"])
            and all(isinstance(e["data"].get(k, 6), int) for k in ("number", "die", "sides"))
        ]
        if again != row.events:
            problems.append(difference(row, again))
    try:
        problems += verify_rolls(game.seed, game.seed_hash, recorded)
    except (ValueError, TypeError) as error:
        problems.append(f"the recorded rolls cannot be checked: {error}")
    return game, rolls, list(dict.fromkeys(problems))


def difference(row: ActionRow, again: list[dict[str, Any]]) -> str:
    """What differs between an action's recorded events and the replay's, in one sentence."""
    head = f"action #{row.seq} ({row.seat} {row.verb})"
    if not isinstance(row.events, list):
        return f"{head}: the events announced are not a list of events"
    for index, (told, replayed) in enumerate(zip(row.events, again, strict=False), 1):
        if told == replayed:
            continue
        data = told.get("data") if isinstance(told, dict) else None
        was = (data or {}).get("die", (data or {}).get("dice")) if isinstance(data, dict) else None
        now = replayed["data"].get("die", replayed["data"].get("dice"))
        if now is not None and was is not None and was != now:
            rule = replayed["data"].get("rule") or replayed.get("rule") or ""
            about = f" ({rule})" if rule else ""
            return f"{head}: a die{about} was announced as {was} but the seed gives {now}"
        text = str(told.get("text", told) if isinstance(told, dict) else told)[:80]
        return f"{head}: event {index} was announced as {text!r} but the replay gives {replayed['text'][:80]!r}"
    return f"{head}: {len(row.events)} event(s) were announced but the replay gives {len(again)}"
