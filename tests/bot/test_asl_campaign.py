"""An ASL campaign game through the real discord.py command tree against the fake Discord (no network).

The bot keeps the campaign between the CG Scenarios: creation, seats, the organiser's RG chart, the Refit
Phase step by step (public rolls in the channel, sealed decisions by DM buttons and menus with a receipt
posted at the commit), scenario reports, chit reveals, and at the end every receipt checked. After every
interaction the test checks that no sealed content has reached a channel before its reveal.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.commands.posted_files
from bot.service.config import Settings
from bot.service.game_service import Refusal, SystemFactory
from bot.store.sqlite import SqliteStore
from bot.systems.asl import AslAdapter
from bot.transports.discord_app import UmpireBot
from engine.asl import verify_receipt
from engine.asl.refit import describe_secret
from engine.asl.state import CampaignState
from tests.bot.fakediscord import FakeDiscord, FakeUser, Sent, answers, posts

ANN = FakeUser(11, "ann")  # the British (allied) player
BOB = FakeUser(22, "bob")  # the German player
EVE = FakeUser(33, "eve")
MOD = FakeUser(99, "mod", moderator=True)
CHANNEL = 800
USERS = {"allied": ANN, "german": BOB}
CHART = (Path(__file__).parents[1] / "asl" / "example_rg_chart.toml").read_text(encoding="utf-8")
"""Invented RG chart and CG (TEST DATA, not from ABtF): the ABtF chart is absent from the source."""
CHART_URL = "https://cdn.discordapp.com/attachments/1/2/example_rg_chart.toml"

AREAS = {
    "allied": {"setup": "A,B,E", "strategic": "B3,E7", "perimeter": "Oosterbeek church to the river"},
    "german": {"setup": "C,D,H", "strategic": "H2"},
}
"""What each side enters in 9.605 after each scenario."""

Plan = dict[str, dict[str, Any]]
"""By CG Date, each side's choice: ``{"18AM": {"allied": "attack"}}`` or a list of items to buy."""


def asl_systems() -> dict[str, SystemFactory]:
    return {"asl": AslAdapter}


async def open_fake(db_path: Path) -> FakeDiscord:
    store = await SqliteStore.open(db_path)
    bot_ = UmpireBot(Settings(token=None, db=str(db_path)), store, asl_systems(), sync_commands=False,
                     run_background_tasks=False)  # fmt: skip
    fake = FakeDiscord(bot_)
    await fake.start()
    return fake


async def close_fake(fake: FakeDiscord) -> None:
    await fake.stop()
    await fake.bot.service.store.close()


