"""2.4 Ground combat: designation, odds, the CRT, cumulative results, retreat, breakthrough, Engaged."""

from __future__ import annotations

import pytest

from engine.contract import IllegalActionError, InvalidActionError
from engine.sealing import verify_receipt
from engine.wargame_commander import combat, ground
from engine.wargame_commander.board import Board
from engine.wargame_commander.state import SeriesState
from tests.wargame_commander.conftest import act, position


def test_2_42_crt_cells_as_read() -> None:
    assert combat.CRT[1][0] == "A3" and combat.CRT[13][8] == "DS"
    assert combat.CRT[2][6] == "C"  # a blank cell is Contact
    assert combat.CRT[7][4] == "ADE"
    assert combat.crt_row(-3) == 1 and combat.crt_row(17) == 13
    assert combat.COLUMNS[combat.column_of(4, 4)] == "1:1"
    assert combat.COLUMNS[combat.column_of(11, 2)] == "6:1"  # 5.5 to 1 rounds down to 5:1, printed with 6:1
    assert combat.COLUMNS[combat.column_of(2, 5)] == "1:4"  # 1 to 2.5 rounds to 1:3, printed with 1:4


PRINTED_CRT = """
1:6 1:4 1:2 1:1 2:1 3:1 4:1 6:1 7+
A3  A3  A2  A2  A1  AE  AE  ADE DE
A3  A2  A2  A1  A1  AE  C   DE  D1
A3  A2  A1  A1  AE  C   ADE DE  D1
A2  A2  A1  A1  AE  C   DE  D1  D1
A2  A1  A1  AE  C   ADE DE  D1  D2
A2  A1  AE  AE  C   DE  D1  D1  D2
A1  A1  AE  C   ADE DE  D1  D2  D2
A1  AE  AE  C   ADE D1  D1  D2  D3
A1  AE  C   ADE DE  D1  D1  D2  D3
AE  AE  C   ADE DE  D1  D2  D3  DS
AE  C   ADE DE  D1  D1  D2  D3  DS
C   ADE ADE DE  D1  D2  D3  DS  DS
ADE ADE DE  D1  D1  D2  DS  DS  DS
"""
"""2.42 as printed, rows 1- to 13+ (a blank cell written C, Contact), kept apart from the engine's table so
that a changed cell shows."""


def test_2_42_every_crt_cell_as_printed() -> None:
    header, *rows = (line.split() for line in PRINTED_CRT.strip().splitlines())
    assert tuple(header) == combat.COLUMNS
    assert {row: tuple(cells) for row, cells in enumerate(rows, start=1)} == combat.CRT


def test_2_42_the_odds_read_their_column_rounded_in_the_defenders_favour() -> None:
    read = {
        (1, 1): "1:1", (3, 2): "1:1", (2, 1): "2:1", (5, 2): "2:1", (3, 1): "3:1", (4, 1): "4:1",
        (5, 1): "6:1", (6, 1): "6:1", (13, 2): "6:1", (7, 1): "7+", (20, 1): "7+",
        (4, 5): "1:2", (1, 2): "1:2", (1, 3): "1:4", (1, 4): "1:4", (2, 7): "1:4", (1, 5): "1:6", (1, 9): "1:6",
    }  # fmt: skip
    assert {odds: combat.COLUMNS[combat.column_of(*odds)] for odds in read} == read


def test_2_43_each_result_says_who_retreats_how_far_and_who_is_engaged() -> None:
    effects = {
        "A1": ("attacker", 1, False, False), "A2": ("attacker", 2, False, False), "A3": ("attacker", 3, False, False),
        "D1": ("defender", 1, False, False), "D2": ("defender", 2, False, False), "D3": ("defender", 3, False, False),
        "AE": ("", 0, True, False), "DE": ("", 0, False, True), "ADE": ("", 0, True, True), "C": ("", 0, False, False),
    }  # fmt: skip
    assert {result: combat.result_effects(result) for result in effects} == effects


def test_2_41_strength_less_tac_air_damage_and_out_of_army_control(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "designate", us_1=807, us_7=907)
    assert combat.strength(state, board, "us-7") == 4
    state.units["us-7"].damage = 2
    assert combat.strength(state, board, "us-7") == 2
    state.units["us-7"].hex = 1507  # six hexes from its HQ
    assert combat.strength(state, board, "us-7") == 1
    state.units["us-7"].damage = 0
    assert combat.strength(state, board, "us-7") == 3


