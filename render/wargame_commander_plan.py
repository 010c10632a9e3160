"""The Wargame Commander plan sheet (4.2r): what one side's Frame CO plans the next frame from, as a picture.

Its own airfields (steps, squads based, caps, closures), its squads and where they fly from, the frame's
weather and declaration, and the targets: the enemy's supply depots, corps (with the tac towns and bridges in
their hexes, 1.6c) and airfields. Drawn from that side's view and the board's fixed data; it decides nothing.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.hexgrid import hex_name
from engine.wargame_commander.board import Board
from render.fonts import ascii_only, font, text_width

WIDTH = 980
MARGIN = 18
ROW = 19
INK = (30, 30, 30)
HEADER = (60, 70, 90)
STRIPE = (238, 240, 244)
PAPER = (255, 255, 255)
SIDE_MARK = {"allied": (30, 80, 210), "german": (205, 30, 30)}
WARN = (190, 40, 20)

Column = tuple[str, int]
"""A table column: its header and its width in pixels."""


def plan_rows(board: Board, view: Mapping[str, Any], side: str) -> dict[str, list[list[str]]]:
    """The plan sheet's tables as rows of text: ``fields``, ``squads``, ``depots``, ``corps``, ``enemy_fields``."""
    return {
        "fields": _own_fields(board, view, side),
        "squads": _squads(board, view, side),
        "depots": _enemy_depots(board, view, side),
        "corps": _enemy_corps(board, view, side),
        "enemy_fields": _enemy_fields(board, view, side),
    }


def _own_fields(board: Board, view: Mapping[str, Any], side: str) -> list[list[str]]:
    basing = view["basing"].get(side, {})
    rows = []
    for field_id, live in view["fields"].items():
        if live["side"] != side:
            continue
        spec = board.airfields[field_id]
        status = "closed (1.5d)" if live["closed"] else ("captured" if live["captured"] else "open")
        steps = ", ".join(f"{t} {n}" for t, n in live["steps"].items() if n) or "no aircraft"
        squads = ", ".join(f"{sq} {at[field_id]}" for sq, at in basing.items() if at.get(field_id)) or "-"
        cap = board.field_sizes[spec.size][0]
        where = hex_name(spec.hex) if spec.hex is not None else "off map"
        area = board.areas[spec.area].name if spec.area in board.areas else spec.area
        rows.append([spec.name, area, where, status, steps, squads, f"{live['squad_steps']}/{cap}"])
    return rows


def _squads(board: Board, view: Mapping[str, Any], side: str) -> list[list[str]]:
    basing = view["basing"].get(side, {})
    rows = []
    for squad in board.squads.values():
        if squad.side != side:
            continue
        at = basing.get(squad.id, {})
        based = ", ".join(f"{f} {n}" if f != "none" else f"stands down {n}" for f, n in at.items()) or "not based"
        rows.append([squad.name, squad.role, str(squad.steps), ", ".join(squad.types), based])
    return rows


def _enemy_depots(board: Board, view: Mapping[str, Any], side: str) -> list[list[str]]:
    enemy = board.enemy(side)
    rows = []
    for depot_id, depot in board.depots.items():
        live = view["depots"][depot_id]
        if live["side"] != enemy:
            continue
        status = "damaged" if live["damaged"] else "intact"
        if depot.side != enemy:
            status += "; ours, lost: retaking it scores 10 (5.1)"
        army = board.units.get(depot.army or "")
        rows.append([depot.name, hex_name(depot.hex), depot.grid or "-", army.name if army else "-", status])
    return rows


def _enemy_corps(board: Board, view: Mapping[str, Any], side: str) -> list[list[str]]:
    rows = []
    for unit_id, unit in view["units"].items():
        spec = board.units[unit_id]
        if spec.side == side or unit["hex"] is None or spec.type == "hq":
            continue
        targets = [p.name for p in (*board.tac_towns, *board.bridges) if p.hex == unit["hex"]]
        target = ", ".join(targets) if targets else "no tac town: hunt its tanks (1.6c)"
        flags = ", ".join(f for f, on in (("engaged", unit["engaged"]), ("Blitz", unit["blitz"])) if on)
        rows.append([f"{spec.name} ({unit_id})", hex_name(unit["hex"]), str(unit["strength"]), flags or "-", target])
    return rows


def _enemy_fields(board: Board, view: Mapping[str, Any], side: str) -> list[list[str]]:
    rows = []
    for field_id, live in view["fields"].items():
        spec = board.airfields[field_id]
        if live["side"] == side or spec.hex is None:
            continue
        steps = ", ".join(f"{t} {n}" for t, n in live["steps"].items() if n) or "no aircraft"
        status = "closed" if live["closed"] else ("captured from us" if spec.side == side else "open")
        rows.append([spec.name, hex_name(spec.hex), spec.size, steps, status])
    return rows


