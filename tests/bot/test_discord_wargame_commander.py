"""A whole Wargame Commander series through the real discord.py command tree against the fake Discord.

The campaign manager (a moderator in the ``cm`` seat) enters each frame's report, the German Frame CO disputes
one and the CM corrects it; basing plans and attack designations are sealed with receipts and revealed
together; the Germans Blitz with the I SS-Panzerkorps before frame 2 and declare The Big Blow before frame 4.
After every command the test checks that no sealed content reached the channel before its reveal.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.commands.posted_files
import bot.service.game_service
from bot.service.config import Settings
from bot.service.game_service import Refusal, SystemFactory
from bot.store.sqlite import SqliteStore
from bot.systems.wargame_commander import WargameCommanderAdapter
from bot.systems.wargame_commander.frames import FORM_KEYS
from bot.transports.discord_app import UmpireBot
from engine.sealing import salt_for, verify_receipt
from engine.wargame_commander import series
from engine.wargame_commander.state import SeriesState, board_of
from tests.bot.fakediscord import FakeDiscord, FakeFile, FakeUser, Sent, form_inputs, forms, posts
from tests.wargame_commander.play import greedy_basing, greedy_operation_basing, random_designation

ANN = FakeUser(11, "ann")  # the Allied Frame CO
BOB = FakeUser(22, "bob")  # the German Frame CO
MOD = FakeUser(99, "mod", moderator=True)  # the campaign manager
CHANNEL = 801
USERS = {"allied": ANN, "german": BOB, "cm": MOD}
REPORT_URL = "https://cdn.discordapp.com/attachments/1/2/frame.csv"
REPORT = (
    "kind,a,b,c,d\n"
    "shot_down,german,Bf 109G,3\n"
    "shot_down,allied,P-47D,1\n"
    "airfield,Y29,moderate\n"
    "depot,cologne\n"
    "corps,us-8,damage\n"
    "pilot,Hartmann,4,1,0\n"
    "pilot,Rall,2,0,0\n"
)


def systems() -> dict[str, SystemFactory]:
    return {"wargame-commander": WargameCommanderAdapter}


@pytest.fixture(autouse=True)
def posted_files(monkeypatch: pytest.MonkeyPatch) -> None:
    files = {REPORT_URL: REPORT}

    async def fetch(url: str) -> tuple[str, str]:
        if url not in files:
            raise Refusal("Discord answered 404 for that file")
        return url.rsplit("/", 1)[-1], files[url]

    monkeypatch.setattr(bot.commands.posted_files, "FETCH", fetch)
    # pinned dice: the same series every run
    monkeypatch.setattr(bot.service.game_service, "new_seed", lambda: b"\x17" * 32)


@pytest.fixture
async def fake(db_path: Path) -> AsyncIterator[FakeDiscord]:
    store = await SqliteStore.open(db_path)
    bot_ = UmpireBot(Settings(token=None, db=str(db_path)), store, systems(), sync_commands=False,
                     run_background_tasks=False)  # fmt: skip
    opened = FakeDiscord(bot_)
    await opened.start()
    yield opened
    await opened.stop()
    await opened.bot.service.store.close()


async def state_of(fake: FakeDiscord) -> SeriesState:
    table = await fake.bot.service.table(CHANNEL, live=False)
    state: SeriesState = await fake.bot.service.state(table.game)
    return state


SEALED_AT: dict[str, int] = {}
"""Each sealed decision's id: how many channel posts there were before the command that sealed it."""


async def assert_no_leak(fake: FakeDiscord, before: int) -> None:
    """No sealed content (a basing plan, a designation) in any channel message since it was sealed."""
    state = await state_of(fake)
    channel = posts(fake.sent, CHANNEL)
    for secret in state.secrets:
        SEALED_AT.setdefault(secret["id"], before)
        text = "\n".join(s.content for s in channel[SEALED_AT[secret["id"]] :])
        if not secret["revealed"]:
            assert json.dumps(secret["content"]) not in text
            if secret["kind"] == "attack designation":
                for defender, attackers in secret["content"]:
                    assert f"{defender}:{'+'.join(attackers)}" not in text


