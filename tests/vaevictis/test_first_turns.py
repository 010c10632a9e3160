"""Ardennes 1944, the opening turns and the reinforcements (1.6, 3.2, 16.1, 16.2, 17.1), on the real data.

Each test starts The Entire Battle and plays it through :class:`VaeVictisGame`, moving counters by hand only
to build the position a rule needs.
"""

from __future__ import annotations

import pytest

from engine.contract import Action, Event, RulesError
from engine.hexgrid import hex_name
from engine.vaevictis import movement, turn, victory
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.geography import beyond_meuse
from engine.vaevictis.odds import may_support
from engine.vaevictis.state import GameState, Position
from scenarios import load_game


@pytest.fixture(scope="module")
def game() -> VaeVictisGame:
    return VaeVictisGame(load_game("ardennes44"))


def finish_support(game: VaeVictisGame, state: GameState) -> GameState:
    while state.phase == "support":
        side = sorted(game.prompts(state))[0]
        state, _ = game.apply(state, Action(side, "end_support"))
    return state


def start(game: VaeVictisGame) -> GameState:
    """Turn 1 of The Entire Battle, at the first German activation."""
    return finish_support(game, game.new_game("entire-battle", {}, b"\x05" * 32))


def apply(game: VaeVictisGame, state: GameState, seat: str, verb: str, **args: object) -> tuple[GameState, list[Event]]:
    return game.apply(state, Action(seat, verb, dict(args)))


def formations_offered(game: VaeVictisGame, state: GameState) -> set[str]:
    assert state.active is not None
    prompt = game.prompts(state)[state.active]
    return {str(c.args["formation"]) for c in prompt.choices if c.verb == "activate_formation"}


def german_opening_run(game: VaeVictisGame, state: GameState) -> GameState:
    """[17.1] The three German formation activations of turn 1, one per army, each ended at once."""
    for formation in ("de-xlvii-pzk", "de-i-ss-pzk", "de-lxxx-ak"):
        state, _ = apply(game, state, "german", "activate_formation", formation=formation)
        state, _ = apply(game, state, "german", "end_activation")
    assert state.active == "allied"
    return state


def to_turn_2(game: VaeVictisGame) -> GameState:
    state = start(game)
    state, _ = apply(game, state, "german", "pass")
    state, _ = apply(game, state, "allied", "pass")
    state = finish_support(game, state)
    assert state.turn == 2 and state.phase == "operations" and state.active == "german"
    return state


def c3i_rolls(events: list[Event]) -> list[Event]:
    return [e for e in events if e.kind == "roll" and e.data.get("rule") == "9.4"]


# --- 17.1 The German opening run ---------------------------------------------------------------------------


def test_17_1_the_opening_run_takes_one_formation_per_army(game: VaeVictisGame) -> None:
    state = start(game)
    state, _ = apply(game, state, "german", "activate_formation", formation="de-xlvii-pzk")
    state, _ = apply(game, state, "german", "end_activation")
    assert state.active == "german"
    assert "de-lviii-pzk" not in formations_offered(game, state)
    with pytest.raises(RulesError) as caught:
        apply(game, state, "german", "activate_formation", formation="de-lviii-pzk")
    assert caught.value.rule == "17.1"


def test_17_1_after_the_opening_run_the_german_may_activate_any_formation(game: VaeVictisGame) -> None:
    state = german_opening_run(game, start(game))
    state, _ = apply(game, state, "allied", "pass")
    offered = formations_offered(game, state)
    assert {"de-lviii-pzk", "de-lxvi-ak", "de-lxvii-ak", "de-lxxxv-ak"} <= offered
    state, _ = apply(game, state, "german", "activate_formation", formation="de-lviii-pzk")
    assert state.activation is not None and state.activation.formation == "de-lviii-pzk"


# --- 3.2, 16.1 A formation whose HQ arrives this turn ---------------------------------------------------


