"""Browser tests: Playwright for Python driving Debian's Chromium (never a downloaded browser).

Fixtures:

* ``chromium``: a headless Chromium (``/usr/bin/chromium``) for the test, closed after it;
* ``artifacts``: the directory screenshots go to (``tests/artifacts/browser/``, ignored by git;
  printed once per run); ``shot(page, name)`` saves one there;
* ``console_table``: a factory of real tables with their console, started in the test's loop:
  ``await console_table("blackjack", stacked=[...])`` or ``await console_table("roulette")``.
  The tables are the integration harnesses (simulated devices on their real transports, the
  journal on disk, ``[mqtt] broker = "none"``) and the console is ``start_console``;
* ``signed_in(page, url, user)``: opens the console and signs in (accounts ``dana`` (dealer)
  and ``petra`` (pit boss), both with password ``secret``).
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from controller.auth import Account, Accounts, hash_password
from controller.config import load
from controller.console import ConsoleServer, start_console
from controller.table import inputs
from simulators.wheel import Timings
from tests.integration.table.conftest import Harness
from tests.integration.table.conftest import write_config as blackjack_config
from tests.integration.table_roulette.conftest import WheelHarness
from tests.integration.table_roulette.conftest import write_config as roulette_config
from tests.support.waiting import until as shared_until
from tests.support.waiting import until_awaited

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "browser"
README_IMAGES = Path(__file__).resolve().parents[3] / "docs" / "images"
PASSWORD = "secret"
#: the roulette table's wheel at 10x protocol speed, with a betting window a person can use
SLOW_BETS = Timings(before_game=0.5, place_bets=40.0, ball_in_rim=3.0, no_more_bets=3.0, result=0.5,
                    fault_shutdown=10.0)
#: the console's screens: a table PC, a small panel, portrait, a large screen
SIZES = {"1280x800": (1280, 800), "1024x600": (1024, 600), "800x1280": (800, 1280), "1920x1080": (1920, 1080)}

_hashed: dict[str, str] = {}


def test_accounts() -> Accounts:
    if not _hashed:
        _hashed["hash"] = hash_password(PASSWORD)
    h = _hashed["hash"]
    return Accounts({"dana": Account("dana", "dealer", h), "petra": Account("petra", "pit_boss", h)})


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    print(f"\nbrowser screenshots: {ARTIFACTS}")
    return ARTIFACTS


async def shot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=False)
    return path


async def readme_shot(page: Any, name: str) -> Path:
    """A screenshot the README shows: saved with the others and into docs/images/ (the suite
    regenerates the README's console pictures)."""
    path = await shot(page, name)
    assert path.stat().st_size > 10_000
    shutil.copy(path, README_IMAGES / f"{name}.png")
    return path


@pytest.fixture
async def chromium() -> AsyncIterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (scripts/system-deps)")
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            await browser.close()


@dataclass
class ConsoleTable:
    harness: Harness
    server: ConsoleServer

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def core(self) -> Any:
        return self.harness.core


@pytest.fixture
async def console_table(tmp_path: Path) -> AsyncIterator[Callable[..., Awaitable[ConsoleTable]]]:
    made: list[ConsoleTable] = []

    async def make(game: str = "blackjack", *, simulator: bool = False, directory: Path | None = None,
                   **options: Any) -> ConsoleTable:
        where = directory or tmp_path / f"table{len(made)}"
        where.mkdir(parents=True, exist_ok=True)
        harness: Harness
        if game == "roulette":
            wheel = WheelHarness(load(roulette_config(where, **options)))
            await wheel.start(SLOW_BETS)
            harness = wheel
        else:
            harness = Harness(load(blackjack_config(where, **options)))
            started(harness)
            await harness.start()
            await harness.loop.until(lambda core: core.devices.get("shoe", {}).get("online", False), timeout=10)
        firmware = harness.firmware if simulator else None
        server = await start_console(harness.loop, harness.config, test_accounts(), host="127.0.0.1", port=0,
                                     simulator=firmware)
        table = ConsoleTable(harness, server)
        made.append(table)
        return table

    yield make
    for table in made:
        await stop_table(table)


def started(harness: Harness) -> None:
    """What a process start does after replay (controller/process.py): the ``table_started``
    entry, then no device is trusted until it reports again."""
    config, core, result = harness.config, harness.core, harness.replayed
    harness.journal.append(
        inputs.TABLE_STARTED,
        {"replayed": result.inputs, "written": result.written, "resumed_round": result.round_id,
         "game": config.table.game, "preset": config.table.preset,
         "rules": config.game_rules().model_dump(mode="json"), "burn_on_new_shoe": config.table.burn_on_new_shoe},
        source="table", round_id=core.round_id)
    core.restarted()


async def stop_table(table: ConsoleTable) -> None:
    """Stop the console, then the table (idempotent enough for a test that stops one early)."""
    await table.server.close()
    await table.harness.stop()


async def signed_in(browser: Any, url: str, user: str = "dana", size: str = "1280x800", *, touch: bool = False) -> Any:
    """A new page at ``size`` on the console, signed in as ``user``, showing a live snapshot
    (``touch``: a touchscreen, as the table's own screen is)."""
    width, height = SIZES[size]
    context = await browser.new_context(viewport={"width": width, "height": height}, has_touch=touch)
    page = await context.new_page()
    page.on("console", lambda msg: print(f"[page {msg.type}] {msg.text}") if msg.type in ("error", "warning") else None)
    page.on("pageerror", lambda exc: print(f"[page error] {exc}"))
    await page.goto(url)
    await page.fill("#user", user)
    await page.fill("#password", PASSWORD)
    await page.click("#login-btn")
    await until_js(page, "document.getElementById('link').textContent === 'live'")
    await until_js(page, "document.getElementById('prompt').textContent.length > 0")
    return page


async def tap(page: Any, command: str, *, within: str = "#actions") -> None:
    """Touch the action button of ``command``, waiting until the table offers it."""
    button = page.locator(f"{within} button[data-command='{command}']").first
    await button.wait_for(state="visible", timeout=10_000)
    await button.click()


async def long_press(page: Any, selector: str, held_ms: int, *, update: Callable[[], None] | None = None) -> bool:
    """A finger on the centre of ``selector`` for ``held_ms``, then lifted (touchstart, hold,
    touchend through the browser's own touch input, as a touchscreen sends them).

    ``update``: called once the finger is down, to make the table push a new snapshot; the
    press then lasts until the page drew it (at least ``held_ms``). Returns whether the
    element under the finger was still the same element after that update."""
    target = page.locator(selector).first
    await target.wait_for(state="visible", timeout=10_000)
    box = await target.bounding_box()
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    await page.evaluate(f"() => {{ window.pressed = document.querySelector({selector!r}); window.drawn = view.version; }}")
    clock = asyncio.get_running_loop().time
    cdp = await page.context.new_cdp_session(page)
    try:
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
        down = clock()
        if update is not None:
            update()
            await until_js(page, "view.version > window.drawn", timeout=10_000)
        same = bool(await page.evaluate(f"() => document.querySelector({selector!r}) === window.pressed"))
        await asyncio.sleep(max(0.0, held_ms / 1000 - (clock() - down)))  # the press under test: the finger stays down held_ms
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        await cdp.detach()
    return same


async def confirm(page: Any, *, yes: bool = True) -> str:
    """Answer the console's "cannot be undone" question; returns what it said."""
    dialog = page.locator("#confirm-dialog")
    await dialog.wait_for(state="visible", timeout=10_000)
    said = str(await dialog.text_content())
    await dialog.locator(f"button[data-answer='{'yes' if yes else 'no'}']").click()
    await dialog.wait_for(state="hidden")
    return said


async def result_text(page: Any, kind: str, timeout: float = 10_000) -> str:
    """The confirmation (``ok``) or refusal (``refused``) shown for the last command."""
    await until_js(page, "['ok', 'refused'].includes(document.getElementById('result').dataset.kind)",
                                 timeout=timeout)
    text = str(await page.text_content("#result"))
    assert await page.get_attribute("#result", "data-kind") == kind, text
    return text


async def until_js(page: Any, expression: str, timeout: float = 30_000) -> None:
    """Wait until ``expression`` is true in ``page`` (timeout in ms, a safety net only).

    Polled from here through the DevTools protocol: Playwright's own ``wait_for_function``
    evaluates its predicate with ``eval`` inside the page, which the pages' Content-Security-
    Policy (no ``unsafe-eval``) rightly refuses."""
    async def holds() -> bool:
        return bool(await page.evaluate(expression))

    await until_awaited(holds, f"never true in the page: {expression}", within=timeout / 1000, poll=0.05)


async def until(predicate: Callable[[], bool], timeout: float = 10.0, what: str = "the table's awaited state") -> None:
    """The shared ``until`` under the name and arguments these tests call it by."""
    await shared_until(predicate, what, within=timeout)


def copy_journal(src: Path, dst: Path) -> None:
    dst.mkdir(parents=True, exist_ok=True)
    for f in src.glob("table.journal*"):
        shutil.copy(f, dst / f.name)
