"""[Alsace 1944 15] The stratagems: when each may be played, by whom, what it costs and what it does.

Games start as the other Alsace engine tests do (``core_documents``: the real data, the stratagems the engine
plays included).
"""

from __future__ import annotations

import json

import pytest

from engine.contract import Action, IllegalActionError
from engine.vaevictis import activation as act
from engine.vaevictis import stratagems
from engine.vaevictis.data import GameData
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.loader import build_game
from engine.vaevictis.state import GameState
from tests.vaevictis.test_alsace44_engine import core_documents

SEED = bytes(range(32))
LXIII = "lxiii-ak-hq"
FIRST_CA = "1st-army-corps-hq"


@pytest.fixture(scope="module")
def data() -> GameData:
    return build_game(core_documents())


@pytest.fixture(scope="module")
def game(data: GameData) -> VaeVictisGame:
    return VaeVictisGame(data)


def support_done(game: VaeVictisGame, state: GameState) -> GameState:
    for side in ("german", "allied"):
        if side in game.prompts(state):
            state, _ = game.apply(state, Action(side, "end_support", {}))
    return state


def initiative_of_turn_2(game: VaeVictisGame) -> GameState:
    """The initiative phase of a turn without a forced stratagem, both counters in hand."""
    state = game.new_game("entire-battle", {}, SEED)
    state.turn = 2
    state.phase = "initiative"
    state.flags = {"phase_done": [], **{k: v for k, v in state.flags.items() if k in ("face_down", "set_aside")}}
    state.events_left[FIRST_CA] = 1
    state.events_left[LXIII] = 1
    return state


def same(a: GameState, b: GameState) -> bool:
    return json.dumps(a.to_json(), sort_keys=True) == json.dumps(b.to_json(), sort_keys=True)


def test_2_1_the_initiative_stratagems_are_a_sealed_simultaneous_decision(game: VaeVictisGame) -> None:
    state = initiative_of_turn_2(game)
    prompts = game.prompts(state)
    assert set(prompts) == {"german", "allied"}
    assert all(p.secret for p in prompts.values())
    first, events = game.apply(state, Action("german", "initiative_stratagem", {"play": True}))
    # Only the German may read his choice; nothing public says what it was.
    assert all(e.secret_to == ("german",) for e in events)
    assert "german" not in game.prompts(first) and game.prompts(first)["allied"].secret
    assert first.phase == "initiative" and first.events_left[LXIII] == 1
    assert json.dumps(game.view(first, "allied")) == json.dumps(game.view(state, "allied"))
    second, events = game.apply(first, Action("allied", "initiative_stratagem", {"play": False}))
    reveal = next(e for e in events if e.kind == "reveal")
    assert not reveal.secret_to and "LXIII" in reveal.text
    assert second.events_left[LXIII] == 0 and second.events_left[FIRST_CA] == 1
    assert second.initiative == "german" and second.phase == "operations"
    assert not any(e.kind == "roll" for e in events)  # the initiative is given, not rolled


def test_2_1_if_both_play_both_are_spent_and_the_initiative_is_rolled(game: VaeVictisGame) -> None:
    state = initiative_of_turn_2(game)
    state, _ = game.apply(state, Action("allied", "initiative_stratagem", {"play": True}))
    state, events = game.apply(state, Action("german", "initiative_stratagem", {"play": True}))
    assert state.events_left[LXIII] == 0 and state.events_left[FIRST_CA] == 0
    assert any(e.kind == "roll" and e.data.get("rule") == "2.1" for e in events)
    assert state.phase == "operations" and stratagems.RUN not in state.flags


