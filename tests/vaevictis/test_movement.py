"""Movement (4.1, 4.2, 5, 6, 7.8, 13, 15.2, 15.3, 16.1, 17.1): one test per rule, on small clear maps.

Positions are built on a variant of the mini game: a 12 x 10 map, clear unless a test says otherwise, with
a few units of each class and nationality that every test places where it needs them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from engine.contract import IllegalActionError
from engine.hexgrid import Hex
from engine.vaevictis import zoc
from engine.vaevictis.data import GameData
from engine.vaevictis.movement import Route, apply_move, check_move, legal_destinations
from engine.vaevictis.state import GameState, MapMarker, Position
from tests.vaevictis.movement_setups import build, position


def refusal(data: GameData, state: GameState, units: list[str], path: list[int], **kwargs: Any) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        check_move(data, state, units, path, **kwargs)
    return caught.value


def farthest(data: GameData, routes: Mapping[Hex, Route], start: Hex) -> int:
    return max(data.map.grid.distance(start, h) for h in routes)


ROW4 = [104, 204, 304, 404, 504, 604, 704, 804, 904, 1004, 1104, 1204]
"""A straight line of adjacent hexes across the map."""


# --- 6.1 Movement allowance and action points ---------------------------------------------------------------


def test_6_1_allowance_is_4_mp_for_infantry_and_6_for_mechanized() -> None:
    data = build()
    state = position(data, {"us-393": ("0104", 1), "us-ccb": ("0106", 1), "us-cav": ("0108", 1)})
    assert farthest(data, legal_destinations(data, state, ["us-393"]), 104) == 4
    assert farthest(data, legal_destinations(data, state, ["us-ccb"]), 106) == 6
    assert farthest(data, legal_destinations(data, state, ["us-cav"]), 108) == 6


def test_6_1_hq_uses_the_tables_allowance() -> None:
    data = build()
    state = position(data, {"hq-us-v": ("0104", 1)})
    assert farthest(data, legal_destinations(data, state, ["hq-us-v"]), 104) == 6


def test_6_1_each_move_action_costs_1_ap() -> None:
    data = build()
    state = position(data, {"us-393": ("0104", 2)})
    routes = legal_destinations(data, state, ["us-393"])
    assert routes[404].ap_spent == 1 and routes[404].mp_left == 1
    assert routes[604].ap_spent == 2 and routes[604].mp_left == 3
    assert 1004 not in routes  # 9 hexes: more than two move actions
    events = apply_move(data, state, ["us-393"], routes[604])
    unit = state.units["us-393"]
    assert unit.hex == 604 and unit.action_points == 0 and unit.movement_points == 3
    assert events[0].kind == "move" and events[0].data["path"][0] == "0104" and events[0].data["path"][-1] == "0604"


def test_6_1_consecutive_move_actions_sum_their_mps() -> None:
    # The example of 6.1: 5 clear hexes, then a rough hex needs a second action, which leaves 5 MPs.
    data = build({"0704": "r"})
    state = position(data, {"us-ccb": ("0104", 3)})
    route = check_move(data, state, ["us-ccb"], ROW4[0:7])
    assert route.ap_spent == 2 and route.mp_left == 5 and route.mp_spent == 7


def test_6_1_carried_mps_serve_a_consecutive_move_without_a_new_action() -> None:
    data = build()
    state = position(data, {"us-393": ("0104", 0)})
    state.units["us-393"].movement_points = 2
    routes = legal_destinations(data, state, ["us-393"])
    assert farthest(data, routes, 104) == 2 and routes[304].ap_spent == 0
    state.units["us-393"].movement_points = 0
    assert legal_destinations(data, state, ["us-393"]) == {}
    assert refusal(data, state, ["us-393"], [104, 204]).rule == "3.4.1"


def test_6_1_a_stack_moves_at_the_pace_of_its_slowest_class() -> None:
    data = build({"0304": "r"})
    state = position(data, {"us-cav": ("0104", 1), "us-393": ("0104", 1)})
    stack = legal_destinations(data, state, ["us-cav", "us-393"])
    assert farthest(data, stack, 104) == 4
    # The rough hex costs the stack the mechanized 2 MP, and the allowance is the infantry's 4.
    assert check_move(data, state, ["us-cav", "us-393"], [104, 204, 304]).mp_spent == 3


# --- 6.2 Terrain (Terrain Effects Chart) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("terrain", "places", "westwall", "infantry", "mechanized"),
    [
        ("clear", {}, [], 1, 1),
        ("rough", {}, [], 1, 2),
        ("forest", {}, [], 2, 3),
        ("rough-village", {"0204": "village"}, [], 1, 2),
        ("forest-city", {"0204": "city"}, [], 1, 1),
        ("forest-westwall", {}, ["0204"], 2, 3),
    ],
)
def test_6_2_terrain_costs_by_class(
    terrain: str, places: dict[str, str], westwall: list[str], infantry: int, mechanized: int
) -> None:
    letter = {"clear": ".", "rough": "r", "forest": "f"}[terrain.split("-")[0]]
    data = build({"0204": letter}, places=places, westwall=westwall)
    on_foot = position(data, {"us-393": ("0104", 1)})
    assert check_move(data, on_foot, ["us-393"], [104, 204]).mp_spent == infantry
    tracked = position(data, {"us-ccb": ("0104", 1)})
    assert check_move(data, tracked, ["us-ccb"], [104, 204]).mp_spent == mechanized


def test_6_2_road_only_when_alone() -> None:
    forest = {f"{c:02d}04": "f" for c in range(2, 9)}
    data = build(forest, roads=[[f"{c:02d}04" for c in range(1, 9)]])
    path = [104, 204, 304, 404]

    alone = position(data, {"us-ccb": ("0104", 1)})
    assert check_move(data, alone, ["us-ccb"], path).mp_spent == 1.5  # 1/2 MP per road hex
    infantry = position(data, {"us-393": ("0104", 1)})
    assert check_move(data, infantry, ["us-393"], path).mp_spent == 3  # 1 MP per road hex, not 2 for forest

    # A stack moving together pays the off-road terrain.
    stack = position(data, {"us-ccb": ("0104", 2), "us-cav": ("0104", 2)})
    assert check_move(data, stack, ["us-ccb", "us-cav"], path).mp_spent == 9

    # Moving through a unit on the road: that hex, and the step out of it, are paid off road.
    through = position(data, {"us-ccb": ("0104", 2), "us-393": ("0304", 1)})
    assert check_move(data, through, ["us-ccb"], path).mp_spent == 0.5 + 3 + 3

    # Leaving a stack: the first step is not alone.
    leaving = position(data, {"us-ccb": ("0104", 2), "us-393": ("0104", 1)})
    assert check_move(data, leaving, ["us-ccb"], path).mp_spent == 3 + 0.5 + 0.5


def test_6_2_village_costs_mechanized_the_other_terrain_unless_on_road() -> None:
    data = build({"0204": "f", "0205": "f"}, places={"0204": "village", "0205": "village"}, roads=[["0104", "0204"]])
    state = position(data, {"us-ccb": ("0104", 1)})
    assert check_move(data, state, ["us-ccb"], [104, 204]).mp_spent == 0.5
    assert check_move(data, state, ["us-ccb"], [104, 205]).mp_spent == 3


# --- 13.1 Rivers and bridges ---------------------------------------------------------------------------------

# A north-south river between columns 03 and 04, bridged at row 04.
RIVER = [("0301", "0401", False), ("0302", "0402", False), ("0303", "0403", False), ("0304", "0404", True)]
RIVER += [("0305", "0405", False), ("0306", "0406", False), ("0307", "0407", False), ("0308", "0408", False)]
RIVER += [("0309", "0409", False), ("0301", "0402", False), ("0302", "0403", False), ("0303", "0404", False)]
RIVER += [("0304", "0405", False), ("0305", "0406", False), ("0306", "0407", False), ("0307", "0408", False)]
RIVER += [("0308", "0409", False), ("0309", "0410", False)]


def river_map(terrain: Mapping[str, str] | None = None) -> GameData:
    return build(terrain, rivers=RIVER)


def east_of_river(h: Hex) -> bool:
    return h // 100 >= 4


def test_13_1_us_infantry_crosses_anywhere_for_2_mp_including_the_hex_beyond() -> None:
    data = river_map({"0406": "f"})
    state = position(data, {"us-393": ("0306", 1)})
    route = check_move(data, state, ["us-393"], [306, 406])
    assert route.mp_spent == 2 and route.ap_spent == 1  # not 2 + 2 for the forest beyond


def test_13_1_us_mechanized_crosses_only_at_a_bridge_for_3_mp() -> None:
    data = river_map()
    state = position(data, {"us-ccb": ("0304", 1)})
    assert check_move(data, state, ["us-ccb"], [304, 404]).mp_spent == 3
    error = refusal(data, state, ["us-ccb"], [304, 405])
    assert error.rule == "13.1" and "only by a bridge" in error.reason
    routes = legal_destinations(data, state, ["us-ccb"])
    assert {h for h in routes if east_of_river(h)} and all(routes[h].path[1] == 404 for h in routes if east_of_river(h))


def test_13_1_british_units_follow_the_us_costs() -> None:
    data = river_map()
    state = position(data, {"br-53": ("0306", 1), "br-29": ("0304", 1)})
    assert check_move(data, state, ["br-53"], [306, 406]).mp_spent == 2
    assert check_move(data, state, ["br-29"], [304, 404]).mp_spent == 3
    assert refusal(data, state, ["br-29"], [304, 405]).rule == "13.1"


def test_13_1_german_infantry_pays_1_ap_anywhere_and_keeps_its_mps() -> None:
    data = river_map()
    state = position(data, {"de-326": ("0606", 2)})
    route = check_move(data, state, ["de-326"], [606, 506, 406, 306, 206])
    # One move action (4 MP): 2 clear hexes, the crossing for 1 AP, then 1 more clear hex: 1 MP left.
    assert route.ap_spent == 2 and route.mp_left == 1 and route.mp_spent == 3


def test_13_1_german_without_the_ap_stays_behind_the_river() -> None:
    data = river_map()
    state = position(data, {"de-326": ("0506", 1)})
    error = refusal(data, state, ["de-326"], [506, 406, 306])
    assert error.rule == "13.1" and "stays behind the river" in error.reason
    routes = legal_destinations(data, state, ["de-326"])
    assert routes and not any(h // 100 <= 3 for h in routes)


def test_13_1_german_mechanized_crosses_only_at_a_bridge_for_1_ap() -> None:
    data = river_map()
    state = position(data, {"de-peiper": ("0404", 2)})
    route = check_move(data, state, ["de-peiper"], [404, 304, 204])
    assert route.ap_spent == 2 and route.mp_left == 5
    assert refusal(data, state, ["de-peiper"], [404, 303]).rule == "13.1"


def test_13_1_unbridged_rivers_are_closed_to_mechanized_units_of_both_sides() -> None:
    data = build(rivers=[(a, b, False) for a, b, _ in RIVER])
    state = position(data, {"de-peiper": ("0404", 3), "us-ccb": ("0104", 3)})
    assert not any(h // 100 <= 3 for h in legal_destinations(data, state, ["de-peiper"]))
    assert not any(east_of_river(h) for h in legal_destinations(data, state, ["us-ccb"]))


# --- 4.1, 4.2 Zones of control -------------------------------------------------------------------------------


def test_4_1_hexes_holding_enemy_units_are_never_entered() -> None:
    data = build()
    state = position(data, {"us-393": ("0104", 2), "hq-de": ("0204", 0), "de-weak": ("0105", 0)})
    routes = legal_destinations(data, state, ["us-393"])
    assert 204 not in routes and 105 not in routes
    error = refusal(data, state, ["us-393"], [104, 204])
    assert error.rule == "4.1" and "I SS" in error.reason
    # The HQ and the strength-1 unit control only their own hex: the hexes around are free.
    assert not routes[304].enters_enemy_zoc and routes[304].ap_spent == 1


def test_4_1_no_zone_of_control_across_a_river_bridged_or_not() -> None:
    # 116/Pz in 0504: a river runs between it and 0404 (unbridged) and 0405 (bridged).
    data = build(rivers=[("0404", "0504", False), ("0405", "0504", True)])
    state = position(data, {"us-393": ("0204", 2), "de-116": ("0504", 0)})
    routes = legal_destinations(data, state, ["us-393"])
    assert not routes[404].enters_enemy_zoc and not routes[405].enters_enemy_zoc
    assert routes[503].enters_enemy_zoc  # the same unit's zone on its own bank


def around(data: GameData, hex_: Hex) -> set[Hex]:
    """A hex and the six around it."""
    return {hex_, *data.map.grid.neighbours(hex_)}


def test_4_1_a_unit_of_strength_2_controls_the_hexes_around_it() -> None:
    data = build()
    state = position(data, {"us-393": ("0104", 2), "de-two": ("0504", 0), "de-weak": ("0508", 0)})
    assert set(zoc.enemy_zoc(Position(data, state), "allied")) == around(data, 504) | {508}


def test_4_1_each_side_meets_the_zones_of_the_other_sides_units() -> None:
    data = build()
    state = position(data, {"us-393": ("0104", 2), "de-326": ("0804", 0)})
    pos = Position(data, state)
    assert zoc.enemy_zoc(pos, "allied") == {h: {"de-326"} for h in around(data, 804)}
    assert zoc.enemy_zoc(pos, "german") == {h: {"us-393"} for h in around(data, 104)}


def test_4_1_the_zones_follow_a_unit_over_many_positions_in_a_row() -> None:
    """[4.1] The zones of a position are kept for the positions that follow (a bounded number of them): every
    position's zones are its own, however many came before, read once or twice."""
    data = build()
    state = position(data, {"us-393": ("0101", 2), "de-326": ("0102", 0)})
    for column in range(1, 13):
        for row in (2, 6):
            state.units["de-326"].hex = column * 100 + row
            for _ in range(2):
                assert set(zoc.enemy_zoc(Position(data, state), "allied")) == around(data, column * 100 + row)


