"""Alsace 1944 rules read closely through whole actions (issue 27): each test is named after its rule and
fails when the rule is broken, through the game's own actions rather than a module's helper.

Positions are set on the real map and counters: a game is taken to its first operations phase, the counters
the test needs are put where it needs them and every other counter leaves the map.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from engine.contract import Action, IllegalActionError
from engine.hexgrid import Hex, hex_name
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.movement import check_move
from engine.vaevictis.odds import AttackPlan, preview
from engine.vaevictis.state import GameState, MapMarker
from scenarios import load_game
from tests.vaevictis.combat_setups import seed_for

GAME = VaeVictisGame(load_game("alsace44"))
DATA = GAME.data
RTM1, RTM2 = "fr-i-4-rtm", "fr-ii-4-rtm"
GR1 = "de-i-757"


def operations(placed: Mapping[str, Hex], side: str = "allied", scenario: str = "entire-battle") -> GameState:
    """A turn-3 operations phase of ``side`` with only the ``placed`` counters on the map, all in command and
    supplied, no activation yet."""
    state = GAME.new_game(scenario, {}, bytes(32))
    state.phase, state.turn = "operations", 3
    state.pending, state.activation = [], None
    for unit in state.units.values():
        unit.hex, unit.arrived = None, False
    for unit_id, hex_ in placed.items():
        unit = state.units[unit_id]
        unit.hex, unit.arrived = hex_, True
        unit.out_of_command = unit.isolated = unit.unsupplied = unit.improved_position = False
        unit.action_points = 0
    state.initiative = state.active = side  # type: ignore[assignment]
    return state


def plain(h: Hex) -> bool:
    m = DATA.map
    return m.terrain[h] == "clear" and h not in m.settlements and not m.overlays_at(h) and h not in m.road_hexes


def dry(a: Hex, b: Hex) -> bool:
    return DATA.map.river_between(a, b) is None


# --- 7.8 Breakthrough -----------------------------------------------------------------------------------------


def test_7_8_a_breakthrough_lets_french_units_move_through_german_zones_until_the_turn_ends() -> None:
    grid = DATA.map.grid
    start, through, beyond, german = next(
        (a, b, c, g)
        for g in sorted(grid.hexes)
        if plain(g)
        for b in grid.neighbours(g)
        if plain(b) and dry(b, g)
        for a in grid.neighbours(b)
        if plain(a) and dry(a, b) and grid.distance(a, g) == 2
        for c in grid.neighbours(b)
        if plain(c) and dry(b, c) and grid.distance(c, g) == 2 and grid.distance(a, c) == 2
    )
    state = operations({RTM1: start, GR1: german})
    state.units[RTM1].action_points = 2
    path = [start, through, beyond]
    stopped = check_move(DATA, state, [RTM1], path[:2])
    assert stopped.enters_enemy_zoc  # 4.2: the German zone stops the move at ``through``
    state.markers.append(MapMarker("breakthrough", through, "allied", state.turn))
    route = check_move(DATA, state, [RTM1], path)
    assert not route.enters_enemy_zoc and route.destination == beyond
    # [2.1 step 5] The marker is removed in the administrative phase: next turn the zone stops moves again.
    from engine.vaevictis import turn

    turn.administrative_phase(DATA, state)
    assert not state.markers_at(through, "breakthrough")
    assert check_move(DATA, state, [RTM1], path[:2]).enters_enemy_zoc


# --- 14 Boobytraps and mines after a retreat -----------------------------------------------------------------


def _village_front() -> tuple[Hex, Hex]:
    """A clear village and a clear French start hex beside it, with another clear hex beside the village."""
    m, grid = DATA.map, DATA.map.grid
    for v in sorted(m.settlements):
        if not m.is_village(v) or m.terrain[v] != "clear" or m.overlays_at(v):
            continue
        around = [n for n in grid.neighbours(v) if plain(n) and dry(v, n)]
        for a in around:
            for r in around:
                if grid.distance(a, r) == 2:
                    return v, a
    raise AssertionError("no village for the test")


def test_14_a_german_retreat_out_of_a_village_in_play_offers_the_mining_try() -> None:
    village, french = _village_front()
    state = operations({RTM1: french, GR1: village})
    state, _ = GAME.apply(state, Action("allied", "activate_general", {}))
    plan = AttackPlan("allied", "normal", (RTM1,), village)
    state.units[RTM1].action_points = 2
    face = next(o.face for o in preview(DATA, state, plan).outcomes if o.result.endswith("/1"))
    state.seed = seed_for([face], state.rolls_made)
    args = {"kind": "normal", "attackers": RTM1, "target": hex_name(village)}
    state, _ = GAME.apply(state, Action("allied", "attack", args))
    while "german" in GAME.prompts(state) and not any(
        c.verb == "retreat" for c in GAME.prompts(state)["german"].choices
    ):
        first = GAME.prompts(state)["german"].choices[0]
        state, _ = GAME.apply(state, Action("german", first.verb, dict(first.args)))
    retreat = next(c for c in GAME.prompts(state)["german"].choices if c.verb == "retreat")
    state, _ = GAME.apply(state, Action("german", "retreat", dict(retreat.args)))
    offered = [c for p in GAME.prompts(state).values() for c in p.choices if c.verb == "mine_retreat"]
    assert [c.args for c in offered] == [{"unit": GR1, "hex": hex_name(village)}]


# --- 15.3 Lack of SS Elan -------------------------------------------------------------------------------------


def test_15_3_lack_of_ss_elan_waits_for_a_reactivation_of_the_30th_ss_and_nothing_else() -> None:
    """ "At the moment when the German player reactivates any unit of the 30th SS": a first activation of an SS
    unit, or a reactivation of another formation's unit, goes ahead without asking the French."""
    from engine.vaevictis.loader import build_game
    from tests.vaevictis.alsace_documents import core_documents
    from tests.vaevictis.stratagem_play import ss_reactivation

    game = VaeVictisGame(build_game(core_documents()))
    state, ss, move = ss_reactivation(game)
    state.units[ss].activations = 0
    moved, events = game.apply(state, move)
    assert not any(e.kind == "reaction" for e in events) and moved.units[ss].hex == 3106
    state, ss, move = ss_reactivation(game)
    other = next(u for u, d in game.data.units.items() if d.formation == "de-189-id" and not d.is_hq)
    state.units[other].hex, state.units[other].arrived, state.units[other].activations = 3105, True, 1
    state.units[other].improved_position = False
    state.units[ss].hex = None
    moved, events = game.apply(state, Action("german", "move", {"units": other, "to": "3106"}))
    assert not any(e.kind == "reaction" for e in events) and moved.units[other].hex == 3106
    assert moved.units[other].fatigued and moved.events_left["lack-of-ss-elan"] == 1


