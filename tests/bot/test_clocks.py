"""Correspondence clocks (docs/playing.md, "Correspondence play"): one clock for the store, the service and the
timers, moved by the tests; each seat's time counted from when its own decision began, through simultaneous
(sealed) steps, the opponent's actions, undo, substitution, correction and a restart; the reserve shown as it
really stands; the notices (a warning first, then reminders, by DM with a digest); the timeout and its claim;
vacations extended, ended early, capped, and the clock resumed where it stopped."""

from __future__ import annotations

import contextlib
import random

import pytest

from bot.commands.clock_notices import clock_lines, clock_notice
from bot.service.game_service import GameService, Refusal, RulesError, Table
from bot.service.timekeeping import TimeControl, moment, next_notice, stage, used
from bot.store.opening import open_store
from bot.store.records import GameRow, SeatRow
from bot.store.sqlite import SqliteStore
from bot.systems.vaevictis import VaeVictisAdapter
from engine.vaevictis.loader import build_game
from tests.bot.conftest import BLUE, CHANNEL, MOD, RED
from tests.bot.doubles import duel_systems
from tests.vaevictis.alsace_documents import core_documents

BACKENDS = ("sqlite", "postgresql")
"""The store's contract holds on both backends (tests/conftest.py runs each test on each)."""

DAY = 86400.0
HOUR = 3600.0
START = 1_000_000.0


