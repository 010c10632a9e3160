"""The hash-chained log and a verification that says exactly what was tampered with, and never crashes."""

from __future__ import annotations

import json
from pathlib import Path

import aiosqlite
import pytest

from bot.commands.layer import CommandLayer
from bot.service.game_service import GameService, Refusal
from bot.store import chain
from bot.store.records import GameRow
from bot.store.sqlite import MIGRATIONS, SqliteStore
from tests.bot.conftest import BLUE, CHANNEL, MOD, RED, ctx, started
from tests.bot.doubles import duel_systems


async def finished_game(service: GameService) -> GameRow:
    """A Duel game with sealed bids, three rolls and a resignation: over, its seed revealed."""
    await started(service)
    for _ in range(3):
        await service.act(CHANNEL, RED, "roll", {})
    await service.resign(CHANNEL, BLUE)
    game = (await service.table(CHANNEL, live=False)).game
    assert not game.live
    return game


async def tamper(store: SqliteStore, sql: str, *params: object) -> None:
    async with store.transaction() as db:
        await db.execute(sql, params)


async def test_each_action_is_chained_to_the_one_before_and_the_head_is_kept_with_the_game(
    service: GameService,
) -> None:
    game = await finished_game(service)
    rows = await service.store.actions(game.id, include_undone=True)
    receipts = {s.seq: s.receipt for s in await service.store.secrets(game.id)}
    previous = game.seed_hash
    for row in rows:
        assert row.events_hash == chain.events_hash(row.events)
        record = chain.action_record(row.rules, row.draws, receipts.get(row.seq))
        assert row.chain == chain.link(
            previous, row.seq, row.seat, row.user_id, row.verb, row.args, row.events_hash or "", record
        )
        previous = row.chain  # (no undo in this game)
    assert game.chain_head == previous
    checked = await service.verify(game.id)
    _, rolls, problems = checked.game, checked.rolls, checked.problems
    assert rolls == 3 and problems == []


async def test_the_head_is_posted_at_the_end_with_the_seed(service: GameService) -> None:
    layer = CommandLayer(service, "duel")
    await started(service)
    asked = await layer.run("game resign", ctx(BLUE), {})
    replies = await layer.press(asked[0].buttons[0].custom_id, ctx(BLUE))  # Confirm
    game = (await service.table(CHANNEL, live=False)).game
    over = next(r.text for r in replies if "Game over" in r.text)
    assert game.seed in over and f"chain head is `{game.chain_head}`" in over


async def test_a_changed_seed_is_reported_never_a_crash(service: GameService) -> None:
    layer = CommandLayer(service, "duel")
    game = await finished_game(service)
    for digit in "123456789":  # a seed whose dice all happen to equal the logged ones is tried past
        await tamper(service.store, "UPDATE games SET seed = ? WHERE id = ?", digit * 64, game.id)
        problems = (await service.verify(game.id)).problems
        assert problems[0] == "the revealed seed does not match the hash published at the game's creation"
        if any("a die" in p and "but the seed gives" in p for p in problems):
            break
    else:
        raise AssertionError(f"no changed die was named: {problems}")
    replies = await layer.run("game verify", ctx(BLUE), {})
    assert replies[0].text.startswith("Verification FAILED") and "seed does not match" in replies[0].text
    await tamper(service.store, "UPDATE games SET seed = 'not hex' WHERE id = ?", game.id)
    problems = (await service.verify(game.id)).problems
    assert problems == ["the revealed seed is not hexadecimal: it cannot be the game's seed"]


async def test_changed_arguments_break_the_link_and_the_rules_refuse_the_action(service: GameService) -> None:
    game = await finished_game(service)
    await tamper(service.store, "UPDATE actions SET args = ? WHERE game = ? AND seq = 1", '{"amount": 9}', game.id)
    problems = (await service.verify(game.id)).problems
    assert "action #1 (red bid): broken link (the action, or the one before it, was changed" in problems[0]
    refused = "action #1 (red bid) is refused by the rules it was played under (version 1): "
    assert any(p.startswith(refused) for p in problems), problems
    assert len([p for p in problems if "broken link" in p]) == 1  # the next links still hold: one place named


