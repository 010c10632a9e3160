"""A whole Wargame Commander series at the console, from the transcript kept in ``tests/bot/data`` (written by
:mod:`tests.bot.wargame_commander_series`): ``umpire local --system wargame-commander --script`` plays it from
the first basing plans to the final score with no refusal, the campaign manager entering every frame report
(the console's players hold the roles the docs give them), and every sealed decision's receipt checks out
with ``hashlib`` against the file attached at its reveal."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

import bot.service.game_service
from bot.transports.cli import main
from tests.bot.wargame_commander_series import SEED, TRANSCRIPT


def test_a_whole_series_plays_at_the_console_from_its_transcript(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot.service.game_service, "new_seed", lambda: SEED)
    db = str(tmp_path / "series.sqlite3")
    args = ["local", "--system", "wargame-commander", "--script", str(TRANSCRIPT), "--no-pictures"]
    assert main([*args, "--out-dir", str(tmp_path), "--db", db]) == 0
    text = capsys.readouterr().out
    assert "Refused" not in text, text[text.find("Refused") - 2000 : text.find("Refused") + 500]
    assert "Commands: " in text and ", move, frame report" in text  # `help` lists `move` (2.3)
    assert "Example: move units=ss-1 to=1512" in text and "path (optional)" not in text  # and explains it
    assert "Frame 1 report entered" in text and "corrected" in text  # the CM at the console (4.2d)
    assert "Result:" in text and "Verification passed: every layer holds" in text  # the final score (5.1), verify
    assert "sealed decisions: holds (10 receipt(s)" in text  # every designation's receipt checked
    assert not list(tmp_path.glob("*.png"))  # --no-pictures: no map, no plan sheet

    # The series' record (issue 34): a picture after each frame's steps, the score charts, every sealing's events
    out = tmp_path / "series.html"
    assert main(["record", "1", "--db", db, "--out", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert '<canvas id="map"' in page and 'aria-label="Score"' in page and "Points scored per frame" in page
    assert page.count('"kind":"sealed"') == page.count('"kind":"reveal"') == 10  # the page checks each receipt

    # Every receipt posted at a seal is checked with hashlib against the sealed text of the reveal's file.
    posted = re.findall(r"has sealed its [a-z ]+ \([0-9.a-z]+\); receipt ([0-9a-f]{64})", text)
    details = [d for f in sorted(tmp_path.glob("details-*.json")) for d in json.loads(f.read_text())]
    assert posted and sorted(d["receipt"] for d in details) == sorted(posted)
    for item in details:
        assert hashlib.sha256(item["sealed"].encode()).hexdigest() == item["receipt"]
