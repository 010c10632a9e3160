"""Alsace 1944's charts and lists as the rule document prints them, checked cell by cell against the data.

Each expected value below is transcribed from ``../shared/seeds/001_a93a1826f6ce06bb.txt`` (the charts after
rule 21, rules 1.1-1.6, 9.5, 15, 16, 19.1, 19.2), not from the data files: a changed cell in
scenarios/alsace44/ fails here. Readings of garbled cells are the ones docs/rules/alsace44.md records.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.vaevictis.data import GameData, VictoryCondition
from scenarios import load_game

P = "prohibited"
OTHER = "other"


@pytest.fixture(scope="module")
def data() -> GameData:
    return load_game("alsace44")


# --- Terrain Effects Chart (0.2, corrected per errata) -------------------------------------------------------

# terrain: (infantry MP, mechanized MP, column shift, attack optional); "only on road" is a prohibited
# off-road cost with the road rate along a road.
TERRAIN = {
    "clear": (1, 1, 0, False),
    "difficult": (1, P, -1, True),
    "forest": (2, 3, -1, True),
    "mountain": (3, P, -2, True),
    "village": (1, OTHER, -1, True),
    "city": (1, 1, -1, True),
    "fort": (OTHER, OTHER, -2, True),
    "factory": (1, OTHER, -1, True),
    "switzerland": (P, P, 0, False),
}


@pytest.mark.parametrize(("terrain", "cells"), TERRAIN.items())
def test_0_2_the_terrain_effects_chart_cell_by_cell(data: GameData, terrain: str, cells: tuple[Any, ...]) -> None:
    row = data.tables.raw["terrain"][terrain]
    assert (row["infantry"], row["mechanized"], row["column_shift"], row["attack_optional"]) == cells


def test_0_2_the_chart_notes_of_each_terrain(data: GameData) -> None:
    terrain = data.tables.raw["terrain"]
    assert terrain["difficult"]["road_only"] == ["mechanized"] and terrain["mountain"]["road_only"] == ["mechanized"]
    assert terrain["city"]["armor_halved_in_defence"]
    assert terrain["fort"]["column_shift_only_for"] == "german"  # "-2 col (German defend)"
    assert terrain["switzerland"]["no_entry"] and terrain["switzerland"]["retreat_eliminates"]
    # Road: "1" for infantry (always, 6.2 errata), "1/2 if alone in hex" for mechanized units.
    assert (terrain["road"]["infantry"], terrain["road"]["mechanized"]) == (1, 0.5)
    assert terrain["road"]["alone_counts"] == ["mechanized"]


# crossing: (infantry MP added, mechanized MP added, attacker halved, only infantry may attack)
CROSSINGS = {
    "river": (1, P, True, True),
    "canal": (1, P, True, True),  # 13.1: "river or canal"
    "bridge": (0, 2, True, False),
}


@pytest.mark.parametrize(("crossing", "cells"), CROSSINGS.items())
def test_0_2_13_1_the_crossing_rows_of_the_chart(data: GameData, crossing: str, cells: tuple[Any, ...]) -> None:
    row = data.tables.raw["crossing"][crossing]
    assert row["mode"] == "additive"  # "+1 MP", "+2 MP": added to the hex's cost
    assert (row["infantry_mp"], row["mechanized_mp"], row["attack_halved"], row["only_infantry_may_attack"]) == cells


def test_0_2_the_rhine_is_uncrossable_with_no_attack_across(data: GameData) -> None:
    row = data.tables.raw["crossing"]["uncrossable"]
    assert (row["infantry_mp"], row["mechanized_mp"], row["no_attack_across"]) == (P, P, True)


# --- Status Effects Table (1.4) ------------------------------------------------------------------------------

# status: (attack, defence, prepared attack allowed, activations)
STATUS = {
    "normal": ("normal", "normal", True, ["formation", "general"]),
    "isolated": ("normal", "normal", False, ["formation", "general"]),
    "unsupplied": ("halved", "halved", False, ["formation", "general"]),
    "out_of_command": ("normal", "normal", True, ["general"]),
    "fatigued": ("halved", "halved", True, ["formation", "general"]),
    "disorganized": ("halved", "halved", True, ["formation", "general"]),
    "improved_position": ("normal", "normal", True, ["formation", "general"]),
}


@pytest.mark.parametrize(("status", "cells"), STATUS.items())
def test_1_4_the_status_effects_table_cell_by_cell(data: GameData, status: str, cells: tuple[Any, ...]) -> None:
    row = data.tables.raw["status"][status]
    assert (row["attack"], row["defence"], row.get("prepared_attack", True), row["activation"]) == cells


def test_1_4_the_action_points_of_each_status(data: GameData) -> None:
    status = data.tables.raw["status"]
    assert {k: status["normal"]["action_points"][k] for k in ("infantry", "mechanized", "armored", "hq")} == {
        "infantry": 2,  # 1.1: infantry 2, mechanized units including HQs 3
        "mechanized": 3,
        "armored": 3,
        "hq": 3,
    }
    assert {status["isolated"]["action_points"][k] for k in ("infantry", "mechanized", "armored", "hq")} == {2}
    assert {status["unsupplied"]["action_points"][k] for k in ("infantry", "mechanized", "armored", "hq")} == {1}
    assert status["fatigued"]["action_point_change"] == -1 and status["fatigued"]["recovery_cost_ap"] == 2
    assert status["out_of_command"]["c3i_check"] and status["out_of_command"]["action_points_on_failed_check"] == 1
    ip = status["improved_position"]
    assert (ip["column_shift_if_all_in_ip"], ip["enter_cost_ap"], ip["leave_cost_ap"]) == (-1, 1, 0)
    assert status["disorganized"]["until"] == "end of turn"  # 3.6


# --- Actions Table (3.4.1), movement allowances (6.1) ----------------------------------------------------------


def test_3_4_1_the_actions_table(data: GameData) -> None:
    actions = data.tables.raw["actions"]
    printed = {
        "move": 1,
        "normal_attack": 1,
        "prepared_attack": 2,
        "enter_improved_position": 1,
        "leave_improved_position": 0,
        "recover_fatigue": 2,
        "mine_village": 1,  # 14
        "clear_marker": 1,  # 14, 15.2
    }
    assert {k: actions[k] for k in printed} == printed


def test_6_1_infantry_has_4_mp_and_mechanized_units_6(data: GameData) -> None:
    allowance = data.tables.raw["movement_allowance"]
    assert (allowance["infantry"], allowance["mechanized"], allowance["armored"], allowance["hq"]) == (4, 6, 6, 6)


# --- Attack Types (7.3), Combat Modifiers (7.4), Doctrines (9.0) ------------------------------------------------


def test_7_3_the_attack_types_table(data: GameData) -> None:
    normal, prepared = (data.tables.raw["attack_type"][k] for k in ("normal", "prepared"))
    assert (normal["column_shift"], normal["hq_supports"], normal["advance"]) == (
        {"french": 0, "german": 0},
        1,
        "optional",
    )
    assert not normal["attacker_minimum_loss"]
    assert (prepared["column_shift"], prepared["hq_supports"], prepared["advance"]) == (
        {"french": 2, "german": 2},
        2,
        "mandatory",
    )
    assert prepared["attacker_minimum_loss"]  # "possible but 1 loss minimum"
    assert normal["air_supports"] == prepared["air_supports"] == 0  # 2.1: no air phase


def test_7_4_the_combat_modifiers(data: GameData) -> None:
    modifiers = data.tables.raw["modifiers"]
    assert modifiers["combined_arms"]["die"] == 1 and modifiers["combined_arms"]["attack_only"]
    assert modifiers["armored_superiority"]["die"] == 1
    assert modifiers["improved_position_column"] == -1
    assert modifiers["quality_difference"] and not modifiers["divisional_integrity"]


def test_9_0_the_doctrines_table(data: GameData) -> None:
    french, german = (data.tables.raw["doctrine"][k] for k in ("allied", "german"))
    assert (french["command_range"], french["general_activation"], french["attached_combat_commands"]) == (6, 4, 2)
    assert french["formation_extra_independents"] == "all-in-command-range"
    assert (german["command_range"], german["general_activation"], german["formation_extra_independents"]) == (6, 3, 3)


# --- Combat Results Table (7.6) --------------------------------------------------------------------------------

# As printed, rows "<=0" to ">=8"; the garbled "4/" of row <=0, column 1:3 is read "4/-" (docs/rules/alsace44.md).
CRT = """
E/- 4/- 3/1 3/1 3/1 2/- 2/1 1/1 -/1 -/1 -/1
4/- 3/- 3/1 2/- 2/- 2/1 1/1 -/1 -/1 1/2 -/2
4/- 3/- 2/- 2/1 2/1 1/1 -/1 1/2 1/2 -/2 -/2
3/- 2/- 2/1 1/1 1/1 -/1 -/1 -/2 -/2 -/2 1/3
3/- 2/- 1/1 1/1 -/1 -/1 1/2 -/2 1/3 -/3 -/3
2/- 2/1 1/1 -/1 -/1 1/2 -/2 1/3 -/3 -/3 -/3
2/- 1/1 1/1 -/1 1/2 -/2 -/2 1/3 -/3 1/4 -/4
1/- 1/1 -/1 1/2 -/2 -/2 1/3 -/3 1/4 -/4 1/E
1/1 -/1 1/2 1/2 -/2 1/3 -/3 1/4 -/4 1/E -/E
"""


def test_7_6_the_crt_cell_by_cell_as_printed(data: GameData) -> None:
    assert data.tables.crt_columns == ("1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1", "8:1")
    printed = [line.split() for line in CRT.strip().splitlines()]
    assert [[str(cell) for cell in row] for row in data.tables.crt] == printed
    assert data.tables.raw["crt"]["lowest_row"] == 0  # the first row is a modified roll of 0 or less


# --- Support markers (1.6.1, 1.6.2) -----------------------------------------------------------------------------

# marker: (side, column shift, die modifier, faces on which it goes back to the pool, may be lost as a step)
SUPPORTS = {
    "heavy_artillery_german": ("german", 2, 0, [1, 2, 3], False),  # removed on 4-6
    "light_artillery_german": ("german", 1, 0, [1, 2, 3, 4], False),  # removed on 5-6
    "pioneers": ("german", 0, 2, [1, 2, 3], True),  # errata: +2/-2; removed on 4-6
    "flak88": ("german", 2, 0, [1, 2, 3, 4], False),  # removed on 5-6
    "heavy_artillery_french": ("allied", 2, 0, [1, 2, 3, 4], False),  # removed on 5-6
    "light_artillery_french": ("allied", 1, 0, [1, 2, 3, 4, 5], False),  # removed on 6
    "tank_destroyer": ("allied", 0, 1, [1, 2, 3, 4, 5], True),  # removed on 6
}


@pytest.mark.parametrize(("marker", "cells"), SUPPORTS.items())
def test_1_6_each_support_marker_as_the_rules_give_it(data: GameData, marker: str, cells: tuple[Any, ...]) -> None:
    row = data.tables.raw["support"][marker]
    found = (
        row["side"],
        row.get("column_shift", 0),
        row.get("die_modifier", 0),
        row["kept_on"],
        row.get("may_absorb_step_loss", False),
    )
    assert found == cells


def test_1_6_1_1_6_2_the_markers_own_conditions(data: GameData) -> None:
    support = data.tables.raw["support"]
    assert support["flak88"]["defence_only"] and support["flak88"]["only_against"] == "armored"
    assert support["tank_destroyer"]["needs_tank_terrain"] and support["tank_destroyer"]["combat_command_exception"]


# --- 9.5 SNAFU (VV60) ------------------------------------------------------------------------------------------


def test_9_5_the_snafu_figures(data: GameData) -> None:
    snafu = data.tables.raw["snafu_vv60"]
    assert snafu["dice"] == "2d6" and snafu["optional"]
    assert (snafu["attacker_hq_quality"], snafu["defender_hq_quality"]) == (1, -1)
    assert (snafu["defender_out_of_command"], snafu["attacker_out_of_command"]) == (1, -1)
    assert (snafu["attacker_snafu_below"], snafu["defender_snafu_above"]) == (4, 10)
    assert snafu["even"] == ["other-quality-unit", "die-penalty", "die-bonus"]


# --- Counters whose values the text gives (1.1-1.3, 15.3, 16) ---------------------------------------------------


def test_1_2_1_3_one_step_counters_and_the_hqs_strength_of_1(data: GameData) -> None:
    for unit in data.units.values():
        assert 1 <= unit.steps <= 2, unit.id
        if unit.kind in ("strongpoint", "garrison", "hq"):
            assert unit.steps == 1, unit.id  # 1.2: eliminated by the first loss
        if unit.kind == "hq":
            assert unit.strength == 1, unit.id  # 1.3: an intrinsic combat strength of 1


def test_15_3_the_raid_commando_is_3_5_with_one_step(data: GameData) -> None:
    commando = data.extra["raid_commando"]
    assert (commando["strength"], commando["quality"], commando["steps"], commando["action_points"]) == (3, 5, 1, 0)
    assert not commando["exerts_zoc"]


# --- The set-up of 19.2 -----------------------------------------------------------------------------------------

GERMAN_SET_UP = {
    "1006": ["hq-de-159-id", "de-feb-205"],
    "0810": ["de-i-1209"],
    "0811": ["de-ii-1209"],
    "0707": ["de-i-1210"],
    "0706": ["de-ii-1210"],
    "0609": ["de-i-ii-1211"],
    "0705": ["de-rollin"],
    "0612": ["hq-de-189-id"],
    "0411": ["de-i-1212"],
    "0410": ["de-ii-1212"],
    "0312": ["de-i-1213"],
    "0311": ["de-ii-1213"],
    "0313": ["de-i-1214"],
    "0415": ["de-ii-1214"],
    "1103": ["hq-de-269-id"],
    "0902": ["de-i-469"],
    "0804": ["de-ii-469"],
    "0904": ["de-ost-60"],
    "0915": ["hq-de-338-vgd"],
    "1120": ["de-i-757"],
    "0920": ["de-ii-757"],
    "0416": ["de-i-758"],
    "0517": ["de-ii-758"],
    "0616": ["de-i-759"],
    "0718": ["de-ii-759"],
    "0713": ["de-mg-50"],
    "2606": ["de-34-fu-335"],
}
FRENCH_SET_UP = {
    "0115": ["hq-fr-2-dim"],
    "0315": ["fr-i-4-rtm", "fr-ii-4-rtm", "fr-i-bourgogne"],
    "0214": ["fr-iii-4-rtm"],
    "0317": ["fr-i-5-rtm", "fr-ii-5-rtm", "fr-vigan-braquet"],
    "0218": ["fr-iii-5-rtm"],
    "0316": ["fr-i-8-rtm", "fr-ii-8-rtm"],
    "0217": ["fr-iii-8-rtm", "fr-ii-bourgogne"],
    "0215": ["fr-3-rsm"],
    "0305": ["hq-fr-1-dfl", "fr-12-tabors"],
    "0407": ["fr-bimp"],
    "0701": ["fr-1-ble"],
    "0602": ["fr-2-ble"],
    "0604": ["fr-bm-4"],
    "0504": ["fr-bm-5"],
    "0505": ["fr-bm-11"],
    "0507": ["fr-bm-21"],
    "0408": ["fr-bm-24"],
    "0603": ["fr-22-bmna"],
    "0506": ["fr-corps-francs"],
    "0503": ["fr-morvan"],
    "0508": ["fr-rfm"],
    "0520": ["hq-fr-9-dic"],
    "0419": ["fr-i-6-ric"],
    "0720": ["fr-ii-6-ric"],
    "0620": ["fr-iii-6-ric", "fr-i-auvergne"],
    "0519": ["fr-ii-auvergne"],
    "0821": ["fr-i-21-ric", "fr-ii-21-ric", "fr-iii-21-ric"],
    "1021": ["fr-i-23-ric", "fr-ii-23-ric", "fr-iii-23-ric"],
    "0220": ["fr-ricm"],
    "0110": ["fr-cdo-fr", "fr-chocs"],
    "0207": ["fr-2-tabors"],
    "0210": ["fr-1-rsar"],
    "0212": ["fr-yonne"],
    "0213": ["fr-correze"],
    "0306": ["fr-3-tabors"],
    "0921": ["fr-i-9-zouaves", "fr-ii-9-zouaves", "fr-iii-9-zouaves"],
    "1121": ["fr-i-6-rtm", "fr-ii-6-rtm", "fr-iii-6-rtm"],
}
# The headings of the 19.2 lists: the formation of each listed unit ("independent" where the list says so).
FORMATION_OF_HEADING = {
    "de-159-id": ["1006", "0810", "0811", "0707", "0706", "0609", "0705"],
    "de-189-id": ["0612", "0411", "0410", "0312", "0311", "0313", "0415"],
    "de-269-id": ["1103", "0902", "0804", "0904"],
    "de-338-vgd": ["0915", "1120", "0920", "0416", "0517", "0616", "0718", "0713"],
    "de-independent": ["2606"],
    "fr-2-dim": ["0115", "0315", "0214", "0317", "0218", "0316", "0217", "0215"],
    "fr-1-dfl": ["0407", "0701", "0602", "0604", "0504", "0505", "0507", "0408", "0603", "0506", "0503", "0508"],
    "fr-9-dic": ["0520", "0419", "0720", "0620", "0519", "0821", "1021", "0220"],
    "fr-independent": ["0110", "0207", "0210", "0212", "0213", "0306", "0921", "1121"],
}


def _set_up(data: GameData) -> dict[str, list[str]]:
    placed: dict[str, list[str]] = {}
    for placement in data.setup:
        if data.units[placement.unit].kind == "strongpoint" or placement.unit in PLAYER_PLACED:
            continue
        placed.setdefault(f"{placement.hex:04d}", []).append(placement.unit)
    return {h: sorted(units) for h, units in placed.items()}


PLAYER_PLACED = {"de-1000-aufkl", "de-ss-mg-808", "de-ohren"}


def test_19_2_the_set_up_lists_hex_by_hex(data: GameData) -> None:
    printed = {h: sorted(units) for h, units in (GERMAN_SET_UP | FRENCH_SET_UP).items()}
    assert _set_up(data) == printed
    for formation, hexes in FORMATION_OF_HEADING.items():
        for hex_ in hexes:
            units = (GERMAN_SET_UP | FRENCH_SET_UP)[hex_]
            listed = [u for u in units if u != "fr-12-tabors"]  # "HQ & 12th Tabors (independent)"
            assert {data.units[u].formation for u in listed} == {formation}, hex_
    assert data.units["fr-12-tabors"].formation == "fr-independent"
    placed = {p.unit: p for p in data.setup}
    assert placed["de-ohren"].choices == frozenset({1109, 1110})  # "one of the two hexes of Belfort"


def test_16_19_2_garrison_hexes_as_printed(data: GameData) -> None:
    garrisons = data.extra["garrisons"]
    forts = ["0812", "0816", "1010", "1011", "1110", "1112", "1209", "1210", "1211", "1212"]
    assert garrisons["hexes"] == [*forts, "3103", "3312"] and garrisons["face_down"]
    assert sorted(f"{h:04d}" for h in data.map.overlays["fort"]) == forts


# --- Reinforcements and support grants of 19.2 ------------------------------------------------------------------

REINFORCEMENTS = {
    1: {"fr-b-cc5", "fr-d-cc5", "fr-r-cc5", "fr-a-cc4", "fr-b-cc4", "fr-c-cc4"},
    2: {
        "hq-fr-1-db",
        *("fr-a-cc2", "fr-b-cc2", "fr-c-cc2"),
        *("fr-1-cc3", "fr-2-cc3", "fr-3-cc3"),
        "hq-fr-5-db",
        *("fr-1-cc6", "fr-2-cc6", "fr-3-cc6"),
    },
    3: {
        *("fr-d-cc1", "fr-v-cc1", "fr-l-cc1"),
        *("hq-de-30-ss", "de-aufkl-30-ss"),
        *("de-i-ss-75", "de-ii-ss-75", "de-i-ss-76", "de-ii-ss-76", "de-i-ss-77", "de-ii-ss-77"),
        *("hq-de-198-id", "de-i-305", "de-ii-305", "de-i-308", "de-ii-308", "de-i-326", "de-ii-326", "de-fus-198"),
        *("de-i-490", "de-ii-490"),
    },
    4: {"de-kg-renschling", "de-654-pzjg", "de-2-ss-ersatz", "de-kg-diemer", "de-kg-reutlingen"}
    | {"de-106-pz", "de-106-pzgr"},
    6: {"de-280-stug", "fr-i-1-rtm", "fr-ii-1-rtm", "fr-iii-1-rtm", "fr-4-rsm"},
}


def test_18_19_2_reinforcements_turn_by_turn_complete(data: GameData) -> None:
    found: dict[int, set[str]] = {}
    for reinforcement in data.reinforcements:
        found.setdefault(reinforcement.turn, set()).update(reinforcement.units)
    assert found == REINFORCEMENTS
    entry = {u: r for r in data.reinforcements for u in r.units}
    chalampe = {"de-654-pzjg", "de-2-ss-ersatz", "de-kg-diemer", "de-kg-reutlingen", "de-106-pz"}
    assert all(entry[u].hexes == (3103,) for u in chalampe | {"de-106-pzgr", "de-280-stug"})
    assert all(set(entry[u].hexes) == {2201, 2601} for u in REINFORCEMENTS[3] if "30-ss" in u or "-ss-7" in u)
    trucked = {u for r in data.reinforcements if r.trucks for u in r.units}
    ss_trucked = {"de-i-ss-75", "de-ii-ss-75", "de-i-ss-76", "de-ii-ss-76", "de-i-ss-77", "de-ii-ss-77"}
    assert trucked == ss_trucked | {"fr-i-1-rtm", "fr-ii-1-rtm", "fr-iii-1-rtm"}
    controlled = {u for r in data.reinforcements if r.controlled for u in r.units}
    division_198 = {"hq-de-198-id", "de-i-305", "de-ii-305", "de-i-308", "de-ii-308", "de-i-326", "de-ii-326"}
    assert controlled == division_198 | {"de-fus-198", "de-i-490", "de-ii-490", "de-kg-renschling"}


SUPPORT_GRANTS = {
    ("de-19-armee", 0): {"pioneers": 1, "light_artillery": 3, "heavy_artillery": 1},
    ("de-19-armee", 3): {"heavy_artillery": 1, "light_artillery": 3, "pioneers": 1},
    ("de-19-armee", 4): {"light_artillery": 1, "flak88": 1},
    ("fr-1st-army", 0): {"tank_destroyer": 6, "light_artillery": 3, "heavy_artillery": 3},
    ("fr-1st-army", 2): {"light_artillery": 1},
    ("fr-1st-army", 3): {"tank_destroyer": 2, "light_artillery": 1},
    ("fr-1st-army", 4): {"tank_destroyer": 2},
}


def test_1_6_19_2_support_grants_turn_by_turn(data: GameData) -> None:
    assert {(g.army, g.turn): dict(g.markers) for g in data.support} == SUPPORT_GRANTS


def test_15_the_ten_events_as_listed(data: GameData) -> None:
    counts = {(e.side, e.id): e.count for e in data.events.values()}
    assert counts == {
        ("german", "bottleneck"): 1,
        ("german", "antitank-ditch"): 1,
        ("german", "lxiii-ak-hq"): 1,
        ("german", "alarm-battalion"): 2,
        ("allied", "lack-of-ss-elan"): 1,
        ("allied", "bridge-captured-by-ffi"): 1,
        ("allied", "raid"): 2,
        ("allied", "1st-army-corps-hq"): 1,
    }
    assert Counter(e.side for e in data.events.values() for _ in range(e.count)) == {"german": 5, "allied": 5}


# --- Victory (19.1, 19.2) ---------------------------------------------------------------------------------------


def _places(condition: VictoryCondition) -> list[tuple[str, ...]]:
    return [c.places for c in (condition, *condition.of) if c.kind == "hold-places"]


def test_19_1_19_2_victory_hexes_as_printed(data: GameData) -> None:
    hexes = {name: data.map.place(name).hexes for name in ("Belfort", "Sochaux", "Montbéliard", "Mulhouse")}
    assert {n: sorted(h) for n, h in hexes.items()} == {
        "Belfort": [1109, 1110],
        "Sochaux": [1015],
        "Montbéliard": [915],
        "Mulhouse": [2505, 2506, 2606],
    }
    short = data.scenarios["initial-assault"].victory
    assert [(c.result, _places(c)) for c in short] == [
        ("allied-strategic", [("Belfort",)]),
        ("allied-tactical", [("Belfort", "Sochaux", "Montbéliard")]),
    ]
    assert short[0].of[1].region == "rhine bank" and short[1].count == 2
    long = data.scenarios["entire-battle"].victory
    assert [(c.result, _places(c)) for c in long] == [
        ("allied-strategic", [("Belfort", "Mulhouse")]),
        ("allied-tactical", [("Belfort", "Mulhouse")]),
    ]
    exit_ = next(c for c in long[0].of if c.kind == "exit-units")
    assert (exit_.hq, exit_.combat_commands) == (1, 3)
    assert sorted(f"{h:04d}" for h in data.map.regions[exit_.region]) == ["2101", "2201", "2601", "3101"]
