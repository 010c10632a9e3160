"""[30] Tactical puzzles for the computer opponent: hand-built positions on the Ardennes 1944 map, each with the
one decision a sound player makes (the complaints players make of wargame opponents, docs/ai.md)."""

from __future__ import annotations

from engine.hexgrid import parse_hex
from engine.vaevictis import zoc
from engine.vaevictis.opponent.analysis import supply_cut
from engine.vaevictis.state import Position
from tests.vaevictis.opponent_puzzles import ardennes, decide, puzzle


def test_opponent_takes_an_empty_objective() -> None:
    """A panzer unit within reach of Bastogne, St. Vith and Marche, all empty: it drives into one (17.1)."""
    state = puzzle({"de-1-ss-peiper": "2015", "hq-de-i-ss-pzk": "2314", "us-99-393": "0805"}, "german", "de-i-ss-pzk")
    decision = decide(state, "german")
    assert decision.action.verb == "move"
    assert decision.action.args["to"] in ("1817", "2610", "1211")
    assert "takes an objective" in decision.explanation


def test_opponent_does_not_attack_at_bad_odds_without_a_reason() -> None:
    """A Volksgrenadier division next to a stack twice its strength in a village: no attack at 1:2 or worse."""
    state = puzzle(
        {"de-62-vg": "2413", "hq-de-lxvi-ak": "2713", "us-30-id": "2313", "us-3-ad-cca": "2313"},
        "german",
        "de-lxvi-ak",
    )
    for seed in (b"a", b"b", b"c"):
        assert decide(state, "german", seed=seed).action.verb != "attack"


def test_opponent_withdraws_a_unit_about_to_be_cut_off() -> None:
    """A weak American regiment with two panzer units on its flank: it gets out of their reach (10, 4)."""
    placements = {
        "us-28-110": "2413",
        "hq-us-viii-corps": "1817",
        "de-1-ss-peiper": "2512",
        "de-116-pz-16": "2513",
        "hq-de-i-ss-pzk": "2811",
    }
    state = puzzle(placements, "allied", "us-viii-corps")
    decision = decide(state, "allied")
    assert decision.action.verb == "move" and decision.action.args["units"] == "us-28-110"
    after, _ = ardennes().apply(state, decision.action)
    pos = Position(ardennes().data, after)
    hex_ = after.units["us-28-110"].hex
    assert hex_ is not None
    assert not any(pos.side_at(n) == "german" for n in ardennes().data.map.grid.neighbours(hex_))


def test_opponent_plugs_a_one_hex_gap() -> None:
    """An American line along column 21 with one hex (2118) outside every zone of control, German units
    facing it, Bastogne held behind: the reserve closes the gap (4)."""
    placements = {
        "us-99-393": "2112",
        "us-99-394": "2114",
        "us-99-395": "2116",
        "us-9-id": "2120",
        "us-28-112": "2110",
        "us-28-109": "2106",
        "us-28-110": "1817",
        "us-106-422": "2610",
        "us-30-id": "1717",
        "hq-us-xviii-corps": "1616",
        "hq-us-v-corps": "1714",
        "hq-us-viii-corps": "1720",
        "de-62-vg": "2318",
        "de-18-vg": "2315",
        "de-1-ss-peiper": "2320",
        "de-fbb": "2418",
        "hq-de-lxvi-ak": "2617",
    }
    state = puzzle(placements, "allied", "us-xviii-corps")
    gap = parse_hex("2118")
    assert gap not in zoc.enemy_zoc(Position(ardennes().data, state), "german")
    after, _ = ardennes().apply(state, decide(state, "allied").action)
    assert gap in zoc.enemy_zoc(Position(ardennes().data, after), "german")


def test_opponent_cuts_a_supply_chokepoint_when_it_can() -> None:
    """A panzer unit that can put its zone of control on the one road an American regiment draws supply from,
    the objectives all held: it cuts the line (10.2)."""
    placements = {
        "us-28-110": "2211",
        "de-1-ss-peiper": "2713",
        "hq-de-i-ss-pzk": "3010",
        "us-99-393": "0805",
        "hq-us-v-corps": "0105",
        "us-30-id": "1817",
        "us-9-id": "2610",
        "us-1-id": "1211",
    }
    state = puzzle(placements, "german", "de-i-ss-pzk")
    data = ardennes().data
    assert not supply_cut(Position(data, state), "allied")
    decision = decide(state, "german")
    after, _ = ardennes().apply(state, decision.action)
    assert "us-28-110" in supply_cut(Position(data, after), "allied")
    assert "cuts the supply of 1 unit" in decision.explanation
