"""Charts as inline SVG: a line chart or a bar chart of a record's figures, drawn from plain numbers (no script,
no font but the reader's own), so a page shows them with nothing fetched."""

from __future__ import annotations

from html import escape

from render.record.data import Chart

WIDTH = 460
HEIGHT = 220
MARGIN = (44, 26, 34, 12)
"""Room round the plot for the axes' words: left, top, bottom, right."""
COLOURS = ("#c0392b", "#2c6fbb", "#2e8b57", "#8e44ad", "#d35400", "#7f8c8d")
"""The series' colours in order (two sides first: red and blue, as on the maps' key)."""


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About ``count`` round values from ``low`` to ``high``."""
    if high <= low:
        return [low]
    raw = (high - low) / count
    step = next(s * 10**e for e in range(-2, 7) for s in (1, 2, 5) if s * 10**e >= raw)
    first = int(low // step) * step
    found = []
    value = first
    while value <= high + 1e-9:
        if value >= low - 1e-9:
            found.append(round(value, 6))
        value += step
    return found


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def svg(chart: Chart) -> str:
    """The chart as an SVG element (text), with its title, axes, a line (or bars) per series and their key."""
    points = [p for s in chart.series for p in s.points]
    if not points:
        return f'<p class="empty">{escape(chart.title)}: nothing to show yet.</p>'
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    x_low, x_high = min(xs), max(xs)
    y_low, y_high = (min(0.0, *ys), max(0.0, *ys)) if chart.zero or chart.bars else (min(ys), max(ys))
    if not (chart.zero or chart.bars):
        pad = (y_high - y_low) * 0.1 or 10.0
        y_low, y_high = y_low - pad, y_high + pad
    if chart.bars:
        x_low, x_high = x_low - 0.5, x_high + 0.5
    if x_high == x_low:
        x_high = x_low + 1
    if y_high == y_low:
        y_high = y_low + 1
    left, top, bottom, right = MARGIN
    plot_w, plot_h = WIDTH - left - right, HEIGHT - top - bottom

    def px(x: float) -> float:
        return left + (x - x_low) / (x_high - x_low) * plot_w

    def py(y: float) -> float:
        return top + (y_high - y) / (y_high - y_low) * plot_h

    base = py(0) if y_low <= 0 <= y_high else top + plot_h
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(chart.title)}">',
        f'<line x1="{left}" y1="{base:.1f}" x2="{WIDTH - right}" y2="{base:.1f}" stroke="#888"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#888"/>',
    ]
    for tick in _ticks(y_low, y_high):
        parts.append(
            f'<text x="{left - 4}" y="{py(tick) + 4:.1f}" text-anchor="end" class="tick">{_number(tick)}</text>'
            f'<line x1="{left}" y1="{py(tick):.1f}" x2="{WIDTH - right}" y2="{py(tick):.1f}" stroke="#eee"/>'
        )
    for tick in _ticks(min(xs), max(xs), 8):
        if (chart.bars or all(float(x).is_integer() for x in xs)) and not float(tick).is_integer():
            continue
        parts.append(
            f'<text x="{px(tick):.1f}" y="{top + plot_h + 14}" text-anchor="middle" class="tick">{_number(tick)}</text>'
        )
    parts.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{HEIGHT - 4}" text-anchor="middle" class="axis">'
        f"{escape(chart.x_label)}</text>"
        f'<text x="12" y="{top + plot_h / 2:.1f}" text-anchor="middle" class="axis" '
        f'transform="rotate(-90 12 {top + plot_h / 2:.1f})">{escape(chart.y_label)}</text>'
    )
    count = len(chart.series)
    for index, series in enumerate(chart.series):
        colour = COLOURS[index % len(COLOURS)]
        if chart.bars:
            width = plot_w / (x_high - x_low) * 0.8 / count
            for x, y in series.points:
                x0 = px(x) - width * count / 2 + index * width
                y0, y1 = sorted((py(0), py(y)))
                parts.append(
                    f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{width:.1f}" height="{y1 - y0:.1f}" fill="{colour}">'
                    f"<title>{escape(series.name)}: {_number(y)} ({escape(chart.x_label)} {_number(x)})</title></rect>"
                )
        else:
            line = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in series.points)
            parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
        parts.append(
            f'<rect x="{left + index * 100}" y="4" width="10" height="10" fill="{colour}"/>'
            f'<text x="{left + 14 + index * 100}" y="13" class="key">{escape(series.name[:16])}</text>'
        )
    parts.append("</svg>")
    note = f'<p class="note">{escape(chart.note)}</p>' if chart.note else ""
    return f'<figure><figcaption>{escape(chart.title)}</figcaption>{"".join(parts)}{note}</figure>'
