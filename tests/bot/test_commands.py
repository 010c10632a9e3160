"""The command layer: answers, pings, buttons, refusals, and junk in every option."""

from __future__ import annotations

from typing import Any

from bot.commands.layer import COMMANDS, CUSTOM_ID, CommandLayer
from bot.service.game_service import GameService
from tests.bot.command_junk import JUNK
from tests.bot.conftest import BLUE, CHANNEL, MOD, RED, ctx, started


async def snapshot(service: GameService) -> tuple[int, int]:
    table = await service.table(CHANNEL, live=False)
    return table.game.revision, len(await service.store.actions(table.game.id, include_undone=True))


async def test_create_posts_the_seed_hash_and_the_prompts_ping_the_right_player(layer: CommandLayer) -> None:
    replies = await layer.run("game create", ctx(RED), {"scenario": "standard"})
    assert "Dice commitment" in replies[1].text and replies[1].to == "channel"
    await layer.run("game join", ctx(RED), {"seat": "red"})
    await layer.run("game join", ctx(BLUE), {})
    replies = await layer.run("game start", ctx(BLUE), {})
    dms = [r for r in replies if r.to == "dm"]
    assert sorted(r.user for r in dms if r.user) == [RED.user_id, BLUE.user_id]
    assert all(r.buttons and r.dm_fallback for r in dms)
    assert all(CUSTOM_ID.fullmatch(b.custom_id) for r in dms for b in r.buttons)
    red_button = next(r for r in dms if r.user == RED.user_id).buttons[1]
    replies = await layer.press(red_button.custom_id, ctx(RED))
    assert replies[0].text == "Done: Bid 2."
    again = await layer.press(red_button.custom_id, ctx(RED))
    assert again[0].text.startswith("Refused: That choice belongs to an earlier position")
    blue_button = next(r for r in dms if r.user == BLUE.user_id).buttons[0]
    replies = await layer.press(blue_button.custom_id, ctx(BLUE))  # still valid: blue's prompt is unchanged
    channel = [r for r in replies if r.to == "channel"]
    assert any("Bids revealed" in r.text for r in channel)
    prompt = channel[-1]
    assert prompt.mentions == (RED.user_id,) and prompt.buttons
    foreign = await layer.press(prompt.buttons[0].custom_id, ctx(BLUE))
    assert foreign[0].text == "Refused: Only the red player may answer this."


async def test_a_refusal_gives_the_reason_and_the_rule(layer: CommandLayer) -> None:
    await started(layer.service)
    replies = await layer.run("attack", ctx(RED), {"target": "moon", "attackers": "all"})
    assert replies[0].text == "Refused: You may attack only the line or the flank (rule D.4)."
    assert replies[0].ephemeral


async def test_an_attack_is_confirmed_after_its_odds(layer: CommandLayer) -> None:
    await started(layer.service)
    replies = await layer.run("attack", ctx(RED), {"target": "line", "attackers": "all"})
    assert "Odds" in replies[0].text and [b.label for b in replies[0].buttons] == ["Confirm", "Cancel"]
    before = await snapshot(layer.service)
    refused = await layer.press(replies[0].buttons[0].custom_id, ctx(BLUE))
    assert "Only the player who asked" in refused[0].text and await snapshot(layer.service) == before
    done = await layer.press(replies[0].buttons[0].custom_id, ctx(RED))
    assert any("attacks" in r.text for r in done if r.to == "channel")
    twice = await layer.press(replies[0].buttons[0].custom_id, ctx(RED))
    assert "already used" in twice[0].text


