"""The general engine on Alsace 1944's data (issue 14): what the game's data asks of the engine is read from it.

The Alsace rule differences themselves (strongpoints, garrisons, stratagems, trucks, the variant...) are the
next issue; here the engine plays "the core": the real map, counters, tables, set-up and reinforcements,
without strongpoints and without the players' set-up step (:func:`core_documents`).
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from engine.contract import IllegalActionError, InvalidActionError
from engine.hexgrid import Hex
from engine.vaevictis import victory
from engine.vaevictis.data import GameData
from engine.vaevictis.game import VaeVictisGame, unsupported
from engine.vaevictis.loader import build_game
from engine.vaevictis.movement import check_move
from engine.vaevictis.odds import AttackPlan, Contribution, assess, defender_terrain_shifts, sum_strengths
from scenarios import game_folder, load_game, read_documents
from tests.vaevictis.alsace_documents import core_documents
from tests.vaevictis.positions import position as bare_position
from tests.vaevictis.random_play import play


def position(data: GameData, placements: dict[str, Hex]) -> Any:
    """A position with the given units on the map, each with the APs of a fresh activation."""
    pos = bare_position(data, placements)
    for unit_id in placements:
        pos.state.units[unit_id].action_points = pos.base_action_points(pos.state.units[unit_id])
    return pos


@pytest.fixture(scope="module")
def core() -> GameData:
    return build_game(core_documents())


def open_hexside(data: GameData, *, bridged: bool, road: bool) -> tuple[Hex, Hex]:
    """A river hexside between two clear, unsettled hexes (bridged and on a road, or neither)."""
    for river in data.map.rivers:
        if river.kind != "river":
            continue
        for a, b in sorted(river.bridges if bridged else river.hexsides - river.bridges):
            plain = all(
                data.map.terrain[h] == "clear" and h not in data.map.settlements and not data.map.overlays_at(h)
                for h in (a, b)
            )
            if plain and data.map.has_road(a, b) == road:
                return a, b
    raise AssertionError("no such hexside on the map")


def test_0_2_an_infantry_river_crossing_adds_one_mp_to_the_hex_entered(core: GameData) -> None:
    a, b = open_hexside(core, bridged=False, road=False)
    pos = position(core, {"fr-i-4-rtm": a})
    assert check_move(core, pos.state, ["fr-i-4-rtm"], [a, b]).mp_spent == 2  # clear 1 + river 1


def test_13_1_mechanized_units_cross_only_by_a_bridge_paying_two_more(core: GameData) -> None:
    a, b = open_hexside(core, bridged=False, road=False)
    pos = position(core, {"fr-rfm": a})
    with pytest.raises(IllegalActionError) as refused:
        check_move(core, pos.state, ["fr-rfm"], [a, b])
    assert refused.value.rule == "13.1"
    a, b = open_hexside(core, bridged=True, road=True)
    pos = position(core, {"fr-rfm": a})
    assert check_move(core, pos.state, ["fr-rfm"], [a, b]).mp_spent == 2.5  # road 1/2 + bridge 2


def rhine_hexside(data: GameData) -> tuple[Hex, Hex]:
    rhine = next(r for r in data.map.rivers if r.name == "Rhine")
    bank = set(data.map.regions["rhine bank"])
    return next((a, b) if a in bank else (b, a) for a, b in sorted(rhine.hexsides) if a in bank or b in bank)


def test_tec_nobody_crosses_the_rhine(core: GameData) -> None:
    west, east = rhine_hexside(core)
    pos = position(core, {"fr-i-4-rtm": west})
    with pytest.raises(IllegalActionError) as refused:
        check_move(core, pos.state, ["fr-i-4-rtm"], [west, east])
    assert "Rhine" in refused.value.reason


def test_tec_no_attack_across_the_rhine(core: GameData) -> None:
    west, east = rhine_hexside(core)
    pos = position(core, {"fr-i-4-rtm": west, "de-i-757": east})
    plan = AttackPlan(side="allied", kind="normal", attackers=("fr-i-4-rtm",), targets=(east,))
    with pytest.raises(IllegalActionError) as refused:
        assess(core, pos.state, plan)
    assert "no attack is allowed across it" in refused.value.reason


def test_tec_switzerland_is_no_entry(core: GameData) -> None:
    swiss = set(core.map.regions["Switzerland"])
    a, b = next(
        (a, b) for a in core.map.grid.hexes for b in core.map.grid.neighbours(a) if a not in swiss and b in swiss
    )
    if core.map.river_between(a, b) is not None:
        pytest.skip("the first border hexside found is also a river")
    pos = position(core, {"fr-i-4-rtm": a})
    with pytest.raises(IllegalActionError):
        check_move(core, pos.state, ["fr-i-4-rtm"], [a, b])


def test_tec_mechanized_units_enter_difficult_terrain_only_by_road(core: GameData) -> None:
    grid = core.map.grid
    a, b = next(
        (a, b)
        for a in grid.hexes
        for b in grid.neighbours(a)
        if core.map.terrain[a] == "clear"
        and core.map.terrain[b] == "difficult"
        and not core.map.has_road(a, b)
        and core.map.river_between(a, b) is None
        and b not in core.map.settlements
    )
    pos = position(core, {"fr-rfm": a})
    with pytest.raises(IllegalActionError):
        check_move(core, pos.state, ["fr-rfm"], [a, b])
    pos = position(core, {"fr-i-4-rtm": a})
    assert check_move(core, pos.state, ["fr-i-4-rtm"], [a, b]).mp_spent == 1


def test_1_2_a_reduced_counter_has_its_printed_back_strength(core: GameData) -> None:
    pos = position(core, {"fr-a-cc2": 101})
    unit = pos.state.units["fr-a-cc2"]
    assert pos.strength(unit) == core.units["fr-a-cc2"].strength
    unit.steps = 1
    assert pos.strength(unit) == core.units["fr-a-cc2"].reduced_strength


def test_0_3_divided_values_round_to_the_nearest_whole_number() -> None:
    quartered = Contribution("x", "x", 5, ("fatigued (3.5.1)", "unsupplied (10.3)"))
    assert sum_strengths([quartered], "nearest") == 1  # 5/4 = 1.25
    assert sum_strengths([quartered], "up") == 2  # Ardennes 1944 rounds up
    halved = Contribution("x", "x", 3, ("fatigued (3.5.1)",))
    assert sum_strengths([halved], "nearest") == 2  # 3/2 = 1.5 becomes 2 (0.3)


def test_12_3_forts_help_german_defenders_only_and_factories_everyone(core: GameData) -> None:
    fort = 1010
    assert [m.amount for m in defender_terrain_shifts(core, fort, "german") if "Fort" in m.reason] == [-2]
    assert not [m for m in defender_terrain_shifts(core, fort, "allied") if "Fort" in m.reason]
    factory = min(core.map.overlays["factory"])
    assert [m.amount for m in defender_terrain_shifts(core, factory, "allied") if "Factory" in m.reason] == [-1]


def test_19_victory_holding_places_forts_and_a_region_reached(core: GameData) -> None:
    conditions = victory.flat(core.scenarios["initial-assault"].victory)
    one_of_belfort = next(c for c in conditions if c.kind == "hold-places" and c.places == ("Belfort",))
    two_of_three = next(c for c in conditions if c.kind == "hold-places" and c.count == 2)
    rhine = next(c for c in conditions if c.kind == "reached-region")
    pos = position(core, {"fr-i-4-rtm": 1109, "fr-ii-4-rtm": 915})
    state = pos.state
    state.scenario = "initial-assault"
    assert victory.holds(core, state, one_of_belfort) == "holds Belfort"
    assert victory.holds(core, state, two_of_three) == "holds Belfort, Montbéliard"
    assert victory.holds(core, state, rhine) is None
    state.units["fr-i-4-rtm"].hex = core.map.regions["rhine bank"][0]
    victory.note_regions_reached(core, state)
    state.units["fr-i-4-rtm"].hex = 1109
    assert victory.holds(core, state, rhine) == "has reached the rhine bank"  # even after leaving it
    every_hex = next(c for c in victory.flat(core.scenarios["entire-battle"].victory) if c.kind == "hold-places")
    assert every_hex.city_hexes == "all" and victory.holds(core, state, every_hex) is None


def test_no_weather_and_turns_begin_with_their_date(core: GameData) -> None:
    game = VaeVictisGame(core)
    state = game.new_game("initial-assault", {}, bytes(32))
    assert state.turn == 1 and "None" not in str(game.view(state, None).get("weather"))


def test_the_c3i_snafu_option_needs_its_tables(core: GameData) -> None:
    with pytest.raises(InvalidActionError):
        VaeVictisGame(core).new_game("initial-assault", {"c3i_snafu": True}, bytes(32))


def test_every_alsace_scenario_is_set_up_for_players_with_its_set_up_phase() -> None:
    """Nothing is missing: the engine plays the whole of Alsace 1944's data, each scenario opening with the
    players' set-up (19.2, 19.4.1)."""
    game = VaeVictisGame(load_game("alsace44"))
    for scenario in game.data.scenarios:
        assert unsupported(game.data, scenario) == []
        state = game.new_game(scenario, {}, bytes(32))
        assert state.phase == "setup" and set(game.prompts(state)) == {"german"}


def test_data_the_engine_cannot_play_is_refused_with_what_it_lacks() -> None:
    """`unsupported` stays the guard: a stratagem without an effect the engine knows is named, no game made."""
    docs = read_documents(game_folder("alsace44"))
    event = next(e for e in docs["setup.toml"]["event"] if e["id"] == "antitank-ditch")  # an effect without params
    event.pop("effect")
    with pytest.raises(InvalidActionError) as refused:
        VaeVictisGame(build_game(docs)).new_game("entire-battle", {}, bytes(32))
    assert "cannot be played yet" in refused.value.reason and f"the event '{event['name']}'" in refused.value.reason


def test_random_play_on_the_alsace_core_keeps_the_invariants(core: GameData) -> None:
    """Random legal actions on the Alsace map and counters (ALSACE44_RANDOM_ACTIONS, default 300)."""
    game = VaeVictisGame(core)
    actions = int(os.environ.get("ALSACE44_RANDOM_ACTIONS", "300"))
    state, log = play(game, 44, "entire-battle", actions)
    assert len(log) == actions or state.result is not None
