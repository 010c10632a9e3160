"""[8] Command and [10] supply on small positions of the mini game.

Mini map: 8 columns x 6 rows; the German edge is column 08, the Allied edge column 01; a road runs along
row 03 from 0103 to 0803, crossing the Test River on the bridge 0403-0503; 0404-0504 is an unbridged river
hexside.
"""

from __future__ import annotations

import pytest

from engine.vaevictis.data import SIDES, GameData
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.state import GameState, MapMarker, Position, UnitState
from engine.vaevictis.supply import SupplyNet, command_range, road_only_hexes, update_statuses
from tests.vaevictis.combat_setups import add_independents
from tests.vaevictis.positions import mini_data, position
from tests.vaevictis.record_engine_digests import play

DATA: GameData = mini_data()


def net(pos: Position, side: str = "allied") -> SupplyNet:
    return SupplyNet(pos, side)  # type: ignore[arg-type]


def test_10_2_an_hq_near_a_road_to_the_friendly_edge_is_supplied() -> None:
    pos = position(DATA, {"hq-us-v": 202, "hq-de-1ss": 805})
    assert net(pos).hq_supplied("hq-us-v")  # 0202 touches the road hex 0203, whose road reaches column 01


def test_10_2_an_hq_two_hexes_from_any_road_is_not_supplied() -> None:
    pos = position(DATA, {"hq-us-v": 105, "hq-de-1ss": 806})
    assert not net(pos).hq_supplied("hq-us-v")


def test_10_2_a_unit_traces_supply_to_a_supplied_hq_within_command_range() -> None:
    pos = position(DATA, {"hq-us-v": 203, "us-2-id": 105, "hq-de-1ss": 806})
    assert net(pos).is_supplied(pos.state.units["us-2-id"])


def full_river(docs: dict) -> None:  # type: ignore[type-arg]
    """Make the Test River run the whole height of the map between columns 04 and 05, bridged at 0403-0503."""
    sides = [
        ["0401", "0501"],
        ["0402", "0501"],
        ["0402", "0502"],
        ["0403", "0502"],
        ["0403", "0503"],
        ["0404", "0503"],
        ["0404", "0504"],
        ["0405", "0504"],
        ["0405", "0505"],
        ["0406", "0505"],
    ]
    docs["map.toml"]["river"][0]["hexsides"] = sides


RIVER = mini_data(full_river)


def test_10_1_a_line_of_supply_crosses_a_river_only_at_a_bridge() -> None:
    # HQ west of the river at 0404 (next to the road hex 0403); the unit just across it at 0504.
    open_bridge = position(RIVER, {"hq-us-v": 404, "us-2-id": 504, "hq-de-1ss": 801})
    assert net(open_bridge).is_supplied(open_bridge.state.units["us-2-id"])
    # A German unit at 0603 controls 0503, the bridge's far end: the only crossing is closed.
    closed = position(RIVER, {"hq-us-v": 404, "us-2-id": 504, "de-12-vg": 603, "hq-de-1ss": 801})
    assert not net(closed).is_supplied(closed.state.units["us-2-id"])


def test_10_1_enemy_zoc_blocks_supply_unless_a_friendly_unit_stands_there() -> None:
    # The German at 0204 controls 0104 and 0205; the unit at 0105 has no road near and its way round to the
    # HQ at 0103 is longer than the Allied range of 6.
    placements = {"hq-us-v": 103, "us-2-id": 105, "de-12-vg": 204, "hq-de-1ss": 801}
    blocked = position(DATA, placements)
    assert not net(blocked).is_supplied(blocked.state.units["us-2-id"])
    opened = position(DATA, {**placements, "us-3-id": 104})
    assert net(opened).is_supplied(opened.state.units["us-2-id"])


def test_10_2_a_friendly_edge_in_enemy_zoc_supplies_nothing() -> None:
    pos = position(DATA, {"hq-us-v": 102, "de-12-vg": 203, "hq-de-1ss": 801})
    # The German at 0203 holds the road and controls 0103, the road's only edge hex.
    assert not net(pos).hq_supplied("hq-us-v")