def test_16_1_a_formation_whose_hq_arrives_this_turn_enters_by_formation_activation(game: VaeVictisGame) -> None:
    state = german_opening_run(game, start(game))
    assert "us-xviii-corps" in formations_offered(game, state)
    state, _ = apply(game, state, "allied", "activate_formation", formation="us-xviii-corps")
    state, _ = apply(game, state, "allied", "enter", unit="hq-us-xviii-corps", at="2101")
    for unit, entry in (("us-7-ad-cca", "2501"), ("us-7-ad-ccb", "2501"), ("us-7-ad-ccr", "2101")):
        state, events = apply(game, state, "allied", "enter", unit=unit, at=entry)
        assert not c3i_rolls(events)
    assert state.activation is not None
    assert set(state.activation.units) >= {"hq-us-xviii-corps", "us-7-ad-cca", "us-7-ad-ccb", "us-7-ad-ccr"}
    hq = state.units["hq-us-xviii-corps"]
    assert hq.on_map and hq.activations == 1 and not hq.fatigued


def test_3_2_an_hq_not_yet_due_cannot_lead_a_formation_activation(game: VaeVictisGame) -> None:
    state = german_opening_run(game, start(game))
    assert "us-vii-corps" not in formations_offered(game, state)  # its HQ arrives on turn 2
    with pytest.raises(RulesError) as caught:
        apply(game, state, "allied", "activate_formation", formation="us-vii-corps")
    assert caught.value.rule == "3.2"


# --- 16.1, 17.1 In command on entry and on turn 1 -------------------------------------------------------


def test_17_1_all_american_units_are_in_command_on_turn_1_even_far_from_their_hq(game: VaeVictisGame) -> None:
    state = start(game)
    state, _ = apply(game, state, "german", "pass")
    assert not state.units["hq-us-xviii-corps"].on_map  # CCB/9's HQ has not arrived
    state, _ = apply(game, state, "allied", "activate_general")
    state, events = apply(game, state, "allied", "enter_ip", unit="us-9-ad-ccb")
    assert not c3i_rolls(events)


def test_16_1_reinforcements_are_in_command_on_their_turn_of_entry(game: VaeVictisGame) -> None:
    state = to_turn_2(game)
    state, _ = apply(game, state, "german", "pass")
    state, _ = apply(game, state, "allied", "activate_general")
    assert not state.units["hq-us-vii-corps"].on_map  # CCA/3's HQ arrives this turn, later
    state, events = apply(game, state, "allied", "enter", unit="us-3-ad-cca", at="2101")
    assert not c3i_rolls(events)
    entered = state.units["us-3-ad-cca"]
    assert not (entered.out_of_command or entered.isolated or entered.unsupplied)
    assert state.units["us-3-ad-cca"].action_points == 2  # 3 AP, less the move action of entering


# --- 1.6 Supports to an HQ arriving this turn -----------------------------------------------------------


def test_1_6_support_markers_may_go_to_an_hq_arriving_this_turn(game: VaeVictisGame) -> None:
    state = game.new_game("entire-battle", {}, b"\x05" * 32)
    assert state.phase == "support"
    choices = game.prompts(state)["allied"].choices
    assert any(c.verb == "allot" and c.args["hq"] == "hq-us-xviii-corps" for c in choices)
    state, _ = apply(game, state, "allied", "allot", hq="hq-us-xviii-corps", marker="artillery")
    assert state.units["hq-us-xviii-corps"].supports == ["artillery"]


def test_1_6_no_support_markers_for_an_hq_due_on_a_later_turn(game: VaeVictisGame) -> None:
    state = game.new_game("entire-battle", {}, b"\x05" * 32)
    with pytest.raises(RulesError) as caught:
        apply(game, state, "allied", "allot", hq="hq-us-vii-corps", marker="artillery")
    assert caught.value.rule == "1.6"


# --- 16.1 Southern Front ----------------------------------------------------------------------------------


def southern_front_state(game: VaeVictisGame, turn_number: int) -> GameState:
    state = start(game)
    state.turn = turn_number
    state.units["de-212-vg"].hex = 2921  # a German unit on a south-edge entry hex
    return state