# --- 2.1, 15 Both initiative stratagems in one turn -------------------------------------------------------------


def test_2_1_15_both_initiative_stratagems_played_are_sealed_then_revealed_together() -> None:
    """Each side holds its initiative stratagem and plays it: the first choice stays sealed (its event is the
    chooser's alone, the other seat's view does not change) until the second is in; then one public reveal
    names both plays, both counters are spent, and the initiative is rolled as usual with no stratagem run."""
    import json

    from engine.vaevictis import initiative_stratagems as initiative
    from engine.vaevictis.loader import build_game
    from tests.vaevictis.alsace_documents import core_documents
    from tests.vaevictis.stratagem_play import FIRST_CA, LXIII, initiative_of_turn_2

    game = VaeVictisGame(build_game(core_documents()))
    state = initiative_of_turn_2(game)
    german_view = json.dumps(game.view(state, "german"))
    first, events = game.apply(state, Action("allied", "initiative_stratagem", {"play": True}))
    assert events and all(e.secret_to == ("allied",) for e in events)
    assert json.dumps(game.view(first, "german")) == german_view and first.events_left[FIRST_CA] == 1
    assert set(game.prompts(first)) == {"german"} and game.prompts(first)["german"].secret
    second, events = game.apply(first, Action("german", "initiative_stratagem", {"play": True}))
    reveals = [e for e in events if e.kind == "reveal"]
    assert len(reveals) == 1 and not reveals[0].secret_to
    assert set(reveals[0].data["played"]) == {"german", "allied"}
    assert "German player plays" in reveals[0].text and "French player plays" in reveals[0].text
    assert second.events_left[FIRST_CA] == 0 and second.events_left[LXIII] == 0
    assert any(e.kind == "roll" and e.data.get("rule") == "2.1" for e in events)
    assert initiative.RUN not in second.flags and second.phase == "operations"


# --- 19.4.2 The variant's German groups ------------------------------------------------------------------------