async def test_a_changed_event_is_named(service: GameService) -> None:
    game = await finished_game(service)
    rows = await service.store.actions(game.id)
    events = [dict(e) for e in rows[2].events]
    events[0]["text"] = "Red rolls a 6."
    await tamper(service.store, "UPDATE actions SET events = ? WHERE game = ? AND seq = 3", json.dumps(events), game.id)
    problems = (await service.verify(game.id)).problems
    assert "action #3 (red roll): its events differ from the ones chained" in problems
    assert not any("event 1" in p for p in problems)  # the rules replay compares data, never wording


async def test_a_deleted_row_in_the_middle_or_at_the_end_is_found(service: GameService) -> None:
    game = await finished_game(service)
    await tamper(service.store, "DELETE FROM actions WHERE game = ? AND seq = 5", game.id)  # the last one
    problems = (await service.verify(game.id)).problems
    last = (await service.store.actions(game.id))[-1].chain
    assert problems == [
        f"the chain's head kept with the game ({str(game.chain_head)[:16]}) is not the one its log gives "
        f"({str(last)[:16]}): actions or undos were deleted, added or changed at the end"
    ]
    await tamper(service.store, "DELETE FROM actions WHERE game = ? AND seq = 3", game.id)
    problems = (await service.verify(game.id)).problems
    assert any("action #4 follows #2: action number(s) missing" in p for p in problems), problems
    assert any(p.startswith("action #4 (red roll): broken link") for p in problems)


async def test_undos_are_chained_and_an_undone_mark_changed_by_hand_is_found(service: GameService) -> None:
    await started(service)
    await service.act(CHANNEL, RED, "advance", {"steps": 1})
    await service.undo(CHANNEL, RED)
    await service.act(CHANNEL, RED, "advance", {"steps": 2})
    await service.act(CHANNEL, RED, "roll", {})
    await service.correct(CHANNEL, MOD, 2, "misclick")
    await service.act(CHANNEL, RED, "advance", {"steps": 3})
    await service.resign(CHANNEL, BLUE)
    game = (await service.table(CHANNEL, live=False)).game
    rows = await service.store.actions(game.id, include_undone=True)
    assert [(r.seq, r.undone_after) for r in rows if r.undone] == [(3, 3), (4, 5), (5, 5)]
    problems = (await service.verify(game.id)).problems
    assert problems == []
    await tamper(service.store, "UPDATE actions SET undone = 0 WHERE game = ? AND seq = 3", game.id)
    problems = (await service.verify(game.id)).problems
    assert "action #3 (red advance) was taken back, but is marked as standing" in problems
    await tamper(
        service.store, "UPDATE actions SET undone = 0, undone_after = NULL WHERE game = ? AND seq = 3", game.id
    )
    problems = (await service.verify(game.id)).problems
    assert problems[0].startswith("action #4 (red advance): broken link"), problems  # the undo after #3 is gone
    await tamper(service.store, "UPDATE actions SET undone = 1 WHERE game = ? AND seq = 6", game.id)
    problems = (await service.verify(game.id)).problems
    assert "action #6 (red advance) is marked undone, but no undo was chained" in problems


async def test_an_inserted_row_is_found(service: GameService) -> None:
    game = await finished_game(service)
    await tamper(
        service.store,
        "INSERT INTO actions (game, seq, seat, user_id, verb, args, events, time, events_hash, chain) "
        "VALUES (?, 6, 'red', ?, 'roll', '{}', '[]', 0, ?, 'forged')",
        game.id,
        RED.user_id,
        chain.events_hash([]),
    )
    problems = (await service.verify(game.id)).problems
    assert any(p.startswith("action #6 (red roll): broken link") for p in problems), problems
    assert any("head kept with the game" in p for p in problems)


