"""Alsace 1944 for the tests that play it whole: the game, its set-up, and the invariants of its own rules.

A victory condition of a kind the engine cannot judge would stop a test game at its victory check; such a
condition is left out of the test game's scenarios (none is, while the engine judges every kind Alsace uses).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.contract import Action
from engine.hexgrid import Hex, parse_hex
from engine.vaevictis import setup_phase, victory
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.loader import build_game
from engine.vaevictis.state import GameState
from engine.vaevictis.supply import no_entry_hexes
from scenarios import game_folder, read_documents

STATIC_KINDS = ("strongpoint", "garrison")
"""[12.2, 16] Counters that never move: strongpoints and the German static garrisons."""


def _judged(condition: dict[str, Any]) -> bool:
    """Whether the engine can judge a victory condition of the scenario file, with all its parts."""
    known = condition.get("kind") in (*victory.CHECKS, "cross-meuse")
    return known and all(_judged(part) for part in condition.get("of", []))


@cache
def alsace_game() -> VaeVictisGame:
    """Alsace 1944 as players get it (less any victory condition the engine could not judge)."""
    documents = read_documents(game_folder("alsace44"))
    for scenario in documents["scenarios.toml"]["scenario"]:
        scenario["victory"] = [c for c in scenario["victory"] if _judged(c)]
    return VaeVictisGame(build_game(documents))


def suggested_set_up(game: VaeVictisGame, state: GameState) -> GameState:
    """[19.2] The German takes the suggested set-up as it stands (``setup_done`` at once): turn 1 begins."""
    if state.phase == "setup" and setup_phase.setup_side(game.data, state) == "german":
        state, _ = game.apply(state, Action("german", "setup_done", {}))
    return state


def check_alsace_invariants(game: VaeVictisGame, state: GameState) -> None:
    """The invariants of Alsace's own rules, after any action (beside the general ones of random play): static
    counters stay where they were set up (a strongpoint the German placed, in its area), at most one
    strongpoint a hex and none in IP by itself (12.2)."""
    data = game.data
    set_up_at = {p.unit: p.hex for p in data.setup}
    placed = {side: setup_phase.placeables(data, state, side) for side in ("german", "allied")}
    garrison_hexes: set[Hex] = {parse_hex(h) for h in data.extra.get("garrisons", {}).get("hexes", [])}
    closed = no_entry_hexes(data)
    strongpoint_hexes: list[Hex] = []
    for unit in state.on_map():
        assert unit.hex not in closed, f"{unit.id} in a no-entry hex {unit.hex} (TEC: Switzerland)"
        kind = data.units[unit.id].kind
        if kind == "strongpoint":
            assert unit.hex is not None
            strongpoint_hexes.append(unit.hex)
            area = placed["german"].get(unit.id)
            fixed = dict(setup_phase.variant_strongpoints(data)[0]) if data.scenarios[state.scenario].variant else {}
            allowed = area.hexes if area else {fixed.get(unit.id, set_up_at.get(unit.id))}
            assert unit.hex in allowed, f"[12.2] strongpoint {unit.id} moved to {unit.hex}"
            assert not unit.improved_position or state.phase == "setup", f"[12.2] {unit.id} alone in IP"
        elif kind == "garrison":
            assert unit.hex in garrison_hexes, f"[16] garrison {unit.id} moved to {unit.hex}"
    assert len(strongpoint_hexes) == len(set(strongpoint_hexes)), "[12.2] two strongpoints in a hex"
    if state.result is not None:
        assert state.result["winner"] in game.seats and state.phase == "over", state.result