async def run(fake: FakeDiscord, seat: str, name: str, **options: Any) -> list[Sent]:
    before = len(posts(fake.sent, CHANNEL))
    sent = await fake.command(USERS[seat], CHANNEL, name, **options)
    await assert_no_leak(fake, before)
    errors = [s.content for s in sent if "refused" in s.content.lower() or "cannot" in s.content.lower()]
    assert not errors, (name, options, errors)
    return sent


async def test_a_whole_series_through_discord(fake: FakeDiscord) -> None:
    SEALED_AT.clear()
    sent = await fake.command(MOD, CHANNEL, "game create", scenario="wargame-commander", system="wargame-commander")
    assert posts(sent, CHANNEL), [s.content for s in sent]
    for seat, user in USERS.items():
        await fake.command(user, CHANNEL, "game join", seat=seat)
    await fake.command(MOD, CHANNEL, "game start")
    state = await state_of(fake)
    board = board_of(state)
    assert state.phase == "basing"

    # Sealed basing plans: a receipt in the channel, the plan only for its side, both revealed together.
    sent = await run(fake, "allied", "frame basing", plan=greedy_basing(board, "allied"))
    assert "receipt" in "\n".join(s.content for s in posts(sent, CHANNEL))
    await run(fake, "german", "frame basing", plan=greedy_basing(board, "german"))
    state = await state_of(fake)
    assert state.phase == "offensive_corps" and all(s["revealed"] for s in state.secrets)

    # The German Ardennes Offensive: the Allies may not move.
    sent = await fake.command(ANN, CHANNEL, "move", units="us-8", to="1412")
    assert "nothing to decide" in "\n".join(s.content for s in sent)
    assert (await state_of(fake)).units["us-8"].hex == 1512
    await run(fake, "german", "move", units="ss-2", to="1712")
    assert (await state_of(fake)).units["ss-2"].hex == 1712
    rng = random.Random(7)
    disputed = blitzed = False
    for _ in range(400):
        state = await state_of(fake)
        if state.phase == "over":
            break
        prompts = series.prompts(state)
        phase = state.phase
        if phase == "report":
            if not disputed:
                await run(fake, "cm", "frame report", url=REPORT_URL)
            else:
                await run(fake, "cm", "frame report", text="shot_down,german,Fw 190D-9,2\\npilot,Barkhorn,3,2,1")
        elif phase == "dispute":
            if not disputed:
                await run(fake, "german", "frame dispute", reason="Cologne was not hit: the log shows no depot kill")
                corrected = REPORT.replace("depot,cologne\n", "").replace("kind,a,b,c,d\n", "").replace("\n", "\\n")
                sent = await run(fake, "cm", "frame report", text=corrected)
                assert any("corrected" in s.content for s in posts(sent, CHANNEL))
                disputed = True
            for side in ("allied", "german"):
                if side in series.prompts(await state_of(fake)):
                    await run(fake, side, "frame accept")
        elif phase == "designate":
            for side in ("allied", "german"):
                current = await state_of(fake)
                battles = random_designation(current, board, side, rng)
                sent = await run(fake, side, "frame designate", battles=battles)
        elif phase == "blitz":
            units = "" if blitzed or state.units["ss-1"].hex is None else "ss-1"
            await run(fake, "german", "frame blitz", units=units)
            blitzed = blitzed or bool(units)
        elif phase == "declare":
            operation = "bigblow" if state.frame == 4 else "none"
            sent = await run(fake, "german", "frame declare", operation=operation)
            if operation == "bigblow":
                text = "\n".join(s.content for s in posts(sent, CHANNEL))
                assert "Big Blow" in text and "Hartmann" in text
        elif phase == "operation_basing":
            await run(fake, "allied", "frame basing", plan=greedy_operation_basing(state, board))
            assert (await state_of(fake)).phase == "report"
        elif phase == "retreat":
            seat = next(iter(prompts))
            await run(fake, seat, "choose", number=1)
        else:
            seat = next(s for s in prompts if not prompts[s].optional)
            await run(fake, seat, "frame done")
    state = await state_of(fake)
    assert state.phase == "over" and disputed and blitzed
    assert state.declaration == {"operation": "bigblow", "frame": 4}
    assert next(r["answers"] for r in state.reports) == {"allied": "accepted", "german": "accepted"}
    assert any(r["report"]["depots"] == [] for r in state.reports)
    for secret in state.secrets:  # every receipt checks out against the revealed content
        salt = salt_for(bytes.fromhex(state.seed), f"wc:{secret['id']}")
        assert secret["revealed"] and verify_receipt(secret["content"], salt, secret["receipt"])
    sent = await fake.command(ANN, CHANNEL, "score")
    text = "\n".join(s.content for s in sent)
    assert "Score ledger" in text and "Result:" in text
    assert f"Allied {points(state, 'allied'):g}, German {points(state, 'german'):g}" in text
    pictures = [s for s in posts(fake.sent, CHANNEL) if s.files]
    assert pictures, "the channel got map pictures"
    # One receipt a decision, and each reveal carries its salt and sealed text in a file (engine.sealing).
    channel_text = "\n".join(s.content for s in posts(fake.sent, CHANNEL))
    assert "sealed a decision; receipt" not in channel_text  # no second, uncheckable receipt
    for secret in state.secrets:
        assert channel_text.count(secret["receipt"]) == 1, secret["id"]
    reveals = [s for s in posts(fake.sent, CHANNEL) if "Revealed WC" in s.content]
    assert reveals and all(any(f.startswith("details-") for f in s.files) for s in reveals)
    for sent in reveals:
        for name, data in sent.file_data.items():
            for item in json.loads(data) if name.startswith("details-") else []:
                assert hashlib.sha256(item["sealed"].encode()).hexdigest() == item["receipt"]


