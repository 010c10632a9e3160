"""Counting colours in and around a spot of a rendered picture."""

from __future__ import annotations

from PIL import Image

RGB = tuple[int, int, int]


def near(a: RGB, b: RGB, tolerance: int = 8) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def count_colour(image: Image.Image, box: tuple[float, float, float, float], colour: RGB, tolerance: int = 8) -> int:
    """How many pixels in ``box`` are (nearly) ``colour``."""
    left, top, right, bottom = (round(v) for v in box)
    data = image.convert("RGB").crop((left, top, right, bottom)).tobytes()
    pixels = ((data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3))
    return sum(1 for rgb in pixels if near(rgb, colour, tolerance))


def around(xy: tuple[float, float], half: float) -> tuple[float, float, float, float]:
    return xy[0] - half, xy[1] - half, xy[0] + half, xy[1] + half
