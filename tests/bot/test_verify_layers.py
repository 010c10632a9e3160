"""Verification in layers (bot/service/verification.py): each kind of tampering is reported as a failure with a
sentence, in its layer; an honest game passes; actions under older rules are a note, never a failure."""

from __future__ import annotations

import asyncio
import hashlib
import json
import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from bot.service.game_service import GameService
from bot.service.sealed import sealed_in_events
from bot.service.verification import Verification, _dice_layer, comparable, verify_game
from bot.store.migrations import MIGRATIONS
from bot.store.records import ActionRow
from bot.store.sqlite import SqliteStore
from bot.transports.cli import main
from engine.contract import Event
from engine.dice import Dice, Draw, linked, recording, roll, stream_seed
from engine.sealing import receipt_for, salt_for, secret_dice
from tests.bot.conftest import BLUE, CHANNEL, RED, started
from tests.bot.doubles import Duel, duel_systems
from tests.bot.verify_games import finished_game

DATA = Path(__file__).parent / "data"


async def verified(db_path: Path, heads: tuple[str, ...] = ()) -> Verification:
    store = await SqliteStore.open(db_path)
    try:
        return await GameService(store, duel_systems()).verify(1, heads)
    finally:
        await store.close()


def tamper(db_path: Path, *statements: str) -> None:
    with sqlite3.connect(db_path) as db:
        for statement in statements:
            db.execute(statement)


def layer(checked: Verification, name: str) -> list[str]:
    return next(list(each.problems) for each in checked.layers if each.name == name)


async def test_verify_layers_an_honest_game_holds_in_every_layer(db_path: Path) -> None:
    head = await finished_game(db_path)
    checked = await verified(db_path, (head,))
    assert checked.problems == [] and checked.notes == []
    assert [each.name for each in checked.layers] == ["chain", "dice", "sealed decisions", "rules replay"]
    assert checked.rolls >= 4 and checked.head == head
    assert "2 receipt(s) recomputed" in checked.layers[2].checked  # the two sealed bids


async def test_verify_layers_each_action_keeps_its_rules_version_and_dice(db_path: Path) -> None:
    await finished_game(db_path)
    store = await SqliteStore.open(db_path)
    rows = await store.actions(1)
    game = await store.game(1)
    await store.close()
    assert game is not None and game.rules == Duel.rules_version
    assert all(r.rules == Duel.rules_version for r in rows)
    rolled = [r for r in rows if r.verb == "roll"]
    assert rolled and all(r.draws and r.draws[0]["stream"] == "" for r in rolled)
    assert all(r.draws == [] for r in rows if r.verb != "roll")


async def test_verify_tampering_row_edited(db_path: Path) -> None:
    await finished_game(db_path)
    tamper(db_path, """UPDATE actions SET args = '{"steps": 3}' WHERE seq = 4""")
    problems = layer(await verified(db_path), "chain")
    assert any("action #4" in p and "broken link" in p for p in problems)


async def test_verify_tampering_row_deleted(db_path: Path) -> None:
    await finished_game(db_path)
    tamper(db_path, "DELETE FROM actions WHERE seq = 5")
    problems = layer(await verified(db_path), "chain")
    assert any("a row was deleted or inserted" in p for p in problems)


async def test_verify_tampering_rows_reordered(db_path: Path) -> None:
    await finished_game(db_path)
    tamper(
        db_path,
        "UPDATE actions SET seq = -1 WHERE seq = 4",
        "UPDATE actions SET seq = 4 WHERE seq = 5",
        "UPDATE actions SET seq = 5 WHERE seq = -1",
    )
    problems = layer(await verified(db_path), "chain")
    assert any("action #4" in p and "broken link" in p for p in problems)


async def test_verify_tampering_receipt_changed(db_path: Path) -> None:
    await finished_game(db_path)
    tamper(db_path, "UPDATE secrets SET receipt = '" + "ab" * 32 + "' WHERE id = 1")
    checked = await verified(db_path)
    assert any("is not the hash of the text revealed" in p for p in layer(checked, "sealed decisions"))
    assert any("broken link" in p for p in layer(checked, "chain"))  # the receipt is chained with its action