def points(state: SeriesState, side: str) -> float:
    return sum(line["points"] for line in state.ledger if line["side"] == side)


async def test_redeploy_and_rebase_commands(fake: FakeDiscord) -> None:
    await fake.command(MOD, CHANNEL, "game create", scenario="wargame-commander", system="wargame-commander")
    for seat, user in USERS.items():
        await fake.command(user, CHANNEL, "game join", seat=seat)
    await fake.command(MOD, CHANNEL, "game start")
    board = board_of(await state_of(fake))
    await run(fake, "allied", "frame basing", plan=greedy_basing(board, "allied"))
    await run(fake, "german", "frame basing", plan=greedy_basing(board, "german"))
    await run(fake, "german", "frame done")
    await run(fake, "german", "frame done")
    assert (await state_of(fake)).phase == "redeploy"
    sent = await fake.command(ANN, CHANNEL, "frame redeploy", type="P-47D", count=1, to="A92")
    assert "force pool holds 0" in "\n".join(s.content for s in sent)
    await run(fake, "allied", "frame rebase", squad="366fg", steps=1, source="A78", to="A92")
    state = await state_of(fake)
    assert state.basing["allied"]["366fg"] == {"A78": 2, "A92": 1}


# --- A series through forms, DMs and the clock ----------------------------------------------------------------

HOUR = 3600.0


def latest(sent: list[Sent], user: FakeUser, seat: str, dm: bool) -> Sent:
    """The newest basket for ``seat``: the DM that asked (``dm``), or the follow-up answering a click."""
    found = [
        s
        for s in sent
        if any(label.startswith("Seal") and f":{seat}." in cid for label, cid in s.buttons)
        and ((s.kind == "dm" and s.user == user.id) if dm else s.kind in ("followup", "edit"))
    ]
    assert found, f"no basket for {user.name}"
    return found[-1]


