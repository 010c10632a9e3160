"""The pictures of an Alsace 1944 game say what is on its map, not on Ardennes 1944's."""

from __future__ import annotations

from render.legend import key_for
from render.view_picture import picture_from_view
from scenarios import load_game
from tests.vaevictis.alsace import alsace_game


def labels(key: tuple[str, ...]) -> list[str]:
    return list(key)


def test_the_key_names_the_features_of_the_map_drawn() -> None:
    alsace, ardennes = labels(key_for(load_game("alsace44").map)), labels(key_for(load_game("ardennes44").map))
    assert {"Fort", "Factory", "Switzerland", "Difficult", "Canal", "Uncrossable river"} <= set(alsace)
    assert "Westwall" not in alsace and "Rough" not in alsace
    assert "Westwall" in ardennes and "Fort" not in ardennes and "Switzerland" not in ardennes


def test_a_close_up_keys_only_what_it_shows() -> None:
    game_map = load_game("alsace44").map
    around_belfort = set(game_map.grid.within(1110, 1))
    key = labels(key_for(game_map, lambda h: h in around_belfort))
    assert "Fort" in key and "Switzerland" not in key and "Uncrossable river" not in key
    assert "Activated" in key  # the markers are always keyed


def test_no_weather_and_no_air_missions_in_the_title_and_margin() -> None:
    game = alsace_game()
    state = game.new_game("initial-assault", {}, bytes(32))
    picture = picture_from_view(game.data, game.view(state, None))
    assert picture.title == "Alsace 1944, turn 1"
    assert picture.status is not None and picture.status.air_missions == ()
    assert all(turn.weather == "" for turn in picture.status.turns)
