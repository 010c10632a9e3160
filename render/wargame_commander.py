"""The Wargame Commander map: terrain with hex numbers, corps and army counters, each Army HQ's Army Control
range, each side's frontline chain and its breaks, airfields, depots and battles, with a margin for the frame
track, weather, declarations, score, force pools and a legend.

Drawn from a seat's view (:func:`engine.wargame_commander.series.view`), the board's fixed data, and the
geometry the adapter computes from the state (Army Control ranges, frontline chains).
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.hexgrid import hex_name
from engine.wargame_commander.board import Board
from engine.wargame_commander.scoring import band
from render.fonts import Font, ascii_only, font

SIZE = 30
"""Hex radius in pixels."""
MARGIN_WIDTH = 360
PAPER = (250, 248, 240)
TERRAIN_FILL = {
    "plain": (232, 226, 190),
    "woods": (150, 184, 124),
    "hills": (196, 168, 128),
    "river": (170, 204, 232),
    "sea": (104, 146, 198),
}
SIDE_FILL = {"allied": (150, 178, 118), "german": (160, 164, 174)}
SIDE_LINE = {"allied": (30, 70, 30), "german": (30, 30, 40)}
SIDE_MARK = {"allied": (30, 80, 210), "german": (205, 30, 30)}
"""Each side's colour for its frontline, Army Control ranges, airfields and depots."""
DAMAGED = (240, 150, 40)
BATTLE = (170, 0, 120)

Hex = int
Frontlines = Mapping[str, tuple[Sequence[Hex], Sequence[Hex]]]
"""Side to (its frontline chain from the north edge to the south edge, the chain's breaks)."""


