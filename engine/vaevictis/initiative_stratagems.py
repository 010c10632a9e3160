"""[Alsace 2.1 step 3, 15] The initiative-phase stratagems: a sealed, simultaneous choice, and the activations
they give.

Initiative-phase stratagems (2.1 step 3, 15.2, 15.3): ``initiative-combined-activation`` (Etat-Major LXIII AK:
the initiative, and a first activation of up to ``hqs`` formations with up to ``independents`` independent
units together) and ``initiative-successive-activations`` (Etat-Major 1er CA: the initiative, and ``hqs``
formation activations in a row). Both players may play theirs in the same turn, so the choice is a sealed,
simultaneous decision: each side holding such a counter is asked in secret (``Prompt.secret``), its answer is
an event only it may read, and once every side has answered the choices are revealed together. If both play,
both counters are spent and the initiative is rolled as usual (2.1); if one plays, that side has the
initiative without a roll and its effect. A ``[[forced_event]]`` of the set-up (19.2: the French play the
1st Army Corps HQ on turn 1) is played for its side without asking.
"""

from __future__ import annotations

from typing import Any

from engine.contract import Choice, Event, IllegalActionError, Prompt
from engine.vaevictis.data import SIDES, GameData, Side
from engine.vaevictis.state import GameState
from engine.vaevictis.stratagems import COMBINED, INITIATIVE_EFFECTS, SUCCESSIVE, counters_in_hand, params_of, spend

DECISION = "initiative_stratagems"
"""Per-turn flag: ``{side: bool}``, each side's sealed choice in the initiative phase."""
RUN = "stratagem_run"
"""Per-turn flag: the activations the initiative stratagem gives, ``{"side", "effect", "left", ...}``."""


def effect_of(data: GameData, event_id: str) -> str:
    definition = data.events.get(event_id)
    return definition.effect if definition is not None else ""


# --- The initiative phase: a sealed, simultaneous decision ------------------------------------------------


def forced_plays(data: GameData, state: GameState) -> dict[Side, str]:
    """[19.2] The set-up's ``[[forced_event]]`` entries for this turn: the counter each side must play."""
    forced: dict[Side, str] = {}
    for entry in data.extra.get("forced_event", []):
        event_id = str(entry["event"])
        if int(entry["turn"]) == state.turn and state.events_left.get(event_id, 0) > 0:
            forced[data.events[event_id].side] = event_id
    return forced


def initiative_prompts(data: GameData, state: GameState) -> dict[Side, Prompt]:
    """[2.1 step 3] The sealed choices still due: each side holding an initiative stratagem, not forced."""
    if state.phase != "initiative":
        return {}
    decided = state.flags.get(DECISION, {})
    forced = forced_plays(data, state)
    prompts: dict[Side, Prompt] = {}
    for side in SIDES:
        held = counters_in_hand(data, state, side, *INITIATIVE_EFFECTS)
        if not held or side in decided or side in forced:
            continue
        name = data.events[held[0]].name
        prompts[side] = Prompt(
            side,
            f"Initiative phase: play {name} this turn? Sealed: both players' choices are revealed together; "
            "if both play, the initiative is rolled as usual (2.1).",
            (
                Choice("initiative_stratagem", {"play": True}, f"Play {name}"),
                Choice("initiative_stratagem", {"play": False}, "Do not play it"),
            ),
            secret=True,
            rule="2.1",
        )
    return prompts


def decide(data: GameData, state: GameState, side: Side, play: bool) -> list[Event]:
    """[2.1 step 3] Record one side's sealed choice; only that side may read the event until the reveal."""
    if side not in initiative_prompts(data, state):
        raise IllegalActionError("you have no initiative stratagem to decide on now", "2.1")
    state.flags.setdefault(DECISION, {})[side] = bool(play)
    said = "to play" if play else "not to play"
    return [
        Event(
            "sealed",
            f"The {data.side_name(side)} player has decided {said} its initiative stratagem "
            "(sealed until both are in).",
            {"side": side, "rule": "2.1"},
            secret_to=(side,),
        )
    ]


