"""Alsace 1944's combat and support rules (7, 3.6, 1.6, 9.5, 2.1), each read from the game's data.

Positions are built on the real map and counters (the Alsace "core" of test_alsace44_engine: the data without
the tables whose rules other parts of issue 15 write). Most combats are in the open country around 2611, whose
neighbours within two hexes are clear, unsettled and without rivers:

    2611 touches 2510, 2511, 2610, 2612, 2710, 2711

French infantry I/4 RTM (3, quality 4) against German I/757 (2, quality 3) is 2:1 with +1 to the die. The die
faces are pinned by choosing the seed (combat_setups.attack); :func:`face_for` reads the preview to find
the face that gives a wanted result, so a test never depends on a hand-computed column.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest

from engine.contract import Action, IllegalActionError, InvalidActionError
from engine.hexgrid import Hex
from engine.vaevictis import combat, disorganization, turn
from engine.vaevictis import combat_command_support as cc_support
from engine.vaevictis import retreat as rt
from engine.vaevictis.data import GameData
from engine.vaevictis.game import VaeVictisGame, game_options
from engine.vaevictis.loader import ScenarioError, build_game
from engine.vaevictis.odds import AttackPlan, assess, preview
from engine.vaevictis.state import GameState, Position
from engine.vaevictis.unseen_odds import unseen_preview
from scenarios import load_game
from tests.vaevictis.alsace_documents import core_documents
from tests.vaevictis.combat_setups import act, attack, new_state, seed_for, verbs
from tests.vaevictis.random_play import play

Docs = dict[str, Any]

CENTRE = 2611
RTM1, RTM2, RTM3 = "fr-i-4-rtm", "fr-ii-4-rtm", "fr-iii-4-rtm"
GR1, GR2 = "de-i-757", "de-ii-757"


def alsace(change: Callable[[Docs], None] | None = None) -> GameData:
    docs = core_documents()
    if change is not None:
        change(docs)
    return build_game(docs)


DATA = alsace()


def plan(side: str, target: Hex, *attackers: str, kind: str = "normal", **kw: Any) -> AttackPlan:
    return AttackPlan(side, kind, tuple(attackers), target, **kw)  # type: ignore[arg-type]


def face_for(data: GameData, state: GameState, attack_plan: AttackPlan, result: str) -> int:
    """The die face that gives ``result`` for this plan (read from the preview)."""
    found = next((o.face for o in preview(data, state, attack_plan).outcomes if o.result == result), None)
    assert found is not None, f"no face gives {result}: {preview(data, state, attack_plan).lines()}"
    return found


def drm_reasons(data: GameData, state: GameState, attack_plan: AttackPlan) -> dict[str, int]:
    return {m.reason: m.amount for m in assess(data, state, attack_plan).drm}


def refusal(data: GameData, state: GameState, verb: str, **args: Any) -> IllegalActionError:
    before = state.to_json()
    with pytest.raises(IllegalActionError) as caught:
        act(data, state, verb, **args)
    assert state.to_json() == before  # a refusal changes nothing
    return caught.value


# --- 7.2, 7.3: targets and who attacks ----------------------------------------------------------------------


def test_7_2_an_attack_takes_a_single_target_hex() -> None:
    state = new_state(DATA, {RTM1: 2611, GR1: 2610, GR2: 2612})
    before = state.to_json()
    with pytest.raises(IllegalActionError) as refused:
        combat.begin_attack(DATA, state, AttackPlan("allied", "prepared", (RTM1,), (2610, 2612)))
    assert refused.value.rule == "7.2" and state.to_json() == before
    assert assess(DATA, state, plan("allied", 2610, RTM1)).defenders == (GR1,)


def test_7_3_1_adjacent_stacks_may_join_a_normal_attack() -> None:
    state = new_state(DATA, {RTM1: 2610, RTM2: 2612, GR1: 2611})
    attack(DATA, state, plan("allied", 2611, RTM1, RTM2), [1])
    # Each joining stack pays the normal attack's 1 AP (3.4.1, 7.3.1).
    assert state.units[RTM1].action_points == 2 and state.units[RTM2].action_points == 2
    state = new_state(DATA, {RTM1: 2610, RTM2: 2612, GR1: 2611})
    state.units[RTM2].action_points = 0
    with pytest.raises(IllegalActionError) as refused:
        combat.begin_attack(DATA, state, plan("allied", 2611, RTM1, RTM2))
    assert refused.value.rule == "3.4.1"


def test_7_3_2_prepared_attacks_shift_two_columns_for_the_french_and_the_german() -> None:
    for side, attacker, defender in (("allied", RTM1, GR1), ("german", GR1, RTM1)):
        state = new_state(DATA, {attacker: 2610, defender: 2611})
        shifts = assess(DATA, state, plan(side, 2611, attacker, kind="prepared")).shifts
        assert [m.amount for m in shifts if m.rule == "7.3.2"] == [2]


def test_7_5_an_exact_half_of_the_ratio_rounds_up_on_either_side() -> None:
    # 0.3, 7.5: "always rounded to the nearest whole number" (1.50 to 1 gives 2:1), without Ardennes' "not in
    # the defender's favor": 2 against 3 is 1:1.5, read 1:2 (Ardennes 1:1).
    state = new_state(DATA, {GR1: 2610, RTM1: 2611})
    assessed = assess(DATA, state, plan("german", 2611, GR1))
    assert (assessed.attack_total, assessed.defence_total, assessed.ratio) == (2, 3, "1:2")
    state = new_state(DATA, {RTM1: 2610, GR1: 2611, GR2: 2611})
    assert assess(DATA, state, plan("allied", 2611, RTM1)).ratio == "1:1"  # 3 against 4 is 1:1.33
    state = new_state(DATA, {RTM1: 2610, RTM2: 2610, GR1: 2611, GR2: 2611})
    assert assess(DATA, state, plan("allied", 2611, RTM1, RTM2)).ratio == "2:1"  # 6 against 4: 1.5 to 1


def test_7_1_tanks_attack_out_of_or_into_difficult_terrain_only_along_a_road() -> None:
    data, grid = DATA, DATA.map.grid
    joined = next(
        (a, b)
        for a in grid.hexes
        for b in grid.neighbours(a)
        if data.map.terrain[a] == "difficult"
        and data.map.terrain[b] == "clear"
        and data.map.has_road(a, b)
        and data.map.river_between(a, b) is None
    )
    cut = next(
        (a, b)
        for a in grid.hexes
        for b in grid.neighbours(a)
        if data.map.terrain[a] == "difficult"
        and data.map.terrain[b] == "clear"
        and not data.map.has_road(a, b)
        and data.map.river_between(a, b) is None
    )
    tank, infantry = "fr-a-cc2", RTM1
    for attacker in (tank, infantry):
        state = new_state(data, {attacker: cut[0], GR1: cut[1]})
        if attacker == tank:
            with pytest.raises(IllegalActionError) as refused:
                assess(data, state, plan("allied", cut[1], attacker))
            assert refused.value.rule == "7.1"
        else:
            assess(data, state, plan("allied", cut[1], attacker))  # infantry may
    state = new_state(data, {tank: joined[0], GR1: joined[1]})
    assess(data, state, plan("allied", joined[1], tank))


# --- 7.4 modifiers ------------------------------------------------------------------------------------------


def test_7_4_combined_arms_gives_one_to_tanks_and_infantry_attacking_from_one_hex() -> None:
    reason = "combined arms: tanks and infantry attacking from one hex"
    state = new_state(DATA, {"fr-a-cc2": 2610, "fr-c-cc2": 2610, GR1: 2611})
    assert drm_reasons(DATA, state, plan("allied", 2611, "fr-a-cc2", "fr-c-cc2"))[reason] == 1
    state = new_state(DATA, {"fr-a-cc2": 2610, RTM1: 2610, "fr-b-cc2": 2612, "fr-c-cc2": 2612, GR1: 2611})
    # once, however many tank-infantry groups
    assert drm_reasons(DATA, state, plan("allied", 2611, "fr-a-cc2", RTM1, "fr-b-cc2", "fr-c-cc2"))[reason] == 1
    state = new_state(DATA, {"fr-a-cc2": 2610, "fr-c-cc2": 2612, GR1: 2611})
    assert reason not in drm_reasons(DATA, state, plan("allied", 2611, "fr-a-cc2", "fr-c-cc2"))
    state = new_state(DATA, {"fr-a-cc2": 2610, "fr-b-cc2": 2610, GR1: 2611})
    assert reason not in drm_reasons(DATA, state, plan("allied", 2611, "fr-a-cc2", "fr-b-cc2"))


def test_7_4_armored_superiority_against_tanks() -> None:
    attacking = "attacker's armored superiority against tanks"
    defending = "defender's armored superiority against tanks"
    state = new_state(DATA, {"de-106-pz": 2610, "fr-a-cc2": 2611})
    assert drm_reasons(DATA, state, plan("german", 2611, "de-106-pz"))[attacking] == 1
    state = new_state(DATA, {"de-106-pz": 2610, RTM1: 2611})
    assert attacking not in drm_reasons(DATA, state, plan("german", 2611, "de-106-pz"))
    state = new_state(DATA, {"de-106-pz": 2610, "fr-a-cc2": 2611})
    assert drm_reasons(DATA, state, plan("allied", 2610, "fr-a-cc2"))[defending] == -1
    state = new_state(DATA, {"de-106-pzgr": 2610, "fr-a-cc2": 2611})  # no dot: no superiority
    assert defending not in drm_reasons(DATA, state, plan("allied", 2610, "fr-a-cc2"))


def test_7_4_a_village_in_difficult_terrain_shifts_two_columns() -> None:
    # 7.4's example: the defender's terrain shifts are cumulative.
    fresse = next(h for h, s in DATA.map.settlements.items() if s.name == "Fresse")
    assert DATA.map.terrain[fresse] == "difficult" and DATA.map.is_village(fresse)
    state = new_state(DATA, {RTM1: DATA.map.grid.neighbours(fresse)[0], GR1: fresse})
    terrain = [m.amount for m in assess(DATA, state, plan("allied", fresse, RTM1)).shifts if m.rule.startswith("0.2")]
    assert sum(terrain) == -2 and len(terrain) == 2


def test_7_4_no_divisional_integrity() -> None:
    def same_division(docs: Docs) -> None:
        for unit in docs["counters.toml"]["unit"]:
            if unit.get("combat_command") == "cc2":
                unit["division"] = "fr-1-db"

    def integrity_on(docs: Docs) -> None:
        same_division(docs)
        docs["tables.toml"]["modifiers"]["divisional_integrity"] = True

    placed = {"fr-a-cc2": 2610, "fr-b-cc2": 2610, GR1: 2611}
    attack_plan = plan("allied", 2611, "fr-a-cc2", "fr-b-cc2")
    data = alsace(same_division)
    assert "attacker's divisional integrity" not in drm_reasons(data, new_state(data, placed), attack_plan)
    data = alsace(integrity_on)
    assert drm_reasons(data, new_state(data, placed), attack_plan)["attacker's divisional integrity"] == 1


# --- 7.6 losses -----------------------------------------------------------------------------------------------


def test_7_6_the_attacker_loses_a_step_of_an_adverse_result_when_the_defender_lost_one() -> None:
    state = new_state(DATA, {RTM1: 2610, GR1: 2611})
    attack_plan = plan("allied", 2611, RTM1)
    attack(DATA, state, attack_plan, [face_for(DATA, state, attack_plan, "1/2")])
    act(DATA, state, "take_loss", unit=GR1)
    act(DATA, state, "retreat", to=next(h for v, h in verbs(DATA, state) if v == "retreat"))
    assert state.pending[-1]["stage"] == "attacker"
    assert {v for v, _ in verbs(DATA, state)} == {"take_loss"}
    error = refusal(DATA, state, "retreat", to=2510)
    assert error.rule == "7.6" and "defender lost steps" in error.reason
    # The same result, the defender retreating both hexes: the attacker may retreat.
    state = new_state(DATA, {RTM1: 2610, GR1: 2611})
    attack(DATA, state, attack_plan, [face_for(DATA, state, attack_plan, "1/2")])
    for _ in range(2):
        act(DATA, state, "retreat", to=next(h for v, h in verbs(DATA, state) if v == "retreat"))
    assert "retreat" in {v for v, _ in verbs(DATA, state)}


def test_7_6_a_defender_holding_his_ground_leaves_the_attacker_no_retreat() -> None:
    state = new_state(DATA, {RTM1: 2610, RTM2: 2610, GR1: 2611})
    attack_plan = plan("allied", 2611, RTM1, RTM2)
    attack(DATA, state, attack_plan, [face_for(DATA, state, attack_plan, "1/1")])
    act(DATA, state, "take_loss", unit=GR1)  # the defender stays and loses a step
    assert {v for v, _ in verbs(DATA, state)} == {"take_loss"}
    error = refusal(DATA, state, "retreat", to=2509)
    assert error.rule == "7.6" and "held his ground" in error.reason
    # Ardennes' rule without the [losses] table: the attacker could retreat.
    data = alsace(lambda docs: docs["tables.toml"].pop("losses"))
    state = new_state(data, {RTM1: 2610, RTM2: 2610, GR1: 2611})
    attack(data, state, attack_plan, [face_for(data, state, attack_plan, "1/1")])
    act(data, state, "take_loss", unit=GR1)
    assert "retreat" in {v for v, _ in verbs(data, state)}


# --- 7.7 retreats and advances ---------------------------------------------------------------------------------


def test_7_7_2_a_prepared_attack_must_advance_at_least_one_unit() -> None:
    state = new_state(DATA, {RTM1: 2610, GR1: 2611})
    attack_plan = plan("allied", 2611, RTM1, kind="prepared")
    attack(DATA, state, attack_plan, [face_for(DATA, state, attack_plan, "-/1")])
    act(DATA, state, "retreat", to=next(h for v, h in verbs(DATA, state) if v == "retreat"))
    assert state.pending[-1]["stage"] == "advance"
    assert "end_advance" not in {v for v, _ in verbs(DATA, state)}
    error = refusal(DATA, state, "end_advance")
    assert error.rule == "7.7.2"
    act(DATA, state, "advance", to=2611)
    assert state.units[RTM1].hex == 2611
    # A normal attack's advance stays optional.
    state = new_state(DATA, {RTM1: 2610, GR1: 2611})
    attack_plan = plan("allied", 2611, RTM1)
    attack(DATA, state, attack_plan, [face_for(DATA, state, attack_plan, "-/1")])
    act(DATA, state, "retreat", to=next(h for v, h in verbs(DATA, state) if v == "retreat"))
    act(DATA, state, "end_advance")
    assert not state.pending and state.units[RTM1].hex == 2610


def test_7_7_1_a_retreat_may_head_for_the_friendly_edge_or_the_units_hq() -> None:
    hq = DATA.formations[DATA.units[GR1].formation].hq
    assert hq is not None
    state = new_state(DATA, {GR1: CENTRE, hq: 2614})
    pos = Position(DATA, state)
    edgeward = {h for h in DATA.map.grid.neighbours(CENTRE) if rt.edge_distance(pos, "german", h) < 8}
    options = set(rt.retreat_options(pos, "german", [GR1], [CENTRE]).hexes)
    assert edgeward < options and 2612 in options  # 2612 is no nearer the edge, but nearer the HQ
    ardennes_order = alsace(
        lambda docs: docs["tables.toml"]["retreat"].update(
            priorities=["out-of-enemy-zoc", "toward-friendly-edge", "farthest-from-enemy"]
        )
    )
    pos = Position(ardennes_order, state)
    assert set(rt.retreat_options(pos, "german", [GR1], [CENTRE]).hexes) == edgeward


def test_7_7_1_a_retreat_into_switzerland_eliminates_only_as_a_last_resort() -> None:
    # 1417 touches Switzerland (1418, 1516, 1517) and 1416, 1316, 1317.
    state = new_state(DATA, {GR1: 1416, RTM1: 1316, RTM2: 1317, RTM3: 1415, "fr-i-5-rtm": 1315, "fr-ii-5-rtm": 1515})
    pos = Position(DATA, state)
    open_hexes = rt.retreat_options(pos, "german", [GR1], [1416])
    assert open_hexes.hexes == (1417,) and not open_hexes.off_map  # an open hex: Switzerland is not an option
    attack_plan = plan("allied", 1416, RTM1)
    attack(DATA, state, attack_plan, [face_for(DATA, state, attack_plan, "-/2")])
    events = act(DATA, state, "retreat", to=1417)
    events += act(DATA, state, "take_loss", unit=GR1)  # the step lost entering the enemy ZoC (7.7.1)
    gone = [e for e in events if e.kind == "eliminated"]
    assert gone and "Switzerland" in gone[0].text and not state.units[GR1].on_map


# --- 3.6 Disorganisation ----------------------------------------------------------------------------------------


def test_3_6_a_unit_that_retreats_is_disorganised_halved_until_the_end_of_the_turn() -> None:
    state = new_state(DATA, {RTM1: 2610, GR1: 2611})
    refuge = rt.retreat_options(Position(DATA, state), "german", [GR1], [2611]).hexes[0]
    state.units["de-i-758"].hex = refuge
    attack_plan = plan("allied", 2611, RTM1)
    attack(DATA, state, attack_plan, [face_for(DATA, state, attack_plan, "-/1")])
    act(DATA, state, "retreat", to=refuge)  # into a friendly stack: no Ardennes halving on top (7.7.1)
    act(DATA, state, "end_advance")
    assert disorganization.is_disorganized(state, GR1) and not state.units[GR1].retreated_into_stack
    shown = VaeVictisGame(DATA).view(state, "allied")
    assert any("disorganized" in u["status"] for s in shown["stacks"] for u in s["units"] if u["id"] == GR1)
    near = next(h for h in DATA.map.grid.neighbours(refuge) if h != 2611 and not Position(DATA, state).units_at(h))
    state.units[RTM1].hex, state.units[RTM1].action_points = near, 3
    detail = next(c for c in assess(DATA, state, plan("allied", refuge, RTM1)).defenders_detail if c.unit == GR1)
    assert detail.halvings == ("disorganized (3.6)",)
    state.units[GR1].action_points = 3
    attacker = assess(DATA, state, plan("german", near, GR1)).attackers_detail[0]
    assert attacker.halvings == ("disorganized (3.6)",)
    turn.administrative_phase(DATA, state)
    assert not disorganization.is_disorganized(state, GR1)


def test_3_6_an_attacker_that_retreats_is_disorganised_too() -> None:
    state = new_state(DATA, {GR1: 2610, RTM1: 2611})
    attack_plan = plan("german", 2611, GR1)
    attack(DATA, state, attack_plan, [face_for(DATA, state, attack_plan, "2/-")])
    act(DATA, state, "retreat", to=next(h for v, h in verbs(DATA, state) if v == "retreat"))
    assert disorganization.is_disorganized(state, GR1)


# --- 1.6 supports -------------------------------------------------------------------------------------------------


def test_1_6_one_pool_per_side_and_french_hqs_support_any_formation() -> None:
    data = load_game("alsace44")
    assert sorted(a.side for a in data.armies.values()) == ["allied", "german"]
    state = new_state(DATA, {"fr-i-6-ric": 2610, "hq-fr-2-dim": 2609, GR1: 2611, "hq-de-159-id": 2712})
    state.units["hq-fr-2-dim"].supports = ["light_artillery"]
    ok = plan("allied", 2611, "fr-i-6-ric", supports=(("hq-fr-2-dim", "light_artillery"),))
    assert any(m.rule == "1.6" for m in assess(DATA, state, ok).shifts)  # 9e DIC supported by the 2e DIM's HQ
    state.units["hq-de-159-id"].supports = ["light_artillery"]
    state.units[GR1].action_points = 3
    german = plan("german", 2610, GR1, supports=(("hq-de-159-id", "light_artillery"),))
    with pytest.raises(IllegalActionError) as refused:
        assess(DATA, state, german)  # the 159th's HQ supports only its own formation (1.3)
    assert refused.value.rule == "1.3"


def test_1_3_a_german_hq_supports_no_independent_a_french_hq_supports_any_unit() -> None:
    # 1.3: "German HQ can support only units of their formation"; Alsace has no counterpart of Ardennes' 16.3
    # (independents supported by any HQ in range). A French HQ "can support any unit of any formation".
    independent, hq = "de-34-fu-335", "hq-de-338-vgd"
    state = new_state(DATA, {independent: 2610, hq: 2609, RTM1: 2611, "hq-fr-2-dim": 2612, "fr-cdo-fr": 2711})
    state.units[hq].supports = ["light_artillery"]
    alone = plan("german", 2611, independent, supports=((hq, "light_artillery"),))
    before = state.to_json()
    with pytest.raises(IllegalActionError) as refused:
        combat.begin_attack(DATA, state, alone)
    assert refused.value.rule == "1.3" and "independent" in refused.value.reason and state.to_json() == before
    state = new_state(DATA, {independent: 2610, GR1: 2610, hq: 2609, RTM1: 2611})
    state.units[hq].supports = ["light_artillery"]
    with_formation = plan("german", 2611, independent, GR1, supports=((hq, "light_artillery"),))
    assert any(m.rule == "1.6" for m in assess(DATA, state, with_formation).shifts)  # the 338th's unit is supported
    state = new_state(DATA, {"fr-cdo-fr": 2610, "hq-fr-2-dim": 2609, GR1: 2611})
    state.units["hq-fr-2-dim"].supports = ["light_artillery"]
    french = plan("allied", 2611, "fr-cdo-fr", supports=(("hq-fr-2-dim", "light_artillery"),))
    assert any(m.rule == "1.6" for m in assess(DATA, state, french).shifts)  # a French independent is


def test_1_6_a_combat_command_receives_a_tank_destroyer_even_out_of_its_hqs_range() -> None:
    game = VaeVictisGame(DATA)
    state = game.new_game("entire-battle", {}, bytes(32))
    while state.phase != "support":
        state, _ = game.apply(state, Action("allied", "end_support", {}))
    offered = {(c.verb, str(c.args.get("cc"))) for c in game.prompts(state)["allied"].choices}
    assert ("allot_combat_command", "cc4") in offered  # CC4 arrives on turn 1, its HQ on turn 2
    state, _ = game.apply(state, Action("allied", "allot_combat_command", {"cc": "cc4", "marker": "tank_destroyer"}))
    assert cc_support.held(state, "cc4") == ["tank_destroyer"]
    assert game.view(state, "german")["combat_command_supports"] == {"cc4": ["tank_destroyer"]}
    state.options["fog_of_war"] = True  # 11: then only the French see it
    assert "combat_command_supports" not in game.view(state, "german")
    assert "combat_command_supports" not in game.view(state, None)
    assert game.view(state, "allied")["combat_command_supports"] == {"cc4": ["tank_destroyer"]}
    state.options["fog_of_war"] = False
    with pytest.raises(IllegalActionError) as refused:
        game.apply(state, Action("allied", "allot_combat_command", {"cc": "cc4", "marker": "tank_destroyer"}))
    assert refused.value.rule == "1.6"
    with pytest.raises(IllegalActionError):
        game.apply(state, Action("allied", "allot_combat_command", {"cc": "cc4", "marker": "heavy_artillery"}))
    # In combat: CC4's own counters only, wherever their HQ is.
    fight = new_state(DATA, {"fr-a-cc4": 2610, RTM1: 2612, GR1: 2611})
    fight.flags[cc_support.FLAG] = {"cc4": ["tank_destroyer"]}
    with_td = plan("allied", 2611, "fr-a-cc4", supports=(("cc4", "tank_destroyer"),))
    assert drm_reasons(DATA, fight, with_td)["tank destroyer support of CC4"] == 1
    with pytest.raises(IllegalActionError):
        assess(DATA, fight, plan("allied", 2611, RTM1, supports=(("cc4", "tank_destroyer"),)))
    attack(DATA, fight, with_td, [1, 1])
    assert cc_support.held(fight, "cc4") == []
    # Unused, it goes back to the pool in the administrative phase.
    army = DATA.army_of(RTM1).id
    before = state.pools[army]["tank_destroyer"]
    turn.administrative_phase(DATA, state)
    assert state.pools[army]["tank_destroyer"] == before + 1 and cc_support.FLAG not in state.flags


def test_1_6_1_pioneers_give_two_and_may_be_lost_as_a_step_else_roll_to_stay() -> None:
    state = new_state(DATA, {GR1: 2610, "hq-de-338-vgd": 2710, RTM1: 2611})
    state.units["hq-de-338-vgd"].supports = ["pioneers"]
    attack_plan = plan("german", 2611, GR1, supports=(("hq-de-338-vgd", "pioneers"),))
    assert drm_reasons(DATA, state, attack_plan)["pioneers support of HQ 338"] == 2
    face = face_for(DATA, state, attack_plan, "2/1")
    events = attack(DATA, state, attack_plan, [face])
    assert not [e for e in events if e.kind == "roll" and "Retention" in e.text]  # kept aside until the losses
    act(DATA, state, "take_loss", unit=RTM1)  # the defender holds: the attacker takes his 2 as losses (7.6)
    act(DATA, state, "take_loss", unit=GR1)  # the first is the quality unit's (7.4)
    assert ("take_loss", "hq-de-338-vgd:pioneers") in verbs(DATA, state)
    events = act(DATA, state, "take_loss", marker="hq-de-338-vgd:pioneers")
    assert state.units[GR1].steps == 1 and not any("Retention" in e.text for e in events)
    # Not given up: it rolls, and stays only on 1-3.
    state = new_state(DATA, {GR1: 2610, "hq-de-338-vgd": 2710, RTM1: 2611})
    state.units["hq-de-338-vgd"].supports = ["pioneers"]
    attack(DATA, state, attack_plan, [face, 5])
    act(DATA, state, "take_loss", unit=RTM1)
    act(DATA, state, "take_loss", unit=GR1)
    events = act(DATA, state, "take_loss", unit=GR1)
    retention = [e for e in events if e.kind == "support" and "pioneers" in e.text]
    assert retention and "removed from the game" in retention[0].text
    assert not state.returning[DATA.army_of(GR1).id].get("pioneers")


def test_1_6_1_the_flak_88_helps_only_a_defence_against_armor() -> None:
    hq = "hq-de-338-vgd"
    state = new_state(DATA, {GR1: 2611, hq: 2712, RTM1: 2610, "fr-a-cc2": 2612})
    state.units[hq].supports = ["flak88"]
    flak = ((hq, "flak88"),)
    against_tanks = plan("allied", 2611, "fr-a-cc2", RTM1, defender_supports=flak)
    shifts = {m.reason: m.amount for m in assess(DATA, state, against_tanks).shifts}
    assert shifts["flak88 support of HQ 338"] == -2
    with pytest.raises(IllegalActionError) as refused:
        assess(DATA, state, plan("allied", 2611, RTM1, defender_supports=flak))
    assert refused.value.rule == "1.6" and "armored" in refused.value.reason
    state.units[GR1].action_points = 3
    with pytest.raises(IllegalActionError) as refused:
        assess(DATA, state, plan("german", 2610, GR1, supports=flak))
    assert "only in defence" in refused.value.reason
    # The defender is offered it only against armour.
    for attackers, offered in (((RTM1,), False), (("fr-a-cc2", RTM1), True)):
        state = new_state(DATA, {GR1: 2611, hq: 2712, RTM1: 2610, "fr-a-cc2": 2612})
        state.units[hq].supports = ["flak88"]
        combat.begin_attack(DATA, state, plan("allied", 2611, *attackers))
        choices = combat.pending_prompt(DATA, state).choices
        assert any(c.verb == "support_defence" and c.args["kind"] == "flak88" for c in choices) is offered


def test_1_6_2_a_tank_destroyer_needs_tank_terrain() -> None:
    grid = DATA.map.grid
    a, b = next(
        (a, b)
        for a in grid.hexes
        for b in grid.neighbours(a)
        if DATA.map.terrain[a] == "difficult"
        and DATA.map.terrain[b] == "difficult"
        and not DATA.map.has_road(a, b)
        and DATA.map.river_between(a, b) is None
    )
    hq = "hq-fr-2-dim"
    state = new_state(DATA, {RTM1: a, GR1: b, hq: a})
    state.units[hq].supports = ["tank_destroyer"]
    with pytest.raises(IllegalActionError) as refused:
        assess(DATA, state, plan("allied", b, RTM1, supports=((hq, "tank_destroyer"),)))
    assert refused.value.rule == "1.6" and "tanks" in refused.value.reason
    state = new_state(DATA, {RTM1: 2610, GR1: 2611, hq: 2609})
    state.units[hq].supports = ["tank_destroyer"]
    assert drm_reasons(DATA, state, plan("allied", 2611, RTM1, supports=((hq, "tank_destroyer"),)))


def test_1_6_2_french_heavy_artillery_stays_on_one_to_four() -> None:
    hq = "hq-fr-2-dim"
    for retention, kept in ((4, True), (5, False)):
        state = new_state(DATA, {RTM1: 2610, GR1: 2611, hq: 2609})
        state.units[hq].supports = ["heavy_artillery"]
        attack_plan = plan("allied", 2611, RTM1, supports=((hq, "heavy_artillery"),))
        attack(DATA, state, attack_plan, [1, retention])
        assert bool(state.returning[DATA.army_of(RTM1).id].get("heavy_artillery")) is kept


# --- 9.5 SNAFU (VV60, optional) ------------------------------------------------------------------------------------


def test_9_5_the_vv60_snafu_is_an_option_of_alsace_only() -> None:
    assert "snafu_vv60" in game_options(DATA)
    assert "snafu_vv60" not in game_options(load_game("ardennes44"))
    with pytest.raises(InvalidActionError):
        VaeVictisGame(load_game("ardennes44")).new_game("entire-battle", {"snafu_vv60": True}, bytes(32))
    state = VaeVictisGame(DATA).new_game("initial-assault", {"snafu_vv60": True}, bytes(32))
    assert state.options["snafu_vv60"]


def snafu_state(**extra: Hex) -> GameState:
    placed = {RTM1: 2610, GR1: 2611, "hq-fr-2-dim": 2609, "hq-de-338-vgd": 2712, **extra}
    state = new_state(DATA, placed, snafu_vv60=True)
    return state


def test_9_5_no_snafu_between_four_and_ten() -> None:
    state = snafu_state()
    # 2e DIM (A: 5) against 338 (C: 3): 2d6 + 2
    assert any("SNAFU roll (9.5)" in line for line in preview(DATA, state, plan("allied", 2611, RTM1)).lines())
    events = attack(DATA, state, plan("allied", 2611, RTM1), [3, 3, 1])
    roll = next(e for e in events if "SNAFU (9.5)" in e.text)
    assert roll.data["total"] == 8 and state.pending[-1]["snafu_vv60"]["afflicted"] is None


def test_9_5_an_even_snafu_lets_the_other_player_shift_the_die() -> None:
    state = snafu_state()
    state.units[GR1].out_of_command = True  # +1: 6 + 5 + 2 + 1 = 14 > 10, even: the defender's SNAFU
    attack(DATA, state, plan("allied", 2611, RTM1), [6, 5])
    record = state.pending[-1]
    assert record["snafu_vv60"] == {"total": 14, "afflicted": "defender", "chooser": "allied"}
    assert combat.pending_prompt(DATA, state).seat == "allied"
    assert "snafu_die" in {v for v, _ in verbs(DATA, state)}
    state.seed = seed_for([1], state.rolls_made)
    events = act(DATA, state, "snafu_die")
    roll = next(e for e in events if e.kind == "roll" and e.data.get("rule") == "7.5")
    assert {"amount": 1, "reason": "SNAFU, lack of enthusiasm", "rule": "9.5"} in roll.data["modifiers"]


def test_9_5_an_odd_snafu_sends_a_committed_support_back_to_the_pool() -> None:
    state = snafu_state()
    state.units["hq-fr-2-dim"].supports = ["light_artillery"]
    state.units[RTM1].out_of_command = True  # 1 + 1 + 2 - 1 = 3 < 4, odd: the attacker's SNAFU
    attack_plan = plan("allied", 2611, RTM1, supports=(("hq-fr-2-dim", "light_artillery"),))
    events = attack(DATA, state, attack_plan, [1, 1, 1, 1])
    assert state.pending[-1]["snafu_vv60"]["afflicted"] == "attacker"
    assert any("does not arrive" in e.text for e in events)
    fight = next(e for e in events if e.kind == "combat")
    assert not any(s["rule"] == "1.6" for s in fight.data["shifts"])
    assert state.returning[DATA.army_of(RTM1).id]["light_artillery"] == 1


def test_9_5_an_odd_snafu_without_supports_gives_the_other_side_a_surprise_support() -> None:
    state = snafu_state()
    state.units[RTM1].out_of_command = True
    army = DATA.army_of(GR1).id
    state.pools[army] = {"light_artillery": 1}
    events = attack(DATA, state, plan("allied", 2611, RTM1), [1, 1, 1, 1, 1])
    assert any("surprise" in e.text for e in events)
    fight = next(e for e in events if e.kind == "combat")
    assert {
        "amount": -1,
        "reason": "light artillery support of the pool, a surprise (9.5)",
        "rule": "1.6",
    } in fight.data["shifts"]
    assert state.pools[army]["light_artillery"] == 0


# --- 2.1 no air phase, previews -------------------------------------------------------------------------------------


def test_2_1_alsace_has_no_air_phase() -> None:
    game = VaeVictisGame(DATA)
    state = game.new_game("initial-assault", {}, bytes(32))
    assert state.air_missions == {} and not game.view(state, None)["air_missions"]
    state.phase = "air"  # where the turn starts in the state machine, e.g. while a destroyed HQ returns (1.3)
    assert game.view(state, None)["phase"] == "supply"
    fight = new_state(DATA, {RTM1: 2610, GR1: 2611})
    with pytest.raises(IllegalActionError) as refused:
        assess(DATA, fight, plan("allied", 2611, RTM1, air=1))
    assert refused.value.rule == "7.3"


def test_7_4_the_odds_preview_names_alsaces_modifiers() -> None:
    state = new_state(DATA, {"de-106-pz": 2610, "de-106-pzgr": 2610, "fr-a-cc2": 2611})
    lines = preview(DATA, state, plan("german", 2611, "de-106-pz", "de-106-pzgr")).lines()
    assert any("combined arms" in line for line in lines)
    assert any("armored superiority" in line for line in lines)
    assert not any("divisional integrity" in line for line in lines)


def test_11_1_the_unseen_preview_on_alsace_ranges_over_what_the_attacker_cannot_see() -> None:
    state = new_state(DATA, {"fr-a-cc2": 2610, RTM1: 2610, "de-106-pz": 2611})
    attack_plan = plan("allied", 2611, "fr-a-cc2", RTM1)
    unseen = unseen_preview(DATA, state, attack_plan, {"de-106-pz"})
    assert unseen is not None
    text = "\n".join(unseen.lines())
    assert "106" not in text  # the hidden tank is neither named nor counted by its value
    assert "combined arms" in text and "armored superiority" in text
    # The hidden tank's -1 is within the range, not given as fact.
    exact = assess(DATA, state, attack_plan)
    assert unseen.worst.drm <= exact.drm_total <= unseen.best.drm


# --- The data ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d["tables.toml"]["attack_type"]["normal"].update(several_targets="no"), "several_targets"),
        (lambda d: d["tables.toml"]["attack_type"]["prepared"].update(advance="always"), "advance must be"),
        (lambda d: d["tables.toml"]["modifiers"].update(combined_arms="yes"), "combined_arms"),
        (lambda d: d["tables.toml"]["losses"].update(attacker_holds_if_defender_holds=1), "attacker_holds"),
        (lambda d: d["tables.toml"]["retreat"].update(priorities=["nearest-pub"]), "priorities"),
        (lambda d: d["tables.toml"]["support"]["flak88"].update(only_against="infantry"), "only_against"),
        (lambda d: d["tables.toml"]["snafu_vv60"].update(odd="shrug"), "odd must be"),
        (lambda d: d["tables.toml"]["status"].pop("disorganized"), "disorganizes needs"),
    ],
)
def test_the_combat_entries_are_checked_on_load(change: Callable[[Docs], None], expected: str) -> None:
    docs = core_documents()
    change(docs)
    with pytest.raises(ScenarioError) as failed:
        build_game(docs)
    assert expected in str(failed.value)


def test_the_core_alsace_game_offers_the_combat_command_choice_only_to_the_french() -> None:
    game = VaeVictisGame(DATA)
    state = game.new_game("entire-battle", {}, bytes(32))
    while state.phase != "support":
        state, _ = game.apply(state, Action("allied", "end_support", {}))
    german = game.prompts(state).get("german")
    assert german is None or not any(c.verb == "allot_combat_command" for c in german.choices)


FULL = load_game("alsace44")


def test_7_7_1_a_strongpoint_is_destroyed_when_its_stack_retreats() -> None:
    state = new_state(FULL, {RTM1: 2610, GR1: 2611, "de-stp-1": 2611})
    attack_plan = plan("allied", 2611, RTM1)
    attack(FULL, state, attack_plan, [face_for(FULL, state, attack_plan, "-/1")])
    events = act(FULL, state, "retreat", to=next(h for v, h in verbs(FULL, state) if v == "retreat"))
    assert not state.units["de-stp-1"].on_map and state.units[GR1].on_map and state.units[GR1].hex != 2611
    assert any(e.kind == "eliminated" and e.data["unit"] == "de-stp-1" for e in events)


def test_7_6_a_tank_destroyer_marker_does_not_stand_for_the_armoured_loss() -> None:
    hq = "hq-fr-1-db"
    tanks = ("de-106-pz", "de-654-pzjg", "de-106-pzgr")
    state = new_state(DATA, {**dict.fromkeys(tanks, 2610), "fr-a-cc2": 2611, RTM1: 2611, hq: 2612})
    state.units[hq].supports = ["tank_destroyer"]
    td = ((hq, "tank_destroyer"),)
    attack_plan = plan("german", 2611, *tanks, defender_quality=RTM1, defender_supports=td)
    attack(DATA, state, attack_plan, [face_for(DATA, state, attack_plan, "-/2")])
    act(DATA, state, "take_loss", unit=RTM1)  # the quality unit's first loss (7.4)
    second = {v for v in verbs(DATA, state) if v[0] == "take_loss"}
    assert second == {("take_loss", "fr-a-cc2")}  # 7.6: an armored unit's, and the TD marker is no tank


def test_random_play_with_the_vv60_snafu_keeps_the_invariants() -> None:
    """Random legal actions on the Alsace core with the 9.5 option (ALSACE44_COMBAT_RANDOM_ACTIONS, default 300)."""
    game = VaeVictisGame(DATA)
    actions = int(os.environ.get("ALSACE44_COMBAT_RANDOM_ACTIONS", "300"))
    start = game.new_game("entire-battle", {"snafu_vv60": True}, (95).to_bytes(32, "big"))
    state, log = play(game, 95, "entire-battle", actions, start=start)
    assert len(log) == actions or state.result is not None


def test_9_5_an_even_snafu_may_choose_the_afflicted_sides_quality_unit() -> None:
    state = new_state(DATA, {GR1: 2610, "de-106-pz": 2610, "hq-de-338-vgd": 2709, RTM1: 2611, "hq-fr-2-dim": 2612})
    state.options["snafu_vv60"] = True
    # 338 (C: 3) against the 2e DIM (A: 5): 2d6 - 2; 2 + 2 - 2 = 2 < 4, even: the attacker's SNAFU.
    attack(DATA, state, plan("german", 2611, GR1, "de-106-pz"), [2, 2])
    assert state.pending[-1]["snafu_vv60"]["afflicted"] == "attacker"
    assert combat.pending_prompt(DATA, state).seat == "allied"
    assert ("snafu_quality", GR1) in verbs(DATA, state)  # the attacker's best, 106 Pz, is in use now
    error = refusal(DATA, state, "snafu_quality", unit=RTM1)
    assert error.rule == "9.5"
    state.seed = seed_for([1], state.rolls_made)
    events = act(DATA, state, "snafu_quality", unit=GR1)
    fight = next(e for e in events if e.kind == "combat")
    assert state.pending[-1]["assessment"]["attacker_quality"] == GR1
    assert any("quality 3 of I/757" in m["reason"] for m in fight.data["drm_detail"])


def test_7_7_1_tanks_retreat_and_advance_into_difficult_terrain_only_along_a_road() -> None:
    grid = DATA.map.grid
    here, rough = next(
        (a, b)
        for a in grid.hexes
        for b in grid.neighbours(a)
        if DATA.map.terrain[a] == "clear"
        and DATA.map.terrain[b] == "difficult"
        and not DATA.map.has_road(a, b)
        and DATA.map.river_between(a, b) is None
    )
    assert not rt.can_cross(DATA, here, rough, "fr-a-cc2") and rt.can_cross(DATA, here, rough, RTM1)
    state = new_state(DATA, {"fr-a-cc2": here, RTM1: here})
    pos = Position(DATA, state)
    assert rough not in rt.retreat_options(pos, "allied", ["fr-a-cc2"], [here]).legal
    assert rough in rt.retreat_options(pos, "allied", [RTM1], [here]).legal


def test_1_6_a_combat_commands_marker_is_used_through_the_game_commands() -> None:
    game = VaeVictisGame(DATA)
    state = game.new_game("entire-battle", {}, bytes(32))
    state, _ = game.apply(state, Action("allied", "allot_combat_command", {"cc": "cc4", "marker": "tank_destroyer"}))
    for side in ("german", "allied"):
        if state.phase == "support" and side in game.prompts(state):
            state, _ = game.apply(state, Action(side, "end_support", {}))
    for side in ("german", "allied"):  # [2.1] the sealed initiative stratagems (i15c): not played here
        if state.phase == "initiative" and side in game.prompts(state):
            state, _ = game.apply(state, Action(side, "initiative_stratagem", {"play": False}))
    assert state.phase == "operations"
    for unit in state.units.values():
        unit.hex, unit.arrived = None, False
    for unit_id, hex_ in (("fr-a-cc4", 2610), (GR1, 2611)):
        state.units[unit_id].hex, state.units[unit_id].arrived = hex_, True
    state.initiative = state.active = "allied"
    state, _ = game.apply(state, Action("allied", "activate_general", {}))
    attack_args = {"kind": "normal", "attackers": "fr-a-cc4", "target": "2611", "supports": "cc4:tank_destroyer"}
    odds = game.preview(state, "allied", attack_args)
    assert any("tank destroyer support of CC4" in line for line in odds.lines())
    state, events = game.apply(state, Action("allied", "attack", attack_args))
    fight = next(e for e in events if e.kind == "combat")
    assert {"amount": 1, "reason": "tank destroyer support of CC4", "rule": "1.6"} in fight.data["drm_detail"]
    assert cc_support.held(state, "cc4") == []


def test_4_2_7_1_a_unit_the_rules_forbid_to_attack_is_let_off_its_duty_to_attack() -> None:
    # 4.2: a unit that entered an enemy zone of control must attack before the activation ends; when its only
    # attacks are forbidden (a tank into difficult terrain with no road, 7.1) the duty cannot be met, and the
    # activation may end. An infantry battalion in the same place still owes its attack.
    from engine.vaevictis.state import Activation

    data, grid = DATA, DATA.map.grid
    clear, difficult = next(
        (a, b)
        for a in grid.hexes
        for b in grid.neighbours(a)
        if data.map.terrain[a] == "clear"
        and data.map.terrain[b] == "difficult"
        and not data.map.has_road(a, b)
        and data.map.river_between(a, b) is None
    )
    game = VaeVictisGame(data)
    for attacker, owes in (("fr-a-cc2", False), (RTM1, True)):
        state = new_state(data, {attacker: clear, GR1: difficult})
        state.scenario, state.turn, state.active = "initial-assault", 2, "allied"
        state.activation = Activation(side="allied", kind="formation", formation=data.units[attacker].formation)
        state.activation.units.append(attacker)
        state.units[attacker].must_attack = True
        if owes:
            with pytest.raises(IllegalActionError) as refused:
                game.apply(state, Action("allied", "end_activation", {}))
            assert refused.value.rule == "4.2"
        else:
            with pytest.raises(IllegalActionError) as forbidden:
                assess(data, state, plan("allied", difficult, attacker))
            assert forbidden.value.rule == "7.1"
            after, _ = game.apply(state, Action("allied", "end_activation", {}))
            assert after.activation is None or after.activation != state.activation
