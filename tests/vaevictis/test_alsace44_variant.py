"""[Alsace 1944 19.4] The variant: free set-ups checked, the offensive effort, the 1re DFL's budget, and the
German groups that French moves trigger (with the Vosges table).

Games start as the other Alsace engine tests do (``core_documents``), on the variant scenarios.
"""

from __future__ import annotations

import json

import pytest

from engine.contract import Action, IllegalActionError
from engine.hexgrid import Hex, hex_name
from engine.vaevictis import activation as act
from engine.vaevictis import setup_phase, variant
from engine.vaevictis.data import GameData
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.loader import build_game
from engine.vaevictis.state import GameState
from tests.vaevictis.alsace_documents import core_documents
from tests.vaevictis.variant_play import AREA, LONG, SEED, both_set_up, effort, german_set_up, place, started


@pytest.fixture(scope="module")
def data() -> GameData:
    return build_game(core_documents())


@pytest.fixture(scope="module")
def game(data: GameData) -> VaeVictisGame:
    return VaeVictisGame(data)


def same(a: GameState, b: GameState) -> bool:
    return json.dumps(a.to_json(), sort_keys=True) == json.dumps(b.to_json(), sort_keys=True)


def test_19_4_1_the_variant_opens_with_the_german_set_up_then_the_french(game: VaeVictisGame) -> None:
    state = game.new_game(LONG, {}, SEED)
    assert state.phase == "setup" and set(game.prompts(state)) == {"german"}
    assert "place" in game.prompts(state)["german"].free_verbs
    with pytest.raises(IllegalActionError):
        game.apply(state, Action("allied", "setup_done", {}))
    state = german_set_up(game, state)
    assert set(game.prompts(state)) == {"allied"}


def test_19_4_1_a_set_up_that_breaks_a_condition_is_refused_and_changes_nothing(game: VaeVictisGame) -> None:
    data = game.data
    state = game.new_game(LONG, {}, SEED)
    assert setup_phase.setup_problem(data, state, "german") is None  # it opens on a legal default
    broken = place(game, state, "german", "hq-de-269-id", far_from_its_units(game, state))
    before = broken.copy()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(broken, Action("german", "setup_done", {}))
    assert refused.value.rule == "19.4.1" and "line of command" in refused.value.reason and same(broken, before)
    west = sorted(data.map.regions["west of the front line"])[0]
    with pytest.raises(IllegalActionError) as refused:  # a German unit west of the front line
        game.apply(state, Action("german", "place", {"unit": "de-i-1212", "hex": hex_name(west)}))
    assert refused.value.rule == "19.4.1"
    # Two divisions in one hex.
    other = next(u for u, d in data.units.items() if d.formation == "de-338-vgd" and not d.is_hq)
    stacked = place(game, state, "german", other, state.units["de-i-1212"].hex or 0)
    assert "two divisions" in (variant.setup_problem(data, stacked, "german") or "")


def test_19_4_1_german_units_next_to_the_front_line_start_in_improved_positions(game: VaeVictisGame) -> None:
    data = game.data
    state = german_set_up(game, game.new_game(LONG, {}, SEED))
    grid = data.map.grid
    front = data.map.regions["front line"]
    for unit_id in variant.placeable(data, "german"):
        unit = state.units[unit_id]
        if unit.hex is not None and not data.units[unit_id].is_hq:
            near = any(grid.distance(unit.hex, f) <= 1 for f in front)
            assert unit.improved_position == near, unit_id


def test_19_4_1_the_offensive_effort_sets_turn_1_and_the_vosges_artillery(game: VaeVictisGame) -> None:
    data = game.data
    state = both_set_up(game)
    prompt = game.prompts(state)["allied"]
    assert all(c.verb == "offensive_effort" for c in prompt.choices)
    army = next(a for a, d in data.armies.items() if d.side == "allied")
    pool = state.pools[army]["heavy_artillery"]
    with pytest.raises(IllegalActionError) as refused:
        effort(game, state, pool + 1, "fr-2-dim")
    assert refused.value.rule == "19.4.1"
    state = effort(game, state, 1, "fr-2-dim,fr-9-dic")
    assert state.pools[army]["heavy_artillery"] == 1
    assert state.flags["variant"]["effort"]["vosges"] == pool - 1
    assert state.phase != "setup"
    # Only the divisions of the offensive are activated on turn 1.
    dfl = next(u for u, d in data.units.items() if d.formation == "fr-1-dfl" and not d.is_hq)
    assert variant.activation_refusal(data, state, dfl) is not None
    dim = next(u for u, d in data.units.items() if d.formation == "fr-2-dim" and not d.is_hq)
    assert variant.activation_refusal(data, state, dim) is None
    # The choice is among the three infantry divisions: independents and the turn-1 Combat Commands may act.
    assert variant.activation_refusal(data, state, "fr-i-9-zouaves") is None
    assert variant.activation_refusal(data, state, "fr-a-cc4") is None


