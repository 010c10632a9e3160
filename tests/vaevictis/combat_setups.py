"""Positions for the combat tests, built on the mini game (tests/vaevictis/minigame.py), and dice pinning.

The mini map is 8 x 6, odd columns lower; the Germans' friendly edge is the east (column 8), the Allies' the
west (column 1). 0203 is the city of Alpha, 0603 the village of Bravo, 0803 Westwall; 0301/0302/0604 rough,
0401/0402/0204/0304/0702 forest; a river runs 0403|0503 (bridged) and 0404|0504 (unbridged).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from engine.contract import Action, Event
from engine.dice import roll
from engine.vaevictis import combat
from engine.vaevictis.data import GameData
from engine.vaevictis.loader import build_game
from engine.vaevictis.odds import AttackPlan
from engine.vaevictis.state import GameState, UnitState
from tests.vaevictis.minigame import documents


def _unit(
    uid: str, formation: str, kind: str, steps: int, strength: int, quality: int, division: str | None
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": uid,
        "name": uid,
        "formation": formation,
        "kind": kind,
        "size": "III",
        "steps": steps,
        "strength": strength,
        "quality": quality,
    }
    if division:
        entry["division"] = division
    return entry


EXTRA_UNITS = [
    _unit("de-vg", "de-1ss", "infantry", 3, 9, 3, "de-277"),
    _unit("de-big", "de-1ss", "infantry", 2, 30, 3, "de-12"),
    _unit("de-hansen", "de-1ss", "mechanized", 2, 7, 5, "de-1ss-pz"),
    _unit("de-five1", "de-1ss", "infantry", 1, 5, 3, "de-5a"),
    _unit("de-five2", "de-1ss", "infantry", 1, 5, 3, "de-5b"),
    _unit("de-326", "de-67", "infantry", 3, 9, 3, "de-326"),
    _unit("us-b", "us-v", "infantry", 2, 6, 3, "us-99"),
    _unit("us-c", "us-v", "infantry", 1, 3, 3, "us-99"),
    _unit("us-d", "us-v", "infantry", 2, 6, 3, "us-28"),
    _unit("us-cca", "us-v", "armored", 2, 6, 4, "us-7ad"),
    _unit("us-ccb", "us-v", "armored", 2, 6, 4, "us-7ad"),
]


def mini_documents() -> dict[str, dict[str, Any]]:
    """The mini game's documents with the combat test units (tests may change them further)."""
    docs = documents()
    counters = docs["counters.toml"]
    counters["formation"].append(
        {"id": "de-67", "name": "LXVII Korps", "army": "de-6pz", "color": "#808000", "hq": "hq-de-67"}
    )
    counters["unit"].append(
        {
            "id": "hq-de-67",
            "name": "LXVII",
            "formation": "de-67",
            "kind": "hq",
            "size": "XXX",
            "steps": 1,
            "strength": 1,
            "quality": 4,
            "support": 2,
            "c3i": "C",
        }
    )
    counters["unit"].extend(EXTRA_UNITS)
    german = ["hq-de-67"] + [u["id"] for u in EXTRA_UNITS if u["id"].startswith("de-")]
    allied = [u["id"] for u in EXTRA_UNITS if u["id"].startswith("us-")]
    docs["setup.toml"]["reinforcement"] += [
        {"turn": 2, "units": german, "hexes": ["0803"], "trucks": False},
        {"turn": 2, "units": allied, "hexes": ["0103"], "trucks": False},
    ]
    return docs


@cache
def mini_game() -> GameData:
    """The mini game with the combat test units."""
    return build_game(mini_documents())


INDEPENDENTS = [
    _unit("de-ind-5", "de-independent", "armored", 2, 8, 5, None),
    _unit("de-ind-4", "de-independent", "infantry", 2, 6, 4, None),
]
"""Two German independents (16.3) of the two qualities an independent may have (9.5: A at 5, B at 4)."""


def add_independents(docs: dict[str, dict[str, Any]]) -> None:
    """Add the German independents (pink bar, no HQ) of :data:`INDEPENDENTS` to a mini game's documents."""
    docs["counters.toml"]["formation"].append(
        {
            "id": "de-independent",
            "name": "Independent (German)",
            "army": "de-6pz",
            "color": "#f2a7c3",
            "independent": True,
        }
    )
    docs["counters.toml"]["unit"].extend(INDEPENDENTS)
    docs["setup.toml"]["reinforcement"].append(
        {"turn": 2, "units": [u["id"] for u in INDEPENDENTS], "hexes": ["0803"], "trucks": False}
    )


@cache
def mini_game_with_independents() -> GameData:
    """The mini game with the combat test units and two German independents (16.3)."""
    docs = mini_documents()
    add_independents(docs)
    return build_game(docs)


def new_state(data: GameData, placed: Mapping[str, int], seed: str = "00" * 32, **options: bool) -> GameState:
    """A state with only the named units on the map, each with 3 APs (and the HQs' markers empty)."""
    state = GameState(game=data.id, scenario="test", options=dict(options), seed=seed)
    state.phase = "operations"
    for uid, definition in data.units.items():
        state.units[uid] = UnitState(id=uid, steps=definition.steps)
    for uid, hex_ in placed.items():
        unit = state.units[uid]
        unit.hex = hex_
        unit.arrived = True
        unit.action_points = 3
    for army in data.armies:
        state.pools[army] = {}
        state.returning[army] = {}
    return state


def seed_for(faces: Sequence[int], start: int = 0) -> str:
    """A seed (hex) whose rolls number ``start``, ``start + 1``... give ``faces``: dice pinned by choosing the seed."""
    for i in range(2_000_000):
        seed = f"combat-test-{i}".encode()
        if all(roll(seed, start + k) == face for k, face in enumerate(faces)):
            return seed.hex()
    raise AssertionError(f"no seed found for {faces}")  # pragma: no cover


def attack(data: GameData, state: GameState, plan: AttackPlan, faces: Sequence[int]) -> list[Event]:
    """Begin an attack with the next dice pinned to ``faces`` (combat die first, then retention rolls...)."""
    state.seed = seed_for(faces, state.rolls_made)
    events = combat.begin_attack(data, state, plan)
    return events + keep_best_defender_quality(data, state)


def keep_best_defender_quality(data: GameData, state: GameState) -> list[Event]:
    """Close the defender's window (7.5) when it offers only the choice of quality unit (7.4), keeping the best:
    the tests that do not test that choice are written for the best quality."""
    if not state.pending or state.pending[-1].get("stage") != "defender_supports":
        return []
    offered = {c.verb for c in combat.pending_prompt(data, state).choices}
    if offered & {"support_defence", "air_defence"}:
        return []
    return act(data, state, "supports_done")


def act(data: GameData, state: GameState, verb: str, **args: Any) -> list[Event]:
    """Answer the top pending combat's prompt as whoever must decide."""
    seat = combat.pending_prompt(data, state).seat
    return combat.apply_pending(data, state, Action(seat, verb, args))


def verbs(data: GameData, state: GameState) -> set[tuple[str, str]]:
    """The choices of the current prompt as (verb, main argument)."""
    prompt = combat.pending_prompt(data, state)
    return {(c.verb, str(c.args.get("unit", c.args.get("to", c.args.get("marker", ""))))) for c in prompt.choices}
