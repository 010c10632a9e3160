"""Alsace 1944 as a game of the bot: offered by `game create` and `umpire local --game alsace44`, on the same
Vae Victis adapter as Ardennes 1944 (a second game is data, not code)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.cli import main
from bot.commands import CommandLayer, Context
from bot.console import play
from bot.service import Caller, GameService
from bot.store import Store
from bot.systems import systems
from engine.vaevictis.game import OPTIONS
from tests.bot.alsace import alsace_systems
from tests.vaevictis.alsace import missing_rules

ANN = Caller(11, "ann")
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
    store = await Store.open(tmp_path / "umpire.sqlite3")
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
async def test_players_get_a_complete_alsace_game_or_a_refusal_listing_what_is_missing(
    tmp_path: Path, scenario: str
) -> None:
    """Players never get a game with rules missing: while the engine lacks some, `game create` names them."""
    store = await Store.open(tmp_path / "umpire.sqlite3")
    try:
        layer = CommandLayer(GameService(store, systems()), "ardennes44")
        replies = await layer.run("game create", Context(ANN, CHANNEL, 1), {"system": "alsace44", "scenario": scenario})
        text = "\n".join(r.text for r in replies)
        missing = missing_rules(scenario)
        if missing:
            assert text.startswith("Refused: Alsace 1944 cannot be played yet"), text
            assert all(item in text for item in missing)
            assert await store.live_game_in(CHANNEL) is None
        else:
            assert "Game #1 created**: Alsace 1944" in text, text
    finally:
        await store.close()


def test_umpire_local_game_alsace44(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "game.txt"
    script.write_text("game status\n", encoding="utf-8")
    args = ["local", "--game", "alsace44", "--script", str(script), "--no-pictures", "--db", ":memory:"]
    code = main(args)
    captured = capsys.readouterr()
    if missing_rules("initial-assault"):
        assert code == 1 and "Alsace 1944 cannot be played yet" in captured.out
        assert "no alsace44 game was created" in captured.err and "german>" not in captured.out
    else:
        assert code == 0 and "Game #1 created**: Alsace 1944, scenario initial-assault" in captured.out


async def test_the_console_plays_alsace(tmp_path: Path) -> None:
    """The console on Alsace 1944 (its missing rules allowed, as in every test until they are written)."""
    out = io.StringIO()
    script = ["game status", "act end_support", "act end_support", "units", "oob"]
    await play(alsace_systems(), system="alsace44", script=script, out=out, out_dir=tmp_path, pictures=False)
    text = out.getvalue()
    assert "Game #1 created**: Alsace 1944, scenario initial-assault" in text
    assert "Turn 1 (14-15 November 1944), support phase" in text  # no weather, no dangling comma
    assert "Traceback" not in text and "went wrong" not in text


def test_the_bot_never_allows_missing_rules() -> None:
    """Only tests set the engine's ``missing_rules_allowed``: the bot's adapters leave it off."""
    for game_id in ("alsace44", "ardennes44"):
        assert systems()[game_id]().game.missing_rules_allowed is False  # type: ignore[attr-defined]


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
