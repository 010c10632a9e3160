"""[15] Historical events (events.py), on the mini game with every event counter of Ardennes 1944.

Dice are pinned by choosing the seed (:func:`seed_for`). Mini map: 8 columns x 6 rows; 0101 is 7 hexes from
0801 and 6 from 0701; a river runs between 0403/0503 (bridged) and 0404/0504.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from engine.contract import IllegalActionError
from engine.dice import roll
from engine.vaevictis import events, movement, turn
from engine.vaevictis.data import GameData, Side
from engine.vaevictis.state import Activation, GameState, MapMarker, Position
from engine.vaevictis.supply import SupplyNet
from engine.vaevictis.zoc import enemy_zoc
from tests.vaevictis.gameplay import Table
from tests.vaevictis.positions import mini_data, position

EVENT_COUNTERS: list[dict[str, Any]] = [
    {
        "id": "stosser",
        "effect": "blocks-hex-on-roll",
        "side": "german",
        "name": "Operation Stosser",
        "count": 1,
        "rule": "15.2",
    },
    {
        "id": "greif",
        "effect": "enemy-stack-loses-ap",
        "side": "german",
        "name": "Greif Commandos",
        "count": 1,
        "rule": "15.2",
    },
    {
        "id": "skorzeny-150-pz-bde",
        "effect": "zoc-infiltration",
        "side": "german",
        "name": "150 Pz. Brigade",
        "count": 1,
        "rule": "15.2",
    },
    {
        "id": "us-fuel-dump",
        "effect": "stack-gains-ap",
        "side": "german",
        "name": "US Fuel Dump",
        "count": 2,
        "rule": "15.2",
    },
    {"id": "roadblock", "effect": "blocks-hex", "side": "allied", "name": "Roadblock", "count": 2, "rule": "15.3"},
    {"id": "nuts", "effect": "quality-aura", "side": "allied", "name": "Nuts!", "count": 1, "rule": "15.3"},
    {"id": "air-supply", "effect": "supply-drop", "side": "allied", "name": "Air Supply", "count": 1, "rule": "15.3"},
]


def _with_events(docs: dict[str, Any]) -> None:
    docs["setup.toml"]["event"] = [dict(e) for e in EVENT_COUNTERS]


DATA: GameData = mini_data(_with_events)


def seed_for(faces: Sequence[int], start: int = 0) -> str:
    """A seed (hex) whose rolls ``start``, ``start + 1``... give ``faces``."""
    for i in range(1_000_000):
        seed = f"events-test-{i}".encode()
        if all(roll(seed, start + k) == face for k, face in enumerate(faces)):
            return seed.hex()
    raise AssertionError(f"no seed found for {faces}")  # pragma: no cover


def game(
    placements: dict[str, int],
    *,
    active: Side | None = None,
    activated: Sequence[str] = (),
    phase: str = "operations",
    turn_number: int = 1,
    faces: Sequence[int] = (),
    data: GameData = DATA,
) -> GameState:
    """A state with the counters placed, every event counter available, and an activation in progress."""
    state = position(data, placements).state
    state.phase = phase
    state.turn = turn_number
    state.events_left = {e.id: e.count for e in data.events.values()}
    if active is not None:
        state.active = active
        state.activation = Activation(active, "general", None, list(activated), 4)
        for unit_id in activated:
            state.units[unit_id].activations = 1
            state.units[unit_id].action_points = 2
    if faces:
        state.seed = seed_for(faces, state.rolls_made)
    return state


def refused(state: GameState, side: Side, event_id: str, hex_: str) -> IllegalActionError:
    before = state.to_json()
    with pytest.raises(IllegalActionError) as caught:
        events.play(DATA, state, side, event_id, {"hex": hex_})
    assert state.to_json() == before, "a refused event must leave the state unchanged"
    return caught.value


# --- 15.1 ------------------------------------------------------------------------------------------------


def test_15_1_each_counter_is_played_once_then_removed_from_the_game() -> None:
    state = game({"us-2-id": 203, "de-12-vg": 703}, active="german", activated=["de-12-vg"])
    events.play(DATA, state, "allied", "nuts", {"hex": "0203"})
    assert state.events_left["nuts"] == 0
    error = refused(state, "allied", "nuts", "0203")
    assert error.rule == "15.1" and "already been played" in error.reason


def test_15_1_a_side_plays_only_its_own_events() -> None:
    state = game({"us-2-id": 203, "de-12-vg": 703}, active="german", activated=["de-12-vg"])
    error = refused(state, "german", "nuts", "0203")
    assert error.rule == "15.3" and "allied event" in error.reason


def test_15_1_playable_depends_on_whose_activation_is_in_progress() -> None:
    placed = {"us-2-id": 203, "de-12-vg": 603}
    during_allied = game(placed, active="allied", activated=["us-2-id"])
    german = {c.args["event"] for c in events.playable(DATA, during_allied, "german")}
    assert german == {"greif"}
    allied = {c.args["event"] for c in events.playable(DATA, during_allied, "allied")}
    assert allied == {"roadblock", "nuts"}
    during_german = game(placed, active="german", activated=["de-12-vg"])
    german = {c.args["event"] for c in events.playable(DATA, during_german, "german")}
    assert german == {"stosser", "us-fuel-dump"}  # no HQ on the map: no 150 Pz Brigade
    assert {c.args["event"] for c in events.playable(DATA, during_german, "allied")} == {"roadblock", "nuts"}
    supply = game(placed, phase="supply", turn_number=2)
    assert {c.args["event"] for c in events.playable(DATA, supply, "allied")} == {"nuts", "air-supply"}


# --- 15.2 Stosser ----------------------------------------------------------------------------------------


def test_15_2_stosser_stays_on_4_to_6() -> None:
    state = game({"de-12-vg": 703, "us-2-id": 203}, active="german", activated=["de-12-vg"], faces=[4])
    log = events.play(DATA, state, "german", "stosser", {"hex": "0403"})
    assert [(m.kind, m.hex, m.side) for m in state.markers] == [("stosser", 403, "german")]
    assert any(e.kind == "roll" and e.data["die"] == 4 for e in log)
    assert state.events_left["stosser"] == 0 and state.rolls_made == 1


def test_15_2_stosser_is_removed_on_1_to_3() -> None:
    state = game({"de-12-vg": 703, "us-2-id": 203}, active="german", activated=["de-12-vg"], faces=[3])
    events.play(DATA, state, "german", "stosser", {"hex": "0403"})
    assert state.markers == [] and state.events_left["stosser"] == 0


def test_15_2_stosser_goes_on_an_empty_hex_within_six_hexes_of_a_german_unit() -> None:
    state = game({"de-12-vg": 801, "us-2-id": 203}, active="german", activated=["de-12-vg"], faces=[6])
    error = refused(state, "german", "stosser", "0101")  # 7 hexes
    assert error.rule == "15.2" and "more than 6 hexes" in error.reason
    error = refused(state, "german", "stosser", "0203")
    assert error.rule == "15.2" and "empty hex" in error.reason
    events.play(DATA, state, "german", "stosser", {"hex": "0201"})  # 6 hexes: "six hexes or less"
    assert state.markers[0].hex == 201


def test_15_2_stosser_only_during_a_german_activation() -> None:
    state = game({"de-12-vg": 703, "us-2-id": 203}, active="allied", activated=["us-2-id"])
    error = refused(state, "german", "stosser", "0403")
    assert error.rule == "15.2" and "german activation" in error.reason


def test_15_2_stosser_blocks_allied_movement_and_supply() -> None:
    state = game({"de-12-vg": 703, "us-2-id": 203}, active="german", activated=["de-12-vg"], faces=[5])
    events.play(DATA, state, "german", "stosser", {"hex": "0303"})
    state.activation = Activation("allied", "general", None, ["us-2-id"], 4)
    assert 303 not in movement.legal_destinations(DATA, state, ["us-2-id"])
    assert 303 in SupplyNet(Position(DATA, state), "allied").supply_closed


def test_15_2_an_adjacent_allied_unit_removes_stosser_for_1_ap() -> None:
    state = game({"de-12-vg": 703, "us-2-id": 203, "us-3-id": 103}, active="german", activated=["de-12-vg"], faces=[6])
    events.play(DATA, state, "german", "stosser", {"hex": "0303"})
    state.activation = Activation("allied", "general", None, ["us-2-id", "us-3-id"], 4)
    state.units["us-2-id"].action_points = state.units["us-3-id"].action_points = 2
    with pytest.raises(IllegalActionError) as caught:
        events.remove_marker(DATA, state, "allied", "us-3-id", 303)
    assert caught.value.rule == "15.2" and "adjacent" in caught.value.reason
    assert [c.args["unit"] for c in events.removal_choices(DATA, state, "allied")] == ["us-2-id"]
    events.remove_marker(DATA, state, "allied", "us-2-id", 303)
    assert state.markers == [] and state.units["us-2-id"].action_points == 1


def test_15_2_stosser_disappears_at_the_end_of_the_turn() -> None:
    state = game({"de-12-vg": 703, "us-2-id": 203}, active="german", activated=["de-12-vg"], faces=[6])
    events.play(DATA, state, "german", "stosser", {"hex": "0403"})
    log = events.end_of_turn(DATA, state)
    assert state.markers == [] and log[0].kind == "event-removed"


# --- 15.2 Greif ------------------------------------------------------------------------------------------


def test_15_2_greif_costs_the_american_stack_1_ap_and_disappears() -> None:
    state = game({"de-12-vg": 703, "us-2-id": 303, "us-3-id": 303}, active="allied", activated=["us-2-id", "us-3-id"])
    log = events.play(DATA, state, "german", "greif", {"hex": "0303"})
    assert state.units["us-2-id"].action_points == 1 and state.units["us-3-id"].action_points == 1
    assert state.markers == [] and state.events_left["greif"] == 0
    assert set(log[0].data["units"]) == {"us-2-id", "us-3-id"}


def test_15_2_greif_only_on_an_american_stack_moving_within_six_hexes_of_a_german_unit() -> None:
    state = game({"de-12-vg": 801, "us-2-id": 101, "us-3-id": 203}, active="allied", activated=["us-2-id"])
    error = refused(state, "german", "greif", "0101")
    assert error.rule == "15.2" and "more than 6 hexes" in error.reason
    error = refused(state, "german", "greif", "0203")  # us-3-id is not activated
    assert error.rule == "15.2" and "moving in this activation" in error.reason
    state.units["us-2-id"].action_points = 0
    state.units["de-12-vg"].hex = 701
    error = refused(state, "german", "greif", "0101")
    assert error.rule == "15.2" and "no AP left" in error.reason


# --- 15.2 150 Pz Brigade ---------------------------------------------------------------------------------


def test_15_2_brigade_150_goes_on_a_stack_within_command_range_of_an_hq() -> None:
    placed = {"hq-de-1ss": 803, "de-12-vg": 403, "de-hansen": 303, "us-2-id": 101}
    state = game(placed, active="german", activated=["de-12-vg", "de-hansen"])
    error = refused(state, "german", "skorzeny-150-pz-bde", "0303")  # 5 hexes: German range is 4
    assert error.rule == "15.2" and "command range" in error.reason
    events.play(DATA, state, "german", "skorzeny-150-pz-bde", {"hex": "0403"})
    assert events.brigade_150_units(state) == ["de-12-vg"]


def test_15_2_brigade_150_passes_zoc_as_long_as_the_rolls_succeed() -> None:
    placed = {"hq-de-1ss": 803, "de-hansen": 603, "de-12-vg": 603, "us-2-id": 203}
    state = game(placed, active="german", activated=["de-hansen", "de-12-vg"], faces=[5, 6, 4])
    events.play(DATA, state, "german", "skorzeny-150-pz-bde", {"hex": "0603"})
    assert events.brigade_150_allows(DATA, state, ["de-hansen"])[0] is True
    assert events.brigade_150_units(state) == ["de-hansen"], "the marker goes on with the units that passed"
    assert events.brigade_150_allows(DATA, state, ["de-hansen"])[0] is True
    allowed, log = events.brigade_150_allows(DATA, state, ["de-hansen"])
    assert allowed is False and log[-1].kind == "event-removed"
    assert events.brigade_150_units(state) == []
    rolls = state.rolls_made
    assert events.brigade_150_allows(DATA, state, ["de-hansen"]) == (False, [])
    assert state.rolls_made == rolls, "no marker, no roll"


def test_15_2_brigade_150_ignoring_zoc_lets_the_stack_move_through() -> None:
    placed = {"hq-de-1ss": 803, "de-hansen": 503, "us-2-id": 203}
    state = game(placed, active="german", activated=["de-hansen"], faces=[6])
    events.play(DATA, state, "german", "skorzeny-150-pz-bde", {"hex": "0503"})
    stopped = movement.legal_destinations(DATA, state, ["de-hansen"])
    allowed, _ = events.brigade_150_allows(DATA, state, ["de-hansen"])
    free = movement.legal_destinations(DATA, state, ["de-hansen"], ignore_zoc=allowed)
    assert 102 not in stopped and 102 in free  # 0102 lies beyond us-2-id's zone of control


def test_15_2_brigade_150_is_removed_at_the_end_of_the_stacks_activation() -> None:
    placed = {"hq-de-1ss": 803, "de-hansen": 603, "us-2-id": 203}
    state = game(placed, active="german", activated=["de-hansen"])
    events.play(DATA, state, "german", "skorzeny-150-pz-bde", {"hex": "0603"})
    log = events.end_of_activation(DATA, state)
    assert events.brigade_150_units(state) == [] and log[0].kind == "event-removed"
    state.sequences_this_turn += 1  # a later activation never inherits it, even without the hook
    assert events.brigade_150_allows(DATA, state, ["de-hansen"]) == (False, [])


# --- 15.2 US Fuel Dumps ----------------------------------------------------------------------------------


def test_15_2_fuel_dump_gives_a_stack_1_ap_and_never_twice_in_one_activation() -> None:
    placed = {"de-12-vg": 603, "de-hansen": 603, "de-peiper": 703, "us-2-id": 203}
    state = game(placed, active="german", activated=["de-12-vg", "de-hansen", "de-peiper"])
    events.play(DATA, state, "german", "us-fuel-dump", {"hex": "0603"})
    assert state.units["de-12-vg"].action_points == 3 and state.units["de-hansen"].action_points == 3
    error = refused(state, "german", "us-fuel-dump", "0603")
    assert error.rule == "15.2" and "same stack in the same activation" in error.reason
    events.play(DATA, state, "german", "us-fuel-dump", {"hex": "0703"})
    assert state.units["de-peiper"].action_points == 3 and state.events_left["us-fuel-dump"] == 0


def test_15_2_the_second_fuel_dump_may_go_to_the_same_stack_in_a_later_activation() -> None:
    state = game({"de-12-vg": 603, "us-2-id": 203}, active="german", activated=["de-12-vg"])
    events.play(DATA, state, "german", "us-fuel-dump", {"hex": "0603"})
    state.sequences_this_turn += 1
    events.play(DATA, state, "german", "us-fuel-dump", {"hex": "0603"})
    assert state.units["de-12-vg"].action_points == 4


# --- 15.3 Roadblocks -------------------------------------------------------------------------------------


def test_15_3_roadblock_on_an_empty_hex_within_six_hexes_of_a_us_unit_in_either_activation() -> None:
    placed = {"us-2-id": 101, "de-12-vg": 703}
    state = game(placed, active="german", activated=["de-12-vg"])
    error = refused(state, "allied", "roadblock", "0801")  # 7 hexes
    assert error.rule == "15.3" and "more than 6 hexes" in error.reason
    events.play(DATA, state, "allied", "roadblock", {"hex": "0503"})
    state.activation = Activation("allied", "general", None, ["us-2-id"], 4)
    events.play(DATA, state, "allied", "roadblock", {"hex": "0303"})
    assert sorted(m.hex for m in state.markers if m.kind == "roadblock") == [303, 503]
    state.activation = None
    state.events_left["roadblock"] = 1
    error = refused(state, "allied", "roadblock", "0403")
    assert error.rule == "15.3" and "German movement or an Allied activation" in error.reason


def test_15_3_roadblock_has_no_zoc_but_blocks_german_movement_and_supply() -> None:
    state = game({"us-2-id": 101, "de-hansen": 603}, active="german", activated=["de-hansen"])
    events.play(DATA, state, "allied", "roadblock", {"hex": "0403"})
    pos = Position(DATA, state)
    assert 503 not in enemy_zoc(pos, "german") and 403 not in enemy_zoc(pos, "german")
    assert 403 not in movement.legal_destinations(DATA, state, ["de-hansen"])
    assert 403 in SupplyNet(pos, "german").supply_closed


def test_15_3_an_adjacent_german_unit_removes_a_roadblock_for_1_ap_and_it_outlasts_the_turn() -> None:
    state = game({"us-2-id": 101, "de-hansen": 503}, active="german", activated=["de-hansen"])
    events.play(DATA, state, "allied", "roadblock", {"hex": "0403"})
    events.end_of_turn(DATA, state)
    assert [m.kind for m in state.markers] == ["roadblock"]
    state.units["de-hansen"].action_points = 0
    with pytest.raises(IllegalActionError) as caught:
        events.remove_marker(DATA, state, "german", "de-hansen", 403)
    assert caught.value.rule == "15.3" and "costs 1 AP" in caught.value.reason
    state.units["de-hansen"].action_points = 2
    events.remove_marker(DATA, state, "german", "de-hansen", 403)
    assert state.markers == [] and state.units["de-hansen"].action_points == 1


# --- 15.3 Nuts! ------------------------------------------------------------------------------------------


def test_15_3_nuts_at_the_start_of_a_german_attack_gives_plus_1_quality_around_it() -> None:
    state = game({"us-2-id": 203, "de-12-vg": 303}, active="german", activated=["de-12-vg"])
    state.pending.append({"kind": "combat", "stage": "defence-supports"})
    assert "nuts" in {c.args["event"] for c in events.playable(DATA, state, "allied")}
    events.play(DATA, state, "allied", "nuts", {"hex": "0203"})
    assert events.nuts_quality_bonus(DATA, state, 203) == 1
    assert all(events.nuts_quality_bonus(DATA, state, h) == 1 for h in DATA.map.grid.neighbours(203))
    assert events.nuts_quality_bonus(DATA, state, 403) == 0


def test_15_3_nuts_goes_only_on_an_american_stack() -> None:
    state = game({"us-2-id": 203, "de-12-vg": 303})
    error = refused(state, "allied", "nuts", "0303")
    assert error.rule == "15.3" and "American stack" in error.reason


def test_15_3_nuts_stays_while_an_american_unit_holds_the_hex_later_arrivals_included() -> None:
    state = game({"us-2-id": 203, "de-12-vg": 503})
    events.play(DATA, state, "allied", "nuts", {"hex": "0203"})
    events.end_of_turn(DATA, state)
    state.units["us-3-id"].hex, state.units["us-3-id"].arrived = 203, True  # a later arrival
    state.units["us-2-id"].hex = 103
    assert events.tidy_markers(DATA, state) == [] and state.markers_at(203, "nuts")
    state.units["us-3-id"].hex = 104  # the last American unit retreats out of the hex
    log = events.tidy_markers(DATA, state)
    assert state.markers == [] and log[0].kind == "event-removed"


# --- 15.3 Air Supply -------------------------------------------------------------------------------------


def test_15_3_air_supply_only_in_the_supply_phase_of_a_clear_turn() -> None:
    overcast = game({"us-2-id": 203}, phase="supply", turn_number=1)
    error = refused(overcast, "allied", "air-supply", "0203")
    assert error.rule == "15.3" and "clear weather" in error.reason
    operations = game({"us-2-id": 203}, phase="operations", turn_number=2)
    error = refused(operations, "allied", "air-supply", "0203")
    assert error.rule == "15.3" and "supply phase" in error.reason


def test_15_3_air_supply_supplies_the_stack_and_units_with_a_line_of_supply_of_2_hexes() -> None:
    placed = {"us-2-id": 202, "us-3-id": 204, "us-cca": 205, "de-12-vg": 702}
    state = game(placed, phase="supply", turn_number=2, faces=[3])
    events.play(DATA, state, "allied", "air-supply", {"hex": "0202"})
    assert events.air_supplied_units(DATA, state) == {"us-2-id", "us-3-id"}  # us-cca is 3 hexes away
    state.units["de-12-vg"].hex = 303  # its zone of control closes 0203, the only 2-hex line to 0204 (10.1)
    assert events.air_supplied_units(DATA, state) == {"us-2-id"}
    state.units["us-cca"].hex = 203  # a friendly unit in the enemy zone reopens it
    assert events.air_supplied_units(DATA, state) == {"us-2-id", "us-3-id", "us-cca"}


def test_15_3_air_supply_keeps_units_supplied_in_the_supply_phase() -> None:
    state = game({"us-2-id": 606, "de-12-vg": 404}, phase="supply", turn_number=2, faces=[2])
    state.units["us-2-id"].isolated = True
    events.play(DATA, state, "allied", "air-supply", {"hex": "0606"})
    turn.supply_phase(DATA, state, air_supplied=events.air_supplied_units(DATA, state))
    assert not state.units["us-2-id"].isolated and not state.units["us-2-id"].unsupplied


def test_15_3_air_supply_is_removed_on_a_6_otherwise_it_may_be_played_next_turn() -> None:
    state = game({"us-2-id": 203}, phase="supply", turn_number=2, faces=[5])
    events.play(DATA, state, "allied", "air-supply", {"hex": "0203"})
    assert state.events_left["air-supply"] == 1
    error = refused(state, "allied", "air-supply", "0203")
    assert error.rule == "15.3" and "already been played this turn" in error.reason
    events.end_of_turn(DATA, state)
    assert state.markers == []
    state.flags.pop("air_supply_played")  # a new turn (start_turn clears the flags)
    state.seed = seed_for([6], state.rolls_made)
    log = events.play(DATA, state, "allied", "air-supply", {"hex": "0203"})
    assert state.events_left["air-supply"] == 0 and log[-1].kind == "event-removed"


# --- Removing a marker, and the 150 Pz Brigade, through the game's own flow ---------------------------------


def test_15_2_removing_stosser_is_an_action_that_activates_the_adjacent_unit() -> None:
    table = Table(DATA, {"hq-us-v": 101, "us-2-id": 203, "us-3-id": 103, "de-12-vg": 703})
    table.state.markers.append(MapMarker("stosser", 303, "german", 1))
    table.act("german", "pass")
    table.act("allied", "activate_general")
    assert "remove_marker" in table.game.prompts(table.state)["allied"].free_verbs
    offered = events.removal_choices(DATA, table.state, "allied")
    assert [c.args["unit"] for c in offered] == ["us-2-id"], "an adjacent unit not yet activated may remove it"
    table.refused("allied", "remove_marker", "15.2", "must be adjacent", unit="us-3-id", hex="0303")
    log = table.act("allied", "remove_marker", unit="us-2-id", hex="0303")
    assert [e.kind for e in log][:2] == ["join", "event-removed"]
    assert table.state.activation is not None and table.state.activation.units == ["us-2-id"]
    assert table.unit("us-2-id").action_points == 1 and table.state.markers == []


def test_15_2_removing_stosser_counts_against_the_general_activation_limit() -> None:
    table = Table(DATA, {"hq-us-v": 101, "us-2-id": 203, "us-3-id": 204, "us-cca": 104, "de-12-vg": 703})
    table.state.markers.append(MapMarker("stosser", 303, "german", 1))
    table.act("german", "pass")
    table.act("allied", "activate_general")
    assert table.state.activation is not None
    table.state.activation.limit = 1
    table.act("allied", "enter_ip", unit="us-3-id")
    table.refused("allied", "remove_marker", "9.2", "already has its 1 units", unit="us-2-id", hex="0303")


def test_15_3_removing_a_roadblock_is_an_action_that_activates_the_adjacent_german_unit() -> None:
    table = Table(DATA, {"hq-de-1ss": 803, "de-hansen": 503, "us-2-id": 101})
    table.state.markers.append(MapMarker("roadblock", 403, "allied", 1))
    table.act("german", "activate_general")
    log = table.act("german", "remove_marker", unit="de-hansen", hex="0403")
    assert [e.kind for e in log][:2] == ["join", "event-removed"]
    assert table.unit("de-hansen").action_points == 2 and table.state.markers == []


def test_15_2_brigade_150_goes_on_a_stack_before_it_acts() -> None:
    table = Table(DATA, {"hq-de-1ss": 803, "de-hansen": 503, "us-2-id": 203})
    table.act("german", "activate_general")
    offered = events.playable(DATA, table.state, "german")
    assert {"event": "skorzeny-150-pz-bde", "hex": "0503"} in [c.args for c in offered]
    table.act("german", "play_event", event="skorzeny-150-pz-bde", hex="0503")
    assert table.state.activation is not None and table.state.activation.units == [], "the stack has not acted yet"
    assert events.brigade_150_units(table.state) == ["de-hansen"]


@pytest.mark.parametrize("face", [6, 3], ids=["passes", "fails"])
def test_15_2_brigade_150_moves_the_same_whether_the_path_is_named_or_not(face: int) -> None:
    ends: list[tuple[int | None, int, list[str]]] = []
    route = None
    for named in (False, True):
        table = Table(DATA, {"hq-de-1ss": 803, "de-hansen": 503, "us-2-id": 203})
        table.act("german", "activate_general")
        table.act("german", "play_event", event="skorzeny-150-pz-bde", hex="0503")
        table.state.seed = seed_for([face], table.state.rolls_made)
        if route is None:
            ready = table.state.copy()
            ready.units["de-hansen"].action_points = 3  # as it will have once it joins by moving
            route = movement.legal_destinations(DATA, ready, ["de-hansen"], ignore_zoc=True)[102].path
        args: dict[str, Any] = {"units": "de-hansen", "to": "0102"}
        if named:
            args["path"] = ",".join(f"{h:04d}" for h in route)
        log = table.act("german", "move", **args)
        ends.append((table.unit("de-hansen").hex, table.unit("de-hansen").action_points, [e.kind for e in log]))
    assert ends[0] == ends[1], f"path named or not, the same move: {ends}"
    assert (ends[0][0] == 102) == (face == 6), "on 5-6 it goes through; otherwise the zone stops it"
