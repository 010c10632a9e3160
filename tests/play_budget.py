"""How much random play the suite does: a few seeds by default, every seed with ``UMPIRE_FULL_PLAY=1``.

A test of random play (a game played at random to its end, a property over random play) checks its rules on
every game it plays, so it holds with one game as with four; more games only look further. The default run
(CI, a developer's `pytest`) plays the first few of a test's seeds; a scheduled or local run sets
``UMPIRE_FULL_PLAY=1`` to play them all (docs/testing.md). No test is left out either way, only games.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

FULL_PLAY = os.environ.get("UMPIRE_FULL_PLAY", "") not in ("", "0")
"""Whether every seed is played (``UMPIRE_FULL_PLAY=1``)."""


def play_seeds(seeds: Sequence[int], default: int = 1) -> list[int]:
    """The seeds a random-play test plays: all of ``seeds`` in a full run, else the first ``default``."""
    return list(seeds) if FULL_PLAY else list(seeds[:default])


