"""The hex grid: numbering, neighbours, distances, lines, hexsides and edges of a CCRR map."""

from __future__ import annotations

import itertools

import pytest

from engine.hexgrid import Grid, hex_name, hexside, parse_hex

ARDENNES = Grid(columns=34, rows=22, lower_columns="odd")


def bfs_distances(grid: Grid, start: int) -> dict[int, int]:
    distances = {start: 0}
    frontier = [start]
    while frontier:
        following = []
        for h in frontier:
            for n in grid.neighbours(h):
                if n not in distances:
                    distances[n] = distances[h] + 1
                    following.append(n)
        frontier = following
    return distances


def test_lower_columns_lose_their_last_row() -> None:
    assert ARDENNES.contains(2022) and ARDENNES.contains(3022)
    assert ARDENNES.contains(2521) and not ARDENNES.contains(2522)
    assert len(ARDENNES.hexes) == 17 * 22 + 17 * 21


def test_off_map_hexes_are_not_contained() -> None:
    for h in (0, 100, 3500, 101 - 1, 3423, 2600):
        assert not ARDENNES.contains(h)


def test_neighbours_of_an_upper_and_a_lower_column() -> None:
    assert sorted(ARDENNES.neighbours(2813)) == [2712, 2713, 2812, 2814, 2912, 2913]
    assert sorted(ARDENNES.neighbours(2712)) == [2612, 2613, 2711, 2713, 2812, 2813]


def test_setup_stacks_of_one_division_are_adjacent() -> None:
    # 116th Pz sets up in 2813 and 2912; 2nd Pz in 2615 and 2715: the grid parity was chosen for this.
    assert ARDENNES.are_adjacent(2813, 2912)
    assert ARDENNES.are_adjacent(2615, 2715)


def test_corner_hexes_have_fewer_neighbours() -> None:
    assert sorted(ARDENNES.neighbours(101)) == [102, 201, 202]
    assert len(ARDENNES.neighbours(3422)) == 2


def test_adjacency_is_symmetric_everywhere() -> None:
    for h in ARDENNES.hexes:
        for n in ARDENNES.neighbours(h):
            assert h in ARDENNES.neighbours(n)


@pytest.mark.parametrize("lower", ["odd", "even"])
def test_distance_equals_steps_of_a_breadth_first_walk(lower: str) -> None:
    grid = Grid(34, 22, lower)  # type: ignore[arg-type]
    for start in grid.hexes[::23]:
        for h, steps in bfs_distances(grid, start).items():
            assert grid.distance(start, h) == steps


def test_within_returns_the_disc() -> None:
    disc = ARDENNES.within(1817, 2)
    assert len(disc) == 19 and len(set(disc)) == 19
    assert all(ARDENNES.distance(1817, h) <= 2 for h in disc)


@pytest.mark.parametrize("lower", ["odd", "even"])
def test_lines_are_connected_shortest_paths_on_the_map(lower: str) -> None:
    grid = Grid(34, 22, lower)  # type: ignore[arg-type]
    for a, b in itertools.product(grid.hexes[::37], grid.hexes[::41]):
        line = grid.line(a, b)
        assert line[0] == a and line[-1] == b
        assert len(line) == grid.distance(a, b) + 1
        assert all(grid.contains(h) for h in line)
        assert all(grid.are_adjacent(x, y) for x, y in itertools.pairwise(line))


def test_hexside_is_unordered() -> None:
    assert hexside(1817, 1818) == hexside(1818, 1817) == (1817, 1818)


def test_edges() -> None:
    assert ARDENNES.edge_hexes("east") == [3400 + r for r in range(1, 23)]
    assert ARDENNES.edge_hexes("west")[-1] == 121
    south = ARDENNES.edge_hexes("south", 20, 21)
    assert south == [2022, 2121]
    assert all(ARDENNES.is_on_edge(h) for h in (101, 3422, 2521, 2022, 1301))
    assert not ARDENNES.is_on_edge(1817)


def test_parse_and_name_round_trip() -> None:
    assert parse_hex("0305") == 305
    assert hex_name(305) == "0305"
    for bad in ("305", "03a5", "", "12345"):
        with pytest.raises(ValueError, match="four digits"):
            parse_hex(bad)


def test_pixel_centres_follow_the_columns() -> None:
    x1, y1 = ARDENNES.center(2812, 10)
    x2, y2 = ARDENNES.center(2912, 10)
    assert x2 - x1 == pytest.approx(15)
    assert y2 - y1 == pytest.approx(3**0.5 * 10 / 2)


def test_hexsides_of_a_hex_are_shared_with_each_neighbour() -> None:
    sides = ARDENNES.hexsides_of(2813)
    assert len(sides) == 6 and len(set(sides)) == 6
    assert hexside(2813, 2912) in sides
    assert all(ARDENNES.are_adjacent(a, b) for a, b in sides)
    assert len(ARDENNES.hexsides_of(101)) == 3  # a corner hex shares only three sides with the map
