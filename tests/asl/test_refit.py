"""The RePh as the bot runs it: step order, skips, secrets, chits, assaults, a whole campaign, replay."""

from __future__ import annotations

import json

import pytest
from conftest import SEED, Table, new_table

from engine.asl import salt_for, state_from_json, state_to_json, verify_receipt
from engine.contract import IllegalActionError, InvalidActionError, NotYourTurnError
from engine.sealing import canonical_json
from tests.asl.campaign_system import SYSTEM
from tests.asl.refit_play import advance, end_scenario, to_first_reph


def step_rules(table: Table, start: int = 0) -> list[str]:
    return [e.data["rule"] for e in table.events[start:] if e.kind in ("step", "date") and "rule" in e.data]


# --- Order and skips ----------------------------------------------------------------------------------------


def test_9_6_campaign_waits_for_begin_and_lists_warnings() -> None:
    table = new_table(chart=False, begin=False)
    assert set(table.prompts()) == {"allied", "german"}
    with pytest.raises(IllegalActionError, match="'done' is not possible now"):
        table.act("allied", "done")
    events = table.act("german", "begin")
    assert any("RG chart: absent" in e.text for e in events)
    assert any("9.62131" in e.text for e in events)


def test_9_601_initial_reph_runs_only_the_dagger_steps() -> None:
    table = new_table()
    advance(table)
    assert step_rules(table) == ["9.617", "9.618", "9.619", "9.621", "9.6214"]
    assert any(e.kind == "elr" for e in table.events)  # 9.620 is † too
    assert table.state.phase == "scenario" and table.state.date == "17N"


def test_9_601_reph_after_a_scenario_runs_every_step_in_the_rules_order() -> None:
    table = new_table()
    advance(table)
    start = len(table.events)
    end_scenario(table, 40, 20)
    advance(table, chits={"18AM": {"allied": "attack", "german": "idle"}})
    assert step_rules(table, start) == [
        "9.601",
        "9.602",
        "9.603",
        "9.604",
        "9.605",
        "9.606",
        "9.607",
        "9.608",
        "9.609",
        "9.610",
        "9.611",
        "9.6121",
        "9.613",
        "9.614",
        "9.616",
        "9.617",
        "9.618",
        "9.619",
        "9.621",
    ]
    assert table.state.date == "18AM"


def test_9_605_roll_on_the_steps_table_with_drms_and_refusals() -> None:
    table = to_first_reph()
    for _ in range(4):
        table.act("allied", "done")
        table.act("german", "done")
    assert table.step_rule() == "9.605"
    events = table.act("allied", "roll", table="escape", column="infantry", drms="encircled,hexes=3", label="4-5-7")
    roll = events[0].data["roll"]
    assert [d["id"] for d in roll["drms"]] == ["night", "hexes", "encircled"]  # 17N was Night: auto DRM
    assert roll["final"] == sum(roll["dice"]) - 1 + 2 + 2
    with pytest.raises(IllegalActionError) as caught:
        table.act("allied", "roll", table="shift")
    assert caught.value.rule == "9.605" and "not used in step 9.605" in caught.value.reason
    with pytest.raises(InvalidActionError, match="comes from the campaign record"):
        table.act("allied", "roll", table="escape", drms="night")


def test_9_6202_cvp_awarded_during_the_reph_count_once_the_other_side_confirms() -> None:
    table = to_first_reph()
    with pytest.raises(InvalidActionError, match="positive"):
        table.act("german", "cvp", by="german", amount=0)
    table.act("german", "cvp", by="german", amount=15, note="encircled 4-6-7 failed its ITC")
    assert table.state.record().cvp == {"allied": 40, "german": 20}  # not yet: the British must agree
    prompt = table.prompts()["allied"]
    assert [c.verb for c in prompt.choices] == ["confirm_cvp", "reject_cvp"] and "15 CVP" in prompt.text
    with pytest.raises(IllegalActionError, match="already waits"):
        table.act("german", "cvp", by="german", amount=5)
    for seat in ("allied", "german"):  # the step cannot end while an award waits
        if "done" in [c.verb for c in table.prompts().get(seat, prompt).choices]:
            table.act(seat, "done")
    assert table.step_rule() == "9.601"
    table.act("allied", "reject_cvp")
    assert table.state.record().cvp == {"allied": 40, "german": 20}
    table.act("allied", "cvp", by="german", amount=15)  # the German said done: the British may award it too
    table.act("german", "confirm_cvp")
    assert table.state.record().cvp == {"allied": 40, "german": 35}
    assert table.state.rosters["german"].line(table.state.record().date).cvp == 35