def test_10_2_a_road_whose_edge_hex_is_in_enemy_zoc_leads_nowhere() -> None:
    # The German at 0104 controls 0103, the road's only edge hex, but not the road beyond it (0203, 0303):
    # the HQ on the road at 0303 is not supplied, the road no longer reaching a free edge.
    pos = position(DATA, {"hq-us-v": 303, "de-12-vg": 104, "hq-de-1ss": 801})
    assert not net(pos).hq_supplied("hq-us-v")
    pos = position(DATA, {"hq-us-v": 303, "de-12-vg": 105, "hq-de-1ss": 801})
    assert net(pos).hq_supplied("hq-us-v")  # one hex further south the edge is free again


def test_10_3_isolated_then_unsupplied_then_supplied_again() -> None:
    pos = position(DATA, {"hq-us-v": 105, "us-2-id": 206, "hq-de-1ss": 806})
    unit = pos.state.units["us-2-id"]
    update_statuses(pos, "allied")
    assert unit.isolated and not unit.unsupplied
    update_statuses(pos, "allied")
    assert unit.unsupplied and not unit.isolated
    unit.hex = 203
    pos.invalidate()
    update_statuses(pos, "allied")
    assert not unit.isolated and not unit.unsupplied


def test_8_1_command_range_counts_from_the_hq_to_the_unit() -> None:
    # Allied range is 6: 0103 to 0703 is 6 hexes (in command), to 0803 is 7 (out of command).
    pos = position(DATA, {"hq-us-v": 103, "us-2-id": 703, "hq-de-1ss": 806})
    assert net(pos).in_command(pos.state.units["us-2-id"])
    pos = position(DATA, {"hq-us-v": 103, "us-2-id": 803, "hq-de-1ss": 806})
    assert not net(pos).in_command(pos.state.units["us-2-id"])


def test_8_1_a_line_of_command_goes_through_enemy_zoc_but_not_enemy_units() -> None:
    pos = position(DATA, {"hq-us-v": 101, "us-2-id": 103, "de-12-vg": 203, "hq-de-1ss": 806})
    assert net(pos).in_command(pos.state.units["us-2-id"])  # 0102 is in German ZoC: allowed
    walled = position(
        DATA, {"hq-us-v": 101, "us-2-id": 301, "de-12-vg": 201, "de-hansen": 202, "de-peiper": 102, "hq-de-1ss": 806}
    )
    assert not net(walled).in_command(walled.state.units["us-2-id"])  # German units fill every short path


def test_8_2_german_range_is_four() -> None:
    pos = position(DATA, {"hq-de-1ss": 803, "de-12-vg": 403, "hq-us-v": 101})
    assert net(pos, "german").in_command(pos.state.units["de-12-vg"])
    pos = position(DATA, {"hq-de-1ss": 803, "de-12-vg": 303, "hq-us-v": 101})
    assert not net(pos, "german").in_command(pos.state.units["de-12-vg"])


def test_8_2_units_out_of_command_get_the_status_and_lose_it_back_in_range() -> None:
    pos = position(DATA, {"hq-de-1ss": 803, "de-12-vg": 203, "hq-us-v": 206})
    unit = pos.state.units["de-12-vg"]
    update_statuses(pos, "german")
    assert unit.out_of_command
    unit.hex = 603
    pos.invalidate()
    update_statuses(pos, "german")
    assert not unit.out_of_command


def test_16_3_an_independent_is_in_command_however_far_from_every_hq() -> None:
    """[16.3] An independent has no HQ and is always in command; a unit of a formation as far from its HQ is
    out of command (8.2)."""
    data = mini_data(add_independents)
    pos = position(data, {"hq-de-1ss": 803, "de-ind-4": 203, "de-12-vg": 204, "hq-us-v": 206})
    update_statuses(pos, "german")
    assert not pos.state.units["de-ind-4"].out_of_command
    assert pos.state.units["de-12-vg"].out_of_command


def test_17_1_all_us_units_in_command_on_turn_one() -> None:
    pos = position(DATA, {"hq-us-v": 101, "us-2-id": 806, "hq-de-1ss": 801})
    update_statuses(pos, "allied", all_in_command=True)
    assert not pos.state.units["us-2-id"].out_of_command


def test_8_1_command_area_is_the_hexes_a_line_of_command_reaches() -> None:
    pos = position(DATA, {"hq-de-1ss": 803, "hq-us-v": 403, "us-2-id": 402})
    area = net(pos, "german").command_area("hq-de-1ss")
    assert 403 not in area and 402 not in area  # enemy-held hexes stop a line of command
    assert 503 in area and 404 in area  # 0404 is reached round the enemy, within 4
    assert all(DATA.map.grid.distance(803, h) <= 4 for h in area)


