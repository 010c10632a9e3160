"""What a game record shows, as plain data: the service (``bot/service/record.py``) gathers it, the page
(:mod:`render.record.page`) writes it out. Nothing here reads a store or decides a rule."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Series:
    """One line of a chart: its name and its points (x, y), x increasing."""

    name: str
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Chart:
    """A line chart (or, with ``bars``, a bar chart of one bar group per x): title, axis words, its series."""

    title: str
    x_label: str
    y_label: str
    series: tuple[Series, ...]
    bars: bool = False
    zero: bool = True
    """Whether the y axis reaches 0 (a count, a deviation from 0); ``False`` fits it to the values (a rating)."""
    note: str = ""
    """A sentence under the chart (how to read it, what it leaves out)."""


@dataclass(frozen=True)
class Frame:
    """One picture of the map: what it shows (caption), the actions it follows (their numbers, the last is the one
    after which it was drawn; empty for the set-up) and the image, PNG or already compact."""

    caption: str
    seqs: tuple[int, ...]
    image: bytes


@dataclass(frozen=True)
class Entry:
    """One action of the log as the record's reader may read it: number, seat, verb and the texts of its events."""

    seq: int
    seat: str
    verb: str
    texts: tuple[str, ...]


@dataclass(frozen=True)
class ChainRow:
    """One stored action as the page's check recomputes it (``bot/store/chain.py``): every field the link and the
    events' hash cover, the events whole, and whether and after which action it was taken back."""

    seq: int
    seat: str
    user_id: int | None
    verb: str
    args: Mapping[str, Any]
    events: Any
    events_hash: str | None
    chain: str | None
    undone: bool
    undone_after: int | None
    record: Mapping[str, Any] | None


@dataclass(frozen=True)
class SealedText:
    """A sealed answer the bot kept (the store's secrets): the text revealed, its receipt, the action it became."""

    owner: str
    receipt: str
    payload: str
    seq: int | None


@dataclass(frozen=True)
class GameRecord:
    """Everything one game's page shows, as one reader may see it."""

    game_id: int
    title: str
    system: str
    scenario: str
    status: str
    """``"active"``, ``"finished"`` ...: the game's stored status."""
    viewer: str
    """Whose view the record is (``"spectator"`` or a seat's name)."""
    over: bool
    seed_hash: str
    seed: str | None
    """The game's seed in hex once revealed (the end), else ``None``: the dice checks await it."""
    head: str | None
    """The chain's head kept with the game."""
    result: str
    victory: str
    """Where the game stands (or how it ended), in the system's words."""
    entries: tuple[Entry, ...]
    frames: tuple[Frame, ...] = ()
    charts: tuple[Chart, ...] = ()
    chain: tuple[ChainRow, ...] | None = None
    """The whole log for the page's checks; ``None`` while part of it is hidden from this reader (before the end)."""
    sealed: tuple[SealedText, ...] = ()
    notes: tuple[str, ...] = ()
    """What the bot checked that the page cannot (the rules replay), and anything left out, one sentence each."""
    extra: Mapping[str, str] = field(default_factory=dict)
    """More sections of text (title -> text), for a record without a map: an ASL campaign's rosters."""