def test_16_1_southern_front_delays_only_the_south_edge_reinforcements(game: VaeVictisGame) -> None:
    state = southern_front_state(game, 3)
    turn.southern_front(game.data, state)
    assert state.arrivals == {"us-5-id": 4}  # not the 84th ID nor the 29th Armoured Brigade (0105, north)


def test_16_1_southern_front_a_unit_delayed_once_enters_the_next_turn(game: VaeVictisGame) -> None:
    state = southern_front_state(game, 3)
    turn.southern_front(game.data, state)
    state.turn = 4
    turn.southern_front(game.data, state)
    assert state.arrivals["us-5-id"] == 4  # "the 5th ID enters the game"
    delayed = {u for u, due in state.arrivals.items() if due == 5}
    assert delayed == {
        "hq-us-iii-corps",
        "us-26-id",
        "us-80-id",
        "us-4-ad-cca",
        "us-4-ad-ccb",
        "us-4-ad-ccr",
    }  # the 75th ID (2101) and the 2nd Armored (1301) come in the north, on time


def test_16_1_southern_front_a_unit_east_of_the_held_hex_enters_at_the_next_free_hex_to_the_west(
    game: VaeVictisGame,
) -> None:
    state = southern_front_state(game, 4)  # the rule's example: Germans in 2921, the 5th ID due in 3022
    state.arrivals["us-5-id"] = 4
    assert turn.entry_hexes_for(game.data, state, "us-5-id") == [2521]
    assert turn.entry_hexes_for(game.data, state, "us-80-id") == [2521]  # west of the held hex: its own
    state.units["de-212-vg"].hex = 3221
    assert turn.entry_hexes_for(game.data, state, "us-5-id") == [3022]  # the hexes are free again


# --- 16.1 Trucks ------------------------------------------------------------------------------------------


def test_16_1_a_truck_unit_keeps_the_trucks_road_rate_after_entering(game: VaeVictisGame) -> None:
    state = start(game)
    state, _ = apply(game, state, "german", "pass")
    state, _ = apply(game, state, "allied", "activate_general")
    state, _ = apply(game, state, "allied", "enter", unit="us-1-id", at="2501")
    assert state.units["us-1-id"].action_points == 2  # 3 AP in trucks, less the entry
    reach = movement.legal_destinations(game.data, state, ["us-1-id"])
    walking = state.copy()
    walking.flags["trucks"] = []
    on_foot = movement.legal_destinations(game.data, walking, ["us-1-id"])
    only_by_truck = sorted(set(reach) - set(on_foot))
    assert only_by_truck
    state, _ = apply(game, state, "allied", "move", units="us-1-id", to=hex_name(only_by_truck[-1]))
    assert state.units["us-1-id"].hex == only_by_truck[-1]


# --- 16.2 British west of the Meuse -----------------------------------------------------------------------


def test_16_2_british_west_of_the_meuse_have_xxx_corps_support_without_range(game: VaeVictisGame) -> None:
    state = start(game)
    state.turn = 6  # past turn 1, when every Allied unit is in command anyway (17.1)
    west = sorted(beyond_meuse(game.data))
    hq_hex = west[0]
    far = next(h for h in west if game.data.map.grid.distance(h, hq_hex) > 8)
    state.units["hq-br-xxx-corps"].hex = hq_hex
    state.units["hq-br-xxx-corps"].arrived = True
    state.units["br-53-id"].hex = far
    state.units["br-53-id"].arrived = True
    pos = Position(game.data, state)
    assert may_support(pos, "hq-br-xxx-corps", state.units["br-53-id"])
    state.units["br-53-id"].hex = next(h for h in game.data.map.grid.hexes if h not in beyond_meuse(game.data))
    assert not may_support(Position(game.data, state), "hq-br-xxx-corps", state.units["br-53-id"])


# --- 17.1, 17.2 Victory: units, not HQs -------------------------------------------------------------------


