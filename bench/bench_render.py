"""Map snapshots of a mid-game Entire Battle position: the full map against the PNG encode the project does
(a 256-colour palette image, :func:`render.snapshot.to_png`) of the same image, the zlib level of that encode
by size against time, close-ups, and the renderer's caches after many games.

``python bench/bench_render.py`` (``python bench/bench_render.py alsace44`` for Alsace 1944). The position:
300 seeded random legal actions (seed 7) from the setup, then on to the end of the first activation with a
combat, so the picture carries moves and an attack. ``--smoke`` (measures nothing): 10 actions in, one run of
each measure, one more game.
"""

from __future__ import annotations

import io
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.midgame import bench_game, game_argument
from bench.timing import sized
from engine.vaevictis.data import GameData
from render import basemap, counters
from render.samples import midgame
from render.snapshot import PNG_COMPRESS_LEVEL, render_map, to_png
from render.view_picture import picture_from_view

RUNS = 9


def median_ms(work: Callable[[], object]) -> float:
    times = []
    for _ in range(sized(RUNS, 1)):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    position = midgame(seed=7, actions=sized(300, 10), game=bench_game(game_argument()))
    game, state, events = position.game, position.state, position.events
    seat = game.data.side_of(next(e for e in events if e.kind == "move").data["units"][0])
    view = game.view(state, seat)
    data = game.data
    on_map = sum(s["count"] for s in view["stacks"])
    print(f"position: {data.name}, {position.actions} actions, turn {state.turn}, {on_map} units, {len(events)} events")

    def snapshot() -> bytes:
        return to_png(render_map(picture_from_view(data, view, events, seat=seat)))

    start = time.perf_counter()
    png = snapshot()
    cold = (time.perf_counter() - start) * 1000
    image = render_map(picture_from_view(data, view, events, seat=seat))

    def pillow_encode() -> bytes:
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        return buffer.getvalue()

    palette_image = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)

    def palette_encode(level: int) -> bytes:
        buffer = io.BytesIO()
        palette_image.save(buffer, format="PNG", compress_level=level)
        return buffer.getvalue()

    full = median_ms(snapshot)
    draw_only = median_ms(lambda: render_map(picture_from_view(data, view, events, seat=seat)))
    encode = median_ms(lambda: to_png(image))
    pillow = median_ms(pillow_encode)
    print(
        f"full map {image.width}x{image.height}: PNG {len(png) / 1e6:.2f} MB "
        f"(Pillow's plain PNG {len(pillow_encode()) / 1e6:.2f} MB)"
    )
    print(f"  first snapshot, base layer drawn: {cold:.0f} ms")
    print(f"  snapshot (base cached, view -> PNG bytes): {full:.1f} ms = draw {draw_only:.1f} + encode {encode:.1f}")
    print(f"  Pillow alone, Image.save(format='PNG') of the same image in full colour: {pillow:.1f} ms")
    print(f"  the project's own encode of it (to_png: palette of 256, level {PNG_COMPRESS_LEVEL}): {encode:.1f} ms")
    print(f"  ratio snapshot / the project's encode: {full / encode:.2f} (the drawing's share: {draw_only:.1f} ms)")
    quantize = median_ms(lambda: image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE))
    print(f"  palette encode by zlib level (quantizing first: {quantize:.1f} ms):")
    for level in sized((1, 3, 6, 9), (3,)):
        print(f"    level {level}: {median_ms(lambda level=level: palette_encode(level)):.1f} ms, "
              f"{len(palette_encode(level)) / 1e3:.0f} kB")  # fmt: skip

    hexes = [s["hex"] for s in view["stacks"]][:: max(1, len(view["stacks"]) // 12)][: sized(12, 1)]
    for hex_ in hexes:  # warm the close-up base layer
        render_map(picture_from_view(data, view, events, seat=seat), region=(hex_, 4))
    times = []
    sizes = []
    for _ in range(sized(3, 1)):
        for hex_ in hexes:
            start = time.perf_counter()
            close_png = to_png(render_map(picture_from_view(data, view, events, seat=seat), region=(hex_, 4)))
            times.append(time.perf_counter() - start)
            sizes.append(len(close_png))
    close = statistics.median(times) * 1000
    print(f"close-up (radius 4, zoom 1.5, view -> PNG bytes), {len(times)} runs over {len(hexes)} hexes:")
    print(
        f"  median {close:.1f} ms, worst {max(times) * 1000:.1f} ms (target median < 100 ms), "
        f"PNG {statistics.median(sizes) / 1e3:.0f} kB"
    )

    # Memory: many games, each with its own copy of the map data, at two zooms.
    from scenarios import load_game

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    more = sized(12, 1)
    for _ in range(more):
        other: GameData = load_game(game_argument())
        picture = picture_from_view(other, view, events)
        render_map(picture, zoom=0.5)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tiles = counters.counter_tile.cache_info()
    print(
        f"caches after {more} more games: base layers {len(basemap.CACHE)} (max {basemap.CACHE.maxsize}), "
        f"counter tiles {tiles.currsize} (max {tiles.maxsize}); peak RSS {before / 1024:.0f} -> {after / 1024:.0f} MB"
    )


if __name__ == "__main__":
    main()
