"""[30] The computer opponent answers every prompt of its seat legally, from its seat's view only."""

from __future__ import annotations

import json
from functools import cache

import pytest

from engine.contract import Action, ComputerPlayer
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.known import known_state
from engine.vaevictis.opponent import COMPUTER_PLAYER
from engine.vaevictis.state import GameState
from scenarios import load_game


@cache
def game_of(game_id: str) -> VaeVictisGame:
    return VaeVictisGame(load_game(game_id))


def test_the_computer_player_is_offered_by_the_game_system() -> None:
    game = game_of("ardennes44")
    player: ComputerPlayer = game.computer_player
    assert player.levels == ("easy", "normal", "hard")
    assert COMPUTER_PLAYER.levels == player.levels


def test_a_seats_view_carries_the_known_position_without_the_seed() -> None:
    game = game_of("ardennes44")
    state = game.new_game("initial-assault", {}, b"\x07" * 32)
    position = game.view(state, "german")["position"]
    assert position["seed"] == "" and json.loads(json.dumps(position)) == position
    known = GameState.from_json(position)
    assert known.to_json() == known_state(game.data, state, "german").to_json()
    assert "position" not in game.view(state, None)


@pytest.mark.parametrize(
    ("game_id", "scenario", "options", "actions"),
    [
        ("ardennes44", "initial-assault", {"fog_of_war": True}, 60),
        ("ardennes44", "entire-battle", {"c3i_snafu": True, "christmas_presents": True}, 40),
        ("alsace44", "initial-assault", {"fog_of_war": True}, 40),
        ("alsace44", "initial-assault-variant", {"snafu_vv60": True}, 40),
    ],
)
def test_the_opponent_answers_every_prompt_legally(
    game_id: str, scenario: str, options: dict[str, bool], actions: int
) -> None:
    """Both seats played by the shared opponent at its easiest: every decision is accepted by the engine."""
    game = game_of(game_id)
    assert game.computer_player is not None  # reading it registers the game with the shared opponent
    state = game.new_game(scenario, options, b"\x03" * 32)
    for number in range(actions):
        prompts = game.prompts(state)
        if not prompts:
            break
        side = sorted(prompts)[number % len(prompts)]
        decision = COMPUTER_PLAYER.decide(game.view(state, side), prompts[side], "easy", number.to_bytes(2, "big"))
        assert decision.action.seat == side
        assert "\n" not in decision.explanation and len(decision.explanation) <= 160  # one short line
        state, events = game.apply(state, decision.action)
        assert not [e for e in events if e.kind == "pass" and e.data.get("rule") == "2.2"]  # no empty activation


def test_2_2_the_opponent_never_ends_an_activation_before_a_unit_acted() -> None:
    """[2.2] An activation that activates no unit is a pass: once in a general activation, the opponent acts,
    whatever the noise of its level and seed."""
    from tests.vaevictis.opponent_puzzles import ardennes, board, decide

    state = board({"us-99-393": "1817", "hq-us-v-corps": "1716", "de-1-ss-peiper": "3207", "hq-de-i-ss-pzk": "3308"})
    state.active = state.initiative = "allied"
    state.units["us-99-393"].improved_position = True
    state, _ = ardennes().apply(state, Action("allied", "activate_general", {}))
    for level in ("easy", "normal"):
        for seed in range(6):
            assert decide(state, "allied", level, bytes([seed])).action.verb != "end_activation"


def test_2_2_the_opponent_passes_rather_than_start_an_activation_with_nothing_to_do() -> None:
    """[2.2] With nothing worth doing (its only unit dug in at Bastogne, its HQ gone, the enemy far away), the opponent
    passes whatever the seed: the noise never picks an activation it did not try and find acting."""
    from tests.vaevictis.opponent_puzzles import board, decide

    state = board({"us-99-393": "1817", "de-1-ss-peiper": "3207", "hq-de-i-ss-pzk": "3308"})
    state.active = state.initiative = "allied"
    state.units["us-99-393"].improved_position = True
    verbs = {
        decide(state, "allied", level, bytes([seed])).action.verb for level in ("normal", "hard") for seed in range(8)
    }
    assert verbs == {"pass"}


