"""Nothing is cut at Discord's 2,000 characters: long answers carry their whole text as a file."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.service.game_service
from bot.commands.layer import Context, Reply
from bot.commands.paging import FILE_NAME, MESSAGE_LIMIT, fit
from bot.service.config import Settings
from bot.service.game_service import Caller
from bot.store.sqlite import SqliteStore
from bot.systems import systems
from bot.transports.discord_app import UmpireBot
from tests.bot.doubles import require_ardennes
from tests.bot.fakediscord import FakeDiscord, FakeUser, Sent, answers, posts

ANN = FakeUser(11, "ann")
BOB = FakeUser(22, "bob")
EVE = FakeUser(33, "eve")
CHANNEL = 810


def test_a_short_reply_is_left_alone() -> None:
    reply = Reply("Done.")
    assert fit(reply) is reply


def test_a_long_reply_shows_its_first_lines_and_carries_the_whole_text() -> None:
    text = "\n".join(f"line {n}: " + "x" * 60 for n in range(200))
    fitted = fit(Reply(text, buttons=()))
    assert len(fitted.text) <= MESSAGE_LIMIT
    assert fitted.text.startswith("line 0: ") and "attached `answer.txt`" in fitted.text
    assert [f.name for f in fitted.files] == [FILE_NAME] and fitted.files[0].data.decode() == text
    one_line = fit(Reply("word " * 1000))
    assert len(one_line.text) <= MESSAGE_LIMIT and one_line.files[0].data.decode() == "word " * 1000


def whole(sent: Sent) -> str:
    """What a message says in full: its text, or the attached answer when the text had to be shortened."""
    assert len(sent.content) <= MESSAGE_LIMIT
    return sent.file_data[FILE_NAME].decode() if FILE_NAME in sent.files else sent.content


@pytest.fixture
async def late_game(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """An Initial Assault well into its second turn (seeded random legal play), in the fake Discord."""
    require_ardennes()
    from engine.vaevictis.legal import candidate_actions

    monkeypatch.setattr(bot.service.game_service, "new_seed", lambda: b"\x05" * 32)
    store = await SqliteStore.open(db_path)
    umpire = UmpireBot(Settings(token=None, db=str(db_path)), store, systems(), sync_commands=False,
                       run_background_tasks=False)  # fmt: skip
    fake = FakeDiscord(umpire)
    await fake.start()
    service = umpire.service
    callers = {"german": Caller(ANN.id, "ann"), "allied": Caller(BOB.id, "bob")}
    await service.create(guild=1, channel=CHANNEL, caller=callers["german"], system_id="ardennes44",
                         scenario="initial-assault")  # fmt: skip
    for seat, caller in callers.items():
        await service.join(CHANNEL, caller, seat)
    await service.start(CHANNEL, callers["german"])
    game: Any = service.system("ardennes44").game  # type: ignore[attr-defined]
    rng = random.Random(5)
    for _ in range(260):
        table = await service.table(CHANNEL)
        state = await service.state(table.game)
        prompts = game.prompts(state)
        side = rng.choice(sorted(s for s, p in prompts.items() if not p.optional) or sorted(prompts))
        actions = candidate_actions(game, state, side)
        rng.shuffle(actions)
        actions.sort(key=lambda a: a.verb in ("pass", "end_activation"))
        for action in actions:
            try:
                await service.act(CHANNEL, callers[side], action.verb, action.args, seat=side)
            except bot.service.game_service.RulesError:
                continue
            break
    yield fake
    await fake.stop()
    await store.close()


async def test_every_information_command_answers_whole_on_a_late_crowded_position(late_game: FakeDiscord) -> None:
    fake = late_game
    service = fake.bot.service
    state = await service.state((await service.table(CHANNEL)).game)
    crowded = max(state.on_map(), key=lambda u: sum(1 for v in state.on_map() if v.hex == u.hex))
    hex_ = f"{crowded.hex:04d}"
    asked: list[tuple[FakeUser, str, dict[str, Any]]] = [
        (user, name, options)
        for user in (ANN, BOB, EVE)
        for name, options in (
            ("log", {}),
            ("dice", {}),
            ("oob", {}),
            ("hex", {"hex": hex_}),
            ("stack", {"hex": hex_}),
            ("unit", {"unit": crowded.id}),
            ("game status", {}),
        )
    ]
    long_ones = 0
    for user, name, options in asked:
        sent = await fake.command(user, CHANNEL, name, **options)
        expected = await fake.bot.layer.run(name, Context(Caller(user.id, user.name), CHANNEL, 1), options)
        shown = answers(sent)[-1] if not posts(sent, CHANNEL) else posts(sent, CHANNEL)[-1]
        assert whole(shown) == expected[-1].text, (name, user.name)
        assert not shown.content.startswith("Refused") and "went wrong" not in shown.content, shown.content
        long_ones += len(expected[-1].text) > MESSAGE_LIMIT
    assert long_ones >= 3, "the position is crowded enough that some answers are longer than one message"
