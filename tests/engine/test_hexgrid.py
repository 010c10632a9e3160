"""The hex grid: numbering, neighbours, distances, lines, hexsides and edges of a CCRR map."""

from __future__ import annotations

import itertools

import pytest

from engine.hexgrid import Grid, hex_name, hexside, parse_hex


def ardennes() -> Grid:
    """The Ardennes grid, built anew for each test: a grid built once at import would keep its neighbour table
    and its cached discs from the code as it was then (a mutation test then sees nothing of a changed
    constructor or cache)."""
    return Grid(columns=34, rows=22, lower_columns="odd")


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
    grid = ardennes()
    assert grid.contains(2022) and grid.contains(3022)
    assert grid.contains(2521) and not grid.contains(2522)
    assert len(grid.hexes) == 17 * 22 + 17 * 21


def test_off_map_hexes_are_not_contained() -> None:
    grid = ardennes()
    for h in (0, 100, 3500, 101 - 1, 3423, 2600):
        assert not grid.contains(h)


def test_neighbours_of_an_upper_and_a_lower_column() -> None:
    grid = ardennes()
    assert sorted(grid.neighbours(2813)) == [2712, 2713, 2812, 2814, 2912, 2913]
    assert sorted(grid.neighbours(2712)) == [2612, 2613, 2711, 2713, 2812, 2813]


def test_setup_stacks_of_one_division_are_adjacent() -> None:
    grid = ardennes()
    # 116th Pz sets up in 2813 and 2912; 2nd Pz in 2615 and 2715: the grid parity was chosen for this.
    assert grid.are_adjacent(2813, 2912)
    assert grid.are_adjacent(2615, 2715)


def test_corner_hexes_have_fewer_neighbours() -> None:
    grid = ardennes()
    assert sorted(grid.neighbours(101)) == [102, 201, 202]
    assert len(grid.neighbours(3422)) == 2


def test_adjacency_is_symmetric_everywhere() -> None:
    grid = ardennes()
    for h in grid.hexes:
        for n in grid.neighbours(h):
            assert h in grid.neighbours(n)


@pytest.mark.parametrize("lower", ["odd", "even"])
def test_distance_equals_steps_of_a_breadth_first_walk(lower: str) -> None:
    grid = Grid(34, 22, lower)  # type: ignore[arg-type]
    for start in grid.hexes[::23]:
        for h, steps in bfs_distances(grid, start).items():
            assert grid.distance(start, h) == steps


def test_within_returns_the_disc() -> None:
    grid = ardennes()
    disc = grid.within(1817, 2)
    assert len(disc) == 19 and len(set(disc)) == 19
    assert all(grid.distance(1817, h) <= 2 for h in disc)


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
    grid = ardennes()
    assert grid.edge_hexes("east") == [3400 + r for r in range(1, 23)]
    assert grid.edge_hexes("west")[-1] == 121
    south = grid.edge_hexes("south", 20, 21)
    assert south == [2022, 2121]
    assert all(grid.is_on_edge(h) for h in (101, 3422, 2521, 2022, 1301))
    assert not grid.is_on_edge(1817)


def test_parse_and_name_round_trip() -> None:
    assert parse_hex("0305") == 305
    assert hex_name(305) == "0305"
    for bad in ("305", "03a5", "", "12345"):
        with pytest.raises(ValueError, match="four digits"):
            parse_hex(bad)


def test_pixel_centres_follow_the_columns() -> None:
    grid = ardennes()
    x1, y1 = grid.center(2812, 10)
    x2, y2 = grid.center(2912, 10)
    assert x2 - x1 == pytest.approx(15)
    assert y2 - y1 == pytest.approx(3**0.5 * 10 / 2)


def test_hexsides_of_a_hex_are_shared_with_each_neighbour() -> None:
    grid = ardennes()
    sides = grid.hexsides_of(2813)
    assert len(sides) == 6 and len(set(sides)) == 6
    assert hexside(2813, 2912) in sides
    assert all(grid.are_adjacent(a, b) for a, b in sides)
    assert len(grid.hexsides_of(101)) == 3  # a corner hex shares only three sides with the map


def test_a_grid_has_1_to_99_columns_and_rows() -> None:
    assert Grid(1, 1, "even").hexes == (101,) and Grid(1, 1).hexes == ()  # a lower column loses its row
    assert Grid(99, 99).contains(9999) is False and Grid(99, 99, "even").contains(9999)
    for columns, rows in ((0, 5), (5, 0), (100, 5), (5, 100)):
        with pytest.raises(ValueError, match=f"a grid has 1-99 columns and rows, not {columns} x {rows}"):
            Grid(columns, rows)


def test_the_last_column_and_the_west_edge_are_on_the_map() -> None:
    grid = ardennes()
    assert grid.contains(3401) and grid.contains(3422) and not grid.contains(3501)
    assert grid.is_on_edge(110) and grid.is_on_edge(3410) and not grid.is_on_edge(210)


def test_hexes_off_the_map_are_adjacent_to_nothing() -> None:
    grid = ardennes()
    assert not grid.are_adjacent(9999, 101) and not grid.are_adjacent(101, 9999)


def test_within_is_the_whole_disc_at_every_radius_and_the_same_when_asked_again() -> None:
    grid = ardennes()
    for radius in (0, 1, 2, 6):
        disc = grid.within(1817, radius)
        assert sorted(disc) == sorted(h for h in grid.hexes if grid.distance(1817, h) <= radius)
        assert disc[0] == 1817 and grid.within(1817, radius) == disc
    assert sorted(grid.within(101, 1)) == [101, 102, 201, 202]


def test_north_and_south_edges_default_to_every_column() -> None:
    grid = ardennes()
    assert grid.edge_hexes("north") == [c * 100 + 1 for c in range(1, 35)]
    assert grid.edge_hexes("north", 3, 5) == [301, 401, 501]
    assert grid.edge_hexes("south")[:3] == [121, 222, 321] and len(grid.edge_hexes("south")) == 34
    assert grid.edge_hexes("west", 20) == [120, 121]


@pytest.mark.parametrize("lower", ["odd", "even"])
def test_a_line_runs_through_the_hexes_under_the_straight_line_between_the_centres(lower: str) -> None:
    grid = Grid(34, 22, lower)  # type: ignore[arg-type]
    for a, b in itertools.product(grid.hexes[::29], grid.hexes[::31]):
        line = grid.line(a, b)
        (ax, ay), (bx, by) = grid.center(a), grid.center(b)
        n = len(line) - 1
        for i, h in enumerate(line):
            t = i / n if n else 0.0
            px, py = ax + (bx - ax) * t, ay + (by - ay) * t
            near = sorted(
                grid.within(h, 1), key=lambda c: (grid.center(c)[0] - px) ** 2 + (grid.center(c)[1] - py) ** 2
            )
            gap = [((grid.center(c)[0] - px) ** 2 + (grid.center(c)[1] - py) ** 2) ** 0.5 for c in near[:2]]
            assert h == near[0] or abs(gap[0] - gap[1]) < 1e-6, (a, b, i, h, near[:2])


def test_pixel_centres_of_the_first_hexes() -> None:
    height = 3**0.5
    grid = ardennes()
    assert grid.center(101) == pytest.approx((1.0, height))  # column 01 sits half a hex lower
    assert grid.center(201) == pytest.approx((2.5, height / 2))
    assert grid.center(203, 2) == pytest.approx((5.0, 2 * height / 2 + 2 * 2 * height))