def test_7_8_a_breakthrough_marker_cancels_the_zone_as_soon_as_it_is_placed() -> None:
    data = build()
    state = position(data, {"us-ccb": ("0104", 2), "de-116": ("0504", 0)})
    assert 404 in zoc.enemy_zoc(Position(data, state), "allied")
    state.markers.append(MapMarker(kind="breakthrough", hex=404, side="allied", turn_placed=1))
    assert set(zoc.enemy_zoc(Position(data, state), "allied")) == around(data, 504) - around(data, 404) | {504}


def test_7_8_only_a_breakthrough_marker_cancels_and_only_around_itself() -> None:
    """[7.8] The marker cancels the zone in its hex and the six around it; the rest of the unit's zone
    stands, and another marker of the side (a Roadblock, 15.3) cancels nothing."""
    data = build()
    state = position(data, {"us-ccb": ("0104", 2), "de-116": ("0504", 0)})
    state.markers.append(MapMarker(kind="roadblock", hex=404, side="allied", turn_placed=1))
    assert set(zoc.enemy_zoc(Position(data, state), "allied")) == around(data, 504)
    state.markers.append(MapMarker(kind="breakthrough", hex=303, side="allied", turn_placed=1))
    kept = set(zoc.enemy_zoc(Position(data, state), "allied"))
    assert kept == around(data, 504) - around(data, 303) and 404 not in kept and 605 in kept


