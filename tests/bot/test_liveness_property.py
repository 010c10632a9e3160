"""A property of every game system: never stuck, never misled.

Random games of every system and scenario the bot offers (Ardennes 1944, Alsace 1944, the ASL campaign game,
the Wargame Commander) are played through the bot's adapters, the same objects the service drives. At every
position reached:

- the game is over, or some seat has a required decision (a prompt that is not optional);
- every choice any prompt offers (a button, a menu entry) is accepted by the rules;
- a seat with a required decision has an accepted action (the random player finds one, or the game is stuck).

The odds preview's promise (what it shows, Confirm accepts) is checked on the Vae Victis games through the
service: every attack the random player considers is previewed first, and a preview that shows odds must be
followed by an accepted Confirm; a refused attack must be refused by its preview too, with the same rule.

``UMPIRE_LIVENESS_SEEDS`` (default 1) sets how many games of each scenario; ``UMPIRE_LIVENESS_ACTIONS``
(default 120) how many actions each. A failure reproduces from its seed.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.service.game_service import SystemAdapter
from bot.systems import systems
from engine.contract import Action, Prompt, RulesError
from tests.bot.alsace import alsace_adapter
from tests.bot.doubles import require_ardennes
from tests.bot.liveness_candidates import CANDIDATES

SEEDS = int(os.environ.get("UMPIRE_LIVENESS_SEEDS", "1"))
ACTIONS = int(os.environ.get("UMPIRE_LIVENESS_ACTIONS", "120"))


def adapter_of(system_id: str) -> SystemAdapter:
    if system_id == "alsace44":
        return alsace_adapter()
    return systems()[system_id]()


def games() -> Iterator[tuple[str, str]]:
    for system_id in systems():
        if system_id in ("ardennes44", "alsace44"):
            require_ardennes()
        for scenario in adapter_of(system_id).scenarios:
            yield system_id, scenario


OPTIONS: dict[str, dict[str, Any]] = {
    # The bundled module has no CG definitions (9.51-.53): a campaign is created with them.
    "asl": {"start": "17N", "end": "18PM", "elr": {"allied": 5, "german": 3}, "san": {"allied": 3, "german": 4}},
}


def refusal(adapter: SystemAdapter, state: Any, action: Action) -> RulesError | None:
    """Why the rules refuse the action here, or ``None`` when they accept it."""
    try:
        adapter.apply(state, action)
    except RulesError as refused:
        return refused
    return None


def check_position(adapter: SystemAdapter, state: Any, where: str) -> dict[str, Prompt]:
    """The game is over or waits for someone; every offered choice is accepted. The prompts."""
    prompts = adapter.prompts(state)
    if adapter.result(state) is not None:
        return {}
    assert any(not p.optional for p in prompts.values()), f"{where}: nobody has a required decision: {prompts}"
    for seat, prompt in prompts.items():
        for choice in prompt.choices:
            refused = refusal(adapter, state, Action(seat, choice.verb, dict(choice.args)))
            assert refused is None, f"{where}: {seat}'s offered choice {choice.label!r} is refused: {refused}"
    return prompts


def check_preview(adapter: SystemAdapter, state: Any, action: Action, where: str) -> None:
    """[7.5] An attack's odds preview promises what Confirm does: both accept it, or both refuse it by the
    same rule."""
    from bot.service.game_service import previewed_refusal

    try:
        text = adapter.preview(state, action.seat, action.verb, dict(action.args))
    except RulesError as refused:
        assert refusal(adapter, state, action) is not None, f"{where}: a preview refused {action}: {refused}"
        return
    if text is None:
        return
    shown = previewed_refusal(adapter, state, action)
    applied = refusal(adapter, state, action)
    assert (shown is None) == (applied is None), f"{where}: preview and confirm disagree on {action}: {applied}"
    if shown is not None and applied is not None:
        assert shown.rule == applied.rule, (shown, applied)


def check_suggested_targets(adapter: Any, state: Any, seat: str, rng: random.Random, where: str) -> None:
    """Every target autocomplete suggests for a unit is attacked by it, or its preview refuses it with the
    rule Confirm would give (a few units, so the test stays quick)."""
    from engine.vaevictis.legal import units_that_may_act

    units = units_that_may_act(adapter.game, state, seat)
    for unit in rng.sample(units, min(3, len(units))):
        for _, target in adapter.suggest(state, seat, "target", "", {"attackers": unit.id}):
            action = Action(seat, "attack", {"kind": "normal", "attackers": unit.id, "target": target})
            check_preview(adapter, state, action, f"{where} (suggested target)")


@pytest.mark.parametrize("seed", range(1, SEEDS + 1))
@pytest.mark.parametrize(("system_id", "scenario"), list(games()))
def test_every_game_can_go_on_and_every_offer_is_accepted(system_id: str, scenario: str, seed: int) -> None:
    """[liveness] Over random play: over, or someone must decide; every choice offered is accepted; whoever
    must decide has an accepted action; an attack's preview and its Confirm agree."""
    adapter = adapter_of(system_id)
    candidates = CANDIDATES[system_id](adapter)
    rng = random.Random(seed)
    state = adapter.new_game(scenario, OPTIONS.get(system_id, {}), seed.to_bytes(32, "big"))
    for step in range(ACTIONS):
        where = f"{system_id} {scenario} seed {seed} action {step}"
        prompts = check_position(adapter, state, where)
        if not prompts:
            return
        required = sorted(s for s, p in prompts.items() if not p.optional)
        seat = rng.choice(required)
        if system_id in ("ardennes44", "alsace44") and step % 5 == 0:
            check_suggested_targets(adapter, state, seat, rng, where)
        for action in candidates(state, seat, prompts[seat], rng):
            if action.verb == "attack":
                check_preview(adapter, state, action, where)
            try:
                state, _ = adapter.apply(state, action)
            except RulesError:
                continue
            break
        else:
            raise AssertionError(f"{where}: dead end: {seat} must decide ({prompts[seat].text}); nothing is accepted")
