"""Sample pictures of a mid-game Entire Battle position, for docs/images and the benchmark.

``python -m render.samples [folder]`` writes them (``docs/images`` by default). The position comes from
seeded random legal play (``engine.vaevictis.legal.candidate_actions``), so the same seed always gives the
same pictures.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path

from engine.contract import Action, Event, RulesError
from engine.vaevictis.data import other_side
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.legal import candidate_actions
from engine.vaevictis.state import GameState
from render.happened import last_activation
from render.overlays import overlay_sets
from render.snapshot import render_map, to_png
from render.view_picture import picture_from_view


@dataclass
class Position:
    """A game position with the events of its last activation."""

    game: VaeVictisGame
    state: GameState
    events: list[Event]
    actions: int
    opening: GameState
    """The state just after the last activation began, when its units could still move."""


def _order(rng: random.Random, actions: list[Action]) -> list[Action]:
    def key(action: Action) -> float:
        weight = 0.6 if action.verb in ("pass", "end_activation", "end_support") else 1.0
        return float(rng.random() ** (1 / weight))

    return sorted(actions, key=key, reverse=True)


def midgame(
    seed: int = 7,
    actions: int = 300,
    options: dict[str, bool] | None = None,
    limit: int = 1500,
    game: VaeVictisGame | None = None,
) -> Position:
    """The Entire Battle (of ``game``, Ardennes 1944 by default) after ``actions`` seeded random legal actions,
    then on to the end of the first activation that had a combat (so the picture shows moves and an attack)."""
    from scenarios import load_game

    game = game or VaeVictisGame(load_game("ardennes44"))
    rng = random.Random(seed)
    state = game.new_game("entire-battle", options or {}, seed.to_bytes(32, "big"))
    events: list[Event] = []
    opening = state
    done = 0
    while state.result is None and done < limit:
        side = rng.choice(sorted(game.prompts(state)))
        for action in _order(rng, candidate_actions(game, state, side)):
            try:
                state, new = game.apply(state, action)
            except RulesError:
                continue
            events += new
            done += 1
            break
        else:
            raise RuntimeError(f"dead end for {side}")
        if done >= actions and new and new[-1].kind == "end-activation":
            activation = last_activation(events)
            if any(e.kind == "combat" for e in activation) and any(e.kind == "move" for e in activation):
                return Position(game, state, activation, done, opening)
        if any(e.kind == "activation" for e in new):
            events = last_activation(events)
            opening = state
    return Position(game, state, last_activation(events), done, opening)


def write_samples(folder: Path) -> list[Path]:
    """Write the sample pictures into ``folder`` and return their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    position = midgame()
    game, state = position.game, position.state
    data = game.data
    mover = next(e for e in position.events if e.kind == "move")
    actor = data.side_of(mover.data["units"][0])
    written = []

    view = game.view(state, actor)
    picture = picture_from_view(data, view, position.events, seat=actor)
    path = folder / "midgame-snapshot.png"
    path.write_bytes(to_png(render_map(picture)))
    written.append(path)

    # A close-up around a unit that may still move, with its reachable hexes and costs.
    centre = None
    overlay = None
    opening = game.view(position.opening, actor)
    for stack in opening["stacks"]:
        if stack["side"] != actor:
            continue
        unit = stack["units"][0]
        if unit["kind"] == "hq":
            continue
        candidate = overlay_sets(game, position.opening, actor, "reachable", unit["id"])
        if len(getattr(candidate, "costs", {})) >= 8:
            centre, overlay = stack["hex"], candidate
            name = unit["name"]
            break
    if centre is not None and overlay is not None:
        title = f"{data.name}: where {name} may move (MP spent)"
        picture = picture_from_view(data, opening, (), [overlay], seat=actor, title=title)
        path = folder / "closeup-reachable.png"
        path.write_bytes(to_png(render_map(picture, region=(centre, 3))))
        written.append(path)

    # Fog of war: the same game with the option on, seen by the other side.
    foggy = midgame(options={"fog_of_war": True})
    other = other_side(actor)
    view = foggy.game.view(foggy.state, other)
    picture = picture_from_view(
        data, view, (), seat=other, title=f"{data.name}: fog of war, seen by the {other.capitalize()} player"
    )
    grid = data.map.grid
    enemies = [s["hex"] for s in view["stacks"] if s["side"] == other]

    def front(hex_: int) -> tuple[int, int]:
        return (-sum(1 for e in enemies if grid.distance(hex_, e) <= 3), hex_)

    hidden = sorted((h for h in picture.hidden if h in picture.counters), key=front)
    region = (hidden[0], 3) if hidden else None
    path = folder / "fog-of-war.png"
    path.write_bytes(to_png(render_map(picture, region=region)))
    written.append(path)
    return written


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "docs" / "images"
    for written_path in write_samples(target):
        print(written_path)