def test_4_2_entering_an_enemy_zoc_stops_movement_and_obliges_an_attack() -> None:
    data = build()
    state = position(data, {"us-ccb": ("0104", 3), "de-116": ("0504", 0)})
    routes = legal_destinations(data, state, ["us-ccb"])
    assert routes[404].enters_enemy_zoc and routes[404].mp_left == 0
    zoc = {503, 505, 404, 405, 604, 605}
    assert all(not zoc & set(route.path[:-1]) for route in routes.values())
    error = refusal(data, state, ["us-ccb"], [104, 204, 304, 404, 405])
    assert error.rule == "4.2" and "must stop" in error.reason
    apply_move(data, state, ["us-ccb"], routes[404])
    unit = state.units["us-ccb"]
    assert unit.must_attack and unit.movement_points == 0 and unit.action_points == 2
    error = refusal(data, state, ["us-ccb"], [404, 304])
    assert error.rule == "4.2" and "must attack" in error.reason


def test_4_2_cannot_enter_zoc_without_ap_to_attack_except_forest() -> None:
    data = build({"0405": "f"}, places={"0503": "village"})
    state = position(data, {"us-393": ("0104", 1), "de-116": ("0504", 0)})
    error = refusal(data, state, ["us-393"], [104, 204, 304, 404])
    assert error.rule == "4.2"
    assert error.reason == (
        "393/99 may not enter 0404: it is in the zone of control of 116/Pz and 393/99 would have no AP left to attack"
    )
    routes = legal_destinations(data, state, ["us-393"])
    assert 404 not in routes and 405 in routes and 503 in routes
    apply_move(data, state, ["us-393"], routes[405])
    assert not state.units["us-393"].must_attack  # 4.3: attack optional in a forest