def test_2_44_dice_roll_modifiers(fresh: SeriesState, board: Board) -> None:
    # The German corps in the Hurtgen woods (1608), attacked from the Roer river hex (1708) and the plain.
    state = position(fresh, "designate", pz_6=1809, de_74=1709, us_1=1410, us_7=1708, us_5=1609)
    drms = dict(combat.modifiers(state, board, "de-74", ("us-7", "us-5")))
    assert board.terrain[1709] == "hills"
    assert drms["defender in hills hex"] == -2
    assert drms["attacking from river hex"] == -1
    state.depots["liege"].damaged = True
    state.depots["cologne"].damaged = True
    drms = dict(combat.modifiers(state, board, "de-74", ("us-7", "us-5")))
    assert drms["1 damaged depot(s) of the attacking army"] == -1
    assert drms["1 damaged depot(s) of the defending army"] == 1


def test_2_44_a_defender_surrounded_by_four_corps(fresh: SeriesState, board: Board) -> None:
    around = board.grid.neighbours(1007)
    corps = ["us-7", "us-5", "us-8", "us-18"]
    state = position(fresh, "designate", de_15=1006 + 1000, de_81=1007, us_1=807)
    for unit_id, hex_ in zip(corps, around[:4], strict=True):
        state.units[unit_id].hex = hex_
    drms = dict(combat.modifiers(state, board, "de-81", tuple(corps)))
    assert drms["defender surrounded by 4 corps"] == 2


def test_2_44_only_corps_of_the_attacking_side_surround_the_defender(fresh: SeriesState, board: Board) -> None:
    # de-81 at 1007 (plain): three Allied corps around it, a German corps and the Allied HQ on two more sides.
    state = position(fresh, "designate", us_1=1106, us_7=906, us_5=907, us_8=1006, de_74=1008, de_81=1007)
    attackers = ("us-7", "us-5", "us-8")
    reasons = [reason for reason, _ in combat.modifiers(state, board, "de-81", attackers)]
    assert not [r for r in reasons if "surrounded" in r or "river" in r]  # all on plain hexes
    state.units["de-74"].hex, state.units["us-18"].hex = None, 1008
    assert ("defender surrounded by 4 corps", 2) in combat.modifiers(state, board, "de-81", attackers)


def test_2_4e_the_possible_battles_with_every_adjacent_corps_and_both_strengths(
    fresh: SeriesState, board: Board
) -> None:
    state = position(fresh, "designate", us_1=807, us_7=906, us_5=907, de_81=1007, de_15=1208)
    assert combat.possible_battles(state, board, "allied") == [
        combat.PossibleBattle("allied", "de-81", ("us-5", "us-7"), 8, 3)
    ]
    assert [
        (b.side, b.defender, b.attackers, b.attack, b.defence) for b in combat.possible_battles(state, board, "german")
    ] == [
        ("german", "us-5", ("de-81",), 3, 4),
        ("german", "us-7", ("de-81",), 3, 4),
    ]
    # 2.4f: at equal CS the side that attacks is the attacker, so the battle is offered.
    state.units["us-7"].damage = 1
    assert combat.designation_options(state, board, "german") == [("us-7", ("de-81",))]


def test_3_4d_losses_lower_the_corps_cs(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "designate", us_1=807, us_7=907)
    state.units["us-7"].lost = 1
    assert combat.strength(state, board, "us-7") == 3


def test_2_4a_at_most_four_battles_and_4_2i_one_attack_per_unit(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "designate", us_1=807, us_7=907, us_5=1008, de_81=1007, de_15=1809)
    with pytest.raises(IllegalActionError, match=r"2.4c"):
        act(state, "allied", "designate", battles="de-81:us-7+us-7")
    with pytest.raises(IllegalActionError, match=r"2.4a"):
        combat.check_designation(state, board, "allied", [("de-81", ("us-7",))] * 5)
    with pytest.raises(IllegalActionError, match=r"4.2i"):
        combat.check_designation(state, board, "allied", [("de-81", ("us-7",)), ("de-81", ("us-5",))])


def test_4_2i_a_designation_is_read_battle_by_battle() -> None:
    read = combat.parse_designation(" de-66 : us-8 + us-5 ; ; ss-1:us-18, ")
    assert read == [("de-66", ("us-8", "us-5")), ("ss-1", ("us-18",))]
    for bad in ("de-66", "de-66:", ":us-8", "de-66:+"):
        with pytest.raises(InvalidActionError) as error:
            combat.parse_designation(bad)
        assert error.value.rule == "4.2i" and f"defender:attacker+attacker, not {bad.strip()!r}" in error.value.reason