def test_not_your_turn_and_unknown_verbs_are_refused_with_reasons() -> None:
    table = to_first_reph()
    table.act("allied", "done")
    with pytest.raises(NotYourTurnError, match=r"has nothing to decide now \(9\.601 Conclusion of Melee; waiting for"):
        table.act("allied", "done")
    with pytest.raises(InvalidActionError, match="unknown action 'fly'"):
        table.act("allied", "fly")
    with pytest.raises(InvalidActionError, match="unknown seat"):
        table.act("soviet", "done")


# --- 9.612 - 9.616 -------------------------------------------------------------------------------------------


def test_9_6122_san_below_two_is_raised_and_high_san_rolls() -> None:
    table = to_first_reph({"san": {"allied": 1, "german": 6}})
    table.finish_manual()
    texts = [e.text for e in table.events if e.kind in ("san", "roll")]
    assert any("British SAN 1 is below 2: raised to 2" in t for t in texts)
    german_roll = next(
        e for e in table.events if e.kind == "roll" and e.data["roll"]["table"] == "san_adjustment_german"
    )
    assert german_roll.data["roll"]["drms"] == [
        {"id": "san", "text": "current German SAN minus five", "quantity": 6, "modifier": 1}
    ]
    assert not any(e.kind == "roll" and e.data["roll"]["table"] == "san_adjustment_allied" for e in table.events)


def test_9_615_ob_given_reinforcements_for_18am() -> None:
    table = to_first_reph({"san": {"allied": 6, "german": 2}})
    table.finish_manual()
    table.finish_manual()
    allied, german = table.state.rosters["allied"], table.state.rosters["german"]
    assert [rg.key for rg in allied.rg_record if not rg.purchased] == ["I1", "I2"]
    assert allied.san <= 7  # SAN +2, 7 maximum
    assert german.san == 2  # SAN -1, 2 minimum
    assert german.fpp_given == 20


def test_9_6162_cpp_variable_arrival_is_sealed() -> None:
    table = to_first_reph()
    table.play_secret_steps(until="roll_cpp")
    prompt = table.prompts()["allied"]
    assert prompt.secret and prompt.rule == "9.6162"
    events = table.act("allied", "roll_cpp")
    secret = table.state.secrets[-1]
    assert secret.kind == "cpp" and secret.content["received"] == 20 + sum(secret.content["dice"])
    public = [e for e in events if not e.secret_to]
    assert [e.kind for e in public] == ["sealed"] and secret.receipt in public[0].text
    assert canonical_json(secret.content) not in table.channel()
    assert '"received"' not in table.channel()
    assert "content" not in SYSTEM.view(table.state, None)["secrets"][-1]
    assert SYSTEM.view(table.state, "allied")["secrets"][-1]["content"] == secret.content
    assert "content" not in SYSTEM.view(table.state, "german")["secrets"][-1]
    assert "cpp_available" not in json.dumps(SYSTEM.view(table.state, None)["rosters"]["allied"])


# --- 9.617 - 9.619 -------------------------------------------------------------------------------------------


def test_9_617_unspent_cpp_are_halved_rounding_up() -> None:
    table = new_table({"cpp": {"allied": 11, "german": 0}})
    table.act("allied", "purchase", rgs="I1")
    line = table.state.rosters["allied"].line("17N")
    assert (line.spent, line.left) == (4, 4)  # 7 unspent, FRU
    assert table.state.rosters["allied"].rg_record[0].number_remaining == 2


def test_9_6173_purchase_beyond_cpp_is_refused() -> None:
    table = new_table({"cpp": {"allied": 7, "german": 0}})
    with pytest.raises(IllegalActionError) as caught:
        table.act("allied", "purchase", rgs="I1,I1")
    assert caught.value.rule == "9.6173" and "cost 8 CPP but you have 7 CPP" in caught.value.reason


def test_9_6175_cg_date_maximum() -> None:
    table = new_table({"cpp": {"allied": 30, "german": 0}})
    with pytest.raises(IllegalActionError) as caught:
        table.act("allied", "purchase", rgs="I1,I1,I1")
    assert caught.value.rule == "9.6175" and "at most 2" in caught.value.reason


