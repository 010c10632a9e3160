"""Rules of the RePh the keeper once got wrong: SW charts, CPP without a chart, an Idle last date, the Initial
Scenario's weather, wind direction, and salts and secret dice after a moderator's correction."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import SEED, Table, bundled, new_table

from engine.asl import load_table_override, salt_for, verify_receipt
from engine.asl.refit import WINDY
from engine.contract import IllegalActionError, InvalidActionError
from engine.sealing import secret_dice
from tests.asl.campaign_system import SYSTEM
from tests.asl.refit_play import advance, end_scenario, to_first_reph

FULL_INFANTRY = """
[rg_chart]
status = "loaded"
[[rg_chart.entry]]
id = "I3"
side = "allied"
type = "TEST Pltn with mortar"
cost = 1
units = "3/2"
unit_type = "squads"
date_max = 1
cg_max = 9
depletion = false
[[rg_chart.entry]]
id = "I4"
side = "allied"
type = "TEST Engineer Pltn"
cost = 1
units = "2/1"
unit_type = "squads"
date_max = 1
cg_max = 9
depletion = false
[[rg_chart.entry]]
id = "I2"
side = "german"
type = "TEST Pioneer Pltn"
cost = 1
units = "3/2"
unit_type = "squads"
date_max = 1
cg_max = 9
depletion = false
"""
"""TEST DATA: RGs not eligible for Depletion, so the SW chart is read without any dr (9.6182: Full gets all)."""


def test_9_6182_every_column_of_both_sw_charts_is_reachable() -> None:
    module = bundled()
    allied = {
        rg: [(i.weapon, i.count, i.depleted_max) for i in items] for rg, items in module.sw_charts["allied"].items()
    }
    german = {
        rg: [(i.weapon, i.count, i.depleted_max) for i in items] for rg, items in module.sw_charts["german"].items()
    }
    assert allied["I4"] == [("LMG", 1, 5), ("FT", 1, 2), ("DC", 2, 3)]  # not "LMG, PIAT, FT, FT"
    assert allied["I3"] == [("LMG", 1, 5), ("PIAT", 1, 3), ("Lt. Mtr (OML 2-in)", 1, 3)]  # note a
    assert german["I2"] == [("FT", 1, 2), ("DC", 2, 3)]
    assert german["I3"] == [("LMG", 1, 1)]  # the 9.6182 example: a VG Pltn gets one LMG
    weapons = {w for rows in (allied, german) for items in rows.values() for w, _, _ in items}
    assert {"LMG", "PIAT", "FT", "DC", "Lt. Mtr (OML 2-in)", "PSK/Lt. Mtr"} <= weapons


def test_9_6182_full_rgs_receive_their_dc_ft_and_light_mortar() -> None:
    table = new_table({"cpp": {"allied": 5, "german": 5}}, chart=False, begin=False)
    table.act("organiser", "load_table", text=FULL_INFANTRY, file="full.toml")
    table.act("allied", "begin")
    table.act("allied", "purchase", rgs="I3,I4")
    table.act("german", "purchase", rgs="I2")
    table.act("allied", "roll_rgs")
    table.act("german", "roll_rgs")
    allied = {rg.key: rg.sw for rg in table.state.rosters["allied"].rg_record}
    assert allied == {"I3": ["LMG", "PIAT", "Lt. Mtr (OML 2-in)"], "I4": ["LMG", "FT", "DC", "DC"]}
    assert [rg.sw for rg in table.state.rosters["german"].rg_record] == [["FT", "DC", "DC"]]


def test_9_617_without_an_rg_chart_unspent_cpp_are_halved_on_every_date() -> None:
    table = new_table({"cpp": {"allied": 9, "german": 4}}, chart=False)
    advance(table)
    end_scenario(table, 10, 10)
    advance(table, chits={"18AM": {"allied": "attack", "german": "idle"}})
    assert table.state.date == "18AM" and table.state.phase == "scenario"
    for side in ("allied", "german"):
        roster = table.state.rosters[side]
        line = roster.line("18AM")
        assert line.received is not None and line.spent == 0
        carried = roster.line("17N").left
        assert line.left == -(-(carried + line.received) // 2)  # (left before + received) / 2, FRU
        assert roster.cpp_left == line.left


def test_9_6211_an_idle_last_date_ends_with_the_cg_victory_conditions_decided() -> None:
    table = new_table({"end": "18AM"})
    advance(table)
    end_scenario(table, 10, 10)
    advance(table, chits={"18AM": {"allied": "idle", "german": "idle"}})
    assert table.state.phase == "victory" and SYSTEM.result(table.state) is None
    assert set(table.prompts()) == {"allied", "german"}
    with pytest.raises(InvalidActionError, match="give the CG winner"):
        table.act("german", "report_end")
    with pytest.raises(IllegalActionError, match="no Sudden Death"):
        table.act("german", "report_end", sudden_death=True)
    table.act("german", "report_end", winner="allied", notes="British hold Block H")
    table.act("allied", "reject_end")
    assert table.state.phase == "victory"
    table.act("german", "report_end", winner="german")
    table.act("allied", "confirm_end")
    result = SYSTEM.result(table.state)
    assert result is not None and result.winner == "german" and "German victory" in result.text
    assert all(s.revealed for s in table.state.secrets)


def test_9_62161_the_initial_scenarios_weather_gives_18am_its_previous_scenario_drms() -> None:
    table = new_table()
    advance(table)
    with pytest.raises(InvalidActionError, match="weather must be one of"):
        table.act("allied", "report_end", weather="snow")
    table.act("allied", "report_end", cvp_allied=1, cvp_german=1, weather="mist", ec="wet", wind="heavy_wind")
    table.act("german", "confirm_end")
    initial = table.state.history[0]
    assert (initial.weather, initial.ec, initial.wind) == ("mist", "wet", "heavy_wind")
    advance(table, chits={"18AM": {"allied": "attack", "german": "idle"}})
    rolls = {e.data["roll"]["table"]: e.data["roll"] for e in table.events if e.kind == "roll"}
    assert {d["id"]: d["modifier"] for d in rolls["weather"]["drms"]} == {"previous_mist": -2}
    assert {d["id"]: d["modifier"] for d in rolls["ec"]["drms"]} == {"previous_wet": -1}
    with pytest.raises(IllegalActionError, match="only for the CG Initial Scenario"):
        table.act("allied", "report_end", cvp_allied=1, cvp_german=1, weather="clear")


def _windy_table() -> tuple[Table, dict[str, Any]]:
    for n in range(60):
        state = SYSTEM.new_game(
            "a-bridge-too-far",
            {"start": "17N", "end": "19PM", "elr": {"allied": 5, "german": 3}, "san": {"allied": 3, "german": 4}},
            SEED[:-1] + bytes([n]),
        )
        table = Table(state)
        table.act("allied", "begin")
        advance(table)
        end_scenario(table, 1, 1)
        advance(table, chits={"18AM": {"allied": "attack", "german": "idle"}})
        if table.state.record().wind in WINDY:
            rolls = {e.data["roll"]["table"]: e.data["roll"] for e in table.events if e.kind == "roll"}
            return table, rolls
    raise AssertionError("no seed gave a wind")


def test_9_62164_a_wind_gets_its_direction_rolled() -> None:
    table, rolls = _windy_table()
    record = table.state.record()
    assert rolls["wind_direction"]["rule"] == "9.62164"
    assert record.wind_direction == str(rolls["wind_direction"]["final"])
    calm = new_table()
    advance(calm)
    assert "wind_direction" not in {e.data.get("roll", {}).get("table") for e in calm.events}


def test_a_correction_gives_fresh_salts_and_fresh_secret_dice() -> None:
    table = to_first_reph()
    advance(table, chits={"18AM": {"allied": "attack", "german": "attack"}})
    before = table.state  # the position a moderator goes back to, with a CPP DR still to roll at 18PM
    end_scenario(table, 1, 1)
    table.play_secret_steps(until="roll_cpp")
    rolled = table.state.copy()
    table.act("allied", "roll_cpp")
    first = table.state.secrets[-1]
    # the moderator takes the roll back: the same position, plus the correction
    table.state = rolled
    table.act("organiser", "corrected", epoch=1)
    with pytest.raises(InvalidActionError, match="must grow"):
        table.act("organiser", "corrected", epoch=1)
    table.act("allied", "roll_cpp")
    second = table.state.secrets[-1]
    assert first.id == second.id and second.epoch == 1
    seed = bytes.fromhex(table.state.seed)
    assert salt_for(seed, second.id, 1) != salt_for(seed, first.id, 0)
    assert verify_receipt(second.content, salt_for(seed, second.id, 1), second.receipt)
    assert first.receipt != second.receipt
    # the re-roll comes from the epoch-1 stream, not the epoch-0 dice the player already saw
    at = rolled.secret_rolls["allied"]
    assert list(second.content["dice"]) == list(secret_dice(seed, "allied", at, 1).two_d6())
    old, new = secret_dice(seed, "allied", at, 0), secret_dice(seed, "allied", at, 1)
    assert [old.d6() for _ in range(12)] != [new.d6() for _ in range(12)]
    assert before.epoch == 0


def test_loading_one_sides_chart_keeps_the_others() -> None:
    module = load_table_override(bundled(), FULL_INFANTRY, "full.toml")
    german_only = """