async def test_verify_tampering_revealed_decision_swapped(db_path: Path) -> None:
    """A sealed answer rewritten with a receipt to match is still caught: it is not the action the log holds."""
    await finished_game(db_path)
    tamper(db_path, "UPDATE secrets SET payload = replace(payload, '\"amount\": 2', '\"amount\": 3') WHERE id = 1")
    with sqlite3.connect(db_path) as db:
        payload = db.execute("SELECT payload FROM secrets WHERE id = 1").fetchone()[0]
    tamper(db_path, f"UPDATE secrets SET receipt = '{hashlib.sha256(payload.encode()).hexdigest()}' WHERE id = 1")
    problems = layer(await verified(db_path), "sealed decisions")
    assert any("is not the action the log holds" in p for p in problems)


async def test_verify_tampering_seed_changed(db_path: Path) -> None:
    await finished_game(db_path)
    tamper(db_path, "UPDATE games SET seed = '" + "11" * 32 + "' WHERE id = 1")
    checked = await verified(db_path)
    assert any("does not match the hash published" in p for p in layer(checked, "chain"))
    assert any("the seed gives" in p for p in layer(checked, "dice"))


async def test_verify_tampering_kept_roll_changed(db_path: Path) -> None:
    await finished_game(db_path)
    with sqlite3.connect(db_path) as db:
        seq, draws = db.execute("SELECT seq, draws FROM actions WHERE verb = 'roll' ORDER BY seq LIMIT 1").fetchone()
    kept = json.loads(draws)
    assert kept[0]["event"] == 1  # the roll is kept with the event it decided: the action's first, its report
    kept[0]["die"] = kept[0]["die"] % 6 + 1
    tamper(db_path, f"UPDATE actions SET draws = '{json.dumps(kept)}' WHERE seq = {seq}")
    problems = layer(await verified(db_path), "dice")
    assert any(f"action #{seq}" in p and "the seed gives" in p for p in problems)
    assert any("which decided event 1 (roll: 'rolled " in p for p in problems), problems


def test_verify_dice_a_kept_roll_names_the_event_it_decided() -> None:
    """Each roll is tied to the first event announced after it that the action reports (issue 37), found by kind
    and text, so a copy of the event (marked for fog of war) still counts; a roll no event followed is not tied."""
    seed = bytes(32)
    with recording() as drawn:
        Event("note", "before any roll")
        first = Dice(seed).d6()
        Event("scratch", "a trial the action does not report")
        told = Event("roll", f"rolled {first}")
        second, third = Dice(seed, 1).two_d6()
        both = Event("roll", f"rolled {second} and {third}")
        Dice(seed, 3).d6()
    reported = [Event("note", "before any roll"), Event(told.kind, told.text, {"hidden_from": ["red"]}), both]
    assert [d.event for d in linked(drawn, reported)] == [2, 3, 3, None]
    assert [d.to_json().get("event") for d in linked(drawn, reported)] == [2, 3, 3, None]
    assert linked([Draw("", 0, 6, 1)], reported) == [Draw("", 0, 6, 1)]  # not a recording: nothing to tie


def test_verify_dice_a_roll_kept_without_its_event_is_still_checked() -> None:
    """A roll kept before rolls were tied to events (no ``event``) is checked as before, its problem without an
    event named; a tie to an event the action does not hold is said so."""
    seed = bytes(32)
    wrong = roll(seed, 0) % 6 + 1
    events = [{"kind": "roll", "text": "rolled", "data": {}, "secret_to": []}]
    plain = ActionRow(game=1, seq=1, seat="red", user_id=None, verb="roll", args={}, events=events, time=0.0,
                      undone=False, draws=[{"stream": "", "number": 0, "sides": 6, "die": wrong}])  # fmt: skip
    layer_, _ = _dice_layer(seed, [plain])
    assert layer_.problems and "decided" not in layer_.problems[0]
    astray = replace(plain, draws=[{"stream": "", "number": 0, "sides": 6, "die": wrong, "event": 4}])
    layer_, _ = _dice_layer(seed, [astray])
    assert "which decided event 4 (not among the action's events)" in layer_.problems[0]


async def test_verify_tampering_head_rewound_against_a_posted_head(db_path: Path) -> None:
    """The last action deleted and the stored head rewound to match: only a head posted in the channel shows it."""
    posted = await finished_game(db_path)
    with sqlite3.connect(db_path) as db:
        last = db.execute("SELECT MAX(seq) FROM actions").fetchone()[0]
        before = db.execute("SELECT hex(chain) FROM actions WHERE seq = ?", (last - 1,)).fetchone()[0].lower()
    tamper(db_path, f"DELETE FROM actions WHERE seq = {last}", f"UPDATE games SET chain_head = '{before}'")
    assert (await verified(db_path)).problems == []  # alone, the database holds together
    problems = layer(await verified(db_path, (posted,)), "chain")
    assert any("posted in the channel is nowhere in the stored log's chain" in p for p in problems)


