"""Issue 33, item 2: every mark a picture can carry is in its key, and a partly hidden stack says so."""

from __future__ import annotations

import dataclasses

from engine.vaevictis.data import GameData
from render import palette
from render.counters import badge_box
from render.legend import MARK_SWATCHES, SWATCHES, key_band, picture_key
from render.picture import (
    Arrow,
    AttackMark,
    CommandOverlay,
    FrontLine,
    Happenings,
    HiddenStack,
    MapMark,
    MapPicture,
    Reachable,
    SupplyOverlay,
    VictoryOverlay,
    ZocOverlay,
    counter_face,
)
from render.snapshot import frame, render_map


def everything(game: GameData) -> MapPicture:
    """A picture of the mini game carrying one of every mark there is."""
    face = counter_face(game, "us-2-id")
    worn = dataclasses.replace(
        face,
        max_steps=4,
        steps=2,
        markers=tuple(palette.MARKERS),
        supports=tuple(palette.SUPPORTS),
    )
    return MapPicture(
        game_map=game.map,
        counters={404: (worn, face), 406: (face,)},
        hidden={406: HiddenStack("allied", 3), 604: HiddenStack("german", 2)},
        map_marks=tuple(MapMark(kind, 505) for kind in palette.MAP_MARKS),
        happened=Happenings(
            moves=(Arrow((503, 504)),),
            retreats=(Arrow((304, 305)),),
            advances=(Arrow((305, 304)),),
            attacks=(
                AttackMark(404, (403,), "1/2", breakthrough=True),
                AttackMark(406, (405,), "0/1", earlier=True),
            ),
            eliminated=((606, "x"),),
        ),
        overlays=(
            Reachable({503: "1 MP"}),
            ZocOverlay(frozenset({503}), "allied"),
            ZocOverlay(frozenset({503}), "german"),
            CommandOverlay({404: frozenset({404})}, "allied"),
            CommandOverlay({604: frozenset({604})}, "german"),
            SupplyOverlay(((404, 406),), "allied", frozenset({406})),
            VictoryOverlay(frozenset({505})),
            FrontLine((503, 504, 505)),
        ),
    )


def test_every_mark_a_picture_can_carry_is_in_its_key(game: GameData) -> None:
    """The picture carrying one of everything keys every entry there is: every chip (DIS among them), the
    step-loss tag, the count badges, hidden and partly hidden stacks, every map marker (BREAK), every support
    marker, every arrow, results, crosses and overlays; and every key entry has its swatch."""
    key = picture_key(everything(game))
    chips = {name.replace("-", " ").capitalize() for name in palette.MARKERS}
    assert chips | set(MARK_SWATCHES) <= set(key), sorted(chips | set(MARK_SWATCHES) - set(key))
    assert all(label in SWATCHES for label in key)
    assert "Disorganized" in key and "Steps lost" in key and "Partly hidden stack" in key
    assert "Breakthrough marker" in key and "Heavy artillery support" in key
    assert key_band(1200, 1.0, key).height > 0  # every swatch draws


def test_the_key_says_break_and_dis_as_the_map_does() -> None:
    assert palette.marker_chip("breakthrough")[0] == "BREAK" == palette.map_mark("breakthrough")[0]
    assert palette.marker_chip("disorganized")[0] == "DIS"


def test_a_picture_keys_only_the_marks_it_carries(game: GameData) -> None:
    plain = MapPicture(game_map=game.map, counters={404: (counter_face(game, "us-2-id"),)})
    key = picture_key(plain)
    assert "Move" not in key and "Steps lost" not in key and "Partly hidden stack" not in key
    assert "Activated" in key  # the chips are always keyed


def test_a_partly_hidden_stack_gets_a_blue_badge_with_a_question_mark(game: GameData) -> None:
    """[11] A stack whose lower counters the seat may not see does not look like a fully visible one."""
    face = counter_face(game, "us-2-id")
    partly = MapPicture(game_map=game.map, counters={404: (face,)}, hidden={404: HiddenStack("allied", 3)})
    whole = MapPicture(game_map=game.map, counters={404: (face, face, face)})
    where = frame(partly)
    x0, y0, x1, y1 = where.layout.counter_box(404)
    badge = badge_box((x0, y0 + where.origin[1], x1, y1 + where.origin[1]))
    colours = {c for _, c in render_map(partly).crop(badge).getcolors(10000) or []}
    assert palette.PARTLY_HIDDEN_BADGE in colours
    assert palette.PARTLY_HIDDEN_BADGE not in {c for _, c in render_map(whole).crop(badge).getcolors(10000) or []}