[rg_chart]
status = "loaded"
[[rg_chart.entry]]
id = "I1"
side = "german"
type = "TEST SS Pltn"
cost = 2
units = "3/2"
unit_type = "squads"
date_max = 1
cg_max = 9
"""
    merged = load_table_override(module, german_only, "german.toml", side="german")
    assert [(e.side, e.id) for e in merged.rg_chart] == [("allied", "I3"), ("allied", "I4"), ("german", "I1")]
    with pytest.raises(Exception, match="not the german side"):
        load_table_override(module, FULL_INFANTRY, "mixed.toml", side="german")


def test_arguments_are_read_by_the_shared_reader_and_a_malformed_one_changes_nothing() -> None:
    """ASL reads its actions' arguments with :mod:`engine.arguments`: the same refusal words as every system,
    raised before anything changes; a written ``false`` is false."""
    table = to_first_reph()
    before = SYSTEM.state_to_json(table.state)
    with pytest.raises(InvalidActionError, match=r"argument 'amount' must be a whole number, not 'many'"):
        table.act("allied", "cvp", amount="many")
    with pytest.raises(InvalidActionError, match=r"missing argument 'amount' \(a whole number\)"):
        table.act("allied", "cvp")
    with pytest.raises(InvalidActionError, match=r"missing argument 'kind' \(text\)"):
        table.act("allied", "add_units", name="4-5-7")
    assert SYSTEM.state_to_json(table.state) == before
    advance(table)
    with pytest.raises(InvalidActionError, match=r"argument 'sudden_death' must be true or false, not 'perhaps'"):
        end_scenario(table, sudden_death="perhaps")
    end_scenario(table, 3, 4, sudden_death="false", winner="draw")  # read as true, it would be 9.6212's
    assert table.state.result is not None and table.state.result["text"] == "The CG ends in a draw."
