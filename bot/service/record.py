"""A game's record (issue 34): what its self-contained page shows, gathered as one reader may see it, and the page.

The record is built from the store alone: the log (undone actions included, for the hash chain), the sealed answers
kept, and a replay of the live actions from the set-up that draws the map after each activation (wherever the
system says a picture is due, as in the channel) as the reader's seat saw it. Who reads decides what it holds:

- **before the end**, a player's record shows what that seat may read (its own sealed events, the fog of war's
  redactions of the other side's), a spectator's only what both sides may read; the seed stays secret, so the
  dice checks await the end, and where part of the log is hidden from the reader the hash chain does too (it
  covers every event whole);
- **after the end** every record shows everything: all events, the map without fog of war (the system's optional
  ``unveiled``), the seed and the sealed answers, so the page checks every roll, link and receipt.

Optional parts of a system (:class:`~bot.service.game_types.SystemAdapter` methods looked up by name, like
``draw`` and ``inform``): ``unveiled(state)`` (the state with nothing hidden), ``record_charts(states, seat, log,
over)`` (its charts, from the state after each picture) and ``record_sections(state, seat, over)`` (texts for a
record without a map). Every system gets a chart of dice luck, from the dice its actions kept.

The page itself is :func:`render.record.page.record_page`.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import Mapping, Sequence
from typing import Any

from bot.service.game_service import GameService
from bot.service.game_types import Refusal, SystemAdapter
from bot.service.verification import Verification
from bot.store import chain
from bot.store.records import ActionRow, GameRow, SecretRow
from engine.contract import Action
from render.record.data import ChainRow, Chart, Entry, Frame, GameRecord, SealedText, Series
from render.record.page import record_page

CAPTION_LENGTH = 160
"""The longest a picture's caption is, in characters."""


async def game_record(
    service: GameService, game_id: int, seat: str | None, *, pictures: bool = True
) -> GameRecord:
    """The record of game ``game_id`` as ``seat`` may see it (``None``: a spectator); the drawing and the replay run
    in a worker thread of their own, so the picture worker and the event loop go on meanwhile. Without
    ``pictures``, the record has no map (a check of its texts).

    :raises Refusal: for an unknown game or seat.
    """
    try:
        game = await service.store.game(game_id)
    except ValueError:
        raise Refusal(f"the stored setup of game #{game_id} is not readable: it was edited by hand") from None
    if game is None:
        raise Refusal(f"there is no game #{game_id}")
    system = service.system(game.system)
    if seat is not None and seat not in system.seats:
        raise Refusal(f"there is no seat {seat!r}; the seats are {', '.join(system.seats)}")
    try:
        rows = await service.store.actions(game.id, include_undone=True)
    except ValueError as error:
        raise Refusal(f"the stored log of game #{game_id} is not readable ({error}): see `umpire verify`") from None
    secrets = await service.store.secrets(game.id)
    state = await service.state(game)
    checked = await service.verify(game.id) if not game.live else None
    return await asyncio.to_thread(gather, system, game, rows, secrets, state, seat, checked, pictures)


async def record_html(service: GameService, game_id: int, seat: str | None) -> str:
    """The page of :func:`game_record`, as HTML text (the page's pictures compacted in the same worker thread)."""
    record = await game_record(service, game_id, seat)
    return await asyncio.to_thread(record_page, record)


