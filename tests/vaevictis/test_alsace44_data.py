"""Alsace 1944 as data: every hex the rules name exists and fits, the lists of 19.2 and 19.4 are complete.

These tests read the real files in scenarios/alsace44/. Figures quoted from the rules are the document's
(0.2 erratum, 10.2, 16, 19.1, 19.2, 19.4, the charts); the rebuilt figures (counter values, terrain) are
checked for consistency only.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.hexgrid import Grid, column
from engine.vaevictis.data import GameData, VictoryCondition
from engine.vaevictis.loader import flat_conditions
from engine.vaevictis.stratagems import commando_ids
from scenarios import load_game


@pytest.fixture(scope="module")
def data() -> GameData:
    return load_game("alsace44")


# --- The map -----------------------------------------------------------------------------------------------

PRINTED_HEXES = {
    "Belfort": (1110, 1109),
    "Mulhouse": (2506, 2505, 2606),
    "Montbéliard": (915,),
    "Sochaux": (1015,),
    "Chalampé": (3103,),
    "Huningue": (3312,),
    "Sainte-Marie": (616,),
}
FORTS = {812, 816, 1010, 1011, 1110, 1112, 1209, 1210, 1211, 1212}
FRONT_LINE_POINTS = (901, 903, 605, 609, 310, 314, 415, 418, 820, 1120)


def test_map_is_34_columns_with_odd_columns_lower(data: GameData) -> None:
    grid = data.map.grid
    assert (grid.columns, grid.rows, grid.lower_columns) == (34, 22, "odd")
    # Row 21 is used in both parities by 19.2 (0821, 0921, 1021, 1121).
    assert all(grid.contains(h) for h in (821, 921, 1021, 1121, 3412, 1701, 701))


@pytest.mark.parametrize(("name", "hexes"), PRINTED_HEXES.items())
def test_the_places_the_rules_print_are_at_their_hexes(data: GameData, name: str, hexes: tuple[int, ...]) -> None:
    place = data.map.place(name)
    assert place.hexes == hexes


def test_0_2_erratum_sainte_marie_is_the_village_in_0616(data: GameData) -> None:
    assert data.map.settlements[616].name == "Sainte-Marie"
    assert data.map.is_village(616)


@pytest.mark.parametrize("city", ["Belfort", "Mulhouse", "Montbéliard", "Sochaux"])
def test_19_1_19_2_victory_towns_are_cities_on_every_hex(data: GameData, city: str) -> None:
    place = data.map.place(city)
    assert place.kind == "city"
    assert all(data.map.is_city(h) for h in place.hexes)


def test_12_3_19_2_the_ten_forts_are_printed_on_their_hexes(data: GameData) -> None:
    assert data.map.overlays["fort"] == FORTS
    assert "fort" in data.map.overlays_at(1110) and data.map.is_city(1110)


def test_every_terrain_of_the_chart_is_on_the_map(data: GameData) -> None:
    kinds = set(Counter(data.map.terrain.values()))
    assert kinds == {"clear", "difficult", "forest", "mountain", "switzerland"}
    assert data.map.overlays["factory"]
    for name in [*kinds, "fort", "factory", "village", "city", "road"]:
        assert name in data.tables.raw["terrain"], name


@pytest.mark.parametrize(
    "river", ["Rhine", "Doubs", "Ill", "Allaine", "Savoureuse", "Rhone-Rhine Canal", "Doller", "Thur", "Largue"]
)
def test_the_rivers_and_canals_are_there(data: GameData, river: str) -> None:
    assert any(r.name == river and r.hexsides for r in data.map.rivers)


def test_the_rhine_is_uncrossable_and_unbridged_and_chalampe_and_huningue_are_on_it(data: GameData) -> None:
    rhine = next(r for r in data.map.rivers if r.name == "Rhine")
    assert rhine.kind == "uncrossable" and not rhine.bridges
    for town in (3103, 3312):
        assert any(data.map.river_between(town, n) is rhine for n in data.map.grid.neighbours(town)), town
    canals = [r for r in data.map.rivers if r.kind == "canal"]
    assert {r.name for r in canals} == {"Rhone-Rhine Canal", "Huningue Canal"}


def test_switzerland_closes_the_south_east_and_no_road_enters_it(data: GameData) -> None:
    swiss = {h for h, t in data.map.terrain.items() if t == "switzerland"}
    assert 1520 in swiss and 2520 in swiss and 3321 in swiss
    assert not swiss & data.map.road_hexes
    assert data.tables.raw["terrain"]["switzerland"]["retreat_eliminates"]


def test_every_road_crossing_of_a_river_or_canal_is_bridged(data: GameData) -> None:
    for road in data.map.roads:
        for a, b in road.links:
            river = data.map.river_between(a, b)
            assert river is None or data.map.is_bridged(a, b), (road.name, a, b)


def test_the_front_line_of_19_2_parts_the_two_set_ups(data: GameData) -> None:
    line = data.map.regions["front line"]
    assert set(FRONT_LINE_POINTS) <= set(line)
    west = set(data.map.regions["west of the front line"])
    for placement in data.setup:
        side = data.side_of(placement.unit)
        assert (placement.hex in west) == (side == "allied"), placement


def test_odd_columns_lower_put_the_set_ups_in_contact_along_the_front(data: GameData) -> None:
    # The reasoning of docs/rules/alsace44-map.md, "The grid", as a check: with odd columns lower, German
    # and French stacks touch in more places than with even columns lower, and the 9e DIC's stacks at 0821
    # and 1021 both touch II/757 at 0920.
    german = {p.hex for p in data.setup if data.side_of(p.unit) == "german"}
    french = {p.hex for p in data.setup if data.side_of(p.unit) == "allied"}

    def contacts(grid: Grid) -> int:
        return sum(1 for g in german for f in french if grid.are_adjacent(g, f))

    assert contacts(Grid(34, 22, "odd")) > contacts(Grid(34, 22, "even"))
    assert data.map.grid.are_adjacent(920, 821) and data.map.grid.are_adjacent(920, 1021)


def test_10_2_board_edges(data: GameData) -> None:
    german, french = data.map.friendly_edges["german"], data.map.friendly_edges["allied"]
    assert {1701, 3401, 3412} <= german and 1601 not in german and 3413 not in german
    assert {701, 101, 121, 1121} <= french and 801 not in french
    assert not any(column(h) > 11 and data.map.grid.last_row(column(h)) == h % 100 for h in french)


def test_entry_places_of_19_2(data: GameData) -> None:
    german = data.map.entry_hexes["german"]
    assert {3103, 2201, 2601} <= german
    assert not data.map.grid.is_on_edge(3103)  # Chalampé: an entry inside the map
    assert set(data.map.regions["north or north-east of Mulhouse"]) <= german
    assert set(data.map.regions["French entry edges"]) <= data.map.entry_hexes["allied"]


def test_the_northern_exit_roads_are_road_hexes_on_the_north_edge(data: GameData) -> None:
    exits = data.map.regions["northern exit roads"]
    assert exits == (2101, 2201, 2601, 3101)  # the translator prints 3102, one row short of the edge
    assert all(h in data.map.road_hexes and h % 100 == 1 for h in exits)


# --- The counters ------------------------------------------------------------------------------------------


def test_every_formation_has_its_hq_and_every_unit_its_formation(data: GameData) -> None:
    for formation in data.formations.values():
        if not formation.independent:
            assert formation.hq is not None and data.units[formation.hq].kind == "hq"
    for unit in data.units.values():
        assert unit.formation in data.formations


def test_0_4_each_combat_command_is_three_counters(data: GameData) -> None:
    ccs = Counter((u.formation, u.combat_command) for u in data.units.values() if u.combat_command)
    assert set(ccs.values()) == {3}
    assert {cc for _f, cc in ccs} == {"cc1", "cc2", "cc3", "cc4", "cc5", "cc6"}


def test_1_2_one_or_two_steps_with_printed_reduced_values(data: GameData) -> None:
    for unit in data.units.values():
        if unit.kind in ("hq", "strongpoint", "garrison"):
            assert unit.steps == 1 and unit.reduced_strength is None, unit.id
        else:
            assert unit.steps == 2 and unit.reduced_strength is not None, unit.id
            assert 0 < unit.reduced_strength < unit.strength, unit.id


def test_reconstructed_figures_are_marked(data: GameData) -> None:
    printed = set(commando_ids(data))  # [15.3] the Raid's commando: its figures are in the text
    for unit in data.units.values():
        if unit.kind != "hq" and unit.id not in printed:
            assert {"strength", "quality"} <= set(unit.reconstructed), unit.id
    assert any(u.armored_superiority for u in data.units.values())


def test_1_1_the_french_are_a_new_nationality_one_army_and_pool_per_side(data: GameData) -> None:
    assert sorted((a.side, a.nationality) for a in data.armies.values()) == [("allied", "french"), ("german", "german")]


# --- The set-up --------------------------------------------------------------------------------------------


def test_every_counter_sets_up_arrives_or_waits_in_a_pool(data: GameData) -> None:
    placed = Counter(p.unit for p in data.setup)
    arriving = Counter(u for r in data.reinforcements for u in r.units)
    pool = set(data.extra["garrisons"]["pool"])
    variant_only = {"de-i-489", "de-ii-489", "de-aufkl-269", "de-feb-269"}
    raids = set(commando_ids(data))  # [15.3] placed by a successful Raid only
    for unit_id in set(data.units) - raids:
        total = placed[unit_id] + arriving[unit_id]
        assert total == (0 if unit_id in pool | variant_only else 1), unit_id


def test_19_2_set_up_stacks_within_six_steps_and_one_side_per_hex(data: GameData) -> None:
    steps: Counter[int] = Counter()
    for p in data.setup:
        steps[p.hex] += data.units[p.unit].steps
    for h in data.extra["garrisons"]["hexes"]:
        steps[int(h)] += 1
    assert max(steps.values()) <= 6


def test_16_19_2_twelve_garrisons_from_a_larger_pool(data: GameData) -> None:
    garrisons = data.extra["garrisons"]
    assert sorted(int(h) for h in garrisons["hexes"]) == sorted(FORTS | {3103, 3312})
    assert len(garrisons["pool"]) > len(garrisons["hexes"])
    assert all(data.units[u].kind == "garrison" for u in garrisons["pool"])


def test_19_2_strongpoints_six_fixed_and_six_placed_within_five_hexes_of_the_front(data: GameData) -> None:
    strongpoints = [p for p in data.setup if data.units[p.unit].kind == "strongpoint"]
    fixed = sorted(p.hex for p in strongpoints if not p.choices)
    assert fixed == [514, 820, 1414, 1506, 1608, 1610]
    placed = [p for p in strongpoints if p.choices]
    assert len(placed) == 6
    near = set(data.map.regions["within 5 hexes of the front line, German side"])
    assert all(p.choices == near and p.hex in near for p in placed)
    grid, line = data.map.grid, data.map.regions["front line"]
    assert all(min(grid.distance(h, f) for f in line) <= 5 for h in near)
    assert not near & set(data.map.regions["west of the front line"])


def test_19_2_german_units_next_to_the_front_line_start_in_improved_positions(data: GameData) -> None:
    line = data.map.regions["front line"]
    grid = data.map.grid
    for p in data.setup:
        if data.side_of(p.unit) == "german" and data.units[p.unit].kind not in ("hq", "strongpoint"):
            near = min(grid.distance(p.hex, h) for h in line) <= 1
            assert p.improved_position == near, p.unit


def test_19_2_player_placed_german_units(data: GameData) -> None:
    by_unit = {p.unit: p for p in data.setup}
    assert by_unit["de-ohren"].choices == {1109, 1110}
    region = set(data.map.regions["east of Belfort, north of the Allaine"])
    assert by_unit["de-1000-aufkl"].choices == region and by_unit["de-ss-mg-808"].choices == region


def test_19_2_reinforcements_turn_by_turn(data: GameData) -> None:
    def arrivals(turn: int) -> set[str]:
        return {u for r in data.reinforcements if r.turn == turn for u in r.units}

    assert {"fr-a-cc4", "fr-b-cc5"} <= arrivals(1)
    assert {"hq-fr-1-db", "hq-fr-5-db", "fr-1-cc3"} <= arrivals(2)
    assert {"hq-de-30-ss", "hq-de-198-id", "de-i-490"} <= arrivals(3)
    assert {"de-kg-renschling", "de-654-pzjg", "de-106-pz"} <= arrivals(4)
    assert {"de-280-stug", "fr-4-rsm", "fr-i-1-rtm"} <= arrivals(6)
    one_ap = {u for r in data.reinforcements if r.action_points == 1 for u in r.units}
    assert one_ap == {"fr-a-cc4", "fr-b-cc4", "fr-c-cc4", "fr-1-cc3", "fr-2-cc3", "fr-3-cc3"}
    ss = next(r for r in data.reinforcements if "de-i-ss-75" in r.units)
    assert ss.trucks and ss.action_points == 2 and set(ss.hexes) == {2201, 2601}


def test_no_weather_and_eight_turns(data: GameData) -> None:
    assert len(data.turns) == 8 and all(t.weather is None for t in data.turns)


def test_1_6_support_pools_one_per_side(data: GameData) -> None:
    start = {g.army: dict(g.markers) for g in data.support if g.turn == 0}
    assert start["de-19-armee"] == {"pioneers": 1, "light_artillery": 3, "heavy_artillery": 1}
    assert start["fr-1st-army"] == {"tank_destroyer": 6, "light_artillery": 3, "heavy_artillery": 3}


def test_15_five_events_a_side(data: GameData) -> None:
    per_side = Counter()
    for event in data.events.values():
        per_side[event.side] += event.count
    assert per_side == {"german": 5, "allied": 5}


def test_19_4_variant_groups_name_real_units(data: GameData) -> None:
    variant = data.extra["variant"]
    assert {g["id"] for g in variant["group"]} == {"rhine", "mulhouse", "vosges"}
    assert len(variant["vosges_table"]) == 5
    assert [s.id for s in data.scenarios.values() if s.variant] == ["initial-assault-variant", "entire-battle-variant"]


# --- Scenarios and tables ----------------------------------------------------------------------------------


def test_19_1_19_2_scenario_lengths_and_victory_places(data: GameData) -> None:
    assert data.scenarios["initial-assault"].turns == 3 and data.scenarios["entire-battle"].turns == 8
    conditions: list[VictoryCondition] = flat_conditions(data.scenarios["entire-battle"].victory)
    kinds = {c.kind for c in conditions}
    assert {"hold-places", "hold-overlay", "exit-units"} <= kinds
    assert all(c.side == "allied" for c in conditions)
    assert data.scenarios["initial-assault"].default_result == "german"


def test_7_6_the_crt_is_complete_and_its_garbled_cell_read_as_ardennes(data: GameData) -> None:
    assert len(data.tables.crt) == 9 and all(len(row) == 11 for row in data.tables.crt)
    assert str(data.tables.crt[0][1]) == "4/-"
    ardennes = load_game("ardennes44")
    assert [[str(c) for c in row] for row in data.tables.crt] == [[str(c) for c in row] for row in ardennes.tables.crt]


def test_the_alsace_charts(data: GameData) -> None:
    raw = data.tables.raw
    assert raw["status"]["disorganized"]["attack"] == "halved" and raw["status"]["disorganized"]["defence"] == "halved"
    assert raw["crossing"]["river"]["mode"] == "additive" and raw["crossing"]["bridge"]["mechanized_mp"] == 2
    assert raw["crossing"]["uncrossable"]["no_attack_across"]
    assert raw["attack_type"]["prepared"]["column_shift"] == {"french": 2, "german": 2}
    assert raw["attack_type"]["prepared"]["advance"] == "mandatory"
    assert raw["doctrine"]["german"]["command_range"] == 6 and raw["doctrine"]["allied"]["general_activation"] == 4
    assert raw["rounding"]["mode"] == "nearest"
    assert raw["support"]["pioneers"]["die_modifier"] == 2
    assert not data.tables.c3i and not data.tables.snafu
