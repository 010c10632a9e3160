"""Table lookup: DRMs with their rounding, the source's worked examples, the damaged rows' readings."""

from __future__ import annotations

import pytest
from conftest import bundled

from engine.asl.module import Drm, Side, Table
from engine.asl.tables import TableRoll, look_up, parse_drm_spec, resolve, roll_dice
from engine.contract import InvalidActionError
from engine.dice import Dice


def test_drm_rounding_fru_and_frd() -> None:
    fru = Drm("hexes", "", 1, "count", divisor=2, rounding="up")
    frd = Drm("x", "", 1, "count", divisor=2, rounding="down")
    assert [fru.modifier(n) for n in range(5)] == [0, 1, 1, 2, 2]
    assert [frd.modifier(n) for n in range(5)] == [0, 0, 1, 1, 2]


def test_9_6202_example_drm_totals() -> None:
    """The 21PM example: British +7, German +3 (the example's own +4 Campaign Exhaustion)."""
    table = bundled().tables["elr_loss"]
    british = resolve(
        table,
        {"cvp": 42, "scenarios": 1, "attack_chits": 1, "exhaustion_allied": 4, "ammo_shortage": 2},
        side="allied",
    )
    assert sum(d.modifier for d in british) == 7
    german = resolve(table, {"cvp": 38, "scenarios": 1, "attack_chits": 1, "exhaustion_german": 4}, side="german")
    assert sum(d.modifier for d in german) == 3
    with pytest.raises(InvalidActionError, match="applies only to the allied side"):
        resolve(table, {"ammo_shortage": 2}, side="german")


def test_9_6202_per_30_cvp_is_rounded_down() -> None:
    table = bundled().tables["elr_loss"]
    assert [d.modifier for d in resolve(table, {"cvp": 29}, "allied")] == [0]
    assert [d.modifier for d in resolve(table, {"cvp": 60}, "allied")] == [-2]


def test_9_6142_example_panther_ma_repair() -> None:
    table = bundled().tables["weapon_repair"]
    drms = resolve(table, parse_drm_spec(table, "vehicular,repair_number=1"))
    assert look_up(table, (3,), drms, None).result == "Repaired"
    assert look_up(table, (4,), drms, None).result.startswith("Eliminated")
    with_leader = resolve(table, parse_drm_spec(table, "vehicular,repair_number=1,armor_leader=2"))
    assert look_up(table, (5,), with_leader, None).result == "Repaired"
    assert look_up(table, (6,), with_leader, None).result.startswith("Eliminated")


def test_9_6054_escape_rows_and_columns() -> None:
    table = bundled().tables["escape"]
    assert look_up(table, (4, 4), (), "infantry").result.startswith("Escapes")
    assert look_up(table, (4, 5), (), "infantry").result == "Escapes, Replaced (2,3)"
    assert look_up(table, (5, 5), (), "vehicle").result.startswith("Eliminated (6)")
    assert look_up(table, (6, 6), (), "infantry").result == "All units Eliminated"
    drms = resolve(table, parse_drm_spec(table, "encircled,hexes=3,leader=-1"), column="infantry")
    assert sum(d.modifier for d in drms) == 2 + 2 - 1
    with pytest.raises(InvalidActionError, match="applies only to the infantry column"):
        resolve(table, {"encircled": 1}, column="vehicle")


def test_drm_requests_are_checked() -> None:
    table = bundled().tables["escape"]
    with pytest.raises(InvalidActionError, match="has no DRM 'flying'; its DRMs are: lone_smc"):
        parse_drm_spec(table, "flying")
    with pytest.raises(InvalidActionError, match="needs a number"):
        parse_drm_spec(table, "hexes=many")
    with pytest.raises(InvalidActionError, match="cannot be negative"):
        parse_drm_spec(table, "hexes=-2")


def test_9_6201_attack_chit_drm_is_y_minus_one_minimum_zero() -> None:
    drm = bundled().tables["ammo_shortage"].drm("attack_chits")
    assert [drm.modifier(n) for n in (0, 1, 2, 4)] == [0, 0, 1, 3]


def test_9_62164_wind_final_below_the_printed_range_is_no_wind() -> None:
    table = bundled().tables["wind"]
    night = resolve(table, {"night": 1})
    assert look_up(table, (1,), night, None).result == "No Wind"


def test_9_6101_wounded_leader_british_drm() -> None:
    table = bundled().tables["wounded_leader"]
    assert look_up(table, (2,), resolve(table, {"british": 1}, "allied"), None).result == "Retained unwounded"
    assert look_up(table, (5,), (), None).result == "Eliminated"


def test_drm_requests_read_spaces_empty_parts_flags_counts_and_signed_numbers() -> None:
    table = bundled().tables["escape"]
    spec = " encircled , , hexes = 3,leader=-1, lone_smc=yes, captured_vehicle=true, ct_afv=1, night="
    assert parse_drm_spec(table, spec) == {
        "encircled": 1,
        "hexes": 3,
        "leader": -1,
        "lone_smc": 1,
        "captured_vehicle": 1,
        "ct_afv": 1,
        "night": 1,
    }
    assert parse_drm_spec(table, "hexes=0") == {"hexes": 0}
    assert parse_drm_spec(table, "") == {}
    refusals = {
        "flying": "the Escape Table has no DRM 'flying'; its DRMs are: lone_smc, non_ct_vehicle, night, ct_afv,",
        "encircled=2": "DRM 'encircled' is a yes/no modifier; name it without '='",
        "hexes=many": "DRM 'hexes' needs a number, written hexes=n (e.g. hexes=2)",
        "hexes=-1": "DRM 'hexes' counts occurrences and cannot be negative",
    }
    for spec, reason in refusals.items():
        with pytest.raises(InvalidActionError) as error:
            parse_drm_spec(table, spec)
        assert error.value.rule == "9.6054" and error.value.reason.startswith(reason)


