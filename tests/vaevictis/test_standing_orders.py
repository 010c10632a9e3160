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


def test_7_7_1_the_standing_order_retreat_takes_the_retreat_that_loses_least() -> None:
    """[7.7.1, 7.4] ``retreat`` takes a hex out of enemy zones of control before one in them (a step a hex),
    and between free hexes the one whose terrain shelters a defender most; where every retreat enters an enemy
    zone of control, a person decides (the step is lost either way, and retreating gives up the hex too)."""
    from engine.contract import Choice
    from engine.vaevictis import zoc
    from engine.vaevictis.odds import defender_terrain_shifts
    from engine.vaevictis.state import Position

    table = Table(placements=CONTACT)
    game, state = table.game, table.state
    grid = game.data.map.grid
    controlled = set(zoc.enemy_zoc(Position(game.data, state), "allied"))
    near = [h for h in grid.neighbours(203) if not any(u.hex == h for u in state.units.values())]
    free = [h for h in near if h not in controlled]
    held = [h for h in near if h in controlled]
    assert free and held

    def retreat(to: int) -> Choice:
        return Choice("retreat", {"to": to, "units": "us-2-id"}, f"Retreat to {to}")

    loss = Choice("take_loss", {"unit": "us-2-id"}, "loses a step")
    chosen = game._standing_choice(state, "allied", ["retreat"], (loss, retreat(held[0]), retreat(free[0])))
    assert chosen is not None and chosen.args["to"] == free[0]
    assert game._standing_choice(state, "allied", ["retreat"], (loss, retreat(held[0]))) is None
    shelter = {h: sum(m.amount for m in defender_terrain_shifts(game.data, h, "allied")) for h in free}
    best = min(free, key=lambda h: shelter[h])
    chosen = game._standing_choice(state, "allied", ["retreat"], tuple(retreat(h) for h in reversed(free)))
    assert chosen is not None and shelter[int(str(chosen.args["to"]))] == shelter[best]