def test_4_2_an_hq_alone_enters_an_enemy_zoc_only_where_attack_is_optional() -> None:
    data = build({"0405": "f"})
    state = position(data, {"hq-us-v": ("0104", 3), "de-116": ("0504", 0)})
    error = refusal(data, state, ["hq-us-v"], [104, 204, 304, 404])
    assert error.rule == "4.2" and "an HQ, which cannot attack" in error.reason
    routes = legal_destinations(data, state, ["hq-us-v"])
    assert 404 not in routes and 405 in routes
    state.units["us-393"].hex, state.units["us-393"].action_points = 104, 3
    assert check_move(data, state, ["hq-us-v", "us-393"], [104, 204, 304, 404]).enters_enemy_zoc


def test_4_2_disengaging_costs_1_more_mp() -> None:
    data = build()
    state = position(data, {"us-393": ("0404", 1), "de-116": ("0504", 0)})
    assert check_move(data, state, ["us-393"], [404, 304]).mp_spent == 2
    assert farthest(data, legal_destinations(data, state, ["us-393"]), 404) == 3


def test_4_2_zoc_to_zoc_costs_2_more_mp() -> None:
    data = build()
    # 0404 is in 116/Pz's zone only, 0303 in Peiper's only: moving 0404 -> 0303 costs 1 + 2.
    state = position(data, {"us-ccb": ("0404", 2), "de-116": ("0504", 0), "de-peiper": ("0302", 0)})
    route = check_move(data, state, ["us-ccb"], [404, 303])
    assert route.mp_spent == 3 and route.enters_enemy_zoc