async def test_a_log_so_broken_it_does_not_parse_as_events_is_still_reported(service: GameService) -> None:
    game = await finished_game(service)
    await tamper(service.store, "UPDATE actions SET events = '[1, \"x\"]' WHERE game = ? AND seq = 3", game.id)
    problems = (await service.verify(game.id)).problems
    assert any("action #3 (red roll): its events differ" in p for p in problems)
    assert any(p.startswith("action #3 (red roll): event 1 was announced as '1'") for p in problems), problems


async def test_the_migration_chains_the_logs_of_older_games(tmp_path: Path) -> None:
    path = tmp_path / "version1.sqlite3"
    async with aiosqlite.connect(path) as db:  # a file as version 1 left it, with a finished game
        await db.executescript(str(MIGRATIONS[0]) + "; PRAGMA user_version=1;")
        seed = bytes(32)
        from engine.dice import commitment

        await db.execute(
            "INSERT INTO games (guild, channel, system, scenario, seed, seed_hash, status, creator, created, updated) "
            "VALUES (1, ?, 'duel', 'standard', ?, ?, 'abandoned', 11, 0, 0)",
            (CHANNEL, seed.hex(), commitment(seed)),
        )
        for seq, (seat, user, amount) in enumerate((("red", 11, 2), ("blue", 22, 1)), 1):
            events = [{"kind": "bid", "text": f"{seat} bids.", "data": {"amount": amount}, "secret_to": [seat]}]
            await db.execute(
                "INSERT INTO actions (game, seq, seat, user_id, verb, args, events, time) VALUES (1, ?, ?, ?, 'bid', "
                "?, ?, 0)",
                (seq, seat, user, json.dumps({"amount": amount}), json.dumps(events)),
            )
        await db.execute(  # an action taken back before the file was migrated
            "INSERT INTO actions (game, seq, seat, user_id, verb, args, events, time, undone) VALUES (1, 3, 'red', "
            "11, 'advance', '{\"steps\": 1}', '[]', 0, 1)"
        )
        await db.commit()
    store = await SqliteStore.open(path)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        game = await store.game(1)
        assert game is not None
        rows = await store.actions(1)
        assert all(r.chain and r.events_hash for r in rows) and rows[-1].seq == 2
        undone = (await store.actions(1, include_undone=True))[-1]
        assert undone.undone and undone.undone_after == 3
        assert game.chain_head == chain.undo_link(str(undone.chain), 3)
        problems = (await GameService(store, duel_systems()).verify(1)).problems
        assert [p for p in problems if "chain" in p or "link" in p] == []
    finally:
        await store.close()


async def test_a_row_edited_into_text_that_is_not_json_is_reported(service: GameService) -> None:
    game = await finished_game(service)
    await tamper(service.store, "UPDATE actions SET args = '{oops' WHERE game = ? AND seq = 2", game.id)
    problems = (await service.verify(game.id)).problems
    assert len(problems) == 1 and problems[0].startswith("the stored log is not readable")


async def test_a_setup_edited_into_junk_is_reported_with_a_sentence(service: GameService) -> None:
    game = await finished_game(service)
    await tamper(service.store, "UPDATE games SET scenario = 'nowhere' WHERE id = ?", game.id)
    problems = (await service.verify(game.id)).problems
    assert problems[-1].startswith("the game's setup does not load: ")
    await tamper(service.store, "UPDATE games SET options = '{junk' WHERE id = ?", game.id)
    with pytest.raises(Refusal, match=f"the stored setup of game #{game.id} is not readable"):
        await service.verify(game.id)


