"""The players' own choices in a combat: each side's quality unit (7.4, 7.6), the defender's window at the
start of an attack (7.5, 15.3 Nuts!), and what a retreat through an enemy ZoC costs (7.7.1).

Mini game (tests/vaevictis/combat_setups.py); dice pinned by choosing the seed.
"""

from __future__ import annotations

import pytest

from engine.contract import IllegalActionError
from engine.vaevictis import combat
from engine.vaevictis.odds import AttackPlan
from engine.vaevictis.state import GameState
from tests.vaevictis.combat_setups import act, mini_game, new_state, seed_for, verbs
from tests.vaevictis.gameplay import Table

DATA = mini_game()


def begin(placed: dict[str, int], attackers: tuple[str, ...], target: int, faces: list[int]) -> GameState:
    """A German normal attack begun with the dice pinned, stopped at the first decision."""
    state = new_state(DATA, placed)
    state.seed = seed_for(faces, state.rolls_made)
    combat.begin_attack(DATA, state, AttackPlan("german", "normal", attackers, (target,)))
    return state


# --- 7.4, 7.6 The defender's quality unit ------------------------------------------------------------------


def test_7_4_the_defender_chooses_his_quality_unit_and_it_takes_the_first_loss() -> None:
    # 30 against 6 + 12: 2:1; with us-b's quality (3) the modifier is 0: die 5 reads -/1.
    state = begin({"de-big": 403, "us-b": 303, "us-2-id": 303}, ("de-big",), 303, [5])
    assert state.pending[-1]["stage"] == "defender_supports"
    prompt = combat.pending_prompt(DATA, state)
    assert prompt.seat == "allied"
    assert {("choose_quality", "us-b"), ("choose_quality", "us-2-id")} <= verbs(DATA, state)
    act(DATA, state, "choose_quality", unit="us-b")  # nothing else to decide: the die is rolled
    record = state.pending[-1]
    assert record["assessment"]["defender_quality"] == "us-b"
    assert record["assessment"]["drm"] == 0  # quality 3 - 3, where the best (us-2-id, 4) gave -1
    assert ("take_loss", "us-2-id") not in verbs(DATA, state)
    act(DATA, state, "take_loss", unit="us-b")
    assert state.units["us-b"].steps == 1


def test_7_4_the_defender_may_only_choose_one_of_his_defending_units() -> None:
    state = begin({"de-big": 403, "us-b": 303, "us-2-id": 303, "us-c": 203}, ("de-big",), 303, [5])
    with pytest.raises(IllegalActionError) as caught:
        act(DATA, state, "choose_quality", unit="us-c")
    assert caught.value.rule == "7.4"


def test_7_4_without_a_choice_the_defender_keeps_his_best_quality() -> None:
    state = begin({"de-big": 403, "us-b": 303, "us-2-id": 303}, ("de-big",), 303, [5])
    act(DATA, state, "supports_done")
    assert state.pending[-1]["assessment"]["defender_quality"] == "us-2-id"


def test_7_4_a_single_defender_has_no_choice_to_make() -> None:
    state = begin({"de-big": 403, "us-b": 303}, ("de-big",), 303, [5])
    assert state.pending[-1]["stage"] == "defender"


# --- 7.4 The attacker's quality unit, through the game ----------------------------------------------------

CONTACT = {"hq-us-v": 101, "us-2-id": 203, "hq-de-1ss": 803, "de-peiper": 303, "de-hansen": 303}


def test_7_4_the_attacker_chooses_his_quality_unit() -> None:
    table = Table(placements=CONTACT)
    table.act("allied", "standing_orders", orders="no-defence-supports")
    table.act("german", "activate_general")
    table.act("german", "attack", kind="normal", attackers="de-peiper,de-hansen", target="0203", quality="de-hansen")
    record = table.state.pending[-1]
    assert record["assessment"]["attacker_quality"] == "de-hansen"


