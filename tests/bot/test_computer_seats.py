"""Seats held by the computer (issue 30): giving one, its moves through the human's path, its explanations, and
games against it at the console and through the real discord.py command tree against the fake Discord.

The computer player here is the Duel double (:class:`tests.bot.doubles.DuelComputer`); the service and the
transports name no game system, so what holds for it holds for every system's computer player.
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.commands.layer import CommandLayer
from bot.leagues.service import LeagueService
from bot.service import game_service
from bot.service.computer import ComputerMove
from bot.service.config import Settings
from bot.service.game_service import Caller, GameService, Refusal
from bot.service.thinking import ThinkingPool, decision_seed, fallback
from bot.store.sqlite import SqliteStore
from bot.systems import systems
from bot.transports.cli import main
from bot.transports.console import play
from bot.transports.discord_app import UmpireBot
from engine.contract import Action, Choice, ComputerDecision, Prompt
from tests.bot.conftest import BLUE, MOD, RED, ctx
from tests.bot.doubles import DuelComputer, duel_computer_systems, duel_systems, require_ardennes
from tests.bot.fakediscord import FakeDiscord, FakeUser, answers, bot_behind_fake_discord, posts

CHANNEL = 810
ANN = FakeUser(11, "ann")
EVE = FakeUser(33, "eve")
SEED = bytes(range(32))


@pytest.fixture
def computer_service(store: SqliteStore) -> GameService:
    service = GameService(store, duel_computer_systems(), computer_processes=0)  # decided in a thread: fast
    return service


async def created(
    service: GameService, channel: int = CHANNEL, days_per_move: float = 0, reserve_days: float = 0
) -> None:
    await service.create(
        guild=1,
        channel=channel,
        caller=RED,
        system_id="duel",
        scenario="standard",
        days_per_move=days_per_move,
        reserve_days=reserve_days,
    )


async def human_against_computer(
    service: GameService, channel: int = CHANNEL, days_per_move: float = 0, reserve_days: float = 0
) -> None:
    """ann (red) against the computer (blue, normal), started."""
    await created(service, channel, days_per_move, reserve_days)
    await service.seat_computer(channel, RED, "blue", "normal")
    await service.join(channel, RED, "red")
    await service.start(channel, RED)


# --- Giving a seat to the computer ------------------------------------------------------------------------


async def test_seat_a_system_without_a_computer_player_is_refused(service: GameService) -> None:
    await created(service)
    with pytest.raises(Refusal, match="Duel has no computer player: every seat needs a person"):
        await service.seat_computer(CHANNEL, RED, "blue")


async def test_seat_refusals_say_why(computer_service: GameService) -> None:
    service = computer_service
    await created(service)
    with pytest.raises(Refusal, match="there is no seat 'green'; the seats are red, blue"):
        await service.seat_computer(CHANNEL, RED, "green")
    with pytest.raises(Refusal, match="levels easy, normal; not 'hard'"):
        await service.seat_computer(CHANNEL, RED, "blue", "hard")
    with pytest.raises(Refusal, match="only the game's creator, one of its players or a moderator"):
        await service.seat_computer(CHANNEL, Caller(77, "stranger"), "blue")
    await service.join(CHANNEL, BLUE, "blue")
    with pytest.raises(Refusal, match=r"the blue seat is held by <@22>: only that player or a moderator"):
        await service.seat_computer(CHANNEL, RED, "blue")
    table = await service.seat_computer(CHANNEL, BLUE, "blue")  # a player gives his own seat
    assert table.computer_of("blue") == "normal" and table.user_of("blue") is None
    with pytest.raises(Refusal, match="already holds the blue seat at level normal"):
        await service.seat_computer(CHANNEL, RED, "blue", "normal")
    with pytest.raises(Refusal, match="the computer holds the blue seat"):
        await service.join(CHANNEL, BLUE, "blue")
    await service.join(CHANNEL, RED, "red")
    await service.start(CHANNEL, RED)  # the computer's seat counts as taken
    with pytest.raises(Refusal, match="the game has started: only a moderator may give a seat to the computer"):
        await service.seat_computer(CHANNEL, RED, "red")


async def test_seat_is_kept_with_the_game(computer_service: GameService, db_path: Path) -> None:
    await created(computer_service)
    await computer_service.seat_computer(CHANNEL, RED, "blue", "easy")
    reopened = await SqliteStore.open(db_path)
    try:
        game = await reopened.live_game_in(CHANNEL)
        assert game is not None
        seats = await reopened.seats(game.id)
        assert seats["blue"].computer == "easy" and seats["blue"].user_id is None and seats["red"].computer is None
    finally:
        await reopened.close()


async def test_moderator_substitutes_the_computer_for_a_player_logged(computer_service: GameService) -> None:
    service = computer_service
    await created(service)
    await service.join(CHANNEL, RED, "red")
    await service.join(CHANNEL, BLUE, "blue")
    await service.start(CHANNEL, RED)
    table = await service.seat_computer(CHANNEL, MOD, "blue")
    assert table.computer_of("blue") == "normal"
    corrections = await service.store.corrections(table.game.id)
    assert corrections[-1].kind == "substitute" and "to the computer (normal) in place of <@22>" in corrections[-1].text
    move = await service.computer_move(CHANNEL)
    assert move is not None and move.outcome is not None and move.outcome.seat == "blue"


# --- Its moves --------------------------------------------------------------------------------------------


async def test_computer_answers_a_sealed_prompt_by_the_sealed_path(computer_service: GameService) -> None:
    service = computer_service
    await human_against_computer(service)
    move = await service.computer_move(CHANNEL)
    assert move is not None and move.outcome is not None and move.sealed
    assert move.outcome.receipt is not None  # the receipt a human's sealed decision gets
    row = move.outcome.action
    assert row is not None and row.seat == "blue" and row.user_id is None and row.verb == "bid"
    secrets = await service.store.secrets(move.outcome.table.game.id)
    assert [s.owner for s in secrets] == ["blue"] and not secrets[0].revealed
    assert move.outcome.public_events == []  # its bid is not told before the reveal
    assert await service.computer_move(CHANNEL) is None  # nothing else to decide until red bids


async def test_computer_is_never_pinged_nor_clocked(computer_service: GameService) -> None:
    service = computer_service
    await human_against_computer(service, days_per_move=1, reserve_days=2)
    table = await service.table(CHANNEL)
    assert table.seats["blue"].began is None and table.seats["red"].began is not None
    assert set(await service.store.reminders(table.game.id)) == {"red"}
    await service.computer_move(CHANNEL)
    outcome = await service.act(CHANNEL, RED, "bid", {"amount": 3})  # red moves first
    outcome = await service.act(CHANNEL, RED, "end_turn", {})
    assert outcome.ping == {} and "blue" in outcome.prompts  # the computer's turn: nobody pinged
    table = await service.table(CHANNEL)
    assert table.seats["blue"].began is None and "blue" not in await service.store.reminders(table.game.id)


async def test_computer_decides_from_its_view_only(
    computer_service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twin games that differ only in what blue may not see (red's sealed bid) get the same decision."""
    service = computer_service
    monkeypatch.setattr(game_service, "new_seed", lambda: SEED)
    decisions = []
    for channel, red_bid in ((CHANNEL, 1), (CHANNEL + 1, 3)):
        await human_against_computer(service, channel)
        await service.act(channel, RED, "bid", {"amount": red_bid})
        DuelComputer.seen.clear()
        move = await service.computer_move(channel)
        assert move is not None and move.outcome is not None and move.outcome.action is not None
        decisions.append((DuelComputer.seen[-1], move.outcome.action.verb, move.outcome.action.args))
    assert decisions[0] == decisions[1]
    assert decisions[0][0]["bids"] == {}  # the view blue was given holds no bid of red's


