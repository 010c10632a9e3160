"""What a Vae Victis game adds to its record (issue 34, ``bot/service/record.py``): the map without fog of war
after the end, and the charts of steps lost per turn and objectives held."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from engine.hexgrid import Hex
from engine.vaevictis import history
from engine.vaevictis.data import SIDES, GameData
from engine.vaevictis.state import GameState
from render.record.data import Chart, Series


def unveiled(state: GameState) -> GameState:
    """[11] The position with the fog of war lifted: what a record shows once the game has ended."""
    return dataclasses.replace(state, options={**state.options, "fog_of_war": False})


def objectives(data: GameData, scenario: str) -> list[tuple[str, frozenset[Hex]]]:
    """[Ardennes 17, Alsace 19] The places the scenario's victory conditions name (cities to hold, places to
    hold), each with its hexes, in the order the conditions name them."""
    found: dict[str, frozenset[Hex]] = {}
    for condition in data.scenarios[scenario].victory:
        for name in (*condition.cities, *condition.places):
            if name not in found:
                found[name] = frozenset(data.map.place(name).hexes)
    return list(found.items())


def held(data: GameData, state: GameState, hexes: frozenset[Hex], side: str) -> bool:
    """Whether a unit of ``side`` stands in one of ``hexes``."""
    return any(u.hex in hexes and data.side_of(u.id) == side for u in state.on_map())


def record_charts(
    data: GameData,
    states: Sequence[tuple[int, GameState]],
    seat: str | None,
    log: Sequence[Mapping[str, Any]],
    over: bool,
) -> list[Chart]:
    """[1.2, 17] Steps lost per turn by each side (as the reader may know them: 11 under fog of war), and the
    objectives each side occupies after each picture (under fog of war during the game, the reader's own only)."""
    if not states:
        return []
    first = states[0][1]
    fog = bool(first.options.get("fog_of_war")) and not over
    stats = history.statistics(data, [r["events"] for r in log], seat, fog)  # type: ignore[arg-type]
    losses = Chart(
        "Steps lost per turn",
        "turn",
        "steps",
        tuple(
            Series(
                data.side_name(side),
                tuple((float(t), float(stats.sides[side].steps_lost.get(t, 0))) for t in stats.turns),
            )
            for side in SIDES
        ),
        bars=True,
        note="Under fog of war (11), until the end the other side's losses count only where inflicted in combat."
        if fog
        else "",
    )
    places = objectives(data, first.scenario)
    shown = [s for s in SIDES if not fog or s == seat]
    if not places or not shown:
        return [losses]
    held_chart = Chart(
        "Objectives held",
        "picture",
        "places",
        tuple(
            Series(
                data.side_name(side),
                tuple(
                    (float(index + 1), float(sum(held(data, state, hexes, side) for _, hexes in places)))
                    for index, state in states
                ),
            )
            for side in shown
        ),
        note=f"Of the places the victory conditions name ({', '.join(n for n, _ in places)}): those a side's units "
        "occupy after each picture.",
    )
    return [losses, held_chart]
