"""The unit roster: units kept from date to date, RG units, RePh rolls applied to named units, the map state."""

from __future__ import annotations

import pytest
from conftest import Table, new_table

from engine.asl.units import Consequence, Unit, casualty_reduce, consequences, harden, replace
from engine.contract import IllegalActionError, InvalidActionError
from tests.asl.campaign_system import SYSTEM
from tests.asl.refit_play import advance, end_scenario


def initial_ob(table: Table) -> None:
    table.act("allied", "add_units", kind="squad", name="6-5-8", count=3, experience="elite", area="A")
    table.act("allied", "add_units", kind="leader", name="8-1", area="A")
    table.act("allied", "add_units", kind="sw", name="LMG", area="A")
    table.act("german", "add_units", kind="vehicle", name="PzKpfw IIIL", area="C")


def to_reph_with_units() -> Table:
    table = new_table()
    initial_ob(table)
    advance(table)
    end_scenario(table, 10, 10)
    return table


def to_step(table: Table, rule: str) -> None:
    for _ in range(50):
        if table.step_rule() == rule:
            return
        for seat in list(table.prompts()):
            table.done(seat)
    raise AssertionError(f"never reached {rule}")


def units(table: Table, side: str) -> dict[str, Unit]:
    return {u.id: u for u in table.state.rosters[side].units}


def test_9_6_units_are_added_with_ids_never_reused_and_refused_when_unreadable() -> None:
    table = new_table()
    initial_ob(table)
    assert list(units(table, "allied")) == ["B1", "B2", "B3", "B4", "B5"]
    assert units(table, "german")["G1"].name == "PzKpfw IIIL"
    assert "B1-B3 6-5-8 squad (elite) in A added (Initial OB)" in table.channel()
    with pytest.raises(InvalidActionError, match="a unit is one of"):
        table.act("allied", "add_units", kind="tank", name="x")
    with pytest.raises(InvalidActionError, match="experience is one of"):
        table.act("allied", "add_units", kind="squad", name="4-4-7", experience="veteran")
    with pytest.raises(InvalidActionError, match="no unit 'G1'"):
        table.act("allied", "update_units", units="G1", status="eliminated")  # only one's own units


def test_9_6101_a_wounded_leader_rolls_and_the_result_is_applied_to_him() -> None:
    table = to_reph_with_units()
    to_step(table, "9.610")
    with pytest.raises(IllegalActionError, match="wounded Retained leaders") as caught:
        table.act("allied", "roll", table="wounded_leader", units="B4")
    assert caught.value.rule == "9.6101"
    with pytest.raises(IllegalActionError, match="wounded Retained leaders"):
        table.act("allied", "roll", table="wounded_leader", units="B1")  # a squad
    table.act("allied", "update_units", units="B4", wounded="yes", note="hit in 18K4 Melee")
    table.act("allied", "roll", table="wounded_leader", units="B4")
    roll = [e for e in table.events if e.kind == "roll"][-1].data["roll"]
    leader = units(table, "allied")["B4"]
    if roll["final"] <= 1:
        assert leader.status == "retained" and not leader.wounded
    elif roll["final"] <= 4:
        assert leader.status == "retained" and leader.wounded
    else:
        assert leader.status == "eliminated"
    assert "Wounded Leader Table" in leader.history[-1]


def test_9_6054_escape_results_follow_the_named_units() -> None:
    squad = Unit("B1", "squad", "6-5-8", experience="1st line")
    assert consequences("escape", "Escapes, Replaced (2,3), then Casualty Reduced", squad).replace
    assert consequences("escape", "Escapes, Replaced (2,3), then Casualty Reduced", squad).reduce
    assert consequences("escape", "All units Eliminated", squad).status == "eliminated"
    tank = Unit("G1", "vehicle", "PzKpfw IIIL")
    assert consequences("escape", "Abandoned (4,5); crew (if any) Eliminated", tank).status == "abandoned"
    assert replace(squad) == "Replaced by a 2nd line unit" and squad.experience == "2nd line"
    assert casualty_reduce(squad) == "Casualty Reduced to a half-squad" and squad.kind == "hs"
    assert casualty_reduce(squad).startswith("Eliminated") and squad.status == "eliminated"
    leader = Unit("B4", "leader", "8-1")
    assert casualty_reduce(leader).startswith("wounded") and casualty_reduce(leader).startswith("Eliminated")


def test_9_6054_an_escape_roll_moves_or_removes_the_named_units() -> None:
    table = to_reph_with_units()
    to_step(table, "9.605")
    table.act("allied", "roll", table="escape", units="B1,B2", drms="encircled", to="Block B")
    roll = [e for e in table.events if e.kind == "roll"][-1].data["roll"]
    squads = [units(table, "allied")[i] for i in ("B1", "B2")]
    if roll["final"] >= 12:
        assert all(u.status == "eliminated" for u in squads)
    else:
        assert all(u.area == "Block B" for u in squads if u.status == "retained")
    assert "roster after the roll" in table.channel()


