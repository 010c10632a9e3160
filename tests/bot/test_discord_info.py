"""What a commander may ask (issue 13), through the real discord.py command tree against the fake Discord.

Every test plays to the same mid-game position with the pinned dice of ``test_discord_ardennes``: on turn 1
the Germans activate the XLVII Panzerkorps, move v. Cochenhausen, attack 110/28 in Marnach (2515) with
v. Böhm (column 1:4, die 6 +1: 1/-), the Allied player commits HQ VIII's artillery in defence and plays no
Nuts!, and v. Böhm loses a step. Each command's answer is then checked for its content.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from bot.transports.cli import main as umpire
from tests.bot import discord_ardennes_play as ardennes
from tests.bot.discord_ardennes_play import (
    ANN,
    BOB,
    CHANNEL,
    EVE,
    hidden_names,
    no_traceback,
    open_choices,
    reveals,
    to_operations,
)
from tests.bot.fakediscord import FakeDiscord, Sent, answers, posts

fake = ardennes.fake
pinned_seed = ardennes.pinned_seed
pytestmark = pytest.mark.usefixtures("pinned_seed")

ATTACK_ROW = "turn 1: german attack, column 1:4, die 6 +1: 1/-"


async def mid_game(fake: FakeDiscord, options: str = "", end: bool = False) -> list[Sent]:
    """The position described above; ``end``: the activation ended too. What the last command sent."""
    sent = await to_operations(fake, options=options)
    choices = await open_choices(fake, ANN, sent)
    sent = await fake.click(ANN, choices, "1. Activate XLVII Panzerkorps")
    hexes = await fake.autocomplete(ANN, CHANNEL, "move", "to", units="de-2-pz-cochenhausen", to="")
    await fake.command(ANN, CHANNEL, "move", units="de-2-pz-cochenhausen", to=hexes[0]["value"])
    sent = await fake.command(ANN, CHANNEL, "attack", target="2515", attackers="de-2-pz-boehm", kind="normal")
    sent = await fake.click(ANN, answers(sent)[-1], "Confirm")
    sent = await fake.click(BOB, await open_choices(fake, BOB, sent), "1. artillery of HQ VIII")
    sent = await ardennes.choose(fake, BOB, await open_choices(fake, BOB, sent), "Go on with the combat")  # 15.3
    sent = await fake.click(ANN, await open_choices(fake, ANN, sent), "1. v. Böhm/2 loses a step")
    if end:
        sent = await fake.command(ANN, CHANNEL, "end-activation")
    no_traceback(sent)
    return sent


async def ask(fake: FakeDiscord, user: Any, name: str, **options: Any) -> list[Sent]:
    """The private answers to a command; none is public and none is longer than a Discord message."""
    sent = await fake.command(user, CHANNEL, name, **options)
    no_traceback(sent)
    assert not posts(sent), f"/{name} answers privately"
    found = answers(sent)
    assert found and all(a.ephemeral and len(a.content) <= 2000 for a in found)
    return found


async def test_hex_tells_terrain_costs_shifts_stack_and_combats(fake: FakeDiscord) -> None:
    await mid_game(fake)
    answer = (await ask(fake, BOB, "hex", hex="2515"))[-1]
    text = answer.content
    assert "**Hex 2515**: rough, village of Marnach" in text
    assert "side to 2615: Our (bridged), road" in text and "side to 2616: Our (no bridge)" in text
    assert "infantry 1 MP, mechanized 2 MP; along a road: infantry 1 MP, mechanized 0.5 MP" in text
    assert "A unit entering an enemy zone of control here need not attack (4.2, 4.3)." in text
    assert "Allied defender here: -2 column(s): defender in rough (0.2); defender in the village of Marnach" in text
    assert "Allied stack of 1 counter(s), 1 of 6 steps (5)" in text and "110/28 (us-28-110)" in text
    assert "Zone of control of the allied side (4): 110/28" in text
    assert ATTACK_ROW in text
    assert answer.files == ["hex.png"] and answer.buttons == []  # the Allies may not attack now
    huy = (await ask(fake, ANN, "hex", hex="1004"))[-1].content
    assert "city of Huy" in huy and "Meuse (bridged)" in huy and "No units" in huy


async def test_hex_offers_an_attack_that_opens_the_odds_preview(fake: FakeDiscord) -> None:
    await mid_game(fake)
    answer = (await ask(fake, ANN, "hex", hex="2515"))[-1]
    assert [label for label, _ in answer.buttons] == ["Attack this hex"]
    # Issue 33: the hex answer lists the units that may attack it; the button lists them, then previews.
    assert "Your units that may attack 2515 now (7.1):" in answer.content
    assert "To attack with all of them: attack target=2515 attackers=" in answer.content
    clicked = answers(await fake.click(ANN, answer, "Attack this hex"))
    assert clicked[0].content.startswith("Your units that may attack 2515 now (7.1):")
    preview = clicked[-1]
    assert preview.content.startswith("**Odds preview**") and "26 Vg" in preview.content
    assert [label for label, _ in preview.buttons] == ["Confirm", "Cancel"]
    # [7.3, 7.6] Every attack kind side by side, with the step losses both sides may expect.
    assert "Attack kinds side by side (7.3):" in preview.content
    assert "- normal (1 AP): column" in preview.content and "- prepared (" in preview.content
    assert "Expected step losses (7.6): attacker" in preview.content and len(preview.content) <= 2000


async def test_unit_tells_command_supply_points_and_what_it_may_do(fake: FakeDiscord) -> None:
    await mid_game(fake)
    answer = (await ask(fake, ANN, "unit", unit="de-2-pz-cochenhausen"))[-1]
    text = answer.content
    assert "Formation: XLVII Panzerkorps, HQ XLVII PzK" in text
    assert "Command: in command this turn (8.1)" in text and "Supply: supplied this turn (10.3)" in text
    assert "2 AP left in this activation" in text and "activated 1 time(s) this turn" in text
    assert re.search(r"May now: move to \d+ hexes; attack 2712$", text)  # no digging in in an enemy ZoC (12.1)
    assert [label for label, _ in answer.buttons] == ["Where can it move", "Attack 2712"]
    assert answer.files == ["unit.png"]
    moved = answers(await fake.click(ANN, answer, "Where can it move"))[-1]
    assert moved.files == ["map.png"]
    other = (await ask(fake, ANN, "unit", unit="de-26-vg"))[-1]
    assert "2 AP if activated now (1.1); activated 0 time(s) this turn" in other.content
    assert [label for label, _ in other.buttons] == ["Where can it move", "Attack 2515", "Dig in"]
    sent = await fake.click(ANN, other, "Dig in")
    assert any("26 Vg takes up an Improved Position" in p.content for p in posts(sent, CHANNEL))
    # The opponent sees the counter, not its points nor its orders.
    theirs = (await ask(fake, BOB, "unit", unit="de-2-pz-cochenhausen"))[-1]
    assert "AP" not in theirs.content and "Command:" not in theirs.content and not theirs.buttons
    refused = (await ask(fake, ANN, "unit", unit="no-such-unit"))[-1]
    assert refused.content == "Refused: No unit 'no-such-unit' that you can see."


async def test_hq_tells_ratings_markers_range_and_command(fake: FakeDiscord) -> None:
    await mid_game(fake)
    text = (await ask(fake, ANN, "hq", hq="hq-de-xlvii-pzk"))[-1].content
    assert "**HQ XLVII PzK** (XLVII Panzerkorps), german, in 3015" in text
    assert "Support rating 3 (1.3); C3I rating A (9.5); command range 4 hexes (8.1)" in text
    assert "In command (7): 26 Vg, Gutman/2" in text and "Out of command (0): none" in text
    allied = (await ask(fake, BOB, "hq", hq="hq-us-viii-corps"))[-1].content
    assert "command range 6 hexes" in allied


async def test_oob_is_never_cut_and_opens_one_formation(fake: FakeDiscord) -> None:
    await mid_game(fake)
    (answer,) = await ask(fake, ANN, "oob")
    assert "answer.txt" in answer.files, "the German order of battle is longer than a message"
    assert answer.content.startswith("**German order of battle**, turn 1")
    whole = answer.file_data["answer.txt"].decode()
    assert whole.startswith("**German order of battle**, turn 1")
    assert "**XLVII Panzerkorps**: HQ XLVII PzK in 3015, range 4, no supports" in whole
    assert "- 2615: v. Böhm/2 (de-2-pz-boehm): strength 2, steps 1/2, quality 4 [activated]" in whole
    assert "- turn 2 at 3407: HQ II SS PzK, Krag/2" in whole and "Eliminated: none" in whole
    assert "support pool artillery 3, hetzer 1, nebelwerfer 3" in whole
    assert answer.buttons[0][0] == "Open one formation"
    one = answers(await fake.click(ANN, answer, "Open one formation", values=["de-lviii-pzk"]))[-1].content
    assert one.startswith("**LVIII Panzerkorps**") and "16/116 Pz" in one and "XLVII" not in one


async def test_victory_tells_each_condition_and_the_result_now(fake: FakeDiscord) -> None:
    await mid_game(fake)
    text = (await ask(fake, EVE, "victory"))[-1].content
    assert "turn 1 of 3, 2 turn(s) after this one" in text
    assert "German: a supplied unit across the Meuse at any time: not met; the Meuse is not crossed" in text
    assert "hold all of St. Vith, Bastogne, Marche at the end: not met" in text and "Bastogne Allied" in text
    assert "If the game ended now: Allied wins" in text


async def test_brief_is_posted_at_the_start_and_on_demand(fake: FakeDiscord) -> None:
    sent = await fake.command(ANN, CHANNEL, "game create", scenario="initial-assault", options="fog_of_war")
    await fake.command(ANN, CHANNEL, "game join", seat="german")
    await fake.command(BOB, CHANNEL, "game join", seat="allied")
    sent = await fake.command(BOB, CHANNEL, "game start")
    brief = next(p for p in posts(sent, CHANNEL) if p.content.startswith("**Ardennes 1944: The Initial Assault**"))
    assert "(rule 17.1), 3 turns" in brief.content and "- turn 3: 20-21 December 1944, overcast" in brief.content
    assert "US units that begin the game next to a German unit may not move on turn 1" in brief.content
    assert "Optional rules in force: 11 Fog of war (optional)" in brief.content
    assert (await ask(fake, EVE, "brief"))[-1].content == brief.content


async def test_turn_report_by_dm_unless_turned_off_or_closed(fake: FakeDiscord) -> None:
    await fake.command(ANN, CHANNEL, "game create", scenario="initial-assault")
    await fake.command(ANN, CHANNEL, "game join", seat="german")
    await fake.command(BOB, CHANNEL, "game join", seat="allied")
    assert (await ask(fake, EVE, "reports", on=False))[-1].content == "Turn-start reports: off."
    fake.closed_dms.add(BOB.id)
    sent = await fake.command(BOB, CHANNEL, "game start")
    report = next(s for s in sent if s.kind == "dm" and s.user == ANN.id)
    heading, report_text = report.content.split("\n", 1)  # a DM names its game and links its channel
    assert heading == f"*Ardennes 1944, game #1 in <#{CHANNEL}>*"
    assert report_text.startswith("**Turn 1** (16-17 December 1944, overcast): your report, German player")
    assert "Reinforcements due this turn (16.1): none" in report.content
    assert "Support pools (1.6): 5. Panzerarmee (5th Panzer Army): artillery 3" in report.content
    assert "If the game ended now: Allied wins" in report.content
    assert not any(s.kind == "dm" and s.user == EVE.id for s in sent)
    closed = next(p for p in posts(sent, CHANNEL) if p.content.startswith(f"<@{BOB.id}>: I cannot send you"))
    assert closed.buttons[0][0] == "Show my turn report" and closed.pings == {BOB.id}
    refused = answers(await fake.click(ANN, closed, "Show my turn report"))[-1].content
    assert refused == "Refused: Only the allied player may see that side's view while the game is played."
    mine = answers(await fake.click(BOB, closed, "Show my turn report"))[-1]
    assert mine.ephemeral and "your report, Allied player" in mine.content
    assert "Reinforcements due this turn (16.1): CCB/10 at 2022; HQ XVIII Abn at 2101;" in mine.content


async def test_stats_tell_losses_attacks_supports_and_luck(fake: FakeDiscord) -> None:
    await mid_game(fake, end=True)
    text = (await ask(fake, EVE, "stats"))[-1].content
    assert "__German__: 1 step(s) lost, 0 unit(s) eliminated\n- turn 1: 1 step(s)" in text
    assert "attacks by column (results attacker/defender): 1:4: 1/-" in text
    assert "__Allied__: 0 step(s) lost" in text and "supports committed: artillery 1" in text
    assert "combat dice of its attacks: 1, mean 6.00 (+1.5 standard deviations, lucky)" in text
    assert "All dice:" in text


async def test_replay_and_the_combats_overlay_rebuild_the_past(fake: FakeDiscord, pictures: list[Any]) -> None:
    await mid_game(fake, end=True)
    pictures.clear()
    answer = (await ask(fake, ANN, "replay", turn=1))[-1]
    assert answer.content == "**Turn 1, activation 1** of 1: German activates XLVII Panzerkorps."
    assert answer.files == ["replay.png"] and pictures[-1][0] == "german"
    shown = {u["id"]: s["hex"] for s in pictures[-1][1]["stacks"] for u in s["units"]}
    assert shown["de-2-pz-boehm"] == 2615 and shown["us-28-110"] == 2515
    refused = (await ask(fake, ANN, "replay", turn=1, activation=2))[-1].content
    assert refused == "Refused: Turn 1 had 1 activation(s); choose 1 to 1."
    refused = (await ask(fake, BOB, "replay", turn=1, seat="german"))[-1].content
    assert refused == "Refused: Only the german player may see that side's view while the game is played."
    combats = (await ask(fake, BOB, "map", overlay="combats"))[-1]
    assert combats.files == ["combats.png"]
    assert combats.content == f"**Combats of turn 1**: 1 (the latest in red)\n- {ATTACK_ROW.replace(':', ', 2515:', 1)}"


async def test_umpire_replay_writes_every_activation_picture(fake: FakeDiscord, db_path: Path, tmp_path: Path) -> None:
    await mid_game(fake, end=True)
    table = await fake.bot.service.table(CHANNEL)
    folder = tmp_path / "pictures"
    args = ["replay", str(table.game.id), "--db", str(db_path), "--pictures", str(folder), "--seat", "allied"]
    assert await asyncio.to_thread(umpire, args) == 0
    written = sorted(p.name for p in folder.iterdir())
    assert written == ["turn1-activation01-allied.png"]
    assert (folder / written[0]).read_bytes().startswith(b"\x89PNG")


async def test_fog_of_war_hex_unit_stats_and_replay_reveal_nothing_hidden(
    fake: FakeDiscord, pictures: list[Any]
) -> None:
    await mid_game(fake, options="fog_of_war", end=True)
    service = fake.bot.service
    table = await service.table(CHANNEL)
    state = await service.state(table.game)
    hidden = {k: v for k, v in hidden_names(fake, state).items() if k.startswith("de-")}
    adapter = service.system("ardennes44")
    allied_view = adapter.view(state, "allied")
    shown = {u["id"] for s in allied_view["stacks"] for u in s["units"]}
    hidden = {k: v for k, v in hidden.items() if k not in shown}
    assert hidden, "the fog of war hides German units from the Allied player"
    german_hexes = sorted({s["hex"] for s in allied_view["stacks"] if s["side"] == "german" and s["hidden"]})
    assert german_hexes
    texts = []
    for where in german_hexes:
        answer = (await ask(fake, BOB, "hex", hex=str(where)))[-1].content
        assert "hidden by the fog of war (11)" in answer and "steps unknown" in answer
        texts.append(answer)
    for unit in list(hidden)[:5]:
        refused = (await ask(fake, BOB, "unit", unit=unit))[-1].content
        assert refused == f"Refused: No unit {unit!r} that you can see."
    texts += [a.content for a in await ask(fake, BOB, "stats")]
    pictures.clear()
    texts += [a.content for a in await ask(fake, BOB, "replay", turn=1)]
    for text in texts:
        assert not reveals(text, hidden), text
    # The replay is drawn from the Allied view of the position when the activation ended.
    from bot.systems.vaevictis.reports import replay_activations

    log = await service.seat_log(table.game, "allied")
    past = next(iter(replay_activations(adapter.game, state, log)))  # type: ignore[attr-defined]
    assert pictures[-1] == ("allied", adapter.view(past.state, "allied"))
    # The German player's own answers name his units.
    mine = (await ask(fake, ANN, "unit", unit=next(iter(hidden))))[-1].content
    assert hidden[next(iter(hidden))] in mine


async def test_replay_after_the_game_for_either_side(fake: FakeDiscord, pictures: list[Any]) -> None:
    await mid_game(fake, end=True)
    await fake.click(ANN, answers(await fake.command(ANN, CHANNEL, "game resign"))[-1], "Confirm")
    pictures.clear()
    answer = (await ask(fake, EVE, "replay", turn=1, seat="german"))[-1]
    assert answer.files == ["replay.png"] and pictures[-1][0] == "german"
    stats = (await ask(fake, EVE, "stats"))[-1].content
    assert "__German__: 1 step(s) lost" in stats and "Fog of war" not in stats


async def test_display_preferences_are_each_players_own(fake: FakeDiscord) -> None:
    """Issue 33: a player sets pictures in his DMs, his close-up size and his reports for himself; `map hex:`
    draws his close-up at his size; DMs to a player who turned pictures off come without them."""
    import io

    from PIL import Image

    from bot.commands.replies import Attachment, Reply

    await fake.command(ANN, CHANNEL, "game create", scenario="initial-assault")
    await fake.command(ANN, CHANNEL, "game join", seat="german")
    await fake.command(BOB, CHANNEL, "game join", seat="allied")
    await fake.command(BOB, CHANNEL, "game start")
    default = (await ask(fake, ANN, "prefs"))[-1].content
    assert default.startswith("Your display preferences: pictures in your DMs on; close-ups of the game's own size")
    mine = (await ask(fake, ANN, "prefs", pictures=False, closeup=2, reports=False))[-1].content
    assert "pictures in your DMs off; close-ups 2 hexes round their centre; turn-start reports off." in mine
    assert (await ask(fake, BOB, "prefs"))[-1].content == default  # each player's own

    def drawn(sent: list[Sent]) -> Image.Image:
        data = next(d for s in sent for d in s.file_data.values() if d.startswith(b"\x89PNG"))
        return Image.open(io.BytesIO(data))

    small = drawn(await fake.command(ANN, CHANNEL, "map", hex="1010"))
    usual = drawn(await fake.command(BOB, CHANNEL, "map", hex="1010"))
    assert small.width < usual.width and small.height < usual.height

    layer = fake.bot.layer  # type: ignore[attr-defined]
    dm = Reply("x", to="dm", user=ANN.id, files=(Attachment("map.png", b"\x89PNG"),))
    assert (await layer._dm_pictures(dm)).files == ()
    assert (await layer._dm_pictures(Reply("x", to="dm", user=BOB.id, files=dm.files))).files == dm.files


async def test_game_status_gives_the_bot_version(fake: FakeDiscord) -> None:
    from bot.service.version import bot_version

    await fake.command(ANN, CHANNEL, "game create", scenario="initial-assault")
    await fake.command(ANN, CHANNEL, "game join", seat="german")
    await fake.command(BOB, CHANNEL, "game join", seat="allied")
    sent = await fake.command(BOB, CHANNEL, "game status")
    assert any(f"Umpire {bot_version()}." in s.content for s in sent)
