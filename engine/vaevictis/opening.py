"""Opening-turn limits a scenario puts on activations and action points (Alsace 1944 19.2).

The data lists them in ``setup.toml``:

- ``[[activation_limit]]`` with ``turn`` and ``only_formations`` / ``only_units``: on that turn the side may
  activate only the units of those formations and those units ("On Turn 1 only the 189 ID and 338 VGD ...
  may be activated");
- ``[[activation_limit]]`` with ``from_turn`` and ``units`` / ``formations`` (``except_units``): those units
  may be activated only from that turn on ("2 Tabors ... can be activated beginning Turn 2");
- ``[[action_point_limit]]`` with ``turn`` and ``action_points``: the side's units have at most that many
  APs in each activation of the turn ("German units have only 1 AP on Turn 1").

A limit may name the ``scenarios`` it applies to (Alsace 1944: the two historical ones; the 19.4 variant has
its own first-turn rules). A formation may be activated only if its HQ may be. Units the limits hold back do
not count as units left to activate at the end of a turn (2.2).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from engine.vaevictis.data import GameData
from engine.vaevictis.state import GameState


def _limits(data: GameData, state: GameState, key: str, side: str) -> Iterator[Mapping[str, Any]]:
    """The limits of ``key`` for the side in this game's scenario (all scenarios when a limit lists none)."""
    for limit in data.extra.get(key, ()):
        if limit.get("side") == side and state.scenario in limit.get("scenarios", (state.scenario,)):
            yield limit


def activation_refusal(data: GameData, state: GameState, unit_id: str) -> tuple[str, str] | None:
    """Why the unit may not be activated this turn under the scenario's opening limits, as (rule, reason),
    or ``None`` if it may."""
    definition = data.units[unit_id]
    side = data.side_of(unit_id)
    for limit in _limits(data, state, "activation_limit", side):
        rule = str(limit.get("rule", "19.2"))
        if "turn" in limit and state.turn == int(limit["turn"]):
            allowed = definition.formation in limit.get("only_formations", ()) or unit_id in limit.get("only_units", ())
            if not allowed:
                return rule, f"{definition.name} may not be activated on turn {state.turn}"
        if "from_turn" in limit and state.turn < int(limit["from_turn"]):
            named = unit_id in limit.get("units", ())
            in_formation = definition.formation in limit.get("formations", ()) and unit_id not in limit.get(
                "except_units", ()
            )
            if named or in_formation:
                return rule, f"{definition.name} may be activated only from turn {limit['from_turn']}"
    return None


def action_point_cap(data: GameData, state: GameState, unit_id: str) -> int | None:
    """The most APs the scenario lets the unit have this turn, or ``None`` for no cap."""
    caps = [
        int(limit["action_points"])
        for limit in _limits(data, state, "action_point_limit", data.side_of(unit_id))
        if int(limit.get("turn", 0)) == state.turn
    ]
    return min(caps) if caps else None
