"""Issue 33, item 1: labels placed where they hide no counter's values, and arrows that hide nothing.

The positions are crowded late-game positions of both games from seeded random play (``tests.render.crowded``),
in the German, Allied and both sides' views under fog of war. Random play leaves few combats in one
activation, so each picture is also loaded with every label at once: a result (with a breakthrough) at every
other occupied hex, BREAK markers, crosses beside stacks and a reachable-hex cost on every occupied hex.
"""

from __future__ import annotations

import dataclasses
import random
from itertools import pairwise

import pytest

from engine.hexgrid import Hex
from render.counters import value_boxes
from render.picture import AttackMark, Happenings, MapMark, MapPicture, Reachable
from render.placement import CELL, Placer, overlap, ring
from render.snapshot import frame, render_map, render_placed
from tests.render.crowded import GAMES, SEATS, positions


def loaded(picture: MapPicture) -> MapPicture:
    """``picture`` with a label of every kind on its occupied hexes, as crowded as a picture can get."""
    grid = picture.game_map.grid
    occupied = sorted(set(picture.counters) | set(picture.hidden))
    attacks = list(picture.happened.attacks)
    marks = list(picture.map_marks)
    eliminated = list(picture.happened.eliminated)
    for index, hex_ in enumerate(occupied):
        neighbours = grid.neighbours(hex_)
        if index % 2 == 0 and neighbours:
            attacks.append(AttackMark(hex_, neighbours[:2], "2/1", None, breakthrough=index % 4 == 0))
        if index % 3 == 0:
            marks.append(MapMark("breakthrough", hex_, None))
        if index % 5 == 0:
            eliminated.append((hex_, "gone"))
    happened = dataclasses.replace(picture.happened, attacks=tuple(attacks), eliminated=tuple(eliminated))
    costs = {hex_: f"{index % 7} MP" for index, hex_ in enumerate(occupied)}
    return dataclasses.replace(
        picture, happened=happened, map_marks=tuple(marks), overlays=(*picture.overlays, Reachable(costs))
    )


CASES = [pytest.param(which, index, id=f"{which}-{index}") for which in GAMES for index in range(3)]


def described(placer: Placer) -> str:
    return "; ".join(f"label {label} hides value {value}" for label, value in placer.hidden_values()[:5])


