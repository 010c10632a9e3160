"""[11] Fog of war (optional): per-seat views of enemy stacks."""

from __future__ import annotations

from typing import Any

from engine.vaevictis.state import GameState
from tests.vaevictis.gameplay import Table

FAR = {
    "hq-us-v": 101,
    "us-2-id": 203,
    "us-3-id": 203,
    "hq-de-1ss": 803,
    "de-peiper": 705,
    "de-hansen": 705,
    "de-12-vg": 604,
}


def stack(view: dict[str, Any], hex_: int) -> dict[str, Any]:
    return next(s for s in view["stacks"] if s["hex"] == hex_)


def test_11_without_fog_every_counter_is_visible() -> None:
    table = Table(placements=FAR)
    seen = stack(table.game.view(table.state, "allied"), 705)
    assert {u["id"] for u in seen["units"]} == {"de-peiper", "de-hansen"} and seen["hidden"] == 0


def test_11_1_an_enemy_stack_out_of_contact_shows_only_its_top_unit() -> None:
    table = Table(placements=FAR, fog_of_war=True)
    for seat in ("allied", None):
        seen = stack(table.game.view(table.state, seat), 705)
        assert seen["count"] == 2 and len(seen["units"]) == 1 and seen["hidden"] == 1
    own = stack(table.game.view(table.state, "german"), 705)
    assert len(own["units"]) == 2


def test_11_1_a_friendly_zone_of_control_reveals_the_stack() -> None:
    table = Table(placements={**FAR, "us-cca": 606}, fog_of_war=True)  # 0606 touches the stack at 0705
    seen = stack(table.game.view(table.state, "allied"), 705)
    assert len(seen["units"]) == 2 and seen["hidden"] == 0


def test_11_2_the_owner_chooses_the_top_unit() -> None:
    table = Table(placements=FAR, fog_of_war=True)
    table.act("german", "put_on_top", unit="de-hansen")
    assert stack(table.game.view(table.state, "allied"), 705)["units"][0]["id"] == "de-hansen"
    table.act("german", "put_on_top", unit="de-peiper")
    assert stack(table.game.view(table.state, "allied"), 705)["units"][0]["id"] == "de-peiper"


def test_11_the_seed_never_appears_in_a_view() -> None:
    table = Table(placements=FAR, fog_of_war=True)
    for seat in ("german", "allied", None):
        assert table.state.seed not in repr(table.game.view(table.state, seat))


def test_11_2_a_stack_that_moves_keeps_the_top_its_owner_chose() -> None:
    table = Table(placements=FAR, fog_of_war=True)
    table.act("german", "put_on_top", unit="de-hansen")
    table.act("german", "activate_formation", formation="de-1ss")
    table.act("german", "move", units="de-peiper,de-hansen", to="0704")
    for seat in ("allied", None):
        seen = stack(table.game.view(table.state, seat), 704)
        assert [u["id"] for u in seen["units"]] == ["de-hansen"] and seen["hidden"] == 1
    table.act("german", "move", units="de-hansen", to="0804")  # the top leaves: the other counter shows
    assert [u["id"] for u in stack(table.game.view(table.state, "allied"), 704)["units"]] == ["de-peiper"]


def test_11_2_tops_chosen_by_hex_in_an_older_state_are_read_back() -> None:
    table = Table(placements=FAR, fog_of_war=True)
    old = table.state.to_json()
    old["stack_tops"] = {"0705": "de-hansen"}
    state = GameState.from_json(old)
    assert stack(table.game.view(state, "allied"), 705)["units"][0]["id"] == "de-hansen"


def test_7_5_11_1_the_odds_of_an_attack_on_an_unseen_stack_are_a_range_that_holds_the_exact_odds() -> None:
    from engine.vaevictis.odds import AttackPlan, assess
    from engine.vaevictis.unseen_odds import unseen_preview

    across = {"hq-us-v": 101, "us-cca": 403, "hq-de-1ss": 803, "de-peiper": 503, "de-hansen": 503}
    table = Table(placements=across, fog_of_war=True)  # the bridge 0403-0503 carries no zone of control (4.1)
    plan = AttackPlan("allied", "normal", ("us-cca",), (503,))
    seen = unseen_preview(table.data, table.state, plan, {"de-hansen"})
    assert seen is not None and seen.unseen == 1 and [c.unit for c in seen.seen] == ["de-peiper"]
    text = "\n".join(seen.lines())
    assert "Hansen" not in text and "de-hansen" not in text
    exact = assess(table.data, table.state, plan)
    columns = table.data.tables.crt_columns
    assert seen.defence[0] <= exact.defence_total <= seen.defence[1]
    assert columns.index(seen.worst.column) <= exact.column <= columns.index(seen.best.column)
    assert seen.worst.drm <= exact.drm_total <= seen.best.drm
    assert unseen_preview(table.data, table.state, plan, set()) is None  # every defender seen: exact odds
