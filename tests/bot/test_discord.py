"""Whole games through the real discord.py command tree against the fake Discord (no network)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.service.config import Limits, Settings
from bot.store.sqlite import SqliteStore
from bot.transports.discord_app import UmpireBot
from tests.bot.discord_play import ANN, BOB, CHANNEL, close_fake, dm_to, open_fake, seated
from tests.bot.doubles import duel_systems
from tests.bot.fakediscord import FakeDiscord, FakeFile, FakeUser, answers, posts

EVE = FakeUser(33, "eve")
MOD = FakeUser(99, "mod", moderator=True)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def fake(db_path: Path) -> AsyncIterator[FakeDiscord]:
    opened = await open_fake(db_path)
    yield opened
    await close_fake(opened)


async def test_create_join_start_status(fake: FakeDiscord) -> None:
    sent = await fake.command(ANN, CHANNEL, "game create", scenario="standard")
    assert sent[0].kind == "callback" and sent[0].callback_type == 5 and sent[0].ephemeral  # acknowledged first
    post = posts(sent, CHANNEL)[0]
    assert "Dice commitment" in post.content and post.pings == set()
    sent = await fake.command(ANN, CHANNEL, "game join", seat="red")
    assert answers(sent)[0].content == "You hold the red seat."
    await fake.command(BOB, CHANNEL, "game join")
    sent = await fake.command(BOB, CHANNEL, "game start")
    assert {s.user for s in sent if s.kind == "dm"} == {ANN.id, BOB.id}
    assert all(s.buttons for s in sent if s.kind == "dm")
    sent = await fake.command(EVE, CHANNEL, "game status")
    assert "Seats: red: <@11>, blue: <@22>" in posts(sent)[0].content


async def test_prompts_ping_exactly_the_player_who_must_act(fake: FakeDiscord) -> None:
    start = await seated(fake)
    await fake.click(ANN, dm_to(start, ANN), "2. Bid 2")
    sent = await fake.click(BOB, dm_to(start, BOB), "1. Bid 1")
    prompt = posts(sent, CHANNEL)[-1]
    assert prompt.pings == {ANN.id} and [label for label, _ in prompt.buttons] == ["1. Roll a die", "2. End turn"]
    assert any("Bids revealed" in p.content for p in posts(sent, CHANNEL))
    assert all(s.pings <= {ANN.id} for s in sent)
    sent = await fake.click(ANN, prompt, "2. End turn")
    assert [p for p in posts(sent, CHANNEL) if not p.files][-1].pings == {BOB.id}
    assert posts(sent, CHANNEL)[-1].files == ["map.png"]  # the picture follows everything else


async def test_refusals_say_why_with_the_rule(fake: FakeDiscord) -> None:
    start = await seated(fake)
    await fake.click(ANN, dm_to(start, ANN), "2. Bid 2")
    await fake.click(BOB, dm_to(start, BOB), "1. Bid 1")
    sent = await fake.command(ANN, CHANNEL, "attack", target="moon", attackers="all")
    assert answers(sent)[-1].content == "Refused: You may attack only the line or the flank (rule D.4)."
    assert answers(sent)[-1].ephemeral and not posts(sent)
    sent = await fake.command(EVE, CHANNEL, "act", verb="roll")
    assert "only a seated player acts for a side" in answers(sent)[-1].content


async def test_stale_and_foreign_buttons_are_refused_politely(fake: FakeDiscord) -> None:
    start = await seated(fake)
    sent = await fake.click(BOB, dm_to(start, ANN), "2. Bid 2")
    assert [s.content for s in sent if s.kind == "callback"] == ["Only the red player may answer this."]
    await fake.click(ANN, dm_to(start, ANN), "2. Bid 2")
    again = await fake.click(ANN, dm_to(start, ANN), "2. Bid 2")
    assert "earlier position" in answers(again)[-1].content


async def test_closed_dms_are_announced_without_revealing_anything(fake: FakeDiscord) -> None:
    fake.closed_dms.add(BOB.id)
    start = await seated(fake)
    notice = next(p for p in posts(start, CHANNEL) if "cannot send you direct messages" in p.content)
    assert notice.pings == {BOB.id} and "Bid" not in notice.content
    private = await fake.click(BOB, notice, "Answer privately")
    answer = answers(private)[-1]
    assert answer.ephemeral and [label for label, _ in answer.buttons] == ["1. Bid 1", "2. Bid 2", "3. Bid 3"]


async def test_a_restart_keeps_games_and_buttons_working(db_path: Path) -> None:
    first = await open_fake(db_path)
    start = await seated(first)
    old_dm = dm_to(start, BOB)
    await first.click(ANN, dm_to(start, ANN), "3. Bid 3")
    await close_fake(first)
    second = await open_fake(db_path)
    try:
        sent = await second.click(BOB, old_dm, "1. Bid 1")
        assert any("Bids revealed: red 3, blue 1" in p.content for p in posts(sent, CHANNEL))
        sent = await second.command(ANN, CHANNEL, "game status")
        assert "to move: red" in posts(sent)[0].content
    finally:
        await close_fake(second)


async def test_concurrent_clicks_apply_once(fake: FakeDiscord) -> None:
    start = await seated(fake)
    await fake.click(ANN, dm_to(start, ANN), "2. Bid 2")
    sent = await fake.click(BOB, dm_to(start, BOB), "1. Bid 1")
    prompt = posts(sent, CHANNEL)[-1]
    for _ in range(6):
        fake.bot._connection.parse_interaction_create(fake.click_payload(ANN, prompt, "1. Roll a die"))  # type: ignore[arg-type]
    await fake.settle()
    table = await fake.bot.service.table(CHANNEL)
    assert [a.verb for a in await fake.bot.service.store.actions(table.game.id)] == ["bid", "bid", "roll"]
    refusals = [s for s in fake.sent if s.kind == "followup" and "earlier position" in s.content]
    assert len(refusals) == 5


def wire(kind: str, junk: object) -> object:
    """Junk as Discord could deliver it for an option of this kind."""
    if kind in ("integer", "number"):
        return junk if isinstance(junk, int | float) and not isinstance(junk, bool) else -7
    if kind == "boolean":
        return bool(junk)
    if kind == "user":
        return str(junk) if str(junk).isdigit() else "123456789"
    if kind == "attachment":  # Discord delivers a file it received: its content is the junk
        return FakeFile("junk.toml", ("" if junk is None else str(junk)).encode("utf-8", "replace"))
    return "" if junk is None else str(junk)


async def test_junk_in_every_option_changes_nothing_and_never_fails(fake: FakeDiscord) -> None:
    from bot.commands.layer import COMMANDS
    from tests.bot.command_junk import JUNK

    start = await seated(fake)
    await fake.click(ANN, dm_to(start, ANN), "2. Bid 2")
    await fake.click(BOB, dm_to(start, BOB), "1. Bid 1")
    table = await fake.bot.service.table(CHANNEL)
    safe = {"game resign", "mod abandon", "game leave", "game undo", "game start", "end-activation", "pass"}
    for command in COMMANDS:
        if not command.options or command.name in safe:
            continue
        for junk in JUNK:
            # Discord checks an option's type on the wire (a number option carries a number), not its meaning.
            options = {o.name: wire(o.kind, junk) for o in command.options}
            sent = await fake.command(ANN, CHANNEL, command.name, **options)
            assert sent and sent[0].kind == "callback", command.name  # acknowledged
            assert answers(sent), (command.name, junk)  # and answered
            assert not any("went wrong" in s.content for s in sent), (command.name, junk)
            for option in command.options:
                if option.autocomplete:
                    await fake.autocomplete(ANN, CHANNEL, command.name, option.name, **options)
    after = await fake.bot.service.table(CHANNEL)
    assert after.game.revision == table.game.revision
    assert len(await fake.bot.service.store.actions(table.game.id, include_undone=True)) == 2


async def test_undo_is_announced_in_the_channel(fake: FakeDiscord) -> None:
    start = await seated(fake)
    await fake.click(ANN, dm_to(start, ANN), "2. Bid 2")
    await fake.click(BOB, dm_to(start, BOB), "1. Bid 1")
    await fake.command(ANN, CHANNEL, "act", verb="advance", args="steps=3")
    sent = await fake.command(ANN, CHANNEL, "game undo")
    assert any("took back their last action:\n- red advances 3." in p.content for p in posts(sent, CHANNEL))
    sent = await fake.command(ANN, CHANNEL, "game undo")
    assert "cannot be undone" in answers(sent)[-1].content or "blue player's" in answers(sent)[-1].content


async def test_a_finished_game_refuses_buttons_and_reveals_the_seed(fake: FakeDiscord) -> None:
    start = await seated(fake)
    await fake.click(ANN, dm_to(start, ANN), "2. Bid 2")
    sent = await fake.click(BOB, dm_to(start, BOB), "1. Bid 1")
    prompt = posts(sent, CHANNEL)[-1]
    sent = await fake.command(BOB, CHANNEL, "game resign")
    question = answers(sent)[-1]
    assert "Resign the game?" in question.content and not posts(sent, CHANNEL)  # asked first, nothing done
    sent = await fake.click(BOB, question, "Cancel")
    assert "did not resign" in answers(sent)[-1].content and not posts(sent, CHANNEL)
    sent = await fake.click(BOB, answers(await fake.command(BOB, CHANNEL, "game resign"))[-1], "Confirm")
    over, record = posts(sent, CHANNEL)[-2:]
    assert "The dice seed was" in over.content
    assert "The record of game #1" in record.content and record.files == ["game-1-record.html"]  # issue 34
    assert b"Verification" in record.file_data["game-1-record.html"]
    sent = await fake.click(ANN, prompt, "1. Roll a die")
    assert "over" in answers(sent)[-1].content
    sent = await fake.command(ANN, CHANNEL, "game verify")
    assert "Verification passed" in answers(sent)[-1].content


async def test_ardennes_1944_through_discord(db_path: Path) -> None:
    from bot.systems import systems
    from tests.bot.doubles import require_ardennes

    require_ardennes()
    store = await SqliteStore.open(db_path)
    bot = UmpireBot(Settings(token=None, db=str(db_path)), store, systems(), sync_commands=False,
                    run_background_tasks=False)  # fmt: skip
    fake = FakeDiscord(bot)
    await fake.start()
    try:
        await fake.command(ANN, CHANNEL, "game create", scenario="initial-assault")
        await fake.command(ANN, CHANNEL, "game join", seat="german")
        await fake.command(BOB, CHANNEL, "game join", seat="allied")
        start = await fake.command(BOB, CHANNEL, "game start")
        assert any(s.files == ["map.png"] for s in posts(start, CHANNEL))
        german = next(p for p in posts(start, CHANNEL) if "(**german**)" in p.content)
        allied = next(p for p in posts(start, CHANNEL) if "(**allied**)" in p.content)
        assert german.pings == {ANN.id} and allied.pings == {BOB.id}
        done = next(label for label, _ in german.buttons)  # many choices: a select menu
        sent = await fake.click(ANN, german, done, values=[str(german.content.count("\n["))])
        assert answers(sent)[-1].content == "Done: Done."  # the select menu reached the game
        sent = await fake.click(BOB, allied, next(label for label, _ in allied.buttons if "Done" in label))
        assert not any("went wrong" in s.content for s in sent)
        status = posts(await fake.command(EVE, CHANNEL, "game status"))[0].content
        assert "Waiting for" in status
        sent = await fake.command(ANN, CHANNEL, "move", units="de-12-vg", to="0101")
        assert answers(sent)[-1].content.startswith("Refused")
        choices = await fake.autocomplete(ANN, CHANNEL, "activate", "formation", formation="")
        assert isinstance(choices, list)
    finally:
        await fake.stop()
        await store.close()


async def test_the_picture_is_drawn_after_the_answer_and_posted_last(
    fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    start = await seated(fake)
    await fake.click(ANN, dm_to(start, ANN), "2. Bid 2")
    sent = await fake.click(BOB, dm_to(start, BOB), "1. Bid 1")
    prompt = posts(sent, CHANNEL)[-1]
    from tests.bot.doubles import Duel

    drawn_after: list[int] = []
    original = Duel.picture

    def spy(self: Duel, *args: Any) -> bytes | None:
        drawn_after.append(len(fake.sent))  # everything sent when the drawing starts
        return original(self, *args)

    monkeypatch.setattr(Duel, "picture", spy)
    before = len(fake.sent)
    sent = await fake.click(ANN, prompt, "2. End turn")
    assert len(drawn_after) == 1
    already = fake.sent[before : drawn_after[0]]
    assert answers(already) and any(p.pings == {BOB.id} for p in posts(already, CHANNEL))  # answer and prompt first
    assert not any(s.files for s in already)
    assert sent[-1].files == ["map.png"] and not sent[-1].pings  # then the picture, its own message


async def test_map_answers_at_once_and_its_picture_follows_drawn_after_the_answer(
    fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    start = await seated(fake)
    await fake.click(ANN, dm_to(start, ANN), "2. Bid 2")
    await fake.click(BOB, dm_to(start, BOB), "1. Bid 1")
    from tests.bot.doubles import Duel

    answering: list[int] = []
    original = Duel.picture

    def spy(self: Duel, *args: Any) -> bytes | None:
        answering.append(fake.bot.service.renderer._answering)  # answers in progress when the drawing starts
        return original(self, *args)

    monkeypatch.setattr(Duel, "picture", spy)
    sent = await fake.command(ANN, CHANNEL, "map")
    first, picture = answers(sent)
    assert "Drawing the map as the red side sees it" in first.content and not first.files
    assert picture.files == ["map.png"] and picture.ephemeral and not posts(sent)
    assert answering == [0]  # not waiting on its own answer (it did, for the renderer's 3 s, before)


def sealing_child(db: str, games: int) -> None:
    """Run in a child process: game after game, both players seal their bids by DM button; print ACK with the
    game, seat and bid as each sealed decision is confirmed. The parent kills this process in the middle."""

    async def main() -> None:
        store = await SqliteStore.open(db)
        settings = Settings(token=None, db=db, limits=Limits(0, 0, 0))
        bot = UmpireBot(settings, store, duel_systems(), sync_commands=False, run_background_tasks=False)
        fake = FakeDiscord(bot)
        await fake.start()
        for n in range(games):
            channel = CHANNEL + 1 + n
            await fake.command(ANN, channel, "game create", scenario="standard")
            await fake.command(ANN, channel, "game join", seat="red")
            await fake.command(BOB, channel, "game join", seat="blue")
            start = await fake.command(BOB, channel, "game start")
            for user, bid in ((ANN, 1 + n % 3), (BOB, 1 + (n + 1) % 3)):
                sent = await fake.click(user, dm_to(start, user), f"{bid}. Bid {bid}")
                if any(a.content == f"Done: Bid {bid}." for a in answers(sent)):
                    print(f"ACK {channel} {user.id} {bid}", flush=True)

    asyncio.run(main())


async def test_a_kill_during_sealed_decisions_loses_none_and_leaves_no_orphan_secret(db_path: Path) -> None:
    code = "import sys; from tests.bot.test_discord import sealing_child; sealing_child(sys.argv[1], 400)"
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", code, str(db_path), cwd=ROOT, stdout=asyncio.subprocess.PIPE
    )
    assert child.stdout is not None
    acked: list[tuple[int, int, int]] = []
    try:
        while len(acked) < 30:
            line = (await asyncio.wait_for(child.stdout.readline(), 120)).decode().split()
            assert line, "the child stopped early"
            if line[0] == "ACK":
                acked.append((int(line[1]), int(line[2]), int(line[3])))
        os.kill(child.pid, signal.SIGKILL)  # in the middle of a game's sealed bids, no goodbye
    finally:
        if child.returncode is None:
            child.kill()
        await child.wait()
    assert child.returncode == -signal.SIGKILL
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        bids = raw.execute("SELECT game, seq, seat FROM actions WHERE verb = 'bid'").fetchall()
        sealed = raw.execute("SELECT game, seq, owner FROM secrets").fetchall()
    assert sorted(sealed) == sorted(bids)  # each sealed bid has its secret, and no secret lacks its action
    store = await SqliteStore.open(db_path)
    try:
        for channel, user, bid in acked:
            game = await store.latest_game_in(channel)
            assert game is not None
            rows = [r for r in await store.actions(game.id) if r.user_id == user and r.verb == "bid"]
            assert [r.args for r in rows] == [{"amount": bid}]
            secrets = [s for s in await store.secrets(game.id) if s.seq == rows[0].seq]
            assert len(secrets) == 1 and json.loads(secrets[0].payload)["args"] == {"amount": bid}
    finally:
        await store.close()


async def test_a_forged_button_whose_game_overflows_is_refused_through_discord(fake: FakeDiscord) -> None:
    start = await seated(fake)
    dm = dm_to(start, ANN)
    for forged in ("wg:9999999999999999999:1:c:red.1.abc", "wg:1:9223372036854775808:dm:red"):
        payload = fake.click_payload(ANN, dm, dm.buttons[0][0])
        original = payload["data"]["custom_id"]
        payload["data"]["custom_id"] = forged  # a forged message: its button carries the forged id too
        payload["message"] = json.loads(json.dumps(payload["message"]).replace(original, forged))
        sent = await fake.interact(payload)
        assert [a.content for a in answers(sent)] == ["Refused: this button is not one of mine."]


async def test_stale_prompts_retire_themselves_in_dms_and_in_the_channel(fake: FakeDiscord) -> None:
    """An answered prompt (a DM here) and a superseded one (in the channel) lose their buttons and say so: no
    visible button is left to answer "earlier position" or "nothing to decide"."""
    start = await seated(fake)
    ann_dm = dm_to(start, ANN)
    sent = await fake.click(ANN, ann_dm, "2. Bid 2")
    retired = [s for s in sent if s.kind == "retired"]
    assert [s.edit_of for s in retired] == [int(ann_dm.message["id"])] and retired[0].user == ANN.id
    assert retired[0].content.endswith("*(Answered.)*") and not retired[0].buttons
    sent = await fake.click(BOB, dm_to(start, BOB), "1. Bid 1")
    red_prompt = next(p for p in posts(sent, CHANNEL) if p.buttons and ANN.id in p.pings)
    sent = await fake.command(ANN, CHANNEL, "act", verb="advance", args="steps=1")
    assert any(p.buttons for p in posts(sent, CHANNEL))  # red's new prompt
    retired = [s for s in sent if s.kind == "retired"]
    assert [s.edit_of for s in retired] == [int(red_prompt.message["id"])]
    assert "Superseded" in retired[0].content and not retired[0].buttons and not retired[0].pings
    again = await fake.click(ANN, ann_dm, "2. Bid 2")  # a stale button clicked (kept by a client, say) goes too
    assert "earlier position" in answers(again)[-1].content
    assert [s.edit_of for s in again if s.kind == "retired"] == [int(ann_dm.message["id"])]


async def test_game_verify_compares_the_log_with_the_head_the_bot_posted(fake: FakeDiscord, db_path: Path) -> None:
    """`/game verify` reads the bot's own posts for the last chain head: a log rewound in the file after that post,
    its stored head rewound to match, fails (issue 37: an anchor outside the database)."""
    start = await seated(fake)
    await fake.click(ANN, dm_to(start, ANN), "2. Bid 2")
    await fake.click(BOB, dm_to(start, BOB), "1. Bid 1")
    await fake.click(BOB, answers(await fake.command(BOB, CHANNEL, "game resign"))[-1], "Confirm")
    checked = answers(await fake.command(ANN, CHANNEL, "game verify"))[-1].content
    assert "Verification passed" in checked and "1 posted head(s) found in the chain" in checked
    with sqlite3.connect(db_path) as db:
        last = db.execute("SELECT MAX(seq) FROM actions").fetchone()[0]
        before = db.execute("SELECT hex(chain) FROM actions WHERE seq = ?", (last - 1,)).fetchone()[0].lower()
        db.execute("DELETE FROM actions WHERE seq = ?", (last,))
        db.execute("UPDATE games SET chain_head = ?", (before,))
    checked = answers(await fake.command(ANN, CHANNEL, "game verify"))[-1].content
    assert "Verification FAILED" in checked and "nowhere in the stored log's chain" in checked
