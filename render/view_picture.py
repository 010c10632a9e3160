"""The picture of what one seat may see: :func:`picture_from_view` turns the engine's view (and the events of
the last activation) into a :class:`render.picture.MapPicture`.

Everything comes from the view: the counters the seat may inspect with their steps, strength and statuses,
the size of every stack (under fog of war, 11, the counters it may not see are drawn as blank counters of
their side under the visible top), the markers on the map, the pools and events left. The printed values
that never change (formation colour, NATO size, HQ ratings) come from the game data. Nothing here decides
a rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.contract import Event
from engine.hexgrid import Hex
from engine.vaevictis.data import GameData, Side
from render.happened import happenings
from render.picture import (
    CounterFace,
    GameStatus,
    HiddenStack,
    MapMark,
    MapPicture,
    Overlay,
    PoolLine,
    TurnBox,
    counter_face,
)

STATUS_MARKERS: dict[str, str] = {
    "improved_position": "improved-position",
    "fatigued": "fatigue",
    "out_of_command": "out-of-command",
    "isolated": "isolated",
    "unsupplied": "unsupplied",
    "activated": "activated",
    "disorganized": "disorganized",
}
"""The view's status flags and the marker each puts on the counter."""

SIDE_NAMES = {"german": "German", "allied": "Allied"}


FACE_DOWN_LABEL = "Garrison"
"""[Alsace 16] A face-down garrison's title on its counter: the "?" of its values says it is face down, and the
view's longer name would shrink to an unreadable size on the counter's bar."""


def face_from_view(data: GameData, unit: Mapping[str, Any]) -> CounterFace:
    """A counter's face from one unit of the view: printed values from the data, the rest from the view."""
    statuses = [str(s) for s in unit.get("status", [])]
    activated = "activated" in statuses
    unit_id = str(unit["id"])
    face = counter_face(data, unit_id, steps=int(unit.get("steps", data.units[unit_id].steps)))
    hidden = bool(unit.get("face_down", False))  # [Alsace 16] no printed value may show
    markers = tuple(
        STATUS_MARKERS.get(s, s.replace("_", "-")) for s in statuses if not (s == "activated" and face.is_hq)
    )
    return CounterFace(
        label=FACE_DOWN_LABEL if hidden else str(unit.get("name", face.label)),
        side=face.side,
        nationality=face.nationality,
        kind=face.kind,
        size=face.size,
        bar_color=face.bar_color,
        strength=0 if hidden else int(unit.get("strength", face.strength)),
        steps=face.steps,
        max_steps=int(unit.get("max_steps", face.max_steps)),
        quality=0 if hidden else int(unit.get("quality", face.quality)),
        support=face.support,
        c3i=face.c3i,
        activated=activated and face.is_hq,
        markers=markers,
        supports=tuple(str(s) for s in unit.get("supports", [])),
        face_down=hidden,
    )


def game_status(data: GameData, view: Mapping[str, Any]) -> GameStatus:
    """The margin's contents from the view: turn track, weather, phase, pools per army, events left."""
    pools = []
    for army_id, pool in sorted(view.get("pools", {}).items()):
        army = data.armies.get(army_id)
        if army is None:
            continue
        pools.append(PoolLine(army.side, army.name, tuple(sorted((str(k), int(v)) for k, v in pool.items()))))
    pools.sort(key=lambda line: (line.side != "german", line.army))
    events_left = []
    for event_id, count in view.get("events_left", {}).items():
        definition = data.events.get(event_id)
        if definition is not None:
            events_left.append((definition.side, definition.name, int(count)))
    events_left.sort(key=lambda e: (e[0] != "german", e[1]))
    air = (view.get("air_missions") or {}) if "air" in data.extra else {}  # a game without an air phase (Alsace)
    return GameStatus(
        turns=tuple(TurnBox(t.number, t.date, t.weather or "") for t in data.turns),
        turn=int(view.get("turn", 1)),
        weather=str(view.get("weather", "")),
        phase=str(view.get("phase", "")),
        active=view.get("active"),
        pools=tuple(pools),
        events_left=tuple(events_left),
        air_missions=tuple((side, int(air[side])) for side in ("german", "allied") if side in air),
    )


def picture_from_view(
    data: GameData,
    view: Mapping[str, Any],
    events: Sequence[Event] = (),
    overlays: Iterable[Overlay] = (),
    *,
    seat: Side | None = None,
    title: str | None = None,
) -> MapPicture:
    """The picture of ``view`` (``VaeVictisGame.view(state, seat)``), with what ``events`` did.

    ``events``: the last activation's events as given to this seat (see :func:`render.happened.last_activation`);
    arrows carry the names of units the view shows only. ``overlays``: sets computed by the caller
    (:func:`render.overlays.overlay_sets`). ``seat`` only words the title.
    """
    counters: dict[Hex, tuple[CounterFace, ...]] = {}
    hidden: dict[Hex, HiddenStack] = {}
    positions: dict[str, Hex] = {}
    visible_names: dict[str, str] = {}
    for stack in view.get("stacks", []):
        hex_ = int(stack["hex"])
        units = stack.get("units", [])
        faces = tuple(face_from_view(data, u) for u in units)
        for unit in units:
            positions[str(unit["id"])] = hex_
            visible_names[str(unit["id"])] = str(unit.get("name", ""))
        count = int(stack.get("count", len(faces)))
        if faces:
            counters[hex_] = faces
        if count > len(faces):
            hidden[hex_] = HiddenStack(stack["side"], count)

    def side_of(unit: str) -> str | None:
        return data.side_of(unit) if unit in data.units else None

    happened = happenings(events, positions, side_of=side_of, label_of=lambda unit: visible_names.get(unit, ""))
    marks = tuple(
        MapMark(str(m["kind"]), int(m["hex"]), m.get("side"))
        for m in sorted(view.get("markers", []), key=lambda m: (int(m["hex"]), str(m["kind"])))
    )
    status = game_status(data, view)
    if title is None:
        seen_by = f", seen by {SIDE_NAMES.get(seat, seat)}" if seat else ""
        title = ", ".join(w for w in (data.name, f"turn {status.turn}", status.weather) if w) + seen_by
    return MapPicture(
        game_map=data.map,
        counters=counters,
        hidden=hidden,
        title=title,
        map_marks=marks,
        happened=happened,
        overlays=tuple(overlays),
        status=status,
    )
