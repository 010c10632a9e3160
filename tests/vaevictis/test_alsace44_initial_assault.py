"""[19.1] The Initial Assault, scripted to each of its endings through the engine.

19.1 has three endings, judged at the end of turn 3: a French strategic victory (a hex of Belfort held and a
hex of the Rhine reached at some moment of the game), a French tactical victory (two of Belfort, Sochaux and
Montbeliard held), otherwise a German victory. Each test plays the real game from its set-up; where the
French need to be somewhere in three turns the position is arranged first (the French spearheads are put one
hex short of their objectives and the German defenders there are gone, as the Ardennes whole-game tests do),
then every move, activation and pass goes through ``VaeVictisGame.apply``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.contract import Action
from engine.hexgrid import Hex, hex_name
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.legal import reachable
from engine.vaevictis.state import GameState, Position
from engine.vaevictis.supply import no_entry_hexes
from tests.vaevictis.alsace import alsace_game, check_alsace_invariants
from tests.vaevictis.random_play import check_invariants

SEED = b"\x05" * 32


@pytest.fixture(scope="module")
def game() -> VaeVictisGame:
    return alsace_game()


def apply(game: VaeVictisGame, state: GameState, action: Action) -> GameState:
    state, _ = game.apply(state, action)
    check_invariants(game, state)
    check_alsace_invariants(game, state)
    return state


QUIET_VERBS = ("setup_done", "end_support", "initiative_stratagem", "react", "pass", "end_activation")
"""[19.2] The German takes the suggested set-up; then nobody commits support, plays a stratagem or acts."""


def play_quietly(game: VaeVictisGame, state: GameState, until: Callable[[GameState], bool]) -> GameState:
    """Both sides commit no support and pass (or end what they must) until ``until`` holds or the game ends."""
    while state.result is None and not until(state):
        prompts = game.prompts(state)
        side = sorted(s for s, p in prompts.items() if not p.optional)[0]
        choices = {c.verb: c for c in prompts[side].choices}
        quiet = next(v for v in QUIET_VERBS if v in choices)
        state = apply(game, state, Action(side, quiet, dict(choices[quiet].args)))
    return state


def french_activation_on_turn(turn: int) -> Callable[[GameState], bool]:
    return lambda s: s.turn == turn and s.phase == "operations" and s.active == "allied" and s.activation is None


def clear_around(game: VaeVictisGame, state: GameState, target: Hex, radius: int = 2) -> None:
    """Arranged: the German units within ``radius`` hexes of ``target`` have gone."""
    for unit in state.on_map():
        if game.data.side_of(unit.id) == "german" and game.data.map.grid.distance(unit.hex, target) <= radius:
            unit.hex, unit.eliminated = None, True


def one_hex_short(game: VaeVictisGame, state: GameState, unit_id: str, target: Hex) -> Hex:
    """Arranged, once its formation is activated: ``unit_id`` (with its HQ beside it, for command) stands next
    to ``target``, in a hex from which the engine lets it move into ``target`` now; the hex it stands in."""
    data = game.data
    hq = next(u for u, d in data.units.items() if d.is_hq and d.formation == data.units[unit_id].formation)
    clear_around(game, state, target)
    closed = no_entry_hexes(data)
    pos = Position(data, state)
    for start in sorted(data.map.grid.neighbours(target)):
        if start in closed or pos.side_at(start) is not None or data.map.river_between(start, target):
            continue
        state.units[unit_id].hex = start
        state.units[hq].hex = next(n for n in data.map.grid.neighbours(start) if n not in closed and n != target)
        if target in reachable(game, state, unit_id):
            return start
    raise AssertionError(f"no hex next to {hex_name(target)} from which {unit_id} may enter it")


def move(game: VaeVictisGame, state: GameState, unit_id: str, to: Hex) -> GameState:
    state = apply(game, state, Action("allied", "move", {"units": unit_id, "to": hex_name(to)}))
    assert state.units[unit_id].hex == to
    return state


def activate(game: VaeVictisGame, state: GameState, unit_id: str) -> GameState:
    formation = game.data.units[unit_id].formation
    return apply(game, state, Action("allied", "activate_formation", {"formation": formation}))


def city(game: VaeVictisGame, name: str) -> Hex:
    return game.data.map.place(name).hexes[-1] if name == "Belfort" else game.data.map.place(name).hex


def test_19_1_without_an_objective_taken_the_germans_win(game: VaeVictisGame) -> None:
    state = game.new_game("initial-assault", {}, SEED)
    turns = set()
    while state.result is None:
        turns.add(state.turn)
        state = play_quietly(game, state, lambda s, seen=state.turn: s.turn != seen)
    assert turns == {1, 2, 3}
    assert state.result == {"winner": "german", "result": "german", "reason": "the French objectives were not met"}
    with pytest.raises(Exception, match="the game is over"):
        game.apply(state, Action("allied", "pass"))


def test_19_1_two_of_belfort_sochaux_and_montbeliard_held_is_a_french_tactical_victory(game: VaeVictisGame) -> None:
    state = play_quietly(game, game.new_game("initial-assault", {}, SEED), french_activation_on_turn(3))
    sochaux, montbeliard = city(game, "Sochaux"), city(game, "Montbeliard")
    state = activate(game, state, "fr-i-23-ric")
    one_hex_short(game, state, "fr-i-23-ric", sochaux)
    one_hex_short(game, state, "fr-ii-23-ric", montbeliard)
    state = move(game, state, "fr-i-23-ric", sochaux)
    state = move(game, state, "fr-ii-23-ric", montbeliard)
    state = play_quietly(game, state, lambda s: False)
    assert state.result is not None and state.result["result"] == "allied-tactical", state.result
    assert state.result["reason"] == "holds Sochaux, Montbéliard"


def test_19_1_belfort_held_and_the_rhine_reached_is_a_french_strategic_victory(game: VaeVictisGame) -> None:
    """The Rhine counts once reached, even when the unit leaves it again (19.1)."""
    state = play_quietly(game, game.new_game("initial-assault", {}, SEED), french_activation_on_turn(2))
    rhine = next(
        h
        for h in game.data.map.regions["rhine bank"]
        if Position(game.data, state).side_at(h) is None
        and h not in {1109, 1110}
        and str(hex_name(h)) not in game.data.extra["garrisons"]["hexes"]
    )
    state = activate(game, state, "fr-i-23-ric")
    start = one_hex_short(game, state, "fr-i-23-ric", rhine)
    state = move(game, state, "fr-i-23-ric", rhine)
    state = play_quietly(game, state, french_activation_on_turn(3))
    state = activate(game, state, "fr-i-23-ric")
    state = move(game, state, "fr-i-23-ric", start)  # it leaves the bank again
    state = apply(game, state, Action("allied", "end_activation"))
    state = play_quietly(game, state, french_activation_on_turn(3))
    belfort = city(game, "Belfort")
    state = activate(game, state, "fr-i-4-rtm")
    one_hex_short(game, state, "fr-i-4-rtm", belfort)
    state = move(game, state, "fr-i-4-rtm", belfort)
    state = play_quietly(game, state, lambda s: False)
    assert state.result is not None and state.result["result"] == "allied-strategic", state.result
    assert state.result["reason"] == "holds Belfort; has reached the rhine bank"


def test_19_1_the_rhine_reached_without_belfort_is_no_strategic_victory(game: VaeVictisGame) -> None:
    state = play_quietly(game, game.new_game("initial-assault", {}, SEED), french_activation_on_turn(3))
    rhine = game.data.map.regions["rhine bank"][5]
    state = activate(game, state, "fr-i-23-ric")
    one_hex_short(game, state, "fr-i-23-ric", rhine)
    state = move(game, state, "fr-i-23-ric", rhine)
    state = play_quietly(game, state, lambda s: False)
    assert state.result is not None and state.result["winner"] == "german", state.result
