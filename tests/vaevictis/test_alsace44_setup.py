"""[Alsace 1944 19.2, 19.4.1, 12.2] The players' set-up before turn 1 (engine/vaevictis/setup_phase.py).

The historical scenarios (19.1 uses 19.2's set-up): the German places 1000 Aufkl and ss MG 808 east of Belfort
and north of the Allaine, Ohren in one of Belfort's two hexes, and six strongpoints on his side of the front
line, within 5 hexes of it, one at least with each German division; then turn 1 begins. The variant: eleven
strongpoints anywhere on the German side, the twelfth in 2606. Games are Alsace as players get it.
"""

from __future__ import annotations

import json
import random

import pytest

from engine.contract import Action, IllegalActionError, NotYourTurnError, RulesError
from engine.hexgrid import Hex, hex_name
from engine.vaevictis import setup_phase
from engine.vaevictis.data import GameData
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.legal import candidate_actions
from engine.vaevictis.stacking import stacking_limit
from engine.vaevictis.state import GameState, Position
from engine.vaevictis.view import HIDDEN_FROM
from scenarios import load_game
from tests.vaevictis.alsace import check_alsace_invariants
from tests.vaevictis.random_play import check_invariants

SEED = bytes(range(32))
EAST_OF_BELFORT = "east of Belfort, north of the Allaine"
NEAR_FRONT = "within 5 hexes of the front line, German side"
FREE = ("de-stp-7", "de-stp-8", "de-stp-9", "de-stp-10", "de-stp-11", "de-stp-12")
"""The six strongpoints the German places in 19.2 (de-stp-1 to 6 are fixed)."""


@pytest.fixture(scope="module")
def game() -> VaeVictisGame:
    return VaeVictisGame(load_game("alsace44"))


@pytest.fixture
def fresh(game: VaeVictisGame) -> GameState:
    return game.new_game("entire-battle", {}, SEED)


def same(a: GameState, b: GameState) -> bool:
    return json.dumps(a.to_json(), sort_keys=True) == json.dumps(b.to_json(), sort_keys=True)


def place(game: VaeVictisGame, state: GameState, unit: str, hex_: Hex, side: str = "german") -> GameState:
    state, _ = game.apply(state, Action(side, "place", {"unit": unit, "hex": hex_name(hex_)}))
    return state


def refused(game: VaeVictisGame, state: GameState, verb: str, **args: str) -> IllegalActionError:
    """The refusal of a German set-up action, checked to change nothing."""
    before = state.copy()
    with pytest.raises(IllegalActionError) as error:
        game.apply(state, Action("german", verb, dict(args)))
    assert same(state, before)
    return error.value


def distance_to_front(data: GameData, hex_: Hex) -> int:
    return min(data.map.grid.distance(hex_, f) for f in data.map.regions["front line"])


def empty(data: GameData, state: GameState, hexes: list[Hex]) -> list[Hex]:
    return [h for h in sorted(hexes) if not state.units_at(h)]


# --- 19.2: who sets up, and the suggested set-up -------------------------------------------------------------


def test_19_2_the_historical_scenarios_open_with_the_german_set_up_alone(game: VaeVictisGame) -> None:
    for scenario in ("initial-assault", "entire-battle"):
        state = game.new_game(scenario, {}, SEED)
        prompts = game.prompts(state)
        assert state.phase == "setup" and set(prompts) == {"german"}
        prompt = prompts["german"]
        assert prompt.rule == "19.2" and "place" in prompt.free_verbs
        assert [c.verb for c in prompt.choices] == ["setup_done"]
        told = ("Set-up (19.2, 12.2)", EAST_OF_BELFORT, "Ohren in 1109 or 1110", "6 free strongpoints", NEAR_FRONT)
        assert all(part in prompt.text for part in told)
        with pytest.raises(NotYourTurnError):
            game.apply(state, Action("allied", "setup_done", {}))


def test_19_2_the_suggested_set_up_is_legal_and_turn_1_follows(game: VaeVictisGame, fresh: GameState) -> None:
    assert "Every condition holds" in game.prompts(fresh)["german"].text
    state, events = game.apply(fresh, Action("german", "setup_done", {}))
    assert "The German player has set up (19.2)." in [e.text for e in events]
    assert state.phase == "support" and state.turn == 1
    assert set(game.prompts(state)) == {"german", "allied"}
    with pytest.raises(RulesError):  # the set-up is over
        game.apply(state, Action("german", "place", {"unit": "de-ohren", "hex": "1110"}))