def resolve_initiative(data: GameData, state: GameState) -> list[Event]:
    """[2.1 step 3] Every choice is in: reveal them together, spend the counters played, and give the
    initiative to the only side that played (else leave the phase to the usual roll).

    Call it when :func:`initiative_prompts` is empty. Changes nothing for a game without such counters.
    """
    decided: dict[str, bool] = dict(state.flags.get(DECISION, {}))
    forced = forced_plays(data, state)
    played: dict[Side, str] = {}
    for side in SIDES:
        held = counters_in_hand(data, state, side, *INITIATIVE_EFFECTS)
        if side in forced:
            played[side] = forced[side]
        elif held and decided.get(side):
            played[side] = held[0]
    asked = [s for s in SIDES if s in decided]
    if not asked and not played:
        return []
    events: list[Event] = []
    words = []
    for side in SIDES:
        if side in played:
            why = " (the scenario's rule)" if side in forced else ""
            words.append(f"the {data.side_name(side)} player plays {data.events[played[side]].name}{why}")
        elif side in decided:
            words.append(f"the {data.side_name(side)} player does not play its stratagem")
    events.append(Event("reveal", "Initiative stratagems revealed: " + "; ".join(words) + ".", {"played": played}))
    for event_id in played.values():
        spend(state, event_id)
    state.flags[DECISION] = {**decided, "resolved": True}
    if len(played) != 1:
        if played:
            events.append(
                Event("event", "Both stratagems were played: the initiative is rolled as usual (2.1).", {"rule": "2.1"})
            )
        return events
    side, event_id = next(iter(played.items()))
    params = params_of(data, event_id)
    state.initiative = side
    state.active = side
    state.phase = "operations"
    state.flags[RUN] = {
        "side": side,
        "effect": effect_of(data, event_id),
        "left": int(params.get("hqs", 1)),
        "independents": int(params.get("independents", 0)),
        "started": False,
    }
    name = data.events[event_id].name
    events.append(
        Event("initiative", f"The {data.side_name(side)} player has the initiative ({name}).", {"side": side})
    )
    return events


def initiative_decided(state: GameState) -> bool:
    return bool(state.flags.get(DECISION, {}).get("resolved"))


# --- The activations an initiative stratagem gives --------------------------------------------------------


def run(state: GameState, side: Side | None, effect: str) -> dict[str, Any] | None:
    record = state.flags.get(RUN)
    if isinstance(record, dict) and record.get("side") == side and record.get("effect") == effect:
        return record
    return None


def combined_choices(data: GameData, state: GameState, side: Side, can_activate: list[str]) -> list[Choice]:
    """[15.2] The pairs of formations the side may activate together in its combined first activation."""
    record = run(state, side, COMBINED)
    if record is None or record["started"] or state.activation is not None:
        return []
    out = []
    for index, first in enumerate(can_activate):
        for second in can_activate[index + 1 :]:
            names = f"{data.formations[first].name} and {data.formations[second].name}"
            out.append(Choice("activate_formation", {"formation": first, "also": second}, f"Activate {names} together"))
    return out


def start_combined(data: GameData, state: GameState, side: Side, also: str) -> None:
    """[15.2] Record the second formation of a combined activation (the first is started as usual)."""
    record = run(state, side, COMBINED)
    if record is None or record["started"]:
        raise IllegalActionError("only the first activation after the corps HQ stratagem joins two formations", "15.2")
    if also not in data.formations or data.formations[also].independent:
        raise IllegalActionError(f"{also!r} is not a formation with an HQ", "15.2")
    record["also"] = also


def may_join(data: GameData, state: GameState, unit_id: str) -> bool | None:
    """[15.2] Whether a unit outside the activated formation may join the combined activation in progress
    (``None``: the rule does not apply, the usual checks decide)."""
    activation = state.activation
    record = run(state, activation.side if activation else None, COMBINED)
    if activation is None or record is None or activation.kind != "formation" or "also" not in record:
        return None
    formation = data.units[unit_id].formation
    if formation == record["also"]:
        return not state.units[unit_id].out_of_command
    if data.formations[formation].independent:
        independents = [u for u in activation.units if data.formations[data.units[u].formation].independent]
        return len(independents) < int(record["independents"])
    return None


def activation_started(state: GameState, kind: str) -> list[Event]:
    """[15.2, 15.3] An activation of the stratagem's side begins: a general activation ends the run."""
    record = state.flags.get(RUN)
    if not isinstance(record, dict) or state.activation is None or record["side"] != state.activation.side:
        return []
    record["started"] = True
    if kind != "formation":
        state.flags.pop(RUN, None)
    return []


def keeps_the_hand(state: GameState, side: Side, kind: str) -> bool:
    """[15.3] After a formation activation of the side that played the 1er CA stratagem, whether it activates
    another HQ at once (``hqs`` in a row); the combined activation counts as one."""
    record = state.flags.get(RUN)
    if not isinstance(record, dict) or record.get("side") != side:
        return False
    record["left"] = int(record["left"]) - 1
    if record.get("effect") != SUCCESSIVE or kind != "formation" or record["left"] <= 0:
        state.flags.pop(RUN, None)
        return False
    return True


def run_over(state: GameState) -> None:
    """A pass ends the run of activations."""
    state.flags.pop(RUN, None)
