"""The side margin of a full-map snapshot: turn track and weather, phase, air missions, each army's support
pool and the event markers left to each side (from a :class:`render.picture.GameStatus`)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import palette
from render.fonts import draw_text, fitting_size
from render.picture import GameStatus


def margin_width(zoom: float) -> int:
    """Width of the side margin."""
    return round(300 * zoom)


def status_line(status: GameStatus) -> str:
    """The game's state in a few words, for a close-up's title."""
    date = next((t.date for t in status.turns if t.number == status.turn), "")
    parts = [f"Turn {status.turn}" + (f" ({date})" if date else ""), status.weather]
    if status.active:
        parts.append(f"{status.active.capitalize()} to act")
    return ", ".join(p for p in parts if p)


def draw_margin(status: GameStatus, height: int, zoom: float) -> Image.Image:
    """The margin as an image ``margin_width(zoom)`` wide and ``height`` high."""
    width = margin_width(zoom)
    image = Image.new("RGB", (width, height), palette.PANEL)
    draw = ImageDraw.Draw(image)
    pad = round(12 * zoom)
    text = max(9, round(14 * zoom))
    small = max(8, round(12 * zoom))
    head = max(10, round(17 * zoom))
    ink = palette.LEGEND_TEXT
    y = pad

    def heading(words: str) -> None:
        nonlocal y
        draw_text(draw, (pad, y), words, head, palette.TITLE_BAR, anchor="lt")
        y += round(head * 1.35)

    # Turn track: one box per turn, the current one highlighted, weather as a coloured band.
    heading("Turn track")
    box_h = round(30 * zoom)
    per_row = 3
    box_w = (width - 2 * pad - (per_row - 1) * round(4 * zoom)) // per_row
    for k, turn in enumerate(status.turns):
        row, col = divmod(k, per_row)
        left = pad + col * (box_w + round(4 * zoom))
        top = y + row * (box_h + round(4 * zoom))
        current = turn.number == status.turn
        fill = palette.TURN_CURRENT if current else (246, 243, 232)
        draw.rectangle(
            (left, top, left + box_w, top + box_h), fill=fill, outline=palette.HEX_OUTLINE, width=2 if current else 1
        )
        if turn.weather:
            band = palette.WEATHER.get(turn.weather, (200, 200, 200))
            draw.rectangle((left + 1, top + box_h - round(6 * zoom), left + box_w - 1, top + box_h - 1), fill=band)
        draw_text(draw, (left + round(4 * zoom), top + round(3 * zoom)), str(turn.number), text, ink, anchor="lt")
        date = (
            turn.date.replace(" 1944", "").replace(" 1945", "").replace(" December", " Dec").replace(" January", " Jan")
        )
        size = fitting_size(date, small, box_w - round(24 * zoom), smallest=7)
        draw_text(draw, (left + box_w - round(3 * zoom), top + round(4 * zoom)), date, size, ink, anchor="rt")
    rows = (len(status.turns) + per_row - 1) // per_row
    y += rows * (box_h + round(4 * zoom)) + round(4 * zoom)
    if any(turn.weather for turn in status.turns):  # Alsace 1944 has no weather
        draw_text(draw, (pad, y), "Weather band: blue clear, grey overcast", small, ink, anchor="lt")
        y += round(small * 1.6)
    weather = f": {status.weather.capitalize()}" if status.weather else ""
    draw_text(draw, (pad, y), f"Turn {status.turn}{weather}", text, ink, anchor="lt")
    y += round(text * 1.4)
    if status.phase:
        active = f", {status.active.capitalize()} to act" if status.active else ""
        draw_text(draw, (pad, y), f"Phase: {status.phase}{active}", text, ink, anchor="lt")
        y += round(text * 1.4)
    if status.air_missions:
        missions = ", ".join(f"{side.capitalize()} {count}" for side, count in status.air_missions)
        draw_text(draw, (pad, y), f"Air missions: {missions}", text, ink, anchor="lt")
        y += round(text * 1.4)
    y += round(8 * zoom)

    heading("Support pools")
    chip_h = round(20 * zoom)
    for line in status.pools:
        colour = palette.SIDE_EDGE.get(line.side, ink)
        draw_text(draw, (pad, y), line.army, text, colour, anchor="lt")
        y += round(text * 1.3)
        x = pad
        shown = [(kind, count) for kind, count in line.markers]
        if not shown:
            draw_text(draw, (x, y), "(empty)", small, ink, anchor="lt")
        for kind, count in shown:
            label, chip = palette.support_chip(kind)
            words = f"{label} x{count}"
            chip_w = round((len(words) * 7.5 + 8) * zoom)
            if x + chip_w > width - pad:
                x = pad
                y += chip_h + round(3 * zoom)
            fill = chip if count else (190, 186, 176)
            draw.rectangle((x, y, x + chip_w, y + chip_h), fill=fill, outline=(255, 255, 255))
            draw_text(draw, (x + chip_w / 2, y + chip_h / 2), words, small, (255, 255, 255))
            x += chip_w + round(4 * zoom)
        y += chip_h + round(8 * zoom)
    y += round(4 * zoom)

    heading("Events left")
    for side in ("german", "allied"):
        entries = [(name, count) for s, name, count in status.events_left if s == side]
        if not entries:
            continue
        draw_text(draw, (pad, y), side.capitalize(), text, palette.SIDE_EDGE.get(side, ink), anchor="lt")
        y += round(text * 1.3)
        for name, count in entries:
            words = f"{name} x{count}"
            size = fitting_size(words, small, width - 3 * pad, smallest=7)
            draw_text(draw, (pad * 2, y), words, size, ink if count else (150, 146, 136), anchor="lt")
            y += round(small * 1.35)
        y += round(4 * zoom)
    return image
