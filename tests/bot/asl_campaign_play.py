"""An ASL campaign played through the fake Discord: its players, chart and plans, and the check that nothing
secret leaks."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

import bot.commands.posted_files
from bot.service.config import Settings
from bot.service.game_service import Refusal, SystemFactory
from bot.store.sqlite import SqliteStore
from bot.systems.asl import AslAdapter
from bot.transports.discord_app import UmpireBot
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


def serve_posted_files(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Serve the files "posted in Discord" that ``mod load-table url:`` fetches (the chart at ``CHART_URL``);
    the files served, to which a test may add."""
    files = {CHART_URL: CHART}

    async def fetch(url: str) -> tuple[str, str]:
        if url not in files:
            raise Refusal("Discord answered 404 for that file; post it again and retry")
        return url.rsplit("/", 1)[-1], files[url]

    monkeypatch.setattr(bot.commands.posted_files, "FETCH", fetch)
    return files


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