def test_2_4_each_refused_designation_names_its_rule(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "designate", us_1=807, us_7=907, us_5=1008, de_81=1007, de_15=1809)

    def refused(side: str, battles: list[tuple[str, tuple[str, ...]]], rule: str, words: str) -> None:
        with pytest.raises(IllegalActionError) as error:
            combat.check_designation(state, board, side, battles)
        assert error.value.rule == rule and words in error.value.reason

    refused("allied", [("de-81", ("us-7",))] * 5, "2.4a", "5 battles designated")
    refused("allied", [("de-81", ("us-7",))] * 4, "4.2i", "is attacked twice")  # four pass the count
    refused("allied", [("us-5", ("us-7",))], "2.4a", "is not an enemy unit on the board")
    refused("allied", [("de-81", ("de-15",))], "2.4b", "is not one of your units on the board")
    refused("allied", [("de-81", ("us-1",))], "2.4b", "HQs only defend")
    refused("allied", [("de-81", ("us-7", "us-7"))], "2.4c", "attacks twice")
    refused("allied", [("de-15", ("us-7",))], "2.4e", "is not next to")
    refused("german", [("us-7", ("de-81",))], "2.4f", "is the attacker")
    combat.check_designation(state, board, "allied", [("de-81", ("us-7", "us-5"))])


def test_3_4c_a_blitzing_corps_next_to_an_enemy_must_attack_at_any_odds(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "designate", de_15=1208, de_81=1007, us_7=907, us_1=807)
    state.units["de-81"].blitz_active = True
    with pytest.raises(IllegalActionError) as error:
        combat.check_designation(state, board, "german", [])
    assert error.value.rule == "3.4c"
    assert error.value.reason == "LXXXI. Armeekorps is Blitzing and must attack this combat phase"
    combat.check_designation(state, board, "german", [("us-7", ("de-81",))])  # 3 against 4: allowed
    state.units["de-81"].hex = 1208 + 100  # next to no enemy unit: no battle is owed
    combat.check_designation(state, board, "german", [])


def test_2_4a_2_4b_unknown_units_in_a_designation_are_refused(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "designate", us_1=807, us_7=907, de_81=1007, de_15=1809)
    with pytest.raises(IllegalActionError) as error:
        combat.check_designation(state, board, "allied", [("xx-1", ("us-7",))])
    assert error.value.rule == "2.4a" and error.value.reason == "'xx-1' is not an enemy unit on the board"
    with pytest.raises(IllegalActionError) as error:
        combat.check_designation(state, board, "allied", [("de-81", ("xx-1",))])
    assert error.value.rule == "2.4b" and error.value.reason == "'xx-1' is not one of your units on the board"
    with pytest.raises(IllegalActionError) as error:  # de-81, out of Army Control, has 2
        combat.check_designation(state, board, "german", [("us-7", ("de-81",))])
    assert error.value.reason == (
        "against VII US Corps your CS is 2 to 4: the side with the higher CS is the attacker, so this battle is "
        "not yours to fight (only a Blitz corps attacks regardless of odds)"
    )


def test_2_4g_the_battle_line_of_the_log_names_the_attackers_the_odds_the_dice_and_every_modifier(
    board: Board,
) -> None:
    battle = {
        "attackers": ["us-7", "us-5"],
        "defender": "de-81",
        "attack": 8,
        "defence": 3,
        "column": "2:1",
        "dice": [2, 5],
        "drms": [["defender in woods hex", -1], ["attacking from river hex", -1]],
        "total": 5,
        "result": "C",
    }
    assert combat.describe_battle(board, battle) == (
        "VII US Corps + V US Corps (8) against LXXXI. Armeekorps (3) at 2:1: dice 2+5, defender in woods hex -1, "
        "attacking from river hex -1, total 5: C"
    )
    battle["drms"] = []
    assert ", no modifier, total 5" in combat.describe_battle(board, battle)


def test_2_4b_army_hqs_only_defend(fresh: SeriesState) -> None:
    state = position(fresh, "designate", us_1=907, us_7=1008, de_81=1007, de_15=1809)
    with pytest.raises(IllegalActionError, match=r"2.4b"):
        act(state, "allied", "designate", battles="de-81:us-1")


