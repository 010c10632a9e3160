"""Every bench script still runs: each ``bench/bench_*.py`` in smoke mode (tiny sizes, no figure checked).

A benchmark is not run by anything else, so a change elsewhere (a new confirmation, a rules fix that changes
what a seed's random game does) breaks it silently and its figures in docs/performance.md can no longer be
reproduced. The scripts run one after another in one child process (``bench/smoke.py``: the imports and the
map's base layers made once); each script is one test, so a new bench is covered as soon as it is added.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(path.name for path in (ROOT / "bench").glob("bench_*.py"))

pytestmark = pytest.mark.xdist_group("benches")  # one worker runs them all, so the child process runs once


@pytest.fixture(scope="module")
def smoke_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("benches") / "smoke.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "smoke.py"), "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert out.exists(), done.stdout[-3000:] + done.stderr[-3000:]
    runs: dict[str, Any] = json.loads(out.read_text())
    return runs


def test_the_bench_folder_has_scripts() -> None:
    assert "bench_store.py" in SCRIPTS and "bench_hq.py" in SCRIPTS


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_bench_script_runs_in_smoke_mode(script: str, smoke_runs: dict[str, Any]) -> None:
    run = smoke_runs[script]
    assert run["status"] == 0, run["output"][-4000:]
