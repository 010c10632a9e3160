"""[Alsace 1944 19.1, 19.2] Each ending of both scenarios, and leaving the map by the northern exit roads.

Positions are built on a game started as the other Alsace engine tests do (``core_documents``), then judged by
the engine's own end-of-game check.
"""

from __future__ import annotations

import json

import pytest

from engine.contract import Action, IllegalActionError
from engine.hexgrid import Hex
from engine.vaevictis import activation as act
from engine.vaevictis import opening, victory
from engine.vaevictis.data import GameData
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.loader import build_game
from engine.vaevictis.state import GameState
from engine.vaevictis.turn import start_turn
from tests.vaevictis.alsace_documents import core_documents

SEED = bytes(range(32))


@pytest.fixture(scope="module")
def data() -> GameData:
    return build_game(core_documents())


@pytest.fixture(scope="module")
def game(data: GameData) -> VaeVictisGame:
    return VaeVictisGame(data)


def french_infantry(data: GameData, state: GameState) -> list[str]:
    return [
        u
        for u, d in sorted(data.units.items())
        if data.side_of(u) == "allied" and d.kind == "infantry" and state.units[u].on_map
    ]


def occupy(data: GameData, state: GameState, hexes: list[Hex]) -> None:
    """French infantry in each hex, any German there gone."""
    spare = french_infantry(data, state)
    for hex_ in hexes:
        for unit in state.units_at(hex_):
            if data.side_of(unit.id) == "german":
                unit.hex, unit.eliminated, unit.steps = None, True, 0
        state.units[spare.pop()].hex = hex_


def place_hexes(data: GameData, name: str) -> list[Hex]:
    return list(data.map.place(name).hexes)


def forts(data: GameData) -> list[Hex]:
    return sorted(data.map.overlays["fort"])


def ending(data: GameData, state: GameState) -> str:
    victory.end_of_game(data, state)
    assert state.result is not None
    return str(state.result["result"])


def rhine_hex(data: GameData) -> Hex:
    return sorted(data.map.regions["rhine bank"])[0]


def test_19_1_strategic_a_hex_of_belfort_held_and_the_rhine_reached_once(game: VaeVictisGame) -> None:
    data = game.data
    state = game.new_game("initial-assault", {}, SEED)
    scout = french_infantry(data, state)[0]
    state.units[scout].hex = rhine_hex(data)
    victory.after_action(data, state)
    state.units[scout].hex, state.units[scout].eliminated = None, True  # leaves or is destroyed later
    start_turn(data, state)  # the fact lasts from turn to turn
    occupy(data, state, place_hexes(data, "Belfort")[:1])
    assert ending(data, state) == "allied-strategic"


def test_19_1_tactical_two_of_belfort_sochaux_and_montbeliard(game: VaeVictisGame) -> None:
    data = game.data
    state = game.new_game("initial-assault", {}, SEED)
    occupy(data, state, [place_hexes(data, "Sochaux")[0], place_hexes(data, "Montbeliard")[0]])
    assert ending(data, state) == "allied-tactical"


def test_19_1_otherwise_the_german_wins(game: VaeVictisGame) -> None:
    data = game.data
    state = game.new_game("initial-assault", {}, SEED)
    occupy(data, state, place_hexes(data, "Belfort")[:1])  # Belfort without the Rhine: one city only
    assert ending(data, state) == "german"


def test_19_2_tactical_belfort_mulhouse_and_every_fort(game: VaeVictisGame) -> None:
    data = game.data
    state = game.new_game("entire-battle", {}, SEED)
    occupy(data, state, [*place_hexes(data, "Belfort"), *place_hexes(data, "Mulhouse"), *forts(data)])
    assert ending(data, state) == "allied-tactical"


def test_19_2_a_fort_missing_is_a_german_victory(game: VaeVictisGame) -> None:
    data = game.data
    state = game.new_game("entire-battle", {}, SEED)
    occupy(data, state, [*place_hexes(data, "Belfort"), *place_hexes(data, "Mulhouse"), *forts(data)[1:]])
    assert ending(data, state) == "german"