async def seal_by_dm(fake: FakeDiscord, user: FakeUser, seat: str, picks: list[str], kind: str) -> list[Sent]:
    """Fill the DM basket of a sealed decision with ``picks`` (menu values), then press Seal."""
    adapter: Any = fake.bot.service.system("wargame-commander")
    state = await state_of(fake)
    if kind == "basing":
        pairs, _ = adapter.basing_items(state, seat)
        values = [f"{sq}@{f}" for sq, f, _ in pairs]
        placeholder = "Add a squad step"
    else:
        values = [value for _, value in adapter.designation_items(state, seat)]
        placeholder = "Add a battle"
    message = latest(fake.sent, user, seat, dm=True)
    for pick in picks:
        index = values.index(pick)
        page = index // 25
        label = next(lbl for lbl, cid in message.buttons if lbl.startswith(placeholder) and cid.endswith(f".{page}"))
        sent = await fake.click(user, message, label, [str(index)])
        assert any(placeholder in str(s.buttons) for s in sent), [(s.kind, s.content) for s in sent]
        message = latest(sent, user, seat, dm=False)
        assert not any("Refused" in s.content for s in sent), [s.content for s in sent]
    before = len(posts(fake.sent, CHANNEL))
    sent = await fake.click(user, message, "Seal")
    await assert_no_leak(fake, before)
    assert not any("Refused" in s.content for s in sent), [s.content for s in sent]
    return sent


