"""The game record's page: one HTML file holding everything it shows and checks, fetching nothing.

The page has four parts: the map after each activation (a canvas painted from the compact frames of
:mod:`render.record.images`), stepped with a slider, buttons and the arrow keys; the log beside it, each action
linked to the picture it led to; the victory status and the charts (inline SVG); and the verification, which
its script (``record.js``) runs in the browser. Two JSON blocks carry the data: ``record-view`` (pictures and
log, read with ``JSON.parse``) and ``record-check`` (the log whole, as the hash chain covers it, in Python's
canonical JSON so that every number keeps its exact text). The page's Content-Security-Policy forbids every
connection, so not even a stray link in a game's text can make it fetch anything.
"""

from __future__ import annotations

import base64
import json
from dataclasses import asdict
from html import escape
from importlib import resources
from typing import Any

from render.record.charts import svg
from render.record.data import GameRecord
from render.record.images import SPRITE_COLUMNS, TILE, CompactFrame, compact_within

POLICY = (
    "default-src 'none'; img-src data: blob:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "connect-src 'none'; form-action 'none'; base-uri 'none'"
)
"""The page's Content-Security-Policy: its own inline script and style, pictures from ``data:`` addresses only."""


def asset(name: str) -> str:
    """A file of the page kept beside this module (its script, its style), as text."""
    return resources.files("render.record").joinpath(name).read_text(encoding="utf-8")


def _script_json(value: Any, *, canonical: bool = False) -> str:
    """JSON safe inside a ``<script>`` element (``</`` written ``<\\/``, which JSON reads as the same text)."""
    if canonical:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    else:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text.replace("</", "<\\/").replace("<!--", "<\\u0021--")


def _frames(record: GameRecord) -> list[dict[str, Any]]:
    compact: list[CompactFrame] = compact_within([f.image for f in record.frames])
    return [
        {
            "key": c.key,
            "w": c.width,
            "h": c.height,
            "tiles": [list(t) for t in c.tiles],
            "src": f"data:image/webp;base64,{base64.b64encode(c.image).decode()}" if c.image else "",
            "caption": f.caption,
            "seqs": list(f.seqs),
        }
        for f, c in zip(record.frames, compact, strict=True)
    ]


def _step_of_entries(record: GameRecord) -> list[int]:
    """For each log entry, the step that shows it: the first picture drawn at or after its action (with no
    pictures, the entry itself)."""
    if not record.frames:
        return list(range(len(record.entries)))
    steps = []
    frame = 0
    for entry in record.entries:
        while frame < len(record.frames) - 1 and _before(record.frames[frame].seqs, entry.seq):
            frame += 1
        steps.append(frame)
    return steps


def _before(seqs: tuple[int, ...], seq: int) -> bool:
    """Whether a picture that followed actions ``seqs`` was drawn before action ``seq``."""
    return not seqs or seqs[-1] < seq


def record_page(record: GameRecord) -> str:
    """The whole page of a game record, as HTML text."""
    frames = _frames(record)
    steps = _step_of_entries(record)
    view = {
        "frames": frames,
        "entries": [{"seq": e.seq} for e in record.entries],
        "tile": TILE,
        "columns": SPRITE_COLUMNS,
    }
    check = {
        "seed_hash": record.seed_hash,
        "seed": record.seed,
        "head": record.head,
        "chain": None if record.chain is None else [asdict(row) for row in record.chain],
        "sealed": [asdict(s) for s in record.sealed],
    }
    log = "\n".join(
        f'<li data-step="{step}" id="a{e.seq}"><span class="seq">#{e.seq}</span> <b>{escape(e.seat)}</b> '
        f'<span class="verb">{escape(e.verb)}</span>'
        + "".join(f"<div>{escape(t)}</div>" for t in e.texts)
        + "</li>"
        for e, step in zip(record.entries, steps, strict=True)
    )
    map_part = (
        '<canvas id="map" width="1" height="1"></canvas>'
        if record.frames
        else '<p class="nomap">This game has no map in the bot: step through its log.</p><div id="current"></div>'
    )
    charts = "".join(svg(c) for c in record.charts)
    notes = "".join(f"<li>{escape(n)}</li>" for n in record.notes)
    extra = "".join(
        f"<details><summary>{escape(title)}</summary><pre>{escape(text)}</pre></details>"
        for title, text in record.extra.items()
    )
    seed = (
        f"<p>Seed (revealed): <code>{record.seed}</code></p>"
        if record.seed
        else "<p>Seed: secret until the game ends.</p>"
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(record.title)}</title>
<style>{asset("record.css")}</style>
</head><body data-step="0">
<header><h1>{escape(record.title)}</h1>
<p class="meta">Game #{record.game_id} &middot; {escape(record.system)} &middot; {escape(record.scenario)} &middot;
{escape(record.status)} &middot; the view of: <b id="viewer">{escape(record.viewer)}</b></p></header>
<main>
<section id="board">
<div class="controls"><button id="prev" title="previous (left arrow)">&larr;</button>
<input id="step" type="range" min="0" max="0" value="0" aria-label="step through the game">
<button id="next" title="next (right arrow)">&rarr;</button> <span id="caption"></span></div>
{map_part}
</section>
<aside><h2>Log</h2><ol id="log">{log}</ol></aside>
</main>
<section id="status"><h2>Where the game stands</h2>
<pre id="victory">{escape(record.victory)}</pre>
{f'<p id="result"><b>Result:</b> {escape(record.result)}</p>' if record.result else ""}
</section>
<section id="charts"><h2>Charts</h2><div class="charts">{charts}</div></section>
<section id="verification"><h2>Verification</h2>
<div id="verdict" data-state="running"><p class="headline">Checking&hellip;</p></div>
<p>Seed hash published at the creation: <code>{record.seed_hash}</code></p>{seed}
<p>Chain head kept with the game: <code>{record.head or "none yet"}</code></p>
<ul class="notes">{notes}</ul>
<p class="how">This page recomputes every die from the seed (HMAC-SHA256 of the roll's number, as
<code>engine/dice.py</code>), every link of the hash chain and every sealed receipt, in this browser, from the data
it holds. The rules replay needs the rules: <code>umpire verify {record.game_id}</code> runs it.</p>
</section>
{f'<section id="extra"><h2>More</h2>{extra}</section>' if extra else ""}
<script type="application/json" id="record-view">{_script_json(view)}</script>
<script type="application/json" id="record-check">{_script_json(check, canonical=True)}</script>
<script>{asset("record.js")}</script>
</body></html>
"""
