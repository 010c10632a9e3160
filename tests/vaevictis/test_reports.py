"""The reports a commander asks for (engine.vaevictis.reports, engine.vaevictis.history), on the mini game:
they read every name and figure from the game's data, so a game other than Ardennes 1944 gets them too."""

from __future__ import annotations

from typing import Any

from engine.vaevictis import history, reports, supply
from engine.vaevictis.data import GameData
from engine.vaevictis.state import MapMarker
from tests.vaevictis.positions import mini_data, position


def test_0_2_hex_report_reads_terrain_sides_costs_and_column_shifts() -> None:
    data = mini_data()
    pos = position(data, {"us-2-id": 703})
    bravo = reports.hex_report(data, pos.state, "german", 603)
    assert bravo.settlement == ("village", "Bravo") and bravo.terrain == "clear"
    assert {(s.neighbour, s.road, s.river) for s in bravo.hexsides} == {(503, True, None), (703, True, None)}
    assert bravo.entry_costs == {"infantry": 1.0, "mechanized": 1.0}
    assert bravo.road_costs == {"infantry": 1.0, "mechanized": 0.5}
    assert bravo.shelter == ("german", "allied") and reports.hex_report(data, pos.state, "german", 703).shelter == ()
    assert bravo.column_shifts["allied"] == ((-1, "defender in the village of Bravo", "0.2, 7.4"),)
    crossing = reports.hex_report(data, pos.state, "german", 403)
    assert any(s.neighbour == 503 and s.river == "Test River" and s.bridge for s in crossing.hexsides)
    wall = reports.hex_report(data, pos.state, "german", 803)
    assert wall.westwall and wall.column_shifts["german"][-1][1] == "German defender in the Westwall"
    assert wall.column_shifts["allied"] == ()  # the Westwall shifts only for a German defender (0.2)
    assert wall.shelter == ("german",)  # and spares only a German unit the attack (4.3)


def test_17_hex_report_names_the_victory_place_and_its_holder() -> None:
    data = mini_data()
    pos = position(data, {"us-2-id": 203})
    alpha = reports.hex_report(data, pos.state, "german", 203)
    assert alpha.victory == ("German: hold all of Alpha at the end",)
    assert alpha.holder == "allied" and alpha.steps == 4 and alpha.stack_limit == 6


def test_15_hex_report_names_the_markers_in_force() -> None:
    data = mini_data()
    pos = position(data, {"us-2-id": 203})
    pos.state.markers += [MapMarker("nuts", 203, "allied", 1), MapMarker("breakthrough", 203, "german", 1)]
    assert reports.hex_report(data, pos.state, "german", 203).markers == (
        "Nuts! (15.3) of the allied player",
        "Breakthrough (7.8) of the german player",
    )


def test_4_1_hex_report_names_no_counter_hidden_by_the_fog_of_war() -> None:
    data = mini_data()
    pos = position(data, {"de-12-vg": 703, "de-peiper": 703, "hq-de-1ss": 803, "us-2-id": 203})
    pos.state.options["fog_of_war"] = True
    pos.state.stack_tops.append("de-peiper")  # put on top (11.2)
    seen = reports.hex_report(data, pos.state, "allied", 703)
    assert [u["id"] for u in seen.units] == ["de-peiper"] and seen.hidden == 1 and seen.steps is None
    assert reports.hex_report(data, pos.state, "allied", 603).zoc == {"german": ("hidden counter at 0703", "Peiper/1")}
    own = reports.hex_report(data, pos.state, "german", 603).zoc
    assert own == {"german": ("12 VG", "Peiper/1")}
    assert reports.unit_report(data, pos.state, "allied", "de-12-vg") is None


def test_8_1_unit_report_says_why_a_unit_is_out_of_command() -> None:
    data = mini_data()
    pos = position(data, {"hq-de-1ss": 803, "de-peiper": 305}, de_peiper__out_of_command=True)
    report = reports.unit_report(data, pos.state, "german", "de-peiper")
    assert report is not None and report.own
    assert report.command == "out of command this turn (8.1); HQ I SS is 5 hexes away, beyond its command range of 4"
    assert report.action_points == 3 and not report.in_activation


