"""An ASL campaign game through the real discord.py command tree against the fake Discord (no network).

The bot keeps the campaign between the CG Scenarios: creation, seats, the organiser's RG chart, the Refit
Phase step by step (public rolls in the channel, sealed decisions by DM buttons and menus with a receipt
posted at the commit), scenario reports, chit reveals, and at the end every receipt checked. After every
interaction the test checks that no sealed content has reached a channel before its reveal.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.asl import verify_receipt
from engine.asl.state import CampaignState
from tests.bot.asl_campaign_play import (
    ANN,
    BOB,
    CHANNEL,
    CHART,
    CHART_URL,
    EVE,
    MOD,
    Plan,
    assert_no_leak,
    buy,
    channel_text,
    close_fake,
    latest_prompt,
    open_fake,
    play,
    report,
    serve_posted_files,
    setup_campaign,
    state_of,
    where,
)
from tests.bot.fakediscord import FakeDiscord, answers, posts


@pytest.fixture(autouse=True)
def posted_files(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Files "posted in Discord" that ``mod load-table url:`` fetches."""
    return serve_posted_files(monkeypatch)


@pytest.fixture
async def fake(db_path: Path) -> AsyncIterator[FakeDiscord]:
    opened = await open_fake(db_path)
    yield opened
    await close_fake(opened)


# --- The table and what the channel saw ------------------------------------------------------------------------


def step_order(text: str) -> list[str]:
    return re.findall(r"^- (9\.\d+)[: ]", text, flags=re.MULTILINE)


# --- The whole campaign ------------------------------------------------------------------------------------------


async def test_whole_campaign_over_several_dates_through_discord(fake: FakeDiscord) -> None:
    """17N Initial; 18AM Dual Assault; 18PM Idle/Idle; 18EVE British Assault; 18N German Assault; 19AM last."""
    chits: Plan = {
        "18AM": {"allied": "attack", "german": "attack"},
        "18PM": {"allied": "idle", "german": "idle"},
        "18EVE": {"allied": "attack", "german": "idle"},
        "18N": {"allied": "idle", "german": "attack"},
        "19AM": {"allied": "attack", "german": "attack"},
    }
    purchases: Plan = {"17N": {"allied": ["I1"], "german": ["I1(K)", "I3(K)"]}, "18AM": {"german": ["A2(K)"]}}
    forts: Plan = {"17N": {"german": ["trench"]}}
    await setup_campaign(fake)
    await play(fake, chits, purchases, forts)
    state = await state_of(fake)
    assert state.phase == "scenario" and state.date == "17N"
    assert "I1(K)" not in channel_text(fake) and "TEST SS Rifle Pltn" not in channel_text(fake)

    # a spectator's status shows the public roster only
    status = posts(await fake.command(EVE, CHANNEL, "game status"), CHANNEL)[0].content
    assert "CG Date 17N" in status and "ELR" in status
    await assert_no_leak(fake)

    # the RePh after a CG Scenario runs every step in the rules' order, with public rolls in the channel
    start = len(fake.sent)
    await report(fake, 10, 20)
    await play(fake, chits, purchases, forts)
    text = "\n".join(p.content for p in posts(fake.sent[start:], CHANNEL))
    assert step_order(text)[:12] == [f"9.60{n}" for n in range(1, 10)] + ["9.610", "9.611", "9.6121"]
    assert text.index("9.6121") < text.index("ELR") < text.index("9.6213") < text.index("Initiative Matrix")
    assert "Dual Assault" in text

    for date, cvp in (("18AM", (31, 45)), ("18EVE", (8, 3)), ("18N", (12, 61))):
        state = await state_of(fake)
        assert (state.date, state.phase) == (date, "scenario")
        await report(fake, *cvp)
        start = len(fake.sent)
        await play(fake, chits, purchases, forts)
        if date == "18AM":  # the Idle/Idle 18PM repeats 9.612-9.620 only
            text = "\n".join(p.content for p in posts(fake.sent[start:], CHANNEL))
            idle_at = text.index("Idle CG Date: no scenario")
            again = step_order(text[idle_at:])
            assert again[0] == "9.6121" and "9.601" not in again and "9.621" in again
    state = await state_of(fake)
    assert state.date == "19AM"
    assert [(r.date, r.kind, r.scenario_type) for r in state.history] == [
        ("17N", "scenario", None),
        ("18AM", "scenario", "dual"),
        ("18PM", "idle", None),
        ("18EVE", "scenario", "allied_assault"),
        ("18N", "scenario", "german_assault"),
        ("19AM", "scenario", "dual"),
    ]
    text = channel_text(fake)
    assert "British Assault" in text and "German Assault" in text

    # private views: the owner sees its CPP, the opponent only the public parts
    mine = answers(await fake.command(BOB, CHANNEL, "campaign roster"))[-1]
    theirs = answers(await fake.command(ANN, CHANNEL, "campaign roster", side="german"))[-1]
    assert mine.ephemeral and "(private)" in mine.content and "CPP received" in mine.content
    assert "(public parts)" in theirs.content and "CPP" not in theirs.content
    record = "\n".join(a.content for a in answers(await fake.command(BOB, CHANNEL, "campaign purchases")))
    assert "I1(K)" in record and "A2(K)" in record
    other = "\n".join(a.content for a in answers(await fake.command(ANN, CHANNEL, "campaign purchases", side="german")))
    assert "I1(K)" not in other and "nothing recorded or revealed" in other

    # the last date: the CG winner; every sealed decision revealed and checked
    sent = await fake.command(ANN, CHANNEL, "campaign report", my_cvp=1, their_cvp=1)
    assert "last date: give the CG winner" in answers(sent)[-1].content
    await report(fake, 1, 1, winner="allied")
    state = await state_of(fake)
    assert state.phase == "over" and all(s.revealed for s in state.secrets)
    assert "I1(K)" in channel_text(fake) and "Game over" in channel_text(fake)
    for secret in state.secrets:
        assert secret.receipt in channel_text(fake)
    # the campaign's record, posted at the end (issue 34): no map, the rosters, purchases and receipts
    [page] = [p.file_data[n] for p in posts(fake.sent, CHANNEL) for n in p.files if n.endswith("-record.html")]
    assert b'<canvas id="map"' not in page and b"This game has no map in the bot" in page
    assert b"<summary>Rosters</summary>" in page and b"<summary>Purchase records (9.6178)</summary>" in page
    assert all(secret.receipt.encode() in page for secret in state.secrets)  # the page checks each receipt
    checked = "\n".join(a.content for a in answers(await fake.command(EVE, CHANNEL, "campaign verify")))
    n = len(state.secrets)
    assert f"{n} posted, {n} revealed" in checked and "all agree" in checked and "seed" in checked
    assert "every layer holds" in answers(await fake.command(EVE, CHANNEL, "game verify"))[-1].content