def test_9_613_shift_and_9_6142_weapon_repair_on_named_units() -> None:
    assert consequences("shift", "Successful Shift", Unit("B1", "squad", "x")).move
    assert consequences("shift", "Successful Shift, Casualty Reduction (2)", Unit("B1", "squad", "x")).then_dr
    assert (
        consequences("shift", "Failed attempt, all units/ [cut] (3)", Unit("B1", "squad", "x")).status == "eliminated"
    )
    assert consequences("shift", "Failed attempt (1)", Unit("B1", "squad", "x")).status is None
    lmg = Unit("B5", "sw", "LMG", malfunctioned=True)
    assert consequences("weapon_repair", "Repaired", lmg).set_flags == {"malfunctioned": False}
    assert consequences("weapon_repair", "Eliminated (*)", lmg).status == "eliminated"
    assert harden(Unit("B1", "squad", "4-4-7", experience="1st line")) == "Battle Hardened to elite"


def test_9_605_setup_areas_strategic_locations_and_perimeter_are_entered_before_done() -> None:
    table = to_reph_with_units()
    to_step(table, "9.605")
    with pytest.raises(IllegalActionError, match="enter your Setup Areas") as caught:
        table.act("allied", "done")
    assert caught.value.rule == "9.605"
    with pytest.raises(InvalidActionError, match="at least one Setup Area"):
        table.act("allied", "areas", setup="")
    table.act("allied", "areas", setup="A,B,E", strategic="B3,E7", perimeter="Oosterbeek church to the river")
    table.act("allied", "done")
    view = SYSTEM.view(table.state, None)["rosters"]["allied"]
    assert view["setup_areas"] == ["A", "B", "E"] and view["strategic"] == ["B3", "E7"]
    assert "Perimeter: Oosterbeek church to the river" in table.channel()


def test_9_618_rg_units_join_the_roster_hidden_until_revealed() -> None:
    table = new_table({"cpp": {"allied": 0, "german": 20}})
    table.act("allied", "purchase", rgs="")
    table.act("german", "purchase", rgs="I1(K),A2(K)")
    table.act("german", "roll_rgs")
    mine = units(table, "german")
    assert any(u.kind == "squad" and u.source.startswith("RG I1(K)") for u in mine.values())
    assert any(u.kind == "leader" for u in mine.values()) and any(u.kind == "vehicle" for u in mine.values())
    assert all(u.secret == table.state.secrets[-1].id for u in mine.values())
    assert SYSTEM.view(table.state, None)["rosters"]["german"]["units"] == []
    assert len(SYSTEM.view(table.state, "german")["rosters"]["german"]["units"]) == len(mine)
    advance(table)  # the units enter the Initial Scenario: the channel does not learn how many
    assert SYSTEM.view(table.state, None)["history"][0]["entered"]["german"] == 0
    assert SYSTEM.view(table.state, "german")["history"][0]["entered"]["german"] == len(mine)


def test_9_621_what_entered_each_scenario_and_what_came_back() -> None:
    table = new_table()
    initial_ob(table)
    advance(table)
    assert table.state.record().entered["allied"] == ["B1", "B2", "B3", "B4", "B5"]
    end_scenario(table, 10, 10)
    table.act("allied", "update_units", units="B2", status="eliminated", note="Melee in 12K4")
    advance(table, chits={"18AM": {"allied": "attack", "german": "idle"}})
    first = table.state.history[0]
    assert first.returned["allied"] == ["B1", "B3", "B4", "B5"] and first.returned["german"] == ["G1"]
    told = [e for e in table.events if e.kind == "units" and e.secret_to == ("allied",)]
    assert "5 entered, 4 came back; lost: B2 6-5-8 squad (eliminated)" in told[-1].text
    entered = table.state.record().entered["allied"]  # carried to 18AM, with the OB-given RGs' units (9.615)
    assert entered[:4] == ["B1", "B3", "B4", "B5"] and "B2" not in entered
    added = units(table, "allied")[entered[4]]
    assert added.source.startswith("RG I1, 18AM") and added.since == "18AM"


def test_9_6111_two_alike_half_squads_recombine_into_a_squad() -> None:
    table = new_table()
    table.act("allied", "add_units", kind="hs", name="3-3-8", count=3, experience="elite", area="A")
    table.act("allied", "update_units", units="B3", area="B")
    with pytest.raises(IllegalActionError, match="cannot recombine") as caught:
        table.act("allied", "recombine", units="B1,B3")
    assert caught.value.rule == "9.6111"
    with pytest.raises(InvalidActionError, match="two half-squads"):
        table.act("allied", "recombine", units="B1")
    table.act("allied", "recombine", units="B1,B2")
    mine = units(table, "allied")
    assert (mine["B1"].kind, mine["B1"].status, mine["B2"].status) == ("squad", "retained", "recombined")
    with pytest.raises(IllegalActionError, match="cannot recombine"):
        table.act("allied", "recombine", units="B1,B3")  # a squad now


