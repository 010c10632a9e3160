"""Bench: the Vae Victis engine on a mid-game position of The Entire Battle, all figures in one run.

- apply one move (the whole ``VaeVictisGame.apply``: checks, state copy, route search, move);
- legal destinations of a mechanized unit with its APs (``movement.legal_destinations``);
- a full odds preview (``VaeVictisGame.preview``);
- the supply and command phase for every unit of both sides (``supply.update_statuses``);
- replaying a whole game from its action log (random legal play to the end, 8 turns at most).

Each figure is a median of repeated runs, reported next to its target as a ratio.
Run: ``python bench/bench_engine.py`` (about a minute); ``python bench/bench_engine.py alsace44`` for Alsace 1944.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.midgame import SCENARIO, game_argument, midgame, random_game
from bench.timing import median_ms, print_load
from engine.contract import Action, RulesError
from engine.hexgrid import hex_name
from engine.vaevictis import activation as act
from engine.vaevictis import movement
from engine.vaevictis.data import other_side
from engine.vaevictis.rolls import dice_of
from engine.vaevictis.state import Position
from engine.vaevictis.supply import update_statuses


def main() -> None:
    print_load()
    game, state = midgame(game_id=game_argument())
    data = game.data
    print(
        f"position: {data.name}, {SCENARIO}, turn {state.turn}, phase {state.phase}, "
        f"{sum(u.on_map for u in state.units.values())} units on the map"
    )

    # Put the game in an activation of the side to move, so moves and attacks are legal.
    side = state.active or "german"
    trial = state.copy()
    if trial.phase == "operations" and trial.activation is None and not trial.pending:
        trial, _ = game.apply(trial, Action(side, "activate_general"))
    mechanized = [
        u
        for u in trial.units.values()
        if u.on_map
        and data.side_of(u.id) == side
        and data.units[u.id].is_mechanized
        and act.can_act_now(trial, data, u)
        and not u.cannot_move
        and not u.improved_position
    ]
    joined = []
    for unit in mechanized:
        copy = trial.copy()
        act.join(copy, data, copy.units[unit.id], dice_of(copy))
        if copy.units[unit.id].action_points:
            joined.append((copy, unit.id))

    dest_ms = statistics.median(
        median_ms(lambda c=c, u=u: movement.legal_destinations(data, c, [u]), 5) for c, u in joined
    )
    moves = []
    for copy, unit_id in joined:
        destinations = movement.legal_destinations(data, copy, [unit_id])
        if destinations:
            far = max(destinations, key=lambda h: destinations[h].mp_spent)
            moves.append(Action(side, "move", {"units": unit_id, "to": hex_name(far)}))
    move_ms = statistics.median(median_ms(lambda a=a: game.apply(trial, a), 5) for a in moves)

    pos = Position(data, trial)
    attacks = []
    for unit in trial.units.values():
        if unit.on_map and unit.hex and data.side_of(unit.id) == side and not data.units[unit.id].is_hq:
            for n in data.map.grid.neighbours(unit.hex):
                if pos.side_at(n) == other_side(side):
                    attacks.append({"kind": "normal", "attackers": unit.id, "target": hex_name(n)})
    legal_attacks = []
    for args in attacks:
        try:
            game.preview(trial, side, args)
        except RulesError:
            continue
        legal_attacks.append(args)
    attacks = legal_attacks
    preview_ms = statistics.median(median_ms(lambda a=a: game.preview(trial, side, a), 5) for a in attacks[:40])

    def supply_phase() -> None:
        copy = state.copy()
        pos = Position(data, copy)
        update_statuses(pos, "german")
        update_statuses(pos, "allied")

    supply_ms = median_ms(supply_phase, 20)

    full, log = random_game(game, 7, 6000)

    def replay() -> None:
        replayed = game.new_game(SCENARIO, {}, (7).to_bytes(32, "big"))
        for action in log:
            replayed, _ = game.apply(replayed, action)
        assert replayed.to_json() == full.to_json()

    replay_ms = median_ms(replay, 3)
    cpu_runs = []
    for _ in range(3):  # the process's CPU time: what the engine costs, whatever else the machine is doing
        started = time.process_time()
        replay()
        cpu_runs.append((time.process_time() - started) * 1000)
    replay_cpu_ms = statistics.median(cpu_runs)

    rows = [
        ("apply one move", move_ms, 2.0, f"{len(moves)} moves"),
        ("legal destinations, mechanized unit", dest_ms, 5.0, f"{len(joined)} units"),
        ("odds preview", preview_ms, None, f"{min(len(attacks), 40)} attacks"),
        ("supply and command phase, all units", supply_ms, 50.0, "both sides"),
        (
            f"replay a whole game ({len(log)} actions, ended turn {full.turn})",
            replay_ms,
            1000.0,
            "3 runs",
        ),
        ("replay a whole game, CPU time of the process", replay_cpu_ms, 1000.0, "3 runs"),
    ]
    print(f"{'measure':64} {'median':>10} {'target':>9} {'ratio':>6}")
    for name, value, target, note in rows:
        ratio = f"{value / target:.2f}" if target else "-"
        target_text = f"{target:g} ms" if target else "-"
        print(f"{name:64} {value:8.2f} ms {target_text:>9} {ratio:>6}  ({note})")


if __name__ == "__main__":
    main()
