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


# --- What a second game of the system needs (issue 14) -----------------------------------------------------


def test_a_map_may_name_its_own_terrain_letters_overlays_regions_and_multi_hex_cities() -> None:
    docs = documents()
    game_map = docs["map.toml"]
    game_map["terrain"]["letters"] = {".": "clear", "r": "rough", "f": "forest"}
    game_map["overlay"] = [{"kind": "fort", "hexes": ["0304"]}]
    game_map["region"] = [{"name": "front", "hexes": ["0402", "0403"]}]
    game_map["place"][0] = {"name": "Alpha", "hexes": ["0203", "0204"], "kind": "city"}
    game_map["entry"]["german"].append({"hex": "0604", "interior": True})
    game_map["entry"]["allied"].append({"edge": "west", "from": 1, "to": 2})
    game_map["river"][0]["kind"] = "canal"
    docs["tables.toml"]["terrain"]["fort"] = {"infantry": "other", "mechanized": "other", "column_shift": -2}
    docs["tables.toml"]["crossing"]["canal"] = dict(docs["tables.toml"]["crossing"]["river"])
    data = build_game(docs)
    assert data.map.overlays["fort"] == {304} and data.map.overlays["westwall"] == {803}
    assert data.map.regions["front"] == (402, 403)
    assert data.map.is_city(203) and data.map.is_city(204) and data.map.place("Alpha").hexes == (203, 204)
    assert 604 in data.map.entry_hexes["german"] and {101, 102} <= data.map.entry_hexes["allied"]
    assert data.map.rivers[0].kind == "canal"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda d: d["map.toml"]["place"].__setitem__(
                0, {"name": "Alpha", "hexes": ["0203", "0205"], "kind": "city"}
            ),
            "the hexes of a city must each touch the previous one",
        ),
        (
            lambda d: d["map.toml"]["place"].__setitem__(
                1, {"name": "Bravo", "hexes": ["0603", "0604"], "kind": "village"}
            ),
            "only a city may cover several hexes",
        ),
        (
            lambda d: d["map.toml"]["river"][0].__setitem__("kind", "uncrossable"),
            "an uncrossable river has no bridges",
        ),
        (lambda d: d["map.toml"]["river"][0].__setitem__("kind", "stream"), "'kind' is 'stream'"),
        (
            lambda d: d["map.toml"]["terrain"].__setitem__("letters", {".": "clear", "f": "forest"}),
            "unknown terrain letter 'r'",
        ),
        (
            lambda d: unit(d, "us-2-id").update(steps=2, strength=6, reduced_strength=6),
            "reduced strength 6 must be below the full 6",
        ),
        (
            lambda d: unit(d, "us-2-id").__setitem__("reduced_strength", 2),
            "only a two-step counter has a reduced strength",
        ),
        (lambda d: unit(d, "us-2-id").__setitem__("combat_command", "cc1"), "has 1 counters; a CC has three"),
        (
            lambda d: d["setup.toml"]["turn"][1].pop("weather"),
            "give every turn a weather, or none",
        ),
        (
            lambda d: d["setup.toml"]["setup"][1].__setitem__("region", "nowhere"),
            "region 'nowhere' is not in the map",
        ),
        (
            lambda d: d["setup.toml"].__setitem__("activation_limit", [{"units": ["us-9-id"]}]),
            "unit 'us-9-id' is not in the counters file",
        ),
        (
            lambda d: d["scenarios.toml"]["scenario"][0]["victory"].append(
                {"kind": "reached-region", "side": "allied", "when": "end", "result": "allied", "region": "nowhere"}
            ),
            "region 'nowhere' is not in the map",
        ),
        (
            lambda d: d["scenarios.toml"]["scenario"][0]["victory"].append(
                {
                    "kind": "hold-places",
                    "side": "allied",
                    "when": "end",
                    "result": "allied",
                    "places": ["Zulu"],
                    "count": 1,
                }
            ),
            "victory place 'Zulu' is not on the map",
        ),
        (
            lambda d: d["scenarios.toml"]["scenario"][0]["victory"].append(
                {"kind": "hold-overlay", "side": "allied", "when": "end", "result": "allied", "overlay": "fort"}
            ),
            "overlay 'fort' is not on the map",
        ),
        (lambda d: d["tables.toml"]["terrain"].pop("forest"), "[terrain.forest]: missing: the map uses this terrain"),
        (lambda d: d["tables.toml"]["c3i"].pop("C"), "[c3i]: needs ratings A, B and C"),
    ],
)
def test_the_new_entries_are_checked(change: Callable[[Docs], None], expected: str) -> None:
    found = problems_after(change)
    assert any(expected in problem for problem in found), found


def test_a_game_without_weather_c3i_or_snafu_tables_loads() -> None:
    docs = documents()
    for turn in docs["setup.toml"]["turn"]:
        turn.pop("weather")
    docs["tables.toml"].pop("c3i")
    docs["tables.toml"].pop("snafu")
    data = build_game(docs)
    assert all(t.weather is None for t in data.turns) and not data.tables.c3i and not data.tables.snafu


def test_support_markers_are_those_of_the_charts() -> None:
    docs = documents()
    docs["tables.toml"]["support"]["flak88"] = {"side": "german", "column_shift": 2, "kept_on": [1], "category": "x"}
    docs["setup.toml"]["support"][1]["markers"]["flak88"] = 1
    assert build_game(docs).support[1].markers["flak88"] == 1
