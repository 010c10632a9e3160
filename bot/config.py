"""The bot's settings (environment variables and flags) and the game systems it offers.

Settings, each an environment variable that a command-line flag overrides:

``DISCORD_TOKEN``            the bot's token (``umpire run --token``); needed only by ``umpire run``.
``UMPIRE_DB``                the SQLite file (``--db``); default ``umpire.sqlite3`` in the working directory.
``UMPIRE_GUILD``             a server id to sync the slash commands to at once (``--guild``), for testing;
                             without it the commands are synced globally (Discord may take a while).
``UMPIRE_MODERATOR_ROLE``    the name of the role whose members may abandon, substitute and correct games
                             (default ``Umpire moderator``); members with Manage Server may too.
``UMPIRE_REMINDER_MINUTES``  how often correspondence reminders are checked (default 10).

The game systems: :func:`systems` maps a system id to a factory of its adapter. The Vae Victis adapter
(:class:`VaeVictisAdapter`) wraps :class:`engine.vaevictis.game.VaeVictisGame` with what the bot needs
around the engine contract: state JSON, autocomplete sources, the odds preview, information texts and map
pictures.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.contract import Action, Event, InvalidActionError, Prompt, Result

if TYPE_CHECKING:
    from bot.service import SystemFactory
    from engine.vaevictis.game import VaeVictisGame
    from engine.vaevictis.state import GameState

DEFAULT_DB = "umpire.sqlite3"
DEFAULT_MODERATOR_ROLE = "Umpire moderator"


@dataclass(frozen=True)
class Settings:
    """Everything ``umpire run`` needs to know."""

    token: str | None
    db: str = DEFAULT_DB
    guild: int | None = None
    moderator_role: str = DEFAULT_MODERATOR_ROLE
    reminder_minutes: float = 10.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from the environment, with flags (non-``None`` keyword arguments) taking precedence.

        :raises ValueError: for a server id or a reminder interval that is not a number.
        """
        env = os.environ if env is None else env
        guild = overrides.get("guild") or env.get("UMPIRE_GUILD") or None
        values: dict[str, Any] = {
            "token": overrides.get("token") or env.get("DISCORD_TOKEN") or None,
            "db": overrides.get("db") or env.get("UMPIRE_DB") or DEFAULT_DB,
            "guild": int(guild) if guild else None,
            "moderator_role": env.get("UMPIRE_MODERATOR_ROLE") or DEFAULT_MODERATOR_ROLE,
            "reminder_minutes": float(env.get("UMPIRE_REMINDER_MINUTES") or 10),
        }
        return cls(**values)


def systems() -> dict[str, SystemFactory]:
    """The game systems of this bot: system id to adapter factory (the first is the default)."""
    return {"ardennes44": lambda: VaeVictisAdapter("ardennes44")}


PICTURE_KINDS = frozenset({"end-activation", "pass", "turn", "victory"})
"""Vae Victis events after which the channel gets the map picture."""