def _hexagon(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    return [(cx + size * math.cos(math.radians(60 * i)), cy + size * math.sin(math.radians(60 * i))) for i in range(6)]


class _Sheet:
    """The map's geometry: hex centres in pixels and the edges between hexes."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.grid = board.grid
        self.width = int(self.grid.columns * 1.5 * SIZE + SIZE * 0.6) + 4
        self.height = int((self.grid.rows + 0.5) * math.sqrt(3) * SIZE) + 4
        self._by_centre = {self._key(self.centre(h)): h for h in self.grid.hexes}

    def centre(self, hex_: Hex) -> tuple[float, float]:
        x, y = self.grid.center(hex_, SIZE)
        return x + 2, y + 2

    @staticmethod
    def _key(point: tuple[float, float]) -> tuple[int, int]:
        return round(point[0] / 4), round(point[1] / 4)

    def outline(self, hexes: set[Hex], inset: float) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        """The edges around a set of hexes (the sides facing a hex outside it), drawn ``inset`` pixels inside."""
        edges = []
        for hex_ in hexes:
            cx, cy = self.centre(hex_)
            corners = _hexagon(cx, cy, SIZE - inset)
            for i in range(6):
                a, b = corners[i], corners[(i + 1) % 6]
                mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                reach = 2 * SIZE / (SIZE - inset)
                across = (cx + (mid[0] - cx) * reach, cy + (mid[1] - cy) * reach)
                if self._by_centre.get(self._key(across)) not in hexes:
                    edges.append((a, b))
        return edges


def draw_map(
    board: Board, view: Mapping[str, Any], ranges: Mapping[str, Sequence[Hex]], frontlines: Frontlines
) -> bytes:
    """The PNG of the board as the view shows it.

    ``ranges`` maps each Army HQ to the hexes of its Army Control (2.2b); ``frontlines`` gives each side's
    frontline chain and its breaks (2.2c).
    """
    sheet = _Sheet(board)
    image = Image.new("RGB", (sheet.width + MARGIN_WIDTH, max(sheet.height, 640)), PAPER)
    draw = ImageDraw.Draw(image)
    _terrain(draw, sheet)
    _ranges(draw, sheet, ranges)
    _frontlines(draw, sheet, frontlines)
    _places(draw, sheet, view)
    _battles(draw, sheet, view)
    _counters(draw, sheet, view)
    _battle_labels(draw, sheet, view)
    _margin(draw, board, view, sheet.width + 12)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _terrain(draw: ImageDraw.ImageDraw, sheet: _Sheet) -> None:
    numbers = font(8)
    for hex_ in sheet.grid.hexes:
        cx, cy = sheet.centre(hex_)
        terrain = sheet.board.terrain[hex_]
        draw.polygon(_hexagon(cx, cy, SIZE), fill=TERRAIN_FILL[terrain], outline=(160, 156, 140))
        ink = (235, 240, 250) if terrain == "sea" else (110, 104, 90)
        draw.text((cx, cy - SIZE * 0.58), hex_name(hex_), fill=ink, font=numbers, anchor="mm")


def _ranges(draw: ImageDraw.ImageDraw, sheet: _Sheet, ranges: Mapping[str, Sequence[Hex]]) -> None:
    """2.2b: each Army HQ's range as a dashed outline in its side's colour, a little inside the hex edges."""
    for hq_id, hexes in ranges.items():
        side = sheet.board.units[hq_id].side
        inset = 2 if side == sheet.board.sides[0] else 4
        for a, b in sheet.outline(set(hexes), inset):
            _dashed(draw, a, b, SIDE_MARK[side])


def _dashed(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], colour: Any) -> None:
    steps = 4
    for i in range(0, steps, 2):
        start = (a[0] + (b[0] - a[0]) * i / steps, a[1] + (b[1] - a[1]) * i / steps)
        end = (a[0] + (b[0] - a[0]) * (i + 1) / steps, a[1] + (b[1] - a[1]) * (i + 1) / steps)
        draw.line((start, end), fill=colour, width=1)


def _frontlines(draw: ImageDraw.ImageDraw, sheet: _Sheet, frontlines: Frontlines) -> None:
    """2.2c: each side's frontline as a line through its chain of hexes; its breaks ringed."""
    for n, (side, (chain, gaps)) in enumerate(frontlines.items()):
        shift = -5 if n == 0 else 5
        points = [(x + shift, y) for x, y in (sheet.centre(h) for h in chain)]
        if len(points) > 1:
            draw.line(points, fill=SIDE_MARK[side], width=4, joint="curve")
        for hex_ in gaps:
            cx, cy = sheet.centre(hex_)
            draw.polygon(_hexagon(cx, cy, SIZE - 4), outline=SIDE_MARK[side], width=4)
            draw.text((cx + shift * 2, cy + SIZE * 0.45), "break", fill=SIDE_MARK[side], font=font(9), anchor="mm")


def _places(draw: ImageDraw.ImageDraw, sheet: _Sheet, view: Mapping[str, Any]) -> None:
    """Supply depots (damaged orange, captured crossed) and airfields (squad-step cap over aircraft steps)."""
    board = sheet.board
    for depot_id, depot in board.depots.items():
        live = view["depots"][depot_id]
        cx, cy = sheet.centre(depot.hex)
        box = (cx - SIZE * 0.75, cy - 7, cx - SIZE * 0.75 + 12, cy + 5)
        fill = DAMAGED if live["damaged"] else (255, 255, 255)
        draw.rectangle(box, fill=fill, outline=SIDE_MARK[live["side"]], width=2)
        if live["side"] != depot.side:
            draw.line((box[0], box[1], box[2], box[3]), fill=SIDE_MARK[live["side"]], width=2)
            draw.line((box[0], box[3], box[2], box[1]), fill=SIDE_MARK[live["side"]], width=2)
    for field_id, field in board.airfields.items():
        if field.hex is None:
            continue
        live = view["fields"][field_id]
        cx, cy = sheet.centre(field.hex)
        colour = SIDE_MARK[live["side"]]
        ox, oy = cx + SIZE * 0.55, cy + SIZE * 0.05
        fill = (255, 214, 214) if live["closed"] else (255, 255, 255)
        draw.ellipse((ox - 9, oy - 9, ox + 9, oy + 9), fill=fill, outline=colour, width=2)
        cap = board.field_sizes[field.size][0]
        draw.text((ox, oy - 3), str(cap), fill=colour, font=font(10), anchor="mm")
        draw.text((ox, oy + 5), str(sum(live["steps"].values())), fill=(0, 0, 0), font=font(7), anchor="mm")
        draw.text((ox, oy + 14), field_id, fill=colour, font=font(8), anchor="mm")


def _battles(draw: ImageDraw.ImageDraw, sheet: _Sheet, view: Mapping[str, Any]) -> None:
    for battle in view.get("battles", []):
        tx, ty = sheet.centre(battle["defender_hex"])
        for hex_ in battle["attacker_hexes"]:
            ax, ay = sheet.centre(hex_)
            draw.line((ax, ay, (ax + tx) / 2, (ay + ty) / 2), fill=BATTLE, width=3)
            draw.ellipse(((ax + tx) / 2 - 3, (ay + ty) / 2 - 3, (ax + tx) / 2 + 3, (ay + ty) / 2 + 3), fill=BATTLE)


LABEL_TOP = 17
"""How far below a hex's centre a battle's label begins: under the counter (whose box ends 15 below), so the
label never hides it, and drawn after the counters, so no counter hides the label."""


def _battle_labels(draw: ImageDraw.ImageDraw, sheet: _Sheet, view: Mapping[str, Any]) -> None:
    for battle in view.get("battles", []):
        tx, ty = sheet.centre(battle["defender_hex"])
        label = f"{battle['id']} {battle['result']}"
        box = draw.textbbox((tx, ty + LABEL_TOP), label, font=font(9), anchor="mt")
        draw.rectangle((box[0] - 2, box[1] - 1, box[2] + 2, box[3] + 1), fill=(255, 255, 255), outline=BATTLE)
        draw.text((tx, ty + LABEL_TOP), label, fill=BATTLE, font=font(9), anchor="mt")


def _counters(draw: ImageDraw.ImageDraw, sheet: _Sheet, view: Mapping[str, Any]) -> None:
    board, small = sheet.board, font(9)
    for unit_id, unit in view["units"].items():
        if unit["hex"] is None:
            continue
        spec = board.units[unit_id]
        cx, cy = sheet.centre(unit["hex"])
        box = (cx - 16, cy - 11, cx + 16, cy + 15)
        width = 3 if unit["engaged"] else 1
        draw.rectangle(box, fill=SIDE_FILL[spec.side], outline=SIDE_LINE[spec.side], width=width)
        echelon = "XXXX" if spec.type == "hq" else "XXX"
        draw.text((cx, cy - 6), echelon, fill=(0, 0, 0), font=font(7), anchor="mm")
        draw.text((cx, cy + 2), unit_id, fill=(0, 0, 0), font=small, anchor="mm")
        strength = unit["strength"] - unit["damage"]
        kind = {"ss": "SS", "panzer": "Pz"}.get(spec.type, "")
        flags = ("E" if unit["engaged"] else "") + ("B" if unit["blitz"] else "")
        draw.text((cx, cy + 10), f"{kind} {strength} {flags}".strip(), fill=(0, 0, 0), font=small, anchor="mm")


def _margin(draw: ImageDraw.ImageDraw, board: Board, view: Mapping[str, Any], x: int) -> None:
    large, medium, small = font(15), font(11), font(9)
    y = 10
    for piece in _wrap(ascii_only(board.title), 40):
        draw.text((x, y), piece, fill=(0, 0, 0), font=large)
        y += 19
    y += 6
    draw.text((x, y), "Frame track (3.1 weather; 3.3 declaration)", fill=(0, 0, 0), font=medium)
    y += 16
    declaration = view["declaration"]
    for frame in range(1, board.frames + 1):
        left = x + (frame - 1) * 64
        box = (left, y, left + 58, y + 40)
        current = frame == view["frame"] and view["phase"] != "over"
        flown = frame < view["frame"] or view["phase"] == "over"
        fill = (250, 220, 120) if current else ((214, 214, 214) if flown else (240, 240, 240))
        draw.rectangle(box, fill=fill, outline=(0, 0, 0), width=2 if current else 1)
        draw.text((left + 29, y + 9), f"Frame {frame}", fill=(0, 0, 0), font=small, anchor="mm")
        weather = "heavy o/c" if frame <= 3 else "light o/c"
        draw.text((left + 29, y + 20), weather, fill=(60, 60, 60), font=small, anchor="mm")
        if declaration and declaration["frame"] == frame:
            word = "Bodenplatte" if declaration["operation"] == "bodenplatte" else "Big Blow"
            draw.text((left + 29, y + 31), word, fill=SIDE_MARK["german"], font=small, anchor="mm")
    y += 50
    score = view["score"]
    over = view["phase"] == "over"
    now = view["phase_name"] if over else f"{view['phase_name']}, before frame {view['frame']}"
    lines: list[tuple[str, Font, Any]] = [
        (f"Now: {now}", medium, (0, 0, 0)),
        (f"Weather: {view['weather']}", medium, (0, 0, 0)),
        (
            "Declaration: "
            + (
                f"{declaration['operation']} before frame {declaration['frame']}"
                if declaration
                else "none yet (one in the series, 3.3a)"
            ),
            medium,
            (0, 0, 0),
        ),
        ("Score: " + ", ".join(f"{side.title()} {points:g}" for side, points in score.items()), large, (0, 0, 0)),
        *([(f"Result: {_result(board, score)} (5.1)", large, (0, 0, 0))] if over else []),
        (
            "Frontline breaks: "
            + (", ".join(f"{s.title()} {n}" for s, n in view["frontline"].items()) or "not checked yet"),
            medium,
            (0, 0, 0),
        ),
    ]
    for side, pool in view["pool"].items():
        steps = ", ".join(f"{t} {n}" for t, n in pool.items() if n) or "empty"
        lines.append((f"{side.title()} force pool (1.5c): {steps}", medium, SIDE_MARK[side]))
    if view.get("battles"):
        lines.append(("Battles:", medium, BATTLE))
        for battle in view["battles"]:
            lines.append(
                (
                    f"{battle['id']} {'+'.join(battle['attackers'])} vs {battle['defender']}: {battle['column']}, "
                    f"{battle['dice'][0]}+{battle['dice'][1]}{battle['drm']:+d} = {battle['result']}",
                    small,
                    BATTLE,
                )
            )
    for text, face, colour in lines:
        for piece in _wrap(ascii_only(text), 50 if face is not small else 60):
            draw.text((x, y), piece, fill=colour, font=face)
            y += 20 if face is large else 15
    y += 8
    _legend(draw, x, y, small)


def _result(board: Board, score: Mapping[str, float]) -> str:
    first, second = board.sides
    name = band(board, abs(score[first] - score[second]))
    if name == board.scoring.bands[0][1]:
        return name
    return f"{name} for the {(first if score[first] > score[second] else second).title()} side"


def _legend(draw: ImageDraw.ImageDraw, x: int, y: int, small: Font) -> None:
    draw.text((x, y), "Legend", fill=(0, 0, 0), font=font(11))
    y += 18
    entries: list[tuple[str, str]] = [
        ("counter", "counter: XXX corps / XXXX Army HQ, id, CS; Pz/SS, E engaged (thick), B Blitz"),
        ("front", "thick line: a side's frontline (2.2c); ringed 'break': a gap"),
        ("range", "dashed outline: an Army HQ's Army Control (2.2b)"),
        ("field", "circle: airfield, squad-step cap over aircraft steps; pink closed"),
        ("depot", "square: supply depot; orange damaged; crossed captured"),
        ("battle", "purple: battle id and result"),
    ]
    for kind, text in entries:
        if kind == "counter":
            draw.rectangle((x, y - 1, x + 16, y + 11), fill=SIDE_FILL["allied"], outline=SIDE_LINE["allied"])
        elif kind == "front":
            draw.line((x, y + 5, x + 16, y + 5), fill=SIDE_MARK["allied"], width=4)
        elif kind == "range":
            _dashed(draw, (x, y + 5), (x + 16, y + 5), SIDE_MARK["german"])
        elif kind == "field":
            draw.ellipse((x + 2, y - 1, x + 14, y + 11), fill=(255, 255, 255), outline=SIDE_MARK["allied"], width=2)
        elif kind == "depot":
            draw.rectangle((x + 3, y, x + 13, y + 10), fill=DAMAGED, outline=SIDE_MARK["german"], width=2)
        else:
            draw.line((x, y + 5, x + 16, y + 5), fill=BATTLE, width=3)
        for i, piece in enumerate(_wrap(text, 50)):
            draw.text((x + 22, y + i * 13), piece, fill=(0, 0, 0), font=small)
        y += 13 * len(_wrap(text, 50)) + 4
    draw.text((x, y + 2), "Blue: Allied. Red: German.", fill=(0, 0, 0), font=small)


def _wrap(text: str, width: int) -> list[str]:
    words, lines, current = text.split(" "), [], ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}".strip()
    return [*lines, current]
