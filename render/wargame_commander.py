"""The Wargame Commander map: terrain, corps and army counters, Army Control ranges, frontline breaks,
airfields, depots and battles, with a margin for the frame track, weather, declarations, score and pools.

Drawn from a seat's view (:func:`engine.wargame_commander.series.view`) and the board's fixed data.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.wargame_commander.board import Board
from render.fonts import font, printable

SIZE = 22
"""Hex radius in pixels."""
MARGIN_WIDTH = 330
TERRAIN_FILL = {
    "plain": (226, 219, 178),
    "woods": (128, 166, 104),
    "hills": (184, 152, 110),
    "river": (150, 190, 226),
    "sea": (92, 134, 190),
}
SIDE_FILL = {"allied": (122, 150, 92), "german": (132, 136, 146)}
SIDE_LINE = {"allied": (30, 70, 30), "german": (30, 30, 40)}
SIDE_MARK = {"allied": (40, 90, 200), "german": (200, 40, 40)}


def _hexagon(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    return [(cx + size * math.cos(math.radians(60 * i)), cy + size * math.sin(math.radians(60 * i))) for i in range(6)]


def draw_map(
    board: Board, view: Mapping[str, Any], ranges: Mapping[str, Sequence[int]], gaps: Mapping[str, Sequence[int]]
) -> bytes:
    """The PNG of the board as the view shows it.

    ``ranges`` maps each Army HQ to the hexes of its Army Control (2.2b); ``gaps`` maps each side to the hexes
    where its frontline is broken (2.2c).
    """
    grid = board.grid
    width = int(grid.columns * 1.5 * SIZE + SIZE) + 4
    height = int((grid.rows + 0.5) * math.sqrt(3) * SIZE) + 4
    image = Image.new("RGB", (width + MARGIN_WIDTH, max(height, 560)), (250, 248, 240))
    draw = ImageDraw.Draw(image)
    small, medium, large = font(9), font(11), font(14)

    def centre(hex_: int) -> tuple[float, float]:
        x, y = grid.center(hex_, SIZE)
        return x + 2, y + 2

    for hex_ in grid.hexes:
        cx, cy = centre(hex_)
        draw.polygon(_hexagon(cx, cy, SIZE), fill=TERRAIN_FILL[board.terrain[hex_]], outline=(150, 150, 140))
    for hq_id, hexes in ranges.items():
        side = board.units[hq_id].side
        for hex_ in hexes:
            cx, cy = centre(hex_)
            offset = -6 if side == "allied" else 6
            draw.ellipse((cx + offset - 1.5, cy + 12 - 1.5, cx + offset + 1.5, cy + 12 + 1.5), fill=SIDE_MARK[side])
    for side, hexes in gaps.items():
        for hex_ in hexes:
            cx, cy = centre(hex_)
            draw.polygon(_hexagon(cx, cy, SIZE - 3), outline=SIDE_MARK[side], width=3)
    for depot_id, depot in board.depots.items():
        live = view["depots"][depot_id]
        cx, cy = centre(depot.hex)
        fill = (240, 150, 40) if live["damaged"] else (250, 250, 250)
        draw.rectangle((cx - 16, cy - 16, cx - 8, cy - 8), fill=fill, outline=SIDE_MARK[live["side"]], width=2)
    for field_id, field in board.airfields.items():
        if field.hex is None:
            continue
        live = view["fields"][field_id]
        cx, cy = centre(field.hex)
        colour = SIDE_MARK[live["side"]]
        draw.ellipse((cx + 5, cy - 18, cx + 19, cy - 4), fill=(255, 255, 255), outline=colour, width=2)
        cap = board.field_sizes[field.size][0]
        draw.text((cx + 12, cy - 11), str(cap), fill=colour, font=small, anchor="mm")
        draw.text((cx + 12, cy - 1), f"{sum(live['steps'].values())}", fill=(0, 0, 0), font=small, anchor="mm")
    for battle in view.get("battles", []):
        target = view["units"][battle["defender"]]["hex"] or battle["defender_hex"]
        tx, ty = centre(target)
        for hex_ in battle["attacker_hexes"]:
            ax, ay = centre(hex_)
            draw.line((ax, ay, (ax + tx) / 2, (ay + ty) / 2), fill=(200, 0, 0), width=3)
        draw.text((tx, ty + 15), battle["result"], fill=(180, 0, 0), font=medium, anchor="mm")
    for unit_id, unit in view["units"].items():
        if unit["hex"] is None:
            continue
        spec = board.units[unit_id]
        cx, cy = centre(unit["hex"])
        box = (cx - 11, cy - 9, cx + 11, cy + 9)
        draw.rectangle(box, fill=SIDE_FILL[spec.side], outline=SIDE_LINE[spec.side], width=2 if unit["engaged"] else 1)
        echelon = "XXXX" if spec.type == "hq" else ("SS" if spec.type == "ss" else "XXX")
        draw.text((cx, cy - 4), echelon, fill=(0, 0, 0), font=small, anchor="mm")
        strength = unit["strength"] - unit["damage"]
        flags = ("E" if unit["engaged"] else "") + ("B" if unit["blitz"] else "")
        draw.text((cx, cy + 5), f"{strength}{flags}", fill=(0, 0, 0), font=small, anchor="mm")
    _margin(draw, board, view, width + 10, large, medium)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _margin(draw: ImageDraw.ImageDraw, board: Board, view: Mapping[str, Any], x: int, large: Any, medium: Any) -> None:
    y = 10
    for piece in _wrap(printable(board.title), 36):
        draw.text((x, y), piece, fill=(0, 0, 0), font=large)
        y += 18
    y += 8
    for frame in range(1, board.frames + 1):
        box = (x + (frame - 1) * 34, y, x + (frame - 1) * 34 + 28, y + 22)
        current = frame == view["frame"] and view["phase"] != "over"
        draw.rectangle(box, fill=(250, 220, 120) if current else (235, 235, 235), outline=(0, 0, 0))
        draw.text((box[0] + 14, y + 11), str(frame), fill=(0, 0, 0), font=medium, anchor="mm")
    y += 30
    lines = [
        f"Now: {view['phase_name']}",
        f"Weather: {view['weather']}",
        "Declaration: "
        + (
            f"{view['declaration']['operation']} (frame {view['declaration']['frame']})"
            if view["declaration"]
            else "none"
        ),
        "Score: " + ", ".join(f"{side.title()} {points:g}" for side, points in view["score"].items()),
        "Frontline breaks: " + (", ".join(f"{s.title()} {n}" for s, n in view["frontline"].items()) or "not checked"),
    ]
    for side, pool in view["pool"].items():
        steps = ", ".join(f"{t} {n}" for t, n in pool.items() if n) or "empty"
        lines.append(f"{side.title()} force pool: {steps}")
    if view.get("battles"):
        lines.append("Battles: " + "; ".join(f"{b['id']} {b['column']} {b['result']}" for b in view["battles"]))
    lines += [
        "",
        "Counters: XXX corps, XXXX Army HQ, SS SS corps;",
        "number = combat strength; E engaged, B Blitz.",
        "Circles: airfields (cap over aircraft steps).",
        "Squares: supply depots (orange: damaged).",
        "Dots: Army Control (blue Allied, red German).",
        "Ringed hexes: frontline breaks.",
    ]
    for line in lines:
        for piece in _wrap(printable(line), 48):
            draw.text((x, y), piece, fill=(0, 0, 0), font=medium)
            y += 15


def _wrap(text: str, width: int) -> list[str]:
    words, lines, current = text.split(" "), [], ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}".strip()
    return [*lines, current]
