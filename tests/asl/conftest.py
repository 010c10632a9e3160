"""Helpers for the ASL campaign-game tests: a campaign, an action driver and the channel's view of it."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from engine.asl import CampaignState
from engine.asl.module import Module, parse_module_text
from engine.contract import Action, Event
from tests.asl.campaign_system import SYSTEM

HERE = Path(__file__).parent
TEST_CHART = (HERE / "example_rg_chart.toml").read_text(encoding="utf-8")
"""Invented RG chart and CG (TEST DATA, not from ABtF)."""

SEED = bytes.fromhex("5eed" * 16)


def bundled() -> Module:
    """The bundled A Bridge Too Far module."""
    from scenarios.asl import module_text

    name, text = module_text("a-bridge-too-far")
    return parse_module_text(text, name)


class Table:
    """A campaign being played: the state, every action and every event, and the channel's text."""

    def __init__(self, state: CampaignState) -> None:
        self.state = state
        self.actions: list[Action] = []
        self.events: list[Event] = []

    def act(self, seat: str, verb: str, **args: Any) -> list[Event]:
        action = Action(seat, verb, args)
        before = json.dumps(SYSTEM.state_to_json(self.state), sort_keys=True)
        new_state, events = SYSTEM.apply(self.state, action)
        # apply never mutates its input: checked on every action of every test
        assert json.dumps(SYSTEM.state_to_json(self.state), sort_keys=True) == before
        self.state = new_state
        self.actions.append(action)
        self.events.extend(events)
        return events

    def prompts(self) -> dict[str, Any]:
        return SYSTEM.prompts(self.state)

    def step_rule(self) -> str | None:
        step = SYSTEM.view(self.state, None)["step"]
        return None if step is None else step["rule"]

    def done(self, seat: str) -> None:
        """Say done, entering the side's Setup Areas first when the step asks for them (9.605)."""
        if "areas" in SYSTEM.prompts(self.state)[seat].free_verbs:
            self.act(seat, "areas", setup="A,B" if seat == "allied" else "C,D", strategic="", perimeter="")
        self.act(seat, "done")

    def channel(self) -> str:
        """Everything the channel could have seen so far: public events, public prompts, the public view."""
        parts = [json.dumps(e.to_json(), ensure_ascii=False) for e in self.events if not e.secret_to]
        parts += [p.text for p in SYSTEM.prompts(self.state).values() if not p.secret]
        parts.append(json.dumps(SYSTEM.view(self.state, None), ensure_ascii=False))
        return "\n".join(parts)

    def finish_manual(self) -> None:
        """Say done on every manual step (and setup) until a step needs something else."""
        for _ in range(200):
            current = self.prompts()
            doers = [  # a Done button, or Done once the Setup Areas are entered (9.605)
                s
                for s, p in current.items()
                if [c.verb for c in p.choices] == ["done"] or (not p.choices and "areas" in p.free_verbs)
            ]
            if not doers or len(doers) != len(current):
                return
            for seat in doers:
                self.done(seat)
        raise AssertionError("manual steps never ended")

    def play_secret_steps(
        self,
        purchases: dict[str, dict[str, str]] | None = None,
        forts: dict[str, dict[str, str]] | None = None,
        chits: dict[str, dict[str, str]] | None = None,
        until: str | None = None,
    ) -> None:
        """Answer the secret steps (and manual ones) of the RePh with choices by CG Date.

        Each argument maps a CG Date to each side's choice; the default is nothing bought and Idle chits.
        ``until`` names a verb to stop at (e.g. ``"choose_chit"``) without answering it.
        """
        for _ in range(200):
            current = self.prompts()
            if not current or self.state.phase != "refit":
                return
            date = self.state.date
            seat, prompt = next(iter(current.items()))
            verbs = [c.verb for c in prompt.choices] + list(prompt.free_verbs)
            if until is not None and until in verbs:
                return
            if "roll_cpp" in verbs:
                self.act(seat, "roll_cpp")
            elif "purchase" in verbs:
                self.act(seat, "purchase", rgs=(purchases or {}).get(date, {}).get(seat, ""))
            elif "roll_rgs" in verbs:
                self.act(seat, "roll_rgs")
            elif "fortify" in verbs:
                self.act(seat, "fortify", items=(forts or {}).get(date, {}).get(seat, ""))
            elif "choose_chit" in verbs:
                self.act(seat, "choose_chit", chit=(chits or {}).get(date, {}).get(seat, "idle"))
            elif "done" in verbs:
                self.done(seat)
            else:
                return
        raise AssertionError("secret steps never ended")


def new_table(options: dict[str, Any] | None = None, chart: bool = True, begin: bool = True) -> Table:
    opts: dict[str, Any] = {
        "start": "17N",
        "end": "19PM",
        "elr": {"allied": 5, "german": 3},
        "san": {"allied": 3, "german": 4},
    }
    opts.update(options or {})
    state = SYSTEM.new_game("a-bridge-too-far", opts, SEED)
    table = Table(state)
    if chart:
        table.act("organiser", "load_table", text=TEST_CHART, file="example_rg_chart.toml")
    if begin:
        table.act("allied", "begin")
    return table


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


@pytest.fixture
def table() -> Table:
    return new_table()