def test_19_4_2_only_a_french_move_or_advance_into_column_16_brings_the_mulhouse_group() -> None:
    """ "The turn that a French unit enters the 16xx hexrow": a German move there, or a French unit leaving the
    column, brings nothing; a French advance after combat into it does, as a move does."""
    from engine.contract import Event
    from engine.vaevictis import variant
    from engine.vaevictis.loader import build_game
    from tests.vaevictis.alsace_documents import core_documents
    from tests.vaevictis.variant_play import started

    game = VaeVictisGame(build_game(core_documents()))
    data = game.data
    state = started(game)
    group = next(g for g in data.extra["variant"]["group"] if g["id"] == "mulhouse")
    german = Event("move", "", {"units": [GR1], "path": ["1510", "1610"]})
    leaving = Event("move", "", {"units": [RTM1], "path": ["1610", "1510"]})
    assert not variant.after_action(data, state, [german, leaving])
    assert all(state.arrivals[u] == variant.NEVER for u in group["units"])
    advance = Event("advance", "", {"units": [RTM1], "from": 1510, "to": 1610})
    assert variant.after_action(data, state, [advance])
    assert all(state.arrivals[u] == state.turn for u in group["units"])


# --- 15.2 Alarm Battalion ----------------------------------------------------------------------------------------


def test_15_2_an_alarm_battalion_never_goes_behind_the_french_front() -> None:
    """ "A city or village hex under his control (i.e. through which no French unit has passed)": the French side
    of the front line, where the French army stands at the set-up, is French from the start. Faucogney (0202),
    a French rear village, is refused from turn 1 on; an empty village on the German side is not."""
    from engine.vaevictis import stratagems

    state = operations({RTM1: 315, GR1: 1120}, side="german", scenario="entire-battle")
    state, _ = GAME.apply(state, Action("german", "activate_general", {}))
    offered = {
        c.args.get("hex") for c in stratagems.choices(DATA, state, "german") if c.args["event"] == "alarm-battalion"
    }
    assert "0202" not in offered and offered
    before = state.copy()
    with pytest.raises(IllegalActionError) as refused:
        GAME.apply(state, Action("german", "play_event", {"event": "alarm-battalion", "hex": "0202"}))
    assert refused.value.rule == "15.2" and "not under your control" in refused.value.reason
    assert state.to_json() == before.to_json()
    west = DATA.map.regions["west of the front line"]
    german_side = sorted(h for h in offered if h is not None)
    assert all(int(h) not in west for h in german_side)


def test_15_2_an_antitank_ditch_goes_on_any_empty_hex_the_text_sets_no_other_condition() -> None:
    """ "The German player may place an Antitank Ditch marker on the map during a friendly or enemy
    activation": no French armour need be near. A hex no unit may enter (Switzerland) is refused, with 15.2."""
    from engine.vaevictis.supply import no_entry_hexes

    state = operations({RTM1: 315, GR1: 1120}, side="german")
    state, _ = GAME.apply(state, Action("german", "activate_general", {}))
    far = next(h for h in sorted(DATA.map.grid.hexes) if plain(h) and DATA.map.grid.distance(h, 315) > 6)
    played, _ = GAME.apply(state, Action("german", "play_event", {"event": "antitank-ditch", "hex": hex_name(far)}))
    assert played.markers_at(far, "antitank-ditch") and played.events_left["antitank-ditch"] == 0
    swiss = min(no_entry_hexes(DATA))
    before = state.to_json()
    with pytest.raises(IllegalActionError) as refused:
        GAME.apply(state, Action("german", "play_event", {"event": "antitank-ditch", "hex": hex_name(swiss)}))
    assert refused.value.rule == "15.2" and state.to_json() == before


# --- The French are the French ------------------------------------------------------------------------------------


def test_0_the_seat_allied_is_named_french_in_every_text_and_keeps_its_stored_id() -> None:
    """The rules speak of "the French player": events, victory conditions and results name the seat French.
    The stored seat id stays ``allied``, so a game stored before reads the same (seat ids are data)."""
    from engine.vaevictis import reports
    from engine.vaevictis.state import GameState

    assert DATA.side_name("allied") == "French" and DATA.side_name("german") == "German"
    assert DATA.result_name("allied-strategic") == "French strategic"
    described = [reports.describe_condition(DATA, c) for c in DATA.scenarios["initial-assault"].victory]
    assert any(d.startswith("French (French strategic): ") and "Rhine bank" in d for d in described), described
    assert not any("allied" in d.lower() for d in described)
    state = operations({RTM1: 315, GR1: 1120})
    state, events = GAME.apply(state, Action("allied", "activate_general", {}))
    assert any(e.text.startswith("French makes a general activation") for e in events)
    assert GameState.from_json(state.to_json()).active == "allied" and "allied" in GAME.seats
