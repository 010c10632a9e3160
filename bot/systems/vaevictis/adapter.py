"""Vae Victis games (Ardennes 1944, ...) as the bot uses them: :class:`VaeVictisAdapter`.

The adapter wraps :class:`engine.vaevictis.game.VaeVictisGame` with what the bot needs around the engine
contract (see :class:`bot.service.game_service.SystemAdapter`): the state as JSON, autocomplete sources from
:mod:`engine.vaevictis.legal`, :mod:`engine.vaevictis.events` and :mod:`engine.vaevictis.detachments`, the
odds preview of an attack (7.5), information texts and map pictures drawn from a seat's view
(:func:`render.view_picture.picture_from_view`), and the fog of war (11) applied to what the channel reads.

It decides no rule: every suggestion is checked again by the engine when the action is applied.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.service.sealed import SealedDecision
from bot.store.records import ActionRow
from engine.contract import Action, ComputerPlayer, Event, InvalidActionError, Prompt, Result

if TYPE_CHECKING:
    from bot.service.game_service import Info
    from engine.vaevictis.data import GameData
    from engine.vaevictis.game import VaeVictisGame
    from engine.vaevictis.state import GameState
    from render.picture import Overlay
    from render.record.data import Chart

PICTURE_KINDS = frozenset({"end-activation", "turn", "victory", "setup-done"})
"""Events after which the channel gets the map picture: an activation ends, a new turn, the end, a side's set-up
is done (a pass alone changes nothing on the map)."""

OVERLAYS = {
    "reachable": "where a unit may move now, with the MPs spent (6)",
    "zoc": "the enemy zones of control (4)",
    "command": "your HQs' command ranges (8.1)",
    "supply": "your supply lines and the units without supply (10)",
    "victory": "the scenario's victory cities",
    "front": "the front line at set-up (Alsace 1944 19.2)",
    "combats": "the combats of this turn (or of the last `turns`), results at the arrows' heads (7.5)",
}
"""The overlays a player may ask for with ``map``."""

ATTACK_KINDS = {"normal": "normal attack (7.3.1)", "prepared": "prepared attack (7.3.2)"}

CLOSE_UP_MAX_RADIUS = 7
"""A picture of what changed is a close-up when the changes fit within this many hexes of a centre."""


class VaeVictisAdapter:
    """A Vae Victis game as the bot uses it (see :class:`bot.service.game_service.SystemAdapter`)."""

    def __init__(self, game_id: str, data: GameData | None = None) -> None:
        """The adapter of a bundled game (``data``: the game's data when already built, e.g. in tests)."""
        from engine.vaevictis.game import STANDING_ORDERS, VaeVictisGame
        from engine.vaevictis.rules_version import RULES_VERSION
        from scenarios import load_game

        self.game: VaeVictisGame = VaeVictisGame(data if data is not None else load_game(game_id))
        self.id = game_id
        self.name = self.game.data.name
        self.seats: tuple[str, ...] = tuple(self.game.seats)
        self.scenarios: tuple[str, ...] = tuple(self.game.data.scenarios)
        self.options: Mapping[str, str] = dict(self.game.options)
        self.standing_orders: Mapping[str, str] = {k: v[1] for k, v in STANDING_ORDERS.items()}
        self.rules_version = RULES_VERSION
        air = self.game.data.has_air_power  # Alsace 1944 has none (2.1, 7.3)
        self.unused_options: Mapping[str, tuple[str, ...]] = {} if air else {"attack": ("air",)}
        """Options of the room's commands this game does not have, left out of its help."""

    @property
    def computer_player(self) -> ComputerPlayer | None:
        """The engine's computer player (``engine/vaevictis/opponent/``), or ``None`` in a tree without one: the
        bot then refuses to give a seat to the computer."""
        player: ComputerPlayer | None = getattr(self.game, "computer_player", None)
        return player

    # --- The engine contract --------------------------------------------------------------------------

    def new_game(self, scenario: str, options: Mapping[str, Any], seed: bytes) -> GameState:
        return self.game.new_game(scenario, options, seed)

    def prompts(self, state: GameState) -> dict[str, Prompt]:
        return {str(seat): prompt for seat, prompt in self.game.prompts(state).items()}

    def apply(self, state: GameState, action: Action) -> tuple[GameState, list[Event]]:
        return self.game.apply(state, action)

    def apply_owned(self, state: GameState, action: Action) -> tuple[GameState, list[Event]]:
        """:meth:`apply` on a state the caller drops (a replay from the set-up): no copy of it is made."""
        return self.game.apply_owned(state, action)

    def view(self, state: GameState, seat: str | None) -> dict[str, Any]:
        return self.game.view(state, seat)  # type: ignore[arg-type]

    def result(self, state: GameState) -> Result | None:
        return self.game.result(state)

    def state_to_json(self, state: GameState) -> Any:
        return state.to_json()

    def state_from_json(self, data: Any) -> GameState:
        from engine.vaevictis.state import GameState

        return GameState.from_json(data)

    # --- Fog of war (11) ------------------------------------------------------------------------------

    @staticmethod
    def private_prompts(state: GameState) -> bool:
        """Under fog of war a seat's prompt names its own units: it is shown to that seat only."""
        return bool(state.options.get("fog_of_war"))

    def redact(self, state: GameState, seat: str | None, events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """The events as ``seat`` may read them (``None``: the channel, which reads only what both sides may)
        under fog of war: an event that names a unit the seat could not inspect when it happened (the engine
        marks it, :func:`engine.vaevictis.view.mark_events`) is replaced by a sentence that names only the
        side and the kind of event. An event stored before events were marked is judged by the position now."""
        from engine.vaevictis.view import HIDDEN_FROM, named_units, unseen_units

        if not state.options.get("fog_of_war"):
            return [dict(e) for e in events]
        data = self.game.data
        unseen_now: tuple[set[str], set[str]] | None = None  # worked out once, for events stored unmarked
        found = []
        for event in events:
            facts = event.get("data", {})
            text = str(event.get("text", ""))
            hidden_from = facts.get(HIDDEN_FROM)
            if hidden_from is not None:
                hidden = bool(hidden_from) if seat is None else seat in hidden_from
            else:
                if unseen_now is None:
                    unseen = unseen_units(data, state)
                    ids = set[str]().union(*(units for side, units in unseen.items() if seat in (None, side)))
                    unseen_now = (ids, {data.units[u].name for u in ids})
                ids, names = unseen_now
                hidden = bool(named_units(data, facts) & ids) or any(n and n in text for n in names)
            if hidden:
                sides = sorted({data.side_of(u) for u in named_units(data, facts)})
                who = " and ".join(data.side_name(side) for side in sides) or "A"
                text = f"{who} {event.get('kind', 'action')}: details hidden by the fog of war (11)."
            found.append({**event, "text": text})
        return found

    # --- Autocomplete ---------------------------------------------------------------------------------

    def suggest(
        self, state: GameState, seat: str | None, source: str, typed: str, given: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        """Suggestions legal now for the seat (see :mod:`engine.vaevictis.legal`)."""
        for_anyone = self._suggest_for_anyone(state, seat, source, given)
        if for_anyone is not None:
            return for_anyone
        if seat is None or seat not in self.seats:
            return []
        side: Any = seat
        for suggest_from in (
            self._suggest_activation,
            self._suggest_markers,
            self._suggest_detachments,
            self._suggest_arrivals,
        ):
            found = suggest_from(state, side, source, typed, given)
            if found is not None:
                return found
        return self._suggest_for_movers(state, side, source, typed, given)

    def _unit_pairs(self, ids: Sequence[str]) -> list[tuple[str, str]]:
        """Each unit as ``("name (id)", id)``."""
        names = self.game.data.units
        return [(f"{names[u].name} ({u})", u) for u in ids]

    def _suggest_for_anyone(
        self, state: GameState, seat: str | None, source: str, given: Mapping[str, Any]
    ) -> list[tuple[str, str]] | None:
        """Suggestions that need no seat of the game (the lists of words, what the view shows), or ``None``
        when ``source`` is not one of them."""
        from engine.hexgrid import hex_name

        data = self.game.data
        if source == "attack_kind":
            return [(f"{k}: {v}", k) for k, v in ATTACK_KINDS.items()]
        if source == "overlay":
            texts = {**OVERLAYS, "victory": f"{OVERLAYS['victory']} ({data.rule('17')})"}
            return [(f"{k}: {v}", k) for k, v in texts.items()]
        if source == "standing_order":
            chosen = [o.strip() for o in str(given.get("orders", "")).split(",")[:-1] if o.strip()]
            prefix = ",".join(chosen) + "," if chosen else ""
            pairs = [(f"{k}: {v}", prefix + k) for k, v in self.standing_orders.items() if k not in chosen]
            return [("none: clear my standing orders", "none"), *pairs]
        if source == "any_hq":
            view = self.game.view(state, seat)  # type: ignore[arg-type]
            hqs = [u for s in view["stacks"] for u in s["units"] if u["kind"] == "hq"]
            return [(f"{u['name']} ({u['id']})", u["id"]) for u in hqs]
        if source in ("any_unit", "any_hex"):
            view = self.game.view(state, seat)  # type: ignore[arg-type]
            if source == "any_hex":
                return [(hex_name(s["hex"]), hex_name(s["hex"])) for s in view["stacks"]]
            return [(f"{u['name']} ({u['id']})", u["id"]) for s in view["stacks"] for u in s["units"]]
        if source == "air_points":
            if not data.has_air_power:
                return [(f"0: {data.name} has no air support ({data.rule('14.3')})", "0")]
            left = state.air_missions.get(seat, 0) if seat in self.seats else 0
            return [(f"{n} of the {left} air support mission(s) left this turn", str(n)) for n in range(left + 1)]
        return None

    def _suggest_activation(
        self, state: GameState, side: Any, source: str, typed: str, given: Mapping[str, Any]
    ) -> list[tuple[str, str]] | None:
        """The side's formations, units, the formations it may activate and the verbs its prompt offers."""
        data = self.game.data
        if source == "own_formation":
            return [(f.name, f.id) for f in data.formations.values() if data.armies[f.army].side == side]
        if source == "own_unit":
            return self._unit_pairs([u.id for u in state.on_map() if data.side_of(u.id) == side])
        if source == "formation":
            prompt = self.game.prompts(state).get(side)
            pairs = [
                (c.label, str(c.args["formation"]))
                for c in (prompt.choices if prompt else ())
                if c.verb == "activate_formation"
            ]
            return [*pairs, ("General activation", "general")] if pairs else []
        if source == "verb":
            prompt = self.game.prompts(state).get(side)
            if prompt is None:
                return []
            return [(v, v) for v in dict.fromkeys([*(c.verb for c in prompt.choices), *prompt.free_verbs])]
        return None

    def _suggest_markers(
        self, state: GameState, side: Any, source: str, typed: str, given: Mapping[str, Any]
    ) -> list[tuple[str, str]] | None:
        """[15] The events the side may play and where, and the enemy markers its units may remove."""
        from engine.vaevictis import events as event_rules

        data = self.game.data
        if source in ("event", "event_hex"):
            playable = event_rules.playable(data, state, side)
            if source == "event":
                events = dict.fromkeys(str(c.args["event"]) for c in playable)
                return [(data.events[e].name, e) for e in events]
            event = str(given.get("event", ""))
            return [(str(c.args["hex"]), str(c.args["hex"])) for c in playable if c.args.get("event") == event]
        if source in ("marker_unit", "marker_hex"):
            removals = event_rules.removal_choices(data, state, side)
            if source == "marker_unit":
                return self._unit_pairs(list(dict.fromkeys(str(c.args["unit"]) for c in removals)))
            unit = str(given.get("unit", ""))
            return [(c.label, str(c.args["hex"])) for c in removals if c.args.get("unit") == unit]
        return None

    def _suggest_detachments(
        self, state: GameState, side: Any, source: str, typed: str, given: Mapping[str, Any]
    ) -> list[tuple[str, str]] | None:
        """[18] The divisions that may detach, the steps they may, and the detachments that may recombine."""
        from engine.vaevictis import detachments

        if source not in ("division", "detach_steps", "detachment"):
            return None
        options = detachments.choices(self.game.data, state, side)
        if source == "division":
            divisions = dict.fromkeys(str(c.args["division"]) for c in options if c.verb == "detach")
            return self._unit_pairs(list(divisions))
        if source == "detach_steps":
            division = str(given.get("division", ""))
            return [
                (c.label, str(c.args["steps"]))
                for c in options
                if c.verb == "detach" and c.args.get("division") == division
            ]
        return [(c.label, str(c.args["detachment"])) for c in options if c.verb == "recombine"]

    def _suggest_arrivals(
        self, state: GameState, side: Any, source: str, typed: str, given: Mapping[str, Any]
    ) -> list[tuple[str, str]] | None:
        """Reinforcements due and their entry hexes, the set-up phase's units and hexes, and the side's units
        in stacks of several (to put on top)."""
        from engine.hexgrid import hex_name
        from engine.vaevictis import legal

        data = self.game.data
        if source == "reinforcement":
            return self._unit_pairs([u for u, _ in legal.reinforcements_due(self.game, state, side)])
        if source == "entry":
            unit = str(given.get("unit", ""))
            return [
                (hex_name(h), hex_name(h))
                for u, hexes in legal.reinforcements_due(self.game, state, side)
                for h in hexes
                if u == unit
            ]
        if source in ("setup_unit", "setup_hex"):  # [Alsace 19.2, 19.4.1] the set-up phase
            from engine.vaevictis import setup_phase

            if setup_phase.setup_side(data, state) != side:
                return []
            if source == "setup_unit":
                return self._unit_pairs(sorted(setup_phase.placeables(data, state, side)))[:25]
            hexes = setup_phase.legal_hexes(data, state, side, str(given.get("unit", "")))
            return [(hex_name(h), hex_name(h)) for h in hexes if hex_name(h).startswith(typed)][:25]
        if source == "top_unit":
            view = self.game.view(state, side)
            return [
                (f"{u['name']} ({u['id']}) in {hex_name(s['hex'])}", u["id"])
                for s in view["stacks"]
                if s["side"] == side and s["count"] > 1
                for u in s["units"]
            ]
        return None

    def _suggest_for_movers(
        self, state: GameState, side: Any, source: str, typed: str, given: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        """The units that may act now, and for one of them its destinations, targets and fellow attackers."""
        from engine.hexgrid import hex_name
        from engine.vaevictis import legal

        data = self.game.data
        movers = legal.units_that_may_act(self.game, state, side)
        if source == "ip_unit":
            return self._unit_pairs(
                [u.id for u in state.units.values() if u.improved_position and data.side_of(u.id) == side]
            )
        if source == "fatigued":
            return self._unit_pairs([u.id for u in movers if u.fatigued])
        if source == "unit":
            chosen = [u for u in str(given.get("units", "")).split(",")[:-1] if u.strip()]
            prefix = ",".join(chosen) + "," if chosen else ""
            return [(label, prefix + value) for label, value in self._unit_pairs([u.id for u in movers])]
        first = str(given.get("units") or given.get("unit") or given.get("attackers") or "").split(",")[0].strip()
        if source == "destination" and first in state.units and data.side_of(first) == side:
            # Only the asker's own units: the reach of an enemy unit would tell where it is (11).
            options_ = legal.unit_options(self.game, state, state.units[first])
            return [(hex_name(h), hex_name(h)) for h in options_.destinations if hex_name(h).startswith(typed)][:25]
        if source == "target":
            # The attacker's own targets once one is given (what the others may attack, it may not).
            given_mover = [u for u in movers if u.id == first]
            targets = sorted(
                {h for u in given_mover or movers for h in legal.unit_options(self.game, state, u).targets}
            )
            return [(hex_name(h), hex_name(h)) for h in targets]
        if source == "attacker":
            target = str(given.get("target", ""))
            chosen = [u for u in str(given.get("attackers", "")).split(",")[:-1] if u.strip()]
            prefix = ",".join(chosen) + "," if chosen else ""
            able = [
                u.id
                for u in movers
                if (targets_ := legal.unit_options(self.game, state, u).targets)
                and (not target or target in {hex_name(h) for h in targets_})
                and u.id not in chosen
            ]
            return [(label, prefix + value) for label, value in self._unit_pairs(able)]
        return []

    # --- Odds, information ----------------------------------------------------------------------------

    def preview(self, state: GameState, seat: str, verb: str, args: Mapping[str, Any]) -> str | None:
        """An attack's odds (7.5): column, every modifier, each result's chance; the warning before a formation
        whose HQ was already activated this turn is activated again (its HQ becomes fatigued, 3.5). Other
        actions need no confirmation."""
        if verb == "activate_formation":
            formation = self.game.data.formations.get(str(args.get("formation", "")))
            hq = state.units.get(formation.hq) if formation is not None and formation.hq else None
            if formation is None or hq is None or hq.activations < 1:
                return None
            return (
                f"{formation.name} was already activated this turn: activating it again fatigues its HQ "
                f"{self.game.data.units[hq.id].name} (3.5), and every unit that joins becomes fatigued too."
            )
        if verb != "attack":
            return None
        odds = self.game.preview(state, seat, args)  # type: ignore[arg-type]
        from bot.systems.vaevictis.reports import attack_kinds

        kinds = attack_kinds(self.game, state, seat, args)  # type: ignore[arg-type]
        return "\n".join([*odds.lines(), *kinds])

    def describe(self, state: GameState, seat: str | None, topic: str, key: str) -> str:
        """Information texts from the seat's view (fog of war applied by the engine)."""
        from engine.hexgrid import hex_name, parse_hex

        view = self.game.view(state, seat)  # type: ignore[arg-type]
        if topic == "status":
            when = ", ".join(w for w in (view.get("date", ""), view.get("weather", "")) if w)  # Alsace: no weather
            fog = " Fog of war (11) is on." if view.get("fog_of_war") else ""
            return (
                f"Turn {view['turn']} ({when}), {view['phase']} phase; "
                f"initiative: {view['initiative'] or '-'}; active side: {view['active'] or '-'}.{fog}"
            )
        if topic in ("hex", "stack"):
            try:
                where = parse_hex(key)
            except ValueError as error:
                raise InvalidActionError(str(error)) from None
            if not self.game.data.map.grid.contains(where):
                raise InvalidActionError(f"hex {key} is not on the map")
            stack = next((s for s in view["stacks"] if s["hex"] == where), None)
            head = f"Hex {hex_name(where)}"
            markers = [m["kind"] for m in view["markers"] if m["hex"] == where]
            if markers:
                head += f" (markers: {', '.join(markers)})"
            if stack is None:
                return f"{head}: no units."
            lines = [f"{head}: {stack['side']} stack of {stack['count']} counter(s)."]
            lines += [_unit_line(u) for u in stack["units"]]
            if len(stack["units"]) < stack["count"]:
                lines.append(f"{stack['count'] - len(stack['units'])} more counter(s) hidden by the fog of war (11).")
            return "\n".join(lines)
        if topic == "unit":
            for stack in view["stacks"]:
                for unit in stack["units"]:
                    if unit["id"] == key or unit["name"].lower() == key.lower():
                        return f"{_unit_line(unit)} in {hex_name(stack['hex'])}"
            raise InvalidActionError(f"no unit {key!r} that you can see")
        if topic == "oob":
            if seat is None:
                return "You hold no seat: the order of battle is for the players."
            lines = []
            for stack in view["stacks"]:
                if stack["side"] == seat:
                    lines += [f"{hex_name(stack['hex'])}: {_unit_line(u)}" for u in stack["units"]]
            pools = "; ".join(f"{army}: {dict(pool)}" for army, pool in view["pools"].items() if pool)
            orders = ", ".join(state.standing_orders.get(seat, [])) or "none"
            return "\n".join(
                [
                    f"**{seat}** order of battle ({len(lines)} units on the map)",
                    *lines,
                    pools,
                    f"Standing orders: {orders}",
                ]
            )
        raise InvalidActionError(f"nothing to say about {topic!r}")

    # --- Pictures -------------------------------------------------------------------------------------

    def picture(self, state: GameState, seat: str | None, events: Sequence[Mapping[str, Any]]) -> bytes | None:
        """What changed, as ``seat`` sees it: a close-up (zoom 1.5) round the hexes the events name, or the whole
        map when they are spread wide or name none."""
        return self.draw(state, seat, events, close_up=True)

    def draw(
        self,
        state: GameState,
        seat: str | None,
        events: Sequence[Mapping[str, Any]],
        *,
        close_up: bool = False,
        overlay: str | None = None,
        unit: str | None = None,
        around: str | None = None,
    ) -> bytes:
        """A PNG of the map as ``seat`` sees it (``None``: what both sides may see), with what ``events`` did.

        ``overlay`` (one of :data:`OVERLAYS`, for a seat; ``reachable`` needs one of its units) is drawn on
        top; ``around`` (a hex) gives a close-up round it; ``close_up`` a close-up round what changed.

        :raises InvalidActionError: for an unknown overlay or hex, or an overlay asked for without a seat.
        """
        from engine.hexgrid import parse_hex
        from render.happened import last_activation
        from render.overlays import overlay_sets
        from render.snapshot import render_map, to_png
        from render.view_picture import picture_from_view

        data = self.game.data
        view = self.game.view(state, seat)  # type: ignore[arg-type]
        happened = last_activation(
            [Event(str(e["kind"]), str(e.get("text", "")), dict(e.get("data", {}))) for e in events]
        )
        overlays: list[Overlay] = []
        if overlay:
            if overlay not in OVERLAYS:
                raise InvalidActionError(f"there is no overlay {overlay!r}; choose one of {', '.join(OVERLAYS)}")
            if seat is None:
                raise InvalidActionError("overlays are drawn for a seated player's side")
            if overlay == "reachable" and (not unit or unit not in state.units or data.side_of(unit) != seat):
                raise InvalidActionError("the reachable overlay needs one of your units: give `unit`")
            try:
                overlays.append(overlay_sets(self.game, state, seat, overlay, unit))  # type: ignore[arg-type]
            except ValueError as error:
                raise InvalidActionError(str(error)) from None
        region: tuple[int, int] | None = None
        if around:
            # ``hex`` or ``hex:radius`` (the player's close-up size, ``prefs closeup:``).
            place, _, size = around.partition(":")
            try:
                centre = parse_hex(place)
            except ValueError as error:
                raise InvalidActionError(str(error)) from None
            if not data.map.grid.contains(centre):
                raise InvalidActionError(f"hex {place} is not on the map")
            region = (centre, int(size) if size.isdigit() and 1 <= int(size) <= 8 else 4)
        elif overlay == "reachable" and unit and state.units[unit].hex is not None:
            region = (state.units[unit].hex, 5)  # type: ignore[assignment]
        elif close_up:
            region = self._region(happened)
        picture = picture_from_view(data, view, happened, overlays, seat=seat)  # type: ignore[arg-type]
        return to_png(render_map(picture, region=region))

    def _region(self, events: Sequence[Event]) -> tuple[int, int] | None:
        """The close-up holding every hex the events name, if one of at most :data:`CLOSE_UP_MAX_RADIUS` does."""
        grid = self.game.data.map.grid
        touched = sorted({h for e in events for h in _hexes(e.data) if grid.contains(h)})
        if not touched:
            return None
        best: tuple[int, int] | None = None
        for centre in touched:
            radius = max(grid.distance(centre, h) for h in touched)
            if best is None or radius < best[1]:
                best = (centre, radius)
        assert best is not None
        centre, radius = best
        return (centre, max(3, radius + 1)) if radius + 1 <= CLOSE_UP_MAX_RADIUS else None

    def inform(
        self, state: GameState, seat: str | None, topic: str, key: str, log: Sequence[Mapping[str, Any]], over: bool
    ) -> Info:
        """Answers to the information commands (``hex``, ``unit``, ``hq``, ``oob``, ``victory``, ``brief``,
        ``turn-report``, ``stats``, ``replay``, ``combats``): :func:`bot.systems.vaevictis.reports.inform`."""
        from bot.systems.vaevictis.reports import inform

        return inform(self.game, state, seat, topic, key, log, over, self._region)  # type: ignore[arg-type]

    def activation_pictures(
        self, state: GameState, seat: str | None, log: Sequence[Mapping[str, Any]]
    ) -> Iterator[tuple[str, bytes]]:
        """Every past activation's picture as ``seat`` saw it, rebuilt from the log: (file name, PNG)."""
        from bot.systems.vaevictis.reports import replay_pictures

        return replay_pictures(self.game, state, seat, log, self._region)  # type: ignore[arg-type]

    def unveiled(self, state: GameState) -> GameState:
        """[11] The position with the fog of war lifted, for a record made after the end (issue 34)."""
        from bot.systems.vaevictis.record import unveiled

        return unveiled(state)

    def record_charts(
        self,
        states: Sequence[tuple[int, GameState]],
        seat: str | None,
        log: Sequence[Mapping[str, Any]],
        over: bool,
    ) -> list[Chart]:
        """A record's charts: steps lost per turn and objectives held (:mod:`bot.systems.vaevictis.record`)."""
        from bot.systems.vaevictis.record import record_charts

        return record_charts(self.game.data, states, seat, log, over)

    def picture_due(self, events: Sequence[Mapping[str, Any]]) -> bool:
        """A picture after an activation ends, a pass, a new turn or the end."""
        return any(e.get("kind") in PICTURE_KINDS for e in events)

    def picture_caption(self, events: Sequence[Mapping[str, Any]]) -> str:
        """What the picture posted after these events shows: the map after a side's set-up, after an
        activation, as a turn begins."""
        by_kind = {str(e.get("kind")): e for e in events}
        if "setup-done" in by_kind:
            side = by_kind["setup-done"].get("data", {}).get("side", "")
            return f"The map after the {side} set-up." if side else "The map after the set-up."
        turn = by_kind.get("turn", {}).get("data", {}).get("turn")
        if "end-activation" in by_kind:
            return "The map after that activation" + (f"; turn {turn} begins." if turn else ".")
        return f"The map as turn {turn} begins." if turn else "The map after that action."

    def sealed_decisions(self, actions: Sequence[ActionRow]) -> list[SealedDecision]:
        """None: a Vae Victis game's only sealed decisions are answers to secret prompts (the initiative
        stratagems), which the service seals and keeps."""
        return []


def _unit_line(unit: Mapping[str, Any]) -> str:
    status = f" [{', '.join(unit['status'])}]" if unit.get("status") else ""
    return (
        f"{unit['name']} ({unit['id']}): strength {unit['strength']}, steps {unit['steps']}/{unit['max_steps']}, "
        f"quality {unit['quality']}{status}"
    )


def _hexes(data: Mapping[str, Any]) -> list[int]:
    """Hex numbers named in an event's data (``hex``, ``from``, ``to``, ``target``, ``path``)."""
    found: list[int] = []
    for key in ("hex", "from", "to", "target", "path", "hexes"):
        value = data.get(key)
        for item in value if isinstance(value, list | tuple) else [value]:
            if isinstance(item, int) and not isinstance(item, bool) and 101 <= item <= 9999:
                found.append(item)
            elif isinstance(item, str) and len(item) == 4 and item.isdigit():
                found.append(int(item))
    plan = data.get("plan")
    if isinstance(plan, Mapping):
        found += _hexes(plan)
    return found
