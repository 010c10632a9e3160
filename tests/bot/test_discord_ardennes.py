"""Ardennes 1944 through the real discord.py command tree against the fake Discord (no network).

The dice seed is pinned so the game goes the same way each run: the Germans activate the XLVII Panzerkorps
on turn 1, move a panzer regiment, attack 110/28 in Marnach (2515) after its odds preview, the Allied
player is pinged to commit his defence support by button, and the end of the activation posts the map.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import bot.service.game_service
from bot.service.config import Settings
from bot.store.sqlite import SqliteStore
from bot.systems import systems
from bot.transports.discord_app import UmpireBot
from tests.bot import discord_ardennes_play
from tests.bot.discord_ardennes_play import (
    ANN,
    BOB,
    CHANNEL,
    EVE,
    SEED,
    choose,
    hidden_names,
    no_traceback,
    open_choices,
    prompt_to,
    reveals,
    to_operations,
)
from tests.bot.fakediscord import FakeDiscord, FakeUser, answers, posts

ROOT = Path(__file__).resolve().parents[2]

fake = discord_ardennes_play.fake
pinned_seed = discord_ardennes_play.pinned_seed


async def test_a_full_activation_through_discord(fake: FakeDiscord, pictures: list[Any]) -> None:
    sent = await to_operations(fake)
    german = prompt_to(sent, ANN)
    assert "your activation sequence" in german.content and german.pings == {ANN.id}
    sent = await fake.click(ANN, german, "1. Activate XLVII Panzerkorps")
    assert "German activates XLVII Panzerkorps" in posts(sent, CHANNEL)[0].content
    assert prompt_to(sent, ANN).pings == set()  # the player acting now is not pinged again

    # A move with autocomplete: the unit, then a destination legal for it.
    units = await fake.autocomplete(ANN, CHANNEL, "move", "units", units="")
    assert "de-2-pz-cochenhausen" in [c["value"] for c in units]
    hexes = await fake.autocomplete(ANN, CHANNEL, "move", "to", units="de-2-pz-cochenhausen", to="")
    assert hexes and len(hexes) <= 25
    sent = await fake.command(ANN, CHANNEL, "move", units="de-2-pz-cochenhausen", to=hexes[0]["value"])
    assert any(f"move 2615-2614-{hexes[0]['value']}" in p.content for p in posts(sent, CHANNEL))
    refused = await fake.command(ANN, CHANNEL, "move", units="de-2-pz-boehm", to="0101")
    assert answers(refused)[-1].content.startswith("Refused") and "(rule 6.1)" in answers(refused)[-1].content
    assert "0101 is too far:" in answers(refused)[-1].content  # the refusal says what stops the unit

    # The attack: its odds, then the confirmation; the defender is pinged for his supports.
    attackers = await fake.autocomplete(ANN, CHANNEL, "attack", "attackers", target="2515", attackers="")
    assert "de-2-pz-boehm" in [c["value"] for c in attackers]
    kinds = await fake.autocomplete(ANN, CHANNEL, "attack", "kind", target="2515", kind="")
    assert [c["value"] for c in kinds] == ["normal", "prepared"]
    sent = await fake.command(ANN, CHANNEL, "attack", target="2515", attackers="de-2-pz-boehm", kind="normal")
    preview = answers(sent)[-1]
    assert preview.ephemeral and not posts(sent)
    assert "column" in preview.content and "Final column 1:4" in preview.content and "%" in preview.content
    assert [label for label, _ in preview.buttons] == ["Confirm", "Cancel"]
    sent = await fake.click(ANN, preview, "Confirm")
    assert any("German normal attack on 2515" in p.content for p in posts(sent, CHANNEL))
    defence = prompt_to(sent, BOB)
    assert "supports to your defence" in defence.content and all(s.pings <= {BOB.id} for s in sent)
    sent = await fake.click(BOB, defence, "1. artillery of HQ VIII")
    defence = prompt_to(sent, BOB)  # the window stays open while Nuts! may be played (15.3)
    assert "Nuts!" in defence.content
    sent = await choose(fake, BOB, defence, "Go on with the combat")
    assert any("Combat at 2515" in p.content for p in posts(sent, CHANNEL))
    loss = prompt_to(sent, ANN)
    assert "no step lost yet" in loss.content and "Also: /act retreat" in loss.content  # commands, not verbs
    sent = await fake.click(ANN, loss, "1. v. Böhm/2 loses a step")
    no_traceback(sent)
    again = await fake.click(ANN, loss, "1. v. Böhm/2 loses a step")
    assert "earlier position" in answers(again)[-1].content  # a double click changes nothing

    # The end of the activation: the map of what changed, in the channel.
    pictures.clear()
    sent = await fake.command(ANN, CHANNEL, "end-activation")
    picture = next(p for p in posts(sent, CHANNEL) if p.files == ["map.png"])
    assert picture.pings == set()
    assert pictures and pictures[0][0] is None  # the channel gets the public view
    assert "your activation sequence" in prompt_to(sent, ANN).content

    # Information, privately.
    sent = await fake.command(ANN, CHANNEL, "map", overlay="reachable", unit="de-26-vg")
    assert answers(sent)[-1].files == ["map.png"] and answers(sent)[-1].ephemeral and not posts(sent)
    sent = await fake.command(BOB, CHANNEL, "hex", hex="2515")
    assert "110/28" in answers(sent)[-1].content and answers(sent)[-1].ephemeral
    sent = await fake.command(EVE, CHANNEL, "log")
    assert "Combat at 2515" in answers(sent)[-1].content
    sent = await fake.command(EVE, CHANNEL, "dice")
    assert "rolled 6" in answers(sent)[-1].content
    # a roll is labelled by the action it came in, never as if the clicking side had rolled it
    assert all(", in the " in line for line in answers(sent)[-1].content.splitlines()[1:])


async def test_an_optional_prompt_neither_pings_nor_reminds(fake: FakeDiscord) -> None:
    sent = await to_operations(fake, days_per_move=2)
    reaction = next(p for p in posts(sent, CHANNEL) if "You may play an event now" in p.content)
    assert reaction.pings == set() and "optional" in reaction.content
    assert all(s.pings <= {ANN.id} for s in sent)
    table = await fake.bot.service.table(CHANNEL)
    assert set(await fake.bot.service.store.reminders(table.game.id)) == {"german"}
    sent = await fake.click(ANN, prompt_to(sent, ANN), "1. Activate XLVII Panzerkorps")
    assert not any("You may play an event now" in p.content for p in posts(sent, CHANNEL))  # not re-posted
    events = await fake.autocomplete(BOB, CHANNEL, "event", "event", event="")
    assert "nuts" in [c["value"] for c in events]
    hexes = await fake.autocomplete(BOB, CHANNEL, "event", "hex", event="nuts", hex="")
    assert "2515" in [c["value"] for c in hexes]
    orders = await fake.autocomplete(BOB, CHANNEL, "standing-orders", "orders", orders="take-losses,")
    assert "take-losses,no-advance" in [c["value"] for c in orders]
    sent = await fake.command(BOB, CHANNEL, "standing-orders", orders="take-losses,no-advance")
    assert "Standing orders" in answers(sent)[-1].content and answers(sent)[-1].ephemeral
    assert not any("Standing orders" in p.content for p in posts(sent))


async def test_fog_of_war_keeps_hidden_units_out_of_the_channel(fake: FakeDiscord, pictures: list[Any]) -> None:
    sent = await to_operations(fake, options="fog_of_war")
    every = list(sent)
    german = prompt_to(sent, ANN)
    assert german.buttons[0][0] == "Show my choices" and "Activate" not in german.content
    sent = await fake.click(EVE, german, "Show my choices")
    assert "Only the german player" in sent[-1].content
    choices = await open_choices(fake, ANN, sent=[german])
    sent = await fake.click(ANN, choices, "1. Activate XLVII Panzerkorps")
    every += sent
    for unit, target in (("de-2-pz-cochenhausen", None), ("de-26-vg", None)):
        hexes = await fake.autocomplete(ANN, CHANNEL, "move", "to", units=unit, to="")
        every += await fake.command(ANN, CHANNEL, "move", units=unit, to=target or hexes[-1]["value"])
    pictures.clear()
    every += await fake.command(ANN, CHANNEL, "end-activation")
    table = await fake.bot.service.table(CHANNEL)
    state = await fake.bot.service.state(table.game)
    hidden = hidden_names(fake, state)
    assert hidden, "the fog of war hides some units"
    for post in posts(every, CHANNEL):
        assert not reveals(post.content, hidden), post.content
    adapter = fake.bot.service.system("ardennes44")
    unit, name = next(iter(hidden.items()))
    told = {"kind": "move", "text": f"{name} moves", "data": {"units": [unit]}, "secret_to": []}
    redacted = adapter.redact(state, None, [told])[0]["text"]  # type: ignore[attr-defined]
    assert "hidden by the fog of war" in redacted and not reveals(redacted, hidden)
    assert adapter.redact(state, adapter.game.data.side_of(unit), [told])[0]["text"] == told["text"]  # type: ignore[attr-defined]
    channel_views = [view for seat, view in pictures if seat is None]
    assert channel_views
    for view in channel_views:
        shown = {u["id"] for s in view["stacks"] for u in s["units"]}
        assert not shown & set(hidden)
        assert any(s["hidden"] for s in view["stacks"])
    # Each player's own map, privately: all of his own side's units.
    pictures.clear()
    sent = await fake.command(ANN, CHANNEL, "map")
    assert answers(sent)[-1].ephemeral and answers(sent)[-1].files == ["map.png"] and not posts(sent)
    seat, view = pictures[-1]
    assert seat == "german"
    german_units = {u.id for u in state.on_map() if u.id.startswith(("de-", "hq-de"))}
    assert german_units <= {u["id"] for s in view["stacks"] for u in s["units"]}
    # The opponent's log reads the redacted sentences; the spectator's too.
    for user in (BOB, EVE):
        log = answers(await fake.command(user, CHANNEL, "log"))[-1].content
        assert not reveals(log, {k: v for k, v in hidden.items() if k.startswith("de-")}), log


def burst_child(db: str, count: int) -> None:
    """Run in a child process: a burst of standing-orders commands through the bot; print ACK n as each is
    answered. The parent kills this process in the middle of the burst."""

    async def main() -> None:
        setattr(bot.service.game_service, "new_seed", lambda: SEED)  # noqa: B010 (pinned dice for the whole burst)
        store = await SqliteStore.open(db)
        umpire = UmpireBot(Settings(token=None, db=db), store, systems(), sync_commands=False,
                           run_background_tasks=False)  # fmt: skip
        fake = FakeDiscord(umpire)
        await fake.start()
        await fake.command(ANN, CHANNEL, "game create", scenario="initial-assault")
        await fake.command(ANN, CHANNEL, "game join", seat="german")
        await fake.command(BOB, CHANNEL, "game join", seat="allied")
        await fake.command(BOB, CHANNEL, "game start")
        print("READY", flush=True)
        for n in range(count):
            user, orders = burst_order(n)
            sent = await fake.command(user, CHANNEL, "standing-orders", orders=orders)
            if any("Standing orders" in a.content for a in answers(sent)):
                print(f"ACK {n}", flush=True)

    asyncio.run(main())


def burst_order(n: int) -> tuple[FakeUser, str]:
    names = ["take-losses", "retreat", "no-advance", "keep-rolls", "no-defence-supports"]
    return (ANN, BOB)[n % 2], ",".join(names[: 1 + n % 5])


async def test_a_kill_during_a_burst_loses_nothing_acknowledged(db_path: Path, pinned_seed: None) -> None:
    code = "import sys; from tests.bot.test_discord_ardennes import burst_child; burst_child(sys.argv[1], 400)"
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", code, str(db_path), cwd=ROOT, stdout=asyncio.subprocess.PIPE
    )
    assert child.stdout is not None
    acked: list[int] = []
    try:
        while len(acked) < 60:
            line = (await asyncio.wait_for(child.stdout.readline(), 120)).decode().split()
            assert line, "the child stopped early"
            if line[0] == "ACK":
                acked.append(int(line[1]))
        os.kill(child.pid, signal.SIGKILL)  # in the middle of the burst, no goodbye
    finally:
        if child.returncode is None:
            child.kill()
        await child.wait()
    assert child.returncode == -signal.SIGKILL
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    store = await SqliteStore.open(db_path)
    try:
        game = await store.latest_game_in(CHANNEL)
        assert game is not None
        rows = [r for r in await store.actions(game.id) if r.verb == "standing_orders"]
        assert len(rows) >= len(acked)
        for n in acked:
            user, orders = burst_order(n)
            assert rows[n].args == {"orders": orders} and rows[n].user_id == user.id
    finally:
        await store.close()


@pytest.fixture
def drawn_maps(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[Any, Any]]]:
    """Every (MapPicture, region) the renderer draws."""
    import render.snapshot

    drawn: list[tuple[Any, Any]] = []
    original = render.snapshot.render_map

    def spy(picture: Any, zoom: Any = None, region: Any = None, **kwargs: Any) -> Any:
        drawn.append((picture, region))
        return original(picture, zoom, region, **kwargs)

    monkeypatch.setattr(render.snapshot, "render_map", spy)
    yield drawn


@pytest.mark.parametrize("page", [60, 1], ids=["one-page", "read-back-page-by-page"])
async def test_the_picture_after_an_activation_is_a_close_up_of_everything_it_did(
    fake: FakeDiscord, drawn_maps: list[tuple[Any, Any]], monkeypatch: pytest.MonkeyPatch, page: int
) -> None:
    # With a page of one action, the activation's start lies several pages back: it must still be drawn whole.
    monkeypatch.setattr(bot.service.game_service, "RECENT_PAGE", page)
    sent = await to_operations(fake)
    sent = await fake.click(ANN, prompt_to(sent, ANN), "1. Activate XLVII Panzerkorps")
    hexes = await fake.autocomplete(ANN, CHANNEL, "move", "to", units="de-2-pz-cochenhausen", to="")
    sent = await fake.command(ANN, CHANNEL, "move", units="de-2-pz-cochenhausen", to=hexes[0]["value"])
    assert len(posts(sent, CHANNEL)) == 1  # a move is one message: what happened and the next prompt
    sent = await fake.command(ANN, CHANNEL, "attack", target="2515", attackers="de-2-pz-boehm", kind="normal")
    sent = await fake.click(ANN, answers(sent)[-1], "Confirm")
    sent = await fake.click(BOB, prompt_to(sent, BOB), "1. artillery of HQ")
    sent = await choose(fake, BOB, prompt_to(sent, BOB), "Go on with the combat")
    loss = prompt_to(sent, ANN)
    retreat = next(label for label, _ in loss.buttons if "Retreat" in label)
    no_traceback(await fake.click(ANN, loss, retreat))
    drawn_maps.clear()
    sent = await fake.command(ANN, CHANNEL, "end-activation")
    picture = next(p for p in posts(sent, CHANNEL) if p.files == ["map.png"])
    assert picture.file_data["map.png"].startswith(b"\x89PNG")
    ((drawn, region),) = drawn_maps
    assert region is not None, "a close-up, not the whole map"
    happened = drawn.happened
    assert any(len(arrow.path) >= 2 for arrow in happened.moves), "the move's arrow"
    assert [a.target for a in happened.attacks] == [2515] and happened.attacks[0].result, "the attack and result"
    assert happened.attacks[0].sources, "the attack's arrow from the attacker's hex"
    assert happened.retreats, "the retreat's arrow"


async def test_a_seats_run_of_moves_is_one_message_edited_until_someone_else_posts(fake: FakeDiscord) -> None:
    sent = await to_operations(fake)
    sent = await fake.click(ANN, prompt_to(sent, ANN), "1. Activate XLVII Panzerkorps")
    activation = prompt_to(sent, ANN)
    moves = []
    for unit in ("de-2-pz-cochenhausen", "de-2-pz-boehm", "de-2-pz-boehm"):
        hexes = await fake.autocomplete(ANN, CHANNEL, "move", "to", units=unit, to="")
        sent = await fake.command(ANN, CHANNEL, "move", units=unit, to=hexes[-1]["value"])
        (post,) = posts(sent, CHANNEL)
        moves.append(post)
    assert activation.edit_of is None and {m.edit_of for m in moves} == {int(activation.message["id"])}
    last = moves[-1].content
    assert last.startswith("**german** (<@11>) /activate") and last.count("**german** (<@11>) /move") == 3
    assert last.count(f"<@{ANN.id}> (**german**):") == 1
    assert not moves[-1].pings and moves[-1].buttons, "one prompt, the latest, with its buttons"
    await fake.command(ANN, CHANNEL, "end-activation")  # the picture is posted: the next run starts anew
    sent = await fake.command(BOB, CHANNEL, "pass")
    assert all(p.edit_of is None for p in posts(sent, CHANNEL))


async def test_names_work_as_ids_and_choices_that_cost_or_surprise_ask_first(fake: FakeDiscord) -> None:
    await to_operations(fake)
    sent = await fake.command(ANN, CHANNEL, "activate", formation="xlvii panzerkorps")  # a name, in any case
    assert any("German activates XLVII Panzerkorps" in p.content for p in posts(sent, CHANNEL))
    # The player who is not acting answers his optional prompt by its number: told what it plays, first.
    sent = await fake.command(BOB, CHANNEL, "choose", number=1)
    question = answers(sent)[-1]
    assert question.content.startswith("Choice 1 plays: **Nuts! at") and not posts(sent, CHANNEL)
    assert "Cancelled" in answers(await fake.click(BOB, question, "Cancel"))[-1].content
    await fake.command(ANN, CHANNEL, "end-activation")
    await fake.command(ANN, CHANNEL, "pass")
    sent = await fake.command(BOB, CHANNEL, "activate", formation="VIII Corp")  # a typo
    assert "Did you mean 'Activate VIII Corps'" in answers(sent)[-1].content
    await fake.command(BOB, CHANNEL, "activate", formation="VIII Corps")
    await fake.command(BOB, CHANNEL, "end-activation")
    await fake.command(ANN, CHANNEL, "pass")
    sent = await fake.command(BOB, CHANNEL, "activate", formation="VIII Corps")
    question = answers(sent)[-1]
    assert "already activated this turn" in question.content and "(3.5)" in question.content
    assert not posts(sent, CHANNEL)  # nothing done yet
    sent = await fake.click(BOB, question, "Confirm")
    assert any("reactivated and becomes fatigued" in p.content for p in posts(sent, CHANNEL))


async def test_a_long_games_log_never_blocks_the_event_loop(fake: FakeDiscord) -> None:
    """Three players ask for the fog-of-war log of a 2,000-action game at once: the loop keeps ticking (every
    other game stays served) while the log is worked out, and each answer is redacted for its reader."""
    await to_operations(fake, options="fog_of_war")
    service = fake.bot.service
    table = await service.table(CHANNEL)
    state = await service.state(table.game)
    adapter = service.system("ardennes44")
    data = adapter.game.data  # type: ignore[attr-defined]
    seen = {u["id"] for s in adapter.game.view(state, "allied")["stacks"] for u in s["units"]}  # type: ignore[attr-defined]
    german = [u.id for u in state.on_map() if data.side_of(u.id) == "german" and u.id not in seen]
    first = len(await service.store.actions(table.game.id)) + 1
    rows = []
    for n in range(2000):  # a long game's log, written straight into the store (replaying it would take long)
        unit = german[n % len(german)]
        events = [
            {"kind": "move", "text": f"{data.units[unit].name} moves to 2515.", "data": {"unit": unit}},
            {"kind": "roll", "text": "The German player rolls a 4 (7.5).", "data": {"die": 4, "rule": "7.5"}},
        ]
        args = json.dumps({"unit": unit})
        rows.append((table.game.id, first + n, "german", ANN.id, "move", args, json.dumps(events)))
    async with service.store.transaction() as db:
        await db.executemany(
            "INSERT INTO actions (game, seq, seat, user_id, verb, args, events, time) VALUES (?, ?, ?, ?, ?, ?, ?, 0)",
            rows,
        )
    loop = asyncio.get_running_loop()
    gaps: list[float] = []

    async def tick() -> None:
        last = loop.time()
        while True:
            await asyncio.sleep(0.005)
            gaps.append(loop.time() - last)
            last = loop.time()

    ticker = asyncio.create_task(tick())
    began = loop.time()
    sent = await asyncio.gather(*(fake.interact(fake.command_payload(u, CHANNEL, "log")) for u in (ANN, BOB, EVE)))
    took = loop.time() - began
    ticker.cancel()
    # Redacting line by line on the loop held it for the whole answer (0.9 s per 1,000 actions, each): the
    # loop never stalls for more than half the answer's time, nor past half a second on a loaded machine.
    assert gaps and max(gaps) < max(0.5, took / 2), (max(gaps), took)
    unique = list({id(s): s for each in sent for s in each}.values())
    whole = [a.file_data["answer.txt"].decode() if "answer.txt" in a.files else a.content for a in answers(unique)]
    logs = [text for text in whole if "#2003 german move" in text]  # a long log comes whole, as a file
    name = data.units[german[1999 % len(german)]].name
    assert len(logs) == 3 and len([log for log in logs if f"#2003 german move: {name} moves" in log]) == 1
    for log in [log for log in logs if f"#2003 german move: {name} moves" not in log]:  # Allied, spectator
        assert name not in log and "details hidden by the fog of war (11)" in log, log[-300:]


async def test_an_unknown_unit_id_is_refused_with_a_reason(fake: FakeDiscord) -> None:
    await to_operations(fake)
    await fake.command(ANN, CHANNEL, "activate", formation="de-xlvii-pzk")
    for command, option in (("dig-in", "unit"), ("recover", "unit"), ("leave-ip", "unit"), ("move", "units")):
        args = {option: "no-such-unit"} | ({"to": "2614"} if command == "move" else {})
        sent = await fake.command(ANN, CHANNEL, command, **args)
        no_traceback(sent)
        assert answers(sent)[-1].content.startswith("Refused"), (command, answers(sent)[-1].content)


async def test_a_simultaneous_step_pings_the_player_whose_decision_came_from_his_own_action(fake: FakeDiscord) -> None:
    await fake.command(ANN, CHANNEL, "game create", scenario="initial-assault")
    await fake.command(ANN, CHANNEL, "game join", seat="german")
    await fake.command(BOB, CHANNEL, "game join", seat="allied")
    start = await fake.command(BOB, CHANNEL, "game start")
    sent = await choose(fake, ANN, await open_choices(fake, ANN, start), "artillery to HQ XLVII PzK")
    assert all(s.pings == set() for s in sent)  # the German allotted: his next prompt comes without a ping
    sent = await choose(fake, BOB, await open_choices(fake, BOB, start), "artillery to HQ VIII")
    # Both sides allot at once (1.6): the German's prompt still waits, and he has not been pinged for it.
    assert any(s.pings == {ANN.id} for s in posts(sent, CHANNEL))
    sent = await choose(fake, BOB, prompt_to(sent, BOB), "artillery to HQ V")
    assert all(ANN.id not in s.pings for s in sent)  # once is enough