def _reference_check_and_points(
    seed_hash: str, rows: list[chain.StoredLink], head: str | None
) -> tuple[list[str], dict[str, str]]:
    """The check and the points as two separate walks of the log (as they were before one pass did both): the
    check links each action to the stored chain so far, the points to the chain recomputed from actions alone."""
    undos: dict[int, list[int]] = {}
    for row in rows:
        if row.undone_after is not None:
            undos.setdefault(row.undone_after, []).append(row.seq)
    found = {seed_hash: "at the game's creation"}
    previous = seed_hash
    pending = {k: list(v) for k, v in undos.items()}
    for row in rows:
        previous = chain.link(
            previous, row.seq, row.seat, row.user_id, row.verb, row.args, chain.events_hash(row.events), row.record
        )
        found[previous] = f"after action #{row.seq}"
        for undone in chain.undo_order(pending.pop(row.seq, [])):
            previous = chain.undo_link(previous, undone)
            found[previous] = f"after taking back #{undone}"
    found.pop(previous, None)
    found[previous] = "the log's head"
    broken = []
    stored = seed_hash
    for row in rows:
        recomputed = chain.link(
            stored, row.seq, row.seat, row.user_id, row.verb, row.args, row.events_hash or "", row.record
        )
        if row.chain != recomputed or row.events_hash != chain.events_hash(row.events):
            broken.append(row.seq)
        stored = row.chain or recomputed
        for undone in chain.undo_order(undos.pop(row.seq, [])):
            stored = chain.undo_link(stored, undone)
    problems = [p for p in chain.check(seed_hash, rows, head) if "action number" not in p and "undone" not in p]
    assert bool(broken) == any("differ" in p or "broken link" in p for p in problems)
    assert (head is not None and head != stored) == any("head kept" in p for p in problems)
    return chain.check(seed_hash, rows, head), found


def test_the_check_and_the_points_in_one_pass_agree_with_two_walks_on_tampered_logs() -> None:
    """The chain's check and its points are computed in one walk of the log (verify's cost, issue 37); on random
    logs with undos, tampered in every way (events, stored hashes, arguments, deleted or repeated rows, undone
    marks), the points are those recomputed from the actions alone and the check finds what the stored chain
    says."""
    import random
    from dataclasses import replace

    rng = random.Random(37)
    for trial in range(200):
        seed_hash = f"{trial:064x}"
        rows: list[chain.StoredLink] = []
        previous = seed_hash
        taken_back: list[tuple[int, int]] = []
        for seq in range(1, rng.randint(2, 12)):
            events = [{"kind": "moved", "n": rng.randint(0, 3)}]
            args = {"to": rng.randint(0, 9)}
            record = chain.action_record(1, [{"die": rng.randint(1, 6)}], None)
            hashed = chain.events_hash(events)
            previous = chain.link(previous, seq, "blue", 1, "move", args, hashed, record)
            rows.append(chain.StoredLink(seq, "blue", 1, "move", args, events, hashed, previous, record=record))
            if seq > 1 and rng.random() < 0.2:
                previous = chain.undo_link(previous, seq - 1)
                taken_back.append((seq - 1, seq))
        for undone, after in taken_back:
            rows[undone - 1] = replace(rows[undone - 1], undone=True, undone_after=after)
        head: str | None = previous
        for _ in range(rng.randint(0, 2)):
            where = rng.randrange(len(rows))
            row = rows[where]
            kind = rng.choice(["events", "hash", "args", "chain", "delete", "repeat", "undone", "head"])
            if kind == "events":
                rows[where] = replace(row, events=[{"kind": "moved", "n": 9}])
            elif kind == "hash":
                rows[where] = replace(row, events_hash=None)
            elif kind == "args":
                rows[where] = replace(row, args={"to": 99})
            elif kind == "chain":
                rows[where] = replace(row, chain="0" * 64)
            elif kind == "delete" and len(rows) > 1:
                del rows[where]
            elif kind == "repeat":
                rows.insert(where, row)
            elif kind == "undone":
                rows[where] = replace(row, undone=not row.undone)
            else:
                head = rng.choice([None, "f" * 64])
        expected = _reference_check_and_points(seed_hash, rows, head)
        assert chain.walk(seed_hash, rows, head) == expected
        assert list(chain.points(seed_hash, rows).items()) == list(expected[1].items())