async def test_junk_in_every_option_of_every_command_changes_nothing(layer: CommandLayer) -> None:
    await started(layer.service)
    for command in COMMANDS:
        if command.name in ("game create",):
            continue
        for caller in (RED, BLUE, MOD):
            for junk in JUNK:
                options = {o.name: junk for o in command.options}
                before = await snapshot(layer.service)
                replies = await layer.run(command.name, ctx(caller), options)
                assert replies, command.name
                if command.name in ("game resign", "mod abandon", "game leave", "game undo"):
                    continue  # no junk-able option decides whether these act
                after = await snapshot(layer.service)
                assert after == before or not replies[0].text.startswith("Refused"), (command.name, junk)
    for junk in JUNK:
        await layer.press(str(junk), ctx(RED))
        await layer.autocomplete("move", "units", str(junk), {"units": junk}, ctx(RED))


async def test_junk_never_changes_state_when_refused(layer: CommandLayer) -> None:
    await started(layer.service)
    for command in COMMANDS:
        if not command.options:
            continue
        for junk in JUNK:
            options = {o.name: junk for o in command.options}
            before = await snapshot(layer.service)
            replies = await layer.run(command.name, ctx(RED), options)
            if replies[0].text.startswith("Refused"):
                assert await snapshot(layer.service) == before, (command.name, junk)


async def test_autocomplete_suggests_what_is_legal(layer: CommandLayer) -> None:
    await started(layer.service)
    assert await layer.autocomplete("attack", "target", "", {}, ctx(RED)) == [
        ("the line", "line"),
        ("the flank", "flank"),
    ]
    assert ("advance", "advance") in await layer.autocomplete("act", "verb", "", {}, ctx(RED))
    assert await layer.autocomplete("game join", "seat", "", {}, ctx(RED)) == [("red", "red"), ("blue", "blue")]
    assert await layer.autocomplete("nothing", "x", "", {}, ctx(RED)) == []


async def test_a_preview_refuses_what_its_confirm_would_refuse(layer: CommandLayer, monkeypatch: Any) -> None:
    """A preview is a promise: odds the system shows for an attack the rules refuse are not shown; the preview
    answers with the refusal Confirm would give, rule and all, and nothing waits for a Confirm."""
    from tests.bot.doubles import Duel

    monkeypatch.setattr(Duel, "preview", lambda self, state, seat, verb, args: "Odds: anything goes.")
    await started(layer.service)
    before = await snapshot(layer.service)
    replies = await layer.run("attack", ctx(RED), {"target": "moon", "attackers": "all"})
    assert replies[0].text == "Refused: You may attack only the line or the flank (rule D.4)."
    assert not replies[0].buttons and await snapshot(layer.service) == before


async def test_an_optional_offer_with_many_targets_is_one_button_not_a_list(
    layer: CommandLayer, monkeypatch: Any
) -> None:
    """A chance to act at any of dozens of places (an event at any hex) is posted as one short line with one
    button, which shows the choices (in menus) to that player alone: never a long list in the channel."""
    from engine.contract import Choice, Prompt
    from tests.bot.doubles import Duel

    plain = Duel.prompts

    def with_offer(self: Duel, state: dict[str, Any]) -> dict[str, Prompt]:
        found = plain(self, state)
        if state["phase"] == "play" and state["active"] == "red" and state["advances"]:
            offer = tuple(Choice("roll", {}, f"Roadblock at {n:04d}") for n in range(60))
            found["blue"] = Prompt("blue", "You may set up a roadblock now.", offer, rule="D.8", optional=True)
        return found

    monkeypatch.setattr(Duel, "prompts", with_offer)
    await started(layer.service)
    replies = await layer.run("act", ctx(RED), {"verb": "advance", "args": "steps=1"})
    offer = next(r for r in replies if r.to == "channel" and "roadblock" in r.text)
    assert "Roadblock at" not in offer.text and "60 choices" in offer.text and not offer.files
    assert [b.label for b in offer.buttons] == ["Show my choices"] and len(offer.text) < 300
    shown = await layer.press(offer.buttons[0].custom_id, ctx(BLUE))
    assert shown[0].ephemeral and sum(len(s.entries) for s in shown[0].selects) == 60