# --- Chit limits, reveal, restart, closed DMs ----------------------------------------------------------------------


async def test_chit_limit_reached_the_button_is_absent_and_the_choice_refused(fake: FakeDiscord) -> None:
    """TEST-CG (invented): the British may use 1 Attack chit, the Germans 1 Idle chit (9.62131)."""
    await setup_campaign(fake, cg="TEST-CG")
    await play(fake)
    await report(fake, 5, 5)
    await play(fake, chits={"18AM": {"allied": "attack", "german": "idle"}})
    await report(fake, 5, 5)
    await play(fake, until="choose_chit")
    allied = latest_prompt(fake, "allied", secret=True)
    assert [label for label, _ in allied.buttons] == ["1. Idle chit"]
    assert "attack 0 left" in allied.content
    sent = await fake.command(ANN, CHANNEL, "act", verb="choose_chit", args="chit=attack")
    assert "used all 1 Attack chits" in answers(sent)[-1].content and "9.62131" in answers(sent)[-1].content
    german = latest_prompt(fake, "german", secret=True)
    assert [label for label, _ in german.buttons] == ["1. Attack chit"]
    status = posts(await fake.command(EVE, CHANNEL, "game status"), CHANNEL)[0].content
    assert "CG limits: 1 Attack, 3 Idle" in status


async def test_a_restart_between_a_sealed_pick_and_its_reveal(db_path: Path) -> None:
    first = await open_fake(db_path)
    try:
        await setup_campaign(first)
        prompt = latest_prompt(first, "german", secret=True)
        await buy(first, BOB, prompt, ["I1(K)", "I1(K)"])
        secret = (await state_of(first)).secrets[-1]
        assert secret.kind == "rg_purchase" and secret.receipt in channel_text(first)
        assert "I1(K)" not in channel_text(first)
        old = latest_prompt(first, "allied", secret=True)
    finally:
        await close_fake(first)
    second = await open_fake(db_path)
    try:
        sent = await second.click(ANN, old, "1. Buy nothing")  # a DM button from before the restart
        assert not any(s.content.startswith("Refused") for s in sent)
        sent = await second.command(ANN, CHANNEL, "campaign reveal", secret=secret.id)
        assert "only its owner may reveal it" in answers(sent)[-1].content
        choices = await second.autocomplete(BOB, CHANNEL, "campaign reveal", "secret", secret="")
        assert secret.id in [c["value"] for c in choices]
        sent = await second.command(BOB, CHANNEL, "campaign reveal", secret=secret.id)
        reveal = next(p for p in posts(sent, CHANNEL) if "Revealed" in p.content)
        assert "I1(K), I1(K); 8 CPP spent" in reveal.content
        state = await state_of(second)
        assert verify_receipt(secret.content, _salt(state, secret.id), secret.receipt)
        checked = "\n".join(a.content for a in answers(await second.command(EVE, CHANNEL, "campaign verify")))
        assert "1 revealed and checked" in checked and "all agree" in checked and "still sealed" in checked
        other = "\n".join(
            a.content for a in answers(await second.command(ANN, CHANNEL, "campaign purchases", side="german"))
        )
        assert "I1(K)" in other
    finally:
        await close_fake(second)