class Clock:
    """A clock the test moves, in days from :data:`START`."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now

    def at(self, days: float) -> None:
        self.now = START + days * DAY


@pytest.fixture
def clock(service: GameService) -> Clock:
    moved = Clock()
    service.clock = moved
    return moved


async def correspondence(
    service: GameService, channel: int = CHANNEL, reserve: float = 3, vacation_days: float | None = None
) -> None:
    """A Duel game with 2 days per move and a reserve, started at day 0: both sides must bid (sealed, at once)."""
    await service.create(
        guild=1,
        channel=channel,
        caller=RED,
        system_id="duel",
        scenario="standard",
        days_per_move=2,
        reserve_days=reserve,
        vacation_days=vacation_days,
    )
    await service.join(channel, RED, "red")
    await service.join(channel, BLUE, "blue")
    await service.start(channel, RED)


async def seat(service: GameService, name: str, channel: int = CHANNEL) -> tuple[TimeControl, float, float]:
    """(time control, days used by the running decision, reserve days charged) of a seat now."""
    table = await service.table(channel)
    control = TimeControl.of(table.game.time_control)
    assert control is not None
    row = table.seats[name]
    return control, used(row, service.clock()) / DAY, row.reserve_used / DAY


async def test_clock_the_store_stamps_times_with_the_injected_clock(service: GameService, clock: Clock) -> None:
    clock.at(1)
    await correspondence(service)
    clock.at(1.5)
    outcome = await service.act(CHANNEL, RED, "bid", {"amount": 1})
    assert outcome.action is not None and outcome.action.time == START + 1.5 * DAY
    table = await service.table(CHANNEL)
    assert table.game.created == START + DAY and table.game.updated == START + 1.5 * DAY
    assert service.store.clock is clock  # one clock: the service's is the store's


async def test_clock_runs_per_seat_through_a_simultaneous_sealed_step(service: GameService, clock: Clock) -> None:
    """The issue's case: the German answers a simultaneous step at 1.9 days; the Allied player, silent, is
    reminded at 2.0 and charged 8.9 days when he acts at 10.9 (his decision began at 0)."""
    await correspondence(service)
    clock.at(1.5)
    warned = await service.due_reminders()
    assert sorted((n.seat, n.stage) for n in warned) == [("blue", "warning"), ("red", "warning")]
    clock.at(1.9)
    await service.act(CHANNEL, RED, "bid", {"amount": 1})  # sealed: blue reads nothing of it
    clock.at(1.99)
    assert await service.due_reminders() == []
    clock.at(2.0)
    due = await service.due_reminders()
    assert [(n.seat, n.stage) for n in due] == [("blue", "overdue")]
    assert due[0].digest == ()  # red's sealed bid stays sealed in blue's digest
    assert due[0].reserve_left == pytest.approx(3 * DAY)
    clock.at(10.9)
    await service.act(CHANNEL, BLUE, "bid", {"amount": 2})
    _, _, charged = await seat(service, "blue")
    assert charged == pytest.approx(8.9)
    _, _, red_charged = await seat(service, "red")
    assert red_charged == 0


async def test_clock_reserve_left_counts_the_running_time(service: GameService, clock: Clock) -> None:
    """Silent for 11 days with a 3-day reserve: the reserve shows used up, 6 days over, and the seat out of time."""
    await correspondence(service)
    await service.act(CHANNEL, RED, "bid", {"amount": 1})
    clock.at(11)
    table = await service.table(CHANNEL)
    clocks = {c.seat: c for c in await service.seat_clocks(table)}
    assert clocks["blue"].reserve_left == pytest.approx(-6 * DAY) and clocks["blue"].out_of_time
    assert clocks["red"].reserve_left == pytest.approx(3 * DAY) and not clocks["red"].out_of_time
    lines = clock_lines(list(clocks.values()))
    assert any("blue: out of time, the reserve is used up (6.0 day(s) over)" in line for line in lines), lines


async def test_clock_timeout_notice_comes_when_the_reserve_runs_out_and_once(
    service: GameService, clock: Clock
) -> None:
    await correspondence(service, reserve=1.5)
    told: list[tuple[int, str]] = []

    async def listener(table: Table, seat_name: str) -> None:
        told.append((table.game.id, seat_name))

    service.timeout_listeners.append(listener)
    await service.act(CHANNEL, RED, "bid", {"amount": 1})
    stages = []
    for day in (1.5, 2.0, 3.0, 3.5, 4.5, 5.5):
        clock.at(day)
        stages += [(day, n.stage, n.first_timeout) for n in await service.due_reminders()]
    assert stages == [
        (1.5, "warning", False),
        (2.0, "overdue", False),
        (3.0, "overdue", False),
        (3.5, "timeout", True),  # at the moment the reserve runs out, not a day later
        (4.5, "timeout", False),
        (5.5, "timeout", False),
    ]
    assert told == [(1, "blue")]


async def test_clock_claim_timeout_only_when_time_and_reserve_are_out(service: GameService, clock: Clock) -> None:
    ended: list[tuple[GameRow, str]] = []

    async def listener(game: GameRow, how: str) -> None:
        ended.append((game, how))

    service.end_listeners.append(listener)
    await correspondence(service)
    await service.act(CHANNEL, RED, "bid", {"amount": 1})
    clock.at(4.9)
    with pytest.raises(Refusal, match=r"no opponent has run out of time.*blue has 0\.1 day\(s\) left"):
        await service.claim_timeout(CHANNEL, RED)
    clock.at(5.0)
    with pytest.raises(Refusal, match="no opponent has run out of time"):
        await service.claim_timeout(CHANNEL, BLUE)  # the seat out of time claims nothing
    outcome = await service.claim_timeout(CHANNEL, RED)
    assert outcome.result is not None and outcome.result.winner == "red"
    assert "blue ran out of time" in outcome.result.text
    assert [how for _, how in ended] == ["timeout"]
    assert (await service.table(CHANNEL, live=False)).game.status == "finished"


async def test_clock_claim_timeout_refused_without_a_time_control(service: GameService) -> None:
    await service.create(guild=1, channel=CHANNEL, caller=RED, system_id="duel", scenario="standard")
    await service.join(CHANNEL, RED, "red")
    await service.join(CHANNEL, BLUE, "blue")
    await service.start(CHANNEL, RED)
    with pytest.raises(Refusal, match="no time control"):
        await service.claim_timeout(CHANNEL, RED)


async def test_clock_the_opponents_undo_leaves_the_waiting_seat_running(service: GameService, clock: Clock) -> None:
    await correspondence(service)
    clock.at(1.0)
    await service.act(CHANNEL, RED, "bid", {"amount": 1})
    clock.at(1.2)
    await service.undo(CHANNEL, RED)
    _, blue_used, _ = await seat(service, "blue")
    _, red_used, _ = await seat(service, "red")
    assert blue_used == pytest.approx(1.2) and red_used == pytest.approx(1.2)  # red's own decision resumed too
    clock.at(2.0)
    assert sorted(n.seat for n in await service.due_reminders()) == ["blue", "red"]


async def test_clock_an_undo_gives_back_the_reserve_it_charged(service: GameService, clock: Clock) -> None:
    await correspondence(service)
    await service.act(CHANNEL, RED, "bid", {"amount": 3})
    await service.act(CHANNEL, BLUE, "bid", {"amount": 1})  # red moves first, from day 0
    clock.at(3.0)
    await service.act(CHANNEL, RED, "advance", {"steps": 1})
    assert (await seat(service, "red"))[2] == pytest.approx(1.0)
    clock.at(3.1)
    await service.undo(CHANNEL, RED)
    _, red_used, red_charged = await seat(service, "red")
    assert red_charged == 0 and red_used == pytest.approx(3.1)  # his decision as it was, from day 0
    clock.at(3.2)
    await service.act(CHANNEL, RED, "advance", {"steps": 1})
    assert (await seat(service, "red"))[2] == pytest.approx(1.2)  # charged once, not twice


async def test_clock_a_correction_restarts_no_waiting_seat(service: GameService, clock: Clock) -> None:
    await correspondence(service)
    clock.at(0.5)
    await service.act(CHANNEL, RED, "bid", {"amount": 1})
    clock.at(1.0)
    await service.correct(CHANNEL, MOD, 1, "misclick")
    _, blue_used, _ = await seat(service, "blue")
    _, red_used, _ = await seat(service, "red")
    assert blue_used == pytest.approx(1.0)  # blue's decision still began at 0
    assert red_used == 0  # red's decision given back by the moderator starts now


async def test_clock_a_substitute_starts_anew_the_others_keep_theirs(service: GameService, clock: Clock) -> None:
    await correspondence(service)
    clock.at(6.0)
    rows = [n.seat for n in await service.due_reminders()]
    assert sorted(rows) == ["blue", "red"]
    table = await service.table(CHANNEL)
    assert table.seats["blue"].timed_out
    await service.assign(CHANNEL, MOD, "blue", 77)
    _, blue_used, _ = await seat(service, "blue")
    _, red_used, _ = await seat(service, "red")
    assert blue_used == 0 and red_used == pytest.approx(6.0)
    table = await service.table(CHANNEL)
    assert not table.seats["blue"].timed_out and table.seats["red"].timed_out
    assert (await service.store.reminders(table.game.id))["blue"] == pytest.approx(START + 7.5 * DAY)


async def test_clock_survives_a_restart(service: GameService, clock: Clock, store_target: str) -> None:
    await correspondence(service)
    clock.at(1.9)
    await service.act(CHANNEL, RED, "bid", {"amount": 1})
    other = await open_store(store_target, clock=clock)
    try:
        fresh = GameService(other, duel_systems())
        clock.at(2.0)
        due = await fresh.due_reminders()
        assert [(n.seat, n.stage) for n in due] == [("blue", "overdue")]  # the warning of 1.5 is not lost...
        assert await service.due_reminders() == []  # ...nor the reminder sent twice
        clock.at(10.9)
        await fresh.act(CHANNEL, BLUE, "bid", {"amount": 2})
        table = await fresh.table(CHANNEL)
        assert table.seats["blue"].reserve_used == pytest.approx(8.9 * DAY)
    finally:
        await other.close()


async def test_clock_vacation_extended_stops_the_clock_and_resumes_it(service: GameService, clock: Clock) -> None:
    """The issue's case: asked at day 3 of a 5-day vacation, the extension adds to it; acting at day 9.1 after a
    7-day vacation charges 0.1 day."""
    await correspondence(service)
    await service.act(CHANNEL, RED, "bid", {"amount": 1})
    await service.request_vacation(CHANNEL, BLUE, 5)
    await service.accept_vacation(CHANNEL, RED)
    clock.at(3)
    assert await service.due_reminders() == []  # no notice during a vacation
    table, opponents = await service.request_vacation(CHANNEL, BLUE, 2)
    assert opponents == [RED.user_id]
    table, seats = await service.accept_vacation(CHANNEL, RED)
    assert seats == ["blue"] and table.seats["blue"].vacation_until == START + 7 * DAY
    clock.at(7.5)
    over = await service.vacations_over()
    assert [s for _, s in over] == ["blue"] and await service.vacations_over() == []
    assert (await seat(service, "blue"))[1] == pytest.approx(0.5)  # resumed where it stopped
    clock.at(8.5)
    assert [n.seat for n in await service.due_reminders()] == ["blue"]  # the warning, 1.5 days into the clock
    clock.at(9.1)
    await service.act(CHANNEL, BLUE, "bid", {"amount": 2})
    assert (await seat(service, "blue"))[2] == pytest.approx(0.1)


async def test_clock_vacation_ended_early_gives_the_days_back(service: GameService, clock: Clock) -> None:
    await correspondence(service, vacation_days=6)
    await service.act(CHANNEL, RED, "bid", {"amount": 1})
    await service.request_vacation(CHANNEL, BLUE, 5)
    await service.accept_vacation(CHANNEL, RED)
    clock.at(1)
    with pytest.raises(Refusal, match="not on vacation"):
        await service.end_vacation(CHANNEL, RED)
    table, seats, opponents = await service.end_vacation(CHANNEL, BLUE)
    assert seats == ["blue"] and opponents == [RED.user_id]
    assert table.seats["blue"].vacation_used == pytest.approx(DAY)
    clock.at(2)
    assert (await seat(service, "blue"))[1] == pytest.approx(1.0)
    with pytest.raises(Refusal, match=r"allows 6\.0 day\(s\) of vacation.*blue has 5\.0 day\(s\) left"):
        await service.request_vacation(CHANNEL, BLUE, 6)
    await service.request_vacation(CHANNEL, BLUE, 5)  # the cap's last days


async def test_clock_notice_dm_has_a_digest_and_counts_the_players_games(service: GameService, clock: Clock) -> None:
    await correspondence(service)
    await correspondence(service, channel=CHANNEL + 1)
    await service.act(CHANNEL, RED, "bid", {"amount": 3})
    await service.act(CHANNEL, BLUE, "bid", {"amount": 1})
    await service.act(CHANNEL, RED, "advance", {"steps": 2})
    await service.act(CHANNEL, RED, "end_turn", {})
    clock.at(1.5)
    notices = {(n.table.game.channel, n.seat): n for n in await service.due_reminders()}
    blue = notices[(CHANNEL, "blue")]
    assert blue.stage == "warning" and blue.waiting_games == 2
    assert any("red advances 2" in line for line in blue.digest)
    channel_text, dm = clock_notice(blue)
    assert f"<@{BLUE.user_id}>" in channel_text and "runs out in 12 hour(s)" in channel_text
    assert "Since your last action:" in dm and "Your move in 2 game(s)." in dm
    assert f"in <#{CHANNEL}>" in dm.splitlines()[0]  # a DM names its game and links its channel


async def test_clock_runs_per_seat_through_alsace_support_and_a_sealed_stratagem(
    store: SqliteStore, clock: Clock
) -> None:
    """Alsace 1944 by correspondence (2 days per move, 3 of reserve): the simultaneous support phase, then the
    sealed initiative stratagems (2.1): each side's clock runs from its own decision's start, and the digest of
    the side still deciding never tells the other's sealed choice."""
    docs = core_documents()
    docs["setup.toml"].pop("forced_event")
    data = build_game(docs)
    service = GameService(store, {"alsace44": lambda: VaeVictisAdapter("alsace44", data)})
    await service.create(
        guild=1, channel=CHANNEL, caller=RED, system_id="alsace44", scenario="entire-battle", days_per_move=2,
        reserve_days=3,
    )  # fmt: skip
    await service.join(CHANNEL, RED, "german")
    await service.join(CHANNEL, BLUE, "allied")
    start = await service.start(CHANNEL, RED)
    assert {s for s, p in start.prompts.items() if not p.optional} == {"german", "allied"}
    clock.at(1.9)
    await service.act(CHANNEL, RED, "end_support", {})
    clock.at(2.0)
    assert [(n.seat, n.stage) for n in await service.due_reminders()] == [("allied", "overdue")]
    clock.at(10.9)
    await service.act(CHANNEL, BLUE, "end_support", {})
    assert (await seat(service, "allied"))[2] == pytest.approx(8.9)
    clock.at(11.0)
    await service.act(CHANNEL, RED, "initiative_stratagem", {"play": True})
    clock.at(12.4)
    notices = await service.due_reminders()
    assert [(n.seat, n.stage) for n in notices] == [("allied", "warning")]  # 1.5 days into the allied decision
    told = " ".join(notices[0].digest)
    assert "decided" not in told and "LXIII" not in told
    clock.at(13.4)
    await service.act(CHANNEL, BLUE, "initiative_stratagem", {"play": False})
    assert (await seat(service, "allied"))[2] == pytest.approx(8.9 + 0.5)
    assert (await seat(service, "german"))[2] == 0


