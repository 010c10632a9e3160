"""Every rule number a player reads is a number of THAT game's rule book (scenarios/<game>/rule_numbers.toml).

The shared rules code cites Ardennes 1944's numbers through ``GameData.rule``; Alsace 1944 numbers several of
those rules otherwise (reinforcements 16.1 -> 18.1, victory 17 -> 19, the Improved Position shift 12.2 -> 12.1).
Random play of each Vae Victis game, with illegal actions thrown in, collects every citation of every refusal,
prompt, event and odds preview and checks it against the game's book. ``RULE_CITATION_SEEDS`` (default 1) sets
how many games of each.
"""

from __future__ import annotations

import ast
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.contract import Action, IllegalActionError, RulesError
from engine.hexgrid import hex_name
from engine.vaevictis import victory
from engine.vaevictis.data import GameData
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.legal import candidate_actions
from engine.vaevictis.odds import AttackPlan, preview
from engine.vaevictis.state import GameState
from scenarios import load_game
from tests.vaevictis.alsace import alsace_game, suggested_set_up
from tests.vaevictis.combat_setups import new_state
from tests.vaevictis.random_play import check_invariants, weighted_order

SEEDS = int(os.environ.get("RULE_CITATION_SEEDS", "1"))
ACTIONS = 250
"""Actions of each random game: enough for several turns, reinforcements, combats and refusals of every kind."""

NUMBER = r"\d{1,2}(?:\.\d{1,2}){0,2}"
CITATION = re.compile(rf"\(((?:rule )?{NUMBER}(?:(?:, | and ){NUMBER})*)\)")
"""A citation in a player's text: "(16.1)", "(7.4, 7.6)", "(rule 18)"."""

ARDENNES_SUBJECTS = {
    "12.2": re.compile(r"improved position", re.I),
    "14": re.compile(r"\bair\b", re.I),
    "16": re.compile(r"reinforcement", re.I),
    "17": re.compile(r"victory|game is over|objectives", re.I),
    "18": re.compile(r"detachment", re.I),
}
"""Ardennes numbers that Alsace's book also has for another rule: the words of the Ardennes rule, which an
Alsace text citing that number must not be about."""


def numbers_in(text: str) -> list[str]:
    """The rule numbers a text cites in parentheses."""
    return [n for found in CITATION.findall(text) for n in re.findall(NUMBER, found)]


def numbers_of(rule: str | None) -> list[str]:
    """The rule numbers of a ``rule`` field ("19.2 (official errata)", "12.3, 19.2", "TEC")."""
    return re.findall(rf"(?<![\d.]){NUMBER}(?![\d.])", rule or "")


Citation = tuple[str, str, str]
"""(where it was read, the number, the text it belongs to)."""


def citations_of_refusal(error: RulesError) -> Iterator[Citation]:
    for number in numbers_of(error.rule):
        yield ("refusal", number, str(error))
    for number in numbers_in(error.reason):
        yield ("refusal", number, str(error))


def illegal_attempts(game: VaeVictisGame, state: GameState, side: str, rng: random.Random) -> list[Action]:
    """Actions a player might send that the rules mostly forbid: a reinforcement before its turn or at a
    wrong hex, a unit moved or made to attack at random, air support, an independent formation activated,
    a detachment, a Christmas present."""
    data = game.data
    own = [u for u in state.units.values() if u.id in data.units and data.side_of(u.id) == side]
    on_map = [u for u in own if u.on_map]
    hexes = list(data.map.grid.hexes)
    attempts: list[Action] = []
    waiting = [r for r in data.reinforcements if data.side_of(r.units[0]) == side and r.turn > state.turn]
    if waiting:
        early = rng.choice(waiting)
        attempts.append(Action(side, "enter", {"unit": early.units[0], "at": hex_name(early.hexes[0])}))
    attempts.append(Action(side, "enter", {"unit": rng.choice(own).id, "at": hex_name(rng.choice(hexes))}))
    if on_map:
        unit = rng.choice(on_map)
        attempts.append(Action(side, "move", {"units": unit.id, "to": hex_name(rng.choice(hexes))}))
        target = hex_name(rng.choice(list(data.map.grid.neighbours(unit.hex)))) if unit.hex else "0101"
        attempts.append(Action(side, "attack", {"kind": "prepared", "attackers": unit.id, "target": target, "air": 1}))
        attempts.append(Action(side, "enter_ip", {"unit": unit.id}))
    independents = [f.id for f in data.formations.values() if f.independent and data.armies[f.army].side == side]
    if independents:
        attempts.append(Action(side, "activate", {"formation": rng.choice(independents)}))
    attempts.append(Action(side, "detach", {"division": rng.choice(own).id}))
    attempts.append(Action(side, "christmas", {"present": "reroll"}))
    return attempts


