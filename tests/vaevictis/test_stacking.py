"""Stacking (5): the limit of 6 steps, which hexes break it, and the owner's choice of units to eliminate."""

from __future__ import annotations

import pytest

from engine.contract import IllegalActionError, InvalidActionError
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


def test_5_each_sides_overstacked_hexes_are_found_wherever_the_other_side_stands() -> None:
    data = build()
    state = position(data, {"us-393": ("0304", 0), "us-394": ("0304", 0), "hq-us-v": ("0304", 0)})
    for unit_id in ("de-326", "de-272", "de-peiper"):
        state.units[unit_id].hex = 505  # 3 + 3 + 2 = 8 steps
    state.units["us-ccb"].hex, state.units["de-116"].hex = 101, 1201  # a lone unit of each side elsewhere
    assert overstacked_hexes(Position(data, state), "allied") == {304: 3}
    assert overstacked_hexes(Position(data, state), "german") == {505: 2}


def test_5_a_hex_of_exactly_6_steps_has_nothing_to_eliminate() -> None:
    data = build()
    state = position(data, {"us-393": ("0304", 0), "us-cav": ("0304", 0)})
    with pytest.raises(IllegalActionError) as caught:
        eliminate_excess(state, data, 304, ["us-cav"])
    assert caught.value.rule == "5" and "holds 6 steps, within the limit of 6" in caught.value.reason


def test_5_an_elimination_may_leave_exactly_6_steps_and_no_more_units_than_needed() -> None:
    data = build()
    state = position(data, {"us-393": ("0304", 0), "us-394": ("0304", 0), "us-cav": ("0304", 0)})  # 10 steps
    with pytest.raises(IllegalActionError) as caught:
        eliminate_excess(state, data, 304, ["us-394", "us-cav"])
    assert caught.value.rule == "5" and "14 Cav need not be eliminated" in caught.value.reason
    events = eliminate_excess(state, data, 304, ["us-394"])
    assert events[0].text == "394/99 eliminated: 0304 held 10 steps, more than 6 (5)"
    assert overstacked_hexes(Position(data, state), "allied") == {}


def test_5_the_words_of_a_refused_elimination_name_every_unit_chosen() -> None:
    data = build()
    placed = {"us-393": ("0304", 0), "us-394": ("0304", 0), "us-cav": ("0304", 0), "hq-us-v": ("0304", 0)}
    state = position(data, placed)
    with pytest.raises(IllegalActionError) as caught:
        eliminate_excess(state, data, 304, ["hq-us-v", "us-cav"])
    assert (
        caught.value.reason
        == "eliminating V and 14 Cav leaves 8 steps in 0304, more than the 6 allowed: choose more units"
    )
    with pytest.raises(InvalidActionError, match=r"^a unit is named twice$"):
        eliminate_excess(state, data, 304, ["us-cav", "us-cav"])
    with pytest.raises(InvalidActionError, match="there is no unit 'ghost'"):
        eliminate_excess(state, data, 304, ["ghost"])
