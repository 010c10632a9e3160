"""Bench: how fast the odds of an attack are previewed on an Ardennes position.

Measures the median time of a full :func:`engine.vaevictis.odds.preview` (checks, strengths, ratio, every
shift and die modifier, the six die faces), over every attack the German player could make from one of his
stacks on the Ardennes 1944 set-up (the front where both sides touch), with HQ supports committed where the
rules allow. Target: under 2 ms per preview. Also reports the median time of :func:`combat.begin_attack` up to
the first decision (on a copy of the state).

If the Ardennes data does not load, the bench falls back to the mini test game.

Run: ``python bench/bench_combat.py`` (exit status 1 above the target); ``--smoke`` (measures nothing): three
attacks, one run each, no target checked.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import median_ms, sized, smoke
from engine.contract import IllegalActionError
from engine.vaevictis import combat
from engine.vaevictis.data import GameData
from engine.vaevictis.odds import AttackPlan, may_support, preview
from engine.vaevictis.state import GameState, Position, UnitState

TARGET_PREVIEW_MS = 2.0


def game() -> tuple[GameData, str]:
    """The Ardennes data, or the mini test game when it does not load yet."""
    try:
        from scenarios import load_game

        return load_game("ardennes44"), "ardennes44 set-up"
    except Exception as error:  # the data may be mid-edit by others: fall back, say why
        print(f"ardennes44 does not load ({error.__class__.__name__}); using the mini test game")
        from tests.vaevictis.combat_setups import mini_game

        return mini_game(), "mini game"


def position(data: GameData) -> GameState:
    """Every set-up unit in place with 3 APs; each HQ holds an artillery and an armor marker."""
    state = GameState(game=data.id, scenario=next(iter(data.scenarios)), options={}, seed="00" * 32)
    state.phase = "operations"
    for uid, definition in data.units.items():
        state.units[uid] = UnitState(id=uid, steps=definition.steps)
    for placement in data.setup:
        unit = state.units[placement.unit]
        unit.hex = placement.hex
        unit.arrived = True
        unit.improved_position = placement.improved_position
        unit.action_points = 3
        if data.units[unit.id].is_hq:
            unit.supports = ["artillery", "stug"] if data.side_of(unit.id) == "german" else ["artillery", "tank"]
    return state


def plans(data: GameData, state: GameState) -> list[AttackPlan]:
    """Every normal attack from one German stack on one adjacent Allied hex, with a support if one may help."""
    pos = Position(data, state)
    found = []
    for hex_, units in pos.occupants.items():
        attackers = [u for u in units if data.side_of(u.id) == "german" and not data.units[u.id].is_hq]
        if not attackers:
            continue
        hqs = [
            u.id for u in state.units.values() if u.on_map and data.units[u.id].is_hq and data.side_of(u.id) == "german"
        ]
        helper = next((hq for hq in hqs if any(may_support(pos, hq, a) for a in attackers)), None)
        for target in data.map.grid.neighbours(hex_):
            if pos.side_at(target) != "allied":
                continue
            supports = ((helper, "artillery"),) if helper else ()
            plan = AttackPlan("german", "normal", tuple(a.id for a in attackers), target, supports=supports)
            try:
                preview(data, state, plan)
            except IllegalActionError:
                plan = AttackPlan("german", "normal", tuple(a.id for a in attackers if a.hex == hex_), target)
                try:
                    preview(data, state, plan)
                except IllegalActionError:
                    continue
            found.append(plan)
    return found


def main() -> int:
    data, name = game()
    state = position(data)
    attacks = plans(data, state)[: sized(None, 3)]
    if not attacks:
        print("no attack found on this position")
        return 1
    preview_ms = statistics.median(median_ms(lambda p=p: preview(data, state, p), sized(20, 1)) for p in attacks)

    def resolve(p: AttackPlan) -> None:
        combat.begin_attack(data, state.copy(), p)

    begin_ms = statistics.median(median_ms(lambda p=p: resolve(p), sized(5, 1)) for p in attacks)
    print(f"position: {name}, {len(attacks)} possible German attacks")
    ratio = preview_ms / TARGET_PREVIEW_MS
    print(f"preview: median {preview_ms:.3f} ms (target < {TARGET_PREVIEW_MS} ms): ratio {ratio:.2f}")
    print(f"begin_attack (with a state copy): median {begin_ms:.3f} ms")
    return 0 if preview_ms < TARGET_PREVIEW_MS or smoke() else 1


if __name__ == "__main__":
    raise SystemExit(main())
