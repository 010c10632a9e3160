"""The basing basket of the DM's menus says why a step is not added (1.1, 1.3) instead of ignoring it."""

from __future__ import annotations

from typing import Any, cast

from bot.systems.wargame_commander.sealed import _Basket


def basket() -> _Basket:
    items = [("a", "366fg@A92"), ("b", "367fg@A92"), ("c", "367fg@Y29")]
    made = _Basket(cast(Any, None), "allied", "basing", "f", items, {"366fg": 3, "367fg": 2})
    made.caps = {"A92": 2, "Y29": 4}
    return made


def test_1_3_a_squad_with_every_step_based_is_not_added_and_the_basket_says_why() -> None:
    chosen = [0, 1, 1]
    note = basket().change(chosen, 2, add=True)
    assert chosen == [0, 1, 1] and "every step of 367fg (2) is based already (1.3)" in note


def test_1_1_a_full_field_takes_no_more_squad_steps_and_the_basket_says_why() -> None:
    chosen = [1, 1, 0]
    note = basket().change(chosen, 0, add=True)
    assert chosen == [1, 1, 0] and "A92 holds 2 squad steps at most (1.1, 1.3)" in note
    assert basket().change(chosen, 2, add=True) == "" and chosen == [1, 1, 1]
