"""The game record's page in a real browser (issue 34): it steps through the game, recomputes every die and link
with Web Crypto, says "Everything agrees." for an honest game and names the failing roll for a tampered one, says
which checks await the seed before the end, and fetches nothing."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from bot.service.game_service import GameService
from bot.service.record import record_html
from bot.store.sqlite import SqliteStore
from tests.bot.conftest import BLUE, CHANNEL, RED, started
from tests.bot.doubles import duel_systems
from tests.bot.verify_games import finished_game

T = TypeVar("T")


def _run(work: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end in a thread of its own (Playwright's sync API keeps an event loop in this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, work).result()


def _page(db_path: Path, seat: str | None = None) -> Path:
    async def made() -> str:
        store = await SqliteStore.open(db_path)
        try:
            return await record_html(GameService(store, duel_systems()), 1, seat)
        finally:
            await store.close()

    out = db_path.with_suffix(f".{seat or 'spectator'}.html")
    out.write_text(_run(made()), encoding="utf-8")
    return out


async def honest_game(db_path: Path) -> None:
    """A Duel game with sealed bids, rolls, an advance taken back (an undo is chained too) and a resignation."""
    store = await SqliteStore.open(db_path)
    service = GameService(store, duel_systems())
    await started(service, CHANNEL)
    await service.act(CHANNEL, RED, "roll", {})
    await service.act(CHANNEL, RED, "advance", {"steps": 2})
    await service.undo(CHANNEL, RED)
    await service.act(CHANNEL, RED, "advance", {"steps": 1})
    await service.act(CHANNEL, RED, "end_turn", {})
    await service.act(CHANNEL, BLUE, "roll", {})
    await service.resign(CHANNEL, BLUE)
    await store.close()


def _open(browser: Any, page_file: Path) -> tuple[Any, list[str]]:
    """The page opened, its checks finished; and every address it asked for (the page itself only, if honest)."""
    page = browser.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(page_file.as_uri())
    page.locator('#verdict:not([data-state="running"])').wait_for()  # locators work under the page's CSP
    return page, asked


def test_record_browser_an_honest_game_agrees_and_steps_with_the_keys(browser: Any, db_path: Path) -> None:
    _run(honest_game(db_path))
    page, asked = _open(browser, _page(db_path))
    try:
        assert page.get_attribute("#verdict", "data-state") == "agrees"
        verdict = page.inner_text("#verdict")
        assert verdict.startswith("Everything agrees.")
        assert "roll(s) recomputed from the seed" in verdict and "2 sealed receipt(s)" in verdict
        assert "7 link(s) of the hash chain" in verdict  # the advance taken back included
        last = int(page.get_attribute("#step", "max") or 0)
        assert last >= 2 and page.get_attribute("body", "data-step") == str(last)  # opens at the end
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        assert page.get_attribute("body", "data-step") == "1"
        page.locator('#map[data-painted="1"]').wait_for(state="attached")
        assert page.locator("#log li.current").count() >= 1  # the log follows the picture
        page.locator("#log li").first.click()
        assert page.get_attribute("body", "data-step") == "1"  # the first actions led to the second picture
        assert asked == [page.url]  # nothing fetched: the pictures, script and style are in the page
    finally:
        page.close()


def test_record_browser_a_tampered_roll_is_named(browser: Any, db_path: Path) -> None:
    _run(finished_game(db_path))
    with sqlite3.connect(db_path) as db:
        seq, draws = db.execute("SELECT seq, draws FROM actions WHERE verb = 'roll' ORDER BY seq LIMIT 1").fetchone()
        kept = json.loads(draws)
        honest = kept[0]["die"]
        kept[0]["die"] = honest % 6 + 1
        db.execute("UPDATE actions SET draws = ? WHERE seq = ?", (json.dumps(kept), seq))
    page, asked = _open(browser, _page(db_path))
    try:
        assert page.get_attribute("#verdict", "data-state") == "disagrees"
        problems = page.locator("#verdict ul.problems li").all_inner_texts()
        number = kept[0]["number"]
        assert (
            f"action #{seq} (red roll): roll #{number} of the public dice (d6) was kept as {honest % 6 + 1} but the "
            f"seed gives {honest}" in problems
        )
        assert any(f"action #{seq}" in p and "broken link" in p for p in problems)
        assert asked == [page.url]
    finally:
        page.close()


def test_record_browser_before_the_end_the_dice_await_the_seed(browser: Any, db_path: Path) -> None:
    async def playing() -> None:
        store = await SqliteStore.open(db_path)
        service = GameService(store, duel_systems())
        await started(service, CHANNEL)
        await service.act(CHANNEL, RED, "roll", {})
        await service.act(CHANNEL, RED, "end_turn", {})
        await store.close()

    _run(playing())
    page, _ = _open(browser, _page(db_path, "red"))
    try:
        assert page.get_attribute("#verdict", "data-state") == "awaiting"
        verdict = page.inner_text("#verdict")
        assert "Awaiting: the dice: every roll is recomputed from the seed, revealed when the game ends" in verdict
        assert "Awaiting: the hash chain" in verdict  # blue's sealed bid is hidden from red until the end
        assert page.inner_text("#viewer") == "red"
    finally:
        page.close()