@pytest.mark.parametrize(("which", "index"), CASES)
def test_no_label_box_overlaps_a_counter_value_box_in_crowded_positions(which: str, index: int) -> None:
    """Every label of a crowded position (as played and loaded with every kind of label) sits where it covers
    no counter's value box, in both fog views and the umpire's, whole map and close-up."""
    position = positions(which)[index]
    for seat in SEATS:
        picture = position.picture(seat)
        # Loaded: the labels of the position as played, and every other kind of label besides.
        _, placer = render_placed(loaded(picture))
        assert placer.values and placer.placed
        assert not placer.hidden_values(), f"{position.name} {seat}: {described(placer)}"
        centre = sorted(picture.counters)[len(picture.counters) // 2]
        _, placer = render_placed(loaded(picture), region=(centre, 4))
        assert not placer.hidden_values(), f"{position.name} {seat} close-up: {described(placer)}"


@pytest.mark.parametrize("which", GAMES)
def test_arrows_and_labels_change_no_pixel_of_a_counters_values(which: str) -> None:
    """Drawn with every arrow, result, cross and marker, and drawn bare, the pixels of every top counter's
    values are the same: nothing drawn over the counters hides a digit or a name."""
    for position in positions(which):
        picture = loaded(position.picture("german"))
        bare = dataclasses.replace(picture, happened=Happenings(), map_marks=(), overlays=())
        full, empty = render_map(picture), render_map(bare)
        where = frame(picture)
        for hex_, faces in picture.counters.items():
            x0, y0, x1, y1 = where.layout.counter_box(hex_)
            box = (x0, y0 + where.origin[1], x1, y1 + where.origin[1])
            for value in value_boxes(faces[0], box):
                # Two pixels in: a counter's rounded, anti-aliased corners let what lies under them show.
                crop = (round(value[0]) + 2, round(value[1]) + 2, round(value[2]) - 2, round(value[3]) - 2)
                assert full.crop(crop).tobytes() == empty.crop(crop).tobytes(), (position.name, hex_, faces[0].label)


def test_arrows_along_one_stretch_are_drawn_side_by_side() -> None:
    """A retreat and an advance back along it, and two moves down one road, do not lie on one another: the
    pixels of the stretch between the hexes show every arrow's colour."""
    position = positions("ardennes44")[0]
    picture = position.picture(None)
    path: tuple[Hex, ...] = (picture.game_map.grid.hexes[200], picture.game_map.grid.hexes[201])
    assert picture.game_map.grid.are_adjacent(*path)
    from render import palette
    from render.picture import Arrow

    happened = Happenings(retreats=(Arrow(path),), advances=(Arrow(tuple(reversed(path))),))
    bare = dataclasses.replace(picture, counters={}, hidden={}, happened=happened, map_marks=())
    image = render_map(bare)
    where = frame(bare)
    (ax, ay), (bx, by) = (where.pixel(h) for h in path)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    seen = {image.getpixel((round(mx + dx), round(my + dy))) for dx in range(-12, 13) for dy in range(-12, 13)}
    assert palette.RETREAT_ARROW in seen and palette.ADVANCE_ARROW in seen


def test_the_placer_takes_the_first_place_that_hides_nothing() -> None:
    placer = Placer(values=[(0.0, 0.0, 10.0, 10.0)])
    first, second = (0.0, 0.0, 5.0, 5.0), (20.0, 0.0, 25.0, 5.0)
    assert placer.place([first, second]) == second
    assert placer.place([second, (30.0, 0.0, 35.0, 5.0)]) == (30.0, 0.0, 35.0, 5.0)  # not on the label before
    assert not placer.hidden_values()
    assert overlap(first, (0.0, 0.0, 10.0, 10.0)) == 25.0
    assert len(ring((0.0, 0.0, 10.0, 10.0), 4, 4)) == 24
    assert all(not overlap(a, b) for a, b in pairwise(ring((0.0, 0.0, 10.0, 10.0), 4, 4, rings=1)[:2]))


def test_the_placer_grid_finds_every_box_a_scan_finds() -> None:
    """Issue 32: the placer looks up a box's neighbours in a grid instead of scanning every box; over random
    boxes (spanning cells, touching edges, appended to the lists from outside as snapshots do) its costs,
    its choices and what it calls free are exactly those of a scan of every box."""
    rng = random.Random(32)

    def box() -> tuple[float, float, float, float]:
        x, y = rng.uniform(-50, 600), rng.uniform(-50, 600)
        return x, y, x + rng.choice((1.0, 8.0, CELL, 150.0)) * rng.random(), y + rng.uniform(0.5, 90)

    def scan(placer: Placer, b: tuple[float, float, float, float]) -> float:
        return (
            1000.0 * sum(overlap(b, v) for v in placer.values)
            + sum(overlap(b, p) for p in placer.placed)
            + 0.05 * sum(overlap(b, c) for c in placer.bodies)
        )

    for _ in range(20):
        placer = Placer()
        for _ in range(rng.randrange(1, 60)):
            placer.add_values([box()])
            placer.bodies.append(box())
            if rng.random() < 0.3:
                placer.placed.append(box())
            candidates = [box() for _ in range(rng.randrange(1, 8))]
            assert [placer.cost(c) for c in candidates] == [scan(placer, c) for c in candidates]
            assert [placer.free(c) for c in candidates] == [
                not any(overlap(c, v) for v in placer.values) and not any(overlap(c, p) for p in placer.placed)
                for c in candidates
            ]
            placer.place(candidates)
    alone = Placer(values=[(0.0, 0.0, CELL, 10.0)])
    assert not alone.covers_value((CELL, 0.0, CELL + 5, 10.0))  # touching is not covering
    assert alone.covers_value((CELL - 1, 9.0, CELL + 5, 20.0))
