"""Helpers shared by several test modules, taken out of ``test_refit.py`` so that no test module imports another."""

from __future__ import annotations

from typing import Any

from conftest import Table, new_table

Chits = dict[str, dict[str, str]]


def advance(table: Table, chits: Chits | None = None, purchases: Any = None, forts: Any = None) -> None:
    """Run the RePh until the next scenario is ready (or the CG is over), choosing chits by date."""
    for _ in range(100):
        if table.state.phase in ("scenario", "over", "victory"):
            return
        table.play_secret_steps(purchases, forts, chits)
    raise AssertionError("the RePh never reached a scenario")


def end_scenario(table: Table, allied: int = 0, german: int = 0, **extra: Any) -> None:
    table.act("allied", "report_end", cvp_allied=allied, cvp_german=german, **extra)
    table.act("german", "confirm_end")


def to_first_reph(options: dict[str, Any] | None = None) -> Table:
    table = new_table(options)
    advance(table)
    end_scenario(table, 40, 20)
    return table