# --- 19.2: where each unit may go ------------------------------------------------------------------------------


def test_19_2_1000_aufkl_and_ss_mg_808_stand_east_of_belfort_and_north_of_the_allaine(
    game: VaeVictisGame, fresh: GameState
) -> None:
    data = game.data
    area = data.map.regions[EAST_OF_BELFORT]
    for unit in ("de-1000-aufkl", "de-ss-mg-808"):
        outside = refused(game, fresh, "place", unit=unit, hex="1108")  # west of Belfort
        assert outside.rule == "19.2" and EAST_OF_BELFORT in outside.reason
        target = empty(data, fresh, list(area))[-1]
        state, events = game.apply(fresh, Action("german", "place", {"unit": unit, "hex": hex_name(target)}))
        assert state.units[unit].hex == target
        assert events[0].text == f"{data.units[unit].name} placed at {hex_name(target)} (19.2)."
        assert events[0].data["unit"] == unit and events[0].data["hex"] == target


def test_19_2_ohren_stands_in_one_of_belforts_two_hexes(game: VaeVictisGame, fresh: GameState) -> None:
    wrong = refused(game, fresh, "place", unit="de-ohren", hex="1111")
    assert wrong.rule == "19.2" and "1109 or 1110" in wrong.reason
    assert place(game, fresh, "de-ohren", 1110).units["de-ohren"].hex == 1110


def test_19_2_a_strongpoint_stands_within_5_hexes_of_the_front_line_on_the_german_side(
    game: VaeVictisGame, fresh: GameState
) -> None:
    data = game.data
    west = data.map.regions["west of the front line"]
    french_side = next(h for h in sorted(west) if distance_to_front(data, h) <= 2 and not fresh.units_at(h))
    too_far = next(h for h in sorted(data.map.regions["east of the front line"]) if distance_to_front(data, h) == 6)
    for hex_ in (french_side, too_far):
        refusal = refused(game, fresh, "place", unit="de-stp-7", hex=hex_name(hex_))
        assert refusal.rule == "19.2" and NEAR_FRONT in refusal.reason
    five = next(h for h in empty(data, fresh, list(data.map.regions[NEAR_FRONT])) if distance_to_front(data, h) == 5)
    assert place(game, fresh, "de-stp-7", five).units["de-stp-7"].hex == five


def test_12_2_one_strongpoint_a_hex(game: VaeVictisGame, fresh: GameState) -> None:
    """ "At most one per hex" (12.2): not on a fixed strongpoint (0514), nor on another free one."""
    for occupied in ("0514", hex_name(fresh.units["de-stp-8"].hex or 0)):
        refusal = refused(game, fresh, "place", unit="de-stp-7", hex=occupied)
        assert refusal.rule == "12.2" and "at most one a hex" in refusal.reason


def test_12_2_strongpoints_count_toward_stacking(game: VaeVictisGame, fresh: GameState) -> None:
    """A strongpoint counts its step toward the stacking limit (5, 12.2): a full hex takes none."""
    data = game.data
    state = fresh.copy()
    hex_ = next(h for h in empty(data, state, list(data.map.regions[NEAR_FRONT])) if distance_to_front(data, h) == 3)
    steps = 0
    for unit_id in ("de-i-1210", "de-ii-1210", "de-rollin", "de-i-1209", "de-ii-1209"):
        if steps + state.units[unit_id].steps <= stacking_limit(data):  # a position for the test: a full hex
            state.units[unit_id].hex = hex_
            steps += state.units[unit_id].steps
    assert steps == stacking_limit(data) == 6
    refusal = refused(game, state, "place", unit="de-stp-7", hex=hex_name(hex_))
    assert refusal.rule == "5" and "more than the 6 allowed" in refusal.reason
    state.units["de-rollin"].hex = state.units["de-ohren"].hex  # one step fewer: the strongpoint fits
    assert place(game, state, "de-stp-7", hex_).units["de-stp-7"].hex == hex_


def test_16_garrisons_and_fixed_units_are_not_placed_by_the_player(game: VaeVictisGame, fresh: GameState) -> None:
    garrison = next(u.id for u in fresh.on_map() if game.data.units[u.id].kind == "garrison")
    for unit in (garrison, "de-stp-1", "de-i-1209"):
        refusal = refused(game, fresh, "place", unit=unit, hex="1205")
        assert refusal.rule == "19.2" and "not one of the units you place" in refusal.reason


# --- 19.2: the conditions checked when the German is done --------------------------------------------------------


