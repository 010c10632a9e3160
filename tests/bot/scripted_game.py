"""A whole Initial Assault played through the fake Discord as two players would: the channel's messages counted.

Shared by ``bench/bench_messages.py`` (the whole game, measured) and the test that bounds the messages of its
opening (``tests/bot/test_channel_messages.py``). The bot is the real :class:`bot.transports.discord_app.UmpireBot` with
its real command tree, fed interactions by the fake Discord (no network). The dice seed is pinned and the
players choose by seeded random legal play (``engine.vaevictis.legal.candidate_actions``), each through the
command a player would use: a prompt's choice by its number (`/choose`, what its button does), a move with
`/move`, an attack with `/attack` and its **Confirm** button, and so on. So the same engine gives the same game
each run, and two versions of the bot can be compared on it.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bot.service import game_service as service_module
from bot.service.config import Settings
from bot.store.sqlite import SqliteStore
from bot.systems import systems
from bot.transports.discord_app import UmpireBot
from engine.contract import Action
from engine.vaevictis.legal import candidate_actions
from tests.bot.fakediscord import FakeDiscord, FakeUser, Sent

SEED = 11
SCENARIO = "initial-assault"
PASS_WEIGHT = 0.6
CHANNEL = 700
PLAYERS = {"german": FakeUser(11, "ann"), "allied": FakeUser(22, "bob")}
COMMAND_OF = {"move": "move", "attack": "attack", "enter_ip": "dig-in", "recover": "recover", "enter": "enter"}


async def perform(fake: FakeDiscord, action: Action, choice: int | None) -> list[Sent]:
    """Send ``action`` the way a player would, confirming when the bot asks (an attack's odds, a
    reactivation); what the bot sent meanwhile."""
    user = PLAYERS[action.seat]
    args = {k: str(v) for k, v in action.args.items()}
    if choice is not None:
        sent = await fake.command(user, CHANNEL, "choose", number=choice, seat=action.seat)
    elif action.verb in COMMAND_OF:
        sent = await fake.command(user, CHANNEL, COMMAND_OF[action.verb], **args)
    else:
        sent = await fake.command(
            user, CHANNEL, "act", verb=action.verb, args=" ".join(f"{k}={v}" for k, v in args.items())
        )
    question = next((s for s in sent if s.buttons and s.buttons[0][0] == "Confirm"), None)
    if question is None:
        return sent
    return sent + await fake.click(user, question, "Confirm")


async def play(folder: Path, limit: int | None) -> tuple[Counter[str], int, int, float]:
    """Play the game; (messages by kind, actions applied, turn reached, seconds)."""
    service_module.new_seed = lambda: bytes([SEED]) * 32  # type: ignore[attr-defined]
    db = str(folder / "bench.sqlite3")
    store = await SqliteStore.open(db)
    umpire = UmpireBot(Settings(token=None, db=db), store, systems(), sync_commands=False, run_background_tasks=False)
    fake = FakeDiscord(umpire)
    await fake.start()
    began = time.perf_counter()
    try:
        ann, bob = PLAYERS["german"], PLAYERS["allied"]
        await fake.command(ann, CHANNEL, "game create", scenario=SCENARIO)
        await fake.command(ann, CHANNEL, "game join", seat="german")
        await fake.command(bob, CHANNEL, "game join", seat="allied")
        await fake.command(bob, CHANNEL, "game start")
        service = umpire.service
        adapter: Any = service.system("ardennes44")
        game = adapter.game
        rng = random.Random(SEED)
        applied = 0
        while limit is None or applied < limit:
            table = await service.table(CHANNEL, live=False)
            if table.game.status != "active":
                break
            state = await service.state(table.game)
            prompts = game.prompts(state)
            required = sorted(s for s, p in prompts.items() if not p.optional) or sorted(prompts)
            side = rng.choice(required)
            choices = [(c.verb, dict(c.args)) for c in prompts[side].choices]

            def key(action: Action) -> float:
                weight = PASS_WEIGHT if action.verb in ("pass", "end_activation", "end_support") else 1.0
                return rng.random() ** (1 / weight)

            for action in sorted(candidate_actions(game, state, side), key=key, reverse=True):
                listed = (action.verb, dict(action.args))
                number = choices.index(listed) + 1 if listed in choices else None
                await perform(fake, action, number)
                if (await service.table(CHANNEL, live=False)).game.revision != table.game.revision:
                    applied += 1
                    break
            else:
                raise RuntimeError(f"dead end for {side}")
        turn = int((await service.state((await service.table(CHANNEL, live=False)).game)).turn)
    finally:
        await fake.stop()
        await store.close()
    counts: Counter[str] = Counter()
    for sent in fake.sent:
        if sent.kind == "channel" and sent.channel == CHANNEL and sent.edit_of is not None:
            counts["channel edits"] += 1  # a run of one seat's actions told in one message, edited
        elif sent.kind == "channel" and sent.channel == CHANNEL:
            counts["channel"] += 1
            counts["channel with a ping"] += bool(sent.pings)
            counts["channel pictures"] += bool(sent.files)
        elif sent.kind == "dm":
            counts["dm"] += 1
        elif sent.kind in ("followup", "edit") or (sent.kind == "callback" and sent.content):
            counts["private answers"] += 1
    return counts, applied, turn, time.perf_counter() - began