def test_verify_head_command_line(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.systems.systems", duel_systems)
    posted = asyncio.run(finished_game(db_path))
    assert main(["verify", "1", "--db", str(db_path), "--head", posted]) == 0
    assert main(["verify", "1", "--db", str(db_path), "--head", "0" * 64]) == 1
    assert main(["verify", "1", "--db", str(db_path), "--head", "xyz"]) == 2


def test_verify_replay_compares_events_by_data_not_wording() -> None:
    """The same events in other words agree; other data does not."""
    told = [{"kind": "move", "text": "the tank of HQ VIII moves", "data": {"unit": "u1"}, "secret_to": []}]
    reworded = [{"kind": "move", "text": "HQ VIII moves", "data": {"unit": "u1"}, "secret_to": []}]
    other = [{"kind": "move", "text": "HQ VIII moves", "data": {"unit": "u2"}, "secret_to": []}]
    assert comparable(told) == comparable(reworded) != comparable(other)


def test_verify_dice_secret_streams_are_kept_and_recomputed() -> None:
    """A secret stream's draws name their stream, so they are recomputed from the seed alone after the end."""
    seed = bytes(range(32))
    with recording() as drawn:
        public = Dice(seed).d6()
        hidden = secret_dice(seed, "german", 0).d6()
    assert [d.stream for d in drawn] == ["", "asl-secret-dice:german"]
    assert drawn[0].value == public == roll(seed, 0)
    assert drawn[1].value == hidden == roll(stream_seed(seed, "asl-secret-dice:german"), 0)


def test_verify_own_sealed_decisions_receipts_recomputed() -> None:
    """A system's own sealed decision (ASL, the Wargame Commander) is checked from its sealed and reveal events."""
    seed = bytes(32)
    salt = salt_for(seed, "wc:WC1")
    content = {"a": 1}
    sealed = {
        "kind": "sealed",
        "text": "",
        "data": {"secret": "WC1", "owner": "allied", "receipt": receipt_for(content, salt)},
    }

    def reveal(shown: object) -> dict[str, object]:
        return {"kind": "reveal", "text": "", "data": {"secret": "WC1", "content": shown, "salt": salt}}

    def rows(shown: object) -> list[ActionRow]:
        return [
            ActionRow(1, 1, "allied", 1, "basing", {}, [sealed], 0.0, False),
            ActionRow(1, 2, "german", 2, "basing", {}, [reveal(shown)], 0.0, False),
        ]

    from bot.store.records import GameRow
    from bot.systems.wargame_commander.adapter import WargameCommanderAdapter
    from engine.dice import commitment

    decisions = sealed_in_events(rows(content))
    assert [(d.id, d.sealed_at, d.revealed_at) for d in decisions] == [("WC1", 1, 2)]
    adapter = WargameCommanderAdapter()
    game = GameRow(1, 1, 1, "wargame-commander", adapter.scenarios[0], {}, seed.hex(), commitment(seed), "finished",
                   {}, 0, None, None, 0.0, 0.0)  # fmt: skip
    honest = verify_game(adapter, game, rows(content))
    assert layer(honest, "sealed decisions") == []
    forged = verify_game(adapter, game, rows({"a": 2}))
    assert any("does not give the receipt posted at the sealing" in p for p in layer(forged, "sealed decisions"))


async def test_verify_older_commit_database_opens_plays_on_and_verifies_under_older_rules(tmp_path: Path) -> None:
    """A database written by an older commit (tests/bot/data/make_older_commit.py): it migrates, its finished games
    verify with the "older rules" note (exit 0), and its live game plays on under the current rules."""
    from bot.systems import systems

    path = tmp_path / "older.sqlite3"
    shutil.copy(DATA / "older_commit.sqlite3", path)
    store = await SqliteStore.open(path, check=True)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        service = GameService(store, systems())
        for game_id in (1, 2, 3):
            checked = await service.verify(game_id)
            assert checked.problems == [], checked.problems
            assert len(checked.notes) == 1 and "played under rules 0" in checked.notes[0]
            assert "dice, secrets and chain checked; rules replay not possible with this version" in checked.notes[0]
        live = await store.game(4)
        assert live is not None and live.status == "active" and live.rules is None
        channel = live.channel
        for _ in range(3):
            table = await service.table(channel)
            prompts = await service.prompts(table.game)
            seat, prompt = next((s, p) for s, p in prompts.items() if p.choices)
            player = next(u for u in table.seats.values() if u.seat == seat)
            from bot.service.game_types import Caller

            choice = prompt.choices[0]
            await service.act(channel, Caller(int(player.user_id or 0)), choice.verb, dict(choice.args), seat=seat)
        table = await service.table(channel)
        seated = next(u for u in table.seats.values() if u.user_id is not None)
        from bot.service.game_types import Caller

        await service.resign(channel, Caller(int(seated.user_id or 0)))
        rows = await store.actions(4)
        assert [r.rules for r in rows[-3:]] == [service.system("ardennes44").rules_version] * 3
        checked = await service.verify(4)
        assert checked.problems == []
        now = service.system("ardennes44").rules_version
        assert f"actions #1 to #33 (3 of them under rules {now}, after those): played under rules 0" in checked.notes[0]
    finally:
        await store.close()


def test_verify_older_commit_database_command_line_exit_zero(tmp_path: Path, capsys: object) -> None:
    path = tmp_path / "older.sqlite3"
    shutil.copy(DATA / "older_commit.sqlite3", path)
    assert main(["verify", "2", "--db", str(path)]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "played under rules 0" in out and "PROBLEM" not in out


def test_damaged_file_gives_one_sentence_in_replay_verify_and_local(tmp_path: Path, capsys: object) -> None:
    """`umpire verify` and `umpire replay` check every page, the log's included; `umpire local` makes the
    start-up check `umpire run` makes, of the tables it needs to start (docs/hosting.md)."""
    path = tmp_path / "damaged.sqlite3"
    shutil.copy(DATA / "older_commit.sqlite3", path)
    pages = path.stat().st_size // 4096
    with path.open("r+b") as file:  # a leaf page's first free block pointed into its cells: SQLite reads on
        file.seek(4096 * (pages - 1) + 1)
        file.write(b"\x00\x50")
    for command in (["verify", "1"], ["replay", "1"]):
        assert main([*command, "--db", str(path)]) == 1
    shutil.copy(DATA / "older_commit.sqlite3", path)
    with sqlite3.connect(path) as db:
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()
    with path.open("r+b") as file:  # the same damage in the page of the games' table
        file.seek(4096 * (root - 1) + 1)
        file.write(b"\x00\x50")
    script = tmp_path / "script.txt"
    script.write_text("help\n")
    assert main(["local", "--script", str(script), "--db", str(path), "--no-pictures"]) == 1
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert "Traceback" not in err
    assert err.count(f"cannot use the database {path}") == 3, err


def test_replay_replays_from_the_set_up(db_path: Path, capsys: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """`umpire replay` rebuilds from the set-up, never from a stored snapshot."""
    monkeypatch.setattr("bot.systems.systems", duel_systems)
    asyncio.run(finished_game(db_path))
    assert main(["replay", "1", "--db", str(db_path)]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "actions replayed from the set-up" in out


async def test_verify_head_posted_with_each_turns_map_is_found_in_the_chain(db_path: Path) -> None:
    """The chain's head goes out with the map at a turn's end (a message posted anyway); rewinding the log past it
    fails a verification given that head."""
    from bot.commands.layer import CommandLayer
    from tests.bot.conftest import ctx

    store = await SqliteStore.open(db_path)
    service = GameService(store, duel_systems())
    layer = CommandLayer(service, "duel")
    layer.pictures = False
    await started(service)
    replies = await layer.run("choose", ctx(RED), {"number": 2})  # red ends the turn: the map is posted
    caption = next(r.text for r in replies if r.text.startswith("The map after"))
    game = (await service.table(CHANNEL)).game
    assert game.chain_head is not None and f"Chain head `{game.chain_head[:16]}`" in caption
    posted = game.chain_head[:16]
    await service.act(CHANNEL, BLUE, "roll", {})
    await service.resign(CHANNEL, BLUE)
    assert (await service.verify(1, (posted,))).problems == []
    await store.close()
    with sqlite3.connect(db_path) as db:
        last = db.execute("SELECT MAX(seq) FROM actions").fetchone()[0]
        db.execute(f"DELETE FROM actions WHERE seq >= {last - 1}")
        before = db.execute("SELECT hex(chain) FROM actions ORDER BY seq DESC LIMIT 1").fetchone()[0].lower()
        db.execute(f"UPDATE games SET chain_head = '{before}'")
    assert (await verified(db_path)).problems == []
    assert any("nowhere in the stored log's chain" in p for p in (await verified(db_path, (posted,))).problems)