def test_19_2_each_german_division_needs_a_strongpoint_stacked_with_one_of_its_units(
    game: VaeVictisGame, fresh: GameState
) -> None:
    data = game.data
    lone = empty(data, fresh, [h for h in data.map.regions[NEAR_FRONT] if distance_to_front(data, h) >= 3])
    state = place(game, fresh, "de-stp-9", lone[0])  # the 269th's only strongpoint, now alone
    refusal = refused(game, state, "setup_done")
    name = data.formations["de-269-id"].name
    assert refusal.rule == "19.2" and name in refusal.reason and "at least one strongpoint" in refusal.reason
    assert name in game.prompts(state)["german"].text.split("Still to satisfy")[1]
    state = place(game, state, "de-stp-9", state.units["de-ii-469"].hex or 0)
    assert game.apply(state, Action("german", "setup_done", {}))[0].phase == "support"


def test_19_2_a_strongpoint_counts_for_one_division_only(game: VaeVictisGame, fresh: GameState) -> None:
    """Two divisions whose only strongpoint is the same one (a stack of both): the German must give one of them
    another."""
    data = game.data
    lone = empty(data, fresh, [h for h in data.map.regions[NEAR_FRONT] if distance_to_front(data, h) >= 3])
    state = place(game, fresh, "de-stp-11", lone[0])  # the 159th keeps de-stp-7 at 0810 only
    state = place(game, state, "de-stp-9", lone[1])  # the 269th loses its own
    state.units["de-i-469"].hex = state.units["de-stp-7"].hex  # a position for the test: I/469 joins 0810
    refusal = refused(game, state, "setup_done")
    assert refusal.rule == "19.2" and "counts for one only" in refusal.reason


def test_19_2_units_placed_next_to_the_front_line_start_in_improved_positions(
    game: VaeVictisGame, fresh: GameState
) -> None:
    """ "All units less than 2 hexes from the front line are in IP", for the units the German placed; a
    strongpoint never is in IP by itself (12.2)."""
    data = game.data
    area = data.map.regions[EAST_OF_BELFORT]
    near = next(h for h in empty(data, fresh, list(area)) if distance_to_front(data, h) == 1)
    far = next(h for h in empty(data, fresh, list(area)) if distance_to_front(data, h) >= 3)
    state = place(game, fresh, "de-1000-aufkl", near)
    state = place(game, state, "de-ss-mg-808", far)
    front = empty(data, state, list(data.map.regions["front line"]))
    state = place(game, state, "de-stp-12", front[0])
    state = place(game, state, "de-stp-12", state.units["de-i-1214"].hex or 0)
    state, _ = game.apply(state, Action("german", "setup_done", {}))
    assert state.units["de-1000-aufkl"].improved_position
    assert not state.units["de-ss-mg-808"].improved_position
    assert not any(state.units[s].improved_position for s in FREE)
    assert state.units["de-i-1214"].improved_position  # a fixed unit keeps its 19.2 IP


def test_19_2_random_legal_placements_then_done_keep_the_rules(game: VaeVictisGame) -> None:
    """Random placements from the engine's own legal actions: each accepted, the invariants kept; then the
    German says he is done, or is told which condition still fails."""
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_game("initial-assault", {}, seed.to_bytes(32, "big"))
        for _ in range(12):
            places = [a for a in candidate_actions(game, state, "german") if a.verb == "place"]
            state, _ = game.apply(state, rng.choice(places))
            check_invariants(game, state)
            check_alsace_invariants(game, state)
        problem = setup_phase.setup_problem(game.data, state, "german")
        if problem is None:
            state, _ = game.apply(state, Action("german", "setup_done", {}))
            assert state.phase == "support"
        else:
            assert refused(game, state, "setup_done").rule == problem.rule


# --- Fog of war (11) ---------------------------------------------------------------------------------------------


def test_11_under_fog_of_war_the_french_do_not_read_a_placement_they_cannot_see(game: VaeVictisGame) -> None:
    """A strongpoint put under a stack out of French sight: the French neither read the event nor see it."""
    data = game.data
    state = game.new_game("entire-battle", {"fog_of_war": True}, SEED)
    hidden_hex = state.units["de-ii-469"].hex
    assert hidden_hex is not None
    _, events = game.apply(state, Action("german", "place", {"unit": "de-stp-9", "hex": "1205"}))
    state, events = game.apply(state, Action("german", "place", {"unit": "de-stp-9", "hex": hex_name(hidden_hex)}))
    stack = Position(data, state).units_at(hidden_hex)
    assert len(stack) > 1
    french = game.view(state, "allied")
    shown = {u["id"] for s in french["stacks"] for u in s["units"]}
    channel = {u["id"] for s in game.view(state, None)["stacks"] for u in s["units"]}
    if "de-stp-9" not in shown:
        assert events[0].data[HIDDEN_FROM] == ["allied"] and "de-stp-9" not in channel
    german = {u["id"] for s in game.view(state, "german")["stacks"] for u in s["units"]}
    assert "de-stp-9" in german


