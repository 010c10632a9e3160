"""The loader accepts sound data and, on broken data, names the file, the entry and the problem."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.vaevictis.loader import ScenarioError, build_game
from tests.vaevictis.minigame import documents

Docs = dict[str, dict[str, Any]]


def problems_after(change: Callable[[Docs], None]) -> list[str]:
    docs = documents()
    change(docs)
    with pytest.raises(ScenarioError) as caught:
        build_game(docs)
    return caught.value.problems


def test_the_mini_game_loads() -> None:
    data = build_game(documents())
    assert data.map.is_city(203) and data.map.is_village(603)
    assert data.map.has_road(403, 503) and data.map.is_bridged(403, 503)
    assert data.map.river_between(404, 504) is not None and not data.map.is_bridged(404, 504)
    assert data.side_of("de-peiper") == "german" and data.nationality_of("us-2-id") == "us"
    assert data.map.terrain[104] == "clear" and data.map.terrain[304] == "forest" and data.map.terrain[401] == "forest"
    assert 803 in data.map.friendly_edges["german"] and 101 in data.map.friendly_edges["allied"]


def unit(docs: Docs, unit_id: str) -> dict[str, Any]:
    return next(u for u in docs["counters.toml"]["unit"] if u["id"] == unit_id)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda d: unit(d, "us-2-id").__setitem__("formation", "nowhere"),
            "counters.toml: unit 'us-2-id': formation 'nowhere' does not exist",
        ),
        (
            lambda d: unit(d, "us-2-id").__setitem__("strength", 9),
            "counters.toml: unit 'us-2-id': strength 9 leaves nothing on the last of 4 steps",
        ),
        (lambda d: unit(d, "us-2-id").__setitem__("quality", 7), "quality 7 is outside 1-6"),
        (lambda d: unit(d, "us-2-id").__setitem__("kind", "cavalry"), "'kind' is 'cavalry'; expected one of"),
        (lambda d: unit(d, "hq-us-v").pop("c3i"), "counters.toml: unit 'hq-us-v': an HQ needs a C3I rating"),
        (
            lambda d: d["counters.toml"]["formation"][0].__setitem__("hq", "us-2-id"),
            "counters.toml: formation 'us-v': HQ 'us-2-id' is not an HQ counter",
        ),
        (
            lambda d: d["map.toml"]["terrain"]["rows"].__setitem__(2, "..x....."),
            "map.toml: [terrain] hex 0303: unknown terrain letter 'x'",
        ),
        (lambda d: d["map.toml"]["terrain"]["rows"].__setitem__(5, "........"), "hex 0106 is off the map: use a space"),
        (
            lambda d: d["map.toml"]["road"][0]["hexes"].insert(1, "0505"),
            "road 'Main road': 0103 and 0505 are consecutive but not adjacent",
        ),
        (
            lambda d: d["map.toml"]["river"][0]["bridges"].clear(),
            "map.toml: road 'Main road': crosses the river between 0403 and 0503 without a bridge",
        ),
        (lambda d: d["map.toml"]["river"][0]["hexsides"].append(["0101", "0303"]), "0101 and 0303 are not adjacent"),
        (lambda d: d["map.toml"]["entry"]["allied"].append("0403"), "entry hex 0403 is not on a map edge (16.1)"),
        (lambda d: d["map.toml"]["place"][0].__setitem__("hex", "0907"), "hex 0907 is not on the map"),
        (lambda d: d["setup.toml"]["setup"][1].__setitem__("hex", "12"), "'12' is not a hex number"),
        (
            lambda d: d["setup.toml"]["setup"].append({"unit": "us-2-id", "hex": "0303"}),
            "setup.toml: unit 'us-2-id': is set up or arrives 2 times",
        ),
        (
            lambda d: d["setup.toml"]["reinforcement"][0].__setitem__("hexes", ["0103"]),
            "enters at 0103, which is not a german entry hex (16.1)",
        ),
        (
            lambda d: d["setup.toml"]["support"][0]["markers"].__setitem__("nebelwerfer", 1),
            "'nebelwerfer' is not a allied support marker",
        ),
        (
            lambda d: d["scenarios.toml"]["scenario"][0]["victory"][0].__setitem__("cities", ["Bravo"]),
            "victory city 'Bravo' is a village, not a city",
        ),
        (
            lambda d: d["scenarios.toml"]["scenario"][0].__setitem__("turns", 5),
            "lasts 5 turns but the turn track has 2",
        ),
        (lambda d: d["tables.toml"]["crt"]["rows"][3].__setitem__(4, "1-1"), "[crt]: cell row 3 column 2:1 is '1-1'"),
        (lambda d: d["tables.toml"]["crt"]["rows"].pop(), "has 8 rows; the CRT has rows 0 to 8"),
        (lambda d: d["counters.toml"]["unit"][1].__setitem__("colour", "red"), "unknown key 'colour'"),
        (lambda d: d["map.toml"]["terrain"].__setitem__("westwal", []), "map.toml: [terrain]: unknown key 'westwal'"),
        (lambda d: d["map.toml"].__setitem__("westwall", ["0803"]), "map.toml: (top level): unknown key 'westwall'"),
    ],
)
def test_a_broken_entry_is_named_with_its_file_and_problem(change: Callable[[Docs], None], expected: str) -> None:
    found = problems_after(change)
    assert any(expected in problem for problem in found), found


def test_stacking_over_six_steps_in_the_setup_is_refused() -> None:
    def overstack(docs: Docs) -> None:
        docs["counters.toml"]["unit"].append(
            {
                "id": "us-3-id",
                "name": "3",
                "formation": "us-v",
                "kind": "infantry",
                "size": "XX",
                "steps": 3,
                "strength": 9,
                "quality": 3,
            }
        )
        docs["setup.toml"]["setup"].append({"unit": "us-3-id", "hex": "0203"})

    assert any("hex 0203: sets up 7 steps; the limit is 6 (5)" in p for p in problems_after(overstack))


def test_every_problem_is_reported_at_once() -> None:
    def break_two(docs: Docs) -> None:
        unit(docs, "us-2-id")["quality"] = 0
        unit(docs, "de-peiper")["steps"] = 0

    assert len(problems_after(break_two)) >= 2


def test_a_missing_file_is_named() -> None:
    assert any(p.startswith("setup.toml: (file): missing file") for p in problems_after(lambda d: d.pop("setup.toml")))
