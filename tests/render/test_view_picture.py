"""Pictures of the engine's view, checked in their pixels: counters at their hex, status markers, fog of war,
the last activation's arrows, overlays, identical bytes for the same view, bounded caches."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from PIL import Image

from engine.contract import Event
from engine.vaevictis.data import GameData
from engine.vaevictis.game import VaeVictisGame
from render import basemap, counters, palette
from render.counters import chip_boxes, loss_box, support_boxes
from render.happened import happenings, last_activation
from render.overlays import victory_overlay
from render.picture import Reachable
from render.snapshot import frame, render_map, to_png
from render.view_picture import face_from_view, picture_from_view
from tests.render.snapshot_tools import around, count_colour


@pytest.fixture(scope="module")
def engine(game: GameData) -> VaeVictisGame:
    return VaeVictisGame(game)


@pytest.fixture(scope="module")
def view(engine: VaeVictisGame) -> dict[str, Any]:
    state = engine.new_game(next(iter(engine.data.scenarios)), {}, b"render-tests")
    return engine.view(state, "german")


def offset_box(box: tuple[int, int, int, int], dy: int) -> tuple[int, int, int, int]:
    return box[0], box[1] + dy, box[2], box[3] + dy


# --- Counters from the view --------------------------------------------------------------------------------


def test_every_unit_of_the_view_is_drawn_at_its_hex(game: GameData, view: dict[str, Any]) -> None:
    picture = picture_from_view(game, view)
    image = render_map(picture)
    where = frame(picture)
    half = where.layout.counter_size / 2
    assert view["stacks"]
    for stack in view["stacks"]:
        top = stack["units"][0]
        bar = palette.rgb(game.formations[game.units[top["id"]].formation].color)
        assert count_colour(image, around(where.pixel(stack["hex"]), half), bar) > where.layout.counter_size * 3
    empty = next(h for h in game.map.grid.hexes if all(s["hex"] != h for s in view["stacks"]))
    some_bar = palette.rgb(game.formations[game.units[view["stacks"][0]["units"][0]["id"]].formation].color)
    assert count_colour(image, around(where.pixel(empty), half * 0.8), some_bar) == 0


@pytest.mark.parametrize(
    ("status", "marker"),
    [
        ("isolated", "isolated"),
        ("fatigued", "fatigue"),
        ("out_of_command", "out-of-command"),
        ("unsupplied", "unsupplied"),
    ],
)
def test_a_status_in_the_view_puts_its_marker_on_the_counter(
    game: GameData, view: dict[str, Any], status: str, marker: str
) -> None:
    plain = copy.deepcopy(view)
    stack = plain["stacks"][0]
    stack["units"] = stack["units"][:1]
    stack["units"][0]["status"] = []
    stack["count"] = 1
    marked = copy.deepcopy(plain)
    marked["stacks"][0]["units"][0]["status"] = [status]
    where = frame(picture_from_view(game, plain))
    box = offset_box(where.layout.counter_box(stack["hex"]), where.origin[1])
    (outer,) = chip_boxes(box, 1)
    chip = (box[2] + 2, outer[1] + 2, outer[2] - 2, outer[3] - 2)  # the chip's half off the counter
    _, colour = palette.marker_chip(marker)
    with_marker = render_map(picture_from_view(game, marked))
    without = render_map(picture_from_view(game, plain))
    assert count_colour(with_marker, chip, colour) > (chip[2] - chip[0]) * 2
    assert count_colour(without, chip, colour) == 0


def test_a_lost_step_of_a_big_unit_shows_a_loss_marker_and_a_two_step_unit_flips(game: GameData) -> None:
    big = next(u for u in game.units.values() if u.steps > 2)
    two = next((u for u in game.units.values() if u.steps == 2), None)
    unit = {"id": big.id, "name": big.name, "steps": big.steps - 1, "max_steps": big.steps, "status": []}
    face = face_from_view(game, unit)
    assert face.steps_lost == 1 and not face.flipped
    picture = picture_from_view(game, {"stacks": [{"hex": 504, "side": face.side, "count": 1, "units": [unit]}]})
    image = render_map(picture)
    where = frame(picture)
    box = loss_box(offset_box(where.layout.counter_box(504), where.origin[1]))
    assert count_colour(image, box, palette.LOSS_MARKER, 20) > 20
    full = render_map(
        picture_from_view(
            game, {"stacks": [{"hex": 504, "side": face.side, "count": 1, "units": [{**unit, "steps": big.steps}]}]}
        )
    )
    assert count_colour(full, box, palette.LOSS_MARKER, 20) == 0
    if two is not None:
        reduced = face_from_view(game, {"id": two.id, "steps": 1, "max_steps": 2, "status": []})
        assert reduced.flipped and reduced.steps_lost == 0


def test_an_hq_shows_its_supports_and_its_activated_side(game: GameData) -> None:
    hq = next(u for u in game.units.values() if u.is_hq)
    unit = {
        "id": hq.id,
        "name": hq.name,
        "steps": 1,
        "max_steps": 1,
        "status": ["activated"],
        "supports": ["artillery"],
    }
    face = face_from_view(game, unit)
    assert face.flipped and face.activated and face.supports == ("artillery",)
    picture = picture_from_view(game, {"stacks": [{"hex": 504, "side": face.side, "count": 1, "units": [unit]}]})
    image = render_map(picture)
    where = frame(picture)
    (box,) = support_boxes(offset_box(where.layout.counter_box(504), where.origin[1]), 1)
    assert count_colour(image, box, palette.support_chip("artillery")[1], 20) > 10


# --- Fog of war --------------------------------------------------------------------------------------------


def test_fog_of_war_hides_the_units_under_the_top_one(game: GameData) -> None:
    """A stack of two whose second counter the seat may not see: a blank counter under the top one (no
    colour bar showing at its edge) and a badge counting both."""
    german = [u for u in game.units.values() if game.side_of(u.id) == "german"]
    top, under = german[0], german[1]
    full = [{"id": u.id, "name": u.name, "steps": u.steps, "max_steps": u.steps, "status": []} for u in (top, under)]
    seen = {"stacks": [{"hex": 504, "side": "german", "count": 2, "units": full}]}
    fogged = {"stacks": [{"hex": 504, "side": "german", "count": 2, "units": full[:1]}]}
    seen_picture, fog_picture = picture_from_view(game, seen), picture_from_view(game, fogged)
    assert fog_picture.hidden[504].count == 2 and [f.label for f in fog_picture.counters[504]] == [top.name]
    where = frame(fog_picture)
    _, top_y, right, _ = offset_box(where.layout.counter_box(504), where.origin[1])
    size = where.layout.counter_size
    shift = max(2, round(size * 0.06))
    # The edge of the second counter's colour bar, showing right of the top counter.
    strip = (right, top_y + shift + size * 0.1, right + shift + 1, top_y + shift + size * 0.22)
    under_bar = palette.rgb(game.formations[under.formation].color)
    assert count_colour(render_map(seen_picture), strip, under_bar, 40) > 0
    assert count_colour(render_map(fog_picture), strip, under_bar, 40) == 0
    badge = (right - 4, top_y - 4, right + 4, top_y + 4)
    assert count_colour(render_map(fog_picture), badge, palette.PARTLY_HIDDEN_BADGE, 20) > 0


def test_a_stack_the_seat_may_not_inspect_at_all_is_drawn_blank(game: GameData) -> None:
    picture = picture_from_view(game, {"stacks": [{"hex": 505, "side": "allied", "count": 3, "units": []}]})
    assert 505 not in picture.counters and picture.hidden[505].count == 3
    image = render_map(picture)
    where = frame(picture)
    hidden = palette.HIDDEN_BASE["allied"]
    assert count_colour(image, around(where.pixel(505), where.layout.counter_size / 3), hidden) > 50


# --- What just happened ------------------------------------------------------------------------------------


def test_a_move_arrow_runs_along_the_path(game: GameData) -> None:
    events = [
        Event("activation", "German activates", {}),
        Event("move", "Peiper moves", {"units": ["de-peiper"], "path": ["0503", "0603", "0703"]}),
    ]
    unit = {"id": "de-peiper", "name": "Peiper", "steps": 2, "max_steps": 2, "status": []}
    view = {"stacks": [{"hex": 703, "side": "german", "count": 1, "units": [unit]}]}
    with_arrow = picture_from_view(game, view, events)
    assert with_arrow.happened.moves[0].path == (503, 603, 703)
    where = frame(with_arrow)
    (ax, ay), (bx, by) = where.pixel(503), where.pixel(603)
    midpoint = around(((ax + bx) / 2, (ay + by) / 2), 3)
    assert count_colour(render_map(with_arrow), midpoint, palette.MOVE_ARROW, 30) > 5
    assert count_colour(render_map(picture_from_view(game, view)), midpoint, palette.MOVE_ARROW, 30) == 0


def test_an_attack_is_read_from_events_with_the_attackers_hexes_before_they_moved() -> None:
    events = [
        Event("activation", "", {}),
        Event("combat", "", {"attackers": ["a"], "target": 506, "result": "1/2", "breakthrough": False}),
        Event("retreat", "", {"units": ["d"], "from": 506, "to": 507}),
        Event("advance", "", {"units": ["a"], "from": 505, "to": 506, "stopped": True}),
        Event("breakthrough", "", {"hex": 506, "side": "german"}),
        Event("eliminated", "", {"unit": "e", "hex": 607}),
    ]
    marks = happenings(events, {"a": 506, "d": 507})
    (attack,) = marks.attacks
    assert (attack.target, attack.sources, attack.result, attack.breakthrough) == (506, (505,), "1/2", True)
    assert marks.retreats[0].path == (506, 507) and marks.advances[0].path == (505, 506)
    assert marks.eliminated == ((607, ""),)
    assert last_activation([Event("activation", "", {}), *events[1:], Event("activation", "", {})]) == [
        Event("activation", "", {})
    ]


def test_the_attack_arrow_and_result_are_drawn(game: GameData) -> None:
    unit = {"id": "de-peiper", "name": "Peiper", "steps": 2, "max_steps": 2, "status": []}
    view = {"stacks": [{"hex": 504, "side": "german", "count": 1, "units": [unit]}]}
    events = [Event("combat", "", {"attackers": ["de-peiper"], "target": 505, "result": "1/2"})]
    picture = picture_from_view(game, view, events)
    where = frame(picture)
    image = render_map(picture)
    assert count_colour(image, around(where.pixel(505), where.layout.size), palette.ATTACK_ARROW, 20) > 50


# --- Overlays ----------------------------------------------------------------------------------------------


def test_a_reachable_hex_is_tinted_and_labelled(game: GameData, view: dict[str, Any]) -> None:
    hex_ = next(h for h in game.map.grid.hexes if all(s["hex"] != h for s in view["stacks"]) and h > 400)
    picture = picture_from_view(game, view, overlays=[Reachable({hex_: "2 MP"}, None)])
    plain = picture_from_view(game, view)
    where = frame(picture)
    x, y = where.pixel(hex_)
    probe = (round(x - where.layout.size * 0.6), round(y + where.layout.height * 0.3))
    image, before = render_map(picture).convert("RGB"), render_map(plain).convert("RGB")
    tinted, untinted = image.getpixel(probe), before.getpixel(probe)
    assert isinstance(tinted, tuple) and isinstance(untinted, tuple)
    assert tinted != untinted and tinted[2] - tinted[0] > untinted[2] - untinted[0]  # bluer than the map
    assert count_colour(image, around((x, y), 10), (0, 50, 140), 40) > 3  # the cost label
    assert count_colour(before, around((x, y), 10), (0, 50, 140), 40) == 0


def test_the_victory_overlay_rings_the_scenarios_cities(game: GameData) -> None:
    for scenario in game.scenarios:
        overlay = victory_overlay(game, scenario)
        names = {c for v in game.scenarios[scenario].victory for c in v.cities}
        assert overlay.hexes == {game.map.place(n).hex for n in names if any(p.name == n for p in game.map.places)}


# --- Snapshots ---------------------------------------------------------------------------------------------


def test_the_same_view_gives_identical_png_bytes(game: GameData, engine: VaeVictisGame) -> None:
    state = engine.new_game(next(iter(engine.data.scenarios)), {}, b"same")
    first = to_png(render_map(picture_from_view(game, engine.view(state, "german"))))
    basemap.CACHE.clear()
    counters.counter_tile.cache_clear()
    second = to_png(render_map(picture_from_view(game, engine.view(state.copy(), "german"))))
    assert first == second
    close = render_map(picture_from_view(game, engine.view(state, "german")), region=(504, 2))
    assert to_png(close) == to_png(render_map(picture_from_view(game, engine.view(state, "german")), region=(504, 2)))


def test_the_caches_stay_bounded(game: GameData) -> None:
    cache = basemap.BaseLayerCache(maxsize=2)
    for zoom in (0.5, 0.6, 0.7, 0.8):
        cache.get(game.map, zoom)
    assert len(cache) == 2
    maxsize = counters.counter_tile.cache_info().maxsize
    assert maxsize is not None
    for steps in range(1, 5):
        for size in range(20, 20 + maxsize // 4 + 10):
            counters.counter_tile(face_from_view(game, {"id": "us-2-id", "steps": steps, "status": []}), size)
    assert counters.counter_tile.cache_info().currsize <= maxsize
    assert len(basemap.CACHE) <= basemap.CACHE.maxsize


def test_the_full_margin_shows_only_on_the_whole_map(game: GameData, view: dict[str, Any]) -> None:
    picture = picture_from_view(game, view)
    full, bare = render_map(picture), render_map(picture, margin=False)
    assert full.width > bare.width
    close = render_map(picture, region=(504, 1))
    assert isinstance(close, Image.Image) and close.width < full.width