def test_2_4f_only_the_side_with_the_higher_cs_attacks(fresh: SeriesState) -> None:
    # One German corps (3) against an Allied corps (4): the Germans are not the attacker there.
    state = position(fresh, "designate", de_15=1809, de_81=1007, us_7=907, us_1=807)
    with pytest.raises(IllegalActionError, match=r"2.4f"):
        act(state, "german", "designate", battles="us-7:de-81")


def test_2_4h_sealed_designations_then_every_die_before_any_result(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "designate", us_1=807, us_7=907, us_5=1008, de_15=1306, de_81=1007, pz_6=1309, ss_1=1108)
    state, events = act(state, "allied", "designate", battles="de-81:us-7+us-5")
    sealed = [e for e in events if e.kind == "sealed"]
    assert sealed and sealed[0].secret_to == () and "content" not in sealed[0].data
    assert all(e.secret_to == ("allied",) for e in events if "content" in e.data)
    rolls_before = state.rolls_made
    state, events = act(state, "german", "designate", battles="us-5:ss-1")
    reveals = [e for e in events if e.kind == "reveal"]
    assert len(reveals) == 2
    for reveal in reveals:
        assert verify_receipt(reveal.data["content"], reveal.data["salt"], reveal.data["receipt"])
    kinds = [e.kind for e in events]
    battles = [e for e in events if e.kind == "combat"]
    assert len(battles) == 2 and state.rolls_made == rolls_before + 4
    moved = [i for i, k in enumerate(kinds) if k in ("surrender", "retreat", "blitz_loss", "phase")]
    assert all(i > max(i for i, k in enumerate(kinds) if k == "combat") for i in moved)
    # Cumulative: us-5 attacked in one battle and defended in the other; both results stand.
    assert {b["id"] for b in state.battles} == {"A1", "G1"}


def test_2_45_retreat_goes_toward_the_army_hq_never_into_enemy_zoc_unless_closer(
    fresh: SeriesState, board: Board
) -> None:
    state = position(fresh, "retreat", us_1=707, us_7=1007, de_81=1107)
    options = combat.retreat_options(state, board, "us-7", [1007])
    assert options
    for hex_ in options:
        assert board.grid.distance(hex_, 707) <= board.grid.distance(1007, 707)
    assert 1107 not in options


def test_2_45_the_hexes_a_retreat_may_enter_exactly(fresh: SeriesState, board: Board) -> None:
    # us-7 at 1007 is 3 hexes from its HQ at 0707; de-81 at 1107 controls 1008 and 1106.
    state = position(fresh, "retreat", us_1=707, us_7=1007, de_81=1107)
    # 0906, 0907 closer to the HQ; 1006 as far and free; 1008 as far but in enemy ZOC; 1106, 1107 farther.
    assert sorted(combat.retreat_options(state, board, "us-7", [1007])) == [906, 907, 1006]
    assert sorted(combat.retreat_options(state, board, "us-7", [1007, 906])) == [907, 1006]  # not back
    # A step into enemy ZOC that brings the unit closer is allowed: de-81 at 0806 controls 0906 and 0907.
    state = position(fresh, "retreat", us_1=707, us_7=1007, de_81=806)
    assert {906, 907} <= set(combat.retreat_options(state, board, "us-7", [1007]))


def test_2_45_a_corps_retreats_toward_its_army_hq_an_hq_or_a_corps_without_one_toward_its_home_edge(
    fresh: SeriesState, board: Board
) -> None:
    state = position(fresh, "retreat", us_1=707, us_7=1007, pz_6=1207)
    assert combat.retreat_target(state, board, "us-7") == ("hq", 707)
    assert combat.retreat_distance(state, board, "us-7", 1007) == 3
    assert combat.retreat_target(state, board, "us-1") == ("edge", None)
    # The Allied home edge is the west (column 1), the German the east (column 20).
    assert combat.retreat_distance(state, board, "us-1", 1007) == 9
    assert combat.retreat_distance(state, board, "pz-6", 1207) == 8
    state.units["us-1"].hex = None
    assert combat.retreat_target(state, board, "us-7") == ("edge", None)
    assert combat.retreat_distance(state, board, "us-7", 1007) == 9