def test_2_1_a_decision_out_of_its_phase_is_refused_and_changes_nothing(game: VaeVictisGame) -> None:
    state = initiative_of_turn_2(game)
    state, _ = game.apply(state, Action("german", "initiative_stratagem", {"play": False}))
    before = state.copy()
    with pytest.raises(IllegalActionError):  # a sealed choice is final
        game.apply(state, Action("german", "initiative_stratagem", {"play": True}))
    assert same(state, before)
    state, _ = game.apply(state, Action("allied", "initiative_stratagem", {"play": False}))
    assert state.phase == "operations"
    with pytest.raises(IllegalActionError) as refused:
        stratagems.decide(game.data, state.copy(), "allied", True)
    assert refused.value.rule == "2.1"


def test_19_2_the_french_play_the_1st_army_corps_hq_on_turn_1(game: VaeVictisGame) -> None:
    state = support_done(game, game.new_game("entire-battle", {}, SEED))
    prompts = game.prompts(state)
    assert set(prompts) == {"german"} and prompts["german"].secret  # the French have no choice to make
    state, events = game.apply(state, Action("german", "initiative_stratagem", {"play": False}))
    assert state.events_left[FIRST_CA] == 0
    assert state.initiative == "allied"
    assert "(the scenario's rule)" in next(e for e in events if e.kind == "reveal").text


def formation_ids(game: VaeVictisGame, state: GameState, side: str) -> list[str]:
    prompt = game.prompts(state)[side]
    return [str(c.args["formation"]) for c in prompt.choices if c.verb == "activate_formation" and "also" not in c.args]


def test_15_3_the_1st_army_corps_hq_activates_two_hqs_in_succession(game: VaeVictisGame) -> None:
    state = initiative_of_turn_2(game)
    state, _ = game.apply(state, Action("german", "initiative_stratagem", {"play": False}))
    state, _ = game.apply(state, Action("allied", "initiative_stratagem", {"play": True}))
    first, second = formation_ids(game, state, "allied")[:2]
    state, _ = game.apply(state, Action("allied", "activate_formation", {"formation": first}))
    state, _ = game.apply(state, Action("allied", "end_activation", {}))
    assert state.active == "allied"  # the second HQ at once, the German waits
    state, _ = game.apply(state, Action("allied", "activate_formation", {"formation": second}))
    state, _ = game.apply(state, Action("allied", "end_activation", {}))
    assert state.active == "german"


def test_15_2_the_lxiii_ak_hq_activates_two_formations_and_three_independents_together(game: VaeVictisGame) -> None:
    data = game.data
    state = initiative_of_turn_2(game)
    state, _ = game.apply(state, Action("allied", "initiative_stratagem", {"play": False}))
    state, _ = game.apply(state, Action("german", "initiative_stratagem", {"play": True}))
    pairs = [c for c in game.prompts(state)["german"].choices if "also" in c.args]
    assert pairs
    choice = pairs[0]
    first, second = str(choice.args["formation"]), str(choice.args["also"])
    state, _ = game.apply(state, Action("german", "activate_formation", dict(choice.args)))
    activation = state.activation
    assert activation is not None
    for unit_id, unit in state.units.items():
        definition = data.units[unit_id]
        if unit.on_map and definition.formation == second and not definition.is_hq and not unit.out_of_command:
            act.check_can_join(state, data, unit)  # a unit of the second formation joins
            break
    independents = [
        u
        for u, d in data.units.items()
        if d.formation == "de-independent" and state.units[u].on_map and data.side_of(u) == "german"
    ]
    for unit_id in independents[:3]:
        act.join(state, data, state.units[unit_id], dice=None)
    if len(independents) > 3:
        with pytest.raises(IllegalActionError) as refused:
            act.check_can_join(state, data, state.units[independents[3]])
        assert refused.value.rule == "15.2"
    third = next(
        u
        for u, d in data.units.items()
        if state.units[u].on_map
        and data.side_of(u) == "german"
        and d.formation not in (first, second)
        and not data.formations[d.formation].independent
    )
    with pytest.raises(IllegalActionError):
        act.check_can_join(state, data, state.units[third])
    state, _ = game.apply(state, Action("german", "end_activation", {}))
    assert state.active == "allied"  # the combined activation is the stratagem's only one
