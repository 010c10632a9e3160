"""How the opponent answers one prompt: it weighs the candidate actions on the known position."""

from __future__ import annotations

from engine.contract import ComputerDecision, InvalidActionError, Prompt
from engine.vaevictis.legal import Rules
from engine.vaevictis.opponent.candidates import PASSIVE_VERBS, candidate_actions, try_action
from engine.vaevictis.opponent.levels import Budget, Level, action_key
from engine.vaevictis.opponent.noise import uniform
from engine.vaevictis.state import GameState


def decide(
    game: Rules, state: GameState, prompt: Prompt, level: Level, seed: bytes, budget: Budget
) -> ComputerDecision:
    """The decision for ``prompt``: the first legal candidate in a seeded order that puts acting first."""
    actions = sorted(candidate_actions(game, state, prompt), key=action_key)
    ordered = sorted(
        actions,
        key=lambda a: (a.verb in PASSIVE_VERBS, uniform(seed, repr(action_key(a)))),
    )
    for action in ordered:
        budget.spend()
        if try_action(game, state, action) is not None:
            return ComputerDecision(action, "", budget.used)
    raise InvalidActionError(f"no legal answer found to: {prompt.text}")