def test_10_2_unit_report_says_where_the_line_of_supply_breaks() -> None:
    data = mini_data()
    pos = position(data, {"hq-de-1ss": 603, "de-peiper": 305, "us-2-id": 404})
    report = supply.SupplyNet(pos, "german")
    reason = reports.supply_reason(pos, report, pos.state.units["de-peiper"])
    assert reason == (
        "supplied this turn (10.3); no supply now: no road leading to the friendly board edge within 1 hex; "
        "the direct line from HQ I SS breaks at 0503 (an enemy zone of control, 10.1) and no way round is open "
        "within 4 hexes"
    )
    assert reports.unit_report(data, pos.state, "allied", "de-peiper") is not None  # seen, without fog
    theirs = reports.unit_report(data, pos.state, "allied", "de-peiper")
    assert theirs is not None and not theirs.own and theirs.supply == "" and theirs.command == ""


def test_1_3_hq_report_lists_its_markers_and_the_units_in_and_out_of_command() -> None:
    data = mini_data()
    pos = position(data, {"hq-de-1ss": 803, "de-peiper": 703, "de-hansen": 103}, de_hansen__out_of_command=True)
    pos.state.units["hq-de-1ss"].supports = ["nebelwerfer"]
    report = reports.hq_report(data, pos.state, "german", "hq-de-1ss")
    assert report is not None
    assert (report.support, report.c3i, report.command_range, report.markers) == (3, "B", 4, ("nebelwerfer",))
    assert report.in_command == ("Peiper/1",) and report.out_of_command == ("Hansen/1",)
    assert reports.hq_report(data, pos.state, "german", "de-peiper") is None  # not an HQ


def test_16_1_order_of_battle_lists_reinforcements_eliminated_and_pools() -> None:
    data = mini_data()
    pos = position(data, {"hq-de-1ss": 803, "de-peiper": 703})
    pos.state.units["de-hansen"].eliminated = True
    pos.state.pools["de-6pz"] = {"nebelwerfer": 1, "tiger": 1}
    oob = reports.order_of_battle(data, pos.state, "german")
    (army,) = oob.armies
    assert army.pool == {"nebelwerfer": 1, "tiger": 1}
    (formation,) = army.formations
    assert formation.hq is not None and formation.hq.name == "I SS"
    assert [u["id"] for _, u in formation.units] == ["de-peiper"]
    assert [(r.turn, r.units, r.hexes) for r in oob.reinforcements] == [(2, ("12 VG",), (803,))]
    assert oob.eliminated == ("Hansen/1",)


def test_17_victory_status_and_the_result_if_the_game_ended_now() -> None:
    data = mini_data()
    pos = position(data, {"us-2-id": 203, "hq-de-1ss": 803})
    status = reports.victory_status(data, pos.state, "german")
    (alpha,) = status.conditions
    assert not alpha.met and alpha.detail == "Alpha Allied (0 of 1 needed held)"
    assert status.if_ended_now == ("Allied", "Allied: the German objectives were not met")
    assert (status.turn, status.last_turn) == (1, 2)
    pos = position(data, {"de-peiper": 203, "hq-de-1ss": 803})
    status = reports.victory_status(data, pos.state, "allied")
    assert status.conditions[0].met and status.if_ended_now == ("German", "German: holds Alpha")
    assert pos.state.result is None  # asking changes nothing
    pos = position(data, {"hq-de-1ss": 203})
    status = reports.victory_status(data, pos.state, "allied")  # an HQ alone holds no city for the win
    assert not status.conditions[0].met and status.if_ended_now[0] == "Allied"
    assert status.conditions[0].detail == "Alpha German, an HQ alone, which does not count (17) (0 of 1 needed held)"


def test_17_briefing_reads_the_scenario() -> None:
    brief = reports.briefing(mini_data(), "test", {"fog_of_war": True, "c3i_snafu": False})
    assert (brief.scenario, brief.rule, brief.turns) == (
        "Test scenario",
        "17.1",
        ((1, "16-17 December 1944", "overcast"), (2, "18-19 December 1944", "clear")),
    )
    assert brief.victory == ("German: hold all of Alpha at the end",) and brief.options == ("fog_of_war",)