def _in_command_by_one_search_per_unit(net: SupplyNet, unit: UnitState) -> bool:
    """[8.1] The line of command searched from the HQ to this unit alone (how it was found before one search
    from each HQ answered for all its units)."""
    data, state = net.data, net.pos.state
    formation = data.formations[data.units[unit.id].formation]
    if formation.independent or net._british_beyond_the_river(unit):
        return True
    if formation.hq is None:
        return False
    hq = state.units[formation.hq]
    if not hq.on_map or unit.hex is None or hq.hex is None:
        return False
    return unit.id == hq.id or net._within(hq.hex, unit.hex, command_range(data, net.side), net.enemy_hexes, False)


def _supplied_by_one_search_per_unit(net: SupplyNet, unit: UnitState) -> bool:
    """[10.2] The line of supply searched from each HQ to this unit alone (as it was before)."""
    data, state = net.data, net.pos.state
    if unit.hex is None:
        return False
    if net._british_beyond_the_river(unit):
        return True
    if data.units[unit.id].is_hq:
        return net.hq_supplied(unit.id)
    road_only = road_only_hexes(data) if data.units[unit.id].is_mechanized else frozenset()
    if net._near_supplied_road(unit.hex, road_only):
        return True
    for hq_id in net.supplying_hqs(unit.id):
        hq = state.units[hq_id]
        if hq.hex is None or not hq.on_map or not net.hq_supplied(hq_id):
            continue
        closed = net.supply_closed - {hq.hex, unit.hex}
        if net._within(hq.hex, unit.hex, command_range(data, net.side), closed, rivers=True, road_only=road_only):
            return True
    return False


@pytest.mark.parametrize("game_id", ["ardennes44", "alsace44"])
def test_8_1_10_2_one_search_per_hq_finds_the_lines_a_search_per_unit_finds(game_id: str) -> None:
    """[8.1, 10.1, 10.2] Lines of command and of supply are found by one search from each HQ (issue 27): over
    seeded random play of both games, every unit of both sides is in command and supplied exactly when a search
    from its HQ to it alone finds the line, in every position."""
    checked = [0]

    def check(game: VaeVictisGame, state: GameState) -> None:
        compare(game, state)
        blocking = game.data.events_with_effect("blocks-hex", "blocks-hex-on-roll")
        if blocking and len(checked) % 3 == 0:  # a unit standing in a hex closed to its lines by a marker
            marked = state.copy()
            for unit in list(marked.on_map())[::2]:
                for kind in blocking:
                    assert unit.hex is not None
                    marked.markers.append(MapMarker(kind, unit.hex, game.data.events[kind].side, marked.turn))
            compare(game, marked)
        checked.append(0)

    def compare(game: VaeVictisGame, state: GameState) -> None:
        pos = Position(game.data, state)
        for side in SIDES:
            net = SupplyNet(pos, side)
            for unit in state.on_map():
                if game.data.side_of(unit.id) == side:
                    assert net.in_command(unit) == _in_command_by_one_search_per_unit(net, unit), unit.id
                    assert net.is_supplied(unit) == _supplied_by_one_search_per_unit(net, unit), unit.id
                    checked[0] += 1

    play(game_id, "entire-battle", {}, 27, 150, check=check)
    assert checked[0] > 5_000


def test_10_3_the_supply_phase_reports_each_change_of_status_once() -> None:
    """[8.2, 10.3] The supply phase lists each unit whose status changed, with its new status, and nothing for a
    unit whose status stands."""
    pos = position(DATA, {"hq-us-v": 105, "us-2-id": 206, "hq-de-1ss": 806})

    def division() -> list[tuple[str, str]]:
        return [change for change in update_statuses(pos, "allied") if change[0] == "us-2-id"]

    assert division() == [("us-2-id", "isolated")]
    assert division() == [("us-2-id", "unsupplied")]
    assert division() == []
    pos.state.units["us-2-id"].hex = 203
    pos.invalidate()
    assert division() == [("us-2-id", "supplied")]
    assert division() == []
    pos = position(DATA, {"hq-de-1ss": 803, "de-12-vg": 203, "hq-us-v": 206})
    assert ("de-12-vg", "out-of-command") in update_statuses(pos, "german")
    pos.state.units["de-12-vg"].hex = 603
    pos.invalidate()
    assert ("de-12-vg", "in-command") in update_statuses(pos, "german")
