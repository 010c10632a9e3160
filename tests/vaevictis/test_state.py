"""The game state: JSON round trip and copies that share nothing mutable."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from engine.vaevictis.state import Activation, GameState, MapMarker, UnitState

MUTABLE = (list, dict, set)


def busy_state() -> GameState:
    state = GameState(game="g", scenario="s", options={"fog_of_war": True}, seed="00")
    state.units["a"] = UnitState(id="a", hex=101, steps=2, supports=["artillery"])
    state.pools["army"] = {"artillery": 1}
    state.returning["army"] = {"tank": 1}
    state.markers.append(MapMarker("roadblock", 202, "allied", 1))
    state.activation = Activation("german", "general", None, ["a"], 3)
    state.pending.append({"kind": "combat", "nested": {"list": [1]}})
    state.flags["phase_done"] = ["air"]
    state.arrivals["b"] = 3
    state.result = {"winner": "german"}
    return state


def test_copy_shares_no_mutable_container() -> None:
    state = busy_state()
    twin = state.copy()
    assert twin.to_json() == state.to_json()

    def check(a: Any, b: Any, path: str) -> None:
        if isinstance(a, MUTABLE):
            assert a is not b, f"{path} is shared between a state and its copy"
        if isinstance(a, dict):
            for key in a:
                check(a[key], b[key], f"{path}.{key}")
        elif isinstance(a, list):
            for index, (x, y) in enumerate(zip(a, b, strict=True)):
                check(x, y, f"{path}[{index}]")
        elif hasattr(a, "__dataclass_fields__"):
            assert a is not b, f"{path} is shared"
            for field in fields(a):
                check(getattr(a, field.name), getattr(b, field.name), f"{path}.{field.name}")

    check(state, twin, "state")


def test_json_round_trip() -> None:
    state = busy_state()
    assert GameState.from_json(state.to_json()).to_json() == state.to_json()
