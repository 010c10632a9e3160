"""Events (15), Christmas presents (15.4) and detachments (18) played through the game's own flow of prompts."""

from __future__ import annotations

from typing import Any

from engine.contract import Action
from engine.vaevictis.game import VaeVictisGame
from tests.vaevictis.gameplay import FRONT, Table
from tests.vaevictis.positions import mini_data


def with_events(docs: dict[str, Any]) -> None:
    docs["setup.toml"]["event"] = [
        {
            "id": "greif",
            "effect": "enemy-stack-loses-ap",
            "side": "german",
            "name": "Greif",
            "count": 1,
            "rule": "15.2",
        },
        {"id": "roadblock", "effect": "blocks-hex", "side": "allied", "name": "Roadblock", "count": 2, "rule": "15.3"},
        {
            "id": "air-supply",
            "effect": "supply-drop",
            "side": "allied",
            "name": "Air Supply",
            "count": 1,
            "rule": "15.3",
        },
        {"id": "nuts", "effect": "quality-aura", "side": "allied", "name": "Nuts!", "count": 1, "rule": "15.3"},
    ]
    docs["setup.toml"]["christmas_presents"] = {"turn": 2, "optional": True}


DATA = mini_data(with_events)


def test_15_2_greif_is_played_by_the_german_during_an_allied_activation() -> None:
    table = Table(DATA, FRONT)
    table.act("german", "pass")
    table.act("allied", "activate_general")
    table.act("allied", "move", units="us-cca", to="0105")
    prompts = table.game.prompts(table.state)
    assert prompts["german"].optional
    greif = [c for c in prompts["german"].choices if c.args.get("event") == "greif"]
    assert greif, [c.label for c in prompts["german"].choices]
    before = table.unit("us-cca").action_points
    table.act("german", "play_event", **dict(greif[0].args))
    assert table.state.events_left["greif"] == 0
    assert table.unit("us-cca").action_points == before - 1


def test_15_3_the_german_may_not_take_the_allied_decision_while_only_reacting() -> None:
    table = Table(DATA, FRONT)
    table.act("german", "pass")
    table.act("allied", "activate_general")
    table.refused("german", "pass", None, "waiting for: allied")  # nothing to react to yet
    table.act("allied", "move", units="us-cca", to="0105")
    assert table.game.prompts(table.state)["german"].optional  # Greif may be played now
    table.refused("german", "pass", "2.1", "the other side is acting; you may only play an event")


def test_15_3_air_supply_is_offered_in_the_supply_phase_of_a_clear_turn() -> None:
    table = Table(DATA, FRONT)
    table.act("german", "pass")
    table.act("allied", "pass")  # turn 2 is clear in the mini game
    assert table.state.turn == 2 and table.state.phase == "supply"
    prompt = table.game.prompts(table.state)["allied"]
    assert not prompt.optional and prompt.rule == "15.3"
    assert any(c.verb == "decline_air_supply" for c in prompt.choices)
    table.act("allied", "decline_air_supply")
    assert table.state.phase != "supply"


def test_15_4_christmas_presents_are_chosen_on_their_turn_when_the_option_is_on() -> None:
    game = VaeVictisGame(DATA)
    state = game.new_game("test", {"christmas_presents": True}, b"\x09" * 32)
    assert state.turn == 1 and "christmas" not in {c.verb for p in game.prompts(state).values() for c in p.choices}
    for side in ("german", "allied"):
        while state.phase == "support" and side in game.prompts(state):
            state, _ = game.apply(state, Action(side, "end_support"))
    state, _ = game.apply(state, Action(state.active or "german", "pass"))
    state, _ = game.apply(state, Action(state.active or "allied", "pass"))
    assert state.turn == 2 and state.phase == "air"
    prompts = game.prompts(state)
    assert {"german", "allied"} <= set(prompts)
    state, _ = game.apply(state, Action("german", "christmas", {"present": "reroll-attack-die"}))
    state, _ = game.apply(state, Action("allied", "christmas", {"present": "none"}))
    assert state.phase != "air"
    assert "german" in state.flags.get("christmas_reroll", [])


def test_18_a_division_detaches_during_its_activation() -> None:
    table = Table(DATA, FRONT)
    table.act("german", "pass")
    table.act("allied", "activate_formation", formation="us-v")
    table.act("allied", "enter_ip", unit="us-3-id")
    choices = [c for c in table.game.prompts(table.state)["allied"].choices if c.verb == "detach"]
    assert choices
    table.act("allied", "detach", **dict(choices[0].args))
    created = [u for u in table.state.units.values() if u.parent == "us-3-id"]
    assert len(created) == 1 and created[0].hex == table.unit("us-3-id").hex
    assert created[0].steps + table.unit("us-3-id").steps == 3