def fog_twin(game: VaeVictisGame, state: GameState, seat: str) -> GameState:
    """The same game as ``seat`` sees it, everything it may not see changed: another secret seed, and under
    fog of war (11.1) the enemy counters it may not inspect shuffled among the hidden places of their stacks,
    reduced to one step, fatigued and out of supply."""
    from engine.vaevictis.view import unseen_units

    twin = state.copy()
    twin.seed = "ab" * 32
    stacks = game.view(state, seat)["stacks"]  # type: ignore[arg-type]
    tops = [stack["units"][0]["id"] for stack in stacks if stack["side"] != seat]
    twin.stack_tops = [*tops, *(u for u in state.stack_tops if u not in tops)]  # the enemy tops seen stay on top
    hidden = sorted(unseen_units(game.data, state)[seat])  # type: ignore[index]
    places = [state.units[u].hex for u in hidden]
    for unit_id, hex_ in zip(hidden, [*places[1:], *places[:1]], strict=True):
        unit = twin.units[unit_id]
        unit.hex = hex_
        unit.steps = 1
        unit.fatigued = unit.unsupplied = True
    return twin


def seen(view: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in view.items() if k != "position"}


def test_opponent_never_cheats_twin_games_give_the_same_decisions() -> None:
    """[11] Twin games that differ only in what the deciding seat may not see (the secret seed, the hidden
    counters of enemy stacks under fog of war) give the opponent the same decisions, at every prompt of a
    game in progress, both seats."""
    game = game_of("ardennes44")
    state = game.new_game("initial-assault", {"fog_of_war": True}, b"\x09" * 32)
    compared = hidden_compared = 0
    for number in range(24):
        prompts = game.prompts(state)
        side = sorted(prompts)[number % len(prompts)]
        twin = fog_twin(game, state, side)
        real_view, twin_view = game.view(state, side), game.view(twin, side)
        decision = game.computer_player.decide(real_view, prompts[side], "easy", b"twin")
        if seen(real_view) == seen(twin_view):
            twin_decision = game.computer_player.decide(twin_view, game.prompts(twin)[side], "easy", b"twin")
            assert twin_decision == decision
            assert twin_view["position"] == real_view["position"]
            compared += 1
            hidden_compared += twin.units != state.units
        state, _ = game.apply(state, decision.action)
    assert compared == 24 and hidden_compared >= 10


def test_opponent_is_deterministic_and_counts_its_budget_in_engine_steps() -> None:
    """The same view, prompt, level and seed give the same decision; a harder level may spend more steps."""
    from tests.vaevictis.opponent_puzzles import decide, puzzle

    state = puzzle({"de-1-ss-peiper": "2015", "hq-de-i-ss-pzk": "2314", "us-99-393": "0805"}, "german", "de-i-ss-pzk")
    first, again = decide(state, "german", "normal", b"s"), decide(state, "german", "normal", b"s")
    assert first == again and 0 < first.steps <= 90
    assert decide(state, "german", "easy", b"s").steps <= 30 < decide(state, "german", "hard", b"s").steps


def test_opponent_wall_clock_guard_only_cuts_the_search_short() -> None:
    """A clock past its deadline at once: the opponent still answers legally, with fewer engine steps."""
    from engine.vaevictis.opponent import VaeVictisOpponent
    from tests.vaevictis.opponent_puzzles import ardennes, puzzle

    game = ardennes()
    state = puzzle({"de-1-ss-peiper": "2015", "hq-de-i-ss-pzk": "2314", "us-99-393": "0805"}, "german", "de-i-ss-pzk")
    ticks = iter(range(0, 10**6, 100))
    hurried = VaeVictisOpponent(game, clock=lambda: float(next(ticks)), seconds=1.0)
    view, prompt = game.view(state, "german"), game.prompts(state)["german"]
    decision = hurried.decide(view, prompt, "hard", b"s")
    game.apply(state, decision.action)
    assert decision.steps < game.computer_player.decide(view, prompt, "hard", b"s").steps


