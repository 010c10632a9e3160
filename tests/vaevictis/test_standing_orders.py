"""Standing orders answer the non-active player's combat prompts in advance (DESIGN.md; issue 3)."""

from __future__ import annotations

from tests.vaevictis.gameplay import Table

CONTACT = {"hq-us-v": 101, "us-2-id": 203, "hq-de-1ss": 803, "de-peiper": 303, "de-hansen": 303}


def attack(table: Table) -> None:
    table.act("german", "activate_general")
    table.act("german", "attack", kind="normal", attackers="de-peiper,de-hansen", target="0203")


def test_without_standing_orders_a_person_decides_the_combat_result() -> None:
    table = Table(placements=CONTACT)
    attack(table)
    assert table.state.pending
    assert not any(e.kind == "standing-order" for e in table.events)


def test_standing_orders_answer_every_combat_prompt_they_cover() -> None:
    table = Table(placements=CONTACT)
    table.act("allied", "standing_orders", orders="no-defence-supports,take-losses")
    table.act("german", "standing_orders", orders="take-losses,no-advance,keep-rolls")
    attack(table)
    assert any(e.kind == "standing-order" for e in table.events)
    assert not table.state.pending  # the combat resolved without a person
    assert table.game.prompts(table.state)["german"].rule == "3.4"  # back to the activation


def test_standing_orders_may_be_set_out_of_turn_and_unknown_ones_are_refused() -> None:
    table = Table(placements=CONTACT)
    table.act("allied", "standing_orders", orders="no-advance")
    assert table.state.standing_orders["allied"] == ["no-advance"]
    table.refused("allied", "standing_orders", None, "unknown standing order(s) surrender", orders="surrender")
    table.act("allied", "standing_orders", orders="")
    assert table.state.standing_orders["allied"] == []
