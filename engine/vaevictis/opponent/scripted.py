"""The scripted baseline the computer opponent is measured against (issue 30), a fixed rule per prompt.

During an activation: the attack at the best odds if they are at least 3:1 (7.5); else a unit next to the
enemy holds the line (it digs in if it may, 12.2, or stays); else the move that brings a unit nearest to its
side's nearest objective; else it ends the activation. At the start of a sequence it activates the first
formation it may, in the data's order, that has a unit not yet activated this turn, and passes when none has
(never a general activation, which could go on empty for ever). Every other prompt gets its first listed
choice (the set-up as the scenario suggests it), except the defender's choice of the unit whose quality counts
(7.4): it keeps the default one, since choosing another is offered again and again until supports are done.

It plays from its seat's view like the computer opponent (:mod:`engine.vaevictis.opponent.player`), with the
same known position, so it never cheats either; it has no level and no noise.
"""

from __future__ import annotations

from typing import Any

from engine.contract import Action, ComputerDecision, InvalidActionError, Prompt
from engine.hexgrid import parse_hex
from engine.vaevictis.opponent.analysis import FAR, objectives
from engine.vaevictis.opponent.attacks import Referee, chances_of
from engine.vaevictis.opponent.candidates import activation_actions, listed, side_of, try_action
from engine.vaevictis.opponent.levels import action_key
from engine.vaevictis.opponent.player import working_state
from engine.vaevictis.state import GameState, Position

THREE_TO_ONE = 3.0


def column_ratio(column: str) -> float:
    """The odds of a column name as a number ("3:1" is 3, "1:2" is 0.5); a range counts at its worst end."""
    worst = column.split("-")[0].rstrip("+")
    try:
        attack, defence = (float(x) for x in worst.split(":"))
    except ValueError:
        return 0.0
    return attack / defence if defence else 0.0


class ScriptedBaseline:
    """The scripted baseline as a :class:`engine.contract.ComputerPlayer` (one level, ``"scripted"``)."""

    levels: tuple[str, ...] = ("scripted",)

    def __init__(self, game: Referee) -> None:
        self.game = game

    def decide(self, view: Any, prompt: Prompt, level: str, seed: bytes) -> ComputerDecision:
        state = working_state(view, seed)
        action = self._choose(state, prompt)
        if action is None or try_action(self.game, state, action) is None:
            for fallback in sorted(listed(prompt), key=action_key):
                if try_action(self.game, state, fallback) is not None:
                    return ComputerDecision(fallback, "", 0)
            raise InvalidActionError(f"the scripted baseline has no answer to: {prompt.text}")
        return ComputerDecision(action, "", 0)

    def _choose(self, state: GameState, prompt: Prompt) -> Action | None:
        side = side_of(prompt)
        verbs = {c.verb for c in prompt.choices}
        if "move" in prompt.free_verbs:
            return self._activation(state, prompt)
        if "setup_done" in verbs:
            return Action(side, "setup_done", {})
        if "activate_formation" in verbs or "activate_general" in verbs:
            choices = listed(prompt)
            fresh = [a for a in choices if a.verb == "activate_formation" and self._has_fresh_units(state, a)]
            return fresh[0] if fresh else next((a for a in choices if a.verb == "pass"), None)
        choices = [a for a in listed(prompt) if a.verb != "choose_quality"]
        return choices[0] if choices else None

    def _has_fresh_units(self, state: GameState, action: Action) -> bool:
        """Whether the formation has a unit on the map not yet activated this turn (3.1)."""
        formation = action.args.get("formation")
        return any(
            u.on_map and u.activations == 0 and self.game.data.units[u.id].formation == formation
            for u in state.units.values()
        )

    def _activation(self, state: GameState, prompt: Prompt) -> Action | None:
        side = side_of(prompt)
        game = self.game
        actions = listed(prompt) + activation_actions(game, state, side)
        best_attack: tuple[float, Action] | None = None
        for action in sorted((a for a in actions if a.verb == "attack"), key=action_key):
            try:
                _, column, _ = chances_of(game.preview(state, side, action.args))
            except (ValueError, TypeError):
                continue
            ratio = column_ratio(column)
            if ratio >= THREE_TO_ONE and (best_attack is None or ratio > best_attack[0]):
                best_attack = (ratio, action)
        if best_attack is not None:
            return best_attack[1]
        duty = [a for a in actions if a.verb == "attack" and "end_activation" not in {c.verb for c in prompt.choices}]
        if duty:
            return duty[0]  # [4.2] a unit owing an attack makes it
        goals = objectives(game.data, state.scenario).distance[side]
        best_move: tuple[int, Action] | None = None
        for action in sorted((a for a in actions if a.verb in ("move", "enter")), key=action_key):
            unit = state.units[str(action.args.get("units") or action.args.get("unit"))]
            if unit.hex is not None and _in_contact(game, state, unit.hex, side):
                continue  # holds the line
            to = parse_hex(str(action.args.get("to") or action.args.get("at")))
            start = goals.get(unit.hex, FAR) if unit.hex is not None else FAR
            gain = start - goals.get(to, FAR)
            if gain > 0 and (best_move is None or gain > best_move[0]):
                best_move = (gain, action)
        if best_move is not None:
            return best_move[1]
        dig = next((a for a in sorted(actions, key=action_key) if a.verb == "enter_ip"), None)
        if dig is not None:
            return dig
        return next((a for a in actions if a.verb == "end_activation"), None)


def _in_contact(game: Referee, state: GameState, hex_: int, side: str) -> bool:
    pos = Position(game.data, state)
    return any((s := pos.side_at(n)) is not None and s != side for n in game.data.map.grid.neighbours(hex_))
