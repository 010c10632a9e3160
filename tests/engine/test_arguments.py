"""engine/arguments.py: every system reads an action's arguments here and refuses a malformed one in one
wording, without a rule (the rules cite theirs when they forbid a well-formed argument)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import arguments
from engine.contract import IllegalActionError, InvalidActionError
from engine.hexgrid import Grid

GRID = Grid(columns=20, rows=20)


def refusal(read: Any, *args: Any) -> InvalidActionError:
    with pytest.raises(InvalidActionError) as raised:
        read(*args)
    assert not isinstance(raised.value, IllegalActionError)  # a malformed argument is no rule's refusal
    return raised.value


def test_text_strips_and_reads_numbers_as_digits() -> None:
    assert arguments.text({"unit": " 2-116 "}, "unit") == "2-116"
    assert arguments.text({"steps": 2}, "steps") == "2"
    assert arguments.text({"hours": 12.0}, "hours") == "12.0"  # a slash command's number option
    assert arguments.text({}, "kind", default="tactical") == "tactical"


@pytest.mark.parametrize("args", [{}, {"unit": ""}, {"unit": "  "}, {"unit": None}])
def test_text_refuses_a_missing_argument_in_one_wording(args: dict[str, Any]) -> None:
    assert str(refusal(arguments.text, args, "unit")) == "missing argument 'unit' (text)"


@pytest.mark.parametrize("value", [True, ["a"], {"a": 1}])
def test_text_refuses_what_is_not_text(value: Any) -> None:
    assert str(refusal(arguments.text, {"unit": value}, "unit")) == f"argument 'unit' must be text, not {value!r}"


def test_optional_text_is_none_when_absent_or_empty() -> None:
    assert arguments.optional_text({}, "also") is None
    assert arguments.optional_text({"also": " "}, "also") is None
    assert arguments.optional_text({"also": "7-pz"}, "also") == "7-pz"


def test_names_reads_lists_and_comma_separated_text() -> None:
    assert arguments.names({"units": "a, b,,c "}, "units") == ["a", "b", "c"]
    assert arguments.names({"units": ["a", " b"]}, "units") == ["a", "b"]
    assert arguments.names({}, "units", required=False) == []
    assert str(refusal(arguments.names, {}, "units")) == "missing argument 'units' (a comma-separated list)"
    assert (
        str(refusal(arguments.names, {"units": 3}, "units")) == "argument 'units' must be a comma-separated list, not 3"
    )


@pytest.mark.parametrize(("value", "read"), [(True, True), ("yes", True), (" 1 ", True), ("No", False), (False, False)])
def test_flag_reads_true_and_false(value: Any, read: bool) -> None:
    assert arguments.flag({"all": value}, "all") is read


def test_flag_refuses_anything_else() -> None:
    assert str(refusal(arguments.flag, {"all": "maybe"}, "all")) == "argument 'all' must be true or false, not 'maybe'"
    assert str(refusal(arguments.flag, {}, "all")) == "missing argument 'all' (true or false)"
    assert arguments.flag({}, "all", default=False) is False


def test_whole_reads_numbers_and_refuses_the_rest() -> None:
    assert arguments.whole({"steps": "3"}, "steps") == 3
    assert arguments.whole({"steps": 2}, "steps") == 2
    assert arguments.whole({"steps": 2.0}, "steps") == 2  # a slash command's number option
    assert arguments.whole({}, "steps", default=1) == 1
    assert str(refusal(arguments.whole, {}, "steps")) == "missing argument 'steps' (a whole number)"
    for value in ("two", True, 2.5):
        assert (
            str(refusal(arguments.whole, {"steps": value}, "steps"))
            == f"argument 'steps' must be a whole number, not {value!r}"
        )


def test_hex_number_reads_a_name_or_a_number_on_the_map() -> None:
    assert arguments.hex_number({"to": "0203"}, "to", GRID) == 203
    assert arguments.hex_number({"to": 1817}, "to", GRID) == 1817
    assert str(refusal(arguments.hex_number, {}, "to", GRID)) == "missing argument 'to' (a hex such as 1817)"
    assert (
        str(refusal(arguments.hex_number, {"to": True}, "to", GRID))
        == "argument 'to' must be a hex such as 1817, not True"
    )
    assert "hexes are four digits" in str(refusal(arguments.hex_number, {"to": "north"}, "to", GRID))
    assert str(refusal(arguments.hex_number, {"to": "2530"}, "to", GRID)) == "hex 2530 is not on the map"
    assert str(refusal(arguments.hex_on_map, 305 + 9900, GRID)) == "hex 10205 is not on the map"


def test_unknown_arguments_are_refused_with_what_the_action_takes() -> None:
    args = arguments.ReadArguments({"steps": "2", "stepz": "3"})
    assert arguments.whole(args, "steps") == 2
    message = str(refusal(arguments.refuse_unread, "detach", args))
    assert message == "unknown argument stepz (did you mean steps?): detach takes steps; nothing changed"


def test_a_misspelt_argument_is_named_even_when_the_rules_refused_first() -> None:
    args = arguments.ReadArguments({"stepz": "3", "note": "x"})
    assert arguments.optional_text(args, "steps") is None
    with pytest.raises(InvalidActionError, match="unknown argument stepz"):
        arguments.refuse_unread("detach", args, misspelt_only=True)
    quiet = arguments.ReadArguments({"zzz": "3"})
    arguments.optional_text(quiet, "steps")
    arguments.refuse_unread("detach", quiet, misspelt_only=True)  # close to nothing read: the rules decide


def test_arguments_read_wholesale_are_all_read() -> None:
    args = arguments.ReadArguments({"a": 1, "b": 2})
    assert dict(args) == {"a": 1, "b": 2}
    arguments.refuse_unread("any", args)
    assert arguments.ReadArguments({}).unread() == []


def test_optional_number_reads_a_number_or_nothing() -> None:
    assert arguments.optional_number({"at": "1700000000.5"}, "at") == 1700000000.5
    assert arguments.optional_number({"at": 12}, "at") == 12.0
    assert arguments.optional_number({}, "at") is None and arguments.optional_number({"at": ""}, "at") is None
    assert str(refusal(arguments.optional_number, {"at": "noon"}, "at")) == "argument 'at' must be a number, not 'noon'"
    assert str(refusal(arguments.optional_number, {"at": True}, "at")) == "argument 'at' must be a number, not True"
