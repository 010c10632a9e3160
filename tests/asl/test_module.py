"""The module as data: every table of the source with its rule, damage marks, and validated overrides."""

from __future__ import annotations

import pytest
from conftest import SEED, TEST_CHART, bundled, new_table

from engine.asl import AslCampaignSystem, ModuleError, load_table_override
from engine.contract import InvalidActionError, NotYourTurnError
from scenarios.asl import module_text
from tests.asl.campaign_system import SYSTEM

SOURCE_TABLES = {
    "escape": "9.6054",
    "wounded_leader": "9.6101",
    "san_adjustment_allied": "9.61221",
    "san_adjustment_german": "9.61222",
    "shift": "9.613",
    "immobilization_repair": "9.6141",
    "stun_recovery": "9.6141",
    "weapon_repair": "9.6142",
    "special_ammo": "9.6144",
    "rg_strength": "9.6181",
    "leader": "9.6183",
    "composition_A2": "9.6184",
    "composition_A3": "9.6184",
    "composition_A4": "9.6184",
    "composition_A6": "9.6184",
    "ammo_shortage": "9.6201",
    "elr_loss": "9.6202",
    "dual_setup": "9.62133",
    "first_move": "9.6215",
    "weather": "9.62161",
    "ec": "9.62163",
    "wind": "9.62164",
}


def test_every_table_of_the_source_is_shipped_with_its_rule() -> None:
    module = bundled()
    for table_id, rule in SOURCE_TABLES.items():
        assert module.tables[table_id].rule == rule
    assert module.initiative == {
        "attack/attack": "dual",
        "attack/idle": "allied_assault",
        "idle/attack": "german_assault",
        "idle/idle": "idle",
    }
    assert len(module.fortifications) == 14
    assert [r.date for r in module.reinforcements] == ["18AM", "18AM", "18PM", "18PM", "19AM", "20AM"]


def test_9_6161_cpp_base_number_chart() -> None:
    module = bundled()
    assert [d.id for d in module.dates][:3] == ["17N", "18AM", "18PM"]
    assert module.date("17N").cpp == {}
    assert module.date("18AM").cpp == {"allied": 20, "german": 15}
    assert module.date("19EVE").cpp == {"allied": 0, "german": 30}
    assert module.date("21PM").exhaustion == 3
    assert module.date("21EVE").exhaustion == 4
    assert [d.id for d in module.dates if d.night] == ["17N", "18N", "19N", "20N"]


def test_9_6152_reinforcement_schedule_reads_note_marks_apart() -> None:
    module = bundled()
    allied_18am = next(r for r in module.reinforcements if r.date == "18AM" and r.side == "allied")
    assert allied_18am.rgs == ("I1", "I2") and allied_18am.san == 2 and allied_18am.san_max == 7
    german_18am = next(r for r in module.reinforcements if r.date == "18AM" and r.side == "german")
    assert german_18am.fpp == 20 and german_18am.san == -1 and german_18am.san_min == 2


def test_9_617_rg_chart_is_absent_and_marked_not_invented() -> None:
    module = bundled()
    assert module.rg_chart == ()
    assert module.rg_chart_status.startswith("absent")
    assert "override" in module.rg_chart_status
    assert module.cgs == {} and module.cgs_status.startswith("absent")


def test_damaged_places_are_marked_in_the_data() -> None:
    module = bundled()
    rules = {d.rule for d in module.damage}
    for rule in ("9.6054", "9.6181", "9.6152", "9.617", "9.6202", "9.6182", "9.6183", "9.619"):
        assert any(rule in r for r in rules), rule
    for table_id in ("escape", "rg_strength", "shift", "leader", "elr_loss", "wind"):
        assert module.tables[table_id].damaged, table_id


def test_9_6181_rg_strength_drms_read_without_their_note_marks() -> None:
    table = bundled().tables["rg_strength"]
    assert table.drm("british").value == -2
    assert table.drm("vg").value == 1
    assert table.drm("exhaustion").divisor == 2 and table.drm("exhaustion").rounding == "down"


def test_override_loads_the_rg_chart() -> None:
    module = load_table_override(bundled(), TEST_CHART, "example_rg_chart.toml")
    assert module.rg_chart_status == "loaded"
    assert module.rg("german", "i1(k)") is not None
    assert module.rg("german", "I1") is None
    assert module.cgs["TEST-CG"].attack_chits == {"allied": 1, "german": 2}


def test_override_errors_name_the_file_the_entry_and_the_problem() -> None:
    bad = """
[tables.wounded_leader]
rule = "9.6101"
title = "Wounded Leader Table"
dice = "dr"
rows = [ { max = 1, result = "a" }, { min = 3, max = 4, result = "b" }, { min = 5, result = "c" } ]
"""
    with pytest.raises(ModuleError) as caught:
        load_table_override(bundled(), bad, "fix.toml")
    assert "fix.toml: tables.wounded_leader: rows[2]: starts at 3 but the row before ends at 1" in str(caught.value)


