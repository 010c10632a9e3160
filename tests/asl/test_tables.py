"""Table lookup: DRMs with their rounding, the source's worked examples, the damaged rows' readings."""

from __future__ import annotations

import pytest
from conftest import bundled

from engine.asl.module import Drm
from engine.asl.tables import look_up, parse_drm_spec, resolve
from engine.contract import InvalidActionError


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