def test_opponent_refuses_an_unknown_level_or_a_channel_view() -> None:
    from engine.contract import InvalidActionError

    game = game_of("ardennes44")
    state = game.new_game("initial-assault", {}, b"\x07" * 32)
    side, prompt = next(iter(game.prompts(state).items()))
    with pytest.raises(InvalidActionError, match="no level"):
        game.computer_player.decide(game.view(state, side), prompt, "grandmaster", b"s")
    with pytest.raises(InvalidActionError, match="seat's view"):
        game.computer_player.decide(game.view(state, None), prompt, "easy", b"s")


def test_7_4_the_scripted_baseline_and_the_opponent_do_not_keep_changing_the_quality_unit() -> None:
    """[7.4] The defender's choice of the unit whose quality counts is offered again after each choice: the
    scripted baseline keeps the default and goes on, and the opponent does not change it for nothing (a
    ladder game once went on for thousands of actions, the baseline choosing one unit then the other)."""
    from engine.vaevictis.opponent.scripted import ScriptedBaseline
    from tests.vaevictis.opponent_puzzles import ardennes, puzzle

    game = ardennes()
    placements = {
        "de-1-ss-peiper": "2913",
        "hq-de-i-ss-pzk": "3113",
        "us-9-ad-ccr": "2813",
        "us-7-ad-ccb": "2813",
        "hq-us-viii-corps": "2514",
    }
    state = puzzle(placements, "german", "de-i-ss-pzk")
    attack = {"kind": "normal", "attackers": "de-1-ss-peiper", "target": "2813"}
    state, _ = game.apply(state, Action("german", "attack", attack))
    prompt = game.prompts(state)["allied"]
    assert "choose_quality" in {c.verb for c in prompt.choices}
    view = game.view(state, "allied")
    assert ScriptedBaseline(game).decide(view, prompt, "scripted", b"s").action.verb == "supports_done"
    verbs = {game.computer_player.decide(view, prompt, "normal", bytes([seed])).action.verb for seed in range(6)}
    assert "choose_quality" not in verbs


def test_17_1_the_attacker_is_drawn_to_the_city_it_lacks_and_leaves_a_garrison_in_the_others() -> None:
    """[17.1] The German wins The Initial Assault only by holding St. Vith, Bastogne and Marche together: once it
    holds St. Vith and Bastogne, a unit's reach counts its distance to Marche (not to the city it stands next to),
    and the first unit in each held city counts 0, its garrison; a second unit there is drawn on to Marche."""
    from engine.vaevictis.opponent.analysis import objectives
    from engine.vaevictis.opponent.evaluation import goal_distance
    from engine.vaevictis.state import Position
    from tests.vaevictis.opponent_puzzles import ardennes, board

    data = ardennes().data
    goals = objectives(data, "initial-assault")
    marche = goals.goal_maps[[p.name for p in goals.places].index("Marche")]
    placements = {"de-1-ss-peiper": "2610", "de-1-ss-hansen": "2610", "de-1-ss-sandig": "1817", "de-2-pz-boehm": "2611"}
    state = board(placements)
    distance = goal_distance(data, Position(data, state), goals)
    seen = {u: distance(state.units[u]) for u in placements}
    assert seen["de-1-ss-peiper"] == 0 and seen["de-1-ss-sandig"] == 0
    assert seen["de-1-ss-hansen"] == marche[state.units["de-1-ss-hansen"].hex] > 5
    assert seen["de-2-pz-boehm"] == marche[state.units["de-2-pz-boehm"].hex]
    state.units["de-1-ss-sandig"].hex = None  # Bastogne given up: the nearest city lacked counts again
    state.units["de-1-ss-sandig"].eliminated = True
    distance = goal_distance(data, Position(data, state), goals)
    assert distance(state.units["de-2-pz-boehm"]) < marche[state.units["de-2-pz-boehm"].hex]