def cited_in_random_play(game: VaeVictisGame, scenario: str, seed: int, fog: bool = False) -> list[Citation]:
    """Every citation a player reads in ``ACTIONS`` actions of random play, illegal attempts included."""
    rng = random.Random(seed)
    state = game.new_game(scenario, {"fog_of_war": fog}, seed.to_bytes(32, "big"))
    found: list[Citation] = []
    for _ in range(ACTIONS):
        if state.result is not None:
            break
        prompts = game.prompts(state)
        for prompt in prompts.values():
            found += [("prompt", n, prompt.text) for n in [*numbers_of(prompt.rule), *numbers_in(prompt.text)]]
        side = rng.choice(sorted(prompts))
        for attempt in illegal_attempts(game, state, side, rng):
            try:
                game.apply(state, attempt)
            except RulesError as error:
                found += citations_of_refusal(error)
        candidates = candidate_actions(game, state, side)
        for action in weighted_order(rng, candidates):
            if action.verb == "attack":
                try:
                    odds = game.preview(state, side, action.args)
                except RulesError as error:
                    found += citations_of_refusal(error)
                else:
                    found += [("odds", n, line) for line in odds.lines() for n in numbers_in(line)]
            try:
                state, events = game.apply(state, action)
            except RulesError as error:
                found += citations_of_refusal(error)
                continue
            for event in events:
                found += [("event", n, event.text) for n in numbers_in(event.text)]
                found += [("event", n, event.text) for n in numbers_of(event.data.get("rule"))]
            break
        check_invariants(game, state)
    return found


def games() -> dict[str, VaeVictisGame]:
    return {"ardennes44": VaeVictisGame(load_game("ardennes44")), "alsace44": alsace_game()}


@pytest.fixture(scope="module")
def vae_victis() -> dict[str, VaeVictisGame]:
    return games()


def test_each_game_lists_its_book_and_each_translation_lands_in_it() -> None:
    ardennes, alsace = load_game("ardennes44"), load_game("alsace44")
    assert {"16.1", "17.2", "18"} <= ardennes.rule_numbers.book and not ardennes.rule_numbers.same_rule
    assert {"18.1", "19.4.3", "3.6", "12.3"} <= alsace.rule_numbers.book
    assert set(alsace.rule_numbers.same_rule) <= ardennes.rule_numbers.book
    assert set(alsace.rule_numbers.same_rule.values()) <= alsace.rule_numbers.book
    assert (ardennes.rule("16.1"), alsace.rule("16.1"), alsace.rule("7.4")) == ("16.1", "18.1", "7.4")


@pytest.mark.parametrize("seed", range(1, SEEDS + 1))
@pytest.mark.parametrize(
    ("game_id", "scenario", "fog"),
    [
        ("ardennes44", "entire-battle", False),
        ("ardennes44", "initial-assault", True),  # 17.1's opening rules; the odds of unseen defenders (11.1)
        ("alsace44", "entire-battle", False),
        ("alsace44", "initial-assault", True),
    ],
)
def test_every_rule_number_read_in_random_play_is_in_the_games_book(
    vae_victis: dict[str, VaeVictisGame], game_id: str, scenario: str, fog: bool, seed: int
) -> None:
    game = vae_victis[game_id]
    found = cited_in_random_play(game, scenario, seed, fog)
    kinds = {where for where, _, _ in found}
    assert {"refusal", "event", "odds"} <= kinds, kinds  # the play reached each kind of text
    book = game.data.rule_numbers.book
    assert [c for c in found if c[1] not in book] == []
    if game_id == "alsace44":
        other_rule = [c for c in found if c[1] in ARDENNES_SUBJECTS and ARDENNES_SUBJECTS[c[1]].search(c[2])]
        assert other_rule == []
        assert {"18.1"} <= {n for _, n, _ in found}  # the early reinforcements were refused by Alsace's number


