"""What a public bot needs: limits on games per user and per server and on creation, channel locks forgotten
when idle, forged button ids refused before any query, and the re-seating rule."""

from __future__ import annotations

import asyncio

import pytest

from bot.commands.layer import CommandLayer
from bot.service.config import Limits, Settings
from bot.service.game_service import Caller, ChannelLocks, GameService, Refusal
from bot.store.sqlite import SqliteStore
from tests.bot.conftest import BLUE, CHANNEL, MOD, RED, ctx
from tests.bot.doubles import duel_systems

EVE = Caller(33, "eve")


async def create(service: GameService, caller: Caller, channel: int, guild: int = 1) -> None:
    await service.create(guild=guild, channel=channel, caller=caller, system_id="duel", scenario="standard")


async def test_live_games_per_user_are_limited_with_a_clear_refusal(store: SqliteStore) -> None:
    service = GameService(store, duel_systems(), limits=Limits(games_per_user=2, games_per_server=0))
    await create(service, RED, 1)
    await create(service, RED, 2)
    with pytest.raises(Refusal, match=r"you already run 2 live games, the most this bot allows one player \(2\)"):
        await create(service, RED, 3)
    await create(service, BLUE, 3)  # another player is not held up
    await service.abandon(1, MOD, "stale")
    await create(service, RED, 4)  # an abandoned game no longer counts


async def test_a_burst_of_creations_at_once_stops_at_the_limit(store: SqliteStore) -> None:
    service = GameService(store, duel_systems(), limits=Limits(games_per_user=3, games_per_server=0))
    tried = await asyncio.gather(*(create(service, RED, c) for c in range(20)), return_exceptions=True)
    assert len([t for t in tried if t is None]) == 3
    assert all(isinstance(t, Refusal) for t in tried if t is not None)
    assert await store.count_games(creator=RED.user_id) == 3


async def test_live_games_per_server_are_limited(store: SqliteStore) -> None:
    service = GameService(store, duel_systems(), limits=Limits(games_per_user=0, games_per_server=2))
    await create(service, RED, 1, guild=7)
    await create(service, BLUE, 2, guild=7)
    with pytest.raises(Refusal, match=r"this server already holds 2 live games"):
        await create(service, EVE, 3, guild=7)
    await create(service, EVE, 3, guild=8)


async def test_creation_is_rate_limited_per_user_even_when_the_games_end(store: SqliteStore) -> None:
    service = GameService(store, duel_systems(), limits=Limits(games_per_user=0, creations_per_hour=3))
    for channel in range(3):
        await create(service, RED, channel)
        await service.abandon(channel, MOD, "churn")
    with pytest.raises(Refusal, match=r"you created 3 games in the last hour, the most this bot allows \(3 an hour\)"):
        await create(service, RED, 99)
    async with store.transaction() as db:  # an hour later
        await db.execute("UPDATE games SET created = created - 3601")
    await create(service, RED, 99)


async def test_the_limits_are_settings_and_a_bot_applies_them(store: SqliteStore) -> None:
    settings = Settings.from_env(
        {"UMPIRE_MAX_GAMES_PER_USER": "1", "UMPIRE_MAX_GAMES_PER_SERVER": "0", "UMPIRE_MAX_CREATIONS_PER_HOUR": "5"}
    )
    assert settings.limits == Limits(games_per_user=1, games_per_server=0, creations_per_hour=5)
    assert Settings.from_env({}).limits == Limits()
    with pytest.raises(ValueError, match="UMPIRE_MAX_GAMES_PER_USER must be a whole number"):
        Settings.from_env({"UMPIRE_MAX_GAMES_PER_USER": "-1"})
    from bot.transports.discord_app import UmpireBot

    bot = UmpireBot(settings, store, duel_systems(), sync_commands=False, run_background_tasks=False)
    layer = CommandLayer(bot.service, "duel")
    assert (await layer.run("game create", ctx(RED, 1), {"scenario": "standard"}))[0].text.startswith("Game created")
    refused = await layer.run("game create", ctx(RED, 2), {"scenario": "standard"})
    assert refused[0].text.startswith("Refused: You already run 1 live games")
    assert await store.live_game_in(2) is None


async def test_idle_channel_locks_are_forgotten_but_never_while_held() -> None:
    now = [0.0]
    locks = ChannelLocks(clock=lambda: now[0], idle=60)
    for channel in range(1000):
        locks.get(channel)
    held = locks.get(5)
    async with held:
        now[0] = 61
        locks.get(2000)  # the sweep runs here
        assert len(locks) == 2 and locks.get(5) is held  # the held lock survives
    waiter_lock = locks.get(6)
    await waiter_lock.acquire()
    waiter = asyncio.create_task(waiter_lock.acquire())
    await asyncio.sleep(0)
    now[0] = 200
    locks.get(7)
    assert locks.get(6) is waiter_lock  # someone waits for it: kept
    waiter_lock.release()
    await waiter
    waiter_lock.release()
    now[0] = 400
    locks.get(8)
    assert len(locks) == 1  # only the channel just asked for


async def test_the_service_keeps_locks_only_for_busy_channels(service: GameService) -> None:
    clock = [0.0]
    service.locks = ChannelLocks(clock=lambda: clock[0], idle=60)
    for channel in range(50):
        await create(service, RED, channel)
    clock[0] = 120
    await service.join(0, BLUE, "blue")
    assert len(service.locks) == 1


@pytest.mark.parametrize(
    "custom",
    [
        "wg:99999999999999999999:1:c:red.1.abc",  # too many digits for the pattern
        "wg:9999999999999999999:1:c:red.1.abc",  # 19 digits, past SQLite's largest integer
        "wg:1:9999999999999999999:c:red.1.abc",
        "wg:9223372036854775808:0:ok:abcdef",
    ],
)
async def test_a_forged_button_id_is_refused_before_any_query(layer: CommandLayer, custom: str) -> None:
    replies = await layer.press(custom, ctx(RED))
    assert [r.text for r in replies] == ["Refused: this button is not one of mine."]


async def test_the_creator_may_reseat_before_the_start_and_the_displaced_player_is_told(
    layer: CommandLayer, service: GameService
) -> None:
    await create(service, RED, CHANNEL)
    await service.join(CHANNEL, BLUE, "blue")
    replies = await layer.run("mod assign", ctx(RED), {"seat": "blue", "user": EVE.user_id})
    post = next(r for r in replies if r.to == "channel")
    assert f"<@{BLUE.user_id}> no longer holds it" in post.text and set(post.mentions) == {EVE.user_id, BLUE.user_id}
    assert (await service.table(CHANNEL)).user_of("blue") == EVE.user_id
    refused = await layer.run("mod assign", ctx(RED), {"seat": "red", "user": EVE.user_id})
    assert refused[0].text.startswith(f"Refused: <@{EVE.user_id}> already holds the blue seat: only a player")
    assert (await service.table(CHANNEL)).user_of("red") is None
    await service.join(CHANNEL, EVE, "red")  # the player himself may take both seats
    await service.assign(CHANNEL, MOD, "red", BLUE.user_id)  # and a moderator may re-seat anyone
    with pytest.raises(Refusal, match="only a moderator"):
        await service.assign(CHANNEL, BLUE, "blue", BLUE.user_id)
