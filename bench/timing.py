"""Shared by the benchmark scripts: smoke mode, the median of repeated runs in milliseconds, the load line, the
figures table."""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

SMOKE_FLAG = "--smoke"
"""Every bench script takes it: tiny sizes, every code path of the bench run once, no figure worth quoting and
no target checked (``tests/test_benches.py`` runs each script so, so that a bench cannot rot unnoticed)."""


def smoke() -> bool:
    """Whether the script runs in smoke mode (``--smoke`` on its command line)."""
    return SMOKE_FLAG in sys.argv[1:]


def sized(full: T, tiny: T) -> T:
    """``full`` for a measurement, ``tiny`` in smoke mode."""
    return tiny if smoke() else full


def arguments() -> list[str]:
    """The script's positional arguments (its options, such as ``--smoke``, left out)."""
    return [a for a in sys.argv[1:] if not a.startswith("--")]


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