def test_the_extraction_reads_citations_and_rule_fields() -> None:
    assert numbers_in("Arrives on turn 3 (18.1); shift (7.4, 7.6) and (rule 18) but not (3 AP)") == [
        "18.1",
        "7.4",
        "7.6",
        "18",
    ]
    assert numbers_of("19.2 (official errata)") == ["19.2"] and numbers_of("12.3, 19.2") == ["12.3", "19.2"]
    assert numbers_of("TEC") == [] and numbers_of(None) == []


# --- The rules Alsace numbers otherwise, one by one ------------------------------------------------------------


def alsace_refusal(game: VaeVictisGame, state: GameState, action: Action) -> IllegalActionError:
    before = state.to_json()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(state, action)
    assert state.to_json() == before
    return refused.value


def test_18_1_an_alsace_reinforcement_brought_in_early_is_refused_with_18_1() -> None:
    game = alsace_game()
    data = game.data
    state = suggested_set_up(game, game.new_game("entire-battle", {}, bytes(32)))  # [19.2] then turn 1
    later = next(r for r in data.reinforcements if r.turn > 1 and data.side_of(r.units[0]) == "allied")
    while "allied" not in game.prompts(state) or state.phase != "operations":
        side = sorted(game.prompts(state))[0]
        state, _ = game.apply(state, candidate_actions(game, state, side)[-1])
    early = Action("allied", "enter", {"unit": later.units[0], "at": hex_name(later.hexes[0])})
    refused = alsace_refusal(game, state, early)
    assert refused.rule == "18.1", str(refused)


def test_12_1_the_improved_position_shift_of_an_alsace_odds_preview_cites_12_1() -> None:
    data = load_game("alsace44")
    state = new_state(data, {"fr-i-4-rtm": 2610, "de-i-757": 2611})
    state.units["de-i-757"].improved_position = True
    lines = preview(data, state, AttackPlan("allied", "normal", ("fr-i-4-rtm",), (2611,))).lines()
    assert any("Improved Positions (12.1)" in line for line in lines), lines
    assert not any("(12.2)" in line for line in lines)


def test_12_2_the_ardennes_improved_position_shift_still_cites_12_2() -> None:
    data = load_game("ardennes44")
    state = new_state(data, {"us-99-393": 2904, "de-12-ss-mueller": 3004})
    state.units["us-99-393"].improved_position = True
    lines = preview(data, state, AttackPlan("german", "normal", ("de-12-ss-mueller",), (2904,))).lines()
    assert any("Improved Positions (12.2)" in line for line in lines), lines


@pytest.mark.parametrize(("game_id", "chapter"), [("alsace44", "19"), ("ardennes44", "17")])
def test_19_the_victory_text_cites_the_games_victory_chapter(game_id: str, chapter: str) -> None:
    game = alsace_game() if game_id == "alsace44" else VaeVictisGame(load_game(game_id))
    state = game.new_game("initial-assault", {}, bytes(32))
    (declared,) = victory.end_of_game(game.data, state)
    assert declared.text.endswith(f"({chapter}).") and state.result is not None
    assert "(" not in str(state.result)  # the result kept in the state is unchanged: the text cites


def test_7_3_air_support_is_refused_in_alsace_by_its_own_rule() -> None:
    data: GameData = load_game("alsace44")
    state = new_state(data, {"fr-i-4-rtm": 2610, "de-i-757": 2611})
    with pytest.raises(IllegalActionError) as refused:
        preview(data, state, AttackPlan("allied", "normal", ("fr-i-4-rtm",), (2611,), air=1))
    assert refused.value.rule == "7.3" and "no air support" in refused.value.reason


def test_alsace_refuses_a_detachment_as_a_thing_it_does_not_have() -> None:
    """Ardennes' detachments are its rule 18; Alsace's 18 is reinforcements, and it has no detachments."""
    game = alsace_game()
    state = game.new_game("entire-battle", {}, bytes(32))
    with pytest.raises(IllegalActionError) as refused:
        game.apply(state, Action("allied", "detach", {"division": "fr-i-4-rtm"}))
    assert refused.value.rule is None and refused.value.reason == "Alsace 1944 has no detachments"