# --- 19.4.1: the variant's strongpoints ----------------------------------------------------------------------


def test_19_4_1_eleven_strongpoints_are_placed_freely_the_twelfth_in_2606(game: VaeVictisGame) -> None:
    data = game.data
    state = game.new_game("entire-battle-variant", {}, SEED)
    fixed, free = setup_phase.variant_strongpoints(data)
    assert fixed == [("de-stp-1", 2606)] and len(free) == 11
    assert state.units["de-stp-1"].hex == 2606
    placeable = setup_phase.placeables(data, state, "german")
    assert {u for u in placeable if data.units[u].kind == "strongpoint"} == set(free)
    prompt = game.prompts(state)["german"]
    assert prompt.rule == "19.4.1" and "11 free strongpoints in 'east of the front line'" in prompt.text
    # Anywhere on the German side, far from the front (Mulhouse's outskirts)...
    deep = next(h for h in empty(data, state, [2507, 2508, 2407, 2408]))
    state = place(game, state, free[0], deep)
    assert state.units[free[0]].hex == deep
    # ... but not west of the front line, not on another strongpoint, and never the one of 2606.
    west = empty(data, state, list(data.map.regions["west of the front line"]))[0]
    assert refused(game, state, "place", unit=free[1], hex=hex_name(west)).rule == "19.4.1"
    assert refused(game, state, "place", unit=free[1], hex="2606").rule == "12.2"
    assert refused(game, state, "place", unit="de-stp-1", hex="2507").rule == "19.4.1"


def test_16_19_4_1_garrisons_stay_face_down_where_19_2_puts_them(game: VaeVictisGame) -> None:
    """ "Garrison units are placed as per the historical rules, face down": no player places one, and the
    French place none of the German strongpoints."""
    data = game.data
    state = game.new_game("initial-assault-variant", {}, SEED)
    faced = set(state.flags.get("face_down", []))
    german = setup_phase.placeables(data, state, "german")
    assert faced and not faced & set(german)
    french = setup_phase.placeables(data, state, "allied")
    assert not any(data.units[u].kind in ("garrison", "strongpoint") for u in french)


def test_19_2_set_up_done_is_offered_only_while_the_set_up_holds(game: VaeVictisGame, fresh: GameState) -> None:
    """[19.2] The Set-up done button is offered only when every set-up condition holds (offered otherwise, it
    could only be refused); a unit moved out of its area takes it away, with the reason in the prompt."""
    assert setup_phase.setup_problem(game.data, fresh, "german") is None
    assert [c.verb for c in game.prompts(fresh)["german"].choices] == ["setup_done"]
    unit, allowed = next((u, a) for u, a in sorted(setup_phase.placeables(game.data, fresh, "german").items()))
    outside = next(h for h in sorted(game.data.map.grid.hexes) if h not in allowed.hexes)
    broken = fresh.copy()
    broken.units[unit].hex = outside
    problem = setup_phase.setup_problem(game.data, broken, "german")
    assert problem is not None
    prompt = game.prompts(broken)["german"]
    assert not prompt.choices and problem.reason in prompt.text
    refused(game, broken, "setup_done")


def test_12_2_the_set_up_prompt_lists_the_legal_hexes_for_strongpoints() -> None:
    """[12.2, 19.2] The German set-up prompt says where a strongpoint may go: the hexes within 5 of the front
    line on the German side, written as runs of rows."""
    from engine.vaevictis.setup_phase import hex_ranges
    from tests.vaevictis.alsace import alsace_game

    game = alsace_game()
    state = game.new_game("initial-assault", {}, bytes(32))
    text = game.prompts(state)["german"].text
    region = game.data.map.regions["within 5 hexes of the front line, German side"]
    assert f"Legal hexes for a strongpoint: {hex_ranges(region)}." in text
    assert "0310-0314" in text
    assert hex_ranges([310, 311, 312, 415, 901]) == "0310-0312, 0415, 0901"
