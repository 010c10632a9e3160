"""Every bench script still runs: each ``bench/bench_*.py`` in smoke mode (tiny sizes, no figure checked).

A benchmark is not run by anything else, so a change elsewhere (a new confirmation, a rules fix that changes
what a seed's random game does) breaks it silently and its figures in docs/performance.md can no longer be
reproduced. Each script is one test, run by ``bench/smoke.py`` in a child process, so a new bench is covered
as soon as it is added.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(path.name for path in (ROOT / "bench").glob("bench_*.py"))


def test_the_bench_folder_has_scripts() -> None:
    assert "bench_store.py" in SCRIPTS and "bench_hq.py" in SCRIPTS


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_bench_script_runs_in_smoke_mode(script: str, tmp_path: Path) -> None:
    out = tmp_path / "smoke.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "smoke.py"), script, "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert out.exists(), done.stdout[-3000:] + done.stderr[-3000:]
    run = json.loads(out.read_text())[script]
    assert run["status"] == 0, run["output"][-4000:]