def meuse_bridge(game: VaeVictisGame, state: GameState) -> tuple[int, int]:
    """A free bridge over the Meuse: (the hex on the German side, the hex beyond)."""
    west = beyond_meuse(game.data)
    pos = Position(game.data, state)
    a, b = next(
        (a, b)
        for a, b in sorted(game.data.map.bridges)
        if (a in west) != (b in west)
        and game.data.map.river_between(a, b).name == "Meuse"  # type: ignore[union-attr]
        and pos.side_at(a) is None
        and pos.side_at(b) is None
    )
    return (a, b) if b in west else (b, a)


def test_17_1_a_lone_hq_across_the_meuse_does_not_win(game: VaeVictisGame) -> None:
    state = finish_support(game, game.new_game("initial-assault", {}, b"\x05" * 32))
    near, far = meuse_bridge(game, state)
    state.units["hq-de-lxxxv-ak"].hex = near
    state, _ = apply(game, state, "german", "activate_general")
    state, _ = apply(game, state, "german", "move", units="hq-de-lxxxv-ak", to=hex_name(far))
    assert state.units["hq-de-lxxxv-ak"].hex == far
    assert state.result is None
    assert not state.meuse_crossed  # 16.2: the British stay bound west of the Meuse


def test_17_1_a_supplied_combat_unit_across_the_meuse_wins(game: VaeVictisGame) -> None:
    state = finish_support(game, game.new_game("initial-assault", {}, b"\x05" * 32))
    near, far = meuse_bridge(game, state)
    state.units["de-1-ss-peiper"].hex = near
    state, _ = apply(game, state, "german", "activate_general")
    state, _ = apply(game, state, "german", "move", units="de-1-ss-peiper", to=hex_name(far))
    assert state.result is not None and state.result["winner"] == "german"


def test_17_1_an_isolated_unit_across_the_meuse_does_not_win(game: VaeVictisGame) -> None:
    state = finish_support(game, game.new_game("initial-assault", {}, b"\x05" * 32))
    near, far = meuse_bridge(game, state)
    state.units["de-1-ss-peiper"].hex = near
    state.units["de-1-ss-peiper"].isolated = True  # 10.3: not in supply this turn
    state, _ = apply(game, state, "german", "activate_general")
    state, _ = apply(game, state, "german", "move", units="de-1-ss-peiper", to=hex_name(far))
    assert state.units["de-1-ss-peiper"].hex == far
    assert state.result is None


def test_17_2_a_lone_hq_in_a_city_does_not_hold_it_for_the_defensive_victory(game: VaeVictisGame) -> None:
    state = finish_support(game, game.new_game("entire-battle", {}, b"\x06" * 32))
    state.turn = 8
    holders = (("de-1-ss-peiper", "Bastogne"), ("de-1-ss-hansen", "St. Vith"), ("hq-de-lxxxv-ak", "Marche"))
    for unit_id, city in holders:
        hex_ = game.data.map.place(city).hex
        for unit in state.units.values():
            if unit.hex == hex_:
                unit.hex, unit.eliminated = None, True
        state.units[unit_id].hex = hex_
    state, _ = apply(game, state, state.active or "german", "pass")
    state, _ = apply(game, state, state.active or "allied", "pass")
    assert state.result is not None and state.result["winner"] == "allied", state.result


def test_17_1_a_supplied_unit_across_the_meuse_ends_the_game_at_once_and_says_why(game: VaeVictisGame) -> None:
    state = finish_support(game, game.new_game("initial-assault", {}, b"\x05" * 32))
    state.units["de-1-ss-peiper"].hex = meuse_bridge(game, state)[1]
    events = victory.after_action(game.data, state)
    reason = "a supplied German unit has crossed the Meuse"
    assert state.result == {"winner": "german", "result": "german", "reason": reason}
    assert state.phase == "over" and state.pending == [] and state.activation is None
    assert [(e.kind, e.text, e.data) for e in events] == [("victory", f"German: {reason} (17).", state.result)]


