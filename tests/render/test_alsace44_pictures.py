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


def test_19_2_the_front_line_is_drawn_in_the_set_up_picture_and_as_an_overlay() -> None:
    """[19.2, 12.2] Alsace's front line (strongpoints go within 5 hexes of it) is drawn in the set-up picture
    and keyed; ``map overlay:front`` draws it on any picture; Ardennes 1944 has none."""
    import pytest

    from render import palette
    from render.legend import picture_key
    from render.overlays import overlay_sets
    from render.picture import FrontLine, setup_picture
    from render.snapshot import render_map
    from tests.render.snapshot_tools import count_colour

    game = alsace_game()
    picture = setup_picture(game.data)
    (line,) = [o for o in picture.overlays if isinstance(o, FrontLine)]
    assert line.hexes == game.data.map.regions["front line"] and line.hexes[0] == 901
    assert "Front line" in picture_key(picture)
    image = render_map(picture, region=(410, 2))
    assert count_colour(image, (0, 0, image.width, image.height), palette.FRONT_LINE, 10) > 50
    state = game.new_game("initial-assault", {}, bytes(32))
    assert overlay_sets(game, state, "german", "front") == line
    ardennes = setup_picture(load_game("ardennes44"))
    assert not any(isinstance(o, FrontLine) for o in ardennes.overlays)
    from engine.vaevictis.game import VaeVictisGame

    other = VaeVictisGame(load_game("ardennes44"))
    with pytest.raises(ValueError, match="no front line"):
        overlay_sets(other, other.new_game("entire-battle", {}, bytes(32)), "german", "front")