def test_4_2_no_move_from_zoc_to_zoc_of_the_same_enemy_unit() -> None:
    data = build()
    state = position(data, {"us-ccb": ("0404", 2), "de-116": ("0504", 0)})
    error = refusal(data, state, ["us-ccb"], [404, 405])
    assert error.rule == "4.2" and "116/Pz" in error.reason and "directly" in error.reason
    # Stepping out of the zone first is allowed: 0404 -> 0304 -> 0405.
    assert legal_destinations(data, state, ["us-ccb"])[405].path == (404, 304, 405)


def test_7_8_breakthrough_cancels_enemy_zoc_for_movement() -> None:
    data = build()
    state = position(data, {"us-ccb": ("0104", 2), "de-116": ("0504", 0)})
    state.markers.append(MapMarker(kind="breakthrough", hex=404, side="allied", turn_placed=1))
    route = check_move(data, state, ["us-ccb"], [104, 204, 304, 404, 405])
    assert not route.enters_enemy_zoc and route.mp_spent == 4


def test_15_2_150_pz_brigade_ignores_zoc() -> None:
    data = build()
    state = position(data, {"de-peiper": ("0604", 1), "us-393": ("0404", 0)})
    routes = legal_destinations(data, state, ["de-peiper"], ignore_zoc=True)
    assert 204 in routes and not routes[504].enters_enemy_zoc
    route = check_move(data, state, ["de-peiper"], [604, 504, 405, 305, 205], ignore_zoc=True)
    assert route.mp_spent == 4
    assert refusal(data, state, ["de-peiper"], [604, 504, 405]).rule == "4.2"


# --- 15.2, 15.3 Event markers ------------------------------------------------------------------------------


def test_15_3_roadblock_blocks_german_movement_into_its_hex() -> None:
    data = build()
    state = position(data, {"de-peiper": ("0604", 1), "us-393": ("0104", 2)})
    state.markers.append(MapMarker(kind="roadblock", hex=504, side="allied", turn_placed=1))
    assert 504 not in legal_destinations(data, state, ["de-peiper"])
    assert refusal(data, state, ["de-peiper"], [604, 504]).rule == "15.3"
    assert 504 in legal_destinations(data, state, ["us-393"])


