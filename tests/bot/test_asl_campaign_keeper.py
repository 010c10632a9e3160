"""The ASL campaign keeper through the fake Discord: receipts a player checks from what the channel shows, a
moderator's correction that keeps the seals, the rules fixes, the unit roster, the file option, the console.

Helpers and the invented test RG chart come from ``test_asl_campaign``.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.systems.asl import AslAdapter
from bot.transports.console import play as console_play
from tests.bot.asl_campaign_play import (
    ANN,
    AREAS,
    BOB,
    CHANNEL,
    CHART,
    EVE,
    MOD,
    USERS,
    assert_no_leak,
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
from tests.bot.fakediscord import FakeDiscord, FakeFile, answers, posts


@pytest.fixture(autouse=True)
def posted_files(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Files "posted in Discord" that ``mod load-table url:`` fetches."""
    return serve_posted_files(monkeypatch)


RECEIPT = re.compile(r"receipt ([0-9a-f]{64})")


@pytest.fixture
async def fake(db_path: Path) -> AsyncIterator[FakeDiscord]:
    opened = await open_fake(db_path)
    yield opened
    await close_fake(opened)


def posted_receipts(fake: FakeDiscord) -> list[str]:
    """Every receipt the channel showed at a commit, in order."""
    return [m for p in posts(fake.sent, CHANNEL) for m in RECEIPT.findall(p.content) if "committed" in p.content]


def attached_reveals(fake: FakeDiscord) -> list[dict[str, Any]]:
    """Every reveal's details, read from the JSON files attached to the channel's messages."""
    found: list[dict[str, Any]] = []
    for post in posts(fake.sent, CHANNEL):
        for name, data in post.file_data.items():
            if name.startswith("details-") and name.endswith(".json"):
                found += json.loads(data)
    return found


def recompute(item: dict[str, Any]) -> str:
    """The docs' recipe (docs/campaign.md), on one item of an attached file."""
    return hashlib.sha256(item["sealed"].encode()).hexdigest()


async def test_every_receipt_is_recomputed_from_what_the_channel_shows(fake: FakeDiscord) -> None:
    await setup_campaign(fake, end="18AM")
    await play(fake, purchases={"17N": {"allied": ["I1"], "german": ["I1(K)"]}})
    await report(fake, 3, 4)
    await play(fake, chits={"18AM": {"allied": "attack", "german": "idle"}})
    await report(fake, 5, 6, winner="german")
    state = await state_of(fake)
    assert state.phase == "over"
    receipts = posted_receipts(fake)
    assert len(receipts) == len(state.secrets)  # one receipt per decision, no second, bot-level one
    assert "sealed a decision; receipt" not in channel_text(fake)
    reveals = attached_reveals(fake)
    assert sorted(recompute(item) for item in reveals) == sorted(receipts)
    for item in reveals:
        sealed = json.loads(item["sealed"])
        assert set(sealed) == {"salt", "secret"} and item["receipt"][:16] in channel_text(fake)
    chit = next(i for i in reveals if json.loads(i["sealed"])["secret"].get("chit"))
    assert json.loads(chit["sealed"])["secret"]["date"] == "18AM"


