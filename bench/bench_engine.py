"""Bench: the Vae Victis engine on a mid-game position of The Entire Battle, all figures in one run.

- apply one move (the whole ``VaeVictisGame.apply``: checks, state copy, route search, move);
- legal destinations of a mechanized unit with its APs (``movement.legal_destinations``);
- a full odds preview (``VaeVictisGame.preview``);
- the supply and command phase for every unit of both sides (``supply.update_statuses``);
- replaying a whole game from its action log (random legal play to the end, 8 turns at most).

Each figure is a median of repeated runs, reported next to its target as a ratio.
The position is the first seed from 7 whose random game, at its mid-game pause, gives the side to move both a
mechanized move and a legal attack to time.

Run: ``python bench/bench_engine.py`` (about a minute); ``python bench/bench_engine.py alsace44`` for Alsace 1944;
``--smoke`` for tiny sizes (a few actions, one run each: checks the script works, measures nothing).
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.midgame import MIDGAME_ACTIONS, SCENARIO, bench_game, first_seed, game_argument, random_game
from bench.timing import median_ms, print_load, sized
from engine.contract import Action, RulesError
from engine.hexgrid import hex_name
from engine.vaevictis import activation as act
from engine.vaevictis import movement
from engine.vaevictis.data import other_side
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.rolls import dice_of
from engine.vaevictis.state import GameState, Position
from engine.vaevictis.supply import update_statuses


@dataclass
class Trial:
    """A mid-game position in an activation of the side to move, with what the bench times on it."""

    state: GameState
    trial: GameState
    side: str
    joined: list[tuple[GameState, str]]
    moves: list[Action]
    attacks: list[dict[str, str]]


def trial_of(game: VaeVictisGame, seed: int, actions: int) -> Trial | None:
    """The seed's position after ``actions`` random actions, put in an activation of the side to move; ``None``
    when it offers no mechanized move or no legal attack to time."""
    data = game.data
    # The attacker to move, with most of the mechanized units: the German in Ardennes, the French in Alsace.
    state, _ = random_game(game, seed, actions, rest=True, mover="allied" if data.id == "alsace44" else "german")
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
    moves = []
    for copy, unit_id in joined:
        destinations = movement.legal_destinations(data, copy, [unit_id])
        if destinations:
            far = max(destinations, key=lambda h: destinations[h].mp_spent)
            moves.append(Action(side, "move", {"units": unit_id, "to": hex_name(far)}))
    pos = Position(data, trial)
    attacks = []
    for unit in trial.units.values():
        if unit.on_map and unit.hex and data.side_of(unit.id) == side and not data.units[unit.id].is_hq:
            for n in data.map.grid.neighbours(unit.hex):
                if pos.side_at(n) == other_side(side):
                    args = {"kind": "normal", "attackers": unit.id, "target": hex_name(n)}
                    try:
                        game.preview(trial, side, args)
                    except RulesError:
                        continue
                    attacks.append(args)
    if not moves or not attacks:
        print(f"  (seed {seed}: {len(moves)} moves, {len(attacks)} legal attacks; trying the next seed)")
        return None
    return Trial(state, trial, side, joined, moves, attacks)


def main() -> None:
    print_load()
    game_id = game_argument()
    game = bench_game(game_id)
    data = game.data
    actions = sized(MIDGAME_ACTIONS.get(game_id, 500), 8)
    seed, found = first_seed(lambda seed: trial_of(game, seed, actions), start=7)
    state, trial, side, joined, moves, attacks = (
        found.state, found.trial, found.side, found.joined, found.moves, found.attacks
    )  # fmt: skip
    print(
        f"position: {data.name}, {SCENARIO}, seed {seed}, turn {state.turn}, phase {state.phase}, "
        f"{sum(u.on_map for u in state.units.values())} units on the map"
    )
    repeat = sized(5, 1)
    dest_ms = statistics.median(
        median_ms(lambda c=c, u=u: movement.legal_destinations(data, c, [u]), repeat) for c, u in joined
    )
    move_ms = statistics.median(median_ms(lambda a=a: game.apply(trial, a), repeat) for a in moves)
    preview_ms = statistics.median(
        median_ms(lambda a=a: game.preview(trial, side, a), repeat) for a in attacks[: sized(40, 2)]
    )

    def supply_phase() -> None:
        copy = state.copy()
        pos = Position(data, copy)
        update_statuses(pos, "german")
        update_statuses(pos, "allied")

    supply_ms = median_ms(supply_phase, sized(20, 1))

    full, log = random_game(game, 7, sized(6000, 30))

    def replay() -> None:
        replayed = game.new_game(SCENARIO, {}, (7).to_bytes(32, "big"))
        for action in log:
            replayed, _ = game.apply(replayed, action)
        assert replayed.to_json() == full.to_json()

    replay_ms = median_ms(replay, sized(3, 1))
    cpu_runs = []
    for _ in range(sized(3, 1)):  # the process's CPU time: what the engine costs, whatever else the machine is doing
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
            f"{sized(3, 1)} runs",
        ),
        ("replay a whole game, CPU time of the process", replay_cpu_ms, 1000.0, f"{sized(3, 1)} runs"),
    ]
    print(f"{'measure':64} {'median':>10} {'target':>9} {'ratio':>6}")
    for name, value, target, note in rows:
        ratio = f"{value / target:.2f}" if target else "-"
        target_text = f"{target:g} ms" if target else "-"
        print(f"{name:64} {value:8.2f} ms {target_text:>9} {ratio:>6}  ({note})")


if __name__ == "__main__":
    main()
