"""The candidate actions random play tries on every system (for the liveness and message-hygiene properties)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.contract import Action, Prompt

Candidates = Callable[[Any, str, Prompt, random.Random], list[Action]]


def vae_victis_candidates(adapter: Any) -> Candidates:
    from engine.vaevictis.legal import candidate_actions

    def candidates(state: Any, seat: str, prompt: Prompt, rng: random.Random) -> list[Action]:
        found = candidate_actions(adapter.game, state, seat)
        rng.shuffle(found)
        return sorted(found, key=lambda a: a.verb in ("pass", "end_activation", "end_support") and rng.random() < 0.8)

    return candidates


def wargame_commander_candidates(adapter: Any) -> Candidates:
    from tests.wargame_commander.play import random_action

    def candidates(state: Any, seat: str, prompt: Prompt, rng: random.Random) -> list[Action]:
        choices = [Action(seat, c.verb, dict(c.args)) for c in prompt.choices]
        return [random_action(state, seat, prompt, rng), *rng.sample(choices, len(choices))]

    return candidates


def asl_candidates(adapter: Any) -> Candidates:
    def candidates(state: Any, seat: str, prompt: Prompt, rng: random.Random) -> list[Action]:
        found = [Action(seat, c.verb, dict(c.args)) for c in prompt.choices]
        rng.shuffle(found)
        if "areas" in prompt.free_verbs:
            found.insert(0, Action(seat, "areas", {"setup": "A,B", "strategic": "", "perimeter": ""}))
        if "report_end" in prompt.free_verbs:
            cvp = {"cvp_allied": rng.randint(0, 40), "cvp_german": rng.randint(0, 40)}
            found += [Action(seat, "report_end", cvp), Action(seat, "report_end", {**cvp, "winner": "allied"})]
        return found

    return candidates


CANDIDATES: dict[str, Callable[[Any], Candidates]] = {
    "ardennes44": vae_victis_candidates,
    "alsace44": vae_victis_candidates,
    "asl": asl_candidates,
    "wargame-commander": wargame_commander_candidates,
}