def test_9_6176_cg_maximum_counts_purchases_not_ob_given_rgs() -> None:
    table = new_table({"cg": "TEST-CG", "cpp": {"allied": 30, "german": 0}, "initial_rgs": {"allied": "I4"}})
    table.act("allied", "purchase", rgs="I4")  # the OB-given I4 does not count (9.6176)
    advance(table)
    end_scenario(table)
    advance(table, chits={"18AM": {"allied": "idle", "german": "attack"}})
    end_scenario(table)
    table.play_secret_steps(until="purchase")
    with pytest.raises(IllegalActionError) as caught:
        table.act("allied", "purchase", rgs="I4")
    assert caught.value.rule == "9.6176" and "the CG maximum is 1 and 1 already purchased" in caught.value.reason


def test_9_6171_unknown_rg_and_absent_chart() -> None:
    table = new_table({"cpp": {"allied": 30, "german": 0}})
    with pytest.raises(InvalidActionError) as caught:
        table.act("allied", "purchase", rgs="Z9")
    assert caught.value.rule == "9.6171" and "your RGs are: I1, I4, F1" in caught.value.reason
    bare = new_table({"cpp": {"allied": 9, "german": 4}}, chart=False)
    assert not any(p.rule == "9.617" for p in bare.prompts().values())
    assert bare.state.rosters["allied"].line("17N").left == 5
    assert any("no RG can be purchased: the RG chart is not loaded" in e.text for e in bare.events)


def test_9_618_rg_rolls_are_secret_and_follow_the_charts() -> None:
    table = new_table({"cpp": {"allied": 0, "german": 20}})
    table.act("allied", "purchase", rgs="")
    table.act("german", "purchase", rgs="I1(K),I3(K),A2(K)")
    table.act("german", "roll_rgs")
    secret = table.state.secrets[-1]
    results = {r["rg"]: r for r in secret.content["results"]}
    vg = results["I3(K)"]
    assert any(d["id"] == "vg" and d["modifier"] == 1 for d in vg["strength_roll"]["drms"])  # 9.6181
    record = {rg.key: rg for rg in table.state.rosters["german"].rg_record}
    ss = record["I1(K)"]
    if ss.strength == "F":  # 9.6182: a Full RG gets every SW; the * entry picks Lt. Mtr or PSK
        assert ss.sw[0] == "LMG" and ss.sw[1] in ("Lt. Mtr", "PSK") and len(ss.sw) == 2
    else:
        rolls = results["I1(K)"]["sw_rolls"]
        assert ss.sw == [r["weapon"] for r in rolls if "needed" in r and r["dr"] <= r["needed"]]
    pick = next(r for r in results["I1(K)"]["sw_rolls"] if "choice" in r)
    assert pick["weapon"] == ("Lt. Mtr" if pick["dr"] <= 2 else "PSK")
    tank = results["A2(K)"]
    assert "strength_roll" not in tank  # not eligible for Depletion
    assert tank["composition_roll"]["table"] == "composition_A2"  # 9.6184
    assert tank["leader_roll"]["column"] == "armor"  # 9.6183
    assert record["A2(K)"].vehicles.startswith("PzKpfw")
    assert "TEST SS Rifle Pltn" not in table.channel()
    assert "I1(K)" not in table.channel()


def test_9_6183_leader_table_drm_by_rg_class() -> None:
    table = new_table({"cpp": {"allied": 10, "german": 0}})
    table.act("allied", "purchase", rgs="I4")
    table.act("german", "purchase", rgs="")
    table.act("allied", "roll_rgs")
    roll = table.state.secrets[-1].content["results"][0]["leader_roll"]
    assert roll["drms"] == [{"id": "engineer", "text": "engineer RG", "quantity": 1, "modifier": -2}]
    assert roll["column"] == "allied"


def test_9_619_fortification_purchases() -> None:
    table = new_table({"cpp": {"allied": 0, "german": 0}, "fpp": {"german": 10, "allied": 0}})
    table.act("allied", "purchase", rgs="")
    table.act("german", "purchase", rgs="")
    table.act("allied", "roll_rgs")
    table.act("german", "roll_rgs")
    with pytest.raises(IllegalActionError) as caught:
        table.act("german", "fortify", items="breach")
    assert caught.value.rule == "9.619" and "may not buy Breach" in caught.value.reason
    with pytest.raises(IllegalActionError, match="cost 12 FPP but you have 10 FPP"):
        table.act("german", "fortify", items="trench,foxhole-3=2")
    table.act("german", "fortify", items="ap-mine=3")
    secret = table.state.secrets[-1]
    assert secret.content["spent"] == 9 and secret.content["forfeit"] == 1
    assert table.state.rosters["german"].fpp_given == 0  # unspent FPP are forfeit


