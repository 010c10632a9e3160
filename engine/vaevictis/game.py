"""The Vae Victis game as the engine contract: new game, prompts, apply, view, result.

The operations phase (2.1 step 5) is a state machine: the active side starts an activation (3.2, 3.3) or
passes; during an activation it moves, attacks, digs in or recovers units; it ends the activation, the
stacking limit is enforced (5), and the other side acts. Decisions that belong to either side in the middle
of a procedure (combat results, retreats, advances, stacking eliminations) sit on ``state.pending`` and are
asked for by prompts, so correspondence play never waits on an unspoken rule.

Every handler works on a copy of the state and either returns the new state with its events or raises
:class:`IllegalActionError` with the rule number; the input state is never changed.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from engine import arguments
from engine.contract import (
    Action,
    Choice,
    ComputerPlayer,
    Event,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    Prompt,
    Result,
)
from engine.hexgrid import Hex, hex_name
from engine.vaevictis import activation as act
from engine.vaevictis import (
    christmas,
    combat,
    control,
    detachments,
    doctrine,
    exits,
    garrisons,
    mines,
    movement,
    opening,
    set_up_defaults,
    setup_phase,
    stacking,
    stratagems,
    trucks,
    turn,
    variant,
    victory,
    zoc,
)
from engine.vaevictis import combat_command_support as cc_support
from engine.vaevictis import events as event_rules
from engine.vaevictis import initiative_stratagems as initiative
from engine.vaevictis import retreat as retreat_rules
from engine.vaevictis.combat_rules import has_snafu_vv60
from engine.vaevictis.data import SIDES, GameData, Side, other_side
from engine.vaevictis.known import known_position
from engine.vaevictis.odds import AttackPlan, action_cost, assess, defender_terrain_shifts, preview
from engine.vaevictis.pending_records import pending_records, push
from engine.vaevictis.rolls import dice_of
from engine.vaevictis.state import GameState, Position, UnitState
from engine.vaevictis.unseen_odds import unseen_preview
from engine.vaevictis.view import mark_events, seat_view, unseen_units

OPTIONS: dict[str, str] = {
    "c3i_snafu": "9.5 C3I and SNAFU (optional)",
    "fog_of_war": "11 Fog of war (optional)",
    "christmas_presents": "15.4 Christmas presents (optional)",
    "snafu_vv60": "9.5 SNAFUs of VV60 (optional)",
}
"""The optional rules of the Vae Victis games, each a game option, with the rule that defines it; a game offers
those its tables support (:func:`game_options`)."""


def game_options(data: GameData) -> dict[str, str]:
    """The options one game offers: those its data holds the tables of (Ardennes 1944's C3I table and
    Christmas presents are not Alsace 1944's; the VV60 SNAFUs need a ``[snafu_vv60]`` table, 9.5)."""
    offered = {
        "c3i_snafu": bool(data.tables.c3i),
        "fog_of_war": True,
        "christmas_presents": "christmas_presents" in data.extra,
        "snafu_vv60": has_snafu_vv60(data),
    }
    return {name: text for name, text in OPTIONS.items() if offered[name]}


def unsupported(data: GameData, scenario: str) -> list[str]:
    """What a scenario's data asks for that the engine cannot play: victory kinds, events without a handler;
    an empty list for a game the engine plays in full."""
    missing = victory.unsupported(data, scenario)
    missing += [f"the event '{e.name}'" for e in sorted(data.events.values(), key=lambda e: e.id) if not e.effect]
    return missing


Handler = Callable[[GameState, Side, Mapping[str, Any]], list[Event]]

GAME_VERBS: dict[str, str] = {"mine": "mines", "clear_mines": "mines", "trucks": "trucks"}
"""Activation verbs of a game whose set-up holds the table named (Alsace 1944 14, 17)."""

EVENT_VERBS = ("play_event", "remove_marker", "detach", "recombine", "mine_retreat")
TRUCK_ACTION_POINTS = 3
"""[16.1] US reinforcements entering by truck "have 3 AP for this turn only"."""

STANDING_ORDERS: dict[str, tuple[str, str]] = {
    "no-defence-supports": ("supports_done", "commit no support markers in defence"),
    "take-losses": ("take_loss", "take combat results as step losses rather than retreats"),
    "retreat": ("retreat", "retreat rather than take step losses, where a retreat is allowed"),
    "no-advance": ("end_advance", "never advance after combat"),
    "keep-rolls": ("keep_roll", "keep the combat die (no Christmas re-roll)"),
}
"""Orders a player may give in advance (DESIGN: standing orders answer prompts), each the verb it answers with."""
"""Actions that may come outside the main flow of prompts: events and detachments (15, 18)."""


def _fatigued_by_joining(state: GameState, attackers: Sequence[str]) -> GameState:
    """[3.5, 7.5] The state as the attack will find it: an attacker that joins the activation by attacking,
    already activated this turn, is fatigued as it joins (and halved), so the odds shown count it so. No die
    decides it; the state given is left as it is."""
    activation = state.activation
    joining = [
        u
        for u in attackers
        if activation is not None
        and u in state.units
        and u not in activation.units
        and state.units[u].activations >= 1
        and not state.units[u].fatigued
    ]
    if not joining:
        return state
    trial = state.copy()
    for unit_id in joining:
        trial.units[unit_id].fatigued = True
    return trial


REACTIONS: tuple[tuple[str, str, str, str], ...] = (
    ("play_event", "play an event", "15", "15.1"),
    ("remove_marker", "remove an enemy event marker", "15", "15.1"),
    mines.RETREAT_REACTION,
)
"""What each verb of an optional reaction offers, the rule its wording cites and the prompt's rule."""


def _reaction_prompt(side: Side, reactions: Sequence[Choice]) -> Prompt:
    """An optional prompt worded after what it offers: an event (15), mining a village a retreat left (14)."""
    offered = [(what, cite, rule) for verb, what, cite, rule in REACTIONS if any(c.verb == verb for c in reactions)]
    if len(offered) == 1:
        what, cite, _ = offered[0]
        text = f"You may {what} now ({cite})."
    else:
        text = "You may " + ", or ".join(f"{what} ({cite})" for what, cite, _ in offered) + " now."
    return Prompt(side, text, tuple(reactions), rule=offered[0][2], optional=True)


class VaeVictisGame:
    """One Vae Victis game system bound to its data (Ardennes 1944, Alsace 1944, ...)."""

    seats: tuple[Side, ...] = SIDES

    def __init__(self, data: GameData) -> None:
        self.data = data
        self.options = game_options(data)
        self._hq_ids = tuple(unit_id for unit_id, unit in data.units.items() if unit.is_hq)

    @property
    def computer_player(self) -> ComputerPlayer:
        """[30] The computer opponent for this game (engine/vaevictis/opponent): it plays either seat from that
        seat's view. Reading it also lets the shared ``opponent.COMPUTER_PLAYER`` play this game."""
        from engine.vaevictis.opponent import (
            register,
        )  # the opponent plays through this class (lazily: its package is heavy)

        return register(self)

    # --- New game ---------------------------------------------------------------------------------------

    def new_game(self, scenario: str, options: Mapping[str, Any], seed: bytes) -> GameState:
        """Set a scenario up: counters in place, pools filled, then the players' set-up phase if the scenario
        has one (Alsace 19.2, 19.4.1), else turn 1 ready for its first activation.

        :raises InvalidActionError: for an unknown scenario or option, or data the engine cannot play.
        """
        if scenario not in self.data.scenarios:
            raise InvalidActionError(
                f"no scenario {scenario!r} in {self.data.name}; choose one of {', '.join(self.data.scenarios)}"
            )
        unknown = set(options) - set(self.options)
        if unknown:
            raise InvalidActionError(
                f"{self.data.name} has no option(s) {', '.join(sorted(unknown))}; "
                f"its options are {', '.join(self.options)}"
            )
        if options.get("c3i_snafu") and options.get("snafu_vv60"):
            raise InvalidActionError("choose one SNAFU rule: c3i_snafu or snafu_vv60 (9.5)")
        missing = unsupported(self.data, scenario)
        if missing:
            raise InvalidActionError(
                f"{self.data.name} cannot be played yet: the engine lacks {'; '.join(missing)} (see its rules notes)"
            )
        state = GameState(
            game=self.data.id,
            scenario=scenario,
            options={name: bool(options.get(name, False)) for name in self.options},
            seed=seed.hex(),
        )
        for unit_id, definition in self.data.units.items():
            if detachments.is_detachment_marker(unit_id):
                continue  # 18: a detachment counter enters play only when it is created
            state.units[unit_id] = UnitState(id=unit_id, steps=definition.steps)
        for placement in self.data.setup:
            unit = state.units[placement.unit]
            unit.hex = placement.hex
            unit.arrived = True
            unit.improved_position = placement.improved_position
        garrisons.place(self.data, state)
        control.start(self.data, state)  # [Alsace 15.2] the French side of the front is French from the start
        for army_id in self.data.armies:
            state.pools[army_id] = {}
            state.returning[army_id] = {}
        for grant in self.data.support:
            if grant.turn == 0:
                pool = state.pools[grant.army]
                for kind, count in grant.markers.items():
                    pool[kind] = pool.get(kind, 0) + count
        state.events_left = {event.id: event.count for event in self.data.events.values()}
        turn.start_turn(self.data, state)
        variant.prepare(self.data, state)  # [Alsace 19.4] the variant's reinforcements wait for its groups
        setup_phase.prepare(self.data, state)  # [Alsace 19.2, 19.4.1] the players' set-up comes first
        set_up_defaults.prepare(self.data, state)  # [Alsace 19.4.1] a free set-up opens on a legal default
        self.advance(state)
        return state

    def advance(self, state: GameState) -> list[Event]:
        """Run the turn's automatic steps until a player must decide or the operations phase begins (2.1)."""
        events: list[Event] = []
        done = state.flags.setdefault("phase_done", [])
        while state.result is None:
            if state.phase == "setup":
                return events  # [Alsace 19.2, 19.4.1] the set-ups (and the variant's offensive effort) come first
            if state.phase == "air":
                if "air" not in done:
                    events += turn.air_phase(self.data, state)
                    done.append("air")
                if any(christmas.must_choose(self.data, state, side) for side in SIDES):
                    return events
                state.phase = "supply"
            elif state.phase == "supply":
                if "southern-front" not in done:
                    if "southern_front" in self.data.extra:  # a rule of the game's data (Ardennes 16.1)
                        events += turn.southern_front(self.data, state)
                    done.append("southern-front")
                # 1.3: a destroyed HQ returns before the statuses are checked (Ardennes 1944), or at the end of
                # the supply and command phase (Alsace 1944, the tables' [sequence] hq_returns).
                late = self.data.tables.raw.get("sequence", {}).get("hq_returns") == "end-of-supply-phase"
                if not late and turn.returning_hqs(self.data, state):
                    return events
                if self._air_supply_prompt(state) is not None:
                    return events
                if "statuses" not in done:
                    supplied_by_air = event_rules.air_supplied_units(self.data, state)
                    events += turn.supply_phase(self.data, state, air_supplied=supplied_by_air)
                    done.append("statuses")
                if late and turn.returning_hqs(self.data, state):
                    return events
                state.phase = "support"
            elif state.phase == "support":
                if any(self._support_due(state, side) for side in SIDES):
                    return events
                state.phase = "initiative"
            elif state.phase == "initiative":
                # [Alsace 2.1 step 3] The initiative stratagems: a sealed choice of each side holding one.
                if initiative.initiative_prompts(self.data, state):
                    return events
                if not initiative.initiative_decided(state):
                    events += initiative.resolve_initiative(self.data, state)
                if state.phase == "initiative":
                    events += turn.initiative_phase(self.data, state)
            else:
                return events
        return events

    # --- Prompts ----------------------------------------------------------------------------------------

    def prompts(self, state: GameState) -> dict[Side, Prompt]:
        """What each seat must or may decide now.

        A seat with only a chance to react (an event it may play now, 15) gets an ``optional`` prompt.
        """
        if state.result is not None:
            return {}
        prompts = self._required_prompts(state)
        if state.phase in ("operations", "supply"):
            for side in SIDES:
                reactions = self._event_choices(state, side)
                if not reactions:
                    continue
                if side in prompts:
                    # The seat already has a decision to make: its events stay open as free actions.
                    prompt = prompts[side]
                    free = tuple(dict.fromkeys((*prompt.free_verbs, *{c.verb for c in reactions})))
                    prompts[side] = Prompt(
                        prompt.seat, prompt.text, prompt.choices, free, prompt.secret, prompt.rule, prompt.optional
                    )
                else:
                    prompts[side] = _reaction_prompt(side, reactions)
        return prompts

    def _event_choices(self, state: GameState, side: Side) -> list[Choice]:
        """Events ``side`` may play now, and markers its activated units may remove (15.2, 15.3)."""
        if state.phase == "supply":
            drops = self.data.events_with_effect(event_rules.SUPPLY_DROP)
            return [c for c in event_rules.playable(self.data, state, side) if c.args.get("event") in drops]
        return [
            *event_rules.playable(self.data, state, side),
            *event_rules.removal_choices(self.data, state, side),
            *mines.retreat_choices(self.data, state, side),  # 14: mining the village a retreat left
        ]

    def _required_seats(self, state: GameState) -> tuple[Side, ...]:
        """The seats :meth:`_required_prompts` gives prompts to, in its order, without making their choices:
        what ``apply`` checks an action's seat against (the choices are made when the prompts are read)."""
        if state.pending:
            record = pending_records(state)[-1]
            if record["kind"] == stratagems.REACTION:
                return (other_side(record["side"]),)
            if record["kind"] == "stacking":
                return (record["side"],)
            return (combat.pending_seat(state),)
        if state.phase == "air":
            return tuple(side for side in SIDES if christmas.choices(self.data, state, side))
        if state.phase == "supply":
            returning = tuple(dict.fromkeys(self.data.side_of(h) for h in turn.returning_hqs(self.data, state)))
            return returning or tuple(self._air_supply_prompts(state))
        if state.phase == "support":
            return tuple(side for side in SIDES if self._support_due(state, side))
        if state.phase == "initiative":
            return tuple(initiative.initiative_prompts(self.data, state))
        if state.phase == "setup":
            side = setup_phase.setup_side(self.data, state)
            return (side,) if side is not None else tuple(variant.prompts(self.data, state))
        assert state.active is not None
        return (state.active,)

    def _required_prompts(self, state: GameState) -> dict[Side, Prompt]:
        if state.pending:
            prompt = self._pending_prompt(state)
            return {prompt.seat: prompt}  # type: ignore[dict-item]
        if state.phase == "air":
            return {side: p for side in SIDES if (p := self._christmas_prompt(state, side))}
        if state.phase == "supply":
            return self._hq_return_prompts(state) or self._air_supply_prompts(state)
        if state.phase == "support":
            return {side: p for side in SIDES if (p := self._support_prompt(state, side))}
        if state.phase == "initiative":
            return initiative.initiative_prompts(self.data, state)
        if state.phase == "setup":
            return setup_phase.prompts(self.data, state)
        side = state.active
        assert side is not None
        if state.activation is None:
            able = [fid for fid in self.data.formations if self._formation_can_activate(state, fid, side)]
            choices = [
                Choice("activate_formation", {"formation": fid}, f"Activate {self.data.formations[fid].name}")
                for fid in able
            ]
            choices += initiative.combined_choices(self.data, state, side, able)
            choices.append(Choice("activate_general", {}, "General activation"))
            choices.append(Choice("pass", {}, "Pass"))
            return {
                side: Prompt(
                    side,
                    f"Turn {state.turn}: your activation sequence. "
                    "Activate a formation, make a general activation, or pass.",
                    tuple(choices),
                    rule="2.1",
                )
            }
        verbs = (
            "move",
            "enter",
            "attack",
            "preview",
            "enter_ip",
            "leave_ip",
            "recover",
            "end_activation",
            "put_on_top",
            *(verb for verb, table in GAME_VERBS.items() if table in self.data.extra),
        )
        duty = self._duty_choices(state)
        text = "Act with your activated units, then end the activation."
        if duty:
            owing = dict.fromkeys(self.data.units[str(c.args["attackers"])].name for c in duty)
            text += f" {', '.join(owing)} must attack before the activation ends (4.2)."
        flips = [
            Choice("reveal_garrison", {"hex": hex_name(h)}, label) for h, label in garrisons.reveal_choices(state, side)
        ]
        choices = [
            *detachments.choices(self.data, state, side),
            *flips,
            *exits.choices(self.data, state, side),
            *(duty or [Choice("end_activation", {}, "End activation")]),
        ]
        return {side: Prompt(side, text, tuple(choices), verbs, rule="3.4")}

    def _formation_can_activate(self, state: GameState, formation_id: str, side: Side) -> bool:
        return act.formation_activation_problem(state, self.data, formation_id, side) is None

    def _pending_prompt(self, state: GameState) -> Prompt:
        record = pending_records(state)[-1]
        if record["kind"] == stratagems.REACTION:
            return stratagems.reaction_prompt(self.data, state)
        if record["kind"] == "stacking":
            side = record["side"]
            hexes = ", ".join(hex_name(h) for h in record["hexes"])
            pos = Position(self.data, state)
            choices = [
                Choice(
                    "eliminate",
                    {"hex": hex_name(h), "units": ",".join(ids)},
                    "Eliminate " + ", ".join(self.data.units[u].name for u in ids),
                )
                for h in record["hexes"]
                for ids in minimal_eliminations(pos, h, stacking.stacking_limit(self.data))
            ]
            return Prompt(
                side,
                f"Your stacks at {hexes} hold more than 6 steps: choose the units to eliminate (5).",
                tuple(choices),
                rule="5",
            )
        return combat.pending_prompt(self.data, state)

    # --- Apply ------------------------------------------------------------------------------------------

    def apply(self, state: GameState, action: Action) -> tuple[GameState, list[Event]]:
        """Apply one seat's action to a copy of the state.

        :raises NotYourTurnError: if the seat has nothing to decide now.
        :raises IllegalActionError: if the rules forbid the action, with the rule number.
        :raises InvalidActionError: if the action is malformed.
        """
        return self._apply(state, action, owned=False)

    def apply_owned(self, state: GameState, action: Action) -> tuple[GameState, list[Event]]:
        """:meth:`apply` for a caller that owns ``state`` and drops it (a replay from the set-up): the action
        may change ``state`` itself instead of a copy, which saves copying every unit at every action. Once it
        raises, ``state`` may be half changed: the caller must not use it again.

        :raises NotYourTurnError, IllegalActionError, InvalidActionError: as :meth:`apply`.
        """
        return self._apply(state, action, owned=True)

    def _apply(self, state: GameState, action: Action, *, owned: bool) -> tuple[GameState, list[Event]]:
        if action.seat not in self.seats:
            raise InvalidActionError(f"unknown seat {action.seat!r}")
        if state.result is not None:
            raise IllegalActionError("the game is over")
        if action.verb == "standing_orders":
            return self._set_standing_orders(state, action)
        if action.verb == "preview":
            raise InvalidActionError("an odds preview changes nothing: ask for it with VaeVictisGame.preview")
        required = self._required_seats(state)
        seat = action.seat
        if action.verb not in EVENT_VERBS and seat not in required:
            if state.phase in ("operations", "supply") and self._event_choices(state, seat):
                raise NotYourTurnError("the other side is acting; you may only play an event", "2.1")
            waiting = ", ".join(required) or "nobody"
            raise NotYourTurnError(f"it is not your decision now; waiting for: {waiting}")
        # Fog of war compares the position before the action with the one after it (11.1, mark_events).
        new = state if owned and not state.options.get("fog_of_war", False) else state.copy()
        if action.verb in EVENT_VERBS:
            # Events, marker removals and detachments check their own timing (15, 18).
            events = self._apply_event_action(new, seat, action)
        elif new.pending:
            events = self._apply_pending(new, action)
        elif new.phase != "operations":
            events = self._apply_phase_action(new, seat, action)
        else:
            handler = self._handlers().get(action.verb)
            if handler is None:
                raise InvalidActionError(f"{action.verb.replace('_', ' ')} is not an action of the operations phase")
            # [Alsace 15.3] A reactivation the enemy may stop with a stratagem waits for his answer.
            held = stratagems.reactivations(self.data, new, seat, action.verb, action.args)
            if held:
                self._check_held_action(new, seat, action)
                events = stratagems.open_window(self.data, new, seat, action.verb, action.args, held)
            else:
                events = handler(new, seat, action.args)
        events += variant.after_action(self.data, new, events)  # [Alsace 19.4.2] groups French moves trigger
        events += self._after_action(new)
        if new.result is None and not new.pending:
            events += victory.after_action(self.data, new)
        if new.phase != "operations" and not new.pending and new.result is None:
            events += self.advance(new)
        events += self._follow_standing_orders(new)
        mines.note_retreats(self.data, new, events)
        return new, mark_events(self.data, state, new, events)

    # --- Standing orders ----------------------------------------------------------------------------------

    def _set_standing_orders(self, state: GameState, action: Action) -> tuple[GameState, list[Event]]:
        """Record a seat's standing orders (any time, even when it is not the seat's decision)."""
        orders = arguments.names(action.args, "orders", required=False)
        unknown = [o for o in orders if o not in STANDING_ORDERS]
        if unknown:
            raise InvalidActionError(
                f"unknown standing order(s) {', '.join(unknown)}; the orders are {', '.join(STANDING_ORDERS)}"
            )
        new = state.copy()
        new.standing_orders[action.seat] = orders
        described = "; ".join(STANDING_ORDERS[o][1] for o in orders) or "none"
        event = Event("standing-orders", f"Standing orders: {described}.", {"orders": orders}, secret_to=(action.seat,))
        events = [event, *self._follow_standing_orders(new)]
        mines.note_retreats(self.data, new, events)  # 14: a retreat the orders made
        return new, events

    def _follow_standing_orders(self, state: GameState) -> list[Event]:
        """Answer combat prompts for which the deciding seat gave a standing order, until one needs a person."""
        events: list[Event] = []
        for _ in range(100):
            if state.result is not None or not state.pending:
                break
            seats = self._required_seats(state)
            if len(seats) != 1 or not state.standing_orders.get(seats[0]):
                break  # the prompt's choices are made only for a seat with orders to answer it
            side = seats[0]
            prompt = self._required_prompts(state)[side]
            choice = self._standing_choice(state, side, state.standing_orders[side], prompt.choices)
            if choice is None:
                break
            events.append(
                Event(
                    "standing-order",
                    f"Standing order of the {self.data.side_name(side)} player: {choice.label}.",
                    {"side": side},
                )
            )
            events += self._apply_pending(state, Action(side, choice.verb, dict(choice.args)))
            events += self._after_action(state)
            if not state.pending:
                events += victory.after_action(self.data, state)
        return events

    def _standing_choice(
        self, state: GameState, side: Side, orders: list[str], choices: tuple[Choice, ...]
    ) -> Choice | None:
        """The choice a standing order makes for ``side``, or None when a person must decide.

        ``retreat`` retreats rather than losing a step (7.6), so it takes the retreat that loses least: a hex
        out of enemy zones of control, the one whose terrain shifts the odds most for a defender there (7.4);
        where every retreat would enter an enemy zone of control, at a step a hex (7.7.1), the order gives way
        and the player takes the step instead (retreating would lose the step and the hex).
        """
        for order in orders:
            verb = STANDING_ORDERS[order][0]
            matching = [choice for choice in choices if choice.verb == verb]
            if not matching:
                continue
            if verb != "retreat":
                return matching[0]
            costs = self._retreat_costs(state, side, matching)
            best = min(matching, key=lambda choice: costs[id(choice)])
            if costs[id(best)][0] and any(choice.verb == "take_loss" for choice in choices):
                return None  # a person decides: every retreat costs a step anyway (7.7.1)
            return best
        return None

    def _retreat_costs(self, state: GameState, side: Side, retreats: list[Choice]) -> dict[int, tuple[int, int]]:
        """What each retreat choice loses, least first when sorted: 1 for a hex in an enemy zone of control (a
        step, 7.7.1), then the defender's terrain shifts there (7.4; a shift left, negative, shelters)."""
        pos = Position(self.data, state)
        control = zoc.enemy_zoc(pos, side)
        costs: dict[int, tuple[int, int]] = {}
        for choice in retreats:
            to = int(str(choice.args["to"]))
            shelter = sum(m.amount for m in defender_terrain_shifts(self.data, to, side))
            costs[id(choice)] = (1 if retreat_rules.is_in_enemy_zoc(pos, side, to, control) else 0, shelter)
        return costs

    def _apply_event_action(self, state: GameState, side: Side, action: Action) -> list[Event]:
        """[15, 18] Events played, markers removed, detachments made or recombined."""
        args = action.args
        if action.verb == "play_event":
            event_id = arguments.text(args, "event")
            played = event_rules.play(self.data, state, side, event_id, args)
            if event_rules.effect_of(self.data, event_id) == event_rules.SUPPLY_DROP:
                state.flags.setdefault("phase_done", []).append("air-supply-decided")
            return played
        if action.verb == "mine_retreat":
            return mines.mine_after_retreat(
                self.data,
                state,
                side,
                arguments.text(args, "unit"),
                arguments.hex_number(args, "hex", self.data.map.grid),
            )
        if action.verb == "remove_marker":
            # [3.1] Removing a marker may bring a unit into the activation: a reactivation the enemy may stop
            # with a stratagem (Alsace 15.3) waits for his answer, as a move would.
            held = stratagems.reactivations(self.data, state, side, action.verb, args)
            if held:
                self._check_held_action(state, side, action)
                return stratagems.open_window(self.data, state, side, action.verb, args, held)
            return self._remove_marker(state, side, args)
        if not self.data.detachments:  # a game without detachment markers (Alsace 1944)
            raise IllegalActionError(f"{self.data.name} has no detachments")
        if state.activation is None or state.activation.side != side or state.pending:
            raise IllegalActionError("detachments are made during the activation of their division", "18")
        if action.verb == "detach":
            steps = arguments.whole(args, "steps", 0) or None
            return detachments.detach(self.data, state, side, arguments.text(args, "division"), steps)
        return detachments.recombine(self.data, state, side, arguments.text(args, "detachment"))

    def _air_supply_prompts(self, state: GameState) -> dict[Side, Prompt]:
        prompt = self._air_supply_prompt(state)
        return {"allied": prompt} if prompt else {}

    def _air_supply_prompt(self, state: GameState) -> Prompt | None:
        """[15.3] On a clear turn, before statuses are checked, the Allies may air-supply a stack."""
        if "air-supply-decided" in state.flags.get("phase_done", []):
            return None
        drops = self.data.events_with_effect(event_rules.SUPPLY_DROP)
        choices = [c for c in event_rules.playable(self.data, state, "allied") if c.args.get("event") in drops]
        if not choices:
            return None
        return Prompt(
            "allied",
            "Supply phase: you may play Air Supply on a stack before supply is checked (15.3).",
            (*choices, Choice("decline_air_supply", {}, "No air supply this turn")),
            rule="15.3",
        )

    def _after_action(self, state: GameState) -> list[Event]:
        """Facts to note after any action: the turn an HQ was destroyed (1.3), the first German across the
        Meuse (16.2), event markers whose hex no longer qualifies (15.3 Nuts!)."""
        tidied = event_rules.tidy_markers(self.data, state)
        control.note_positions(self.data, state)  # 18, 15.2: hexes a side's units have passed through
        if not state.meuse_crossed and turn.german_crossed_objective_river(self.data, state):
            state.meuse_crossed = True
        for unit_id in self._hq_ids:  # in the order of state.units, which is the data's (detachments are no HQs)
            unit = state.units.get(unit_id)
            if unit is not None and unit.eliminated and unit_id not in state.hq_destroyed:
                state.hq_destroyed[unit_id] = state.turn
        return tidied

    # --- The phases before operations ---------------------------------------------------------------------

    def _apply_phase_action(self, state: GameState, side: Side, action: Action) -> list[Event]:
        args = action.args
        if state.phase == "supply" and action.verb == "decline_air_supply":
            state.flags.setdefault("phase_done", []).append("air-supply-decided")
            drop = min(self.data.events_with_effect(event_rules.SUPPLY_DROP), default="event")
            return [Event(drop, "The Allies send no air supply this turn.", {"rule": "15.3"})]
        if state.phase == "supply" and action.verb == "place_hq":
            return turn.place_hq(
                self.data,
                state,
                side,
                arguments.text(args, "hq"),
                arguments.hex_number(args, "hex", self.data.map.grid),
            )
        if state.phase == "support" and action.verb == "allot":
            return turn.allot(self.data, state, side, arguments.text(args, "hq"), arguments.text(args, "marker"))
        if state.phase == "setup" and action.verb == "place":
            unit_id = arguments.text(args, "unit")
            if unit_id not in self.data.units:
                raise InvalidActionError(f"there is no unit {unit_id!r}")
            return setup_phase.place(
                self.data, state, side, unit_id, arguments.hex_number(args, "hex", self.data.map.grid)
            )
        if state.phase == "setup" and action.verb == "setup_done":
            events = setup_phase.setup_done(self.data, state, side)
            set_up_defaults.prepare(self.data, state)  # [19.4.1] the next side's free set-up opens on a default
            return events
        if state.phase == "setup" and action.verb == "offensive_effort":
            if setup_phase.setup_side(self.data, state) is not None:
                raise IllegalActionError("the French announce their effort once both sides have set up", "19.4.1")
            heavy, divisions = variant.effort_args(args)
            return variant.announce_effort(self.data, state, side, heavy, divisions)
        if state.phase == "initiative" and action.verb == "initiative_stratagem":
            return initiative.decide(self.data, state, side, arguments.flag(args, "play"))
        if state.phase == "support" and action.verb == "attach":
            cc, formation = arguments.text(args, "combat_command"), arguments.text(args, "formation")
            return doctrine.attach(self.data, state, side, cc, formation)
        if state.phase == "support" and action.verb == "allot_combat_command":
            return cc_support.allot(self.data, state, side, arguments.text(args, "cc"), arguments.text(args, "marker"))
        if state.phase == "support" and action.verb == "end_support":
            state.flags.setdefault("support_done", []).append(side)
            return [
                Event(
                    "support-done",
                    f"The {self.data.side_name(side)} player has allotted its support markers.",
                    {"side": side},
                )
            ]
        if state.phase == "air" and action.verb == "christmas":
            return christmas.choose(self.data, state, side, arguments.text(args, "present"), args)
        raise InvalidActionError(f"{action.verb.replace('_', ' ')} is not an action of the {state.phase} phase")

    def _christmas_prompt(self, state: GameState, side: Side) -> Prompt | None:
        """[15.4] Turn 5, optional rule: each player chooses one Christmas present."""
        choices = christmas.choices(self.data, state, side)
        if not choices:
            return None
        return Prompt(side, "Christmas (15.4): choose your present.", tuple(choices), rule="15.4")

    def _hq_return_prompts(self, state: GameState) -> dict[Side, Prompt]:
        prompts: dict[Side, Prompt] = {}
        for hq_id in turn.returning_hqs(self.data, state):
            side = self.data.side_of(hq_id)
            if side in prompts:
                continue
            hexes = turn.hq_placement_hexes(self.data, state, hq_id)
            prompts[side] = Prompt(
                side,
                f"{self.data.units[hq_id].name} returns: place it on a hex out of enemy zones of control where it "
                "is supplied (1.3).",
                tuple(Choice("place_hq", {"hq": hq_id, "hex": hex_name(h)}, hex_name(h)) for h in hexes),
                rule="1.3",
            )
        return prompts

    def _support_due(self, state: GameState, side: Side) -> bool:
        """Whether ``side`` has a support prompt (:meth:`_support_prompt` is not ``None``), asking the cheap
        questions first and stopping at the first choice found."""
        if side in state.flags.get("support_done", []):
            return False
        return bool(
            turn.support_choices(self.data, state, side)
            or cc_support.choices(self.data, state, side)
            or doctrine.attachment_choices(self.data, state, side)
        )

    def _support_prompt(self, state: GameState, side: Side) -> Prompt | None:
        if side in state.flags.get("support_done", []):
            return None
        choices = turn.support_choices(self.data, state, side) + cc_support.choices(self.data, state, side)
        choices += [
            Choice(
                "attach",
                {"combat_command": cc, "formation": formation},
                f"attach {cc.upper()} to {self.data.formations[formation].name} (9.2)",
            )
            for cc, formation in doctrine.attachment_choices(self.data, state, side)
        ]
        if not choices:
            return None
        return Prompt(
            side,
            "Support phase: allot support markers from your armies' pools to your HQs, up to each HQ's rating (1.6).",
            (*choices, Choice("end_support", {}, "Done")),
            rule="1.6",
        )

    def _handlers(self) -> dict[str, Handler]:
        return {
            "activate_formation": self._activate_formation,
            "activate_general": self._activate_general,
            "pass": self._pass,
            "move": self._move,
            "enter": self._enter,
            "attack": self._attack,
            "enter_ip": self._enter_ip,
            "leave_ip": self._leave_ip,
            "recover": self._recover,
            "end_activation": self._end_activation,
            "put_on_top": self._put_on_top,
            "reveal_garrison": self._reveal_garrison,
            "exit_map": self._exit_map,
            "mine": self._mine,
            "clear_mines": self._clear_mines,
            "trucks": self._trucks,
            "remove_marker": self._remove_marker,
        }

    def _remove_marker(self, state: GameState, side: Side, args: Mapping[str, Any]) -> list[Event]:
        """[15.2, 15.3] A unit next to an enemy Stosser or Roadblock spends 1 AP to remove it, joining the
        activation in progress if it was not in it yet (3.1)."""
        return event_rules.remove_marker(
            self.data, state, side, arguments.text(args, "unit"), arguments.hex_number(args, "hex", self.data.map.grid)
        )

    def _apply_pending(self, state: GameState, action: Action) -> list[Event]:
        record = pending_records(state)[-1]
        if record["kind"] == stratagems.REACTION:
            if action.verb != "react":
                raise IllegalActionError("answer first: play the stratagem or let the reactivation happen", "15.3")
            events, held = stratagems.answer_reaction(
                self.data, state, seat_of(action), arguments.flag(action.args, "play")
            )
            if held is not None:
                events += self._handlers()[held["verb"]](state, held["side"], held["args"])
            return events
        if record["kind"] == "stacking":
            if action.verb != "eliminate":
                raise IllegalActionError("first bring your overstacked hexes down to 6 steps", "5")
            hex_ = arguments.hex_number(action.args, "hex", self.data.map.grid)
            if hex_ not in record["hexes"]:
                raise IllegalActionError(f"{hex_name(hex_)} is not overstacked", "5")
            events = stacking.eliminate_excess(state, self.data, hex_, arguments.names(action.args, "units"))
            record["hexes"].remove(hex_)
            if not record["hexes"]:
                state.pending.pop()
                events += self._after_activation(state)
            return events
        return combat.apply_pending(self.data, state, action)

    # --- Handlers: the activation sequence ---------------------------------------------------------------

    def _activate_formation(self, state: GameState, side: Side, args: Mapping[str, Any]) -> list[Event]:
        self._no_activation(state)
        formation_id = arguments.text(args, "formation")
        also = arguments.optional_text(args, "also")
        if also is not None:
            # [Alsace 15.2] The corps HQ stratagem's first activation takes a second formation along.
            if also == formation_id or not self._formation_can_activate(state, also, side):
                raise IllegalActionError(f"{also!r} cannot be activated with {formation_id!r} now", "15.2")
            initiative.start_combined(self.data, state, side, also)
        events = act.start_formation_activation(state, self.data, formation_id)
        events += initiative.activation_started(state, "formation")
        if also is not None:
            second = self.data.formations[also]
            assert second.hq is not None
            hq = state.units[second.hq]
            events.append(
                Event("activation", f"{self.data.side_name(side)} activates {second.name} too.", {"formation": also})
            )
            events += act.join(state, self.data, hq, dice=None, arriving=not hq.on_map)
        if side == "german" and act.in_german_opening_run(state, self.data):
            state.flags.setdefault("turn1_german_armies", []).append(self.data.formations[formation_id].army)
        return events

    def _activate_general(self, state: GameState, side: Side, args: Mapping[str, Any]) -> list[Event]:
        self._no_activation(state)
        state.flags["turn1_run_over"] = True  # 17.1: the run of three formation activations ends here
        events = act.start_general_activation(state, self.data)
        return events + initiative.activation_started(state, "general")

    def _no_activation(self, state: GameState) -> None:
        if state.activation is not None:
            raise IllegalActionError("an activation is already in progress: end it first", "2.1")

    def _pass(self, state: GameState, side: Side, args: Mapping[str, Any]) -> list[Event]:
        self._no_activation(state)
        state.flags["turn1_run_over"] = True
        events = [Event("pass", f"The {self.data.side_name(side)} player passes.", {"side": side})]
        return events + self._count_pass(state, side)

    def _count_pass(self, state: GameState, side: Side) -> list[Event]:
        """[2.2] Count a pass of ``side``: a second pass in succession (or a pass once the other side has
        activated everything) ends the operations, else the other side is to play."""
        initiative.run_over(state)
        state.consecutive_passes += 1
        if state.consecutive_passes >= 2 or self._has_activated_everything(state, other_side(side)):
            return self._end_operations(state)
        state.active = other_side(side)
        return []

    def _activated_unit(
        self, state: GameState, side: Side, unit_id: str, action_points: int | None = None
    ) -> tuple[UnitState, list[Event]]:
        """The unit, joined to the activation in progress if it was not yet (3.1), with the events of joining;
        ``action_points``: the APs a rule gives it for this activation instead (16.1 trucks)."""
        unit = self._unit(state, {"unit": unit_id}, "unit", side)
        if state.activation is None:
            raise IllegalActionError(
                "no activation is in progress: activate a formation or make a general activation", "3.1"
            )
        if unit.id in state.activation.units:
            return unit, []
        dice = dice_of(state)
        events = act.join(state, self.data, unit, dice, action_points=action_points)
        state.rolls_made = dice.rolls_made
        return unit, events

    def _move(self, state: GameState, side: Side, args: Mapping[str, Any]) -> list[Event]:
        unit_ids = arguments.names(args, "units")
        target = arguments.hex_number(args, "to", self.data.map.grid)
        units, events = [], []
        for unit_id in unit_ids:
            unit, joined = self._activated_unit(state, side, unit_id)
            units.append(unit)
            events += joined
        for unit in units:
            self._check_may_move(state, unit)
        starts = {u.hex for u in units}
        if len(starts) != 1:
            raise IllegalActionError("units moving together must start in the same hex", "6.1")
        path = (
            [arguments.hex_on_map(p, self.data.map.grid, "path") for p in arguments.names(args, "path")]
            if "path" in args
            else None
        )
        brigade = set(event_rules.brigade_150_units(state))
        if brigade and set(unit_ids) <= brigade:
            return events + self._move_with_brigade(state, side, unit_ids, target, path)
        if path is not None:
            route = movement.check_move(self.data, state, unit_ids, path)
        else:
            destinations = movement.legal_destinations(self.data, state, unit_ids, target=target)
            if target not in destinations:
                start = next(iter(starts))
                assert start is not None
                if self.data.map.grid.are_adjacent(start, target):
                    movement.check_move(self.data, state, unit_ids, [start, target])  # raises with the reason
                names = ", ".join(self.data.units[u].name for u in unit_ids)
                left = min(state.units[u].action_points for u in unit_ids)
                why, rule = movement.unreachable_reason(self.data, state, unit_ids, target)
                raise IllegalActionError(
                    f"{names} cannot reach {hex_name(target)} this activation with {left} AP left: {why}", rule
                )
            route = destinations[target]
        self._check_british_restriction(state, unit_ids, route.path)
        stratagems.note_passage(self.data, state, side, unit_ids, route.path)
        # The route was just found or checked on this state: applying it needs no second check.
        return events + movement.apply_move(self.data, state, unit_ids, route, fresh=True)

    def _move_with_brigade(
        self, state: GameState, side: Side, unit_ids: list[str], target: Hex, path: list[Hex] | None
    ) -> list[Event]:
        """[15.2] A stack with the 150 Pz Brigade marker moves through enemy zones of control, rolling 1d6 for
        each zone it enters: on 5-6 it goes on; otherwise the marker is gone and the zone stops it there, as
        the normal rules say (or just before it, where the normal rules would not let it enter). The move
        goes the same way whether the player names its ``path`` or only its destination."""
        if path is not None:
            route = movement.check_move(self.data, state, unit_ids, path, ignore_zoc=True)
        else:
            free = movement.legal_destinations(self.data, state, unit_ids, ignore_zoc=True, target=target)
            if target not in free:
                why, rule = movement.unreachable_reason(self.data, state, unit_ids, target)
                raise IllegalActionError(f"{hex_name(target)} cannot be reached this activation: {why}", rule)
            route = free[target]
        self._check_british_restriction(state, unit_ids, route.path)
        control = zoc.enemy_zoc(Position(self.data, state), side)
        events: list[Event] = []
        previous: set[str] = control.get(route.path[0], set())
        for index, hex_ in enumerate(route.path[1:], start=1):
            here = control.get(hex_, set())
            entering = bool(here) and not here <= previous
            previous = here
            if not entering:
                continue
            allowed, rolled = event_rules.brigade_150_allows(self.data, state, unit_ids)
            events += rolled
            if allowed:
                continue
            for cut in (index + 1, index):
                if cut < 2:
                    return events
                try:
                    stopped = movement.check_move(self.data, state, unit_ids, route.path[:cut])
                except IllegalActionError:
                    continue
                return events + movement.apply_move(self.data, state, unit_ids, stopped)
            return events
        return events + movement.apply_move(self.data, state, unit_ids, route, ignore_zoc=True)

    def _check_british_restriction(self, state: GameState, unit_ids: list[str], path: tuple[Hex, ...]) -> None:
        """[16.2] British reinforcements other than the 29th Armoured Brigade (the British independent) stay west
        of the Meuse until a German unit crosses it."""
        from engine.vaevictis.geography import beyond_meuse, objective_river

        bound = [
            u
            for u in unit_ids
            if self.data.nationality_of(u) == "british"
            and not self.data.formations[self.data.units[u].formation].independent
        ]
        if not bound or state.meuse_crossed:
            return
        west = beyond_meuse(self.data)
        if any(h not in west for h in path):
            river = objective_river(self.data)
            raise IllegalActionError(
                f"{self.data.units[bound[0]].name} may not cross to the east side of the {river}"
                " until a German unit has",
                "16.2",
            )

    def _check_may_move(self, state: GameState, unit: UnitState) -> None:
        name = self.data.units[unit.id].name
        if unit.cannot_move:
            raise IllegalActionError(
                f"{name} began the game next to a German unit and cannot move on turn 1", self.data.rule("17.1")
            )
        if not unit.on_map:
            raise IllegalActionError(
                f"{name} is not on the map: use 'enter' for a reinforcement", self.data.rule("16.1")
            )
        if unit.improved_position:
            raise IllegalActionError(f"{name} is in an Improved Position: leave it first (no AP cost)", "12.1")

    def _enter(self, state: GameState, side: Side, args: Mapping[str, Any]) -> list[Event]:
        """[16.1] A reinforcement enters the map at one of its entry hexes, as a move action."""
        unit_id = arguments.text(args, "unit")
        entry = arguments.hex_number(args, "at", self.data.map.grid)
        target = arguments.hex_number(args, "to", self.data.map.grid) if "to" in args else entry
        unit = self._unit(state, args, "unit", side)
        arrival = variant.reinforcement_of(self.data, state, unit_id)
        if arrival is None or unit.arrived:
            raise IllegalActionError(
                f"{self.data.units[unit_id].name} is not a reinforcement waiting to enter", self.data.rule("16.1")
            )
        due = self._arrival_turn(state, unit_id)
        if due > state.turn:
            raise IllegalActionError(f"{self.data.units[unit_id].name} arrives on turn {due}", self.data.rule("16.1"))
        allowed_hexes = turn.entry_hexes_for(self.data, state, unit_id)
        if entry not in allowed_hexes:
            allowed = " or ".join(hex_name(h) for h in allowed_hexes) or "no free entry hex this turn"
            raise IllegalActionError(f"{self.data.units[unit_id].name} enters at {allowed}", self.data.rule("16.1"))
        unit.arrived = True
        us_trucks = arrival.trucks and self.data.nationality_of(unit_id) == "us"
        _, events = self._activated_unit(state, side, unit_id, TRUCK_ACTION_POINTS if us_trucks else None)
        if us_trucks:
            state.flags.setdefault("trucks", []).append(unit_id)  # 16.1: trucks for this turn only
        elif arrival.trucks and "trucks" in self.data.extra:
            trucks.motorize(self.data, state, unit, cap=arrival.action_points)  # 18.1: rule 17, first activation
        entered = state.flags.setdefault("entered_at", {})
        already = entered.get(str(entry), 0)
        destinations = movement.legal_destinations(
            self.data,
            state,
            [unit_id],
            entering_at=entry,
            entered_already=already,
            trucks=us_trucks,
            target=target,
        )
        if target not in destinations:
            unit.arrived = False
            why, rule = movement.entry_refusal(self.data, state, unit_id, entry, target, already, us_trucks)
            raise IllegalActionError(why, rule)
        entered[str(entry)] = already + 1
        self._check_british_restriction(state, [unit_id], destinations[target].path)
        stratagems.note_passage(self.data, state, side, [unit_id], destinations[target].path)
        return events + movement.apply_move(
            self.data,
            state,
            [unit_id],
            destinations[target],
            entering_at=entry,
            entered_already=already,
            trucks=us_trucks,
            fresh=True,
        )

    def _attack(self, state: GameState, side: Side, args: Mapping[str, Any]) -> list[Event]:
        plan = self.attack_plan(state, side, args)
        events = []
        for unit_id in plan.attackers:
            unit, joined = self._activated_unit(state, side, unit_id)
            unit.movement_points = 0.0
            events += joined
        # [16] The attack is declared with its supports: the face-down garrisons it targets are flipped first.
        flipped: list[Event] = []
        if any(garrisons.face_down_at(state, h) for h in plan.targets):
            self._check_attack(state, plan)  # nothing is flipped for an attack the rules forbid
            flipped = garrisons.reveal_attacked(self.data, state, plan.targets)
        events += flipped
        stratagems.attack_declared(state, side, plan.target)  # [Alsace 15.3] the FFI's bridge serves one combat
        if flipped and all(not state.units_at(h) for h in plan.targets):
            events += garrisons.attack_on_emptied_hex(self.data, state, plan, action_cost(self.data, plan.kind))
        else:
            events += combat.begin_attack(self.data, state, plan)
        stratagems.attack_begun(state)
        return events

    def _check_held_action(self, state: GameState, seat: Side, action: Action) -> None:
        """The action a reactivation window holds must be legal now: it is tried on a copy first (a refusal
        names its rule and nothing is held)."""
        trial = state.copy()
        self._handlers()[action.verb](trial, seat, action.args)

    def _check_attack(self, state: GameState, plan: AttackPlan) -> None:
        """[7.1, 3.4.1] Raise unless the attack is legal and every attacker has the APs for it."""
        assess(self.data, state, plan)
        cost = action_cost(self.data, plan.kind)
        for unit_id in plan.attackers:
            left = state.units[unit_id].action_points
            if left < cost:
                name = self.data.units[unit_id].name
                raise IllegalActionError(f"{name} has {left} AP left; a {plan.kind} attack costs {cost}", "3.4.1")

    def _exit_map(self, state: GameState, side: Side, args: Mapping[str, Any]) -> list[Event]:
        """[Alsace 19.2] Activated units on an exit hex leave the map (a move action)."""
        unit_ids = arguments.names(args, "units")
        for unit_id in unit_ids:
            self._unit(state, {"unit": unit_id}, "unit", side)
        return exits.exit_map(self.data, state, side, unit_ids)

    def _reveal_garrison(self, state: GameState, side: Side, args: Mapping[str, Any]) -> list[Event]:
        """[16] The German player flips a face-down garrison during one of his activations."""
        return garrisons.reveal_by_choice(self.data, state, side, arguments.hex_number(args, "hex", self.data.map.grid))

    def attack_plan(self, state: GameState, side: Side, args: Mapping[str, Any]) -> AttackPlan:
        """Read an attack's arguments into a plan (shared by the attack and its odds preview)."""
        kind = arguments.text(args, "kind", "normal")
        if kind not in ("normal", "prepared"):
            raise InvalidActionError(f"an attack is 'normal' or 'prepared', not {kind!r}")
        attack_kind: Literal["normal", "prepared"] = "prepared" if kind == "prepared" else "normal"
        supports = [tuple(s.split(":", 1)) for s in arguments.names(args, "supports", required=False)]
        if any(len(s) != 2 for s in supports):
            raise InvalidActionError("supports are given as hq-id:marker-kind, separated by commas")
        attackers = tuple(arguments.names(args, "attackers"))
        # [7.2] One target hex, or several separated by commas ("0203,0204"), attacked in one combat.
        targets = tuple(arguments.hex_on_map(t, self.data.map.grid, "target") for t in arguments.names(args, "target"))
        return AttackPlan(
            side=side,
            kind=attack_kind,
            attackers=attackers,
            targets=targets,
            supports=tuple((s[0], s[1]) for s in supports),
            air=arguments.whole(args, "air", 0),
            # [7.4] The attacker chooses the unit whose quality he uses (and which takes his first loss).
            attacker_quality=arguments.optional_text(args, "quality"),
        )

    def preview(self, state: GameState, side: Side, args: Mapping[str, Any]) -> Any:
        """[7.5] The odds of a proposed attack: column, every modifier with its source, each result's chance.

        Changes nothing and rolls nothing.
        """
        plan = self.attack_plan(state, side, args)
        state = _fatigued_by_joining(state, plan.attackers)
        # [16] A face-down garrison's values are nobody's to know: it counts as unseen, fog of war or not.
        hidden = set(garrisons.face_down(state))
        if state.options.get("fog_of_war") or hidden:
            # [11.1] Defenders the attacker may not inspect count, unseen, until the attack is declared.
            unseen = unseen_preview(self.data, state, plan, unseen_units(self.data, state)[side] | hidden)
            if unseen is not None:
                return unseen
        return preview(self.data, state, plan)

    def _check_hq_only_moves(self, state: GameState, side: Side, unit_id: str) -> None:
        """[3.3] In a general activation an HQ may only move (an unknown unit id is refused first)."""
        self._unit(state, {"unit": unit_id}, "unit", side)
        if self.data.units[unit_id].is_hq and state.activation is not None and state.activation.kind == "general":
            raise IllegalActionError(
                f"{self.data.units[unit_id].name} is in a general activation and may only move", "3.3"
            )

    def _enter_ip(self, state: GameState, side: Side, args: Mapping[str, Any]) -> list[Event]:
        self._check_hq_only_moves(state, side, arguments.text(args, "unit"))
        unit, events = self._activated_unit(state, side, arguments.text(args, "unit"))
        controlled = set(zoc.enemy_zoc(Position(self.data, state), side))
        events += act.enter_improved_position(state, self.data, unit, controlled)
        unit.movement_points = 0.0  # 6.1: only consecutive move actions pool their MPs
        return events

    def _mine(self, state: GameState, side: Side, args: Mapping[str, Any]) -> list[Event]:
        """[14] An activated infantry unit mines the village it stands in (1 AP)."""
        self._check_game_has("mines", "booby traps and mines")
        unit, events = self._activated_unit(state, side, arguments.text(args, "unit"))
        return events + mines.mine(self.data, state, unit)

    def _clear_mines(self, state: GameState, side: Side, args: Mapping[str, Any]) -> list[Event]:
        """[14] An activated unit clears the enemy's mines in its hex (1 AP); its MPs are kept (6.1)."""
        self._check_game_has("mines", "booby traps and mines")
        unit, events = self._activated_unit(state, side, arguments.text(args, "unit"))
        return events + mines.clear(self.data, state, unit)

    def _trucks(self, state: GameState, side: Side, args: Mapping[str, Any]) -> list[Event]:
        """[17] The side's Trucks counter motorizes an infantry battalion for this activation."""
        self._check_game_has("trucks", "Trucks counter")
        unit, events = self._activated_unit(state, side, arguments.text(args, "unit"))
        return events + trucks.use(self.data, state, unit)

    def _check_game_has(self, table: str, what: str) -> None:
        """A verb of a rule the game does not have (Alsace 1944's mines and trucks in Ardennes 1944) is refused
        without a rule number: the game's book has none for it."""
        if table not in self.data.extra:
            raise IllegalActionError(f"{self.data.name} has no {what}")

    def _leave_ip(self, state: GameState, side: Side, args: Mapping[str, Any]) -> list[Event]:
        unit = self._unit(state, args, "unit", side)
        return act.leave_improved_position(state, self.data, unit)

    def _recover(self, state: GameState, side: Side, args: Mapping[str, Any]) -> list[Event]:
        self._check_hq_only_moves(state, side, arguments.text(args, "unit"))
        unit, events = self._activated_unit(state, side, arguments.text(args, "unit"))
        events += act.recover_fatigue(state, self.data, unit)
        unit.movement_points = 0.0
        return events

    def _owing_an_attack(self, state: GameState) -> list[UnitState]:
        """[4.2] The activation's units that entered an enemy zone of control and still owe an attack they can
        make: the duty cannot demand an attack the rules forbid (a mechanized unit with no road into the
        defender's hex, Alsace 7.1), so a unit without any legal attack on a unit exerting that zone is let off."""
        return [u for u in act.units_owing_an_attack(state, self.data) if combat.duty_attacks(self.data, state, u)]

    def _duty_choices(self, state: GameState) -> list[Choice]:
        """[4.2] The attacks that meet the duty of each unit owing one, offered in place of ending the
        activation (which the duty forbids)."""
        choices = []
        for unit in act.units_owing_an_attack(state, self.data):
            name = self.data.units[unit.id].name
            for target, kind in combat.duty_attacks(self.data, state, unit):
                args = {"kind": kind, "attackers": unit.id, "target": hex_name(target)}
                choices.append(Choice("attack", args, f"{name} attacks {hex_name(target)} ({kind})"))
        return choices

    def _end_activation(self, state: GameState, side: Side, args: Mapping[str, Any]) -> list[Event]:
        if state.activation is None:
            raise IllegalActionError("no activation is in progress", "2.1")
        owing = self._owing_an_attack(state)
        if owing:
            names = ", ".join(self.data.units[u.id].name for u in owing)
            raise IllegalActionError(f"{names} entered an enemy zone of control and must attack first", "4.2")
        events = [
            Event("end-activation", f"The {self.data.side_name(side)} player ends the activation.", {"side": side})
        ]
        over = stacking.overstacked_hexes(Position(self.data, state), side)
        if over:
            push(state, {"kind": "stacking", "side": side, "hexes": sorted(over)})
            return events
        return events + self._after_activation(state)

    def _after_activation(self, state: GameState) -> list[Event]:
        """The sequence is over: clear APs, count it, and hand over to the other side (2.1, 2.2)."""
        assert state.activation is not None
        side = state.activation.side
        for unit_id in state.activation.units:
            unit = state.units[unit_id]
            unit.action_points = 0
            unit.movement_points = 0.0
            unit.must_attack = False
        ended = event_rules.end_of_activation(self.data, state)
        if not state.activation.units:
            # [2.1, 2.2] A sequence that activated no unit is a pass ("pass and not activate any units"):
            # counted as one, or two players could alternate empty general activations for ever.
            state.activation = None
            state.sequences_this_turn += 1
            state.flags.pop("entered_at", None)
            text = f"The {self.data.side_name(side)} player activated no unit: the sequence counts as a pass."
            return [*ended, Event("pass", text, {"side": side, "rule": "2.2"}), *self._count_pass(state, side)]
        keeps = initiative.keeps_the_hand(state, side, state.activation.kind)
        state.activation = None
        state.consecutive_passes = 0
        state.sequences_this_turn += 1
        state.flags.pop("entered_at", None)
        if self._german_turn1_run(state, side) or keeps:
            return ended
        if self._has_activated_everything(state, other_side(side)):
            if self._activations_to_end_turn() > 1 and self._has_activated_everything(state, side):
                return ended + self._end_operations(state)  # 2.2: nobody has a unit left to activate
            return ended + self._series_roll(state, side)
        state.active = other_side(side)
        return ended

    def _has_activated_everything(self, state: GameState, side: Side) -> bool:
        """[2.2] Whether every unit of a side on the map (or due to arrive) has been activated this turn: once,
        or as often as the tables' ``[turn_end] activations`` say (Alsace 1944: twice, fatiguing them). A
        fatigued unit already activated cannot be activated again (3.5.2); counters that never act (12.2, 16)
        and units the scenario holds back this turn (19.2) are not waited for."""
        needed = self._activations_to_end_turn()
        for unit_id, unit in state.units.items():
            if self.data.side_of(unit_id) != side or unit.eliminated or garrisons.is_static(self.data, unit_id):
                continue
            if needed > 1 and opening.activation_refusal(self.data, state, unit_id):
                continue
            spent = unit.activations >= needed or (unit.activations >= 1 and unit.fatigued)
            if unit.on_map and not spent:
                return False
            if not unit.arrived and self._arrival_turn(state, unit_id) <= state.turn:
                return False
        return True

    def _activations_to_end_turn(self) -> int:
        return int(self.data.tables.raw.get("turn_end", {}).get("activations", 1))

    def _arrival_turn(self, state: GameState, unit_id: str) -> int:
        return act.arrival_turn(self.data, state, unit_id)

    def _series_roll(self, state: GameState, side: Side) -> list[Event]:
        """[2.2] The other side has activated everything: ``side`` goes on, rolling 2d6 after each sequence
        from the second; 11 or 12 ends the turn."""
        series = state.flags.get("series", 0) + 1
        state.flags["series"] = series
        state.active = side
        if series < 2:
            return []
        dice = dice_of(state)
        first, second = dice.two_d6()
        state.rolls_made = dice.rolls_made
        total = first + second
        ends = total in self.data.tables.raw.get("turn_end", {}).get("ends_on", (11, 12))
        events = [
            Event(
                "roll",
                f"End-of-turn check: rolled {first}+{second} = {total}" + (": the turn ends." if ends else "."),
                {"dice": [first, second], "total": total, "rule": "2.2"},
            )
        ]
        if ends:
            events += self._end_operations(state)
        return events

    def _german_turn1_run(self, state: GameState, side: Side) -> bool:
        """[17.1] On turn 1 the German activates three formations in succession before the Allies act."""
        return side == "german" and act.in_german_opening_run(state, self.data)

    # --- End of the operations phase and of the turn -----------------------------------------------------

    def _end_operations(self, state: GameState) -> list[Event]:
        """[2.2] The operations phase is over: the administrative phase, victory, and the next turn."""
        events = turn.administrative_phase(self.data, state)
        events += victory.end_of_turn(self.data, state)
        events += event_rules.end_of_turn(self.data, state)
        if state.result is not None:
            return events
        if state.turn >= self.data.scenarios[state.scenario].turns:
            return events + victory.end_of_game(self.data, state)
        state.turn += 1
        events += turn.start_turn(self.data, state)
        events += variant.start_of_turn(self.data, state)
        return events + self.advance(state)

    # --- Result -----------------------------------------------------------------------------------------

    def result(self, state: GameState) -> Result | None:
        """How the game ended, once it has."""
        if state.result is None:
            return None
        level = state.result["result"]
        return Result(state.result["winner"], f"{level}: {state.result['reason']}", level)

    # --- View -------------------------------------------------------------------------------------------

    def view(self, state: GameState, seat: Side | None) -> dict[str, Any]:
        """What one seat may see (``None``: what both may see, for the channel); see :mod:`view`.

        A seat's view also carries, under ``position``, the whole position as that seat knows it
        (:func:`engine.vaevictis.known.known_position`: a state's JSON with no secret in it), from which the
        computer opponent (30) reasons with these very rules.
        """
        seen = seat_view(self.data, state, seat)
        if seat is not None:
            seen["position"] = known_position(self.data, state, seat)
        return seen

    def _put_on_top(self, state: GameState, side: Side, args: Mapping[str, Any]) -> list[Event]:
        """[11.2] The owner chooses which unit shows on top of one of his stacks."""
        unit = self._unit(state, args, "unit", side)
        if not unit.on_map or unit.hex is None:
            raise IllegalActionError(f"{self.data.units[unit.id].name} is not on the map", "11.2")
        kept = [u for u in state.stack_tops if u != unit.id and u in state.units and state.units[u].on_map]
        state.stack_tops = [unit.id, *kept]
        return [
            Event(
                "stack-order",
                f"The {self.data.side_name(side)} player rearranges a stack.",
                {"hex": unit.hex},
                secret_to=(side,),
            )
        ]

    # --- Argument helpers -------------------------------------------------------------------------------

    def _unit(self, state: GameState, args: Mapping[str, Any], key: str, side: Side) -> UnitState:
        unit_id = arguments.text(args, key)
        if unit_id not in state.units:
            raise InvalidActionError(f"there is no unit {unit_id!r}")
        if self.data.side_of(unit_id) != side:
            raise IllegalActionError(f"{self.data.units[unit_id].name} is not one of your units")
        return state.units[unit_id]


def minimal_eliminations(pos: Position, hex_: Hex, limit: int) -> list[tuple[str, ...]]:
    """[5] Every set of units whose loss brings a hex within the limit, none of them superfluous."""
    units = pos.units_at(hex_)
    total = sum(u.steps for u in units)
    found: list[tuple[str, ...]] = []
    for size in range(1, len(units) + 1):
        for combo in itertools.combinations(units, size):
            removed = sum(u.steps for u in combo)
            if total - removed <= limit and all(total - removed + u.steps > limit for u in combo):
                found.append(tuple(u.id for u in combo))
    return found


def seat_of(action: Action) -> Side:
    """The side of an action's seat (checked on entry to :meth:`VaeVictisGame.apply`)."""
    if action.seat not in SIDES:
        raise InvalidActionError(f"unknown seat {action.seat!r}")
    return "german" if action.seat == "german" else "allied"
