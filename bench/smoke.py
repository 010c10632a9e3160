"""Every bench script run in smoke mode, one after another in this one process, so that none can rot unnoticed.

``python bench/smoke.py [bench_X.py ...]`` runs each ``bench/bench_*.py`` (or those named) as
``python bench/bench_X.py --smoke`` would (its
``__main__`` block, with ``--smoke`` as its only argument), prints its output, and ends with one line a
script: ok or its exit status, and the CPU time it took. ``--json FILE`` also writes the outcomes
(``tests/test_benches.py`` reads them). One process for all, not one each: the imports and the map's base
layers (the costliest part of a picture) are made once, so the whole run takes seconds.
"""

from __future__ import annotations

import contextlib
import io
import json
import runpy
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def scripts() -> list[Path]:
    """The bench scripts: every ``bench/bench_*.py`` (the other modules of ``bench/`` are their helpers)."""
    return sorted((ROOT / "bench").glob("bench_*.py"))


def run(script: Path) -> tuple[int, str]:
    """Run one script in smoke mode: its exit status (0, or 1 for an exception) and everything it printed."""
    printed = io.StringIO()
    saved = sys.argv
    sys.argv = [str(script), "--smoke"]
    status = 0
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            try:
                runpy.run_path(str(script), run_name="__main__")
            except SystemExit as end:
                status = end.code if isinstance(end.code, int) else (0 if end.code is None else 1)
                if not isinstance(end.code, int | None):
                    print(end.code)
            except Exception:
                traceback.print_exc()
                status = 1
    finally:
        sys.argv = saved
    return status, printed.getvalue()


def main() -> int:
    given = sys.argv[1:]
    out = Path(given[given.index("--json") + 1]) if "--json" in given else None
    named = [a for a in given if a.endswith(".py")]
    outcomes = {}
    for script in [s for s in scripts() if s.name in named] if named else scripts():
        began = time.process_time()
        status, printed = run(script)
        cpu = time.process_time() - began
        outcomes[script.name] = {"status": status, "output": printed, "cpu_seconds": round(cpu, 2)}
        print(f"--- {script.name} --smoke\n{printed}")
    for name, outcome in outcomes.items():
        said = "ok" if outcome["status"] == 0 else f"exit status {outcome['status']}"
        print(f"{name}: {said} ({outcome['cpu_seconds']:.1f} s of CPU)")
    if out is not None:
        out.write_text(json.dumps(outcomes))
    return 0 if all(o["status"] == 0 for o in outcomes.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