def gather(
    system: SystemAdapter,
    game: GameRow,
    rows: Sequence[ActionRow],
    secrets: Sequence[SecretRow],
    state: Any,
    seat: str | None,
    checked: Verification | None,
    pictures: bool = True,
) -> GameRecord:
    """The record of a game from its stored rows (see the module docstring); ``state`` is the position now,
    ``checked`` the bot's verification once the game is over."""
    over = not game.live
    readable = [_readable(system, state, seat, row.events, over) for row in rows]
    whole = over or all(
        seen == [dict(e) for e in row.events] and not any((d or {}).get("stream") for d in row.draws or [])
        for row, seen in zip(rows, readable, strict=True)
    )
    live = [(row, seen) for row, seen in zip(rows, readable, strict=True) if not row.undone]
    log = [{"seq": r.seq, "seat": r.seat, "verb": r.verb, "args": r.args, "events": seen} for r, seen in live]
    entries = tuple(Entry(r.seq, r.seat, r.verb, tuple(str(e.get("text", "")) for e in seen)) for r, seen in live)
    notes: list[str] = []
    frames, states = _frames(system, game, live, seat, over, notes) if pictures else ([], [])
    charts = [*_charts(system, states, seat, log, over, notes)]
    if whole:
        charts.append(dice_luck(live, system.seats))
    receipts = {s.seq: s.receipt for s in secrets if s.seq is not None}
    chained = (
        tuple(
            ChainRow(
                r.seq, r.seat, r.user_id, r.verb, r.args, r.events, r.events_hash, r.chain, r.undone, r.undone_after,
                chain.action_record(r.rules, r.draws, receipts.get(r.seq)),
            )
            for r in rows
        )
        if whole
        else None
    )  # fmt: skip
    if not whole:
        notes.append(
            "Part of the log is hidden from this view until the game ends: the record made after the end holds it "
            "whole, and its page checks the hash chain too."
        )
    if checked is not None:
        replay = next((layer for layer in checked.layers if layer.name == "rules replay"), None)
        if replay is not None:
            verdict = "; ".join(replay.problems) or "no problem found"
            notes.append(f"The bot's rules replay when this record was made: {replay.checked}; {verdict}.")
            notes += replay.notes
    victory = _victory(system, state, seat, log, over)
    sections = getattr(system, "record_sections", None)
    extra = {k: plain(v) for k, v in sections(state, seat, over).items()} if sections is not None else {}
    return GameRecord(
        game_id=game.id,
        title=f"{system.name}: {game.scenario}, game #{game.id}",
        system=system.name,
        scenario=game.scenario,
        status=game.status,
        viewer=seat or "spectator",
        over=over,
        seed_hash=game.seed_hash,
        seed=game.seed if over else None,
        head=game.chain_head,
        result=str((game.result or {}).get("text", "")),
        victory=victory,
        entries=entries,
        frames=tuple(frames),
        charts=tuple(charts),
        chain=chained,
        sealed=tuple(SealedText(s.owner, s.receipt, s.payload, s.seq) for s in secrets) if over else (),
        notes=tuple(notes),
        extra=extra,
    )


def _readable(
    system: SystemAdapter, state: Any, seat: str | None, events: Sequence[Mapping[str, Any]], over: bool
) -> list[dict[str, Any]]:
    """An action's events as the reader may read them: all after the end; else those not sealed to another seat,
    redacted under fog of war (the system's ``redact``)."""
    if over:
        return [dict(e) for e in events]
    seen = [dict(e) for e in events if not e.get("secret_to") or (seat is not None and seat in e["secret_to"])]
    redact = getattr(system, "redact", None)
    return list(redact(state, seat, seen)) if redact is not None and seen else seen


def _frames(
    system: SystemAdapter,
    game: GameRow,
    live: Sequence[tuple[ActionRow, list[dict[str, Any]]]],
    seat: str | None,
    over: bool,
    notes: list[str],
) -> tuple[list[Frame], list[tuple[int, Any]]]:
    """The map after the set-up and after each activation (where the system says a picture is due), replayed from
    the set-up; and the state after each picture (index of the picture, state)."""
    draw = getattr(system, "draw", None)
    unveiled = getattr(system, "unveiled", None) if over else None

    def picture(position: Any, events: list[dict[str, Any]]) -> bytes | None:
        shown = unveiled(position) if unveiled is not None else position
        if draw is not None:
            return bytes(draw(shown, seat, events))
        png = system.picture(shown, seat, events)
        return bytes(png) if png is not None else None

    frames: list[Frame] = []
    states: list[tuple[int, Any]] = []
    try:
        position = system.new_game(game.scenario, game.options, bytes.fromhex(game.seed))
    except Exception as error:  # a setup edited by hand: the record still shows the log
        notes.append(f"No pictures: the game's set-up does not load ({error}).")
        return frames, states
    first = picture(position, [])
    if first is None:
        return frames, states
    frames.append(Frame(f"The set-up. {_status(system, position, seat)}", (), first))
    states.append((0, position))
    waiting: list[dict[str, Any]] = []
    seqs: list[int] = []
    for row, seen in live:
        try:
            position, _ = system.apply(position, Action(row.seat, row.verb, row.args))
        except Exception as error:  # played under older rules, or a log edited by hand
            reason = getattr(error, "reason", str(error))
            notes.append(f"The pictures stop at action #{row.seq}: the rules of today refuse it ({reason}).")
            return frames, states
        waiting += seen
        seqs.append(row.seq)
        if system.picture_due(row.events):
            png = picture(position, waiting)
            if png is not None:
                frames.append(Frame(_caption(system, position, seat, row, waiting), tuple(seqs), png))
                states.append((len(frames) - 1, position))
            waiting, seqs = [], []
    if seqs:
        png = picture(position, waiting)
        if png is not None:
            frames.append(Frame(f"Now, after action #{seqs[-1]}. {_status(system, position, seat)}", tuple(seqs), png))
            states.append((len(frames) - 1, position))
    return frames, states


