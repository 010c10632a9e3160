"""The supply and command phase of each Vae Victis game, in CPU time (issue 27): every unit of both sides has
its line of command (8.1) and of supply (10.1, 10.2) traced, as at the start of a turn (``update_statuses``).

    python bench/bench_supply.py [ACTIONS]      # the position after 700 actions by default
    python bench/bench_supply.py --smoke        # 20 actions, one run: measures nothing

The position is the seeded random game of bench/midgame.py (seed 2026, the game of bench/bench_verify.py) after
ACTIONS actions; the figure is the median of seven runs of twenty phases each, in CPU milliseconds per phase
(the state's copy included), beside the number of units on the map. CPU time, not the wall clock: the figure
holds on a machine other work keeps busy.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.midgame import random_game
from bench.timing import arguments, print_figures, print_load, sized
from bot.systems import systems
from engine.vaevictis.state import GameState, Position
from engine.vaevictis.supply import update_statuses

SEED = 2026


def phase_ms(adapter: object, state: GameState) -> float:
    """The median CPU milliseconds of one supply and command phase of both sides on a copy of ``state``."""
    data = adapter.game.data  # type: ignore[attr-defined]

    def phase() -> None:
        pos = Position(data, state.copy())
        update_statuses(pos, "german")
        update_statuses(pos, "allied")

    phase()
    runs = []
    count = sized(20, 1)
    for _ in range(sized(7, 1)):
        start = time.process_time()
        for _ in range(count):
            phase()
        runs.append((time.process_time() - start) / count * 1000)
    return statistics.median(runs)


def main() -> None:
    given = arguments()
    actions = int(given[0]) if given else sized(700, 20)
    print_load()
    figures = []
    for game_id in ("ardennes44", "alsace44"):
        adapter = systems()[game_id]()
        state, _ = random_game(adapter.game, SEED, actions)  # type: ignore[attr-defined]
        on_map = sum(1 for u in state.units.values() if u.on_map)
        figures.append(
            (
                f"{game_id}: supply and command phase, both sides, turn {state.turn}, {on_map} units on the map "
                "(CPU ms)",
                f"{phase_ms(adapter, state):.2f}",
            )
        )
    print_figures(figures)


if __name__ == "__main__":
    main()