def test_7_4_the_attacker_names_one_of_his_attackers() -> None:
    table = Table(placements=CONTACT)
    table.act("german", "activate_general")
    table.refused(
        "german",
        "attack",
        "7.4",
        "not one of the attackers",
        kind="normal",
        attackers="de-peiper",
        target="0203",
        quality="de-hansen",
    )


def test_7_4_the_standing_order_no_defence_supports_keeps_the_best_quality() -> None:
    table = Table(placements={**CONTACT, "us-3-id": 203})
    table.act("allied", "standing_orders", orders="no-defence-supports")
    table.act("german", "activate_general")
    table.act("german", "attack", kind="normal", attackers="de-peiper,de-hansen", target="0203")
    record = table.state.pending[-1]
    assert record["stage"] != "defender_supports"
    assert record["assessment"]["defender_quality"] in ("us-2-id", "us-3-id")


# --- 15.3 Nuts! at the start of a German attack -------------------------------------------------------------


def test_15_3_nuts_window_opens_at_a_german_attack_even_without_supports_to_add() -> None:
    table = Table(placements={"us-2-id": 203, "hq-de-1ss": 803, "de-peiper": 303})
    assert table.unit("hq-us-v").supports == [] and table.state.air_missions.get("allied", 0) == 0
    table.act("german", "activate_general")
    table.act("german", "attack", kind="normal", attackers="de-peiper", target="0203")
    record = table.state.pending[-1]
    assert record["stage"] == "defender_supports" and "die" not in record
    prompts = table.game.prompts(table.state)
    assert "play_event" in prompts["allied"].free_verbs
    table.act("allied", "play_event", event="nuts", hex="0203")
    table.act("allied", "supports_done")
    assessment = table.state.pending[-1]["assessment"]
    assert assessment["defender_quality"] == "us-2-id"
    quality = next(d for d in assessment["drm_detail"] if d["rule"] == "7.4")
    assert DATA.units["us-2-id"].quality == 4 and "less quality 5" in quality["reason"]  # +1 for Nuts!


def test_15_3_no_window_once_nuts_is_played_and_nothing_is_left_to_decide() -> None:
    table = Table(placements={"us-2-id": 203, "hq-de-1ss": 803, "de-peiper": 303})
    table.state.events_left["nuts"] = 0
    table.act("german", "activate_general")
    table.act("german", "attack", kind="normal", attackers="de-peiper", target="0203")
    assert table.state.pending[-1]["stage"] != "defender_supports"


# --- 7.7.1 Retreat through an enemy ZoC -------------------------------------------------------------------


def _surrounded() -> dict[str, int]:
    # us-2-id at 0303 attacked from 0403; every hex around it is in German ZoC (de-vg 0202, de-hansen 0205).
    return {"de-big": 403, "de-vg": 202, "de-hansen": 205, "us-2-id": 303}


def test_7_7_1_the_retreat_choice_says_an_enemy_zoc_hex_costs_a_step_before_it_is_chosen() -> None:
    state = begin(_surrounded(), ("de-big",), 303, [5])  # 3:1, die 5 - 1 = 4: -/1
    retreats = [c for c in combat.pending_prompt(DATA, state).choices if c.verb == "retreat"]
    assert retreats and all("enemy ZoC: costs a step" in c.label for c in retreats)


def test_7_7_1_the_result_line_counts_the_steps_lost_in_retreat() -> None:
    state = begin(_surrounded(), ("de-big",), 303, [6])  # 3:1, die 6 - 1 = 5: 1/2
    events = act(DATA, state, "retreat", to=203)
    retreat = next(e for e in events if e.kind == "retreat")
    assert "step lost" not in retreat.text and "a step to lose" in retreat.text
    act(DATA, state, "take_loss", unit="us-2-id")
    prompt = combat.pending_prompt(DATA, state)
    assert prompt.seat == "allied" and "1 step lost so far" in prompt.text, prompt.text
