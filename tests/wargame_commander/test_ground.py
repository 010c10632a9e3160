"""2.2-2.3: zones of control, Army Control, the frontline, movement (one test per rule)."""

from __future__ import annotations

import itertools

import pytest

from engine.contract import IllegalActionError, NotYourTurnError
from engine.wargame_commander import ground
from engine.wargame_commander.board import Board
from engine.wargame_commander.state import SeriesState
from tests.wargame_commander.conftest import act, position


def test_2_2a_only_corps_have_a_zoc(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "move_allied_corps", us_1=807, us_7=1307)
    assert ground.zoc(state, board, "allied") == set(board.grid.neighbours(1307))


def test_2_2b_army_control_is_traced_into_an_enemy_zoc_not_through_it(fresh: SeriesState, board: Board) -> None:
    # First Army HQ at 0807, VII Corps three hexes east at 1107; a German corps at 0906 puts its ZOC on
    # the direct path, but a way round south stays open, so the corps is in control.
    state = position(fresh, "move_allied_corps", us_1=807, us_7=1107, de_81=905)
    assert ground.in_army_control(state, board, "us-7")
    # Ring the HQ with German ZOC on every side: nothing traces out of it.
    state = position(fresh, "move_allied_corps", us_1=807, us_7=1107, de_81=806, de_74=808, de_67=1006)
    assert 1107 not in ground.army_control_range(state, board, "us-1")
    assert not ground.in_army_control(state, board, "us-7")
    # Out of range: more than five hexes away.
    state = position(fresh, "move_allied_corps", us_1=807, us_7=1407)
    assert board.grid.distance(807, 1407) == 6
    assert not ground.in_army_control(state, board, "us-7")


def test_2_2c_a_frontline_is_continuous_edge_to_edge_zoc_from_the_north_to_the_south_edge(
    fresh: SeriesState, board: Board
) -> None:
    # Corps every third hex down column 10 cover rows 1 to 17 (column 10 is even: 18 rows).
    corps = ["br-1", "cdn-2", "br-8", "br-12", "br-30", "us-13"]
    state = position(fresh, "move_allied_corps")
    for unit_id, row in zip(corps, (2, 5, 8, 11, 14, 17), strict=True):
        state.units[unit_id].hex = 1000 + row
    breaks, gaps = ground.frontline_breaks(state, board, "allied")
    assert (breaks, gaps) == (0, [])
    # Take the corps at row 8 away: rows 7-9 open, and the line must cross one uncovered hex... or more.
    state.units["br-8"].hex = None
    breaks, gaps = ground.frontline_breaks(state, board, "allied")
    assert breaks >= 1 and all(h not in ground.zoc(state, board, "allied") for h in gaps)


def test_2_3b_reserve_doubles_movement(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "move_allied_corps", us_1=807, us_7=907)
    assert ground.movement_points(state, board, "us-7") == 12
    state = position(fresh, "move_allied_corps", us_1=807, us_7=907, de_81=1007)
    assert ground.movement_points(state, board, "us-7") == 6  # in enemy ZOC: on the frontline


def test_2_3c_each_damaged_depot_of_the_army_costs_one_mp(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "move_allied_hq", us_1=807)
    assert ground.movement_points(state, board, "us-1") == 4
    state.depots["liege"].damaged = True
    state.depots["stavelot"].damaged = True
    assert ground.movement_points(state, board, "us-1") == 2


def test_2_3d_terrain_zoc_and_army_control_costs(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "move_allied_corps", us_1=1104, us_7=1106)
    options = ground.reachable(state, board, "us-7")
    assert options[1107] == 1  # plain
    assert options[1005] == 3  # plain, then woods (the Kempen)
    state = position(fresh, "move_allied_corps", us_1=1104, us_7=1106, de_81=1108)
    options = ground.reachable(state, board, "us-7")
    assert options[1107] == 2  # plain + entering enemy ZOC


def test_2_3e_a_unit_may_always_move_one_hex(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "move_allied_hq", us_1=1810)
    state.depots["liege"].damaged = state.depots["stavelot"].damaged = True
    assert ground.movement_points(state, board, "us-1") == 2
    assert board.terrain[1811] == "hills"  # 3 MP
    assert 1811 in ground.reachable(state, board, "us-1")
    assert 1812 not in ground.reachable(state, board, "us-1")


def test_2_3f_a_sea_hex_only_ends_a_move(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "move_allied_corps", cdn_1=402, br_1=502)
    options = ground.reachable(state, board, "br-1")
    sea = [h for h in options if board.is_sea(h)]
    assert sea, "a sea hex next door can be entered"
    # A unit in the sea leaves by the hexside it came in by: with that hex held by the enemy, it cannot move.
    state.units["br-1"].hex = sea[0]
    state.units["br-1"].sea_entry = 502
    assert 502 in ground.reachable(state, board, "br-1")
    state.units["de-81"].hex = 502
    assert ground.reachable(state, board, "br-1") == {}


def test_2_3g_one_unit_per_hex_and_2_3h_friends_pass_through(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "move_allied_corps", us_1=807, us_7=907, us_5=1007)
    options = ground.reachable(state, board, "us-7")
    assert 1007 not in options
    assert 1107 in options


def test_2_3i_no_passing_through_enemy_units_and_2_3j_corps_pass_through_zoc(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "move_allied_corps", us_1=807, us_7=907, de_81=1107)
    options = ground.reachable(state, board, "us-7")
    assert 1107 not in options
    assert 1207 in options  # through the German ZOC around 1107