def german_in_activation(game: VaeVictisGame, state: GameState) -> GameState:
    state = state.copy()
    state.phase, state.active, state.pending = "operations", "german", []
    act.start_general_activation(state, game.data)
    return state


@pytest.mark.parametrize(("divisions", "aps"), [("fr-2-dim", 1), ("fr-2-dim,fr-9-dic,fr-1-dfl", 2)])
def test_19_4_1_german_units_have_1_or_2_ap_on_turn_1_by_the_divisions_chosen(
    game: VaeVictisGame, divisions: str, aps: int
) -> None:
    data = game.data
    state = german_in_activation(game, effort(game, both_set_up(game), 1, divisions))
    unit = next(u for u, d in data.units.items() if d.formation == "de-189-id" and not d.is_hq)
    act.join(state, data, state.units[unit], dice=None)
    assert state.units[unit].action_points == aps


def test_19_4_1_the_1re_dfl_is_activated_on_its_budget_of_turns_only(game: VaeVictisGame) -> None:
    data = game.data
    state = effort(game, both_set_up(game, "initial-assault-variant"), 1, "fr-1-dfl")
    dfl = next(u for u, d in data.units.items() if d.formation == "fr-1-dfl" and not d.is_hq)
    budget = data.extra["variant"]["formation_budget"]["turns"]["initial-assault-variant"]
    for turn in range(1, budget + 1):
        state.turn = turn
        assert variant.activation_refusal(data, state, dfl) is None
        variant.joined(data, state, dfl)
    state.turn = budget + 1
    refusal = variant.activation_refusal(data, state, dfl)
    assert refusal is not None and refusal.rule == "19.4.1"


def test_19_4_2_the_rhine_group_comes_the_turn_after_a_french_unit_crosses_the_savoureuse(
    game: VaeVictisGame,
) -> None:
    data = game.data
    state = started(game)
    group = next(g for g in data.extra["variant"]["group"] if g["id"] == "rhine")
    assert all(state.arrivals[u] == variant.NEVER for u in group["units"])
    river = next(r for r in data.map.rivers if r.name == "Savoureuse")
    a, b = sorted(river.hexsides)[0]
    from engine.contract import Event

    crossing = Event("move", "", {"units": ["fr-i-4-rtm"], "path": [hex_name(a), hex_name(b)]})
    events = variant.after_action(data, state, [crossing])
    assert events and all(state.arrivals[u] == 3 for u in group["units"])
    assert all(state.arrivals[u] == 4 for w in group["later"] for u in w["units"])
    assert not variant.after_action(data, state, [crossing])  # it comes once


def test_19_4_2_the_mulhouse_group_comes_the_turn_a_french_unit_enters_column_16(game: VaeVictisGame) -> None:
    from engine.contract import Event

    data = game.data
    state = started(game)
    army = next(a for a, d in data.armies.items() if d.side == "german")
    before = dict(state.pools[army])
    group = next(g for g in data.extra["variant"]["group"] if g["id"] == "mulhouse")
    move = Event("move", "", {"units": ["fr-i-4-rtm"], "path": ["1510", "1610"]})
    variant.after_action(data, state, [move])
    assert all(state.arrivals[u] == 2 for u in [*group["units"], *group["trucked_units"]])
    for kind, count in group["markers"].items():
        assert state.pools[army].get(kind, 0) == before.get(kind, 0) + count
    unit = group["units"][0]
    arrival = variant.reinforcement_of(data, state, unit)
    assert arrival is not None and set(arrival.hexes) == {2201, 2601}


@pytest.mark.parametrize("heavy", [1, 3])
def test_19_4_2_the_vosges_group_follows_the_table_of_heavy_artillery_left(game: VaeVictisGame, heavy: int) -> None:
    from engine.vaevictis.turn import start_turn

    data = game.data
    state = effort(game, both_set_up(game), heavy, "fr-2-dim")
    left = state.flags["variant"]["effort"]["vosges"]
    state.turn = 3
    start_turn(data, state)
    variant.start_of_turn(data, state)
    for row in data.extra["variant"]["vosges_table"]:
        for unit in row.get("units", []):
            expected = 3 if left in row["enters_with"] else variant.NEVER
            assert state.arrivals[unit] == expected, (unit, left)