def test_drms_apply_in_the_tables_order_with_their_quantities_whatever_the_side_or_column_unnamed() -> None:
    table = bundled().tables["escape"]
    applied = resolve(table, {"hexes": 3, "encircled": 1, "leader": -2})
    assert [(d.id, d.quantity, d.modifier) for d in applied] == [
        ("leader", -2, -2),
        ("hexes", 3, 2),
        ("encircled", 1, 2),
    ]
    assert applied[0].to_json() == {"id": "leader", "text": table.drm("leader").text, "quantity": -2, "modifier": -2}
    assert resolve(table, {}, "allied", "infantry") == ()
    with pytest.raises(InvalidActionError) as error:
        resolve(table, {"encircled": 1}, column="vehicle")
    assert error.value.rule == "9.6054"
    assert error.value.reason == "DRM 'encircled' (Encircled) applies only to the infantry column"
    elr = bundled().tables["elr_loss"]
    with pytest.raises(InvalidActionError) as error:
        resolve(elr, {"ammo_shortage": 2}, side="german")
    assert error.value.reason.endswith("applies only to the allied side")


def test_a_roll_reads_its_row_and_column_and_tells_everything_it_used() -> None:
    table = bundled().tables["escape"]
    drms = resolve(table, {"encircled": 1, "leader": -1}, column="infantry")
    rolled = look_up(table, (4, 5), drms, "infantry")
    assert (rolled.table, rolled.rule, rolled.dice, rolled.final, rolled.column) == (
        "escape",
        "9.6054",
        (4, 5),
        10,
        "infantry",
    )
    assert rolled.row == "10" and rolled.original == 9 and sum(d.modifier for d in rolled.drms) == 1
    assert rolled.result == table.row_for(10).results["infantry"] and rolled.effect == table.row_for(10).effect
    assert rolled.to_json() == {
        "table": "escape",
        "rule": "9.6054",
        "dice": [4, 5],
        "drms": [d.to_json() for d in drms],
        "final": 10,
        "column": "infantry",
        "result": rolled.result,
        "effect": rolled.effect,
        "row": "10",
    }
    assert rolled.describe("Escape") == (
        f"Escape (9.6054): rolled 4+5, -1 {table.drm('leader').text}, +2 Encircled; final 10 → {rolled.result}"
    )
    assert look_up(table, (1, 1), (), None).column == "infantry"  # the first column when none is named
    unknown = "the Escape Table has no column 'boat'; its columns are infantry, vehicle"
    with pytest.raises(InvalidActionError) as error:
        look_up(table, (3, 3), (), "boat")
    assert error.value.rule == "9.6054" and error.value.reason == unknown


def roll_table_as_refit_does(
    table: Table,
    dice: Dice,
    quantities: dict[str, int] | None = None,
    side: Side | None = None,
    column: str | None = None,
) -> TableRoll:
    """A roll on a table as the Refit Phase makes one: the DRMs that apply, the dice, the row."""
    drms = resolve(table, quantities or {}, side, column)
    return look_up(table, roll_dice(table, dice), drms, column)


def test_a_dr_table_rolls_two_dice_a_dr_table_one() -> None:
    tables = bundled().tables
    dice = Dice(b"\x02" * 32)
    two = roll_table_as_refit_does(tables["escape"], dice, {"encircled": 1}, column="infantry")
    assert len(two.dice) == 2 and dice.rolls_made == 2 and two.final == sum(two.dice) + 2
    one = roll_table_as_refit_does(tables["wounded_leader"], dice)
    assert len(one.dice) == 1 and dice.rolls_made == 3 and one.column == "result"


def test_a_roll_on_a_table_checks_its_drms_against_the_side_and_column_named() -> None:
    tables = bundled().tables
    with pytest.raises(InvalidActionError) as error:
        roll_table_as_refit_does(tables["wounded_leader"], Dice(b"\x03" * 32), {"british": 1}, side="german")
    british = tables["wounded_leader"].drm("british").text
    assert error.value.reason == f"DRM 'british' ({british}) applies only to the allied side"
    with pytest.raises(InvalidActionError) as error:
        roll_table_as_refit_does(
            tables["escape"], Dice(b"\x03" * 32), {"encircled": 1}, side="allied", column="vehicle"
        )
    assert error.value.reason == "DRM 'encircled' (Encircled) applies only to the infantry column"
    assert roll_table_as_refit_does(tables["escape"], Dice(b"\x03" * 32), column="vehicle").column == "vehicle"


def test_a_roll_gives_its_rows_effect_and_a_table_without_drms_says_so() -> None:
    tables = bundled().tables
    assert look_up(tables["first_move"], (4,), (), None).effect == "german"
    assert look_up(tables["first_move"], (5,), (), None).effect == "allied"
    with pytest.raises(InvalidActionError) as error:
        parse_drm_spec(tables["first_move"], "night")
    assert error.value.reason.endswith("its DRMs are: none")
