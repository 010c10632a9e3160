"""What one interaction costs when fifty arrive at once (issue 12): the prompts of a position are worked out once,
and a confirmed attack writes one transaction; and the allocator's settings for big pictures. Counted, never
timed (the figures are bench/bench_bot.py's and bench/bench_memory.py's)."""

from __future__ import annotations

import contextlib
import platform
import threading
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.commands.replies import Reply, draw_picture
from bot.service.game_service import GameService
from bot.store.sqlite import SqliteStore
from bot.transports.allocator import tune_allocator
from engine.contract import IllegalActionError
from tests.bot.conftest import BLUE, CHANNEL, RED, started


def counting_prompts(service: GameService, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every time the service asks the duel's adapter for the prompts from now on (not the engine's own checks
    inside ``apply``)."""
    system = service.system("duel")
    prompts, apply = system.prompts, system.apply
    calls: list[int] = []
    applying = threading.local()

    def counted(state: Any) -> Any:
        if not getattr(applying, "now", False):
            calls.append(1)
        return prompts(state)

    def apply_quietly(state: Any, action: Any) -> Any:
        applying.now = True
        try:
            return apply(state, action)
        finally:
            applying.now = False

    monkeypatch.setattr(system, "prompts", counted)
    monkeypatch.setattr(system, "apply", apply_quietly)
    return calls


def counting_transactions(store: SqliteStore, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every write transaction the store opens from now on."""
    original = store.transaction
    opened: list[int] = []

    @contextlib.asynccontextmanager
    async def counted() -> AsyncIterator[Any]:
        opened.append(1)
        async with original() as db:
            yield db

    monkeypatch.setattr(store, "transaction", counted)
    return opened


async def test_an_action_works_out_the_prompts_once_and_the_next_one_reuses_them(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    await started(service)
    calls = counting_prompts(service, monkeypatch)
    await service.act(CHANNEL, RED, "advance", {"steps": 1})
    assert len(calls) == 1  # the position after it; the one before was worked out by the bid
    await service.prompts((await service.table(CHANNEL)).game)
    await service.act(CHANNEL, RED, "end_turn", {})
    assert len(calls) == 2


async def test_the_prompts_kept_follow_an_undo_and_go_with_the_cached_state(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    await started(service)
    await service.act(CHANNEL, RED, "advance", {"steps": 1})
    await service.undo(CHANNEL, RED)
    game = (await service.table(CHANNEL)).game
    assert await service.prompts(game) == service.system("duel").prompts(await service.state(game))
    service._cache.pop(game.id)
    calls = counting_prompts(service, monkeypatch)
    await service.prompts(game)
    assert len(calls) == 1  # the state was dropped from the cache: its prompts went with it


async def test_a_confirmed_attack_writes_one_transaction_and_is_used_once(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    await started(service)
    preview = await service.preview(CHANNEL, RED, "attack", {"target": "line", "attackers": "all"})
    assert preview is not None
    opened = counting_transactions(service.store, monkeypatch)
    await service.confirm(CHANNEL, RED, preview.token, True)
    assert len(opened) == 1
    with pytest.raises(Exception, match="already used"):
        await service.confirm(CHANNEL, RED, preview.token, True)


async def test_a_refused_confirmation_is_used_up_and_another_players_click_leaves_it(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    await started(service)
    preview = await service.preview(CHANNEL, RED, "attack", {"target": "line", "attackers": "all"})
    assert preview is not None
    with pytest.raises(Exception, match="only the player who asked"):
        await service.confirm(CHANNEL, BLUE, preview.token, True)
    assert await service.store.pending(preview.token) is not None
    system = service.system("duel")

    def refuse(state: Any, action: Any) -> Any:
        raise IllegalActionError("no attack today", "D.4")

    with monkeypatch.context() as patch:
        patch.setattr(system, "apply", refuse)
        with pytest.raises(IllegalActionError):
            await service.confirm(CHANNEL, RED, preview.token, True)
    with pytest.raises(Exception, match="already used"):
        await service.confirm(CHANNEL, RED, preview.token, True)


async def test_an_action_removes_the_previews_waiting_in_its_game(service: GameService) -> None:
    await started(service)
    preview = await service.preview(CHANNEL, RED, "attack", {"target": "line", "attackers": "all"})
    assert preview is not None
    await service.act(CHANNEL, RED, "advance", {"steps": 1})
    assert await service.store.pending(preview.token) is None


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="the allocator's settings are glibc's")
def test_the_bot_maps_big_picture_buffers_on_their_own_and_shares_two_heaps() -> None:
    assert tune_allocator() is True  # mallopt accepted both settings (docs/performance.md, "Memory")


async def test_a_picture_the_drawing_refuses_becomes_the_refusal_with_its_rule() -> None:
    async def refused() -> bytes:
        raise IllegalActionError("there is no overlay 'fog'", "6")

    drawn = await draw_picture(Reply("The map.", picture=refused))
    assert drawn.text == "Refused: There is no overlay 'fog' (rule 6)." and not drawn.files and drawn.picture is None