@pytest.fixture(autouse=True)
def posted_files(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Files "posted in Discord" that ``mod load-table url:`` fetches."""
    files = {CHART_URL: CHART}

    async def fetch(url: str) -> tuple[str, str]:
        if url not in files:
            raise Refusal("Discord answered 404 for that file; post it again and retry")
        return url.rsplit("/", 1)[-1], files[url]

    monkeypatch.setattr(bot.commands.posted_files, "FETCH", fetch)
    return files


@pytest.fixture
async def fake(db_path: Path) -> AsyncIterator[FakeDiscord]:
    opened = await open_fake(db_path)
    yield opened
    await close_fake(opened)


# --- The table and what the channel saw ------------------------------------------------------------------------


async def state_of(fake: FakeDiscord) -> CampaignState:
    service = fake.bot.service
    table = await service.table(CHANNEL, live=False)
    state: CampaignState = await service.state(table.game)
    return state


def channel_text(fake: FakeDiscord) -> str:
    """Everything posted in the game's channel so far."""
    return "\n".join(s.content for s in posts(fake.sent, CHANNEL))


async def assert_no_leak(fake: FakeDiscord) -> None:
    """No sealed content (purchase, CPP roll, chit, RG rolls, Fortifications) in any channel message."""
    state = await state_of(fake)
    text = channel_text(fake).lower()
    for secret in state.secrets:
        if secret.revealed:
            continue
        needles = [] if secret.kind == "chit" else [describe_secret(secret)]
        content = secret.content
        if secret.kind == "rg_purchase":
            needles += [f"{content['spent']} cpp spent"] + [k for k in content["rgs"] if "(" in k]
        if secret.kind == "cpp":
            needles.append(f"= {content['received']} cpp")
        if secret.kind == "chit":
            needles += [f"chose the {content['chit']} chit for {content['date']}"]
        if secret.kind == "rg_rolls":
            needles += [r["summary"] for r in content["results"]]
        for needle in needles:
            assert needle.lower() not in text, (secret.id, secret.kind, needle)


async def setup_campaign(fake: FakeDiscord, **options: Any) -> None:
    """The campaign created by ann, the test RG chart loaded by the moderator, both seated and started."""
    create = {
        "start": "17N",
        "end": "19AM",
        "elr": "allied=5 german=3",
        "san": "allied=3 german=4",
        "cpp": "allied=8 german=12",
        "fpp": "german=6",
    }
    create.update(options)
    sent = await fake.command(ANN, CHANNEL, "campaign create", **create)
    assert "Campaign #" in posts(sent, CHANNEL)[0].content, [s.content for s in sent]
    sent = await fake.command(MOD, CHANNEL, "mod load-table", url=CHART_URL)
    assert "rg_chart" in posts(sent, CHANNEL)[0].content
    await fake.command(ANN, CHANNEL, "game join", seat="allied")
    await fake.command(BOB, CHANNEL, "game join", seat="german")
    sent = await fake.command(BOB, CHANNEL, "game start")
    assert not any("map" in p.content.lower() for p in posts(sent, CHANNEL))  # no map, so no caption without one
    begin = latest_prompt(fake, "german")
    sent = await fake.click(BOB, begin, "1. Begin")
    assert any("campaign begins" in p.content for p in posts(sent, CHANNEL))


def latest_prompt(fake: FakeDiscord, seat: str, secret: bool = False) -> Sent:
    """The latest message with buttons that asks ``seat``: a DM for a sealed decision, else a channel post."""
    user = USERS[seat]
    for sent in reversed(fake.sent):
        if not sent.buttons:
            continue
        if secret and sent.kind == "dm" and sent.user == user.id:
            return sent
        if not secret and sent.kind == "channel" and f"(**{seat}**)" in sent.content:
            return sent
    raise AssertionError(f"no prompt for {seat}")


def where(reply: Sent, like: Sent) -> Sent:
    """An ephemeral answer, as sitting where the interaction came from (to click its components)."""
    return dataclasses.replace(reply, kind=like.kind, channel=like.channel, user=like.user)


async def buy(fake: FakeDiscord, user: FakeUser, prompt: Sent, items: list[str]) -> list[Sent]:
    """Fill the basket of a sealed purchase with the menus, then commit it."""
    adapter = AslAdapter()
    state = await state_of(fake)
    seat = next(s for s, u in USERS.items() if u == user)
    kind = "purchase" if state.step_data and "rg_purchase" in _step_kind(state) else "fortify"
    keys = [item.key for item in adapter.basket_items(state, seat, kind)]
    message = prompt
    for item in items:
        select = next(label for label, cid in message.buttons if ":bka:" in cid)
        sent = await fake.click(user, message, select, values=[str(keys.index(item))])
        reply = answers(sent)[-1]
        assert "private to you" in reply.content, reply.content
        message = where(reply, prompt)
    if not items:
        return await fake.click(user, prompt, "1. Buy nothing")
    sent = await fake.click(user, message, "Commit")
    return sent


def _step_kind(state: CampaignState) -> str:
    from engine.asl.module import module_from_raw

    return module_from_raw(state.module).steps[state.step].kind


async def play(
    fake: FakeDiscord,
    chits: Plan | None = None,
    purchases: Plan | None = None,
    forts: Plan | None = None,
    until: str | None = None,
) -> None:
    """Answer every prompt through Discord (buttons in the channel, DM buttons and menus) until a CG Scenario is
    being played, the campaign is over, or the prompt offers ``until``; check for leaks after each answer."""
    service = fake.bot.service
    for _ in range(300):
        table = await service.table(CHANNEL, live=False)
        prompts = await service.prompts(table.game)
        state = await state_of(fake)
        if not prompts or state.phase in ("scenario", "over", "victory"):
            return
        seat, prompt = next(iter(prompts.items()))
        verbs = [c.verb for c in prompt.choices] + list(prompt.free_verbs)
        if until in verbs:
            return
        user = USERS[seat]
        message = latest_prompt(fake, seat, secret=prompt.secret)
        if "areas" in verbs and state.rosters[seat].areas_date != state.date:
            sent = await fake.command(user, CHANNEL, "campaign areas", **AREAS[seat])
            assert any("Setup Areas" in p.content for p in posts(sent, CHANNEL)), [s.content for s in sent]
            continue
        if "purchase" in verbs:
            sent = await buy(fake, user, message, (purchases or {}).get(state.date, {}).get(seat, []))
        elif "fortify" in verbs:
            sent = await buy(fake, user, message, (forts or {}).get(state.date, {}).get(seat, []))
        elif "choose_chit" in verbs:
            chit = (chits or {}).get(state.date, {}).get(seat, "idle")
            label = next(label for label, _ in message.buttons if f"{chit.title()} chit" in label)
            first = not state.step_data.get("chits")
            sent = await fake.click(user, message, label)
            matrix = [p.content for p in posts(sent, CHANNEL) if "Initiative Matrix" in p.content]
            assert not matrix if first else matrix  # revealed together, when both sides are in
            assert any("receipt" in p.content for p in posts(sent, CHANNEL))
        else:
            sent = await fake.click(user, message, "1.")
        assert not any("went wrong" in s.content or s.content.startswith("Refused") for s in sent), [
            s.content for s in sent
        ]
        if prompt.secret:
            secret = (await state_of(fake)).secrets[-1]
            assert secret.receipt in channel_text(fake)  # the receipt is posted at the commit
        await assert_no_leak(fake)
    raise AssertionError("the RePh never reached a scenario")


async def report(fake: FakeDiscord, allied: int, german: int, **extra: Any) -> None:
    sent = await fake.command(ANN, CHANNEL, "campaign report", my_cvp=allied, their_cvp=german, **extra)
    assert any("reports the end" in p.content for p in posts(sent, CHANNEL)), [s.content for s in sent]
    sent = await fake.click(BOB, latest_prompt(fake, "german"), "1. Confirm")
    assert any("confirms the end" in p.content for p in posts(sent, CHANNEL))


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
