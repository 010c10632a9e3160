"""[3.4.2, 3.4.3] Free combination of actions within an activation, on the mini game."""

from __future__ import annotations

from tests.vaevictis.combat_setups import seed_for
from tests.vaevictis.gameplay import FRONT, Table

CONTACT = {"hq-us-v": 101, "us-2-id": 203, "hq-de-1ss": 803, "de-peiper": 303, "de-hansen": 303}


def test_3_4_2_a_unit_may_attack_twice_and_an_enemy_be_attacked_twice() -> None:
    table = Table(placements=CONTACT)
    table.act("allied", "standing_orders", orders="no-defence-supports,take-losses")
    table.act("german", "standing_orders", orders="take-losses,no-advance,keep-rolls")
    table.state.seed = seed_for([6, 6], table.state.rolls_made)  # two good rolls for the attacker
    table.act("german", "activate_general")
    table.act("german", "attack", kind="normal", attackers="de-peiper", target="0203")
    table.act("german", "attack", kind="normal", attackers="de-peiper", target="0203")
    assert len([e for e in table.events if e.kind == "combat"]) == 2
    assert table.unit("de-peiper").action_points == 1


def test_3_4_3_a_unit_of_a_stack_with_aps_left_goes_on_when_the_others_must_stop() -> None:
    table = Table(placements={"hq-us-v": 101, "us-2-id": 104, "hq-de-1ss": 803, "de-12-vg": 805, "de-hansen": 805})
    table.act("german", "activate_general")
    table.act("german", "enter_ip", unit="de-12-vg")
    table.act("german", "enter_ip", unit="de-hansen")
    table.act("german", "leave_ip", unit="de-12-vg")
    table.act("german", "leave_ip", unit="de-hansen")
    assert table.unit("de-12-vg").action_points == 1 and table.unit("de-hansen").action_points == 2
    table.act("german", "enter_ip", unit="de-12-vg")
    table.act("german", "leave_ip", unit="de-12-vg")
    assert table.unit("de-12-vg").action_points == 0
    table.refused("german", "move", "3.4.1", "no action point left", units="de-12-vg,de-hansen", to="0705")
    table.act("german", "move", units="de-hansen", to="0705")
    assert table.unit("de-hansen").hex == 705


def test_3_5_the_odds_preview_counts_the_fatigue_an_attacker_takes_as_it_joins_again() -> None:
    """[3.5, 7.5] An attacker already activated this turn is fatigued (3.5.1: halved) as the attack brings it
    into the activation: the preview's odds are the combat's, and the preview itself changes nothing."""
    table = Table(placements=CONTACT)
    table.act("german", "activate_general")
    table.set("de-peiper", activations=1)  # it took part in an earlier activation this turn
    before = table.state.to_json()
    shown = table.game.preview(table.state, "german", {"kind": "normal", "attackers": "de-peiper", "target": "0203"})
    assert table.state.to_json() == before
    assert "fatigued (3.5.1)" in shown.assessment.attackers_detail[0].halvings
    table.act("german", "attack", kind="normal", attackers="de-peiper", target="0203")
    events = table.act("allied", "supports_done")
    combat = next(e for e in events if e.kind == "combat")
    odds = shown.assessment
    assert combat.text.startswith(f"Combat at 0203: {odds.attack_total} against {odds.defence_total},")


def test_3_4_the_activation_offers_every_action_and_its_end_only_once_no_attack_is_owed() -> None:
    """[3.4, 3.4.2] Within an activation the player combines moves, attacks, Improved Positions and recovery
    as he likes; the activation's end is offered only when no unit owes an attack (4.2)."""
    table = Table(placements=FRONT)
    table.act("german", "activate_general")
    prompt = table.game.prompts(table.state)["german"]
    assert {"move", "attack", "enter_ip", "leave_ip", "recover", "end_activation"} <= set(prompt.free_verbs)
    assert [c.verb for c in prompt.choices] == ["end_activation"] and prompt.rule == "3.4"
    table.state.activation.units.append("de-12-vg")  # type: ignore[union-attr]
    table.set("de-12-vg", hex=304, must_attack=True, action_points=1)  # in the zone of 2nd and 3rd ID
    prompt = table.game.prompts(table.state)["german"]
    assert {c.verb for c in prompt.choices} == {"attack"}
    assert "12 VG must attack before the activation ends (4.2)" in prompt.text
