"""The picture posted in a game's channel: river names, crosses beside stacks, results on top, close-ups at
the map's edge filled with map."""

from __future__ import annotations

from PIL import Image

from engine.contract import Event
from engine.vaevictis.data import GameData
from render import palette
from render.basemap import river_labels
from render.layout import Layout
from render.overlays import victory_overlay
from render.picture import MapPicture
from render.snapshot import frame, render_map
from render.view_picture import picture_from_view
from tests.render.snapshot_tools import around, count_colour

UNIT = {"id": "de-peiper", "name": "Peiper", "steps": 2, "max_steps": 2, "status": []}


def test_the_ardennes_rivers_are_named_on_the_map_away_from_place_names() -> None:
    from scenarios import load_game

    game_map = load_game("ardennes44").map
    labels = river_labels(game_map, Layout(game_map.grid, 1.0))
    named = {name for name, _ in labels}
    assert {"Meuse", "Ourthe", "Ambleve", "Salm", "Sure", "Our"} <= named
    assert sum(1 for name, _ in labels if name == "Meuse") >= 2, "a long river is named more than once"


def test_the_mini_map_river_name_is_drawn_in_river_blue(game: GameData) -> None:
    layout = Layout(game.map.grid, 1.0)
    ((name, point),) = river_labels(game.map, layout)
    image = render_map(MapPicture(game_map=game.map))
    where = frame(MapPicture(game_map=game.map))
    x, y = point[0] + where.origin[0], point[1] + where.origin[1]
    assert name == "Test River"
    assert count_colour(image, (x - 30, y - 5, x + 30, y + 5), palette.RIVER, 30) > 40


def test_a_unit_eliminated_where_the_victor_now_stands_gets_its_cross_beside_the_stack(game: GameData) -> None:
    view = {"stacks": [{"hex": 505, "side": "german", "count": 1, "units": [UNIT]}]}
    events = [Event("eliminated", "", {"unit": "us-x", "hex": 505})]
    picture = picture_from_view(game, view, events)
    where = frame(picture)
    image = render_map(picture)
    x, y = where.pixel(505)
    size = where.layout.size
    on_counter = count_colour(image, around((x, y), size * 0.3), palette.ELIMINATED, 10)
    beside = count_colour(image, around((x - size * 0.76, y), size * 0.2), palette.ELIMINATED, 10)
    assert on_counter == 0 and beside > 10
    empty = picture_from_view(game, {"stacks": []}, events)
    assert count_colour(render_map(empty), around((x, y), size * 0.3), palette.ELIMINATED, 10) > 10


def test_the_result_box_is_drawn_over_a_victory_ring(game: GameData) -> None:
    target = next(iter(victory_overlay(game, next(iter(game.scenarios))).hexes), None)
    assert target is not None
    view = {"stacks": [{"hex": target - 1, "side": "german", "count": 1, "units": [UNIT]}]}
    events = [Event("combat", "", {"attackers": ["de-peiper"], "target": target, "result": "1/2"})]
    plain = picture_from_view(game, view, events)
    ringed = picture_from_view(game, view, events, [victory_overlay(game, next(iter(game.scenarios)))])
    where = frame(plain)
    x, y = where.pixel(target)
    box = around((x, y - where.layout.height * 0.45), where.layout.size * 0.25)
    red = count_colour(render_map(plain), box, palette.ATTACK_ARROW, 10)
    assert red > 20 and count_colour(render_map(ringed), box, palette.ATTACK_ARROW, 10) == red


def test_a_close_up_at_the_map_edge_is_filled_with_map(game: GameData) -> None:
    picture = MapPicture(game_map=game.map)
    corner = min(game.map.grid.hexes)
    where = frame(picture, region=(corner, 1))
    assert where.crop[0] >= 0 and where.crop[1] >= 0
    image: Image.Image = render_map(picture, region=(corner, 1))
    top = where.origin[1]
    background = count_colour(image, (0, top, image.width, top + where.map_size[1]), palette.BACKGROUND, 2)
    assert background < 0.3 * image.width * where.map_size[1]  # only the map's own ragged border