# --- 9.620 ------------------------------------------------------------------------------------------------


def test_9_6201_no_ammunition_dr_before_19am_nor_after_an_idle_date() -> None:
    table = to_first_reph({"end": "19PM"})
    advance(table, chits={"18AM": {"allied": "attack", "german": "attack"}})
    assert not any(e.kind == "ammo" for e in table.events)
    end_scenario(table)
    chits = {d: {"allied": "attack", "german": "idle"} for d in ("18PM", "18EVE", "19AM")}
    chits["18N"] = {"allied": "idle", "german": "idle"}
    for _ in range(3):
        advance(table, chits=chits)
        end_scenario(table)
    assert table.state.date == "19AM"
    assert any("no Ammunition Shortage DR: the previous CG Date was Idle" in e.text for e in table.events)
    assert not any(e.kind == "ammo" for e in table.events)
    advance(table, chits={"19PM": {"allied": "attack", "german": "attack"}})
    assert any(e.kind == "ammo" for e in table.events)
    ammo = next(e for e in table.events if e.kind == "roll" and e.data["roll"]["table"] == "ammo_shortage")
    drms = {d["id"]: d["modifier"] for d in ammo.data["roll"]["drms"]}
    assert drms == {"exhaustion": 1, "attack_chits": 3}  # 4 British Attack Chits so far, minus one


def test_9_6202_elr_roll_uses_the_campaign_record() -> None:
    table = to_first_reph()
    advance(table, chits={"18AM": {"allied": "attack", "german": "idle"}})
    rolls = [e.data["roll"] for e in table.events if e.kind == "roll" and e.data["roll"]["table"] == "elr_loss"]
    allied = {d["id"]: d["modifier"] for d in rolls[-2]["drms"]}
    assert allied == {"cvp": -1, "scenarios": 1}  # 40 CVP, the Initial Scenario
    german = {d["id"]: d["modifier"] for d in rolls[-1]["drms"]}
    assert german == {"scenarios": 1}  # 20 CVP is below 30


# --- 9.621: chits, matrix, assaults ------------------------------------------------------------------------------


def test_9_6213_chits_are_sealed_then_revealed_together() -> None:
    table = to_first_reph()
    table.play_secret_steps(until="choose_chit")
    prompt = table.prompts()["allied"]
    assert prompt.secret and prompt.rule == "9.6213"
    events = table.act("allied", "choose_chit", chit="attack")
    assert [e.kind for e in events if not e.secret_to] == ["sealed"]
    assert SYSTEM.view(table.state, None)["history"][-1]["chits"] == {}
    assert SYSTEM.view(table.state, None)["rosters"]["allied"]["chits"] == {"attack": 0, "idle": 0}
    assert "attack chit" not in table.channel().lower()
    with pytest.raises(IllegalActionError, match="revealed together"):
        table.act("allied", "reveal", secret=table.state.secrets[-1].id)
    events = table.act("german", "choose_chit", chit="idle")
    reveals = [e for e in events if e.kind == "reveal"]
    assert [r.data["content"]["chit"] for r in reveals] == ["attack", "idle"]
    for reveal in reveals:
        assert verify_receipt(reveal.data["content"], reveal.data["salt"], reveal.data["receipt"])
    outcome = next(e for e in events if e.kind == "initiative")
    assert outcome.data["outcome"] == "allied_assault" and "British Assault" in outcome.text
    record = table.state.record()
    assert (record.setup_first, record.move_first) == ("german", "allied")  # 9.62133 c)


def test_9_62133_german_assault_british_set_up_first() -> None:
    table = to_first_reph()
    advance(table, chits={"18AM": {"allied": "idle", "german": "attack"}})
    record = table.state.record()
    assert (record.scenario_type, record.setup_first, record.move_first) == ("german_assault", "allied", "german")
    setup = [e for e in table.events if e.kind == "done" and "setup" in e.text]
    assert [e.data["side"] for e in setup][-2:] == ["allied", "german"]