async def test_a_correction_reseals_with_fresh_salts_and_verify_lists_every_receipt(fake: FakeDiscord) -> None:
    await setup_campaign(fake)
    await play(fake)
    await report(fake, 1, 1)
    await play(fake, until="choose_chit")
    allied = latest_prompt(fake, "allied", secret=True)
    await fake.click(ANN, allied, "1. Attack chit")
    german = latest_prompt(fake, "german", secret=True)
    sent = await fake.click(BOB, german, "2. Idle chit")
    assert any("Initiative Matrix" in p.content for p in posts(sent, CHANNEL))
    first = posted_receipts(fake)[-2]
    salt = next(json.loads(i["sealed"])["salt"] for i in attached_reveals(fake) if recompute(i) == first)
    # the moderator takes both chits back (the reveal with them); the British pick the same chit again
    sent = await fake.command(MOD, CHANNEL, "mod correct", count=2, reason="wrong chit typed")
    assert any("fresh salt" in p.content for p in posts(sent, CHANNEL))
    await fake.click(ANN, latest_prompt(fake, "allied", secret=True), "1. Attack chit")
    again = posted_receipts(fake)[-1]
    assert again != first
    state = await state_of(fake)
    content = state.secrets[-1].content
    guess = hashlib.sha256(
        json.dumps({"salt": salt, "secret": content}, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()
    assert guess != again  # the published salt no longer tells the German what the British chose
    checked = "\n".join(a.content for a in answers(await fake.command(EVE, CHANNEL, "campaign verify")))
    assert "superseded by a correction" in checked and f"`{first[:16]}`: revealed, agrees (then taken back" in checked
    assert f"`{again[:16]}`: still sealed" in checked
    await assert_no_leak(fake)


async def test_9_6202_cvp_awarded_in_the_reph_wait_for_the_other_side(fake: FakeDiscord) -> None:
    await setup_campaign(fake)
    await play(fake)
    await report(fake, 10, 20)
    sent = await fake.command(BOB, CHANNEL, "campaign cvp", amount=7, note="encircled 6-5-8 failed its ITC")
    assert any("confirms or rejects it" in p.content for p in posts(sent, CHANNEL))
    prompt = latest_prompt(fake, "allied")
    assert "Confirm CVP" in [label.split(". ", 1)[-1] for label, _ in prompt.buttons]
    sent = await fake.click(ANN, prompt, "1. Confirm CVP")
    assert any("27 for 17N" in p.content for p in posts(sent, CHANNEL))
    assert (await state_of(fake)).history[0].cvp == {"allied": 10, "german": 27}


async def test_9_6211_an_idle_last_date_asks_for_the_cg_winner(fake: FakeDiscord) -> None:
    await setup_campaign(fake, end="18AM")
    await play(fake)
    await report(fake, 1, 1)
    await play(fake, chits={"18AM": {"allied": "idle", "german": "idle"}})
    state = await state_of(fake)
    assert state.phase == "victory"
    assert "report the CG winner per the CG Victory Conditions" in channel_text(fake)
    sent = await fake.command(ANN, CHANNEL, "campaign report", my_cvp=0, their_cvp=0, winner="draw")
    assert any("CG result: draw" in p.content for p in posts(sent, CHANNEL))
    sent = await fake.click(BOB, latest_prompt(fake, "german"), "1. Confirm")
    assert any("confirms the CG result" in p.content for p in posts(sent, CHANNEL))
    assert "The CG ends in a draw" in channel_text(fake) and "winner None" not in channel_text(fake)


async def test_9_62161_the_initial_scenarios_weather_is_reported_and_used(fake: FakeDiscord) -> None:
    await setup_campaign(fake)
    await play(fake)
    choices = await fake.autocomplete(ANN, CHANNEL, "campaign report", "weather", my_cvp=1, their_cvp=1, weather="")
    assert [c["value"] for c in choices] == ["mist", "overcast", "clear", "clear_gusty"]
    await report(fake, 1, 1, weather="overcast", ec="dry", wind="no_wind")
    await play(fake, chits={"18AM": {"allied": "attack", "german": "idle"}})
    text = channel_text(fake)
    assert "-1 previous CG Scenario was Overcast" in text and "+1 previous CG Scenario was Dry" in text


async def test_mod_load_table_takes_a_discord_attachment_and_one_side_at_a_time(fake: FakeDiscord) -> None:
    await fake.command(ANN, CHANNEL, "campaign create", start="17N", elr="allied=5 german=3", san="allied=3 german=4")
    sent = await fake.command(MOD, CHANNEL, "mod load-table", attachment=FakeFile("chart.toml", CHART.encode()))
    assert "chart.toml: rg_chart, cgs replaced" in posts(sent, CHANNEL)[0].content
    german = (
        '[rg_chart]\nstatus = "loaded"\n[[rg_chart.entry]]\nid = "I9"\nkg = "K"\nside = "german"\ntype = "TEST Pltn"\n'
        'cost = 2\nunits = "3/2"\nunit_type = "squads"\ndate_max = 1\ncg_max = 1\n'
    )
    sent = await fake.command(
        MOD, CHANNEL, "mod load-table", attachment=FakeFile("german.toml", german.encode()), side="german"
    )
    assert "(German side only)" in posts(sent, CHANNEL)[0].content
    state = await state_of(fake)
    keys = [(e["side"], e["id"]) for e in state.module["rg_chart"]["entry"]]
    assert ("allied", "I1") in keys and ("german", "I9") in keys and ("german", "A2") not in keys
    sent = await fake.command(MOD, CHANNEL, "mod load-table", attachment=FakeFile("bad.toml", b"\xff\xfe"))
    assert "not UTF-8 text" in answers(sent)[-1].content


async def test_the_purchase_dm_names_the_command_that_works(fake: FakeDiscord) -> None:
    await setup_campaign(fake)
    prompt = latest_prompt(fake, "allied", secret=True)
    assert "`/campaign buy items:I1,I1`" in prompt.content
    sent = await fake.command(ANN, CHANNEL, "campaign buy", items="I1")
    assert any("receipt" in p.content for p in posts(sent, CHANNEL))


async def test_a_whole_abtf_campaign_with_its_roster_carried_from_date_to_date(fake: FakeDiscord) -> None:
    """17N Initial, 18AM, 18PM, 18EVE: four dates played, the units entered, lost, wounded, hardened and carried."""
    chits = {
        "18AM": {"allied": "attack", "german": "attack"},
        "18PM": {"allied": "idle", "german": "attack"},
        "18EVE": {"allied": "attack", "german": "idle"},
    }
    await setup_campaign(fake, end="18EVE")
    for command in (
        dict(kind="squad", name="6-5-8", count=6, experience="elite", area="A"),
        dict(kind="leader", name="9-1", area="A"),
        dict(kind="sw", name="PIAT", area="A"),
    ):
        await fake.command(ANN, CHANNEL, "campaign add-units", **command)
    await fake.command(BOB, CHANNEL, "campaign add-units", kind="squad", name="4-6-7", count=4, experience="1st line")
    await fake.command(BOB, CHANNEL, "campaign add-units", kind="vehicle", name="PzKpfw IIIL", area="C")
    await play(fake, purchases={"17N": {"allied": ["I1"], "german": ["I1(K)"]}})
    state = await state_of(fake)
    assert state.record().entered["allied"][:8] == [f"B{n}" for n in range(1, 9)]

    # 17N: two British squads lost in the scenario, the leader wounded; the RePh applies rolls to named units
    await report(fake, 12, 9)
    sent = await fake.command(ANN, CHANNEL, "campaign update-units", units="B1,B2", changes="status=eliminated")
    assert any("B1 6-5-8: status eliminated" in p.content for p in posts(sent, CHANNEL))
    await fake.command(ANN, CHANNEL, "campaign update-units", units="B7", changes="wounded=yes")
    await play(fake, chits, until="roll")  # 9.605 offers the Escape Table
    await play_to(fake, "9.610")
    sent = await fake.command(ANN, CHANNEL, "campaign roll", table="wounded_leader", units="B7")
    assert any("British roster after the roll: B7 9-1" in p.content for p in posts(sent, CHANNEL))
    await play_to(fake, "9.611")
    await fake.command(BOB, CHANNEL, "campaign update-units", units="G1", changes="harden=yes")
    await fake.command(BOB, CHANNEL, "campaign update-units", units="G2", changes="status=eliminated")
    await fake.command(ANN, CHANNEL, "campaign add-units", kind="hs", name="3-4-8", count=2, area="A")
    last = (await state_of(fake)).rosters["allied"].units[-1].id
    before = (await state_of(fake)).rosters["allied"].units[-2].id
    sent = await fake.command(ANN, CHANNEL, "campaign recombine", units=f"{before},{last}")
    assert any(f"recombine into squad {before}" in p.content for p in posts(sent, CHANNEL))
    await play(fake, chits)
    state = await state_of(fake)
    assert state.date == "18AM" and state.history[0].returned["allied"][:4] == ["B3", "B4", "B5", "B6"]
    assert "B1" not in state.history[0].returned["allied"]
    assert next(u for u in state.rosters["german"].units if u.id == "G1").experience == "elite"

    for date, cvp in (("18AM", (20, 15)), ("18PM", (8, 30))):
        state = await state_of(fake)
        assert (state.date, state.phase) == (date, "scenario")
        entered = state.record().entered["allied"]
        assert "B1" not in entered and "B3" in entered  # the roster is carried: the lost stay lost
        await report(fake, *cvp)
        await play(fake, chits)
    state = await state_of(fake)
    assert state.date == "18EVE" and len([r for r in state.history if r.kind == "scenario"]) == 4

    # the sheet: paginated, the owner's units by area, the map state, what came back from each scenario
    first = answers(await fake.command(ANN, CHANNEL, "campaign roster"))[-1]
    assert "Page 1/" in first.content and "Setup Areas A, B, E" in first.content
    pages = [first.content]
    message = where(first, posts(fake.sent, CHANNEL)[-1])
    while any(label == "Next page" for label, _ in message.buttons):
        reply = answers(await fake.click(ANN, message, "Next page"))[-1]
        pages.append(reply.content)
        message = where(reply, message)
    sheet = "\n".join(pages)
    leader = next(u for u in (await state_of(fake)).rosters["allied"].units if u.id == "B7")
    shown = "B7      | 9-1 leader" if leader.status == "retained" else "B7 9-1 leader: eliminated"
    assert shown in sheet and "B1 6-5-8 squad: eliminated" in sheet
    state = await state_of(fake)
    for record in state.history[:3]:
        entered, back = record.entered["allied"], record.returned["allied"]
        assert f"{record.date}: {len(entered)} entered, {len(back)} came back" in sheet
    first_lost = [i for i in state.history[0].entered["allied"] if i not in state.history[0].returned["allied"]]
    assert first_lost[:2] == ["B1", "B2"] and "lost: B1 6-5-8, B2 6-5-8" in sheet
    assert re.search(r"BS\d+\.1 +\| TEST Para Pltn squad", sheet)  # of the RG bought on 17N, carried to 18EVE
    assert all(len(page) <= 2000 for page in pages)
    theirs = "\n".join(a.content for a in answers(await fake.command(BOB, CHANNEL, "campaign roster", side="allied")))
    assert "(public parts)" in theirs and "CPP received" not in theirs
    await report(fake, 2, 2, winner="allied")
    assert (await state_of(fake)).phase == "over"
    await assert_no_leak(fake)


async def play_to(fake: FakeDiscord, rule: str) -> None:
    """Press Done for both sides until the RePh reaches the step ``rule``."""
    for _ in range(20):
        state = await state_of(fake)
        view = AslAdapter().view(state, None)
        if (view.get("step") or {}).get("rule") == rule:
            return
        prompts = await fake.bot.service.prompts((await fake.bot.service.table(CHANNEL)).game)
        for seat, prompt in prompts.items():
            if "areas" in prompt.free_verbs and state.rosters[seat].areas_date != state.date:
                await fake.command(USERS[seat], CHANNEL, "campaign areas", **AREAS[seat])
            await fake.click(USERS[seat], latest_prompt(fake, seat), "1.")
    raise AssertionError(f"never reached {rule}")


async def test_umpire_local_starts_an_asl_campaign(tmp_path: Path) -> None:
    from bot.systems import systems

    chart = tmp_path / "chart.toml"
    chart.write_text(CHART, encoding="utf-8")
    out = io.StringIO()
    console = await console_play(
        systems(),
        system="asl",
        options="start=17N; end=18AM; elr=allied=5 german=3; san=allied=3 german=4; cpp=allied=8 german=8",
        script=[f"mod load-table attachment={chart}", "choose 1", "campaign buy items=I1", "as german", "choose 1"],
        out=out,
        pictures=False,
    )
    text = out.getvalue()
    assert "Campaign #1 created" in text and "chart.toml: rg_chart, cgs replaced" in text
    assert "receipt" in text and console.refusals == 0, text


async def test_unit_ids_are_suggested_one_after_another(fake: FakeDiscord) -> None:
    await setup_campaign(fake)
    await fake.command(ANN, CHANNEL, "campaign add-units", kind="squad", name="6-5-8", count=3)
    choices = await fake.autocomplete(ANN, CHANNEL, "campaign update-units", "units", units="B1,", changes="")
    assert [c["value"] for c in choices] == ["B1,B2", "B1,B3"]
    assert await fake.autocomplete(BOB, CHANNEL, "campaign update-units", "units", units="", changes="") == []
    sent = await fake.command(BOB, CHANNEL, "campaign update-units", units="B1", changes="status=eliminated")
    assert "no unit 'B1'" in answers(sent)[-1].content  # only one's own units
