"""The C allocator's settings for a bot that draws big pictures in a worker thread (glibc; elsewhere unchanged).

A whole-map picture passes through images of 20 to 30 MB (the canvas, Pillow's quantizer's buffers). glibc's
malloc serves a freed block that large from its heap the next time once it has seen one (its mmap threshold
rises with the blocks freed), and gives each thread its own heap: the heaps then keep the largest pictures'
memory after they are posted. Two settings keep the peak at what is alive: blocks of a megabyte or more are
always mapped and unmapped on their own, and two heaps serve every thread. Measured in
``bench/bench_memory.py`` (docs/performance.md, "Memory").
"""

from __future__ import annotations

import ctypes
import ctypes.util

M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
"""``mallopt`` parameters (glibc's malloc.h)."""

MMAP_THRESHOLD = 1 << 20
"""Blocks from this size up are mapped on their own and returned to the system when freed."""
ARENAS = 2
"""Heaps shared by all threads (the event loop, SQLite's, the engine's and the picture thread)."""


def tune_allocator() -> bool:
    """Set :data:`MMAP_THRESHOLD` and :data:`ARENAS` when the C library is glibc; whether they were set.

    Called once at the bot's start, before the picture thread allocates anything.
    """
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name)
    except OSError:
        return False
    mallopt = getattr(libc, "mallopt", None)
    if mallopt is None:
        return False
    return bool(mallopt(M_ARENA_MAX, ARENAS)) and bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