def test_9_62133_dual_assault_rolls_for_setup_and_first_move() -> None:
    table = to_first_reph()
    advance(table, chits={"18AM": {"allied": "attack", "german": "attack"}})
    record = table.state.record()
    rolls = {e.data["roll"]["table"]: e.data["roll"] for e in table.events if e.kind == "roll"}
    dual = rolls["dual_setup"]
    assert record.setup_first == ("allied" if dual["final"] <= 3 else "german")
    first = rolls["first_move"]
    assert record.move_first == ("german" if first["final"] <= 4 else "allied")
    assert record.weather and record.ec and record.wind
    order = [e.kind for e in table.events if e.kind in ("roll", "done")]
    assert order.index("done", len(order) - 8) < len(order)  # setup happened before the first-move roll
    rolled = [e.data["roll"]["table"] for e in table.events if e.kind == "roll"]
    windy = record.wind in ("mild_breeze", "heavy_wind")
    expected = ["first_move", "weather", "ec", "wind"] + (["wind_direction"] if windy else [])
    assert rolled[-len(expected) :] == expected
    assert (record.wind_direction is not None) == windy


def test_9_62132_idle_idle_repeats_9_612_to_9_620_only() -> None:
    table = to_first_reph()
    advance(table, chits={"18AM": {"allied": "attack", "german": "attack"}})
    end_scenario(table)
    start = len(table.events)
    chits = {"18PM": {"allied": "idle", "german": "idle"}, "18EVE": {"allied": "idle", "german": "attack"}}
    advance(table, chits=chits)
    rules = step_rules(table, start)
    idle_at = rules.index("9.621")
    assert rules[idle_at + 1 :] == ["9.6121", "9.613", "9.614", "9.616", "9.617", "9.618", "9.619", "9.621"]
    assert "9.601" not in rules[idle_at:]
    assert table.state.date == "18EVE"
    kinds = [r.kind for r in table.state.history]
    assert kinds == ["scenario", "scenario", "idle", "scenario"]
    elr = [e.data["roll"] for e in table.events[start:] if e.kind == "roll" and e.data["roll"]["table"] == "elr_loss"]
    assert {
        "id": "idle_dates",
        "text": "per Idle CG Date since the last CG Scenario",
        "quantity": 1,
        "modifier": -3,
    } in elr[-1]["drms"]


def test_9_62131_chit_limits_are_enforced() -> None:
    table = new_table({"cg": "TEST-CG", "end": "19AM"})  # TEST-CG: British 1 Attack chit, German 1 Idle chit
    advance(table)
    end_scenario(table)
    advance(table, chits={"18AM": {"allied": "attack", "german": "idle"}})
    end_scenario(table)
    table.play_secret_steps(until="choose_chit")
    allied = table.prompts()["allied"]
    assert [c.args["chit"] for c in allied.choices] == ["idle"]
    assert "attack 0 left" in allied.text
    with pytest.raises(IllegalActionError) as caught:
        table.act("allied", "choose_chit", chit="attack")
    assert caught.value.rule == "9.62131" and "used all 1 Attack chits" in caught.value.reason
    assert [c.args["chit"] for c in table.prompts()["german"].choices] == ["attack"]
    with pytest.raises(IllegalActionError, match=r"9\.62131"):
        table.act("german", "choose_chit", chit="idle")


# --- Secrets, receipts, restart, replay -------------------------------------------------------------------


def test_purchases_stay_sealed_until_their_owner_reveals_them() -> None:
    table = new_table({"cpp": {"allied": 8, "german": 8}})
    table.act("allied", "purchase", rgs="I1")
    table.act("german", "purchase", rgs="I1(K)")
    secret = next(s for s in table.state.secrets if s.owner == "german" and s.kind == "rg_purchase")
    assert "I1(K)" not in table.channel() and "TEST SS Rifle Pltn" not in table.channel()
    assert SYSTEM.view(table.state, None)["rosters"]["german"]["rg_record"] == []
    with pytest.raises(IllegalActionError, match="only its owner may reveal it"):
        table.act("allied", "reveal", secret=secret.id)
    events = table.act("german", "reveal", secret=secret.id)
    assert "I1(K)" in events[0].text
    assert verify_receipt(events[0].data["content"], events[0].data["salt"], secret.receipt)
    assert [rg["key"] for rg in SYSTEM.view(table.state, None)["rosters"]["german"]["rg_record"]] == ["I1(K)"]
    with pytest.raises(IllegalActionError, match="already revealed"):
        table.act("german", "reveal", secret=secret.id)


