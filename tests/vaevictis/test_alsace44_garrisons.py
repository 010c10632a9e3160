"""[Alsace 1944 16] Hidden German garrisons: face down for both players, drawn verifiably when flipped.

Games start as the other Alsace engine tests do: the real data without the tables whose rules other parts of
issue 15 write (see tests/vaevictis/test_alsace44_engine.py ``core_documents``), garrisons included.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.contract import Action, IllegalActionError
from engine.dice import roll
from engine.hexgrid import Hex, hex_name
from engine.vaevictis import activation as act
from engine.vaevictis import garrisons, reports, zoc
from engine.vaevictis.data import GameData
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.loader import build_game
from engine.vaevictis.state import GameState, Position
from render.view_picture import face_from_view
from tests.vaevictis.alsace_documents import core_documents

SEED = bytes(range(32))
HUNINGUE = 3312
ATTACKER = "fr-i-4-rtm"


@pytest.fixture(scope="module")
def data() -> GameData:
    return build_game(core_documents())


@pytest.fixture(scope="module")
def game(data: GameData) -> VaeVictisGame:
    return VaeVictisGame(data)


def fresh(game: VaeVictisGame) -> GameState:
    return game.new_game("entire-battle", {}, SEED)


def in_activation(game: VaeVictisGame, state: GameState, side: str) -> GameState:
    """The state in the operations phase, ``side`` in a general activation."""
    state = state.copy()
    state.phase = "operations"
    state.active = side  # type: ignore[assignment]
    state.pending = []
    act.start_general_activation(state, game.data)
    return state


def free_neighbour(data: GameData, state: GameState, hex_: Hex) -> Hex:
    """A hex next to ``hex_`` that an infantry unit may stand on and attack from (same bank, empty)."""
    for n in sorted(data.map.dry_neighbours[hex_]):
        if not state.units_at(n) and data.map.terrain[n] not in ("switzerland",):
            return n
    raise AssertionError("no free neighbour")


def french_next_to(game: VaeVictisGame, state: GameState, hex_: Hex) -> GameState:
    """A French activation with one infantry battalion moved next to ``hex_``."""
    state = in_activation(game, state, "allied")
    state.units[ATTACKER].hex = free_neighbour(game.data, state, hex_)
    return state


def rolls_for(state: GameState, sides: int, wanted: int) -> int:
    """The first roll number from the state's on whose die of ``sides`` faces comes up ``wanted``."""
    number = state.rolls_made
    while roll(bytes.fromhex(state.seed), number, sides) != wanted:
        number += 1
    return number


def hidden_index(state: GameState, unit_id: str) -> int:
    """The face (1-based) a flip must roll to draw ``unit_id``."""
    hidden = sorted([*state.flags["face_down"], *state.flags["set_aside"]])
    return hidden.index(unit_id) + 1


def test_16_garrisons_are_placed_face_down_one_per_listed_hex_the_rest_set_aside(game: VaeVictisGame) -> None:
    state = fresh(game)
    table = game.data.extra["garrisons"]
    on_map = {u.hex for u in state.on_map() if game.data.units[u.id].kind == "garrison"}
    assert on_map == {int(h) for h in table["hexes"]}
    assert len(state.flags["face_down"]) == len(table["hexes"]) == 12
    assert len(state.flags["set_aside"]) == len(table["pool"]) - 12
    assert all(state.units[u].hex is None for u in state.flags["set_aside"])


def test_16_the_facts_of_the_garrisons_last_from_turn_to_turn(game: VaeVictisGame) -> None:
    from engine.vaevictis.turn import start_turn

    state = fresh(game)
    before = list(state.flags["face_down"])
    start_turn(game.data, state)
    assert state.flags["face_down"] == before


def test_16_a_face_down_garrison_shows_no_value_to_either_seat_nor_the_channel(game: VaeVictisGame) -> None:
    state = fresh(game)
    for seat in ("german", "allied", None):
        view = game.view(state, seat)  # type: ignore[arg-type]
        shown = [u for s in view["stacks"] for u in s["units"] if u["id"] in state.flags["face_down"]]
        assert len(shown) == 12
        for unit in shown:
            assert unit["face_down"] is True
            assert unit["strength"] == "?" and unit["quality"] == "?"
            assert unit["name"] == garrisons.HIDDEN_NAME
            assert game.data.units[unit["id"]].name not in json.dumps(view)
            report = reports.unit_report(game.data, state, seat, unit["id"])  # type: ignore[arg-type]
            assert report is not None and report.name == garrisons.HIDDEN_NAME and not report.long_name
            face = face_from_view(game.data, unit)
            assert face.face_down and face.strength == 0 and face.quality == 0 and face.label == "Garrison"
            # Nor does /hex name a label in the zone of control it exerts around it.
            where = state.units[unit["id"]].hex
            assert where is not None
            zones = zoc.enemy_zoc(Position(game.data, state), "allied")
            beside = next(h for h in game.data.map.grid.neighbours(where) if unit["id"] in zones.get(h, ()))
            zone = reports.hex_report(game.data, state, seat, beside).zoc  # type: ignore[arg-type]
            assert f"{garrisons.HIDDEN_NAME} at {hex_name(where)}" in zone["german"]
            assert game.data.units[unit["id"]].name not in json.dumps(zone)


