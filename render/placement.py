"""Where the labels over a map go: each in the first of its candidate places that hides no counter's values.

A picture's counters are drawn first; their value boxes (the printed name and the bottom line of numbers, see
:func:`render.counters.value_boxes`) are the placer's obstacles. Every label drawn after them (a combat's
result, a map marker, an overlay's cost, a cross beside a stack, a place name over a stack's edges) asks the
:class:`Placer` for a box among candidates in order of preference: the first that overlaps no value box and no
label placed before is taken; when none is free, the one overlapping least, value boxes counting far more than
labels. What was placed stays on record, so tests can check that no label hides a value.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

Box = tuple[float, float, float, float]
"""Left, top, right, bottom, in canvas pixels."""

VALUE_WEIGHT = 1000.0
"""How much worse covering a counter's value is than covering another label, per pixel."""
COUNTER_WEIGHT = 0.05
"""How much worse covering a counter's body (its symbol, away from its values) is than empty map, per pixel."""

DISTANCE_COST = 20.0
"""What one step down a label's list of candidate places costs: a label stays near what it labels unless
that covers something."""


def overlap(a: Box, b: Box) -> float:
    """The area two boxes share (0 when they only touch)."""
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width * height if width > 0 and height > 0 else 0.0


def centred(x: float, y: float, width: float, height: float) -> Box:
    """The box of a label ``width`` by ``height`` centred on ``(x, y)``."""
    return x - width / 2, y - height / 2, x + width / 2, y + height / 2


def ring(anchor: Box, width: float, height: float, gap: float = 2.0, rings: int = 3) -> list[Box]:
    """Boxes ``width`` by ``height`` round ``anchor`` (a counter's box): above it, below it, beside it, at its
    corners, then the same further out, ``rings`` times."""
    left, top, right, bottom = anchor
    cx, cy = (left + right) / 2, (top + bottom) / 2
    boxes: list[Box] = []
    for k in range(rings):
        out = gap + k * (height + gap)
        side = gap + k * (width / 2 + gap)
        boxes += [
            centred(cx, top - out - height / 2, width, height),
            centred(cx, bottom + out + height / 2, width, height),
            centred(right + side + width / 2, cy, width, height),
            centred(left - side - width / 2, cy, width, height),
            centred(right + side + width / 2, top - out - height / 2, width, height),
            centred(left - side - width / 2, top - out - height / 2, width, height),
            centred(right + side + width / 2, bottom + out + height / 2, width, height),
            centred(left - side - width / 2, bottom + out + height / 2, width, height),
        ]
    return boxes


CELL = 64.0
"""The side of a :class:`BoxIndex` cell, in pixels: about a counter at zoom 1.5."""


class BoxIndex:
    """The boxes of a list, found by where they are: each listed in the cells of a grid it touches, so a box's
    neighbours are found without looking at every box of a crowded map (issue 32).

    The list stays the record (appended to by whoever owns it); the index takes in what was appended since it
    last looked each time it is asked.
    """

    def __init__(self, boxes: list[Box]) -> None:
        self.boxes = boxes
        self._cells: dict[tuple[int, int], list[int]] = {}
        self._indexed = 0

    def near(self, box: Box) -> list[Box]:
        """The boxes that may overlap ``box`` (every one that does), in the list's order."""
        self._catch_up()
        found: set[int] = set()
        for cell in _cells(box):
            found.update(self._cells.get(cell, ()))
        return [self.boxes[i] for i in sorted(found)]

    def _catch_up(self) -> None:
        boxes = self.boxes
        for index in range(self._indexed, len(boxes)):
            for cell in _cells(boxes[index]):
                self._cells.setdefault(cell, []).append(index)
        self._indexed = len(boxes)


def _cells(box: Box) -> list[tuple[int, int]]:
    """The grid cells a box touches (edges included: boxes that only touch share no area, so none is lost)."""
    x0, y0 = math.floor(box[0] / CELL), math.floor(box[1] / CELL)
    x1, y1 = math.floor(box[2] / CELL), math.floor(box[3] / CELL)
    return [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]


@dataclass
class Placer:
    """The value boxes of a picture's counters, and the labels placed so far."""

    values: list[Box] = field(default_factory=list)
    """Boxes no label may cover: the counters' printed values."""
    bodies: list[Box] = field(default_factory=list)
    """Whole counters: a label prefers empty map to a counter's symbol."""
    placed: list[Box] = field(default_factory=list)
    """Every label box placed, in order."""

    def __post_init__(self) -> None:
        self._values = BoxIndex(self.values)
        self._bodies = BoxIndex(self.bodies)
        self._placed = BoxIndex(self.placed)

    def cost(self, box: Box) -> float:
        """How bad a place is: what it covers of values, labels and counters, weighted."""
        return (
            VALUE_WEIGHT * sum(overlap(box, v) for v in self._values.near(box))
            + sum(overlap(box, p) for p in self._placed.near(box))
            + COUNTER_WEIGHT * sum(overlap(box, b) for b in self._bodies.near(box))
        )

    def free(self, box: Box) -> bool:
        """Whether ``box`` covers no value and no label."""
        return not self.covers_value(box) and not any(overlap(box, p) for p in self._placed.near(box))

    def covers_value(self, box: Box) -> bool:
        """Whether ``box`` covers a counter's value."""
        return any(overlap(box, v) for v in self._values.near(box))

    def place(self, candidates: Sequence[Box]) -> Box:
        """The candidate of least cost, a later one paying :data:`DISTANCE_COST` a step for being further from
        where the label belongs; recorded as placed."""
        if not candidates:
            raise ValueError("a label needs at least one candidate place")
        scores = [self.cost(box) + DISTANCE_COST * index for index, box in enumerate(candidates)]
        chosen = candidates[scores.index(min(scores))]
        self.placed.append(chosen)
        return chosen

    def add_values(self, boxes: Iterable[Box]) -> None:
        self.values.extend(boxes)

    def hidden_values(self) -> list[tuple[Box, Box]]:
        """Each pair of a placed label and a value box it covers (none, when placement succeeded)."""
        return [(p, v) for p in self.placed for v in self.values if overlap(p, v)]