def _salt(state: CampaignState, secret_id: str) -> str:
    from engine.asl import salt_for

    return salt_for(bytes.fromhex(state.seed), secret_id)


async def test_closed_dms_are_announced_and_answered_privately(fake: FakeDiscord) -> None:
    fake.closed_dms.add(BOB.id)
    await setup_campaign(fake)
    notice = next(p for p in reversed(posts(fake.sent, CHANNEL)) if "cannot send you direct messages" in p.content)
    assert notice.pings == {BOB.id} and "CPP" not in notice.content and "RG" not in notice.content
    private = await fake.click(BOB, notice, "Answer privately")
    answer = answers(private)[-1]
    assert answer.ephemeral and any(":bka:" in cid for _, cid in answer.buttons)
    sent = await buy(fake, BOB, where(answer, notice), ["I3(K)"])
    assert any("receipt" in p.content for p in posts(sent, CHANNEL))
    assert any(a.ephemeral and "I3(K)" in a.content for a in answers(sent))  # the result, to bob only
    await assert_no_leak(fake)
    assert "I3(K)" not in channel_text(fake)


async def test_basket_refuses_a_foreign_player_and_an_over_budget_commit(fake: FakeDiscord) -> None:
    await setup_campaign(fake)
    prompt = latest_prompt(fake, "allied", secret=True)
    select = next(label for label, cid in prompt.buttons if ":bka:" in cid)
    sent = await fake.click(BOB, prompt, select, values=["0"])
    assert "Only the allied player may answer" in answers(sent)[-1].content
    sent = await fake.click(ANN, prompt, select, values=["1"])  # I4: 6 CPP of 8
    basket = where(answers(sent)[-1], prompt)
    sent = await fake.click(ANN, basket, select, values=["0"])  # + I1: 10 CPP
    basket = where(answers(sent)[-1], prompt)
    assert "Over budget by 2 CPP" in basket.content
    sent = await fake.click(ANN, basket, "Commit")
    assert "cost 10 CPP but you have 8 CPP" in answers(sent)[-1].content
    assert not (await state_of(fake)).secrets


# --- The organiser --------------------------------------------------------------------------------------------


async def test_the_organiser_loads_tables_and_a_broken_file_is_refused(
    fake: FakeDiscord, posted_files: dict[str, str]
) -> None:
    await fake.command(ANN, CHANNEL, "campaign create", start="17N", elr="allied=5 german=3", san="allied=3 german=4")
    sent = await fake.command(ANN, CHANNEL, "mod load-table", url=CHART_URL)
    assert "Only a moderator" in answers(sent)[-1].content and not posts(sent)
    broken = CHART.replace('cost = 4\nunits = "3/2"', 'cost = "four"\nunits = "3/2"', 1)
    posted_files["https://cdn.discordapp.com/attachments/1/3/chart.toml"] = broken
    sent = await fake.command(
        MOD, CHANNEL, "mod load-table", url="https://cdn.discordapp.com/attachments/1/3/chart.toml"
    )
    refusal = answers(sent)[-1].content
    assert "chart.toml: rg_chart.entry[1]" in refusal and "'cost' must be a whole number" in refusal
    assert not posts(sent)
    sent = await fake.command(MOD, CHANNEL, "mod load-table", url="https://example.com/chart.toml")
    assert "posted in Discord" in answers(sent)[-1].content
    sent = await fake.command(MOD, CHANNEL, "mod load-table", text='[initiative]\\n"attack/attack" = "dual"')
    assert "the matrix needs the four cells" in answers(sent)[-1].content
    sent = await fake.command(MOD, CHANNEL, "mod load-table", url=CHART_URL)
    assert "example_rg_chart.toml: rg_chart, cgs replaced" in posts(sent, CHANNEL)[0].content
    state = await state_of(fake)
    assert state.overrides == ["example_rg_chart.toml: rg_chart, cgs"]
    tables = await fake.autocomplete(ANN, CHANNEL, "campaign roll", "table", table="")
    assert isinstance(tables, list)