def test_16_a_face_down_garrison_exerts_a_zone_of_control(game: VaeVictisGame) -> None:
    state = fresh(game)
    pos = Position(game.data, state)
    weak = [u for u in state.flags["face_down"] if game.data.units[u].strength <= 1]
    assert weak, "a label whose printed strength alone would give no zone beyond its hex"
    unit = state.units[weak[0]]
    assert unit.hex is not None
    assert zoc.zoc_hexes(pos, unit) == {unit.hex, *game.data.map.dry_neighbours[unit.hex]}


def test_16_the_german_flips_a_garrison_of_his_choice_in_his_activation_verifiably(game: VaeVictisGame) -> None:
    state = in_activation(game, fresh(game), "german")
    prompt = game.prompts(state)["german"]
    assert any(c.verb == "reveal_garrison" and c.args["hex"] == hex_name(HUNINGUE) for c in prompt.choices)
    new, events = game.apply(state, Action("german", "reveal_garrison", {"hex": hex_name(HUNINGUE)}))
    draw = next(e for e in events if e.kind == "roll")
    assert draw.data["sides"] == 16
    assert roll(SEED, draw.data["number"], 16) == draw.data["die"]
    revealed = next(e for e in events if e.kind == "garrison-revealed")
    drawn = revealed.data["unit"]
    assert drawn == sorted([*state.flags["face_down"], *state.flags["set_aside"]])[draw.data["die"] - 1]
    assert drawn not in new.flags["face_down"]
    assert len(new.flags["face_down"]) + len(new.flags["set_aside"]) == 15  # drawn without replacement
    if game.data.units[drawn].strength > 0:
        assert new.units[drawn].hex == HUNINGUE
        shown = [u for s in game.view(new, "allied")["stacks"] for u in s["units"] if u["id"] == drawn]
        assert shown[0]["strength"] == game.data.units[drawn].strength
    else:
        assert new.units[drawn].eliminated


def test_16_a_garrison_flipped_at_zero_is_eliminated_at_once(game: VaeVictisGame) -> None:
    state = in_activation(game, fresh(game), "german")
    zero = next(u for u in state.flags["set_aside"] + state.flags["face_down"] if game.data.units[u].strength == 0)
    state.rolls_made = rolls_for(state, 16, hidden_index(state, zero))
    new, events = game.apply(state, Action("german", "reveal_garrison", {"hex": hex_name(HUNINGUE)}))
    assert new.units[zero].eliminated
    assert not new.units_at(HUNINGUE)
    assert any(e.kind == "eliminated" and e.data["unit"] == zero for e in events)


def test_16_only_the_german_flips_and_only_in_his_activation(game: VaeVictisGame) -> None:
    state = in_activation(game, fresh(game), "allied")
    for seat in ("german", "allied"):
        with pytest.raises(IllegalActionError) as refused:
            garrisons.reveal_by_choice(game.data, state.copy(), seat, HUNINGUE)  # type: ignore[arg-type]
        assert refused.value.rule == "16"
    german = in_activation(game, fresh(game), "german")
    before = json.dumps(german.to_json(), sort_keys=True)
    with pytest.raises(IllegalActionError) as refused:
        game.apply(german, Action("german", "reveal_garrison", {"hex": "2020"}))
    assert refused.value.rule == "16"
    assert json.dumps(german.to_json(), sort_keys=True) == before


def test_16_garrisons_are_static_and_never_activated(game: VaeVictisGame) -> None:
    state = in_activation(game, fresh(game), "german")
    label = state.flags["face_down"][0]
    with pytest.raises(IllegalActionError) as refused:
        act.check_can_join(state, game.data, state.units[label])
    assert refused.value.rule == "16"
    # [2.2] A side has activated everything (as often as the data asks) without its static counters.
    for unit_id, unit in state.units.items():
        if game.data.side_of(unit_id) == "german" and not garrisons.is_static(game.data, unit_id):
            unit.activations = game._activations_to_end_turn()
            unit.arrived = True
    assert game._has_activated_everything(state, "german")


def attack_args(state: GameState, target: Hex) -> dict[str, Any]:
    return {"attackers": ATTACKER, "target": hex_name(target), "kind": "normal"}