def plain(text: str) -> str:
    """A system's answer without Discord's markdown (bold, underline, code), as a page shows it."""
    return text.replace("**", "").replace("__", "").replace("`", "")


def _status(system: SystemAdapter, state: Any, seat: str | None) -> str:
    try:
        return plain(system.describe(state, seat, "status", ""))
    except Exception:  # a system without a status line: the caption says less
        return ""


def _caption(
    system: SystemAdapter, state: Any, seat: str | None, row: ActionRow, events: Sequence[Mapping[str, Any]]
) -> str:
    caption = getattr(system, "picture_caption", None)
    said = caption(events) if caption is not None else f"After action #{row.seq} ({row.seat} {row.verb})."
    text = f"{said} {_status(system, state, seat)}".strip()
    return text if len(text) <= CAPTION_LENGTH else text[: CAPTION_LENGTH - 1] + "…"


def _charts(
    system: SystemAdapter,
    states: Sequence[tuple[int, Any]],
    seat: str | None,
    log: Sequence[Mapping[str, Any]],
    over: bool,
    notes: list[str],
) -> list[Chart]:
    charts = getattr(system, "record_charts", None)
    if charts is None:
        return []
    try:
        return list(charts(states, seat, log, over))
    except Exception as error:  # a chart is never worth losing the record
        notes.append(f"The system's charts could not be drawn ({error}).")
        return []


def _victory(system: SystemAdapter, state: Any, seat: str | None, log: Sequence[Mapping[str, Any]], over: bool) -> str:
    """Where the game stands, in the system's words: its status line, and its victory answer when it gives one."""
    lines = [_status(system, state, seat)]
    inform = getattr(system, "inform", None)
    if inform is not None:
        with contextlib.suppress(Exception):  # a system with no `victory` answer: the status line says it
            lines.append(str(inform(state, seat, "victory", "", log, over).text))
    return plain("\n\n".join(line for line in lines if line))


def dice_luck(live: Sequence[tuple[ActionRow, Any]], seats: Sequence[str] = ()) -> Chart:
    """How lucky each seat's dice ran: after each action that rolled, the running total of that seat's public
    rolls against its expectation, in standard deviations (0 is exactly average; beyond 2 is rare)."""
    totals: dict[str, list[float]] = {}
    points: dict[str, list[tuple[float, float]]] = {}
    for row, _ in live:
        rolled = [d for d in row.draws or [] if not d.get("stream") and int(d.get("sides", 0)) > 1]
        if not rolled:
            continue
        total = totals.setdefault(row.seat, [0.0, 0.0])
        for draw in rolled:
            sides = int(draw["sides"])
            total[0] += float(draw["die"]) - (sides + 1) / 2
            total[1] += (sides * sides - 1) / 12
        points.setdefault(row.seat, []).append((float(row.seq), total[0] / math.sqrt(total[1])))
    return Chart(
        "Dice luck",
        "action",
        "standard deviations",
        tuple(
            Series(s, tuple(points[s]))
            for s in sorted(points, key=lambda s: (s not in seats, list(seats).index(s) if s in seats else 0))
        ),
        note="Each seat's public rolls so far (the rolls its own actions made) against their expectation: above 0 "
        "luckier than average, below unluckier; beyond 2 either way happens about once in 20 games.",
    )