# --- The shared code cites through GameData.rule ----------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
SHARED_MODULES = [
    *sorted((ROOT / "engine" / "vaevictis").glob("*.py")),
    *sorted((ROOT / "bot/systems/vaevictis").glob("*.py")),
]
ONE_GAMES_MODULES = {
    "garrisons.py", "mines.py", "trucks.py", "variant.py", "stratagems.py", "initiative_stratagems.py",
    "disorganization.py", "snafu_vv60.py", "exits.py", "control.py", "combat_command_support.py", "setup_phase.py",
}  # fmt: skip
"""Modules of Alsace 1944's own rules: they cite its book directly."""
LITERAL_ALLOWED = {
    ("christmas.py", "15.4"): "Ardennes' optional Christmas presents, offered only by a game whose data has them",
    ("combat.py", "15.4"): "the Christmas re-roll, the same",
    ("game.py", "15.4"): "the Christmas prompt, the same",
    ("detachments.py", "18"): "Ardennes' detachments: a game without detachment markers refuses before",
    ("game.py", "18"): "the same",
    ("reports.py", "18"): "the detachments made, listed only when there are some",
    ("game.py", "16.2"): "the British units of Ardennes 1944",
    ("turn.py", "10.4"): "Ardennes' fuel shortage table",
    ("movement.py", "14"): "Alsace 1944's mines",
    ("rule_table_checks.py", "14"): "the checks of Alsace 1944's [mines] table",
    ("rule_table_checks.py", "17"): "the checks of Alsace 1944's [trucks] table",
    ("combat_rules.py", "12.2"): "the check of [retreat] destroyed_kinds: Alsace 1944's strongpoints and garrisons",
    ("combat_rules.py", "16"): "the same",
    ("loader.py", "16"): "the loader's check of Alsace 1944's garrisons, for the data's authors",
    ("loader.py", "16.1"): "the loader's checks of entry hexes, for the data's authors",
    ("commands.py", "14"): "a command description that names its game (Alsace 1944)",
    ("commands.py", "17"): "the same",
    ("commands.py", "18"): "the same (Ardennes 1944)",
}
"""Literal Ardennes numbers the shared modules may keep, each where only one game can read it."""


def numbered_otherwise() -> set[str]:
    """Ardennes numbers that Alsace 1944's book gives another rule, or none."""
    ardennes, alsace = load_game("ardennes44"), load_game("alsace44")
    otherwise = {n for n in ardennes.rule_numbers.book if alsace.rule(n) != n or n not in alsace.rule_numbers.book}
    return otherwise | {"18"}  # Ardennes' detachments, which Alsace does not have; its 18 is reinforcements


def literal_citations(path: Path, numbers: set[str]) -> set[str]:
    """The numbers of ``numbers`` a module's strings cite literally: not docstrings, not ``data.rule("...")``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skipped.add(id(node.value))  # a docstring
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "rule":
            skipped.update(id(arg) for arg in node.args)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
            cited = numbers_in(node.value) + ([node.value] if re.fullmatch(NUMBER, node.value) else [])
            found |= set(cited) & numbers
    return found


def test_the_shared_code_cites_the_rules_alsace_numbers_otherwise_through_the_games_table() -> None:
    numbers = numbered_otherwise()
    assert {"12.2", "16.1", "17", "14.3", "18"} <= numbers
    literal = {
        (path.name, n)
        for path in SHARED_MODULES
        if path.name not in ONE_GAMES_MODULES
        for n in literal_citations(path, numbers)
    }
    assert sorted(literal - set(LITERAL_ALLOWED)) == []


def test_the_loader_refuses_a_translation_outside_the_book() -> None:
    from engine.vaevictis.loader import ScenarioError, build_game
    from scenarios import game_folder, read_documents

    documents = read_documents(game_folder("alsace44"))
    documents["rule_numbers.toml"]["rule_numbers"]["same_rule"]["16.1"] = "16.1"
    with pytest.raises(ScenarioError) as refused:
        build_game(documents)
    assert "[rule_numbers.same_rule] 16.1: '16.1' is not a rule number of the book" in str(refused.value)