def exit_division(data: GameData, state: GameState, commands: int) -> None:
    """The 1re DB's HQ and ``commands`` of its Combat Commands recorded as having left the map."""
    formation = data.formations["fr-1-db"]
    ccs = sorted({u.combat_command for u in data.units.values() if u.formation == formation.id and u.combat_command})
    gone = [formation.hq or ""] + [
        u.id for u in data.units.values() if u.formation == formation.id and u.combat_command in ccs[:commands]
    ]
    state.flags["exited"] = gone


def test_19_2_strategic_adds_an_armoured_division_exited_by_the_northern_roads(game: VaeVictisGame) -> None:
    data = game.data
    state = game.new_game("entire-battle", {}, SEED)
    occupy(data, state, [*place_hexes(data, "Belfort"), *place_hexes(data, "Mulhouse"), *forts(data)])
    exit_division(data, state, 3)
    assert ending(data, state) == "allied-strategic"


def test_19_2_two_combat_commands_out_are_not_a_division(game: VaeVictisGame) -> None:
    data = game.data
    state = game.new_game("entire-battle", {}, SEED)
    occupy(data, state, [*place_hexes(data, "Belfort"), *place_hexes(data, "Mulhouse"), *forts(data)])
    exit_division(data, state, 2)
    assert ending(data, state) == "allied-tactical"


def in_french_activation(game: VaeVictisGame, state: GameState) -> GameState:
    state = state.copy()
    state.phase, state.active, state.pending = "operations", "allied", []
    act.start_general_activation(state, game.data)
    return state


def joined(game: VaeVictisGame, state: GameState, unit_id: str) -> GameState:
    state = state.copy()
    act.join(state, game.data, state.units[unit_id], dice=None)
    return state


def test_19_2_units_leave_the_map_by_an_exit_hex_as_a_move_action(game: VaeVictisGame) -> None:
    data = game.data
    state = in_french_activation(game, game.new_game("entire-battle", {}, SEED))
    exit_hex = sorted(data.map.regions["northern exit roads"])[0]
    tank = "fr-a-cc2"
    state.units[tank].hex, state.units[tank].arrived = exit_hex, True
    state = joined(game, state, tank)
    assert any(c.verb == "exit_map" for c in game.prompts(state)["allied"].choices)
    left = state.units[tank].action_points
    after, events = game.apply(state, Action("allied", "exit_map", {"units": tank}))
    assert after.units[tank].hex is None and not after.units[tank].eliminated
    assert after.units[tank].action_points == left - 1
    assert after.flags["exited"] == [tank]
    assert events[-1].kind == "exit"


def test_19_2_leaving_the_map_elsewhere_is_refused_and_changes_nothing(game: VaeVictisGame) -> None:
    data = game.data
    state = in_french_activation(game, game.new_game("entire-battle", {}, SEED))
    infantry = next(u for u in french_infantry(data, state) if opening.activation_refusal(data, state, u) is None)
    state = joined(game, state, infantry)
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalActionError) as refused:
        game.apply(state, Action("allied", "exit_map", {"units": infantry}))
    assert refused.value.rule == "19.2"
    assert json.dumps(state.to_json(), sort_keys=True) == before
    short = joined(game, in_french_activation(game, game.new_game("initial-assault", {}, SEED)), infantry)
    with pytest.raises(IllegalActionError) as refused:  # 19.1 counts no exits: nobody leaves
        game.apply(short, Action("allied", "exit_map", {"units": infantry}))
    assert refused.value.rule == "19.2"