class VaeVictisAdapter:
    """A Vae Victis game (Ardennes 1944, ...) as the bot uses it (see :class:`bot.service.SystemAdapter`)."""

    def __init__(self, game_id: str) -> None:
        from engine.vaevictis.game import OPTIONS, VaeVictisGame
        from scenarios import load_game

        self.game: VaeVictisGame = VaeVictisGame(load_game(game_id))
        self.id = game_id
        self.name = self.game.data.name
        self.seats: tuple[str, ...] = tuple(self.game.seats)
        self.scenarios: tuple[str, ...] = tuple(self.game.data.scenarios)
        self.options: Mapping[str, str] = dict(OPTIONS)

    # --- The engine contract --------------------------------------------------------------------------

    def new_game(self, scenario: str, options: Mapping[str, Any], seed: bytes) -> GameState:
        return self.game.new_game(scenario, options, seed)

    def prompts(self, state: GameState) -> dict[str, Prompt]:
        return {str(seat): prompt for seat, prompt in self.game.prompts(state).items()}

    def apply(self, state: GameState, action: Action) -> tuple[GameState, list[Event]]:
        return self.game.apply(state, action)

    def view(self, state: GameState, seat: str | None) -> dict[str, Any]:
        return self.game.view(state, seat)  # type: ignore[arg-type]

    def result(self, state: GameState) -> Result | None:
        return self.game.result(state)

    def state_to_json(self, state: GameState) -> Any:
        return state.to_json()

    def state_from_json(self, data: Any) -> GameState:
        from engine.vaevictis.state import GameState

        return GameState.from_json(data)

    # --- Autocomplete ---------------------------------------------------------------------------------

    def suggest(
        self, state: GameState, seat: str | None, source: str, typed: str, given: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        """Suggestions legal now for the seat (see :mod:`engine.vaevictis.legal`)."""
        from engine.hexgrid import hex_name
        from engine.vaevictis import legal

        data = self.game.data
        names = data.units

        def unit_pairs(ids: Sequence[str]) -> list[tuple[str, str]]:
            return [(f"{names[u].name} ({u})", u) for u in ids]

        if source in ("any_unit", "any_hex"):
            view = self.game.view(state, seat)  # type: ignore[arg-type]
            if source == "any_hex":
                return [(hex_name(s["hex"]), hex_name(s["hex"])) for s in view["stacks"]]
            return [(f"{u['name']} ({u['id']})", u["id"]) for s in view["stacks"] for u in s["units"]]
        if seat is None or seat not in self.seats:
            return []
        side: Any = seat
        if source == "formation":
            prompt = self.game.prompts(state).get(side)
            pairs = [
                (c.label, str(c.args["formation"]))
                for c in (prompt.choices if prompt else ())
                if c.verb == "activate_formation"
            ]
            return [*pairs, ("General activation", "general")] if prompt else []
        if source == "verb":
            prompt = self.game.prompts(state).get(side)
            if prompt is None:
                return []
            return [(v, v) for v in dict.fromkeys([*(c.verb for c in prompt.choices), *prompt.free_verbs])]
        if source == "event":
            return [
                (e.name, e.id) for e in data.events.values() if e.side == seat and state.events_left.get(e.id, 0) > 0
            ]
        if source == "reinforcement":
            return unit_pairs([u for u, _ in legal.reinforcements_due(self.game, state, side)])
        if source == "entry":
            unit = str(given.get("unit", ""))
            return [
                (hex_name(h), hex_name(h))
                for u, hexes in legal.reinforcements_due(self.game, state, side)
                for h in hexes
                if u == unit
            ]
        movers = legal.units_that_may_act(self.game, state, side)
        if source == "ip_unit":
            return unit_pairs(
                [u.id for u in state.units.values() if u.improved_position and data.side_of(u.id) == seat]
            )
        if source == "fatigued":
            return unit_pairs([u.id for u in movers if u.fatigued])
        if source == "unit":
            chosen = [u for u in str(given.get("units", "")).split(",")[:-1] if u.strip()]
            prefix = ",".join(chosen) + "," if chosen else ""
            return [(label, prefix + value) for label, value in unit_pairs([u.id for u in movers])]
        if source in ("destination", "target", "attacker"):
            first = str(given.get("units") or given.get("unit") or given.get("attackers") or "").split(",")[0].strip()
            if source == "destination" and first in state.units:
                options = legal.unit_options(self.game, state, state.units[first])
                return [(hex_name(h), hex_name(h)) for h in options.destinations if hex_name(h).startswith(typed)][:25]
            if source == "target":
                targets = sorted({h for u in movers for h in legal.unit_options(self.game, state, u).targets})
                return [(hex_name(h), hex_name(h)) for h in targets]
            if source == "attacker":
                return unit_pairs([u.id for u in movers if legal.unit_options(self.game, state, u).targets])
        return []

    # --- Odds, information, pictures ------------------------------------------------------------------

    def preview(self, state: GameState, seat: str, verb: str, args: Mapping[str, Any]) -> str | None:
        """An attack's odds (7.5); other actions need no confirmation."""
        if verb != "attack":
            return None
        odds = self.game.preview(state, seat, args)  # type: ignore[arg-type]
        return "\n".join(odds.lines())

    def describe(self, state: GameState, seat: str | None, topic: str, key: str) -> str:
        """Information texts from the seat's view (fog of war applied by the engine)."""
        from engine.hexgrid import hex_name, parse_hex

        view = self.game.view(state, seat)  # type: ignore[arg-type]
        if topic == "status":
            weather = view.get("weather", "")
            return (
                f"Turn {view['turn']} ({weather}), {view['phase']} phase; initiative: {view['initiative'] or '-'}; "
                f"active side: {view['active'] or '-'}."
            )
        if topic in ("hex", "stack"):
            try:
                where = parse_hex(key)
            except ValueError as error:
                raise InvalidActionError(str(error)) from None
            if not self.game.data.map.grid.contains(where):
                raise InvalidActionError(f"hex {key} is not on the map")
            stack = next((s for s in view["stacks"] if s["hex"] == where), None)
            terrain = self.game.data.map.terrain_at(where) if hasattr(self.game.data.map, "terrain_at") else ""
            head = f"Hex {hex_name(where)}" + (f" ({terrain})" if terrain else "")
            if stack is None:
                return f"{head}: empty."
            lines = [f"{head}: {stack['side']} stack of {stack['count']} counter(s)."]
            lines += [_unit_line(u) for u in stack["units"]]
            if len(stack["units"]) < stack["count"]:
                lines.append(f"{stack['count'] - len(stack['units'])} more counter(s) hidden (11).")
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
            return "\n".join([f"**{seat}** order of battle ({len(lines)} units on the map)", *lines, pools])
        raise InvalidActionError(f"nothing to say about {topic!r}")

    def picture(self, state: GameState, seat: str | None, events: Sequence[Mapping[str, Any]]) -> bytes | None:
        """The map as the seat sees it; a close-up around the hexes the events name, if any."""
        from render.picture import CounterFace, HiddenStack, Highlight, MapPicture, counter_face
        from render.snapshot import render_map, to_png

        view = self.game.view(state, seat)  # type: ignore[arg-type]
        data = self.game.data
        counters: dict[int, tuple[CounterFace, ...]] = {}
        hidden: dict[int, HiddenStack] = {}
        for stack in view["stacks"]:
            faces = tuple(
                counter_face(
                    data,
                    u["id"],
                    steps=max(1, u["steps"]),
                    markers=[m.replace("_", "-") for m in u["status"] if m == "improved_position"],
                    activated="activated" in u["status"],
                )
                for u in stack["units"]
            )
            counters[stack["hex"]] = faces
            if stack["count"] > len(faces):
                hidden[stack["hex"]] = HiddenStack(stack["side"], stack["count"])
        touched = sorted({h for e in events for h in _hexes(e.get("data", {})) if data.map.grid.contains(h)})
        title = f"{data.name}: turn {view['turn']}, {view['phase']}" + (f" ({seat} view)" if seat else "")
        picture = MapPicture(
            game_map=data.map,
            counters=counters,
            hidden=hidden,
            title=title,
            highlights=tuple(Highlight(h) for h in touched[:40]),
        )
        region = (touched[len(touched) // 2], 6) if touched else None
        return to_png(render_map(picture, zoom=1.0 if region else 0.6, region=region))

    def picture_due(self, events: Sequence[Mapping[str, Any]]) -> bool:
        """A picture after an activation ends, a pass, a new turn or the end."""
        return any(e.get("kind") in PICTURE_KINDS for e in events)


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
    return found
