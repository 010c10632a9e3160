"""Retreat and advance paths (retreat.py), as pure functions of a position (7.7.1, 7.7.2)."""

from __future__ import annotations

from engine.vaevictis import retreat as rt
from engine.vaevictis.state import MapMarker, Position
from tests.vaevictis.combat_setups import mini_game, new_state

DATA = mini_game()


def options(placed: dict[str, int], units: list[str], path: list[int]) -> rt.RetreatOptions:
    state = new_state(DATA, placed)
    return rt.retreat_options(Position(DATA, state), "allied", units, path)


def test_7_7_1_tanks_cannot_retreat_across_an_unbridged_river() -> None:
    # 0404|0504 is an unbridged river, 0403|0503 a bridged one.
    tank = options({"us-cca": 504}, ["us-cca"], [504])
    foot = options({"us-b": 504}, ["us-b"], [504])
    assert 404 not in tank.legal and 404 in foot.legal
    assert rt.can_cross(DATA, 503, 403, "us-cca")


def test_7_7_1_never_into_an_enemy_held_hex_nor_back_along_the_path() -> None:
    found = options({"us-b": 303, "de-vg": 203}, ["us-b"], [403, 303])
    assert 203 not in found.legal and 403 not in found.legal


def test_7_7_1_first_priority_out_of_enemy_zoc() -> None:
    found = options({"us-b": 303, "de-vg": 403}, ["us-b"], [303])
    assert found.legal == (203, 204, 302, 304, 404)
    assert 302 not in found.hexes and 404 not in found.hexes  # in the ZoC of de-vg


def test_7_7_1_out_of_enemy_zoc_comes_before_every_other_priority() -> None:
    # de-vg at 0202 controls 0203 and 0302; the HQ at 0205 controls only its own hex. Toward the edge, 0203
    # (the city, next to de-vg) and 0204 (forest, next to the HQ) are as far from the enemy, and the city
    # costs less: only the first priority sends the retreat into 0204.
    found = options({"us-b": 303, "de-vg": 202, "hq-de-1ss": 205}, ["us-b"], [303])
    assert 203 in found.legal and found.hexes == (204,)