def test_15_2_stosser_occupies_its_hex_against_allied_units() -> None:
    data = build()
    state = position(data, {"de-peiper": ("0604", 1), "us-393": ("0104", 1)})
    state.markers.append(MapMarker(kind="stosser", hex=304, side="german", turn_placed=1))
    assert 304 not in legal_destinations(data, state, ["us-393"])
    assert refusal(data, state, ["us-393"], [104, 204, 304]).rule == "15.2"
    assert 304 in legal_destinations(data, state, ["de-peiper"])


# --- 5 Stacking during movement ------------------------------------------------------------------------------


def test_5_move_may_not_end_over_6_steps() -> None:
    data = build()
    state = position(data, {"us-393": ("0104", 1), "us-394": ("0304", 1), "us-ccb": ("0106", 1)})
    assert 304 not in legal_destinations(data, state, ["us-393"])
    error = refusal(data, state, ["us-393"], [104, 204, 304])
    assert error.rule == "5" and "8 steps" in error.reason
    route = check_move(data, state, ["us-393"], [104, 204, 304, 404])  # passing through is free
    with pytest.raises(IllegalActionError) as caught:
        apply_move(data, state, ["us-393"], Route(304, (104, 204, 304), 1, 2, False, 2))
    assert caught.value.rule == "5"
    assert route.destination == 404


def test_5_a_move_may_end_on_exactly_6_steps() -> None:
    data = build()
    state = position(data, {"us-393": ("0104", 1), "us-cav": ("0304", 1)})  # 4 steps join 2: exactly 6
    assert 304 in legal_destinations(data, state, ["us-393"])
    assert check_move(data, state, ["us-393"], [104, 204, 304]).destination == 304


def test_5_real_steps_count_and_an_hq_counts_one() -> None:
    data = build()
    state = position(data, {"us-393": ("0104", 1), "us-394": ("0304", 1), "hq-us-v": ("0304", 0)})
    state.units["us-394"].steps = 2  # reduced: counts 2, the HQ 1, the mover 4 -> 7
    assert 304 not in legal_destinations(data, state, ["us-393"])
    state.units["us-393"].steps = 3
    assert 304 in legal_destinations(data, state, ["us-393"])


# --- 16.1 Reinforcements -------------------------------------------------------------------------------------


def test_16_1_entering_is_a_move_action_paying_the_entry_hex() -> None:
    data = build({"0105": "f"})
    state = position(data, {})
    state.units["us-393"].action_points = 2
    routes = legal_destinations(data, state, ["us-393"], entering_at=105)
    assert routes[105].path == (105,) and routes[105].ap_spent == 1 and routes[105].mp_left == 2
    apply_move(data, state, ["us-393"], routes[105], entering_at=105)
    unit = state.units["us-393"]
    assert unit.hex == 105 and unit.arrived and unit.action_points == 1
    assert refusal(data, position(data, {}), ["us-393"], [104], entering_at=104).rule == "16.1"


def test_16_1_each_unit_already_entered_there_costs_1_mp_more() -> None:
    data = build()
    state = position(data, {})
    state.units["us-393"].action_points = 2
    first = check_move(data, state, ["us-393"], [105], entering_at=105)
    third = check_move(data, state, ["us-393"], [105], entering_at=105, entered_already=2)
    assert first.mp_left == 3 and third.mp_left == 1


def test_16_1_trucks_pay_half_per_free_road_hex_far_from_the_enemy() -> None:
    road = [f"{c:02d}05" for c in range(1, 13)]
    data = build(roads=[road])
    assert data.map.has_road(105, 205)
    state = position(data, {"de-326": ("1105", 0)})
    state.units["us-393"].action_points = 3
    path = [int(h) for h in road[:7]]
    trucks = check_move(data, state, ["us-393"], path, entering_at=105, trucks=True)
    assert trucks.mp_spent == 3.5  # 7 road hexes at 1/2
    on_foot = check_move(data, state, ["us-393"], path, entering_at=105)
    assert on_foot.mp_spent == 7
    # Within 2 hexes of an enemy unit, the road costs the infantry rate again.
    near = check_move(data, state, ["us-393"], [int(h) for h in road[:10]], entering_at=105, trucks=True)
    assert near.mp_spent == 3.5 + 0.5 + 1 + 1  # 0805 is 3 hexes from 1105, 0905 and 1005 are closer


# --- 17.1 US units adjacent to the Germans at the start ----------------------------------------------------


