"""Shared by the benchmark scripts: the median of repeated runs in milliseconds, the load line, the figures table."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Sequence


def median_ms(run: Callable[[], object], repeat: int) -> float:
    """Run ``run`` ``repeat`` times and return the median duration in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def print_load() -> None:
    """Print the machine's 1-minute load average, which every figure of a run should be read beside."""
    print(f"load: {os.getloadavg()[0]:.2f} (1-minute average, 2 cores)")


def print_figures(figures: Sequence[tuple[str, str]]) -> None:
    """Print ``(measure, figure)`` pairs as the Markdown table docs/performance.md quotes."""
    print("| measure | figure |")
    print("|---|---|")
    for name, figure in figures:
        print(f"| {name} | {figure} |")