def test_receipts_are_sha256_of_canonical_json_with_a_seed_derived_salt() -> None:
    import hashlib

    table = new_table({"cpp": {"allied": 8, "german": 0}})
    table.act("allied", "purchase", rgs="I1")
    secret = table.state.secrets[-1]
    salt = salt_for(SEED, secret.id)
    body = canonical_json({"salt": salt, "secret": secret.content})
    assert hashlib.sha256(body.encode()).hexdigest() == secret.receipt
    forged = dict(secret.content, rgs=["I4"])
    assert not verify_receipt(forged, salt, secret.receipt)


def test_restart_between_a_sealed_chit_and_its_reveal() -> None:
    chits = {"18AM": {"allied": "attack", "german": "idle"}}
    straight = to_first_reph()
    advance(straight, chits=chits)

    table = to_first_reph()
    table.play_secret_steps(until="choose_chit")
    table.act("allied", "choose_chit", chit="attack")
    stored = json.dumps(state_to_json(table.state))  # the bot's snapshot; then the process restarts
    table.state = state_from_json(json.loads(stored))
    assert "attack" not in json.dumps(SYSTEM.view(table.state, None)["history"])
    assert set(table.prompts()) == {"german"} and table.prompts()["german"].secret
    table.act("german", "choose_chit", chit="idle")
    advance(table, chits=chits)
    assert state_to_json(table.state) == state_to_json(straight.state)


def test_replay_gives_the_same_state() -> None:
    table = to_first_reph()
    advance(table, chits={"18AM": {"allied": "attack", "german": "attack"}})
    replay = SYSTEM.new_game(
        "a-bridge-too-far",
        {"start": "17N", "end": "19PM", "elr": {"allied": 5, "german": 3}, "san": {"allied": 3, "german": 4}},
        SEED,
    )
    for action in table.actions:
        replay, _ = SYSTEM.apply(replay, action)
    assert state_to_json(replay) == state_to_json(table.state)
    other = SYSTEM.new_game(
        "a-bridge-too-far",
        {"start": "17N", "end": "19PM", "elr": {"allied": 5, "german": 3}, "san": {"allied": 3, "german": 4}},
        bytes(32),
    )
    for action in table.actions:
        other, _ = SYSTEM.apply(other, action)
    assert state_to_json(other)["rolls_made"] == state_to_json(table.state)["rolls_made"]
    assert state_to_json(other) != state_to_json(table.state)


def test_secret_dice_do_not_move_the_public_dice_counter() -> None:
    table = new_table({"cpp": {"allied": 30, "german": 30}})
    before = table.state.rolls_made
    table.act("allied", "purchase", rgs="I1,I1,I4")
    table.act("german", "purchase", rgs="")
    table.act("allied", "roll_rgs")
    assert table.state.rolls_made == before
    assert "secret_rolls" not in json.dumps(SYSTEM.view(table.state, None))


# --- Scenario end and the whole campaign ------------------------------------------------------------------------


def test_9_6211_scenario_end_is_confirmed_by_the_other_side() -> None:
    table = new_table()
    advance(table)
    table.act("allied", "report_end", cvp_allied=12, cvp_german=3)
    assert set(table.prompts()) == {"german"}
    table.act("german", "reject_end")
    assert table.state.phase == "scenario"
    with pytest.raises(InvalidActionError, match="cannot be negative"):
        table.act("german", "report_end", cvp_allied=-1, cvp_german=3)
    table.act("german", "report_end", cvp_allied=12, cvp_german=3)
    table.act("allied", "confirm_end")
    assert table.state.phase == "refit" and table.state.history[0].cvp == {"allied": 12, "german": 3}


def test_9_6212_sudden_death_ends_the_cg_with_a_german_win_and_reveals_everything() -> None:
    table = new_table({"cpp": {"allied": 8, "german": 8}})
    table.act("allied", "purchase", rgs="I1")
    advance(table)
    end_scenario(table, 5, 50, sudden_death=True)
    assert SYSTEM.result(table.state) is not None
    assert SYSTEM.result(table.state).winner == "german"
    assert all(s.revealed for s in table.state.secrets)
    assert "I1" in table.channel()