def test_2_1_turn_report_tells_statuses_reinforcements_and_pools() -> None:
    data = mini_data()
    pos = position(data, {"hq-de-1ss": 803, "de-peiper": 305}, de_peiper__isolated=True)
    pos.state.turn = 2
    began = [{"kind": "status", "text": "", "data": {"unit": "de-peiper", "status": "isolated"}}]
    report = reports.turn_report(data, pos.state, "german", began)
    assert report.changes == (("Peiper/1", "isolated"),) and report.isolated == ("Peiper/1",)
    assert [(r.units, r.hexes) for r in report.reinforcements] == [(("12 VG", "Hansen/1"), (803,))]
    assert report.date == "18-19 December 1944" and report.victory.turn == 2


# --- History ---------------------------------------------------------------------------------------------------


def combat(attackers: list[str], defenders: list[str], target: str, die: int, result: str) -> dict[str, Any]:
    info = {"attackers": attackers, "defenders": defenders, "target": target, "targets": [target]}
    info |= {"column": "2:1", "die": die, "drm": 0, "result": result, "breakthrough": False}
    return {"kind": "combat", "text": "", "data": info}


def event(what: str, **info: Any) -> dict[str, Any]:
    return {"kind": what, "text": "", "data": info}


def a_log() -> list[list[dict[str, Any]]]:
    """Turn 1: Peiper attacks 0203 (die 5, 1/2); 2 loses two steps; Peiper loses one. Turn 2: 12 VG is
    eliminated for stacking (no combat); the German attacks 0203 again (die 1, E/-)."""
    return [
        [event("activation")],
        [
            event("attack", plan={"side": "german", "supports": [["hq-de-1ss", "nebelwerfer"]], "air": 0}),
            event("roll", die=5),
            combat(["de-peiper"], ["us-2-id"], "0203", 5, "1/2"),
            event("support", hq="hq-de-1ss", kind="nebelwerfer", kept=False, die=4),
        ],
        [event("loss", unit="us-2-id", steps=3), event("loss", unit="us-2-id", steps=2)],
        [event("loss", unit="de-peiper", steps=1), event("end-activation")],
        [event("turn", turn=2), event("activation")],
        [event("eliminate", units=["de-12-vg"], hex="0703", reason="stacking"), event("end-activation")],
        [event("activation"), event("roll", die=1), combat(["de-peiper"], ["us-2-id"], "0203", 1, "E/-")],
        [event("eliminated", unit="de-peiper", hex="0303")],
    ]


def test_7_5_combats_of_a_hex_from_the_log() -> None:
    data = mini_data()
    fought = history.combats_at(data, a_log(), 203)
    assert [(c.turn, c.side, c.die, c.result) for c in fought] == [(1, "german", 5, "1/2"), (2, "german", 1, "E/-")]
    assert history.combats_at(data, a_log(), 603) == []


def test_1_2_statistics_count_steps_eliminations_attacks_supports_and_luck() -> None:
    data: GameData = mini_data()
    stats = history.statistics(data, a_log(), "german", fog=False)
    german, allied = stats.sides["german"], stats.sides["allied"]
    assert allied.steps_lost == {1: 2} and german.steps_lost == {1: 1, 2: 4}  # 12 VG's 3, Peiper's last 1
    assert german.eliminated == {2: ["12 VG", "Peiper/1"]}
    assert german.attacks == {"2:1": ["1/2", "E/-"]}
    assert german.supports_spent == {"nebelwerfer": 1} and german.supports_lost == {"nebelwerfer": 1}
    assert stats.combat_dice["german"] == history.luck([5, 1])
    assert stats.all_dice.count == 2 and stats.all_dice.mean == 3.0
    assert history.luck([6] * 12).deviations > 3 > history.luck([3, 4] * 6).deviations


def test_11_statistics_under_fog_count_enemy_losses_only_in_combat() -> None:
    data = mini_data()
    stats = history.statistics(data, a_log(), "allied", fog=True)
    german = stats.sides["german"]
    assert german.eliminated == {2: ["Peiper/1"]}  # 12 VG's end was not seen (11): no combat
    assert german.steps_lost == {1: 1, 2: 1} and stats.hidden_losses
