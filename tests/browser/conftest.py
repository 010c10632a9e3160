"""A real browser for the tests of the game record's page: the system's headless Chromium (Debian's package,
``/usr/bin/chromium``) driven by Playwright, which here never downloads a browser of its own.

The tests skip where no Chromium (or no Playwright) is installed, except under CI (``CI=true``), where ``.ci/run``
installs it and a skip would hide that the page's checks were never run: there they fail instead.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("UMPIRE_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
"""Chromium's switches: headless, and nothing that would reach the network by itself (updates, sync, first run)."""


def _missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}: CI must run the browser tests (.ci/run installs Chromium)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A headless Chromium with a fresh profile, for one module: Playwright's sync API keeps an event loop running
    in this thread while it is open, so it must be closed before the asynchronous tests of other modules run."""
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        _missing(f"no Chromium at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Playwright is not installed")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, args=ARGS, headless=True, viewport={"width": 1400, "height": 1000}
        )
        try:
            yield context
        finally:
            context.close()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "umpire.sqlite3"