def test_whole_campaign_over_several_dates() -> None:
    """17N initial; 18AM Dual; 18PM Idle/Idle; 18EVE British Assault; 18N German Assault; 19AM last."""
    table = new_table({"end": "19AM", "cpp": {"allied": 8, "german": 12}, "fpp": {"german": 6}})
    chits = {
        "18AM": {"allied": "attack", "german": "attack"},
        "18PM": {"allied": "idle", "german": "idle"},
        "18EVE": {"allied": "attack", "german": "idle"},
        "18N": {"allied": "idle", "german": "attack"},
        "19AM": {"allied": "attack", "german": "attack"},
    }
    purchases = {"17N": {"allied": "I1", "german": "I1(K),I3(K)"}, "18AM": {"german": "A2(K)"}}
    forts = {"17N": {"german": "trench"}, "18AM": {"german": "wire,ap-mine=3"}}
    advance(table, chits, purchases, forts)
    sealed_keys = ["I1(K)", "I3(K)", "A2(K)", "TEST SS Rifle Pltn", "Wire (German only)"]
    for date, cvp in (("17N", (10, 20)), ("18AM", (31, 45)), ("18EVE", (8, 3)), ("18N", (12, 61))):
        assert table.state.date == date and table.state.phase == "scenario"
        for key in sealed_keys:
            assert key not in table.channel(), (date, key)
        end_scenario(table, *cvp)
        advance(table, chits, purchases, forts)
    assert table.state.date == "19AM"
    types = [(r.date, r.kind, r.scenario_type) for r in table.state.history]
    assert types == [
        ("17N", "scenario", None),
        ("18AM", "scenario", "dual"),
        ("18PM", "idle", None),
        ("18EVE", "scenario", "allied_assault"),
        ("18N", "scenario", "german_assault"),
        ("19AM", "scenario", "dual"),
    ]
    assert table.state.rosters["allied"].chits == {"attack": 3, "idle": 2}
    assert table.state.rosters["german"].chits == {"attack": 3, "idle": 2}
    assert any(e.kind == "ammo" for e in table.events)  # 19AM, previous date 18N was not Idle
    with pytest.raises(InvalidActionError, match="last date: give the CG winner"):
        table.act("allied", "report_end", cvp_allied=1, cvp_german=1)
    end_scenario(table, 1, 1, winner="allied")
    result = SYSTEM.result(table.state)
    assert result is not None and result.winner == "allied"
    assert all(s.revealed for s in table.state.secrets)
    for event in (e for e in table.events if e.kind == "reveal"):
        assert verify_receipt(event.data["content"], event.data["salt"], event.data["receipt"])
    view = SYSTEM.view(table.state, None)
    assert view["seed"] == SEED.hex()
    assert {"I1(K)", "I3(K)", "A2(K)"} <= {rg["key"] for rg in view["rosters"]["german"]["rg_record"]}
    with pytest.raises(IllegalActionError, match="the campaign is over"):
        table.act("allied", "done")


def test_secret_prompt_texts_carry_no_secret_figures() -> None:
    """A prompt's text may be listed in the channel (``game status``): the CPP, FPP and RGs stay out of it."""
    table = new_table({"cpp": {"allied": 23, "german": 0}, "fpp": {"german": 9}})
    texts = {seat: prompt.text for seat, prompt in table.prompts().items()}
    assert texts["allied"].startswith("9.617") and "23" not in texts["allied"]
    table.act("allied", "purchase", rgs="I1")
    table.act("german", "purchase", rgs="")
    rolls = table.prompts()["allied"].text
    assert "I1" not in rolls
    table.act("allied", "roll_rgs")
    table.act("german", "roll_rgs")
    forts = table.prompts()["german"]
    assert forts.rule == "9.619" and "9 FPP" not in forts.text


def test_9_605_done_is_offered_once_the_setup_areas_are_entered() -> None:
    """[9.605] Before a side enters its Setup Areas its prompt offers no Done (Done would be refused): it says
    what to enter; once they are entered, Done is offered and accepted."""
    table = to_first_reph()
    for _ in range(4):
        table.act("allied", "done")
        table.act("german", "done")
    assert table.step_rule() == "9.605"
    prompt = table.prompts()["allied"]
    assert not prompt.choices and "areas" in prompt.free_verbs and "Setup Areas" in prompt.text
    with pytest.raises(IllegalActionError, match="Setup Areas"):
        table.act("allied", "done")
    table.act("allied", "areas", setup="A,B", strategic="", perimeter="")
    assert [c.verb for c in table.prompts()["allied"].choices] == ["done"]
    table.act("allied", "done")