def test_7_7_1_second_priority_toward_the_friendly_edge() -> None:
    found = options({"us-b": 505}, ["us-b"], [505])  # no enemy: the west edge decides, then cost
    assert all(h // 100 == 4 for h in found.hexes)


def test_7_7_1_fourth_priority_least_costly_terrain() -> None:
    found = options({"us-b": 303, "de-vg": 403}, ["us-b"], [303])
    assert found.hexes == (203,) and found.priority == "least costly terrain"  # the city, not the forest 0204


def test_7_7_1_never_into_a_hex_over_the_stacking_limit() -> None:
    found = options({"us-b": 303, "us-2-id": 203}, ["us-b"], [303])
    assert 203 in found.legal  # 4 + 2 = 6 steps: allowed
    found = options({"us-b": 303, "us-2-id": 203, "us-c": 203}, ["us-b"], [303])
    assert 203 not in found.legal


def test_15_3_a_roadblock_blocks_the_german_retreat() -> None:
    state = new_state(DATA, {"de-vg": 403})
    state.markers.append(MapMarker("roadblock", 503, "allied", 1))
    found = rt.retreat_options(Position(DATA, state), "german", ["de-vg"], [403])
    assert 503 not in found.legal


def test_7_7_2_the_advance_enters_the_vacated_hex_first() -> None:
    pos = Position(DATA, new_state(DATA, {"de-vg": 403}))
    assert rt.advance_options(pos, "german", ["de-vg"], 403, 0, 303, [[303, 203]], 2) == (303,)


def test_7_7_2_infantry_follows_the_path_armor_may_leave_it() -> None:
    pos = Position(DATA, new_state(DATA, {"de-vg": 303, "de-peiper": 303}))
    assert rt.advance_options(pos, "german", ["de-vg"], 303, 1, 303, [[303, 203]], 2) == (203,)
    assert len(rt.advance_options(pos, "german", ["de-peiper"], 303, 1, 303, [[303, 203]], 2)) > 1
    assert rt.advance_options(pos, "german", ["de-vg"], 303, 2, 303, [[303, 203]], 2) == ()


def test_7_7_2_entering_the_vacated_hex_never_stops_an_advance_for_enemy_zoc() -> None:
    pos = Position(DATA, new_state(DATA, {"de-vg": 403, "us-b": 203}))  # us-b controls 0303, the vacated hex
    assert rt.advance_stops(pos, "german", 403, 303, 303) is None
    assert rt.advance_stops(pos, "german", 403, 303, 304) == "it entered an enemy zone of control"


def test_7_7_2_an_advance_stops_after_a_river_or_in_enemy_zoc() -> None:
    pos = Position(DATA, new_state(DATA, {"de-vg": 503, "us-b": 102}))
    assert rt.advance_stops(pos, "german", 503, 403, 403) == "it crossed a river"
    assert rt.advance_stops(pos, "german", 303, 203, 303) == "it entered an enemy zone of control"
    assert rt.advance_stops(pos, "german", 403, 303, 303) is None


def test_7_7_1_a_group_with_no_open_hex_is_lost_only_on_the_map_edge() -> None:
    edge = options({"us-b": 101, "de-vg": 102, "de-326": 201, "de-hansen": 202}, ["us-b"], [101])
    assert (edge.hexes, edge.legal, edge.priority, edge.off_map) == ((), (), "no hex is open", True)
    ring = {"de-vg": 302, "de-326": 304, "de-hansen": 203, "de-big": 204, "de-five1": 403, "de-five2": 404}
    inland = options({"us-b": 303, **ring}, ["us-b"], [303])
    assert (inland.hexes, inland.legal, inland.priority, inland.off_map) == ((), (), "no hex is open", False)
    assert options({"us-b": 303}, ["us-b"], [303]).off_map is False


def test_7_7_1_when_every_open_hex_is_in_an_enemy_zone_the_retreat_still_enters_one() -> None:
    found = options({"us-b": 303, "de-vg": 203, "de-326": 404}, ["us-b"], [303])
    assert found.legal == (204, 302, 304, 403) and found.hexes and set(found.hexes) <= set(found.legal)
    assert found.priority != "out of enemy ZoC"


def test_7_7_1_a_german_retreat_leaves_the_allied_zone_where_no_german_unit_stands() -> None:
    state = new_state(DATA, {"de-vg": 303, "us-b": 202, "de-326": 302})
    pos = Position(DATA, state)
    assert rt.is_in_enemy_zoc(pos, "german", 203) and not rt.is_in_enemy_zoc(pos, "german", 302)
    assert not rt.is_in_enemy_zoc(pos, "german", 404)
    found = rt.retreat_options(pos, "german", ["de-vg"], [303])
    assert 203 in found.legal and 203 not in found.hexes and found.priority != "any open hex"


def test_15_3_only_a_roadblock_closes_a_hex_to_the_retreat() -> None:
    state = new_state(DATA, {"de-vg": 403})
    state.markers.append(MapMarker("breakthrough", 503, "allied", 1))  # an Allied marker that closes nothing
    assert 503 in rt.retreat_options(Position(DATA, state), "german", ["de-vg"], [403]).legal


def test_7_7_1_one_closed_hex_leaves_the_others_open() -> None:
    tank = options({"us-cca": 504}, ["us-cca"], [504])  # 0404 across the unbridged river comes third
    assert tank.legal == (405, 503, 505, 604, 605)
    full = options({"us-b": 303, "us-2-id": 302, "us-d": 302}, ["us-b"], [303])  # 0302 holds 6 steps already
    assert full.legal == (203, 204, 304, 403, 404)


def test_7_7_2_an_advance_may_end_on_exactly_6_steps_and_never_over() -> None:
    pos = Position(DATA, new_state(DATA, {"de-vg": 403, "de-hansen": 303, "de-five1": 303}))  # 3 + 2 + 1 = 6
    assert rt.advance_options(pos, "german", ["de-vg"], 403, 0, 303, [[303, 203]], 2) == (303,)
    pos = Position(DATA, new_state(DATA, {"de-vg": 403, "de-hansen": 303, "de-five1": 303, "de-five2": 303}))
    assert rt.advance_options(pos, "german", ["de-vg"], 403, 0, 303, [[303, 203]], 2) == ()


def test_7_7_2_armor_leaving_the_path_may_take_every_open_hex_after_a_closed_one() -> None:
    pos = Position(DATA, new_state(DATA, {"de-peiper": 303, "us-b": 203, "de-vg": 204, "de-hansen": 204}))
    pos.state.units["de-vg"].steps = 3  # 0204 holds 5 steps: 2 more would be 7
    assert rt.advance_options(pos, "german", ["de-peiper"], 303, 1, 303, [[303, 402]], 3) == (302, 304, 403, 404)


def test_7_7_2_infantry_follows_each_hex_of_the_path_then_any_hex_beyond_its_end() -> None:
    pos = Position(DATA, new_state(DATA, {"de-vg": 203}))
    path = [[303, 203, 202]]
    assert rt.advance_options(pos, "german", ["de-vg"], 203, 2, 303, path, 4) == (202,)
    pos.state.units["de-vg"].hex = 202
    beyond = rt.advance_options(pos, "german", ["de-vg"], 202, 3, 303, path, 4)
    assert set(beyond) == set(DATA.map.grid.neighbours(202))


def test_7_7_1_the_retreat_says_which_priority_chose_its_hexes() -> None:
    only = options({"us-b": 101, "de-vg": 102, "de-326": 201}, ["us-b"], [101])
    assert only.hexes == (202,) and only.priority == "any open hex"
    assert options({"us-b": 303, "de-vg": 403}, ["us-b"], [303]).priority == "least costly terrain"
    named = {
        101: ((204,), "furthest from the enemy"),
        102: ((204,), "toward the friendly board edge"),
        204: ((302, 403, 404), "out of enemy ZoC"),
    }
    for enemy, (hexes, priority) in named.items():
        found = options({"us-b": 303, "de-vg": enemy}, ["us-b"], [303])
        assert (found.hexes, found.priority) == (hexes, priority)
