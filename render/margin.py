"""The side margin of a full-map snapshot: turn track and weather, phase, air missions, each army's support
pool and the event markers left to each side (from a :class:`render.picture.GameStatus`)."""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass
class _Column:
    """The margin being drawn, top down: where the next line goes (``y``) and the sizes every section uses."""

    draw: ImageDraw.ImageDraw
    width: int
    zoom: float
    y: int = 0

    def __post_init__(self) -> None:
        zoom = self.zoom
        self.pad = round(12 * zoom)
        self.text = max(9, round(14 * zoom))
        self.small = max(8, round(12 * zoom))
        self.head = max(10, round(17 * zoom))
        self.ink = palette.LEGEND_TEXT
        self.y = self.pad

    def scaled(self, pixels: float) -> int:
        """``pixels`` at zoom 1, at this margin's zoom."""
        return round(pixels * self.zoom)

    def heading(self, words: str) -> None:
        draw_text(self.draw, (self.pad, self.y), words, self.head, palette.TITLE_BAR, anchor="lt")
        self.y += round(self.head * 1.35)

    def line(self, words: str, size: int, colour: palette.RGB, step: float) -> None:
        """A line of text, ``step`` times its size high."""
        draw_text(self.draw, (self.pad, self.y), words, size, colour, anchor="lt")
        self.y += round(size * step)


def draw_margin(status: GameStatus, height: int, zoom: float) -> Image.Image:
    """The margin as an image ``margin_width(zoom)`` wide and ``height`` high."""
    width = margin_width(zoom)
    image = Image.new("RGB", (width, height), palette.PANEL)
    column = _Column(ImageDraw.Draw(image), width, zoom)
    _turn_track(column, status)
    _turn_lines(column, status)
    _support_pools(column, status)
    _events_left(column, status)
    return image


def _turn_track(column: _Column, status: GameStatus) -> None:
    """One box per turn, the current one highlighted, weather as a coloured band."""
    draw, zoom, ink = column.draw, column.zoom, column.ink
    column.heading("Turn track")
    box_h = round(30 * zoom)
    per_row = 3
    gap = round(4 * zoom)
    box_w = (column.width - 2 * column.pad - (per_row - 1) * gap) // per_row
    for k, turn in enumerate(status.turns):
        row, col = divmod(k, per_row)
        left = column.pad + col * (box_w + gap)
        top = column.y + row * (box_h + gap)
        current = turn.number == status.turn
        fill = palette.TURN_CURRENT if current else (246, 243, 232)
        draw.rectangle(
            (left, top, left + box_w, top + box_h), fill=fill, outline=palette.HEX_OUTLINE, width=2 if current else 1
        )
        if turn.weather:
            band = palette.WEATHER.get(turn.weather, (200, 200, 200))
            draw.rectangle((left + 1, top + box_h - round(6 * zoom), left + box_w - 1, top + box_h - 1), fill=band)
        number_at = (left + round(4 * zoom), top + round(3 * zoom))
        draw_text(draw, number_at, str(turn.number), column.text, ink, anchor="lt")
        date = (
            turn.date.replace(" 1944", "").replace(" 1945", "").replace(" December", " Dec").replace(" January", " Jan")
        )
        size = fitting_size(date, column.small, box_w - round(24 * zoom), smallest=7)
        draw_text(draw, (left + box_w - round(3 * zoom), top + round(4 * zoom)), date, size, ink, anchor="rt")
    rows = (len(status.turns) + per_row - 1) // per_row
    column.y += rows * (box_h + gap) + gap


def _turn_lines(column: _Column, status: GameStatus) -> None:
    """Under the track: the weather band's key, the turn and its weather, the phase, the air missions."""
    ink = column.ink
    if any(turn.weather for turn in status.turns):  # Alsace 1944 has no weather
        column.line("Weather band: blue clear, grey overcast", column.small, ink, 1.6)
    weather = f": {status.weather.capitalize()}" if status.weather else ""
    column.line(f"Turn {status.turn}{weather}", column.text, ink, 1.4)
    if status.phase:
        active = f", {status.active.capitalize()} to act" if status.active else ""
        column.line(f"Phase: {status.phase}{active}", column.text, ink, 1.4)
    if status.air_missions:
        missions = ", ".join(f"{side.capitalize()} {count}" for side, count in status.air_missions)
        column.line(f"Air missions: {missions}", column.text, ink, 1.4)
    column.y += column.scaled(8)


def _support_pools(column: _Column, status: GameStatus) -> None:
    """Each army's support pool: its markers as chips with their counts (greyed when none is left)."""
    draw, zoom, ink, pad = column.draw, column.zoom, column.ink, column.pad
    column.heading("Support pools")
    chip_h = round(20 * zoom)
    for line in status.pools:
        column.line(line.army, column.text, palette.SIDE_EDGE.get(line.side, ink), 1.3)
        x = pad
        shown = [(kind, count) for kind, count in line.markers]
        if not shown:
            draw_text(draw, (x, column.y), "(empty)", column.small, ink, anchor="lt")
        for kind, count in shown:
            label, chip = palette.support_chip(kind)
            words = f"{label} x{count}"
            chip_w = round((len(words) * 7.5 + 8) * zoom)
            if x + chip_w > column.width - pad:
                x = pad
                column.y += chip_h + round(3 * zoom)
            y = column.y
            fill = chip if count else (190, 186, 176)
            draw.rectangle((x, y, x + chip_w, y + chip_h), fill=fill, outline=(255, 255, 255))
            draw_text(draw, (x + chip_w / 2, y + chip_h / 2), words, column.small, (255, 255, 255))
            x += chip_w + round(4 * zoom)
        column.y += chip_h + round(8 * zoom)
    column.y += column.scaled(4)


def _events_left(column: _Column, status: GameStatus) -> None:
    """The event markers each side has left, greyed when used up."""
    ink = column.ink
    column.heading("Events left")
    for side in ("german", "allied"):
        entries = [(name, count) for s, name, count in status.events_left if s == side]
        if not entries:
            continue
        column.line(side.capitalize(), column.text, palette.SIDE_EDGE.get(side, ink), 1.3)
        for name, count in entries:
            words = f"{name} x{count}"
            size = fitting_size(words, column.small, column.width - 3 * column.pad, smallest=7)
            draw_text(
                column.draw, (column.pad * 2, column.y), words, size, ink if count else (150, 146, 136), anchor="lt"
            )
            column.y += round(column.small * 1.35)
        column.y += column.scaled(4)
