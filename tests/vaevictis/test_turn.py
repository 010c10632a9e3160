"""[2.1] The sequence of play: air, supply and command, support, initiative, operations, administration; plus
the HQ's return (1.3), the fuel shortage (10.4), the Southern Front (16.1) and the end of a turn (2.2)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.contract import Action, IllegalActionError
from engine.vaevictis import turn
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.state import GameState, UnitState
from tests.vaevictis.gameplay import FRONT, Table
from tests.vaevictis.pinned_dice import seed_rolling
from tests.vaevictis.positions import mini_data


def with_extras(docs: dict[str, Any]) -> None:
    docs["setup.toml"]["air"] = {"turns": [2], "allied": "1d6/2+1", "german": "1 on 4-6"}
    docs["setup.toml"]["fuel_shortage"] = {
        "from_turn": 2,
        "columns": {str(f): ["de-peiper"] if f == 3 else [] for f in range(1, 7)},
    }


DATA = mini_data(with_extras)


def seed_for(predicate: Any) -> bytes:
    """A seed whose game passes ``predicate`` (pins the dice without faking them)."""
    for n in range(2000):
        seed = n.to_bytes(32, "big")
        if predicate(seed):
            return seed
    raise AssertionError("no seed found")


# --- Support phase (1.6) ---------------------------------------------------------------------------------


def test_0_1_each_turn_begins_with_its_own_two_days_and_weather() -> None:
    """[0.1] A turn is two days: the log opens each turn with its dates and weather from the turn track."""
    table = Table(placements=FRONT)
    table.act("german", "pass")
    events = table.act("allied", "pass")
    assert [e.text for e in events if e.kind == "turn"] == ["Turn 2 (18-19 December 1944, clear) begins."]


def test_1_6_support_markers_go_from_the_pool_to_hqs_up_to_their_rating() -> None:
    game = VaeVictisGame(DATA)
    state = game.new_game("test", {}, b"\x01" * 32)
    assert state.phase == "support"
    pool = dict(state.pools["us-1st"])
    state, _ = game.apply(state, Action("allied", "allot", {"hq": "hq-us-v", "marker": "artillery"}))
    assert state.units["hq-us-v"].supports == ["artillery"]
    assert state.pools["us-1st"]["artillery"] == pool["artillery"] - 1
    state, _ = game.apply(state, Action("allied", "allot", {"hq": "hq-us-v", "marker": "tank"}))
    assert "allied" not in game.prompts(state)  # rating 2 reached: nothing left to allot
    try:
        game.apply(state, Action("allied", "allot", {"hq": "hq-us-v", "marker": "tank"}))
    except Exception as error:
        assert "support rating" in str(error) or "not your decision" in str(error)


def test_1_6_an_hq_holding_as_many_markers_as_its_rating_is_refused_one_more() -> None:
    game = VaeVictisGame(DATA)
    state = game.new_game("test", {}, b"\x01" * 32)
    turn.allot(DATA, state, "allied", "hq-us-v", "artillery")
    turn.allot(DATA, state, "allied", "hq-us-v", "tank")  # rating 2 reached
    with pytest.raises(IllegalActionError) as refused:
        turn.allot(DATA, state, "allied", "hq-us-v", "tank")
    assert refused.value.rule == "1.6" and "support rating" in refused.value.reason
    assert state.units["hq-us-v"].supports == ["artillery", "tank"]


def test_10_3_an_unsupplied_hq_receives_no_support_markers() -> None:
    game = VaeVictisGame(DATA)
    state = game.new_game("test", {}, b"\x01" * 32)
    state.units["hq-us-v"].unsupplied = True
    choices = turn.support_choices(DATA, state, "allied")
    assert not [c for c in choices if c.args["hq"] == "hq-us-v"]
    try:
        turn.allot(DATA, state.copy(), "allied", "hq-us-v", "artillery")
        raise AssertionError("allotted to an unsupplied HQ")
    except Exception as error:
        assert "10.3" in str(error)


def test_1_6_unused_supports_return_to_the_pool_at_the_end_of_the_turn() -> None:
    table = Table(DATA, FRONT)
    table.state.units["hq-us-v"].supports = ["artillery"]
    before = table.state.pools["us-1st"].get("artillery", 0)
    table.act("german", "pass")
    table.act("allied", "pass")
    assert table.state.turn == 2 and table.state.phase == "support"  # nothing allotted yet this turn
    assert table.state.pools["us-1st"]["artillery"] == before + 1
    assert table.state.units["hq-us-v"].supports == []


# --- Air phase (14.2) ----------------------------------------------------------------------------------


def test_14_2_air_missions_only_on_the_air_turns() -> None:
    state = GameState(game="mini", scenario="test", options={}, seed="00" * 32, turn=1)
    assert turn.air_phase(DATA, state) == [] and state.air_missions == {"german": 0, "allied": 0}
    state.turn = 2
    events = turn.air_phase(DATA, state)
    rolls = [e.data["die"] for e in events if e.kind == "roll"]
    assert state.air_missions["allied"] == -(-rolls[0] // 2) + 1  # halves round up (0.3)
    assert state.air_missions["german"] == (1 if rolls[1] >= 4 else 0)


# --- Supply phase: fuel shortage (10.4) ----------------------------------------------------------------


def test_10_4_the_fuel_shortage_isolates_the_units_of_the_column_rolled() -> None:
    def rolls_three(seed: bytes) -> bool:
        from engine.dice import roll

        return roll(seed, 0) == 3

    seed = seed_for(rolls_three)
    state = GameState(game="mini", scenario="test", options={}, seed=seed.hex(), turn=2)
    for unit_id in DATA.units:
        from engine.vaevictis.state import UnitState

        state.units[unit_id] = UnitState(id=unit_id, steps=1, hex=703 if unit_id == "de-peiper" else None, arrived=True)
    turn.fuel_shortage(DATA, state)
    assert state.units["de-peiper"].isolated
    state.rolls_made = 0
    turn.fuel_shortage(DATA, state)
    assert state.units["de-peiper"].unsupplied and not state.units["de-peiper"].isolated


def test_10_4_units_arriving_this_turn_are_exempt() -> None:
    from engine.vaevictis.state import UnitState

    data = mini_data(
        lambda d: (
            with_extras(d),
            d["setup.toml"].__setitem__(
                "fuel_shortage", {"from_turn": 2, "columns": {str(f): ["de-hansen"] for f in range(1, 7)}}
            ),
        )
    )
    state = GameState(game="mini", scenario="test", options={}, seed="00" * 32, turn=2)
    for unit_id in data.units:
        state.units[unit_id] = UnitState(id=unit_id, steps=1, hex=704 if unit_id == "de-hansen" else None, arrived=True)
    events = turn.fuel_shortage(data, state)
    assert [e.kind for e in events] == ["roll"]
    hansen = state.units["de-hansen"]
    assert not hansen.isolated and not hansen.unsupplied  # Hansen arrives on turn 2


def test_10_4_no_fuel_shortage_before_its_first_turn() -> None:
    state = GameState(game="mini", scenario="test", options={}, seed="00" * 32, turn=1)
    assert turn.fuel_shortage(DATA, state) == []


# --- HQ destroyed and back (1.3) -----------------------------------------------------------------------


def test_1_3_a_destroyed_hq_returns_next_turn_out_of_enemy_zoc_where_supplied() -> None:
    table = Table(DATA, FRONT)
    hq = table.state.units["hq-de-1ss"]
    hq.eliminated, hq.hex = True, None
    table.state.hq_destroyed["hq-de-1ss"] = 1
    table.act("german", "pass")
    table.act("allied", "pass")
    assert table.state.phase == "supply"
    prompt = table.game.prompts(table.state)["german"]
    hexes = {c.args["hex"] for c in prompt.choices}
    assert "0803" in hexes and "0204" not in hexes
    assert "0303" not in hexes  # next to a road that supplies it, but in the zone of us-2-id
    table.refused("german", "place_hq", "1.3", "out of enemy zones of control", hq="hq-de-1ss", hex="0304")
    table.act("german", "place_hq", hq="hq-de-1ss", hex="0803")
    assert table.state.units["hq-de-1ss"].hex == 803 and table.state.phase != "supply"


# --- The end of the operations phase (2.2) -------------------------------------------------------------


def test_2_2_once_a_side_has_activated_everything_the_other_rolls_2d6_from_its_second_sequence() -> None:
    table = Table(DATA, {"hq-us-v": 101, "us-2-id": 203, "hq-de-1ss": 803, "de-hansen": 704})
    for unit in ("hq-us-v", "us-2-id"):
        table.state.units[unit].activations = 1
    table.act("german", "activate_general")
    table.act("german", "move", units="de-hansen", to="0603")  # a sequence that activates no unit is a pass
    table.act("german", "end_activation")
    assert table.state.active == "german"  # the Allies have nothing left to activate
    table.act("german", "activate_general")
    table.act("german", "move", units="hq-de-1ss", to="0605")
    events = table.act("german", "end_activation")
    check = [e for e in events if e.kind == "roll" and e.data.get("rule") == "2.2"]
    assert len(check) == 1
    assert (table.state.turn == 2) == (check[0].data["total"] >= 11)


# --- Southern Front (16.1) -----------------------------------------------------------------------------


def test_16_1_a_german_unit_on_a_south_entry_hex_delays_allied_reinforcements() -> None:
    def southern(docs: dict[str, Any]) -> None:
        with_extras(docs)
        docs["map.toml"]["entry"]["allied"].append("0206")  # a south-edge entry hex (row 6 of an even column)
        docs["setup.toml"]["reinforcement"].append({"turn": 2, "units": ["us-cca"], "hexes": ["0206"]})
        for r in docs["setup.toml"]["reinforcement"]:
            if "us-cca" in r["units"] and r["hexes"] == ["0103"]:
                r["units"].remove("us-cca")

    data = mini_data(southern)
    table = Table(data, {"hq-us-v": 101, "us-2-id": 203, "hq-de-1ss": 803, "de-hansen": 206})
    table.act("german", "pass")
    table.act("allied", "pass")
    assert table.state.arrivals.get("us-cca") == 3
    assert any(e.kind == "reinforcements" and e.data["rule"] == "16.1" for e in table.events)


def test_1_3_hq_placement_with_one_supply_net_matches_a_net_per_hex() -> None:
    """The returning HQ's hexes come from one supply net; placing the HQ on each hex and building the whole net
    again (the direct reading of 1.3 and 10.2) gives the same hexes, for a German, an American and a British HQ."""
    from engine.vaevictis.state import Position
    from engine.vaevictis.supply import SupplyNet
    from engine.vaevictis.zoc import enemy_zoc
    from scenarios import load_game

    data = load_game("ardennes44")
    state = VaeVictisGame(data).new_game("entire-battle", {}, bytes(32))
    hqs = [u for u in data.units if data.units[u].is_hq]
    chosen = [
        next(u for u in hqs if data.nationality_of(u) == nationality) for nationality in ("german", "us", "british")
    ]
    for hq_id in chosen:
        hq = state.units[hq_id]
        hq.eliminated, original = True, hq.hex
        side = data.side_of(hq_id)
        pos = Position(data, state)
        controlled = enemy_zoc(pos, side)
        expected = []
        for hex_ in data.map.grid.hexes:
            if hex_ in controlled or pos.side_at(hex_) not in (None, side):
                continue
            hq.hex = hex_
            if SupplyNet(Position(data, state), side).hq_supplied(hq_id):
                expected.append(hex_)
        found = turn.hq_placement_hexes(data, state, hq_id)
        assert found == expected and found, hq_id
        assert turn.hq_placement_hexes(data, state, hq_id, only=found[0]) == [found[0]]
        hq.eliminated, hq.hex = False, original


@pytest.mark.parametrize("allied_die, german_die", [(1, 1), (2, 3), (3, 4), (4, 5), (5, 6), (6, 2)])
def test_14_2_allied_missions_are_half_the_die_rounded_up_plus_one_german_one_on_4_to_6(
    allied_die: int, german_die: int
) -> None:
    state = GameState(game="mini", scenario="test", options={}, seed=seed_rolling([allied_die, german_die]), turn=2)
    turn.air_phase(DATA, state)
    allied = {1: 2, 2: 2, 3: 3, 4: 3, 5: 4, 6: 4}[allied_die]  # (1d6 / 2) + 1, the half rounded up (0.3)
    german = {1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 1}[german_die]  # "1 Air support on a 4, 5 or 6"
    assert state.air_missions == {"allied": allied, "german": german}


FUEL_COLUMNS = {"2": ["de-hansen"], "3": ["de-peiper"], "5": ["de-12-vg"]}


def _fuel_data(weather: str) -> Any:
    """The mini game with the fuel table above, every turn of ``weather``, and every counter in from turn 1."""

    def change(d: dict[str, Any]) -> None:
        with_extras(d)
        d["setup.toml"]["fuel_shortage"] = {"from_turn": 2, "columns": FUEL_COLUMNS}
        for turn_row in d["setup.toml"]["turn"]:
            turn_row["weather"] = weather
        for reinforcement in d["setup.toml"]["reinforcement"]:
            reinforcement["turn"] = 1

    return mini_data(change)


def _fuel_state(data: Any, faces: list[int]) -> GameState:
    from engine.vaevictis.state import UnitState

    state = GameState(game="mini", scenario="test", options={}, seed=seed_rolling(faces), turn=2)
    for unit_id in data.units:
        on_map = unit_id in ("de-hansen", "de-peiper", "de-12-vg")
        state.units[unit_id] = UnitState(id=unit_id, steps=1, hex=703 if on_map else None, arrived=True)
    return state


def test_10_4_on_a_clear_turn_doubles_are_rerolled_until_the_two_dice_differ() -> None:
    data = _fuel_data("clear")
    state = _fuel_state(data, [2, 2, 3, 3, 3, 5])  # doubles twice, then 3 and 5
    events = turn.fuel_shortage(data, state)
    assert [e.data["dice"] for e in events if e.kind == "roll"] == [[2, 2], [3, 3], [3, 5]]
    assert state.rolls_made == 6
    isolated = {u for u in FUEL_COLUMNS["2"] + FUEL_COLUMNS["3"] + FUEL_COLUMNS["5"] if state.units[u].isolated}
    assert isolated == {"de-peiper", "de-12-vg"}, "only the columns of the dice that stood"


def test_10_4_on_an_overcast_turn_one_die_names_one_column() -> None:
    data = _fuel_data("overcast")
    state = _fuel_state(data, [5, 5])
    events = turn.fuel_shortage(data, state)
    assert [e.data["dice"] for e in events if e.kind == "roll"] == [[5]] and state.rolls_made == 1
    assert [u for u in ("de-hansen", "de-peiper", "de-12-vg") if state.units[u].isolated] == ["de-12-vg"]


def test_10_4_an_exempt_unit_does_not_spare_the_rest_of_its_column() -> None:
    def change(d: dict[str, Any]) -> None:
        with_extras(d)
        d["setup.toml"]["fuel_shortage"] = {
            "from_turn": 2,
            "columns": {str(f): ["de-hansen", "de-peiper"] for f in range(1, 7)},
        }

    data = mini_data(change)
    state = GameState(game="mini", scenario="test", options={}, seed=seed_rolling([1, 2]), turn=2)
    for unit_id in data.units:
        on_map = unit_id in ("de-hansen", "de-peiper")
        state.units[unit_id] = UnitState(id=unit_id, steps=1, hex=704 if on_map else None, arrived=True)
    turn.fuel_shortage(data, state)
    assert not state.units["de-hansen"].isolated and state.units["de-peiper"].unsupplied  # twice: 1 then 2


def test_10_4_the_weather_of_the_turn_itself_decides_one_die_or_two() -> None:
    data = mini_data(
        lambda d: (
            with_extras(d),
            d["setup.toml"].__setitem__("fuel_shortage", {"from_turn": 1, "columns": FUEL_COLUMNS}),
        )
    )
    assert [t.weather for t in data.turns] == ["overcast", "clear"]
    for turn_number, dice in ((1, 1), (2, 2)):
        state = _fuel_state(data, [3, 5])
        state.turn = turn_number
        rolled = [e.data["dice"] for e in turn.fuel_shortage(data, state) if e.kind == "roll"]
        assert [len(d) for d in rolled] == [dice]


def test_10_4_the_log_gives_the_dice_and_each_unit_isolated_then_unsupplied() -> None:
    data = _fuel_data("clear")
    state = _fuel_state(data, [3, 5, 2, 3])
    state.units["de-12-vg"].isolated = True
    events = turn.fuel_shortage(data, state)
    assert [(e.kind, e.text, e.data) for e in events] == [
        ("roll", "German fuel shortage (2d6): rolled 3, 5.", {"dice": [3, 5], "rule": "10.4"}),
        ("status", "Fuel shortage: Peiper/1 is isolated.", {"unit": "de-peiper", "status": "isolated", "rule": "10.4"}),
        ("status", "Fuel shortage: 12 VG is unsupplied.", {"unit": "de-12-vg", "status": "unsupplied", "rule": "10.4"}),
    ]
    overcast = _fuel_state(_fuel_data("overcast"), [2])
    assert turn.fuel_shortage(_fuel_data("overcast"), overcast)[0].text == "German fuel shortage (1d6): rolled 2."


def test_14_2_the_log_gives_both_rolls_and_the_missions() -> None:
    state = GameState(game="mini", scenario="test", options={}, seed=seed_rolling([5, 4]), turn=2)
    events = turn.air_phase(DATA, state)
    assert [(e.kind, e.text, e.data) for e in events] == [
        ("roll", "Allied air missions: rolled 5.", {"die": 5, "rule": "14.2", "number": 0, "sides": 6}),
        ("roll", "German air mission: rolled 4.", {"die": 4, "rule": "14.2", "number": 1, "sides": 6}),
        ("air", "Air supports this turn: Allied 4, German 1.", {"allied": 4, "german": 1}),
    ]