def test_19_4_2_the_historical_german_schedule_does_not_apply_in_the_variant(game: VaeVictisGame) -> None:
    from engine.vaevictis.turn import start_turn

    data = game.data
    state = started(game)
    army = next(a for a, d in data.armies.items() if d.side == "german")
    before = dict(state.pools[army])
    state.turn = 4
    start_turn(data, state)
    assert state.pools[army] == before  # the 19.2 German grants of turns 3-4 come with the groups instead
    historical = game.new_game("entire-battle", {}, SEED)
    assert not any(v == variant.NEVER for u, v in historical.arrivals.items() if u in data.extra["garrisons"]["pool"])


def test_19_4_random_play_of_the_variant_keeps_the_invariants(game: VaeVictisGame) -> None:
    """Random legal actions after a checked set-up and an offensive effort (ALSACE44_VARIANT_ACTIONS, default
    200); the groups enter as French moves trigger them."""
    import os

    from tests.vaevictis.random_play import play

    actions = int(os.environ.get("ALSACE44_VARIANT_ACTIONS", "200"))
    start = effort(game, both_set_up(game), 2, "fr-2-dim,fr-9-dic")
    state, log = play(game, 19, "variant", actions, start=start)
    assert len(log) == actions or state.result is not None


@pytest.mark.parametrize("unit", ["de-i-490", "de-kg-renschling"])
def test_19_4_2_the_vosges_group_and_kg_renschling_enter_only_by_german_controlled_hexes(
    game: VaeVictisGame, unit: str
) -> None:
    # "Vosges Group: enters via a German-controlled road hex on the north map edge"; "KG Renschling in a
    # German-controlled hex north or northeast of Mulhouse" (18: hexes no French unit has passed through).
    from engine.vaevictis import control
    from engine.vaevictis.turn import entry_hexes_for

    data = game.data
    state = game.new_game(LONG, {}, SEED)
    before = entry_hexes_for(data, state, unit)
    assert len(before) > 1
    control.note_passage(data, state, "allied", [before[0]])
    assert entry_hexes_for(data, state, unit) == before[1:]


def test_19_4_1_the_divisions_set_up_west_of_the_savoureuse_and_the_allaine(game: VaeVictisGame) -> None:
    # The Savoureuse rises inside the map: its line runs on north from its source, so the area west of the two
    # rivers holds neither Belfort's east side nor the Rhine plain (docs/rules/alsace44.md, 19.4.1).
    data = game.data
    area = set(data.map.regions["German variant set-up area"])
    assert area <= set(data.map.regions["west of the Savoureuse and the Allaine"])
    assert len(area) < len(data.map.regions["east of the front line"]) // 2
    for east in (1308, 1411, 2606, 1703):  # east of Belfort, the reserves' area, Mulhouse, north of the source
        assert east not in area
    state = game.new_game(LONG, {}, SEED)
    before = state.copy()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(state, Action("german", "place", {"unit": "de-i-1212", "hex": "1308"}))
    assert refused.value.rule == "19.4.1" and same(state, before)


def far_from_its_units(game: VaeVictisGame, state: GameState) -> Hex:
    """An empty hex of the German area as far as can be from the 269th ID's I/469 (beyond its command range)."""
    data = game.data
    return max(
        (h for h in sorted(data.map.regions[AREA]) if not state.units_at(h)),
        key=lambda h: data.map.grid.distance(h, state.units["de-i-469"].hex or h),
    )


def test_19_4_1_setup_done_lists_every_unmet_condition_at_once(game: VaeVictisGame) -> None:
    """ "Set-up done" names every broken condition in one refusal (each with what to move), and the prompt
    lists them all; the default the set-up opens on meets every condition, so it may be closed at once."""
    data = game.data
    state = game.new_game(LONG, {}, SEED)
    assert "Every condition holds" in game.prompts(state)["german"].text
    state = place(game, state, "german", "hq-de-269-id", far_from_its_units(game, state))
    other = next(u for u, d in data.units.items() if d.formation == "de-338-vgd" and not d.is_hq)
    state = place(game, state, "german", other, state.units["de-i-1212"].hex or 0)
    problems = setup_phase.setup_problems(data, state, "german")
    assert len(problems) >= 2
    with pytest.raises(IllegalActionError) as refused:
        game.apply(state, Action("german", "setup_done", {}))
    assert refused.value.rule == "19.4.1" and f"{len(problems)} conditions are not met" in refused.value.reason
    assert "two divisions" in refused.value.reason and "line of command" in refused.value.reason
    text = game.prompts(state)["german"].text
    assert f"Still to satisfy ({len(problems)})" in text and all(p.reason in text for p in problems)