def test_override_refuses_unknown_blocks_bad_toml_and_bad_references() -> None:
    with pytest.raises(ModuleError, match=r"x\.toml: dates: cannot be overridden"):
        load_table_override(bundled(), "[[dates]]\nid='1'\n", "x.toml")
    with pytest.raises(ModuleError, match=r"x\.toml: \(file\): not valid TOML"):
        load_table_override(bundled(), "[tables", "x.toml")
    chart = """
[[rg_chart.entry]]
id = "A9"
side = "german"
type = "Tanks"
cost = 5
units = "2/1"
date_max = 1
cg_max = 1
composition = "composition_A9"
"""
    with pytest.raises(ModuleError, match="'composition' names unknown table 'composition_A9'"):
        load_table_override(bundled(), chart, "x.toml")
    with pytest.raises(ModuleError, match="'units' must read full/depleted"):
        load_table_override(bundled(), chart.replace('"2/1"', '"two"'), "x.toml")


def test_organiser_override_through_an_action_is_validated_and_logged() -> None:
    table = new_table(chart=False, begin=False)
    before = SYSTEM.state_to_json(table.state)
    with pytest.raises(InvalidActionError, match=r"override.toml: tables.stun_recovery: rows\[3\]: only the first"):
        table.act(
            "organiser",
            "load_table",
            text='[tables.stun_recovery]\nrule="9.6141"\ntitle="t"\ndice="dr"\n'
            'rows=[{min=1,max=2,result="a"},{min=3,result="b"},{min=3,result="c"}]',
        )
    assert SYSTEM.state_to_json(table.state) == before
    with pytest.raises(NotYourTurnError):
        table.act("organiser", "done")
    with pytest.raises(Exception, match="only the organiser"):
        table.act("allied", "load_table", text=TEST_CHART)
    events = table.act("organiser", "load_table", text=TEST_CHART, file="chart.toml")
    assert "chart.toml: rg_chart, cgs replaced" in events[0].text
    assert SYSTEM.view(table.state, None)["rg_chart_status"] == "loaded"


def test_the_engine_takes_its_modules_from_its_caller_and_keeps_no_global() -> None:
    import engine.asl

    assert not hasattr(engine.asl, "SYSTEM")  # no module-level system for a test or the bot to configure
    options = {"start": "17N", "end": "19PM", "elr": {"allied": 5, "german": 3}, "san": {"allied": 3, "german": 4}}
    with pytest.raises(InvalidActionError, match="no data for the module 'a-bridge-too-far'"):
        AslCampaignSystem().new_game("a-bridge-too-far", options, SEED)
    given: list[str] = []

    def modules(module_id: str) -> tuple[str, str]:
        given.append(module_id)
        return module_text(module_id)

    state = AslCampaignSystem(modules).new_game("a-bridge-too-far", options, SEED)
    assert given == ["a-bridge-too-far"] and state.module["module"]["id"] == "a-bridge-too-far"


GERMAN_ENTRY = (
    '[rg_chart]\nstatus = "loaded"\n[[rg_chart.entry]]\nid = "G1"\nkg = "K"\nside = "german"\ntype = "TEST Pltn"\n'
    'cost = 2\nunits = "3/2"\nunit_type = "squads"\ndate_max = 1\ncg_max = 1\n'
)


def test_9_617_rg_chart_loads_by_entry_and_says_what_it_replaced() -> None:
    """A second load without `side` keeps the entries it does not name (a chart for both sides built a short
    text at a time) and the channel is told which entries were replaced, added and kept."""
    table = new_table(chart=False, begin=False)
    table.act("organiser", "load_table", text=TEST_CHART, file="chart.toml")
    first = [(e["side"], e["id"]) for e in table.state.module["rg_chart"]["entry"]]
    events = table.act("organiser", "load_table", text=GERMAN_ENTRY, file="german.toml")
    keys = [(e["side"], e["id"]) for e in table.state.module["rg_chart"]["entry"]]
    assert keys == [*first, ("german", "G1")]
    assert f"added german G1; {len(first)} unchanged" in events[0].text
    events = table.act("organiser", "load_table", text=GERMAN_ENTRY.replace("cost = 2", "cost = 3"), file="fix.toml")
    assert "replaced german G1" in events[0].text
    costs = {e["id"]: e["cost"] for e in table.state.module["rg_chart"]["entry"] if e["side"] == "german"}
    assert costs["G1"] == 3 and len(table.state.module["rg_chart"]["entry"]) == len(first) + 1
