"""[Alsace 1944 15] The stratagems: when each may be played, by whom, what it costs and what it does.

Games start as the other Alsace engine tests do (``core_documents``: the real data, the stratagems the engine
plays included).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.contract import Action, IllegalActionError
from engine.vaevictis import activation as act
from engine.vaevictis import initiative_stratagems as initiative
from engine.vaevictis.data import GameData
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.loader import build_game
from engine.vaevictis.movement import check_move
from engine.vaevictis.state import GameState
from tests.vaevictis.alsace_documents import core_documents
from tests.vaevictis.stratagem_play import (
    FIRST_CA,
    LXIII,
    SEED,
    empty_area,
    initiative_of_turn_2,
    operations,
    ss_reactivation,
)


@pytest.fixture(scope="module")
def data() -> GameData:
    return build_game(core_documents())


@pytest.fixture(scope="module")
def game(data: GameData) -> VaeVictisGame:
    return VaeVictisGame(data)


def support_done(game: VaeVictisGame, state: GameState) -> GameState:
    for side in ("german", "allied"):
        if side in game.prompts(state):
            state, _ = game.apply(state, Action(side, "end_support", {}))
    return state


def same(a: GameState, b: GameState) -> bool:
    return json.dumps(a.to_json(), sort_keys=True) == json.dumps(b.to_json(), sort_keys=True)


def test_2_1_the_initiative_stratagems_are_a_sealed_simultaneous_decision(game: VaeVictisGame) -> None:
    state = initiative_of_turn_2(game)
    prompts = game.prompts(state)
    assert set(prompts) == {"german", "allied"}
    assert all(p.secret for p in prompts.values())
    first, events = game.apply(state, Action("german", "initiative_stratagem", {"play": True}))
    # Only the German may read his choice; nothing public says what it was.
    assert all(e.secret_to == ("german",) for e in events)
    assert "german" not in game.prompts(first) and game.prompts(first)["allied"].secret
    assert first.phase == "initiative" and first.events_left[LXIII] == 1
    assert json.dumps(game.view(first, "allied")) == json.dumps(game.view(state, "allied"))
    second, events = game.apply(first, Action("allied", "initiative_stratagem", {"play": False}))
    reveal = next(e for e in events if e.kind == "reveal")
    assert not reveal.secret_to and "LXIII" in reveal.text
    assert second.events_left[LXIII] == 0 and second.events_left[FIRST_CA] == 1
    assert second.initiative == "german" and second.phase == "operations"
    assert not any(e.kind == "roll" for e in events)  # the initiative is given, not rolled


def test_2_1_if_both_play_both_are_spent_and_the_initiative_is_rolled(game: VaeVictisGame) -> None:
    state = initiative_of_turn_2(game)
    state, _ = game.apply(state, Action("allied", "initiative_stratagem", {"play": True}))
    state, events = game.apply(state, Action("german", "initiative_stratagem", {"play": True}))
    assert state.events_left[LXIII] == 0 and state.events_left[FIRST_CA] == 0
    assert any(e.kind == "roll" and e.data.get("rule") == "2.1" for e in events)
    assert state.phase == "operations" and initiative.RUN not in state.flags


def test_2_1_a_decision_out_of_its_phase_is_refused_and_changes_nothing(game: VaeVictisGame) -> None:
    state = initiative_of_turn_2(game)
    state, _ = game.apply(state, Action("german", "initiative_stratagem", {"play": False}))
    before = state.copy()
    with pytest.raises(IllegalActionError):  # a sealed choice is final
        game.apply(state, Action("german", "initiative_stratagem", {"play": True}))
    assert same(state, before)
    state, _ = game.apply(state, Action("allied", "initiative_stratagem", {"play": False}))
    assert state.phase == "operations"
    with pytest.raises(IllegalActionError) as refused:
        initiative.decide(game.data, state.copy(), "allied", True)
    assert refused.value.rule == "2.1"


def test_19_2_the_french_play_the_1st_army_corps_hq_on_turn_1(game: VaeVictisGame) -> None:
    state = support_done(game, game.new_game("entire-battle", {}, SEED))
    prompts = game.prompts(state)
    assert set(prompts) == {"german"} and prompts["german"].secret  # the French have no choice to make
    state, events = game.apply(state, Action("german", "initiative_stratagem", {"play": False}))
    assert state.events_left[FIRST_CA] == 0
    assert state.initiative == "allied"
    assert "(the scenario's rule)" in next(e for e in events if e.kind == "reveal").text


def formation_ids(game: VaeVictisGame, state: GameState, side: str) -> list[str]:
    prompt = game.prompts(state)[side]
    return [str(c.args["formation"]) for c in prompt.choices if c.verb == "activate_formation" and "also" not in c.args]


def test_15_3_the_1st_army_corps_hq_activates_two_hqs_in_succession(game: VaeVictisGame) -> None:
    state = initiative_of_turn_2(game)
    state, _ = game.apply(state, Action("german", "initiative_stratagem", {"play": False}))
    state, _ = game.apply(state, Action("allied", "initiative_stratagem", {"play": True}))
    first, second = formation_ids(game, state, "allied")[:2]
    state, _ = game.apply(state, Action("allied", "activate_formation", {"formation": first}))
    state, _ = game.apply(state, Action("allied", "end_activation", {}))
    assert state.active == "allied"  # the second HQ at once, the German waits
    state, _ = game.apply(state, Action("allied", "activate_formation", {"formation": second}))
    state, _ = game.apply(state, Action("allied", "end_activation", {}))
    assert state.active == "german"


def test_15_2_the_lxiii_ak_hq_activates_two_formations_and_three_independents_together(game: VaeVictisGame) -> None:
    data = game.data
    state = initiative_of_turn_2(game)
    state, _ = game.apply(state, Action("allied", "initiative_stratagem", {"play": False}))
    state, _ = game.apply(state, Action("german", "initiative_stratagem", {"play": True}))
    pairs = [c for c in game.prompts(state)["german"].choices if "also" in c.args]
    assert pairs
    choice = pairs[0]
    first, second = str(choice.args["formation"]), str(choice.args["also"])
    state, _ = game.apply(state, Action("german", "activate_formation", dict(choice.args)))
    activation = state.activation
    assert activation is not None
    for unit_id, unit in state.units.items():
        definition = data.units[unit_id]
        if unit.on_map and definition.formation == second and not definition.is_hq and not unit.out_of_command:
            act.check_can_join(state, data, unit)  # a unit of the second formation joins
            break
    independents = [
        u
        for u, d in data.units.items()
        if d.formation == "de-independent" and state.units[u].on_map and data.side_of(u) == "german"
    ]
    for unit_id in independents[:3]:
        act.join(state, data, state.units[unit_id], dice=None)
    if len(independents) > 3:
        with pytest.raises(IllegalActionError) as refused:
            act.check_can_join(state, data, state.units[independents[3]])
        assert refused.value.rule == "15.2"
    third = next(
        u
        for u, d in data.units.items()
        if state.units[u].on_map
        and data.side_of(u) == "german"
        and d.formation not in (first, second)
        and not data.formations[d.formation].independent
    )
    with pytest.raises(IllegalActionError):
        act.check_can_join(state, data, state.units[third])
    state, _ = game.apply(state, Action("german", "end_activation", {}))
    assert state.active == "allied"  # the combined activation is the stratagem's only one


# --- The operations-phase stratagems ------------------------------------------------------------------------

TANK = "fr-a-cc2"
INFANTRY = "fr-i-4-rtm"


def intersection(data: GameData) -> tuple[int, int]:
    """A clear road intersection (two roads) with a road neighbour, both clear, unsettled, away from rivers."""
    game_map = data.map
    for hex_ in sorted(game_map.terrain):
        roads = [r for r in game_map.roads if hex_ in r.hexes]
        if len(roads) < 2 or game_map.terrain[hex_] != "clear" or hex_ in game_map.settlements:
            continue
        for n in sorted(game_map.grid.neighbours(hex_)):
            if (
                game_map.has_road(hex_, n)
                and game_map.terrain[n] == "clear"
                and game_map.river_between(hex_, n) is None
            ):
                return hex_, n
    raise AssertionError("no road intersection")


def join(game: VaeVictisGame, state: GameState, unit_id: str, hex_: int) -> None:
    state.units[unit_id].hex, state.units[unit_id].arrived = hex_, True
    act.join(state, game.data, state.units[unit_id], dice=None)


def test_15_2_the_bottleneck_costs_french_armour_an_ap_where_armour_has_passed(game: VaeVictisGame) -> None:
    data = game.data
    crossing, beside = intersection(data)
    state = operations(game, "allied")
    empty_area(data, state, [crossing, beside])
    join(game, state, TANK, beside)
    refused_before = state.copy()
    with pytest.raises(IllegalActionError) as refused:  # no French armour has gone through yet
        game.apply(state, Action("german", "play_event", {"event": "bottleneck", "hex": f"{crossing:04d}"}))
    assert refused.value.rule == "15.2" and same(state, refused_before)
    state, _ = game.apply(
        state,
        Action("allied", "move", {"units": TANK, "to": f"{crossing:04d}", "path": f"{beside:04d},{crossing:04d}"}),
    )
    state, _ = game.apply(
        state, Action("allied", "move", {"units": TANK, "to": f"{beside:04d}", "path": f"{crossing:04d},{beside:04d}"})
    )
    state, _ = game.apply(state, Action("german", "play_event", {"event": "bottleneck", "hex": f"{crossing:04d}"}))
    assert state.events_left["bottleneck"] == 0
    second = "fr-b-cc2"
    join(game, state, second, beside)
    free = state.copy()
    free.markers = []
    paid = check_move(data, state, [second], [beside, crossing]).ap_spent
    assert paid == check_move(data, free, [second], [beside, crossing]).ap_spent + 1
    join(game, state, INFANTRY, beside)  # infantry pays nothing more
    assert check_move(data, state, [INFANTRY], [beside, crossing]).ap_spent == 1


def test_15_2_17_a_trucked_battalion_pays_the_bottleneck_and_opens_it_as_mechanised_units_do(
    game: VaeVictisGame,
) -> None:
    """[15.2, 17] Reading (docs/rules/alsace44.md): a battalion in trucks moves as a mechanised unit (17's
    mechanized column, 6.2's road rule), so the Bottleneck's "French armored/mechanized units" include it."""
    from engine.vaevictis import trucks

    data = game.data
    crossing, beside = intersection(data)
    state = operations(game, "allied")
    empty_area(data, state, [crossing, beside])
    join(game, state, INFANTRY, beside)
    trucks.motorize(data, state, state.units[INFANTRY])
    state, _ = game.apply(
        state,
        Action("allied", "move", {"units": INFANTRY, "to": f"{crossing:04d}", "path": f"{beside:04d},{crossing:04d}"}),
    )
    state, _ = game.apply(
        state,
        Action("allied", "move", {"units": INFANTRY, "to": f"{beside:04d}", "path": f"{crossing:04d},{beside:04d}"}),
    )
    # Only a trucked battalion has passed: the German may place the Bottleneck, and the battalion pays it.
    state, _ = game.apply(state, Action("german", "play_event", {"event": "bottleneck", "hex": f"{crossing:04d}"}))
    free = state.copy()
    free.markers = []
    paid = check_move(data, state, [INFANTRY], [beside, crossing]).ap_spent
    assert paid == check_move(data, free, [INFANTRY], [beside, crossing]).ap_spent + 1


def test_15_2_the_antitank_ditch_blocks_french_tanks_and_one_french_unit_removes_it(game: VaeVictisGame) -> None:
    data = game.data
    crossing, beside = intersection(data)
    state = operations(game, "allied")
    empty_area(data, state, [crossing, beside])
    join(game, state, TANK, beside)
    state, _ = game.apply(state, Action("german", "play_event", {"event": "antitank-ditch", "hex": f"{crossing:04d}"}))
    with pytest.raises(IllegalActionError):
        check_move(data, state, [TANK], [beside, crossing])
    join(game, state, INFANTRY, beside)
    check_move(data, state, [INFANTRY], [beside, crossing])  # only tanks are blocked
    before = state.units[TANK].action_points
    state, _ = game.apply(state, Action("allied", "remove_marker", {"unit": TANK, "hex": f"{crossing:04d}"}))
    assert state.units[TANK].hex == crossing and state.units[TANK].action_points == before - 1
    assert not state.markers


def town(data: GameData, state: GameState) -> int:
    """A clear village on the German side of the front line (the French side is French from the start, 15.2)."""
    french_side = data.map.regions["west of the front line"]
    for hex_, place in sorted(data.map.settlements.items()):
        if place.kind == "village" and data.map.terrain[hex_] == "clear" and hex_ not in french_side:
            return hex_
    raise AssertionError("no village")


def test_15_2_an_alarm_battalion_closes_a_town_no_french_unit_has_entered(game: VaeVictisGame) -> None:
    data = game.data
    state = operations(game, "allied")
    village = town(data, state)
    beside = next(n for n in sorted(data.map.grid.neighbours(village)) if data.map.river_between(village, n) is None)
    empty_area(data, state, [village])
    join(game, state, INFANTRY, beside)
    state, _ = game.apply(state, Action("german", "play_event", {"event": "alarm-battalion", "hex": f"{village:04d}"}))
    with pytest.raises(IllegalActionError):
        check_move(data, state, [INFANTRY], [beside, village])
    state, _ = game.apply(state, Action("allied", "remove_marker", {"unit": INFANTRY, "hex": f"{village:04d}"}))
    assert state.units[INFANTRY].hex == village and state.events_left["alarm-battalion"] == 1
    state.units[INFANTRY].hex = beside  # a French unit has now passed through the village
    with pytest.raises(IllegalActionError) as refused:
        game.apply(state, Action("german", "play_event", {"event": "alarm-battalion", "hex": f"{village:04d}"}))
    assert refused.value.rule == "15.2"


def test_15_3_lack_of_ss_elan_is_offered_at_the_moment_of_a_reactivation_and_stops_it(game: VaeVictisGame) -> None:
    data = game.data
    state, ss, move = ss_reactivation(game)
    held, events = game.apply(state, move)
    assert any(e.kind == "reaction" for e in events)
    assert held.units[ss].hex == state.units[ss].hex and held.units[ss].activations == 1  # the move waits
    prompt = game.prompts(held)["allied"]
    assert {c.verb for c in prompt.choices} == {"react"} and "german" not in game.prompts(held)
    stopped, _ = game.apply(held, Action("allied", "react", {"play": True}))
    assert stopped.events_left["lack-of-ss-elan"] == 0 and not stopped.pending
    assert stopped.units[ss].hex == state.units[ss].hex  # the reactivation never happened
    with pytest.raises(IllegalActionError) as refused:  # nor may it for the rest of the turn
        game.apply(stopped, move)
    assert refused.value.rule == "15.3"
    other = next(
        u for u, d in data.units.items() if d.formation == "de-189-id" and not d.is_hq and stopped.units[u].on_map
    )
    stopped.units[other].activations = 1
    act.check_can_join(stopped, data, stopped.units[other])  # other formations are not concerned


def test_15_3_after_lack_of_ss_elan_the_30th_ss_is_not_offered_for_reactivation(game: VaeVictisGame) -> None:
    """The prompt offers only what Confirm accepts: once the stratagem stopped a reactivation, the formation's
    activation is no longer a choice while its HQ has been activated this turn, and asking for it is refused
    for 15.3 and changes nothing."""
    state, ss, move = ss_reactivation(game)
    held, _ = game.apply(state, move)
    stopped, _ = game.apply(held, Action("allied", "react", {"play": True}))
    hq = game.data.formations["de-30-ss"].hq
    assert hq is not None
    stopped.units[hq].hex, stopped.units[hq].arrived = 3107, True  # on the map (the area round the move is clear)
    stopped.units[hq].activations = 1  # and activated earlier this turn
    stopped.activation = None  # the German's next sequence
    offered = {c.args.get("formation") for c in game.prompts(stopped)["german"].choices}
    assert "de-30-ss" not in offered and "de-189-id" in offered
    before = stopped.to_json()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(stopped, Action("german", "activate_formation", {"formation": "de-30-ss"}))
    assert refused.value.rule == "15.3" and stopped.to_json() == before


def test_15_3_lack_of_ss_elan_declined_lets_the_reactivation_happen(game: VaeVictisGame) -> None:
    state, ss, move = ss_reactivation(game)
    held, _ = game.apply(state, move)
    done, _ = game.apply(held, Action("allied", "react", {"play": False}))
    assert done.units[ss].hex == 3106 and done.units[ss].fatigued and done.units[ss].activations == 2
    assert done.events_left["lack-of-ss-elan"] == 1


def test_15_3_lack_of_ss_elan_is_not_played_at_any_other_moment(game: VaeVictisGame) -> None:
    state = operations(game, "german")
    before = state.copy()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(state, Action("allied", "play_event", {"event": "lack-of-ss-elan"}))
    assert refused.value.rule == "15.3" and same(state, before)


def test_15_3_the_ffi_bridge_cancels_the_bridge_halving_for_one_combat(game: VaeVictisGame) -> None:
    from engine.vaevictis.odds import AttackPlan, assess

    data = game.data
    state = operations(game, "allied")
    a, b = next(sorted(r.bridges)[0] for r in data.map.rivers if r.bridges and r.kind == "river")
    empty_area(data, state, [a, b])
    join(game, state, INFANTRY, a)
    defender = "de-i-1212"
    state.units[defender].hex = b
    plan = AttackPlan(side="allied", kind="normal", attackers=(INFANTRY,), targets=(b,))
    halved = assess(data, state, plan).attackers_detail[0].halvings
    assert any("bridge" in h for h in halved)
    state, _ = game.apply(state, Action("allied", "play_event", {"event": "bridge-captured-by-ffi"}))
    assert not any("bridge" in h for h in assess(data, state, plan).attackers_detail[0].halvings)
    state, _ = game.apply(state, Action("allied", "attack", {"attackers": INFANTRY, "target": f"{b:04d}"}))
    while state.pending:  # settle the combat with the first choice offered
        seat, prompt = next(iter(game.prompts(state).items()))
        state, _ = game.apply(state, Action(seat, prompt.choices[0].verb, dict(prompt.choices[0].args)))
    if state.units[defender].on_map and state.units[INFANTRY].on_map and state.units[INFANTRY].hex == a:
        assert any("bridge" in h for h in assess(data, state, plan).attackers_detail[0].halvings)


def fort_garrison(data: GameData, state: GameState) -> tuple[int, str]:
    """The first face-down garrison's fort, with a French battalion put three hexes from it."""
    unit_id = sorted(state.flags["face_down"])[0]
    hex_ = state.units[unit_id].hex
    assert hex_ is not None
    grid = data.map.grid
    state.units[INFANTRY].hex = next(
        h for h in grid.within(hex_, 3) if grid.distance(h, hex_) == 3 and not state.units_at(h)
    )
    return hex_, unit_id


def test_15_3_a_raid_flips_the_garrison_and_on_success_the_commando_takes_the_fort(game: VaeVictisGame) -> None:
    from engine.dice import roll

    data = game.data
    state = operations(game, "allied")
    fort, _ = fort_garrison(data, state)
    assert state.units_at(fort) and len(state.units_at(fort)) == 1
    # A garrison of strength above 0 and a success roll: the draw and the raid die come one after the other.
    hidden = sorted([*state.flags["face_down"], *state.flags["set_aside"]])
    strong = next(i for i, u in enumerate(hidden, 1) if data.units[u].strength > 0)
    number = state.rolls_made
    seed = bytes.fromhex(state.seed)
    while not (roll(seed, number, len(hidden)) == strong and roll(seed, number + 1) <= 4):
        number += 1
    state.rolls_made = number
    state, events = game.apply(state, Action("allied", "play_event", {"event": "raid", "hex": f"{fort:04d}"}))
    kinds = [e.kind for e in events]
    assert "garrison-revealed" in kinds
    commando = state.units_at(fort)[0].id
    assert commando.startswith("fr-raid-commando") and data.units[commando].strength == 3
    assert state.events_left["raid"] == 1
    pos_zoc = __import__("engine.vaevictis.zoc", fromlist=["zoc"])
    from engine.vaevictis.state import Position

    assert pos_zoc.zoc_hexes(Position(data, state), state.units[commando]) == {fort}  # no ZoC around
    from engine.vaevictis import stratagems as s

    s.end_of_turn(data, state)
    assert not state.units[commando].on_map  # removed at the end of the turn


def test_15_3_a_failed_raid_leaves_the_garrison_revealed(game: VaeVictisGame) -> None:
    from engine.dice import roll

    data = game.data
    state = operations(game, "allied")
    fort, _ = fort_garrison(data, state)
    hidden = sorted([*state.flags["face_down"], *state.flags["set_aside"]])
    strong = next(i for i, u in enumerate(hidden, 1) if data.units[u].strength > 0)
    number = state.rolls_made
    seed = bytes.fromhex(state.seed)
    while not (roll(seed, number, len(hidden)) == strong and roll(seed, number + 1) >= 5):
        number += 1
    state.rolls_made = number
    state, _ = game.apply(state, Action("allied", "play_event", {"event": "raid", "hex": f"{fort:04d}"}))
    garrison = state.units_at(fort)[0].id
    assert data.units[garrison].kind == "garrison" and garrison not in state.flags["face_down"]


def test_15_3_a_raid_far_from_french_units_is_refused_and_changes_nothing(game: VaeVictisGame) -> None:
    data = game.data
    state = operations(game, "allied")
    grid = data.map.grid
    french = [u.hex for u in state.on_map() if data.side_of(u.id) == "allied" and u.hex is not None]
    forts = sorted(data.map.overlays["fort"])
    far = next(f for f in forts if state.units_at(f) and all(grid.distance(f, h) > 3 for h in french))
    before = state.copy()
    with pytest.raises(IllegalActionError) as refused:  # four hexes or more from every French unit
        game.apply(state, Action("allied", "play_event", {"event": "raid", "hex": f"{far:04d}"}))
    assert refused.value.rule == "15.3" and same(state, before)
    with pytest.raises(IllegalActionError) as refused:  # Huningue holds a garrison but is no fort
        game.apply(state, Action("allied", "play_event", {"event": "raid", "hex": "3312"}))
    assert refused.value.rule == "15.3" and same(state, before)


# --- The loader checks the figures ---------------------------------------------------------------------------


def event_entry(docs: dict[str, Any], event_id: str) -> dict[str, Any]:
    return next(e for e in docs["setup.toml"]["event"] if e["id"] == event_id)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: event_entry(d, "raid")["params"].__setitem__("range", 3), "params range mean nothing"),
        (lambda d: event_entry(d, "lack-of-ss-elan")["params"].__setitem__("formations", ["x"]), "formation 'x'"),
        (lambda d: event_entry(d, "raid")["params"].__setitem__("overlay", "castle"), "overlay 'castle'"),
        (lambda d: d["setup.toml"]["forced_event"][0].__setitem__("event", "nope"), "event 'nope' does not exist"),
        (lambda d: d["setup.toml"]["raid_commando"].__setitem__("formation", "x"), "formation 'x' does not exist"),
        (
            lambda d: d["setup.toml"]["variant"]["group"][0]["trigger"].__setitem__("rivers", ["Nile"]),
            "river 'Nile' is not on the map",
        ),
        (
            lambda d: d["setup.toml"]["variant"]["group"][0]["trigger"].__setitem__("kind", "moon"),
            "trigger kind 'moon'",
        ),
        (
            lambda d: d["setup.toml"]["variant"]["german_setup"].__setitem__("region", "Atlantis"),
            "region 'Atlantis' is not in the map",
        ),
    ],
)
def test_the_stratagem_and_variant_figures_are_checked_by_the_loader(change: Any, expected: str) -> None:
    from engine.vaevictis.loader import ScenarioError
    from scenarios import game_folder, read_documents

    docs: dict[str, Any] = read_documents(game_folder("alsace44"))
    change(docs)
    with pytest.raises(ScenarioError) as error:
        build_game(docs)
    assert any(expected in problem for problem in error.value.problems), error.value.problems