def draw_plan_sheet(board: Board, view: Mapping[str, Any], side: str, declaration: str | None) -> bytes:
    """The PNG of ``side``'s plan sheet before the view's frame; ``declaration`` is the text of a Bodenplatte or
    Big Blow declared for that frame (its demands and, for the Big Blow, the Me262 pilots), if any."""
    rows = plan_rows(board, view, side)
    lines = _heading_lines(board, view, side, declaration)
    sections: list[tuple[str, Sequence[Column], list[list[str]]]] = [
        (
            "Our airfields (1.1 caps, 1.3 steps, 1.5d closures)",
            [
                ("Field", 170),
                ("Ops area", 160),
                ("Hex", 50),
                ("Status", 90),
                ("Aircraft steps", 230),
                ("Squads based", 180),
                ("SS", 44),
            ],
            rows["fields"],
        ),
        (
            "Our squads (1.2 roles; they fly the types of their field, 1.3)",
            [("Squad", 250), ("Role", 80), ("Steps", 50), ("Flies", 220), ("Based at", 344)],
            rows["squads"],
        ),
        (
            "Targets: enemy supply depots (1.6b; 5.1: 1 point damaged)",
            [("Depot", 220), ("Hex", 60), ("Grid", 60), ("Serves", 300), ("Status", 304)],
            rows["depots"],
        ),
        (
            "Targets: enemy corps (1.6c: hit the tac towns and bridges in the hex; 2.41)",
            [("Corps", 300), ("Hex", 60), ("CS", 40), ("Flags", 110), ("Tac towns and bridges", 434)],
            rows["corps"],
        ),
        (
            "Targets: enemy airfields on the map (1.5b)",
            [("Field", 260), ("Hex", 60), ("Size", 80), ("Aircraft steps", 400), ("Status", 144)],
            rows["enemy_fields"],
        ),
    ]
    height = MARGIN * 2 + 34 + 17 * len(lines) + sum(30 + ROW * (len(r) + 1) + 12 for _, _, r in sections) + 40
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    colour = SIDE_MARK.get(side, INK)
    draw.rectangle((0, 0, WIDTH, 8), fill=colour)
    title = f"{side.title()} plan sheet: frame {view['frame']} of {board.frames}"
    draw.text((MARGIN, MARGIN), ascii_only(title), fill=colour, font=font(22))
    y = MARGIN + 34
    for text, warn in lines:
        draw.text((MARGIN, y), ascii_only(text), fill=WARN if warn else INK, font=font(12))
        y += 17
    for heading, columns, table in sections:
        y += 12
        draw.text((MARGIN, y), heading, fill=INK, font=font(14))
        y += 22
        y = _table(draw, y, columns, table)
    pool = ", ".join(f"{t} {n}" for t, n in view["pool"].get(side, {}).items() if n) or "empty"
    draw.text((MARGIN, y + 10), ascii_only(f"Force pool (1.5c): {pool}"), fill=INK, font=font(12))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _heading_lines(board: Board, view: Mapping[str, Any], side: str, declaration: str | None) -> list[tuple[str, bool]]:
    score = ", ".join(f"{s.title()} {p:g}" for s, p in view["score"].items())
    lines = [
        (f"Weather: {view['weather']}.", False),
        (f"Now: {view['phase_name']}. Score: {score}.", False),
    ]
    if declaration:
        lines += [(piece, True) for piece in _wrap(declaration, 140)]
    if view.get("radar_lost"):
        lines.append((f"Radar sites down this frame (1.6a): {', '.join(view['radar_lost'])}.", False))
    return lines


def _table(draw: ImageDraw.ImageDraw, y: int, columns: Sequence[Column], rows: list[list[str]]) -> int:
    """Draw a header row and striped rows from ``y``; returns the y below the table."""
    body = font(11)
    for index, line in enumerate([[c for c, _ in columns], *rows]):
        top = y + ROW * index
        if index == 0:
            draw.rectangle((MARGIN, top, WIDTH - MARGIN, top + ROW), fill=HEADER)
        elif index % 2 == 0:
            draw.rectangle((MARGIN, top, WIDTH - MARGIN, top + ROW), fill=STRIPE)
        x = MARGIN
        for cell, (_, width) in zip(line, columns, strict=False):
            text = _cut(ascii_only(str(cell)), width - 8)
            draw.text((x + 4, top + ROW / 2), text, fill=PAPER if index == 0 else INK, font=body, anchor="lm")
            x += width
    if not rows:
        draw.text((MARGIN + 4, y + ROW * 1.5), "none", fill=INK, font=body, anchor="lm")
        return y + ROW * 2
    return y + ROW * (len(rows) + 1)


def _cut(text: str, width: float) -> str:
    if text_width(text, 11) <= width:
        return text
    while text and text_width(text + "...", 11) > width:
        text = text[:-1]
    return text + "..."


def _wrap(text: str, width: int) -> list[str]:
    words, lines, current = text.split(" "), [], ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}".strip()
    return [*lines, current]