@pytest.mark.parametrize("seed", range(6))
async def test_clock_promises_hold_over_random_play(service: GameService, clock: Clock, seed: int) -> None:
    """Over random Duel play by correspondence (actions, own undos, the clock moved by random spans): a seat's
    clock runs exactly while it has a required decision, and only then has a reminder; no clock starts in the
    future; each seat's reserve used is what its live actions charged (an undo gives its charge back)."""
    chooser = random.Random(seed)
    await correspondence(service)
    days = 0.0
    for _ in range(40):
        days += chooser.choice((0.0, 0.3, 1.0, 2.5))
        clock.at(days)
        table = await service.table(CHANNEL, live=False)
        if table.game.status != "active":
            break
        prompts = await service.prompts(table.game)
        if chooser.random() < 0.2:
            for caller in (RED, BLUE):
                with contextlib.suppress(Refusal):
                    await service.undo(CHANNEL, caller)
        else:
            seat_name = chooser.choice(sorted(s for s, p in prompts.items() if not p.optional))
            caller = RED if seat_name == "red" else BLUE
            if "advance" in prompts[seat_name].free_verbs and chooser.random() < 0.5:
                with contextlib.suppress(RulesError):  # at most two advances a turn (D.2)
                    await service.act(CHANNEL, caller, "advance", {"steps": 1})
            else:
                choice = chooser.choice(prompts[seat_name].choices)
                await service.act(CHANNEL, caller, choice.verb, dict(choice.args))
        table = await service.table(CHANNEL, live=False)
        if table.game.status != "active":
            break
        required = {s for s, p in (await service.prompts(table.game)).items() if not p.optional}
        assert {s for s, r in table.seats.items() if r.began is not None} == required
        assert set(await service.store.reminders(table.game.id)) == required
        assert all(r.began is None or r.began <= clock() for r in table.seats.values())
        actions = await service.store.actions(table.game.id)
        for name, row in table.seats.items():
            assert row.reserve_used == pytest.approx(sum(a.charged for a in actions if a.seat == name))


def test_clock_arithmetic_leaves_the_vacation_out_and_misses_no_timeout() -> None:
    control = TimeControl(2 * DAY, 1 * DAY, 30 * DAY)
    row = SeatRow(1, "blue", 22, START + 3 * DAY, None, 0.0, began=START, vacation_from=START + DAY)
    assert used(row, START + 2 * DAY) == pytest.approx(DAY)  # the second day was a vacation
    assert moment(row, 0.5 * DAY) == START + 0.5 * DAY  # before the vacation
    assert moment(row, 1.5 * DAY) == START + 3.5 * DAY  # after it, shifted by its two days
    timeout = moment(row, 3 * DAY)
    assert stage(control, row, timeout - 0.5) == "timeout"  # a rounding of the sums never delays it a day...
    assert next_notice(control, row, timeout - 0.5) == timeout - 0.5 + DAY  # ...nor sends it twice
    assert stage(control, row, timeout - 2 * HOUR) == "overdue"
    assert next_notice(control, row, timeout - 2 * HOUR) == timeout