async def test_same_game_seed_and_level_give_the_same_decisions(
    computer_service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = computer_service
    monkeypatch.setattr(game_service, "new_seed", lambda: SEED)
    logs = []
    for channel in (CHANNEL, CHANNEL + 1):
        await created(service, channel)
        await service.seat_computer(channel, RED, "red")
        await service.seat_computer(channel, RED, "blue")
        await service.start(channel, MOD)
        while await service.computer_move(channel) is not None:
            pass
        game = (await service.table(channel, live=False)).game
        assert game.status == "finished"
        logs.append([(a.seat, a.verb, a.args) for a in await service.store.actions(game.id)])
    assert logs[0] == logs[1] and len(logs[0]) > 3
    assert decision_seed(SEED.hex(), "blue", "normal", 3) != decision_seed(SEED.hex(), "blue", "easy", 3)


async def test_decision_is_made_again_when_the_game_moved_on(
    computer_service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the computer thinks nothing is locked: red bids meanwhile; the decision made for the position
    before is discarded and made again from the new one."""
    service = computer_service
    await human_against_computer(service)
    real = service.thinking.decide
    calls: list[int] = []

    async def thinking_while_red_bids(*args: Any) -> ComputerDecision | None:
        calls.append((await service.table(CHANNEL)).game.revision)
        if len(calls) == 1:
            await service.act(CHANNEL, RED, "bid", {"amount": 3})  # no lock is held: red is not kept waiting
        return await real(*args)

    monkeypatch.setattr(service.thinking, "decide", thinking_while_red_bids)
    move = await service.computer_move(CHANNEL)
    assert len(calls) == 2 and calls[1] > calls[0]
    assert move is not None and move.outcome is not None
    assert any("Bids revealed" in e["text"] for e in move.outcome.public_events)


async def test_a_refused_or_missing_decision_falls_back_to_a_legal_choice(
    computer_service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = computer_service
    await human_against_computer(service)

    async def nothing(*args: Any) -> ComputerDecision | None:
        return None  # what the wall-clock guard gives when it cuts a decision short

    monkeypatch.setattr(service.thinking, "decide", nothing)
    move = await service.computer_move(CHANNEL)
    assert isinstance(move, ComputerMove) and move.outcome is not None
    assert move.note == "The computer's decision did not come in time: it passes."
    prompt = Prompt("blue", "", (), ("advance",), optional=False)
    assert fallback(prompt) is None and fallback(Prompt("blue", "", (), optional=True)) is None


async def test_wall_clock_guard_cuts_a_decision_short_in_a_worker_process() -> None:
    pool = ThinkingPool(processes=1, guard_seconds=1.0)
    try:
        prompt = Prompt("blue", "Bid", ())
        started = time.monotonic()
        assert await pool.decide(SlowComputer(), {}, prompt, "normal", SEED) is None
        assert time.monotonic() - started < 10
        decided = await pool.decide(DuelComputer(), {"phase": "bid"}, prompt, "easy", SEED)  # a fresh worker
        assert decided is not None and decided.action == Action("blue", "bid", {"amount": 1})
    finally:
        await pool.aclose()


class SlowComputer:
    """A computer player that never finishes in time."""

    levels: tuple[str, ...] = ("normal",)

    def decide(self, view: Any, prompt: Prompt, level: str, seed: bytes) -> ComputerDecision:
        time.sleep(30)
        raise AssertionError("cut short before")


# --- The console --------------------------------------------------------------------------------------------


async def test_console_computer_against_computer_reaches_a_result(tmp_path: Path) -> None:
    out = io.StringIO()
    db = str(tmp_path / "games.sqlite3")
    console = await play(duel_computer_systems(), system="duel", ai=("red", "blue"), out=out, pictures=False, db=db)
    text = out.getvalue()
    assert console.players == {} and "**Game over**" in text
    store = await SqliteStore.open(db)
    try:  # its game checks like any other: the chain, every die, every sealed bid, the rules replay
        checked = await GameService(store, duel_computer_systems()).verify(1)
        assert not checked.problems and not checked.notes
    finally:
        await store.close()
    assert re.search(r"\*\*(red|blue)\*\* \(the computer, normal\): (holding|rolling)", text)  # its plans


async def test_console_script_against_the_computer() -> None:
    out = io.StringIO()
    script = ["choose 3", "choose 2", "game status"]
    console = await play(duel_computer_systems(), system="duel", ai=("blue",), script=script, out=out)
    text = out.getvalue()
    assert "red: @player1, blue: the computer (normal)" in text
    assert "The blue player sealed a decision; receipt" in text
    assert "**blue** (the computer, normal)" in text  # it played its turn after red ended his
    assert console.refusals == 0 and "as blue" not in text
    assert await console.line("as blue") and console.refusals == 1


async def test_console_ai_for_a_system_without_a_computer_player_is_refused() -> None:
    with pytest.raises(Refusal, match="the computer cannot play blue"):
        await play(duel_systems(), system="duel", ai=("blue",), out=io.StringIO(), pictures=False)


# --- Discord ------------------------------------------------------------------------------------------------


@pytest.fixture
async def fake(db_path: Path) -> AsyncIterator[FakeDiscord]:
    store = await SqliteStore.open(db_path)
    bot = UmpireBot(Settings(token=None, db=str(db_path)), store, duel_computer_systems(), sync_commands=False,
                    run_background_tasks=False)  # fmt: skip
    opened = FakeDiscord(bot)
    await opened.start()
    yield opened
    await opened.stop()
    await store.close()


async def test_discord_game_against_the_computer(fake: FakeDiscord) -> None:
    """Created against the computer, which answers in a worker process; a human against it proceeds; the
    explanation of its activation follows the activation's picture (or, when its roll wins, the account of that
    roll, before the result); nobody is pinged for its seat. The dice decide which: both branches are checked."""
    sent = await fake.command(
        ANN, CHANNEL, "game create", scenario="standard", system="duel", opponent="computer", side="blue"
    )
    assert any("The computer (normal) plays **blue**" in p.content for p in posts(sent, CHANNEL))
    assert any("The blue player sealed a decision; receipt" in p.content for p in posts(sent, CHANNEL))
    dm = next(s for s in sent if s.kind == "dm" and s.user == ANN.id)
    sent = await fake.click(ANN, dm, "3. Bid 3")  # red bids more and moves first
    prompt = posts(sent, CHANNEL)[-1]
    sent = await fake.click(ANN, prompt, "2. End turn")
    channel = posts(sent, CHANNEL)
    assert any("**blue** (the computer, normal)" in p.content for p in channel)  # it played its turn
    pictures = [i for i, p in enumerate(channel) if p.files == ["map.png"]]
    explained = [i for i, p in enumerate(channel) if p.content.startswith("**blue** (the computer, normal): ")]
    over = [i for i, p in enumerate(channel) if p.content.startswith("**Game over**")]
    if over:  # its last roll won: the reason comes after the account of that roll, before the result and its map
        assert explained == [over[0] - 1] and "- blue wins." in channel[over[0] - 2].content, channel
        assert pictures[-1] > over[0]
    else:
        assert explained == [pictures[-1] + 1], [(p.content[:70], p.files) for p in channel]  # after its picture
        back = next(p for p in channel if "<@11> (**red**): Your turn" in p.content)
        assert back.pings == {ANN.id} and "blue ends the turn" in back.content  # back to ann
    assert all(s.pings <= {ANN.id} for s in fake.sent)
    assert not any(b for p in channel if "**blue** (the computer, normal) decides." in p.content for b in p.buttons)
    status = await fake.command(EVE, CHANNEL, "game status")
    assert "blue: the computer (normal)" in posts(status)[0].content


async def test_discord_game_seat_refusals_are_clear(fake: FakeDiscord) -> None:
    await fake.command(ANN, CHANNEL, "game create", scenario="standard", system="duel")
    sent = await fake.command(ANN, CHANNEL, "game seat", seat="blue", level="hard")
    assert answers(sent)[-1].content == "Refused: The computer plays at the levels easy, normal; not 'hard'."
    sent = await fake.command(EVE, CHANNEL, "game seat", seat="blue")
    assert "Only the game's creator, one of its players or a moderator" in answers(sent)[-1].content
    sent = await fake.command(ANN, CHANNEL, "game seat", seat="blue", level="easy")
    assert "gave the **blue** seat to the computer (easy)" in posts(sent, CHANNEL)[-1].content
    sent = await fake.command(ANN, CHANNEL + 1, "game create", scenario="standard", opponent="robot")
    assert "The opponent is `computer`" in answers(sent)[-1].content


async def test_layer_create_against_computer_without_one_changes_nothing(service: GameService) -> None:
    layer = CommandLayer(service, "duel")
    replies = await layer.run("game create", ctx(RED), {"scenario": "standard", "opponent": "computer"})
    assert replies[0].text == "Refused: Duel has no computer player: every seat needs a person."
    assert await service.store.live_game_in(ctx(RED).channel) is None


def test_umpire_local_script_against_the_ardennes_computer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`umpire local --ai german --script`: the Vae Victis computer opponent answers the German prompts (in its
    worker process) until the Allied player, at the console, must decide."""
    require_ardennes()
    script = tmp_path / "game.txt"
    script.write_text("game status\nquit\n", encoding="utf-8")
    argv = ["local", "--ai", "german", "--level", "easy", "--script", str(script), "--no-pictures", "--db", ":memory:"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Seats: german: the computer (easy), allied: @player2." in out
    assert "**german** (the computer, easy)\n- " in out  # it acted, through the same account as a player
    status = out[out.index("allied> game status") :]
    assert "Waiting for **allied** (@player2)" in status and "Waiting for **german**" not in status
    assert "Refused" not in out


def test_umpire_local_refuses_an_unknown_level(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require_ardennes()
    assert main(["local", "--ai", "german", "--level", "godlike", "--no-pictures", "--db", ":memory:"]) == 1
    captured = capsys.readouterr()
    assert "Refused: The computer plays at the levels easy, normal, hard; not 'godlike'." in captured.out
    assert "umpire: the computer cannot play german" in captured.err


# --- Leagues --------------------------------------------------------------------------------------------------


async def test_league_game_never_gets_a_computer_seat(store: SqliteStore) -> None:
    """Games against the computer are never rated: a league game's seat is refused to the computer, for its
    players and for a moderator alike, and the game's seats are left as they were."""
    from tests.leagues.league_setups import GUILD, LEAGUE, ORG, PLAYERS, Threads, league

    games = GameService(store, duel_computer_systems(), computer_processes=0)
    room = LeagueService(games)
    await league(room, 2, rounds=1)
    _, pairings, _ = await room.next_round(LEAGUE, ORG, Threads(), guild=GUILD)
    pairing = next(p for p in pairings if p.second is not None)
    game = await store.game(pairing.game or 0)
    assert game is not None
    for caller in (PLAYERS[0], MOD):
        with pytest.raises(
            Refusal, match=rf"game #{game.id} is a league game: .* games against the computer never are"
        ):
            await games.seat_computer(game.channel, caller, "blue")
    assert not (await games.table(game.channel)).computer_seats


async def test_computer_lets_a_chance_to_react_go_once_per_position(
    computer_service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An optional prompt (a chance to react) is asked of the computer like any other; a decision whose verb the
    prompt does not offer lets it go, nothing is applied, and it is not asked again at the same position."""
    service = computer_service
    await human_against_computer(service)
    await service.computer_move(CHANNEL)  # its sealed bid
    reaction = Prompt("blue", "You may react.", (Choice("roll", {}, "Roll"),), optional=True)
    real_prompts = service.prompts

    async def with_reaction(game: Any) -> dict[str, Prompt]:
        return {**await real_prompts(game), "blue": reaction}

    async def declines(*args: Any) -> ComputerDecision:
        return ComputerDecision(Action("blue", "decline", {}), "nothing worth it")

    monkeypatch.setattr(service, "prompts", with_reaction)
    monkeypatch.setattr(service.thinking, "decide", declines)
    revision = (await service.table(CHANNEL)).game.revision
    move = await service.computer_move(CHANNEL)
    assert move is not None and move.outcome is None and move.note == ""
    assert (await service.table(CHANNEL)).game.revision == revision  # nothing applied
    assert await service.computer_move(CHANNEL) is None  # let go at this position
    await service.act(CHANNEL, RED, "bid", {"amount": 3})
    assert await service.computer_waiting(CHANNEL)  # a new position: asked again


async def test_discord_human_against_the_ardennes_computer(db_path: Path) -> None:
    """Ardennes 1944 against its computer opponent through the real command tree: the German computer plays
    its activation while ann answers her defender's prompts; its plan follows the picture of its activation."""
    require_ardennes()
    async with bot_behind_fake_discord(db_path, systems()) as fake:
        start = len(fake.sent)
        await fake.command(
            ANN, CHANNEL, "game create", scenario="initial-assault", opponent="computer", side="german", level="easy"
        )
        service = fake.bot.service
        for _ in range(30):
            if any(p.content.startswith("**german** (the computer, easy): ") for p in posts(fake.sent[start:])):
                break
            table = await service.table(CHANNEL)
            prompt = (await service.prompts(table.game)).get("allied")
            assert prompt is not None and not prompt.optional, "the computer left the game waiting"
            done = [i for i, c in enumerate(prompt.choices, 1) if c.label == "Done"]
            sent = await fake.command(ANN, CHANNEL, "choose", number=(done or [1])[0])
            assert not any(a.content.startswith("Refused") for a in answers(sent))
        channel = posts(fake.sent[start:], CHANNEL)
        explained = next(i for i, p in enumerate(channel) if p.content.startswith("**german** (the computer, easy): "))
        assert channel[explained - 1].files == ["map.png"]  # right after the picture of its activation
        assert channel[explained].content.startswith("**german** (the computer, easy): activates ")  # its plan
        assert "**german** (the computer, easy) /activate" in "\n".join(p.content for p in channel)
        assert all(s.pings <= {ANN.id} for s in fake.sent)


async def test_discord_resumes_the_computer_after_a_restart(fake: FakeDiscord) -> None:
    """A game whose computer seat was left to decide (the bot stopped meanwhile) is found at the start
    (:meth:`GameService.computer_games`, read by ``setup_hook``) and the computer answers then."""
    service = fake.bot.service
    await service.create(guild=1, channel=CHANNEL, caller=RED, system_id="duel", scenario="standard")
    await service.seat_computer(CHANNEL, RED, "blue")
    await service.join(CHANNEL, RED, "red")
    await service.start(CHANNEL, RED)  # no interaction: nothing told the computer
    assert await service.computer_games() == [CHANNEL] and await service.computer_waiting(CHANNEL)
    start = len(fake.sent)
    for channel in await service.computer_games():
        fake.bot.nudge_computer(channel)
    await fake.settle()
    assert any("The blue player sealed a decision" in p.content for p in posts(fake.sent[start:], CHANNEL))
    assert not await service.computer_waiting(CHANNEL)
