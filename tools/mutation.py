"""Mutation testing of one rules module against the tests that cover it (mutmut), not part of the default run.

Each mutant is one small change to the module (a ``<`` made ``<=``, a number plus one, a condition negated, a
string changed...). A mutant is *killed* when one of the given tests fails with it, and *survives* otherwise;
a surviving mutant is either a rule the tests do not hold (write the test that kills it, named after the rule)
or a change no player could see (list it, with the reason, in ``docs/testing.md``).

The run happens in a scratch copy of the project (``--workdir``, by default under the system's temporary
folder): the working tree is never touched. mutmut runs the given tests once to learn which test reaches
which function, then runs each mutant against those tests only, one at a time (``--max-children 1``: the
machines this runs on are small). Give it only the tests that cover the module: the whole suite would not fit.

Run (always niced, with a time limit)::

    nice -n 15 timeout 900 .venv/bin/python tools/mutation.py engine/dice.py tests/engine/test_dice.py
    nice -n 15 timeout 900 .venv/bin/python tools/mutation.py engine/vaevictis/turn.py \
        tests/vaevictis/test_turn.py --functions air_phase fuel_shortage

``--functions`` keeps a large module to the functions behind one rule.

It prints ``killed / total`` and every surviving mutant as a diff; ``--json FILE`` also writes them as data.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COPIED = ("engine", "scenarios", "render", "bot", "tests")
"""The project's folders a test may import (the copy holds them all; only the module is mutated)."""
KILLED = ("killed", "caught by type check")


@dataclass
class Score:
    """The outcome of one module's run: every mutant's status, and the survivors' diffs."""

    module: str
    tests: list[str]
    statuses: dict[str, str] = field(default_factory=dict)
    survivors: dict[str, str] = field(default_factory=dict)

    @property
    def killed(self) -> int:
        return sum(1 for s in self.statuses.values() if s in KILLED)

    @property
    def total(self) -> int:
        return len(self.statuses)

    def summary(self) -> str:
        others: dict[str, int] = {}
        for status in self.statuses.values():
            if status not in KILLED:
                others[status] = others.get(status, 0) + 1
        rest = ", ".join(f"{n} {s}" for s, n in sorted(others.items()))
        return f"{self.module}: {self.killed} / {self.total} killed" + (f" ({rest})" if rest else "")


ISOLATION = {
    "fresh": ('process_isolation = "forkserver"', 'forkserver_warmup = "none"'),
    "fork": ('process_isolation = "fork"',),
}
"""How each mutant's test run starts. ``fork`` (the default): every run is forked from the process that already
ran the tests once, fast, but whatever a test module built when it was imported (a grid, a game's data, a
cache) was built by the original code and hides the mutants that only it would show (so tests build such
objects themselves); ``fresh``: the tests are imported anew for every mutant, several times slower."""


def prepare(workdir: Path, module: str, tests: list[str], isolation: str = "fork") -> None:
    """A fresh copy of the project in ``workdir``, configured to mutate ``module`` only."""
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "mutants")
    for folder in COPIED:
        shutil.copytree(ROOT / folder, workdir / folder, ignore=ignore)
    package = Path(module).parts[0]
    config = [
        "[tool.mutmut]",
        f"source_paths = [{json.dumps(package)}]",
        f"only_mutate = [{json.dumps(module)}]",
        "also_copy = [" + ", ".join(json.dumps(f) for f in COPIED if f != package) + "]",
        'pytest_add_cli_args = ["-p", "no:cacheprovider", "-q"]',
        "pytest_add_cli_args_test_selection = [" + ", ".join(json.dumps(t) for t in tests) + "]",
        "use_git_change_detection = false",
        *ISOLATION[isolation],
        "",
        "[tool.pytest.ini_options]",
        'asyncio_mode = "auto"',
        'asyncio_default_fixture_loop_scope = "function"',
        "filterwarnings = [\"ignore:'audioop' is deprecated:DeprecationWarning\"]",
    ]
    (workdir / "pyproject.toml").write_text("\n".join(config) + "\n", encoding="utf-8")


def mutmut(workdir: Path, *args: str) -> str:
    """Run a mutmut command in the copy and return what it printed."""
    executable = Path(sys.executable).with_name("mutmut")
    done = subprocess.run(
        [str(executable), *args], cwd=workdir, capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"}
    )
    if done.returncode not in (0, 1):
        raise SystemExit(f"mutmut {' '.join(args)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done.stdout


def mutant_patterns(module: str, functions: list[str]) -> list[str]:
    """mutmut's names for the mutants of ``functions`` (functions or methods) of ``module``; all if none."""
    dotted = module.removesuffix(".py").replace("/", ".")
    if not functions:
        return [f"{dotted}.*"]
    return [p for f in functions for p in (f"{dotted}.x_{f}__mutmut_*", f"{dotted}.x\u01c1*\u01c1{f}__mutmut_*")]


def collect(workdir: Path, module: str, tests: list[str], patterns: list[str]) -> Score:
    """Read the status of every mutant the patterns name, and the diff of each survivor."""
    score = Score(module, tests)
    for line in mutmut(workdir, "results", "--all", "true").splitlines():
        found = re.fullmatch(r"\s*(\S+): (.+)", line)
        if found and any(fnmatch.fnmatchcase(found.group(1), p) for p in patterns):
            score.statuses[found.group(1)] = found.group(2).strip()
    for name, status in score.statuses.items():
        if status not in KILLED:
            score.survivors[name] = mutmut(workdir, "show", name)
    return score


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("module", help="the module to mutate, e.g. engine/vaevictis/turn.py")
    parser.add_argument("tests", nargs="+", help="the tests that cover it: files, or file::test names")
    parser.add_argument("--workdir", type=Path, help="where to copy the project (default: a temporary folder)")
    parser.add_argument("--json", type=Path, help="write the statuses and the survivors' diffs there")
    parser.add_argument("--functions", nargs="+", default=[], help="mutate only these functions or methods")
    parser.add_argument("--isolation", choices=sorted(ISOLATION), default="fork", help="see ISOLATION")
    args = parser.parse_args(argv)
    module = Path(args.module).as_posix()
    if not (ROOT / module).is_file() or not module.endswith(".py"):
        parser.error(f"{module} is not a module of the project")
    for test in args.tests:
        if not (ROOT / test.split("::")[0]).is_file():
            parser.error(f"{test} is not a test file of the project")
    slug = module.removesuffix(".py").replace("/", ".")
    workdir = args.workdir or Path(tempfile.gettempdir()) / "umpire-mutation" / slug
    prepare(workdir, module, list(args.tests), args.isolation)
    patterns = mutant_patterns(module, args.functions)
    print(mutmut(workdir, "run", "--max-children", "1", *(patterns if args.functions else []))[-2000:])
    score = collect(workdir, module, list(args.tests), patterns)
    for name, diff in score.survivors.items():
        print(f"--- {score.statuses[name]}: {name}\n{diff}")
    print(score.summary())
    if args.json:
        record = {**asdict(score), "killed": score.killed, "total": score.total}
        args.json.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