def test_17_2_a_supplied_unit_across_the_meuse_wins_only_at_the_end_of_the_turn(game: VaeVictisGame) -> None:
    state = finish_support(game, game.new_game("entire-battle", {}, b"\x06" * 32))
    state.units["de-1-ss-peiper"].hex = meuse_bridge(game, state)[1]
    assert victory.after_action(game.data, state) == [] and state.result is None
    events = victory.end_of_turn(game.data, state)
    reason = "a supplied German unit is across the Meuse"
    assert state.result == {"winner": "german", "result": "german-offensive", "reason": reason}
    assert [e.text for e in events] == [f"German offensive: {reason} (17)."]


def test_17_1_without_the_meuse_or_the_three_cities_the_allies_win_at_the_end(game: VaeVictisGame) -> None:
    state = finish_support(game, game.new_game("initial-assault", {}, b"\x05" * 32))
    events = victory.end_of_game(game.data, state)
    reason = "the German objectives were not met"
    assert state.result == {"winner": "allied", "result": "allied", "reason": reason}
    assert [e.text for e in events] == [f"Allied: {reason} (17)."]


def _hold(game: VaeVictisGame, state: GameState, holders: dict[str, str]) -> None:
    """Put each unit alone in its city (``{unit: city}``), the city's other occupants taken off."""
    for unit_id, city in holders.items():
        hex_ = game.data.map.place(city).hex
        for unit in state.units.values():
            if unit.hex == hex_:
                unit.hex, unit.eliminated = None, True
        state.units[unit_id].hex = hex_


def test_17_2_three_of_the_five_cities_held_by_supplied_units_is_a_defensive_victory(game: VaeVictisGame) -> None:
    holders = {"de-1-ss-peiper": "Bastogne", "de-1-ss-hansen": "St. Vith", "de-1-ss-sandig": "Marche"}
    state = finish_support(game, game.new_game("entire-battle", {}, b"\x06" * 32))
    _hold(game, state, holders)
    events = victory.end_of_game(game.data, state)
    assert state.result is not None and (state.result["winner"], state.result["result"]) == (
        "german",
        "german-defensive",
    )
    assert [e.text for e in events] == ["German defensive: holds Bastogne, St. Vith, Marche (17)."]
    state = finish_support(game, game.new_game("entire-battle", {}, b"\x06" * 32))
    _hold(game, state, holders)
    state.units["de-1-ss-sandig"].isolated = True  # 10.3: a city held by an unsupplied unit does not count
    victory.end_of_game(game.data, state)
    assert state.result is not None and state.result["winner"] == "allied"


def test_16_1_a_truck_unit_is_logged_with_the_3_ap_it_has(game: VaeVictisGame) -> None:
    state = start(game)
    state, _ = apply(game, state, "german", "pass")
    state, _ = apply(game, state, "allied", "activate_general")
    state, log = apply(game, state, "allied", "enter", unit="us-1-id", at="2501")
    joined = [e for e in log if e.kind == "join"]
    assert [e.data["ap"] for e in joined] == [3] and "with 3 AP" in joined[0].text
    assert state.units["us-1-id"].action_points == 2  # the entry is a move action


def test_5_a_reinforcement_entering_over_the_stacking_limit_is_refused_for_5_not_16_1(game: VaeVictisGame) -> None:
    state = start(game)
    state.units["us-9-id"].hex = 2101  # 4 steps at Verviers
    state, _ = apply(game, state, "german", "pass")
    state, _ = apply(game, state, "allied", "activate_general")
    state, _ = apply(game, state, "allied", "enter", unit="us-7-ad-cca", at="2101")  # 6 steps
    before = state.to_json()
    with pytest.raises(RulesError) as caught:
        apply(game, state, "allied", "enter", unit="us-7-ad-ccb", at="2101")
    assert caught.value.rule == "5" and "stacking limit of 6 steps" in str(caught.value)
    assert state.to_json() == before
    state, _ = apply(game, state, "allied", "enter", unit="us-7-ad-ccb", at="2501")  # Eupen is open
