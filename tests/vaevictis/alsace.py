"""Alsace 1944 for the tests that play it whole: the game, and the invariants of its own rules.

Until every Alsace rule is written, :class:`VaeVictisGame` refuses to set the game up for players (its
``new_game`` lists what the engine lacks). The tests here play the parts that exist with the engine's
test-only switch ``missing_rules_allowed``; as the missing rules land, the same tests play them too, and
:func:`missing_rules` says which are still absent. A victory condition of a kind the engine cannot judge yet
is left out of the test game's scenarios (the game would otherwise stop at its victory check); once the
engine judges the kind, nothing is left out.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.hexgrid import Hex, parse_hex
from engine.vaevictis import victory
from engine.vaevictis.game import VaeVictisGame, unsupported
from engine.vaevictis.loader import build_game
from engine.vaevictis.state import GameState
from engine.vaevictis.supply import no_entry_hexes
from scenarios import game_folder, load_game, read_documents

STATIC_KINDS = ("strongpoint", "garrison")
"""[12.2, 16] Counters that never move: strongpoints and the German static garrisons."""


def _judged(condition: dict[str, Any]) -> bool:
    """Whether the engine can judge a victory condition of the scenario file, with all its parts."""
    known = condition.get("kind") in (*victory.CHECKS, "cross-meuse")
    return known and all(_judged(part) for part in condition.get("of", []))


@cache
def alsace_game() -> VaeVictisGame:
    """Alsace 1944 on the engine as it stands, its missing rules allowed (tests only)."""
    documents = read_documents(game_folder("alsace44"))
    for scenario in documents["scenarios.toml"]["scenario"]:
        scenario["victory"] = [c for c in scenario["victory"] if _judged(c)]
    return VaeVictisGame(build_game(documents), missing_rules_allowed=True)


def missing_rules(scenario: str) -> list[str]:
    """What the engine still lacks to set up ``scenario`` for players (empty once Alsace is complete)."""
    return unsupported(load_game("alsace44"), scenario)


def check_alsace_invariants(game: VaeVictisGame, state: GameState) -> None:
    """The invariants of Alsace's own rules, after any action (beside the general ones of random play).

    A rule's invariant is checked once the engine no longer lists the rule as missing."""
    data = game.data
    missing = missing_rules(state.scenario)
    static = [kind for kind in STATIC_KINDS if f"{kind} counters" not in missing]
    set_up_at = {p.unit: p.hex for p in data.setup}
    garrison_hexes: set[Hex] = {parse_hex(h) for h in data.extra.get("garrisons", {}).get("hexes", [])}
    closed = no_entry_hexes(data)
    for unit in state.on_map():
        assert unit.hex not in closed, f"{unit.id} in a no-entry hex {unit.hex} (TEC: Switzerland)"
        kind = data.units[unit.id].kind
        if kind not in static:
            continue
        if kind == "strongpoint":
            assert unit.hex == set_up_at.get(unit.id), f"[12.2] strongpoint {unit.id} moved to {unit.hex}"
        elif kind == "garrison":
            assert unit.hex in garrison_hexes, f"[16] garrison {unit.id} moved to {unit.hex}"
    if state.result is not None:
        assert state.result["winner"] in game.seats and state.phase == "over", state.result