def test_9_6141_stun_recovery_and_immobilization_repair_read_their_results() -> None:
    tank = Unit("G1", "vehicle", "PzKpfw IVH", stunned=True, immobilized=True)
    assert consequences("stun_recovery", "Recovers; remove stun", tank) == Consequence(set_flags={"stunned": False})
    assert consequences("stun_recovery", "Retain stun", tank) == Consequence()
    eliminated = consequences("stun_recovery", "Eliminated (full CVP; no wreck, no Crew Survival)", tank)
    assert eliminated == Consequence(status="eliminated")
    mobile = "Vehicle becomes mobile and is Retained in its current (or nearest) Friendly Setup Area"
    assert consequences("immobilization_repair", mobile, tank) == Consequence(set_flags={"immobilized": False})
    assert consequences("immobilization_repair", "No effect", tank) == Consequence()


def test_9_6101_a_wounded_leader_is_eliminated_on_its_result() -> None:
    leader = Unit("B4", "leader", "8-1", wounded=True)
    assert consequences("wounded_leader", "Eliminated", leader) == Consequence(status="eliminated")
    assert consequences("wounded_leader", "Retained wounded", leader) == Consequence(set_flags={"wounded": True})
    assert consequences("wounded_leader", "Retained unwounded", leader) == Consequence(set_flags={"wounded": False})


def test_9_6142_a_vehicles_failed_repair_leaves_it_on_the_roster() -> None:
    tank = Unit("G1", "vehicle", "PzKpfw IVH", malfunctioned=True)
    assert consequences("weapon_repair", "Eliminated (*)", tank) == Consequence()
    lmg = Unit("B5", "sw", "LMG", malfunctioned=True)
    assert consequences("weapon_repair", "Eliminated (*)", lmg) == Consequence(status="eliminated")


def test_9_6054_an_escape_eliminated_and_the_crews_fate_after_the_semicolon() -> None:
    tank = Unit("G1", "vehicle", "PzKpfw IIIL")
    assert consequences("escape", "Eliminated (12)", tank) == Consequence(status="eliminated")
    # the crew's fate, after the semicolon, is not the vehicle's
    escapes = consequences("escape", "Escapes; crew (if any) Casualty Reduced", tank)
    assert escapes == Consequence(move=True)


def test_9_6054_replacement_a_crew_is_eliminated_and_a_conscript_keeps_its_class() -> None:
    crew = Unit("B9", "crew", "2-2-8", experience="1st line")
    assert replace(crew) == "Eliminated (a crew cannot be Replaced)" and crew.status == "eliminated"
    green = Unit("B1", "squad", "4-4-7", experience="green")
    assert replace(green) == "Replaced by a conscript unit" and green.experience == "conscript"
    assert replace(green) == "Replaced by the next-lower-quality unit (swap the counter)"
    assert green.experience == "conscript" and green.status == "retained"
    odd = Unit("B2", "squad", "4-4-7", experience="veteran")  # a class the table does not know
    assert replace(odd) == "Replaced by the next-lower-quality unit (swap the counter)" and odd.experience == "veteran"


def test_9_611_battle_hardening_marks_the_unit_and_raises_an_mmc_one_class() -> None:
    hs = Unit("B3", "hs", "2-4-7", experience="green")
    assert harden(hs) == "Battle Hardened to 2nd line" and hs.hardened and hs.experience == "2nd line"
    elite = Unit("B1", "squad", "6-5-8", experience="elite")
    assert harden(elite) == "Battle Hardened" and elite.hardened and elite.experience == "elite"
    leader = Unit("B4", "leader", "8-1", experience="green")
    assert harden(leader) == "Battle Hardened" and leader.hardened and leader.experience == "green"
    odd = Unit("B2", "squad", "4-4-7", experience="veteran")
    assert harden(odd) == "Battle Hardened" and odd.experience == "veteran"


def test_9_6_a_units_label_names_its_state() -> None:
    tank = Unit("G1", "vehicle", "PzKpfw IVH", stunned=True, immobilized=True)
    assert tank.label() == "G1 PzKpfw IVH vehicle (immobilized, stunned)"
    assert Unit("B1", "squad", "6-5-8").label() == "B1 6-5-8 squad"
    leader = Unit("B4", "leader", "8-1")
    assert casualty_reduce(leader) == "wounded (Casualty Reduction)"
