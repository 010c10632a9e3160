"""Ardennes 1944 plays exactly as before the engine was made general (issue 14).

Recorded games (tests/vaevictis/recordings, made by record_ardennes_replays.py with the engine of main, last
at 819a333 after the Ardennes rules and fog-of-war fixes of issue 10) are replayed action by action; the
state's digest at every checkpoint must be the recorded one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.vaevictis.record_ardennes_replays import replay

RECORDINGS = sorted((Path(__file__).resolve().parent / "recordings").glob("ardennes44-*.json"))


def test_there_are_recordings() -> None:
    assert len(RECORDINGS) >= 2


@pytest.mark.parametrize("path", RECORDINGS, ids=lambda p: p.stem)
def test_a_recorded_ardennes_game_replays_to_the_same_states(path: Path) -> None:
    recording = json.loads(path.read_text(encoding="utf-8"))
    assert replay(recording) == recording["hashes"]