def test_16_an_attacked_garrison_is_flipped_once_the_attack_is_declared(game: VaeVictisGame) -> None:
    state = french_next_to(game, fresh(game), HUNINGUE)
    strong = next(u for u in state.flags["set_aside"] if game.data.units[u].strength > 0)
    state.rolls_made = rolls_for(state, 16, hidden_index(state, strong))
    new, events = game.apply(state, Action("allied", "attack", attack_args(state, HUNINGUE)))
    kinds = [e.kind for e in events]
    assert kinds.index("garrison-revealed") < kinds.index("attack")
    assert new.units[strong].hex == HUNINGUE
    combat = next(r for r in new.pending if r["kind"] == "combat") if new.pending else None
    assert combat is None or combat["defenders"] == [strong]


def test_16_an_attack_on_a_garrison_flipped_at_zero_is_spent_and_may_advance(game: VaeVictisGame) -> None:
    state = french_next_to(game, fresh(game), HUNINGUE)
    zero = next(u for u in state.flags["face_down"] if game.data.units[u].strength == 0)
    elsewhere = state.units[zero].hex
    state.rolls_made = rolls_for(state, 16, hidden_index(state, zero))
    full = Position(game.data, state).base_action_points(state.units[ATTACKER])
    new, _ = game.apply(state, Action("allied", "attack", attack_args(state, HUNINGUE)))
    assert new.units[zero].eliminated
    assert garrisons.face_down_at(new, elsewhere), "the label took the drawn counter's place, still face down"
    assert new.units[ATTACKER].action_points == full - 1  # the attack is spent
    prompt = game.prompts(new)["allied"]
    assert any(c.verb == "advance" and c.args["to"] == HUNINGUE for c in prompt.choices)
    after, _ = game.apply(new, Action("allied", "advance", {"to": HUNINGUE}))
    assert after.units[ATTACKER].hex == HUNINGUE
    assert not after.pending


def test_16_the_odds_preview_of_an_attack_on_a_face_down_garrison_reads_no_value(game: VaeVictisGame) -> None:
    state = french_next_to(game, fresh(game), HUNINGUE)
    state.units[ATTACKER].action_points = 2
    label = garrisons.face_down_at(state, HUNINGUE)[0]
    previews = []
    for strength in (0, 4):
        # The label's printed figures must make no difference: they are not the garrison's.
        altered = core_documents()
        for unit in altered["counters.toml"]["unit"]:
            if unit["id"] == label:
                unit["strength"] = strength
        other = VaeVictisGame(build_game(altered))
        preview = other.preview(state, "allied", attack_args(state, HUNINGUE))
        previews.append(preview.lines())
    assert previews[0] == previews[1]
    # The range is said to come from the face-down garrison (16), not from Ardennes' fog of war.
    text = "\n".join(previews[0])
    assert "1 garrison face down (16)" in text and "flipped once the attack is declared" in text
    assert "fog of war" not in text and "11.1" not in text


def test_16_a_garrison_whose_stack_retreats_is_destroyed(game: VaeVictisGame) -> None:
    state = french_next_to(game, fresh(game), HUNINGUE)
    label = garrisons.face_down_at(state, HUNINGUE)[0]
    state.flags["face_down"] = [u for u in state.flags["face_down"] if u != label]  # flipped already
    state.flags["set_aside"] = sorted(state.flags["set_aside"])
    partner = "de-34-fu-335"
    state.units[partner].hex = HUNINGUE
    strong = ["fr-i-6-rtm", "fr-ii-6-rtm", "fr-iii-6-rtm"]
    for unit_id in strong:
        state.units[unit_id].hex = state.units[ATTACKER].hex
    attackers = ",".join([ATTACKER, *strong[:2]])
    for number in range(state.rolls_made, state.rolls_made + 200):
        trial = state.copy()
        trial.rolls_made = number
        try:
            after, _ = game.apply(
                trial, Action("allied", "attack", {"attackers": attackers, "target": hex_name(HUNINGUE)})
            )
        except IllegalActionError:
            continue
        prompt = game.prompts(after).get("german")
        if prompt is not None and any(c.verb == "supports_done" for c in prompt.choices):
            after, _ = game.apply(after, Action("german", "supports_done", {}))
            prompt = game.prompts(after).get("german")
        retreats = [c for c in (prompt.choices if prompt else ()) if c.verb == "retreat"]
        if retreats and after.units[label].on_map:
            choice = retreats[0]
            done, events = game.apply(after, Action("german", "retreat", dict(choice.args)))
            assert done.units[label].eliminated  # the garrison does not retreat
            assert any(e.kind == "eliminated" and e.data["unit"] == label for e in events)
            assert done.units[partner].hex != HUNINGUE or done.units[partner].eliminated
            return
    raise AssertionError("no result with a retreat found")