def test_17_1_units_marked_cannot_move_stay_put() -> None:
    data = build()
    state = position(data, {"us-393": ("0104", 2)})
    state.units["us-393"].cannot_move = True
    assert legal_destinations(data, state, ["us-393"]) == {}
    assert refusal(data, state, ["us-393"], [104, 204]).rule == "17.1"


# --- The search and the check agree ------------------------------------------------------------------------


@pytest.mark.parametrize("unit", ["us-ccb", "us-393", "de-326", "de-peiper"])
def test_every_route_found_passes_check_move_with_the_same_costs(unit: str) -> None:
    terrain = {"0603": "f", "0604": "r", "0705": "f", "0506": "r", "0207": "f", "0802": "r"}
    data = build(terrain, rivers=RIVER, roads=[[f"{c:02d}04" for c in range(1, 13)]], places={"0605": "village"})
    start = "0204" if unit.startswith("us") else "0904"
    state = position(data, {unit: (start, 3), "us-394": ("0806", 0), "de-272": ("0207", 0), "de-116": ("0908", 0)})
    routes = legal_destinations(data, state, [unit])
    assert len(routes) > 10
    for route in routes.values():
        assert check_move(data, state, [unit], route.path) == route


def test_a_targeted_search_finds_the_same_route_as_the_full_search() -> None:
    from engine.vaevictis.game import VaeVictisGame
    from scenarios import load_game

    game = VaeVictisGame(load_game("ardennes44"))
    state = game.new_game("entire-battle", {}, b"\x03" * 32)
    for unit_id in ("de-1-ss-peiper", "de-2-pz-boehm", "de-116-pz-16"):
        state.units[unit_id].action_points = 3
        full = legal_destinations(game.data, state, [unit_id])
        assert full
        for hex_, route in list(full.items())[::7]:
            assert legal_destinations(game.data, state, [unit_id], target=hex_) == {hex_: route}


def test_4_3_westwall_attack_is_optional_for_a_german_unit_entering_an_enemy_zoc() -> None:
    data = build(westwall=["0404"])
    state = position(data, {"us-393": ("0304", 0), "de-326": ("0604", 2)})
    route = check_move(data, state, ["de-326"], [604, 504, 404])
    assert route.enters_enemy_zoc
    apply_move(data, state, ["de-326"], route)
    assert not state.units["de-326"].must_attack  # Terrain Effects Chart: Westwall, attack optional
    state = position(data, {"us-393": ("0304", 0), "de-326": ("0604", 1)})
    assert 404 in legal_destinations(data, state, ["de-326"])  # entered even without the AP to attack (4.2)


def test_4_3_westwall_attack_is_not_optional_for_an_allied_unit() -> None:
    data = build(westwall=["0404"])
    state = position(data, {"de-326": ("0504", 0), "us-393": ("0204", 2)})
    route = check_move(data, state, ["us-393"], [204, 304, 404])
    apply_move(data, state, ["us-393"], route)
    assert state.units["us-393"].must_attack


# --- Why a hex cannot be reached (6.1) ----------------------------------------------------------------------


def test_6_1_an_unreachable_hex_is_refused_with_what_stops_the_unit() -> None:
    from engine.vaevictis.movement import unreachable_reason

    data = build()
    state = position(data, {"us-393": ("0104", 1)})
    why, rule = unreachable_reason(data, state, ["us-393"], 1104)
    assert rule == "6.1" and "too far: 10 hexes away, with 4 MP" in why
    forest = build({f"{c:02d}{r:02d}": "f" for c in range(2, 5) for r in range(1, 11)})
    why, rule = unreachable_reason(forest, position(forest, {"us-393": ("0104", 1)}), ["us-393"], 404)
    assert rule == "6.1" and "terrain" in why
    rivers = river_map()
    why, rule = unreachable_reason(rivers, position(rivers, {"us-ccb": ("0305", 1)}), ["us-ccb"], 407)
    assert rule == "13.1" and "rivers" in why
    state = position(data, {"us-ccb": ("0104", 1), "de-116": ("0504", 0)})
    why, rule = unreachable_reason(data, state, ["us-ccb"], 704)
    assert rule == "4.2" and "zones of control" in why
    state = position(data, {"us-393": ("0104", 1), "us-394": ("0304", 1), "us-ccb": ("0106", 1)})
    why, rule = unreachable_reason(data, state, ["us-393"], 304)
    assert rule == "5" and "stacking limit" in why
