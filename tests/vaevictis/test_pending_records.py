"""The types of the pending records describe the records the engine keeps (issue 36): over seeded random games
of both Vae Victis games, every record on ``state.pending``, and every record nested in it, has each key its
``TypedDict`` requires, no key it does not name, and a value of the named kind (a stage among the
``Literal`` stage names). The stored form is the game state's JSON; ``test_engine_digests`` keeps it unchanged.
"""

from __future__ import annotations

import types
from typing import Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.pending_records import CombatRecord, ReactionRecord, StackingRecord
from engine.vaevictis.state import GameState
from tests.vaevictis.record_engine_digests import GAMES, key, play

RECORDS: dict[str, Any] = {"combat": CombatRecord, "reaction": ReactionRecord, "stacking": StackingRecord}


def mismatches(value: Any, hint: Any, where: str) -> list[str]:
    """Where ``value`` departs from the type ``hint`` (TypedDicts key by key, lists, dicts, literals, unions)."""
    if hint is Any:
        return []
    if is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not a record"]
        # Read from the annotations: ``__required_keys__`` cannot see NotRequired in postponed annotations (3.11).
        required = {k for k, v in get_type_hints(hint, include_extras=True).items() if get_origin(v) is not NotRequired}
        hints = get_type_hints(hint)
        found = [f"{where}: missing {k!r}" for k in sorted(required - set(value))]
        found += [f"{where}: unknown key {k!r}" for k in sorted(set(value) - set(hints))]
        for k, v in value.items():
            if k in hints:
                found += mismatches(v, hints[k], f"{where}.{k}")
        return found
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType):
        arms = [mismatches(value, arm, where) for arm in args]
        return [] if any(not arm for arm in arms) else [f"{where}: {value!r} is none of {hint}"]
    if origin is Literal:
        return [] if value in args else [f"{where}: {value!r} is not one of {args}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        return [m for i, item in enumerate(value) for m in mismatches(item, args[0], f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not a dict"]
        return [m for k, item in value.items() for m in mismatches(item, args[1], f"{where}[{k!r}]")]
    if hint is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if hint is int and isinstance(value, bool):
        return [f"{where}: {value!r} is a bool, not an int"]
    return [] if isinstance(value, hint) else [f"{where}: {value!r} is not a {hint.__name__}"]


@pytest.mark.parametrize("game", [GAMES[1], GAMES[3]], ids=lambda g: key(*g))
def test_pending_records_have_the_keys_their_types_name(game: tuple[str, str, dict[str, bool], int, int]) -> None:
    seen: dict[str, set[str]] = {}

    def check(_: VaeVictisGame, state: GameState) -> None:
        for index, record in enumerate(state.pending):
            assert record["kind"] in RECORDS, record
            seen.setdefault(record["kind"], set()).add(str(record.get("stage", "")))
            assert mismatches(record, RECORDS[record["kind"]], f"pending[{index}]") == []

    play(*game, check=check)
    assert {"defender", "advance"} <= seen["combat"], seen  # the check saw combats taking results and advancing


def test_a_misplaced_key_is_found() -> None:
    """The check itself: a misspelt key, a missing one and a stage that does not exist are reported."""
    record = {"kind": "stacking", "side": "german", "hexes": [1817], "hexs": []}
    assert mismatches(record, StackingRecord, "r") == ["r: unknown key 'hexs'"]
    assert mismatches({"kind": "stacking", "side": "german"}, StackingRecord, "r") == ["r: missing 'hexes'"]
    assert mismatches("resolve", get_type_hints(CombatRecord)["stage"], "stage") != []
