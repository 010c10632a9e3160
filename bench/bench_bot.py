"""The Discord bot: the time from an interaction to its answer, on a mid-game Entire Battle position.

``python bench/bench_bot.py`` (about a minute). The bot is the real :class:`bot.transports.discord_app.UmpireBot` with
its real discord.py command tree, fed interactions by the test suite's fake Discord (no network: HTTP calls
are recorded, so the figures are the bot's own work plus discord.py's, not Discord's round trips). The store
is a SQLite file in a temporary folder, seeded with the log of ``bench.midgame.random_game`` (The Entire
Battle, seed 7, 540 random legal actions, then on to the next pause between activations), in one
transaction per game with the last state as its snapshot, so every game starts at the same turn-4 position.

Measured for a move and for an attack (its odds preview, then its confirmation):

- ack: from the interaction to the deferral (Discord wants it within 3 s);
- answer: from the interaction to the private answer (``Done.`` or the odds), everything posted before it.

Each measure is taken in one game, then with 50 games active at once: 50 channels at the same position, the
move or attack timed in each game in turn, and four bursts fed at once, one interaction in each of the 50
games: a move; an attack's confirmation (after its odds preview, not timed); the click that ends the
activation (after a move, not timed), which brings the picture players get after an activation (since issue
11 a close-up of what it changed, here one move: 1290 x 1616 pixels at zoom 1.5); and ``/map`` (the whole
map with its margin, 2905 x 2004 pixels of map), the whole-map variant. For the last two, the time to each
answer and to each picture posted. Between runs a moderator correction takes the action back (not timed).

Before the bursts the bot draws one whole map and one close-up (timed apart, "base layers drawn"): a running
bot has long drawn its base layers (once per zoom, then cached), so the bursts measure pictures, not that.

The position is the first seed from 7 whose game, at that point, offers the side to move an activation with both
a move and an attack. ``--smoke`` (measures nothing): 10 actions in, 2 games, one run of each measure.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_store import write_log
from bench.midgame import first_seed, random_game
from bench.timing import print_load, sized
from bot.service import game_service as service_module
from bot.service.config import Limits, Settings
from bot.service.game_service import Caller
from bot.store.sqlite import SqliteStore
from bot.systems import systems
from bot.transports.discord_app import UmpireBot
from engine.contract import Action, RulesError
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.legal import candidate_actions
from engine.vaevictis.state import GameState
from scenarios import load_game
from tests.bot.fakediscord import FakeDiscord, FakeUser, Sent

SEED = 7
ACTIONS = 540
"""Random legal actions before the position (500, the engine bench's, leaves no legal attack to the side to move)."""
GAMES = 50
RUNS = 15
GERMAN = FakeUser(11, "ann")
ALLIED = FakeUser(22, "bob")
MOD = FakeUser(99, "mod", moderator=True)
FIRST_CHANNEL = 1000
ACK_TARGET = 3.0
ANSWER_TARGET = 1.0
BURST_TARGET = 3.0
"""Even the last of 50 moves sent at once is answered within Discord's 3 seconds."""
CONFIRM_BURST_TARGET = 0.5
"""50 attack confirmations at once: every answer within half a second (issue 12)."""
END_BURST_TARGET = 1.0
PICTURE_TARGET = 5.0
"""50 activations ended at once: every answer within 1 s, every picture posted within 5 s (issue 12)."""

NO_LIMITS = Limits(games_per_user=0, games_per_server=0, creations_per_hour=0)
"""The bench seats one user in 50 games: a public bot's limits would refuse the 11th."""


class TimedDiscord(FakeDiscord):
    """The fake Discord, with the time of every HTTP call the bot makes."""

    def __init__(self, umpire: UmpireBot) -> None:
        super().__init__(umpire)
        self.stamps: list[float] = []

    def _record(self, kind: str, channel: int | None, payload: dict[str, Any], files: list[str]) -> Sent:
        self.stamps.append(time.perf_counter())
        return super()._record(kind, channel, payload, files)


def plan(game: VaeVictisGame, state: GameState) -> tuple[Action, Action, Action] | None:
    """An activation of the side to move after which it has both a move and an attack; ``None`` when none has."""
    side, prompt = next((s, p) for s, p in game.prompts(state).items() if not p.optional)
    for choice in prompt.choices:
        if not choice.verb.startswith("activate"):
            continue
        activate = Action(side, choice.verb, dict(choice.args))
        active, _ = game.apply(state, activate)
        actions = candidate_actions(game, active, side)
        move = next((a for a in actions if a.verb == "move" and _legal(game, active, a)), None)
        attack = next((a for a in actions if a.verb == "attack" and _legal(game, active, a)), None)
        if move is not None and attack is not None:
            return activate, move, attack
    print("  (no activation with both a move and an attack: trying the next seed)")
    return None


def _legal(game: VaeVictisGame, state: GameState, action: Action) -> bool:
    try:
        game.apply(state, action)
    except RulesError as error:
        print(f"  ({action.verb} {dict(action.args)} refused: {error})")
        return False
    return True


def stored_rows(game: VaeVictisGame, log: list[Action], seed: int = SEED) -> list[tuple[list[dict[str, Any]], Any]]:
    """Each action of ``log`` replayed from an Entire Battle set-up with ``seed``: its events as stored, and the
    last state as the games' snapshot (what :func:`seed_games` writes)."""
    replay = game.new_game("entire-battle", {}, seed.to_bytes(32, "big"))
    rows: list[tuple[list[dict[str, Any]], Any]] = []
    for action in log:
        replay, events = game.apply(replay, action)
        rows.append(([e.to_json() for e in events], None))
    rows[-1] = (rows[-1][0], replay.to_json())
    return rows


async def seed_games(
    store: SqliteStore, log: list[Action], rows: list[tuple[list[dict[str, Any]], Any]], count: int, seed: int = SEED
) -> None:
    """``count`` games at the mid-game position, each in its own channel, written as the bot writes them."""
    seed_bytes = seed.to_bytes(32, "big")
    service_module.new_seed = lambda: seed_bytes  # type: ignore[attr-defined]
    umpire = UmpireBot(
        Settings(token=None, limits=NO_LIMITS), store, systems(), sync_commands=False, run_background_tasks=False
    )
    service = umpire.service
    german, allied = Caller(GERMAN.id, "ann"), Caller(ALLIED.id, "bob")
    for index in range(count):
        channel = FIRST_CHANNEL + index
        table = await service.create(
            guild=1, channel=channel, caller=german, system_id="ardennes44", scenario="entire-battle"
        )
        await service.join(channel, german, "german")
        await service.join(channel, allied, "allied")
        await service.start(channel, german)
        game = (await service.table(channel)).game
        logged = [(a.seat, a.verb, dict(a.args), events) for a, (events, _) in zip(log, rows, strict=True)]
        await write_log(store, game, logged, {len(log): rows[-1][1]})  # one transaction, the last state stored
        assert table.game.id == game.id


async def timed(fake: TimedDiscord, payload: dict[str, Any]) -> tuple[float, float]:
    """Feed one interaction; (seconds to the deferral, seconds to the private answer)."""
    fake._token_channels[payload["token"]] = int(payload["channel_id"])
    start_index = len(fake.sent)
    start = time.perf_counter()
    fake.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    await fake.settle()
    sent = fake.sent[start_index:]
    stamps = fake.stamps[start_index:]
    ack = next(t for s, t in zip(sent, stamps, strict=True) if s.kind == "callback")
    answer = next(t for s, t in zip(sent, stamps, strict=True) if s.kind == "followup")
    assert not any("went wrong" in s.content for s in sent), [s.content for s in sent]
    return ack - start, answer - start


async def take_back(fake: TimedDiscord, channel: int) -> None:
    sent = await fake.command(MOD, channel, "mod correct", count=1, reason="bench")
    assert any("Corrected" in s.content for s in sent), [s.content for s in sent]


def args_of(action: Action) -> dict[str, Any]:
    return {k: str(v) for k, v in action.args.items()}


async def measure(fake: TimedDiscord, channels: list[int], moves: Action, attack: Action) -> dict[str, list[float]]:
    """Move, attack preview and attack confirmation, timed in each channel in turn (RUNS in all)."""
    found: dict[str, list[float]] = {k: [] for k in ("move ack", "move", "preview", "confirm ack", "confirm")}
    user = GERMAN if moves.seat == "german" else ALLIED
    for run in range(sized(RUNS, 1)):
        channel = channels[run % len(channels)]
        ack, answer = await timed(fake, fake.command_payload(user, channel, "move", **args_of(moves)))
        found["move ack"].append(ack)
        found["move"].append(answer)
        await take_back(fake, channel)
        start_index = len(fake.sent)
        _, answer = await timed(fake, fake.command_payload(user, channel, "attack", **args_of(attack)))
        found["preview"].append(answer)
        preview = next(s for s in fake.sent[start_index:] if s.kind == "followup" and s.buttons)
        ack, answer = await timed(fake, fake.click_payload(user, preview, "Confirm"))
        found["confirm ack"].append(ack)
        found["confirm"].append(answer)
        await take_back(fake, channel)
    return found


async def burst(fake: TimedDiscord, channels: list[int], moves: Action) -> list[float]:
    """One move in every channel, all fed at once: seconds from the burst's start to each answer."""
    user = GERMAN if moves.seat == "german" else ALLIED
    payloads = [fake.command_payload(user, c, "move", **args_of(moves)) for c in channels]
    tokens = {p["token"]: p for p in payloads}
    start_index = len(fake.sent)
    start = time.perf_counter()
    for payload in payloads:
        fake._token_channels[payload["token"]] = int(payload["channel_id"])
        fake.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    await fake.settle()
    answers = [
        t for s, t in zip(fake.sent[start_index:], fake.stamps[start_index:], strict=True) if s.kind == "followup"
    ]
    assert len(answers) >= len(tokens)
    for channel in channels:
        await take_back(fake, channel)
    return [t - start for t in answers[: len(tokens)]]


async def feed_at_once(fake: TimedDiscord, payloads: list[dict[str, Any]]) -> tuple[list[float], list[float]]:
    """Feed interactions all at once: seconds from the start to each answer, and to each picture posted."""
    start_index = len(fake.sent)
    start = time.perf_counter()
    for payload in payloads:
        fake._token_channels[payload["token"]] = int(payload["channel_id"])
        fake.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    await fake.settle()
    sent = list(zip(fake.sent[start_index:], fake.stamps[start_index:], strict=True))
    assert not any("went wrong" in s.content for s, _ in sent), [s.content for s, _ in sent]
    answers = [t - start for s, t in sent if s.kind == "followup" and not s.files][: len(payloads)]
    pictures = [t - start for s, t in sent if s.kind in ("channel", "followup") and s.files]
    return answers, pictures


async def confirm_burst(fake: TimedDiscord, channels: list[int], attack: Action) -> list[float]:
    """An attack's odds previewed in every channel (not timed), then every confirmation clicked at once."""
    user = GERMAN if attack.seat == "german" else ALLIED
    payloads = []
    for channel in channels:
        start_index = len(fake.sent)
        await fake.command(user, channel, "attack", **args_of(attack))
        preview = next(s for s in fake.sent[start_index:] if s.kind == "followup" and s.buttons)
        payloads.append(fake.click_payload(user, preview, "Confirm"))
    answers, _ = await feed_at_once(fake, payloads)
    for channel in channels:
        await take_back(fake, channel)
    return answers


def end_activation_click(fake: TimedDiscord, user: FakeUser, sent: list[Sent], channel: int) -> dict[str, Any]:
    """The click on "End activation" in the latest prompt of a channel (a button, or a choice in a menu)."""
    prompt = next(s for s in reversed(sent) if s.channel == channel and "End activation" in s.content and s.buttons)
    number = int(next(line for line in prompt.content.splitlines() if "End activation" in line).split("]")[0][1:])
    button = next((label for label, _ in prompt.buttons if label.startswith(f"{number}. ")), None)
    if button is not None:
        return fake.click_payload(user, prompt, button)
    for label, _ in prompt.buttons:  # menus: "Choices 1-25", "Choices 26-50" ...
        low, high = (int(n) for n in label.split(" ")[-1].split("-"))
        if low <= number <= high:
            return fake.click_payload(user, prompt, label, values=[str(number)])
    raise RuntimeError("no End activation choice in the prompt")


async def end_burst(fake: TimedDiscord, channels: list[int], moves: Action) -> tuple[list[float], list[float]]:
    """A move in every channel (not timed), then every "End activation" clicked at once."""
    user = GERMAN if moves.seat == "german" else ALLIED
    payloads = []
    for channel in channels:
        sent = await fake.command(user, channel, "move", **args_of(moves))
        payloads.append(end_activation_click(fake, user, sent, channel))
    return await feed_at_once(fake, payloads)


async def map_burst(fake: TimedDiscord, channels: list[int], user: FakeUser) -> tuple[list[float], list[float]]:
    """``/map`` in every channel at once (the whole map each): seconds to each answer and each picture posted."""
    return await feed_at_once(fake, [fake.command_payload(user, c, "map") for c in channels])


async def warm_pictures(fake: TimedDiscord, channel: int, user: FakeUser) -> float:
    """Draw a whole map and a close-up (the base layer of each zoom, drawn once per process); seconds taken."""
    start = time.perf_counter()
    await fake.command(user, channel, "map")
    await fake.command(user, channel, "map", hex="1817")
    return time.perf_counter() - start


async def bench(folder: Path) -> list[tuple[str, float, float, float]]:
    game = VaeVictisGame(load_game("ardennes44"))
    began = time.perf_counter()

    def position(seed: int) -> tuple[GameState, list[Action], tuple[Action, Action, Action]] | None:
        state, log = random_game(game, seed, sized(ACTIONS, 10), rest=True)
        found = plan(game, state)
        return None if found is None else (state, log, found)

    seed, (state, log, (activate, moves, attack)) = first_seed(position, start=SEED)
    rows = stored_rows(game, log, seed)
    print(f"position: seed {seed}, {len(log)} actions, turn {state.turn}; "
          f"{activate.seat} {activate.verb} {dict(activate.args)}, "
          f"move {dict(moves.args)}, attack {dict(attack.args)} ({time.perf_counter() - began:.1f} s)")  # fmt: skip
    figures: list[tuple[str, float, float, float]] = []
    for count in (1, sized(GAMES, 2)):
        store = await SqliteStore.open(folder / f"bench-{count}.sqlite3")
        began = time.perf_counter()
        await seed_games(store, log, rows, count, seed)
        print(f"{count} game(s) seeded in {time.perf_counter() - began:.1f} s")
        try:
            figures += await bench_store(store, count, activate, moves, attack)
        finally:
            await store.close()
    return figures


async def bench_store(
    store: SqliteStore, count: int, activate: Action, moves: Action, attack: Action
) -> list[tuple[str, float, float, float]]:
    """The measures on a store holding ``count`` games at the position."""
    figures: list[tuple[str, float, float, float]] = []
    umpire = UmpireBot(
        Settings(token=None, limits=NO_LIMITS), store, systems(), sync_commands=False, run_background_tasks=False
    )
    fake = TimedDiscord(umpire)
    await fake.start()
    try:
        channels = [FIRST_CHANNEL + i for i in range(count)]
        user = GERMAN if activate.seat == "german" else ALLIED
        verb = "activate"
        formation = str(activate.args.get("formation", "general"))
        for channel in channels:  # load each game, open the activation (not timed)
            sent = await fake.command(user, channel, verb, formation=formation)
            assert not any("Refused" in s.content for s in sent), [s.content for s in sent]
        found = await measure(fake, channels, moves, attack)
        label = "1 game" if count == 1 else f"{count} games active"
        for name, target in (
            ("move ack", ACK_TARGET),
            ("move", ANSWER_TARGET),
            ("preview", ANSWER_TARGET),
            ("confirm ack", ACK_TARGET),
            ("confirm", ANSWER_TARGET),
        ):
            times = found[name]
            figures.append((f"{label}: {name}", statistics.median(times), max(times), target))
        if count > 1:
            warm = await warm_pictures(fake, channels[0], user)
            figures.append(("base layers drawn (whole map and close-up, once per process)", warm, warm, 0.0))
            times = await burst(fake, channels, moves)
            name = f"{label}: burst of {count} moves at once, each answer"
            figures.append((name, statistics.median(times), max(times), BURST_TARGET))
            times = await confirm_burst(fake, channels, attack)
            name = f"{label}: {count} attack confirmations at once, each answer"
            figures.append((name, statistics.median(times), max(times), CONFIRM_BURST_TARGET))
            answers, pictures = await end_burst(fake, channels, moves)
            assert len(pictures) == count, len(pictures)
            name = f"{label}: {count} activations ended at once, each answer"
            figures.append((name, statistics.median(answers), max(answers), END_BURST_TARGET))
            name = f"{label}: {count} activations ended at once, each picture posted"
            figures.append((name, statistics.median(pictures), max(pictures), PICTURE_TARGET))
            answers, pictures = await map_burst(fake, channels, user)
            assert len(pictures) == count, len(pictures)
            name = f"{label}: {count} /map (whole map) at once, each answer"
            figures.append((name, statistics.median(answers), max(answers), END_BURST_TARGET))
            name = f"{label}: {count} /map (whole map) at once, each picture posted"
            figures.append((name, statistics.median(pictures), max(pictures), 0.0))
    finally:
        await fake.stop()
    return figures


def main() -> None:
    print_load()
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(bench(Path(folder)))
    print("| measure | median | worst | target | ratio (median) |")
    print("|---|---|---|---|---|")
    for name, median, worst, target in figures:
        goal, ratio = (f"{target:g} s", f"{median / target:.3f}") if target else ("-", "-")
        print(f"| {name} | {median * 1000:.1f} ms | {worst * 1000:.1f} ms | {goal} | {ratio} |")


if __name__ == "__main__":
    main()
