"""Timing shared by the benchmark scripts: the median of repeated runs, in milliseconds."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_ms(run: Callable[[], object], repeat: int) -> float:
    """Run ``run`` ``repeat`` times and return the median duration in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)
