"""Map snapshots of a mid-game Entire Battle position: the picture posted after an activation as a picture
worker draws it (its CPU time), the full map against the PNG encode the project does (a 256-colour palette
image, :func:`render.snapshot.to_png`) of the same image, the palette's choice, the zlib level of that encode by
size against time, close-ups, and the renderer's caches after many games.

``python bench/bench_render.py`` (``python bench/bench_render.py alsace44`` for Alsace 1944). The position:
300 seeded random legal actions (seed 7) from the setup, then on to the end of the first activation with a
combat, so the picture carries moves and an attack. ``--smoke`` (measures nothing): 10 actions in, one run of
each measure, one more game.
"""

from __future__ import annotations

import io
import os
import resource
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.midgame import bench_game, game_argument
from bench.timing import sized
from engine.contract import Event
from engine.vaevictis.data import GameData, Side
from render import basemap, counters
from render.samples import midgame
from render.snapshot import PALETTE_SAMPLE, PNG_COMPRESS_LEVEL, render_map, to_png
from render.view_picture import picture_from_view

RUNS = 9


def median_ms(work: Callable[[], object]) -> float:
    times = []
    for _ in range(sized(RUNS, 1)):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def cpu_ms(work: Callable[[], object]) -> float:
    """The median CPU time of ``work`` (the process's own: on a shared machine, what a picture costs)."""
    times = []
    for _ in range(sized(RUNS, 1)):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def off_by(palette_image: Image.Image, image: Image.Image, levels: int = 24) -> int:
    """How many pixels of ``palette_image`` are more than ``levels`` off ``image`` in some channel."""
    difference = ImageChops.difference(palette_image.convert("RGB"), image)
    worst = ImageChops.lighter(ImageChops.lighter(*difference.split()[:2]), difference.split()[2])
    return sum(worst.histogram()[levels + 1 :])


def worker_picture(game_name: str) -> None:
    """The picture posted after an activation, as a picture worker draws it: the system's ``picture`` of the
    public view with the activation's events (a close-up round what changed, or the whole map when the events
    are spread wide), state to PNG bytes."""
    from bot.systems.vaevictis.adapter import VaeVictisAdapter

    position = midgame(seed=7, actions=sized(300, 10), game=bench_game(game_name))
    adapter = VaeVictisAdapter(game_name, position.game.data)
    events = [{"kind": e.kind, "text": e.text, "data": e.data} for e in position.events]
    png = adapter.picture(position.state, None, events)
    region = adapter._region(position.events)
    assert png is not None
    picture_cpu = cpu_ms(lambda: adapter.picture(position.state, None, events))
    shown = "the whole map" if region is None else f"a close-up of radius {region[1]}"
    print(f"the picture after an activation ({shown}, public view), as a worker draws it:")
    print(f"  CPU {picture_cpu:.1f} ms a picture, PNG {len(png) / 1e3:.0f} kB")
    for hex_ in ("1518", "2010"):
        around = cpu_ms(partial(adapter.draw, position.state, None, events, around=hex_))
        print(f"  close-up round {hex_} (radius 4): CPU {around:.1f} ms")


def main() -> None:
    print(f"load: {os.getloadavg()[0]:.2f} (1-minute average, 2 cores)")
    worker_picture(game_argument())
    position = midgame(seed=7, actions=sized(300, 10), game=bench_game(game_argument()))
    game, state, events = position.game, position.state, position.events
    seat = game.data.side_of(next(e for e in events if e.kind == "move").data["units"][0])
    view = game.view(state, seat)
    data = game.data
    on_map = sum(s["count"] for s in view["stacks"])
    print(f"position: {data.name}, {position.actions} actions, turn {state.turn}, {on_map} units, {len(events)} events")
    image = whole_map(data, view, events, seat)
    palette_choices(image)
    close_ups(data, view, events, seat)
    cache_memory(view, events)


def whole_map(data: GameData, view: dict[str, Any], events: list[Event], seat: Side) -> Image.Image:
    """The whole map's snapshot: first and cached, its drawing and its encoding apart; the drawn image."""

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
    return image


def palette_choices(image: Image.Image) -> None:
    """The PNG palette chosen over every pixel or from a sample, and the encoding at each zlib level."""
    palette_image = Image.open(io.BytesIO(to_png(image)))

    def palette_encode(level: int) -> bytes:
        buffer = io.BytesIO()
        palette_image.save(buffer, format="PNG", compress_level=level)
        return buffer.getvalue()

    octree = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    quantize = cpu_ms(lambda: image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE))
    step = PALETTE_SAMPLE

    def sampled() -> Image.Image:
        sample = image.resize((-(-image.width // step), -(-image.height // step)), Image.Resampling.NEAREST)
        chosen = sample.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        return image.quantize(palette=chosen, dither=Image.Dither.NONE)

    print(
        f"  palette, CPU: octree on every pixel {quantize:.1f} ms ({off_by(octree, image)} pixels more than 24 "
        f"levels off); octree on 1 pixel in {step * step}, then each pixel's nearest colour (to_png) "
        f"{cpu_ms(sampled):.1f} ms ({off_by(sampled(), image)} off)"
    )
    print("  palette encode by zlib level:")
    for level in sized((1, 3, 6, 9), (3,)):
        print(f"    level {level}: {median_ms(lambda level=level: palette_encode(level)):.1f} ms, "
              f"{len(palette_encode(level)) / 1e3:.0f} kB")  # fmt: skip


def close_ups(data: GameData, view: dict[str, Any], events: list[Event], seat: Side) -> None:
    """Close-ups round a dozen stacks, their base layers warm: wall and CPU time, PNG size."""
    hexes = [s["hex"] for s in view["stacks"]][:: max(1, len(view["stacks"]) // 12)][: sized(12, 1)]
    for hex_ in hexes:  # warm the close-up base layer
        render_map(picture_from_view(data, view, events, seat=seat), region=(hex_, 4))
    times = []
    cpu = []
    sizes = []
    for _ in range(sized(3, 1)):
        for hex_ in hexes:
            start, start_cpu = time.perf_counter(), time.process_time()
            close_png = to_png(render_map(picture_from_view(data, view, events, seat=seat), region=(hex_, 4)))
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            sizes.append(len(close_png))
    close = statistics.median(times) * 1000
    print(f"close-up (radius 4, zoom 1.5, view -> PNG bytes), {len(times)} runs over {len(hexes)} hexes:")
    print(
        f"  median {close:.1f} ms, worst {max(times) * 1000:.1f} ms (target median < 100 ms), "
        f"CPU median {statistics.median(cpu) * 1000:.1f} ms, PNG {statistics.median(sizes) / 1e3:.0f} kB"
    )


def cache_memory(view: dict[str, Any], events: list[Event]) -> None:
    """Memory: many games, each with its own copy of the map data, at two zooms; the caches stay bounded."""
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