async def test_a_series_with_the_report_form_dm_baskets_and_the_dispute_clock(fake: FakeDiscord) -> None:
    SEALED_AT.clear()
    now = [1_800_000_000.0]
    fake.bot.service.clock = lambda: now[0]
    clock = fake.bot.get_cog("Reminders")
    assert clock is not None
    await fake.command(MOD, CHANNEL, "game create", scenario="wargame-commander", system="wargame-commander")
    for seat, user in USERS.items():
        await fake.command(user, CHANNEL, "game join", seat=seat)
    sent = await fake.command(MOD, CHANNEL, "game start")
    board = board_of(await state_of(fake))

    # Basing: the Allies by the DM's menus, one squad step a click; the Germans by a file (1.3).
    assert any(s.kind == "dm" and s.user == ANN.id and "Add a squad step" in str(s.buttons) for s in sent)
    picks = []
    for piece in greedy_basing(board, "allied").split(","):
        pair, _, steps = piece.partition("=")
        picks += [pair] * int(steps)
    sent = await seal_by_dm(fake, ANN, "allied", picks, "basing")
    assert any("receipt" in s.content for s in posts(sent, CHANNEL))
    plan_file = FakeFile("basing.txt", ("# JG plan\n" + greedy_basing(board, "german").replace(",", "\n")).encode())
    await run(fake, "german", "frame basing", file=plan_file)
    assert (await state_of(fake)).phase == "offensive_corps"
    await run(fake, "german", "frame done")
    await run(fake, "german", "frame done")
    await run(fake, "allied", "frame done")
    sent = await run(fake, "german", "frame done")
    assert (await state_of(fake)).phase == "report"
    # 4.2r: each Frame CO gets the side's plan sheet by DM before the frame.
    sheets = [s for s in sent if s.kind == "dm" and "plan sheet" in s.content and s.files]
    assert {s.user for s in sheets} == {ANN.id, BOB.id}

    # The report by the form; a 12-hour window (4.2d).
    await run(fake, "cm", "frame window", hours=12)
    sent = await fake.command(MOD, CHANNEL, "frame form")
    modal = forms(sent)[-1]
    assert list(form_inputs(modal)) == list(FORM_KEYS)
    values = {
        "shot_down": "german, Bf 109G, 3\nallied, P-47D, 1",
        "airfields": "Y29, moderate",
        "targets": "cologne",
        "corps": "us-8, damage",
        "pilots": "Hartmann, 4, 1, 0\nRall, 2, 0, 0",
    }
    bad = await fake.submit(MOD, modal, dict(values, airfields="BASSINGBOURN, heavy"), CHANNEL)
    assert any("Airfields damaged or closed, line 1: Bassingbourn (8th AF)" in s.content for s in bad)
    assert (await state_of(fake)).phase == "report"
    sent = await fake.command(MOD, CHANNEL, "frame form")  # it opens again with what was typed
    modal = forms(sent)[-1]
    assert form_inputs(modal)["airfields"]["value"] == "BASSINGBOURN, heavy"
    sent = await fake.submit(MOD, modal, values, CHANNEL)
    summary = "\n".join(s.content for s in posts(sent, CHANNEL))
    assert "Frame 1 report entered" in summary and "Cologne" in summary and "until" in summary
    await run(fake, "german", "frame dispute", reason="Cologne was not hit")
    # Twelve hours on, the clock closes the window with the dispute open: the CM decides.
    now[0] += 12 * HOUR
    await clock.run_room_clocks()
    state = await state_of(fake)
    assert state.phase == "dispute" and state.window_closed
    refused = await fake.command(ANN, CHANNEL, "frame accept")
    assert any("nothing to decide" in s.content or "closed" in s.content for s in refused)
    # The CM corrects it in the same form, filled with the report: a new window opens.
    sent = await fake.command(MOD, CHANNEL, "frame form")
    modal = forms(sent)[-1]
    filled = {key: str(c.get("value") or "") for key, c in form_inputs(modal).items()}
    assert "cologne" in filled["targets"] and "Hartmann, 4, 1, 0" in filled["pilots"]
    await fake.submit(MOD, modal, dict(filled, targets=""), CHANNEL)
    assert not (await state_of(fake)).window_closed
    # The Allies accept by the button; the Germans say nothing: when the time is up, the report stands.
    message = next(s for s in reversed(fake.sent) if any(":wac:allied." in cid for _, cid in s.buttons))
    sent = await fake.click(ANN, message, "Accept the report")
    assert "Accepted." in "\n".join(s.content for s in sent)
    now[0] += 13 * HOUR
    await clock.run_room_clocks()
    state = await state_of(fake)
    assert state.phase == "designate" and state.frame == 2
    assert state.reports[-1]["report"]["depots"] == [] and state.reports[-1]["answers"] == {"allied": "accepted"}

    # Sealed designations by DM (4.2i): both revealed together, every receipt checks out.
    rng = random.Random(3)
    adapter: Any = fake.bot.service.system("wargame-commander")
    blitzed = big_blow = False
    for _ in range(400):
        state = await state_of(fake)
        phase = state.phase
        if phase == "over":
            break
        prompts = series.prompts(state)
        if phase == "designate":
            for side, user in (("allied", ANN), ("german", BOB)):
                if side not in series.prompts(await state_of(fake)):
                    continue
                current = await state_of(fake)
                words = random_designation(current, board, side, rng)
                offered = {value for _, value in adapter.designation_items(current, side)}
                picks = [w for w in words.split(";") if w in offered]
                if len(picks) < len([w for w in words.split(";") if w]):
                    await run(fake, side, "frame designate", battles=words)  # a group the menus do not list
                else:
                    await seal_by_dm(fake, user, side, picks, "designate")
        elif phase == "report":
            text = "shot_down,german,Fw 190D-9,2\\npilot,Barkhorn,3,2,1"
            await run(fake, "cm", "frame report", text=text)
        elif phase == "dispute":
            for side in ("allied", "german"):
                if side in series.prompts(await state_of(fake)):
                    await run(fake, side, "frame accept")
        elif phase == "blitz":
            able = [u for u in ("ss-1", "ss-2", "pz-47", "pz-58") if state.units[u].hex is not None]
            units = "" if blitzed or not able else able[0]
            await run(fake, "german", "frame blitz", units=units)
            blitzed = blitzed or bool(units)
        elif phase == "declare":
            operation = "bigblow" if state.frame == 4 else "none"
            await run(fake, "german", "frame declare", operation=operation)
        elif phase == "operation_basing":
            big_blow = True
            await run(fake, "allied", "frame basing", plan=greedy_operation_basing(state, board))
        elif phase == "retreat":
            await run(fake, next(iter(prompts)), "choose", number=1)
        else:
            await run(fake, next(s for s in prompts if not prompts[s].optional), "frame done")
    state = await state_of(fake)
    assert state.phase == "over" and blitzed and big_blow
    sealed = [s for s in state.secrets if s["kind"] == "attack designation"]
    assert sealed and all(s["revealed"] for s in sealed)
    for secret in state.secrets:
        salt = salt_for(bytes.fromhex(state.seed), f"wc:{secret['id']}")
        assert verify_receipt(secret["content"], salt, secret["receipt"])