def test_15_3_19_2_a_raid_commando_leaves_before_the_last_victory_check(game: VaeVictisGame) -> None:
    # The commando leaves "at the end of the turn" with the administrative phase's removals, which come before
    # its victory check (2.1 step 5): it does not hold its fort for 19.2.
    from engine.vaevictis.stratagems import COMMANDOS, commando_ids

    data = game.data
    state = game.new_game("entire-battle", {}, SEED)
    raided, *others = forts(data)
    occupy(data, state, [*place_hexes(data, "Belfort"), *place_hexes(data, "Mulhouse"), *others])
    for unit in state.units_at(raided):
        unit.hex, unit.eliminated, unit.steps = None, True, 0
    commando = commando_ids(data)[0]
    state.units[commando].hex, state.units[commando].arrived = raided, True
    state.flags[COMMANDOS] = [commando]
    state.turn, state.phase, state.active = data.scenarios["entire-battle"].turns, "operations", None
    game._end_operations(state)
    assert state.result is not None and state.result["result"] == "german"
    assert state.units[commando].hex is None
    state = game.new_game("entire-battle", {}, SEED)  # a French unit on that fort instead holds it
    occupy(data, state, [*place_hexes(data, "Belfort"), *place_hexes(data, "Mulhouse"), *forts(data)])
    state.turn, state.phase, state.active = data.scenarios["entire-battle"].turns, "operations", None
    game._end_operations(state)
    assert state.result is not None and state.result["result"] == "allied-tactical"


def test_19_2_the_strategic_victory_names_every_objective_it_met(game: VaeVictisGame) -> None:
    data = game.data
    state = game.new_game("entire-battle", {}, SEED)
    occupy(data, state, [*place_hexes(data, "Belfort"), *place_hexes(data, "Mulhouse"), *forts(data)])
    exit_division(data, state, 3)
    assert ending(data, state) == "allied-strategic"
    assert state.result is not None and state.result["reason"] == (
        "holds Belfort, Mulhouse; holds every fort; 1re DB (1st Armoured Division) has left the map by the "
        "northern exit roads (cc1, cc2, cc3 and its HQ)"
    )


def test_19_2_a_division_whose_hq_stayed_on_the_map_has_not_left_it(game: VaeVictisGame) -> None:
    data = game.data
    state = game.new_game("entire-battle", {}, SEED)
    occupy(data, state, [*place_hexes(data, "Belfort"), *place_hexes(data, "Mulhouse"), *forts(data)])
    exit_division(data, state, 3)
    state.flags["exited"].remove(data.formations["fr-1-db"].hq)
    assert ending(data, state) == "allied-tactical"


def test_19_2_belfort_and_mulhouse_are_held_only_in_every_hex(game: VaeVictisGame) -> None:
    data = game.data
    state = game.new_game("entire-battle", {}, SEED)
    occupy(data, state, [*place_hexes(data, "Belfort")[:1], *place_hexes(data, "Mulhouse"), *forts(data)])
    assert ending(data, state) == "german"


def test_19_1_the_rhine_is_reached_only_by_a_unit_standing_on_its_bank(game: VaeVictisGame) -> None:
    data = game.data
    state = game.new_game("initial-assault", {}, SEED)
    victory.after_action(data, state)
    assert state.flags.get(victory.REACHED_FLAG, []) == []
    scout = french_infantry(data, state)[0]
    state.units[scout].hex = rhine_hex(data)
    victory.after_action(data, state)
    victory.after_action(data, state)
    assert state.flags[victory.REACHED_FLAG] == ["allied:rhine bank"]


def test_19_the_result_is_told_with_the_french_sides_name_and_its_winner(game: VaeVictisGame) -> None:
    data = game.data
    state = game.new_game("entire-battle", {}, SEED)
    occupy(data, state, [*place_hexes(data, "Belfort"), *place_hexes(data, "Mulhouse"), *forts(data)])
    events = victory.end_of_game(data, state)
    assert [e.text for e in events] == ["French tactical: holds Belfort, Mulhouse; holds every fort (19)."]
    assert state.result is not None and state.result["winner"] == "allied"
    state = game.new_game("initial-assault", {}, SEED)
    events = victory.end_of_game(data, state)
    assert [e.text for e in events] == ["German: the French objectives were not met (19)."]
    assert state.result == {"winner": "german", "result": "german", "reason": "the French objectives were not met"}
