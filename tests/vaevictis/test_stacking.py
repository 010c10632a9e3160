"""Stacking (5): the limit of 6 steps, which hexes break it, and the owner's choice of units to eliminate."""

from __future__ import annotations

import pytest

from engine.contract import IllegalActionError
from engine.vaevictis.stacking import eliminate_excess, overstacked_hexes, stacking_limit
from engine.vaevictis.state import Position
from tests.vaevictis.movement_setups import build, position


def test_5_the_limit_is_6_steps() -> None:
    assert stacking_limit(build()) == 6


def test_5_overstacked_hexes_counts_real_steps_and_an_hq_as_one() -> None:
    data = build()
    # 4 + 4 + 1 (HQ) = 9 steps in 0304: 3 too many; 0505 holds 3 + 3 = 6, within the limit.
    state = position(data, {"us-393": ("0304", 0), "us-394": ("0304", 0), "hq-us-v": ("0304", 0)})
    for unit_id in ("de-326", "de-272"):
        state.units[unit_id].hex = 505
    assert overstacked_hexes(Position(data, state), "allied") == {304: 3}
    assert overstacked_hexes(Position(data, state), "german") == {}
    state.units["us-394"].steps = 1  # a reduced unit counts what it has left
    assert overstacked_hexes(Position(data, state), "allied") == {}


def test_5_eliminate_excess_removes_the_chosen_units() -> None:
    data = build()
    state = position(data, {"us-393": ("0304", 0), "us-394": ("0304", 0), "hq-us-v": ("0304", 0)})
    events = eliminate_excess(state, data, 304, ["us-394"])
    unit = state.units["us-394"]
    assert unit.eliminated and unit.hex is None and unit.steps == 0
    assert events[0].kind == "eliminate" and events[0].data["units"] == ["us-394"]
    assert overstacked_hexes(Position(data, state), "allied") == {}


def test_5_eliminate_excess_refuses_a_choice_that_leaves_the_hex_overstacked() -> None:
    data = build()
    state = position(data, {"us-393": ("0304", 0), "us-394": ("0304", 0), "hq-us-v": ("0304", 0)})
    with pytest.raises(IllegalActionError) as caught:
        eliminate_excess(state, data, 304, ["hq-us-v"])
    assert caught.value.rule == "5" and "8 steps" in caught.value.reason
    assert not state.units["hq-us-v"].eliminated


def test_5_eliminate_excess_refuses_units_the_hex_could_keep() -> None:
    data = build()
    state = position(data, {"us-393": ("0304", 0), "us-394": ("0304", 0), "hq-us-v": ("0304", 0)})
    with pytest.raises(IllegalActionError) as caught:
        eliminate_excess(state, data, 304, ["us-394", "hq-us-v"])
    assert caught.value.rule == "5" and "V need not be eliminated" in caught.value.reason


def test_5_eliminate_excess_refuses_a_hex_within_the_limit_or_a_unit_elsewhere() -> None:
    data = build()
    state = position(
        data, {"us-393": ("0304", 0), "us-394": ("0304", 0), "hq-us-v": ("0304", 0), "us-ccb": ("0104", 0)}
    )
    with pytest.raises(IllegalActionError) as caught:
        eliminate_excess(state, data, 304, ["us-ccb", "us-394"])
    assert caught.value.rule == "5" and "not in 0304" in caught.value.reason
    with pytest.raises(IllegalActionError) as caught:
        eliminate_excess(state, data, 104, ["us-ccb"])
    assert caught.value.rule == "5" and "within the limit" in caught.value.reason