def test_2_3k_army_hqs_cannot_enter_enemy_zoc(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "move_allied_hq", us_1=907, de_81=1107)
    options = ground.reachable(state, board, "us-1")
    assert not set(options) & set(board.grid.neighbours(1107))


def test_2_3l_corps_move_in_the_corps_phase_and_2_3m_hqs_in_theirs(fresh: SeriesState) -> None:
    state = position(fresh, "move_allied_corps", us_1=807, us_7=907)
    with pytest.raises(IllegalActionError, match=r"2.3l"):
        act(state, "allied", "move", unit="us-1", to="0707")
    with pytest.raises(NotYourTurnError):
        act(state, "german", "move", unit="de-81", to="1707")
    state, _ = act(state, "allied", "move", unit="us-7", to="1007")
    assert state.units["us-7"].hex == 1007
    with pytest.raises(IllegalActionError, match=r"already moved"):
        act(state, "allied", "move", unit="us-7", to="1107")


def test_2_31_in_the_ardennes_offensive_only_the_germans_move(fresh: SeriesState) -> None:
    fresh.phase = "offensive_corps"
    with pytest.raises(NotYourTurnError):
        act(fresh, "allied", "move", unit="us-8", to="1412")
    state, _ = act(fresh, "german", "move", unit="de-66", to="1712")
    state, events = act(state, "german", "done")
    assert state.phase == "offensive_hq"
    assert any(e.kind == "frontline" for e in events)


def test_2_47_engaged_corps_do_not_move(fresh: SeriesState) -> None:
    state = position(fresh, "move_allied_corps", us_1=807, us_7=907)
    state.units["us-7"].engaged = True
    with pytest.raises(IllegalActionError, match=r"2.47"):
        act(state, "allied", "move", unit="us-7", to="1007")


def test_2_2c_the_frontline_is_one_chain_of_adjacent_hexes_from_the_north_edge_to_the_south_edge(
    fresh: SeriesState, board: Board
) -> None:
    corps = ["br-1", "cdn-2", "br-8", "br-12", "br-30", "us-13"]
    state = position(fresh, "move_allied_corps")
    for unit_id, row in zip(corps, (2, 5, 8, 11, 14, 17), strict=True):
        state.units[unit_id].hex = 1000 + row
    state.units["br-8"].hex = None
    chain, gaps = ground.frontline(state, board, "allied")
    assert chain[0] in board.north_anchor and chain[-1] in board.south_anchor
    assert all(board.grid.are_adjacent(a, b) for a, b in itertools.pairwise(chain))
    assert not any(board.is_sea(h) for h in chain)
    covered = ground.zoc(state, board, "allied") | {u.hex for u in ground.on_board(state, "allied")}
    assert gaps == sorted(h for h in chain if h not in covered)
    assert ground.frontline_breaks(state, board, "allied") == (len(gaps), gaps)


def test_2_3a_a_unit_has_the_movement_points_of_its_type(fresh: SeriesState, board: Board) -> None:
    # In an enemy ZOC (so not in reserve): the printed points (2.1).
    state = position(fresh, "move_german_corps", de_15=1806, de_81=1707, us_7=1607, us_1=1410)
    assert ground.movement_points(state, board, "de-81") == 4
    assert ground.movement_points(state, board, "us-7") == 6
    assert ground.movement_points(state, board, "de-15") == 4  # an Army HQ
    assert max(ground.reachable(state, board, "de-15").values()) <= 4


def test_3_2_after_frame_1_the_allies_move_first(fresh: SeriesState) -> None:
    state = position(fresh, "move_allied_corps", frame=2, us_1=807, us_7=907, de_15=1806, de_81=1707)
    with pytest.raises(NotYourTurnError):
        act(state, "german", "move", unit="de-81", to="1708")
    state, _ = act(state, "allied", "done")
    assert state.phase == "blitz"
    state, _ = act(state, "german", "blitz", units="")
    assert state.phase == "move_german_corps"


def test_2_3_a_refused_move_says_which_rule_and_why(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "move_allied_corps", us_1=807, us_7=907, us_5=1007)
    name = board.units["us-7"].name
    refusals = {
        "occupied": (1007, "2.3g", "hex 1007 is occupied"),
        "far": (1707, "2.3", f"{name} cannot reach 1707 with 12 MP (terrain, enemy ZOC and Army Control costs, "),
    }
    for to, rule, reason in refusals.values():
        with pytest.raises(IllegalActionError) as caught:
            ground.check_move(state, board, "us-7", to)
        assert caught.value.rule == rule and caught.value.reason.startswith(reason)
    assert caught.value.reason.endswith("enemy units block; Army HQs may not enter enemy ZOC)")
    state.moved.append("us-7")
    with pytest.raises(IllegalActionError) as caught:
        ground.check_move(state, board, "us-7", 1107)
    assert (caught.value.rule, caught.value.reason) == ("2.3a", f"{name} has already moved this phase")
    state.units["us-7"].engaged = True
    with pytest.raises(IllegalActionError) as caught:
        ground.check_move(state, board, "us-7", 1107)
    assert (caught.value.rule, caught.value.reason) == ("2.47", f"{name} is Engaged and cannot move this phase")


def test_2_3b_a_corps_exactly_at_the_army_control_range_is_in_reserve(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "move_allied_corps", us_1=807, us_7=1307)
    assert board.grid.distance(807, 1307) == ground.ARMY_CONTROL_RANGE
    assert ground.movement_points(state, board, "us-7") == 12
