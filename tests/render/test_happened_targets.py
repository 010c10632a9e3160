"""What just happened: an attack on several hexes (7.2) marks each of them."""

from __future__ import annotations

from engine.contract import Event
from render.happened import happenings


def test_an_attack_on_two_hexes_marks_both_targets() -> None:
    events = [
        Event(
            "combat",
            "Combat at 0203, 0204",
            {"plan": {"side": "german", "attackers": ["a"], "targets": [203, 204], "target": 203}, "result": "1/2"},
        )
    ]
    found = happenings(events, {"a": 303}, side_of=lambda _: "german", label_of=lambda u: u)
    assert sorted(mark.target for mark in found.attacks) == [203, 204]
    assert all(mark.result == "1/2" for mark in found.attacks)
