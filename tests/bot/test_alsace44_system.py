"""Alsace 1944 as a game of the bot: offered by `game create` and `umpire local --game alsace44`, on the same
Vae Victis adapter as Ardennes 1944 (a second game is data, not code)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.commands.layer import CommandLayer, Context
from bot.service.game_service import Caller, GameService
from bot.store.sqlite import SqliteStore
from bot.systems import systems
from bot.transports.cli import main
from bot.transports.console import play
from engine.vaevictis.game import OPTIONS
from tests.bot.alsace import alsace_systems

ANN = Caller(11, "ann")
BOB = Caller(12, "bob")
CHANNEL = 700
SCENARIOS = ("initial-assault", "entire-battle", "initial-assault-variant", "entire-battle-variant")


def test_alsace44_is_a_game_of_the_bot_on_the_vae_victis_adapter() -> None:
    offered = systems()
    alsace, ardennes = offered["alsace44"](), offered["ardennes44"]()
    assert type(alsace) is type(ardennes)
    assert alsace.name == "Alsace 1944" and alsace.seats == ardennes.seats
    assert alsace.scenarios == SCENARIOS


def test_each_game_offers_its_own_optional_rules() -> None:
    """[9.5, 11, 15.4] Alsace has fog of war (11) and the VV60 SNAFUs (9.5), but no Christmas presents and no C3I
    table (Ardennes')."""
    alsace, ardennes = systems()["alsace44"](), systems()["ardennes44"]()
    assert list(ardennes.options) == ["c3i_snafu", "fog_of_war", "christmas_presents"]
    assert list(alsace.options) == ["fog_of_war", "snafu_vv60"]
    assert set(alsace.options) | set(ardennes.options) == set(OPTIONS)


async def test_game_create_suggests_alsace_its_scenarios_and_options(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "umpire.sqlite3")
    try:
        layer = CommandLayer(GameService(store, systems()), "ardennes44")
        ctx = Context(ANN, CHANNEL, 1)
        found = await layer.autocomplete("game create", "system", "", {}, ctx)
        assert ("alsace44", "alsace44") in found
        found = await layer.autocomplete("game create", "scenario", "", {"system": "alsace44"}, ctx)
        assert tuple(value for _, value in found) == SCENARIOS
        found = await layer.autocomplete("game create", "options", "", {"system": "alsace44"}, ctx)
        assert [value for _, value in found] == ["fog_of_war", "snafu_vv60"]
    finally:
        await store.close()


@pytest.mark.parametrize("scenario", SCENARIOS)
async def test_players_create_every_alsace_scenario_and_the_german_sets_up_first(tmp_path: Path, scenario: str) -> None:
    """Players create each Alsace scenario with `game create`; it opens with the German set-up (19.2, 19.4.1)."""
    store = await SqliteStore.open(tmp_path / "umpire.sqlite3")
    try:
        layer = CommandLayer(GameService(store, systems()), "ardennes44")
        replies = await layer.run("game create", Context(ANN, CHANNEL, 1), {"system": "alsace44", "scenario": scenario})
        text = "\n".join(r.text for r in replies)
        assert "Game #1 created**: Alsace 1944" in text, text
        await layer.run("game join", Context(ANN, CHANNEL, 1), {"seat": "german"})
        await layer.run("game join", Context(BOB, CHANNEL, 1), {"seat": "allied"})
        replies = await layer.run("game start", Context(ANN, CHANNEL, 1), {})
        text = "\n".join(r.text for r in replies)
        rule = "19.4.1" if scenario.endswith("variant") else "19.2"
        assert f"et-up ({rule}, 12.2)" in text, text
    finally:
        await store.close()


def test_umpire_local_game_alsace44(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The console creates an Alsace game; the German sets up with `place`, a refusal names its rule, and
    `act setup_done` begins turn 1."""
    script = tmp_path / "game.txt"
    script.write_text(
        "game status\nplace de-ohren 1111\nplace de-ohren 1110\nact setup_done\n",
        encoding="utf-8",
    )
    args = ["local", "--game", "alsace44", "--script", str(script), "--no-pictures", "--db", ":memory:"]
    code = main(args)
    out = capsys.readouterr().out
    assert code == 0 and "Game #1 created**: Alsace 1944, scenario initial-assault" in out
    assert "Set-up (19.2, 12.2)" in out
    assert "Ohren is placed in 1109 or 1110, not in 1111" in out and "(19.2)" in out
    assert "Ohren placed at 1110 (19.2)." in out
    assert "The German player has set up (19.2)." in out and "Support phase" in out


async def test_the_console_plays_alsace(tmp_path: Path) -> None:
    out = io.StringIO()
    script = ["act setup_done", "game status", "act end_support", "act end_support", "units", "oob"]
    await play(alsace_systems(), system="alsace44", script=script, out=out, out_dir=tmp_path, pictures=False)
    text = out.getvalue()
    assert "Game #1 created**: Alsace 1944, scenario initial-assault" in text
    assert "Turn 1 (14-15 November 1944), support phase" in text  # no weather, no dangling comma
    assert "Traceback" not in text and "went wrong" not in text


def test_18_the_reports_name_an_entry_region_instead_of_listing_its_hexes() -> None:
    from bot.systems.vaevictis.reports import oob_info, turn_report_text
    from tests.vaevictis.alsace import alsace_game

    game = alsace_game()
    state = game.new_game("initial-assault", {}, b"\x03" * 32)
    report = turn_report_text(game, state, "allied", [])
    # 18, 19.2: the French enter "along the west or south edge", 31 hexes, named once.
    assert "B/CC5, D/CC5, R/CC5, A/CC4, B/CC4, C/CC4 at one of the 31 hexes of French entry edges" in report
    assert "0101 or" not in report
    french = oob_info(game, state, "allied", "").text
    assert "- turn 2 at one of the 31 hexes of French entry edges: " in french and "0101 or" not in french
    german = oob_info(game, state, "german", "").text
    assert "- turn 3 at 2201 or 2601: " in german  # two hexes listed by the rules stay listed
    assert "- turn 3 at one of the 11 hexes of north-edge roads: " in german