def test_2_45_and_2_46_no_retreat_or_breakthrough_into_the_sea(fresh: SeriesState, board: Board) -> None:
    # us-7 on the coast at 0303, its HQ at 0105: the sea hex 0203 is no farther from the HQ, yet closed.
    state = position(fresh, "retreat", us_1=105, us_7=303)
    assert board.is_sea(203) and sorted(combat.retreat_options(state, board, "us-7", [303])) == [204, 304, 404]
    state.breakthroughs = [
        {"side": "allied", "battle": "D1", "units": ["us-7"], "left": 1, "vacated": [203], "used": False}
    ]
    with pytest.raises(IllegalActionError) as error:
        combat.check_advance(state, board, "allied", "us-7", 203)
    assert error.value.rule == "2.46" and error.value.reason == "0203 is not a land hex next to VII US Corps"


def test_2_45_a_unit_with_no_retreat_hex_surrenders(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "designate", us_1=707, us_7=1007, de_15=1807)
    others = ["de-81", "de-74", "de-67", "de-66", "de-85", "de-80"]
    for unit_id, hex_ in zip(others, board.grid.neighbours(1007), strict=False):
        state.units[unit_id].hex = hex_
    assert combat.retreat_options(state, board, "us-7", [1007]) == []
    state.retreats = [{"unit": "us-7", "left": 1, "path": [1007]}]
    from engine.wargame_commander.series import _next_retreat, _Run

    run = _Run(state)
    run.state.phase = "retreat"
    _next_retreat(run)
    assert run.state.units["us-7"].hex is None
    assert any(line["points"] == 5 and line["side"] == "german" for line in run.state.ledger)


def test_2_46_breakthrough_first_into_the_vacated_hex(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "breakthrough_allied", us_1=807, us_7=907, de_15=1809)
    state.breakthroughs = [
        {"side": "allied", "battle": "A1", "units": ["us-7"], "left": 2, "vacated": [1007], "used": False}
    ]
    state.units["us-7"].hex = 907
    # A frontline is needed (2.2c): stand in for one with a column of corps in column 5.
    for unit_id, row in zip(["br-1", "cdn-2", "br-8", "br-12", "br-30", "us-13"], (2, 5, 8, 11, 14, 17), strict=True):
        state.units[unit_id].hex = 600 + row
    with pytest.raises(IllegalActionError, match=r"2.46"):
        act(state, "allied", "advance", unit="us-7", to="0906")
    state, _ = act(state, "allied", "advance", unit="us-7", to="1007")
    state, _ = act(state, "allied", "advance", unit="us-7", to="1107")
    with pytest.raises(IllegalActionError, match=r"2.46"):
        act(state, "allied", "advance", unit="us-7", to="1207")


def test_2_46_each_breakthrough_step_is_checked_against_the_allowance_of_its_battle(
    fresh: SeriesState, board: Board
) -> None:
    state = position(fresh, "breakthrough_allied", us_1=807, us_7=907, de_81=1107)
    mine = {"side": "allied", "battle": "A1", "units": ["us-7"], "left": 2, "vacated": [1007], "used": False}
    theirs = {"side": "german", "battle": "D1", "units": ["us-7"], "left": 2, "vacated": [906], "used": True}
    state.breakthroughs = [theirs, mine]

    def refused(unit_id: str, to: int, rule: str, words: str) -> None:
        with pytest.raises(IllegalActionError) as error:
            combat.check_advance(state, board, "allied", unit_id, to)
        assert error.value.rule == rule and words in error.value.reason

    refused("de-81", 1007, "2.46", "not one of your units")
    refused("us-7", 1107, "2.46", "is not a land hex next to")
    refused("us-7", 807, "2.3g", "is occupied")
    refused("us-7", 906, "2.46", "first into the hex the enemy vacated")
    assert combat.check_advance(state, board, "allied", "us-7", 1007) is mine
    mine["used"] = True
    assert combat.check_advance(state, board, "allied", "us-7", 906) is mine
    mine["left"] = 0
    refused("us-7", 1007, "2.46", "no breakthrough movement into 1007: only corps of a won battle, first into the hex ")
    refused("xx-1", 1007, "2.46", "'xx-1' is not one of your units on the board")


def test_2_2c_no_breakthrough_while_the_frontline_is_broken(fresh: SeriesState) -> None:
    state = position(fresh, "breakthrough_allied", us_1=807, us_7=907, de_15=1809)
    state.breakthroughs = [
        {"side": "allied", "battle": "A1", "units": ["us-7"], "left": 1, "vacated": [1007], "used": False}
    ]
    with pytest.raises(IllegalActionError, match=r"2.2c"):
        act(state, "allied", "advance", unit="us-7", to="1007")


