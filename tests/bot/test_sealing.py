"""Sealed decisions: written with the action that carries them, and two made at the same instant both count."""

from __future__ import annotations

import asyncio

import pytest

from bot.commands.layer import CommandLayer, Reply
from bot.service.game_service import GameService, StaleError
from bot.store.records import NewAction, NewSecret, RevisionError
from tests.bot.conftest import BLUE, CHANNEL, MOD, RED, ctx, started


def bid_button(replies: list[Reply], user: int, amount: int) -> str:
    dm = next(r for r in replies if r.to == "dm" and r.user == user)
    return next(b.custom_id for b in dm.buttons if b.label.endswith(f"Bid {amount}"))


async def prompt_replies(layer: CommandLayer, service: GameService) -> list[Reply]:
    """The messages asking each seat for its decision now (the bids go by DM, with buttons)."""
    table = await service.table(CHANNEL)
    return await layer.prompt_replies(ctx(RED), table, await service.prompts(table.game), {})


async def test_two_players_sealing_at_the_same_instant_are_both_accepted(service: GameService) -> None:
    layer = CommandLayer(service, "duel")
    await started(service, bids=None)
    for round_, red_first in enumerate((True, False, True), 1):  # the same instant, in either order of arrival
        replies = await prompt_replies(layer, service)
        red = layer.press(bid_button(replies, RED.user_id, 3), ctx(RED))
        blue = layer.press(bid_button(replies, BLUE.user_id, 1), ctx(BLUE))
        both = await asyncio.gather(red, blue) if red_first else (await asyncio.gather(blue, red))[::-1]
        assert [r[0].text for r in both] == ["Done: Bid 3.", "Done: Bid 1."], both
        table = await service.table(CHANNEL)
        sealed = await service.store.secrets(table.game.id)
        assert len(sealed) == 2 * round_ and {s.owner for s in sealed[-2:]} == {"red", "blue"}
        assert await service.prompts(table.game) == {"red": (await service.prompts(table.game))["red"]}
        await service.correct(CHANNEL, MOD, 2, "bid again")  # back to the sealed bids


async def test_a_second_click_of_the_same_sealed_choice_is_refused(service: GameService) -> None:
    layer = CommandLayer(service, "duel")
    await started(service, bids=None)
    red = bid_button(await prompt_replies(layer, service), RED.user_id, 2)
    first, second = await asyncio.gather(layer.press(red, ctx(RED)), layer.press(red, ctx(RED)))
    assert first[0].text == "Done: Bid 2."
    assert second[0].text.startswith("Refused: That choice belongs to an earlier position")
    table = await service.table(CHANNEL)
    assert len(await service.store.secrets(table.game.id)) == 1


async def test_a_sealed_decision_is_written_with_its_action_or_not_at_all(service: GameService) -> None:
    await started(service, bids=None)
    game = (await service.table(CHANNEL)).game
    secret = NewSecret("red", "receipt", '{"amount": 3}')
    fresh, row = await service.store.record_action(
        game, NewAction("red", RED.user_id, "bid", {"amount": 3}, []), secret=secret
    )
    with pytest.raises(RevisionError):  # a writer that lost the race: neither the action nor its secret
        await service.store.record_action(
            game, NewAction("blue", BLUE.user_id, "bid", {"amount": 1}, []), secret=secret
        )
    secrets = await service.store.secrets(game.id)
    assert [(s.owner, s.seq) for s in secrets] == [("red", row.seq)]
    with pytest.raises(StaleError):
        await service.act(CHANNEL, BLUE, "bid", {"amount": 1}, state_id=game.revision)
    assert len(await service.store.secrets(game.id)) == 1
    assert fresh.revision == game.revision + 1
