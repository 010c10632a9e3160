"""What an attack is worth, from the exact chances of the Combat Results Table (7.5, 7.6), no die rolled.

The engine's own odds preview gives each result's chance over the six faces of the die; under fog of war, or
against a face-down garrison (11.1, Alsace 16), it gives the range an attacker may know (the unseen counters at
their weakest and strongest), whose two ends count half each. A result ``a/d`` costs the attacker ``a`` steps
and the defender ``d``, which he may take partly as hexes of retreat (7.6): the estimate counts the defender's
loss at 70% in steps, and the hex as taken when he retreats or is eliminated.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from engine.contract import Action, RulesError
from engine.hexgrid import Hex, hex_name, parse_hex
from engine.vaevictis.data import GameData, Side
from engine.vaevictis.legal import Rules
from engine.vaevictis.odds import Preview
from engine.vaevictis.opponent.analysis import Objectives
from engine.vaevictis.opponent.evaluation import PLACE_VALUE, REACH_WEIGHT, step_value
from engine.vaevictis.state import GameState, Position
from engine.vaevictis.unseen_odds import UnseenPreview
from engine.vaevictis.view import HIDDEN_GARRISON

LOSS_AS_STEPS = 0.7
"""The share of a defender's result taken as steps rather than hexes of retreat, as the estimate counts it."""
GROUND_VALUE = 0.6
"""The worth of a hex the defender gives up, beyond what the evaluation's maps add."""
ACTION_POINT_COST = 0.25
"""What the action points an attack spends could have done elsewhere."""


class Referee(Rules, Protocol):
    """The game as the opponent asks it: the rules of :class:`Rules` and the odds preview (7.5)."""

    def preview(self, state: GameState, side: Side, args: Mapping[str, Any]) -> Any: ...


@dataclass(frozen=True)
class AttackEstimate:
    """An attack's expected worth and the words that explain it."""

    value: float
    column: str
    """The odds column, or the range of columns the attacker may know ("2:1" or "2:1-4:1")."""
    favourable: float
    """The chance the defender loses at least as much as the attacker."""
    target: str
    """What is attacked, in words ("2/506 at Bastogne")."""


def chances_of(preview: Any) -> tuple[dict[str, Fraction], str, Fraction]:
    """Each result's chance, the column in words, and the chance of a breakthrough (7.8)."""
    if isinstance(preview, Preview):
        return dict(preview.probabilities), preview.assessment.column_name, preview.breakthrough
    if isinstance(preview, UnseenPreview):
        merged: dict[str, Fraction] = {}
        for case in (preview.worst, preview.best):
            for text, chance in case.chances:
                merged[text] = merged.get(text, Fraction(0)) + chance / 2
        column = (
            preview.worst.column
            if preview.worst.column == preview.best.column
            else (f"{preview.worst.column}-{preview.best.column}")
        )
        return merged, column, Fraction(0)
    raise TypeError(f"not an odds preview: {type(preview).__name__}")


def _loss(text: str, total: int) -> tuple[int, bool]:
    """A side's part of a result (``"2"``, ``"-"``, ``"E"``): the steps at most, and whether it eliminates."""
    if text == "E":
        return total, True
    return (0 if text in ("-", "") else min(total, int(text))), False


def estimate(game: Referee, state: GameState, side: Side, action: Action, goals: Objectives) -> AttackEstimate | None:
    """The worth of an attack action on the known position, or ``None`` when the engine refuses its odds."""
    try:
        preview = game.preview(state, side, action.args)
        chances, column, breakthrough = chances_of(preview)
    except (RulesError, TypeError, ValueError):
        return None
    data = game.data
    pos = Position(data, state)
    targets = [parse_hex(t) for t in str(action.args["target"]).split(",")]
    defenders = [u for h in targets for u in pos.units_at(h)]
    attackers = [state.units[a] for a in str(action.args["attackers"]).split(",")]
    if not defenders:
        return None
    defender_steps = sum(u.steps for u in defenders)
    attacker_steps = sum(u.steps for u in attackers)
    defender_step = max(step_value(data, u) for u in defenders)
    attacker_step = max(step_value(data, u) for u in attackers)
    ground = sum(_ground_value(data, goals, side, h) for h in targets)
    value = 0.0
    favourable = Fraction(0)
    for result, chance in chances.items():
        mine, theirs = [*result.split("/"), "-"][:2]
        lost, wiped = _loss(theirs, defender_steps)
        cost, _ = _loss(mine, attacker_steps)
        steps = lost if wiped or lost >= defender_steps else LOSS_AS_STEPS * lost
        vacated = 1.0 if wiped or lost >= defender_steps else (0.6 if lost else 0.0)
        value += float(chance) * (steps * defender_step - 0.85 * cost * attacker_step + vacated * ground)
        if lost >= cost:
            favourable += chance
    value += float(breakthrough) * 0.5 - ACTION_POINT_COST
    return AttackEstimate(value, column, float(favourable), _target_words(data, pos, targets, goals))


def _ground_value(data: GameData, goals: Objectives, side: Side, hex_: Hex) -> float:
    value = GROUND_VALUE
    if goals.place_at(hex_) is not None:
        value += PLACE_VALUE
    if side == goals.attacker:
        value += REACH_WEIGHT * 2
    return value


def _target_words(data: GameData, pos: Position, targets: list[Hex], goals: Objectives) -> str:
    hex_ = targets[0]
    top = pos.units_at(hex_)
    face_down = set(pos.state.flags.get("face_down", ()))
    name = "?" if not top else HIDDEN_GARRISON if top[0].id in face_down else data.units[top[0].id].name
    place = goals.place_at(hex_)
    return f"{name} at {place.name if place else hex_name(hex_)}"