def test_2_47_engaged_corps_make_no_breakthrough(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "breakthrough_allied", us_1=807, us_7=907)
    state.units["us-7"].engaged = True
    with pytest.raises(IllegalActionError) as error:
        combat.check_advance(state, board, "allied", "us-7", 1007)
    assert error.value.rule == "2.47" and error.value.reason == "VII US Corps is Engaged: no breakthrough movement"


def test_2_43_results_and_5_1_battle_points() -> None:
    assert combat.result_effects("A2") == ("attacker", 2, False, False)
    assert combat.result_effects("D3") == ("defender", 3, False, False)
    assert combat.result_effects("AE") == ("", 0, True, False)
    assert combat.result_effects("DE") == ("", 0, False, True)
    assert combat.result_effects("ADE") == ("", 0, True, True)
    assert combat.result_effects("C") == ("", 0, False, False)


def test_2_44_isolated_attackers_and_defenders(fresh: SeriesState, board: Board) -> None:
    # Both Allied corps far from First Army's HQ (0807), the German corps far from 15. Armee's (2015).
    state = position(fresh, "designate", us_1=807, us_7=1507, us_5=1506, de_81=1607, de_15=2015)
    assert all(board.grid.are_adjacent(state.units[a].hex or 0, 1607) for a in ("us-7", "us-5"))
    drms = dict(combat.modifiers(state, board, "de-81", ("us-7", "us-5")))
    assert drms["2 attacker(s) out of Army Control"] == -2  # -1 per attacker isolated
    assert drms["defender out of Army Control"] == 1
    # The defender's HQ comes within five hexes: no more +1.
    state.units["de-15"].hex = 1806
    drms = dict(combat.modifiers(state, board, "de-81", ("us-7", "us-5")))
    assert "defender out of Army Control" not in drms
    # 3.4b: a Blitzing corps is immune to Army Control's CRT modifier.
    state = position(fresh, "designate", pz_5=2015, pz_58=1507, de_81=1506, us_7=1607, us_1=1410)
    assert not ground.in_army_control(state, board, "de-81")
    state.units["pz-58"].blitz_active = True
    drms = dict(combat.modifiers(state, board, "us-7", ("pz-58", "de-81")))
    assert drms["1 attacker(s) out of Army Control"] == -1


def test_2_4e_f_the_battles_a_side_may_designate(fresh: SeriesState, board: Board) -> None:
    options = combat.designation_options(fresh, board, "german")
    # Every option passes the designation check on its own; the whole group comes before its parts.
    for defender, attackers in options:
        combat.check_designation(fresh, board, "german", [(defender, attackers)])
    assert options.index(("us-5", ("de-67", "ss-1"))) < options.index(("us-5", ("ss-1",)))
    # A German corps of 3 alone against an Allied corps of 4 is not the attacker (2.4f).
    assert ("us-5", ("de-67",)) not in options


def test_2_4g_the_dice_plus_the_modifiers_on_the_odds_column_give_the_result(fresh: SeriesState) -> None:
    state = position(fresh, "designate", us_1=807, us_7=907, us_5=1008, de_15=1306, de_81=1007)
    state, _ = act(state, "allied", "designate", battles="de-81:us-7+us-5")
    state, _ = act(state, "german", "designate", battles="")
    battle = state.battles[0]
    assert battle["attack"] == 8 and battle["column"] == combat.COLUMNS[combat.column_of(8, battle["defence"])]
    assert battle["total"] == sum(battle["dice"]) + battle["drm"]
    assert battle["result"] == combat.CRT[combat.crt_row(battle["total"])][battle["column_index"]]


def test_1_6c_and_2_4d_tac_air_damage_from_the_report_lowers_the_corps_cs(fresh: SeriesState, board: Board) -> None:
    state = position(fresh, "report", frame=1, us_1=807, us_7=907, de_15=1806, de_81=1707)
    state, _ = act(state, "cm", "report", text="corps,de-81,heavy\ndepot,cologne")
    state, _ = act(state, "allied", "accept")
    state, _ = act(state, "german", "accept")
    assert combat.strength(state, board, "de-81") == 1  # 3 less 2 (2.41 heavy damage)
    # 1.6b: the depot ruled damaged scores 1 for the Allies (5.1) and costs its army a DRM (2.44).
    assert state.depots["cologne"].damaged and state.ledger[-1]["points"] == 1.0
