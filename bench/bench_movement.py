"""Bench: how fast movement answers on a mid-game Ardennes position.

Measures the median time of :func:`legal_destinations` for mechanized units with 3 AP, and of
:func:`apply_move` for one of the routes it found. Targets: under 5 ms and under 2 ms.

The position: the Ardennes 1944 set-up, then every German unit takes one move action west (its
westernmost reachable hex), so the front is broken and units are mixed. If the Ardennes data does not
load, the bench falls back to a synthetic 34 x 22 map.

Run: ``python bench/bench_movement.py``; ``--smoke`` (measures nothing): three units, one run each.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import median_ms, sized
from engine.vaevictis.data import GameData
from engine.vaevictis.movement import apply_move, legal_destinations
from engine.vaevictis.state import GameState, Position, UnitState

TARGET_SEARCH_MS = 5.0
TARGET_APPLY_MS = 2.0


def ardennes() -> tuple[GameData, str]:
    """The Ardennes data, or a synthetic map of the same size when it does not load yet."""
    try:
        from scenarios import load_game

        return load_game("ardennes44"), "ardennes44"
    except Exception as error:  # the data may be mid-edit by others: fall back, say why
        print(f"ardennes44 does not load ({error.__class__.__name__}); using a synthetic 34x22 map")
        return synthetic(), "synthetic 34x22"


def synthetic() -> GameData:
    """A 34 x 22 map with forests, rough, a river with bridges, roads, and a spread of units of both sides."""
    from engine.vaevictis.loader import build_game
    from tests.vaevictis.minigame import documents

    docs = documents()
    columns, rows = 34, 22
    lines = []
    for r in range(1, rows + 1):
        line = ""
        for c in range(1, columns + 1):
            if c % 2 == 1 and r == rows:
                line += " "
            else:
                line += "f" if (c * 7 + r * 3) % 11 == 0 else "r" if (c + r * 5) % 13 == 0 else "."
        lines.append(line)
    river = [[f"15{r:02d}", f"16{r:02d}"] for r in range(1, rows)]
    docs["map.toml"] = {
        "map": {"name": "Synthetic", "columns": columns, "rows": rows, "lower_columns": "odd"},
        "terrain": {"rows": lines},
        "place": [{"name": "Alpha", "hex": "1010", "kind": "city"}],
        "river": [{"name": "Meuse", "hexsides": river, "bridges": [river[r - 1] for r in (2, 4, 7, 10, 13, 16, 19)]}],
        "road": [{"name": f"R{r}", "hexes": [f"{c:02d}{r:02d}" for c in range(1, 35)]} for r in (4, 10, 16)],
        "edges": {"german": [{"edge": "east"}], "allied": [{"edge": "west"}]},
        "entry": {"german": ["3410"], "allied": ["0110"]},
    }
    units = []
    setup = []
    for i in range(60):
        german = i % 2 == 0
        uid = f"{'de' if german else 'us'}-{i}"
        kind = ("armored", "mechanized", "infantry")[i % 3]
        units.append(
            {
                "id": uid,
                "name": uid,
                "formation": "de-1ss" if german else "us-v",
                "kind": kind,
                "size": "X",
                "steps": 2,
                "strength": 6,
                "quality": 4,
            }
        )
        col = 24 + (i % 8) if german else 8 + (i % 8)
        setup.append({"unit": uid, "hex": f"{col:02d}{1 + (i * 7) % 20:02d}"})
    docs["counters.toml"]["unit"] = [u for u in docs["counters.toml"]["unit"] if u["kind"] == "hq"] + units
    docs["setup.toml"]["setup"] = [{"unit": "hq-us-v", "hex": "0110"}, {"unit": "hq-de-1ss", "hex": "3410"}, *setup]
    docs["setup.toml"]["reinforcement"] = []
    return build_game(docs)


def setup_state(data: GameData) -> GameState:
    """The set-up, every unit on the map with full steps."""
    state = GameState(game=data.id, scenario="bench", options={}, seed="00", phase="operations")
    for unit_id, definition in data.units.items():
        state.units[unit_id] = UnitState(id=unit_id, steps=definition.steps)
    for placement in data.setup:
        unit = state.units[placement.unit]
        unit.hex = placement.hex
        unit.arrived = True
    return state


def advance_germans(data: GameData, state: GameState) -> int:
    """Every German unit takes one move action to its westernmost reachable hex; returns how many moved."""
    moved = 0
    for unit in list(state.units.values()):
        if not unit.on_map or data.side_of(unit.id) != "german":
            continue
        unit.action_points = 1
        routes = legal_destinations(data, state, [unit.id])
        if routes:
            best = min(routes.values(), key=lambda r: (r.destination // 100, r.destination % 100))
            apply_move(data, state, [unit.id], best)
            moved += 1
        unit.action_points = 0
        unit.movement_points = 0.0
        unit.must_attack = False
    return moved


def main() -> None:
    data, label = ardennes()
    state = setup_state(data)
    moved = advance_germans(data, state)
    pos = Position(data, state)
    movers = [u for u in state.on_map() if pos.unit_def(u.id).is_mechanized][: sized(None, 3)]
    for unit in movers:
        unit.action_points = 3

    search_times = []
    apply_times = []
    reached = []
    for unit in movers:
        routes = legal_destinations(data, state, [unit.id])
        reached.append(len(routes))
        search_times.append(median_ms(lambda unit=unit: legal_destinations(data, state, [unit.id]), sized(7, 1)))
        if not routes:
            continue
        route = max(routes.values(), key=lambda r: len(r.path))
        copies = [state.copy() for _ in range(sized(5, 1))]
        apply_times.append(
            median_ms(lambda c=copies, u=unit.id, r=route: apply_move(data, c.pop(), [u], r), len(copies))
        )

    search = statistics.median(search_times)
    apply = statistics.median(apply_times)
    print(f"map: {label}; {moved} German units advanced; {len(movers)} mechanized units timed, 3 AP each")
    print(f"hexes reached per search: median {statistics.median(reached):.0f}, max {max(reached)}")
    worst = max(search_times)
    print(f"legal_destinations median {search:.2f} ms (worst unit {worst:.2f} ms), target {TARGET_SEARCH_MS} ms")
    print(f"apply_move median {apply:.2f} ms (worst {max(apply_times):.2f} ms), target {TARGET_APPLY_MS} ms")
    print(f"ratios to target: search {search / TARGET_SEARCH_MS:.2f}, apply {apply / TARGET_APPLY_MS:.2f}")


if __name__ == "__main__":
    main()
