"""Ardennes 1944 as data: every hex the rules, setup, reinforcements and victory conditions name exists and fits.

These tests read the real files in scenarios/ardennes44/. Figures quoted from the rules are the document's
(setup lists of 17.1/17.2, 10.4, 14.2, 15, 16.1); the rebuilt figures are checked for consistency only.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from engine.hexgrid import column, row
from engine.vaevictis.data import GameData
from engine.vaevictis.detachments import is_detachment_marker
from engine.vaevictis.geography import beyond_meuse
from scenarios import load_game


@pytest.fixture(scope="module")
def data() -> GameData:
    return load_game("ardennes44")


# --- The map -----------------------------------------------------------------------------------------------

SETUP_NAMED_PLACES = {
    "Verviers": 2101,
    "Eupen": 2501,
    "Monschau": 2803,
    "Bastogne": 1817,
    "Beaufort": 2920,
    "Echternach": 3121,
    "Neufchateau": 1321,
    "Stadtkyll": 3308,
}


def test_map_is_34_by_22_with_odd_columns_lower(data: GameData) -> None:
    grid = data.map.grid
    assert (grid.columns, grid.rows, grid.lower_columns) == (34, 22, "odd")
    assert len(data.map.terrain) == len(grid.hexes) == 731


def test_places_named_by_the_setup_lists_are_at_their_hexes(data: GameData) -> None:
    for name, hex_ in SETUP_NAMED_PLACES.items():
        place = next((p for p in data.map.places if p.name.startswith(name)), None)
        assert place is not None, name
        assert place.hex == hex_, (name, place.hex)
        assert place.kind in ("city", "village"), name


@pytest.mark.parametrize("city", ["Bastogne", "St. Vith", "Marche", "Rochefort", "Spa"])
def test_victory_cities_are_cities(data: GameData, city: str) -> None:
    assert data.map.place(city).kind == "city"


def test_every_terrain_type_of_the_chart_is_on_the_map(data: GameData) -> None:
    kinds = Counter(data.map.terrain.values())
    assert set(kinds) == {"clear", "rough", "forest"}
    assert data.map.westwall
    assert any(p.kind == "city" for p in data.map.places) and any(p.kind == "village" for p in data.map.places)


@pytest.mark.parametrize(
    "river", ["Meuse", "Ourthe", "Ambleve", "Salm", "Sure", "Our", "Clerf", "Wiltz", "Lesse", "Vesdre"]
)
def test_the_rivers_the_issue_names_are_there(data: GameData, river: str) -> None:
    names = [r.name for r in data.map.rivers]
    assert any(river.lower() in strip_accents(n).lower() for n in names), names


def strip_accents(text: str) -> str:
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def test_the_meuse_splits_the_map_and_the_british_enter_beyond_it(data: GameData) -> None:
    beyond = beyond_meuse(data)
    assert 0 < len(beyond) < len(data.map.grid.hexes) // 3
    assert 105 in beyond  # 16.2: the British XXX Corps enters at 0105, west of the Meuse
    assert all(h not in beyond for h in data.map.friendly_edges["german"])
    assert data.map.place("Bastogne").hex not in beyond


def test_every_road_crossing_of_a_river_is_bridged(data: GameData) -> None:
    for road in data.map.roads:
        for a, b in road.links:
            if data.map.river_between(a, b):
                assert data.map.is_bridged(a, b), (road.name, a, b)


def test_roads_reach_both_sides_friendly_edges(data: GameData) -> None:
    for side in ("german", "allied"):
        assert data.map.road_hexes & data.map.friendly_edges[side], side


# --- Edges and entry hexes (10.2, 16.1) --------------------------------------------------------------------


def test_entry_hexes_are_the_documents_and_lie_on_their_edges(data: GameData) -> None:
    assert data.map.entry_hexes["german"] == {3403, 3407, 3411, 3413, 3417}
    assert data.map.entry_hexes["allied"] == {105, 116, 921, 1301, 1321, 2022, 2101, 2501, 2521, 2921, 3022}
    for hex_ in data.map.entry_hexes["german"]:
        assert column(hex_) == 34
    for hex_ in data.map.entry_hexes["allied"]:
        assert data.map.grid.is_on_edge(hex_) and column(hex_) < 34


def test_south_edge_entry_hexes_are_the_last_row_of_their_column(data: GameData) -> None:
    grid = data.map.grid
    for hex_ in (2521, 2921, 1321, 921, 2022, 3022):
        assert row(hex_) == grid.last_row(column(hex_))


def test_friendly_edges_as_decided_for_10_2(data: GameData) -> None:
    edges = data.map.friendly_edges
    assert edges["german"] == frozenset(3400 + r for r in range(1, 23))
    assert 101 in edges["allied"] and 2801 in edges["allied"] and 2901 not in edges["allied"]
    assert 3121 in edges["allied"] and 3221 not in edges["allied"]


# --- Counters --------------------------------------------------------------------------------------------


def test_every_formation_has_its_hq_and_every_unit_its_formation(data: GameData) -> None:
    for formation in data.formations.values():
        if not formation.independent:
            assert formation.hq in data.units and data.units[formation.hq].kind == "hq"
    for unit in data.units.values():
        assert unit.formation in data.formations


def test_step_reduction_scheme_of_1_2(data: GameData) -> None:
    for unit in data.units.values():
        assert unit.strength - 3 * (unit.steps - 1) >= 1, unit.id
        if unit.kind == "hq":
            assert unit.steps == 1 and unit.strength == 1 and unit.c3i in ("A", "B", "C")


def printed(data: GameData) -> list[str]:
    """The printed counters: every unit but the detachment markers of 18, which enter play when created."""
    return [u for u in data.units if not is_detachment_marker(u)]


def test_reconstructed_figures_are_marked(data: GameData) -> None:
    for unit in (data.units[u] for u in printed(data)):
        # An HQ's strength (1) and quality when alone (4) are given by 1.3; its ratings are rebuilt.
        rebuilt = {"support", "c3i"} if unit.kind == "hq" else {"strength", "quality"}
        assert rebuilt <= set(unit.reconstructed), unit.id


def test_independents_have_a_quality_that_gives_a_c3i_rating(data: GameData) -> None:
    for unit in data.units.values():
        if data.formations[unit.formation].independent:
            assert unit.quality in (4, 5), unit.id


def test_german_armor_support_markers_three_for_6th_one_for_5th(data: GameData) -> None:
    armor = Counter()
    for grant in data.support:
        army = data.armies[grant.army]
        if army.side == "german":
            armor[army.name] += sum(grant.markers.get(k, 0) for k in ("stug", "hetzer", "tiger"))
    assert sorted(armor.values()) == [0, 1, 3]  # 1.6.1: four in all, three for 6th Pz Armee, one for 5th


# --- Setup and reinforcements ----------------------------------------------------------------------------


def test_setup_stacks_respect_the_six_step_limit(data: GameData) -> None:
    steps = Counter()
    for placement in data.setup:
        steps[placement.hex] += data.units[placement.unit].steps
    assert max(steps.values()) <= 6


def test_setup_hexes_are_on_the_map_and_never_shared_by_both_sides(data: GameData) -> None:
    sides: dict[int, set[str]] = {}
    for placement in data.setup:
        assert data.map.grid.contains(placement.hex)
        sides.setdefault(placement.hex, set()).add(data.side_of(placement.unit))
    assert all(len(s) == 1 for s in sides.values())


def test_the_front_is_in_contact_on_turn_1(data: GameData) -> None:
    german = {p.hex for p in data.setup if data.side_of(p.unit) == "german"}
    allied = {p.hex for p in data.setup if data.side_of(p.unit) == "allied"}
    contacts = [(a, g) for a, g in itertools.product(allied, german) if data.map.grid.are_adjacent(a, g)]
    assert len(contacts) >= 5


def test_every_counter_sets_up_or_arrives_once_at_its_sides_entry_hexes(data: GameData) -> None:
    seen = Counter([p.unit for p in data.setup] + [u for r in data.reinforcements for u in r.units])
    assert set(seen) == set(printed(data)) and set(seen.values()) == {1}
    for reinforcement in data.reinforcements:
        side = data.side_of(reinforcement.units[0])
        assert set(reinforcement.hexes) <= data.map.entry_hexes[side]


def test_reinforcement_turns_of_the_list(data: GameData) -> None:
    turns = Counter(r.turn for r in data.reinforcements for _ in r.units)
    assert set(turns) <= set(range(1, 9))
    german_turns = {r.turn for r in data.reinforcements if data.side_of(r.units[0]) == "german"}
    assert german_turns == {2, 3, 4, 5, 6, 7}


def test_improved_positions_at_start_are_american(data: GameData) -> None:
    dug_in = [p for p in data.setup if p.improved_position]
    assert len(dug_in) == 8 and all(data.side_of(p.unit) == "allied" for p in dug_in)


def test_turn_track_dates_and_weather(data: GameData) -> None:
    assert len(data.turns) == 8
    assert [t.number for t in data.turns if t.weather == "clear"] == [5, 6]
    assert "25" in data.turns[4].date or "24" in data.turns[4].date


# --- Scenarios and tables --------------------------------------------------------------------------------


def test_both_scenarios_of_17(data: GameData) -> None:
    assault, battle = data.scenarios["initial-assault"], data.scenarios["entire-battle"]
    assert (assault.turns, battle.turns) == (3, 8)
    assert {c.kind for c in assault.victory} == {"cross-meuse", "hold-cities"}
    hold = next(c for c in battle.victory if c.kind == "hold-cities")
    assert (hold.count, len(hold.cities), hold.supplied) == (3, 5, True)


def test_events_of_15(data: GameData) -> None:
    counts = Counter({e.side: 0 for e in data.events.values()})
    for event in data.events.values():
        counts[event.side] += event.count
    assert counts == {"german": 5, "allied": 4}


def test_the_crt_has_every_cell_and_the_reconstructed_formatting(data: GameData) -> None:
    crt = data.tables.crt
    assert len(crt) == 9 and all(len(r) == 11 for r in crt)
    six_to_one = data.tables.crt_columns.index("6:1")
    assert str(crt[3][six_to_one]) == "-/2" and crt[3][six_to_one].breakthrough  # official answer
    assert str(crt[0][0]) == "E/-" and not crt[0][0].breakthrough
    assert not any(cell.breakthrough for cell in crt[8][:4])
    assert crt[8][-1].breakthrough and crt[6][9].defender_red and not crt[6][9].breakthrough


def test_c3i_and_snafu_tables(data: GameData) -> None:
    assert [sum(faces) for faces in (data.tables.c3i[r] for r in "ABC")] == [1, 2, 3]
    assert set(data.tables.snafu) == set(range(2, 13))


def test_fuel_shortage_table_names_thirty_counters_five_per_column(data: GameData) -> None:
    columns = data.extra["fuel_shortage"]["columns"]
    assert sorted(columns) == ["1", "2", "3", "4", "5", "6"]
    assert all(len(units) == 5 for units in columns.values())
    listed = [u for units in columns.values() for u in units]
    assert len(set(listed)) == 30 and all(data.side_of(u) == "german" for u in listed)


def test_18_every_corps_with_detachment_markers_has_their_counters(data: GameData) -> None:
    markers = [u for u in data.units if is_detachment_marker(u)]
    assert markers
    for unit_id in markers:
        assert data.formations[data.units[unit_id].formation].detachments > 0
