"""The console's roulette layout in Chromium with touch emulation: every bet keyed by touching
the layout or the race track, paid as the rule book says (docs/rules.md §4), checked in
``croupier recall --json``; cells named by what they bet and kept in place across updates.

The wheel is the simulated Cammegh SS2 behind the real driver; its betting time is gated, so
the wheel calls no more bets when the test says (``GatedClock.no_more_bets``), not after a
guess at how long a loaded machine takes to key nine bets.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from controller.config import load
from controller.console import start_console
from controller.runtime.recovery import device_sync
from controller.runtime.wheel import open_wheel
from controller.table.core import SETTLING
from drivers.clock import ScaledClock
from simulators.wheel import Timings
from tests.integration.browser import conftest as browser
from tests.integration.browser.conftest import PASSWORD, ConsoleTable, shot, stop_table, until_js
from tests.integration.table_roulette.conftest import SPEED, WheelHarness, write_config
from tests.support.waiting import until

#: protocol seconds the wheel takes bets: long enough that only the gate ends them
GATED = 10_000.0
TIMINGS = Timings(before_game=0.5, place_bets=GATED, ball_in_rim=2.0, no_more_bets=2.0, result=0.5,
                  fault_shutdown=10.0)
#: the rule book's pays (docs/rules.md §4), to the unit: what a winning unit returns
ONE_BALL = {"straight": 36, "split": 18, "street": 12, "corner": 9, "six_line": 6, "five": 7, "dozen": 3,
            "column": 3, "even_money": 2}


class GatedClock(ScaledClock):
    """Protocol time ``SPEED`` times faster; the wheel's betting time ends at ``no_more_bets()``."""

    def __init__(self) -> None:
        super().__init__(SPEED)
        self.gate = asyncio.Event()

    def no_more_bets(self) -> None:
        self.gate.set()

    async def sleep(self, seconds: float) -> None:
        if seconds >= GATED:
            await self.gate.wait()
            self.gate.clear()
            return
        await super().sleep(seconds)


class GatedWheelHarness(WheelHarness):
    clock: GatedClock

    async def start(self, timings: Timings = TIMINGS) -> None:  # type: ignore[override]
        self.core.restarted()
        self.clock = GatedClock()
        self.wheel = await open_wheel(self.config, self.core, self.loop.device_event, clock=self.clock,
                                      timings=timings)
        self.loop.devices["wheel"] = self.wheel
        await self.loop.carry_out(list(device_sync(self.core)))
        self._tasks.append(asyncio.create_task(self.loop.run()))
        await self.loop.until(lambda core: core.devices.get("wheel", {}).get("online", False), timeout=10)


@pytest.fixture
async def wheel_table(tmp_path: Path) -> AsyncIterator[Callable[[str], Awaitable[ConsoleTable]]]:
    made: list[ConsoleTable] = []

    async def make(preset: str) -> ConsoleTable:
        harness = GatedWheelHarness(load(write_config(tmp_path, preset=preset)))
        await harness.start()
        server = await start_console(harness.loop, harness.config, browser.test_accounts(), host="127.0.0.1", port=0)
        made.append(ConsoleTable(harness, server))
        return made[-1]

    yield make
    for table in made:
        await stop_table(table)


async def touch_console(browser: Any, url: str) -> Any:
    """A touch screen (1280x800) on the console, signed in as the dealer."""
    context = await browser.new_context(viewport={"width": 1280, "height": 800}, has_touch=True)
    page = await context.new_page()
    page.on("pageerror", lambda exc: print(f"[page error] {exc}"))
    await page.goto(url)
    await page.tap("#user")
    await page.fill("#user", "dana")
    await page.fill("#password", PASSWORD)
    await page.tap("#login-btn")
    await until_js(page, "document.getElementById('link').textContent === 'live'")
    return page


async def answered(page: Any) -> str:
    await until_js(page, "['ok', 'refused'].includes(document.getElementById('result').dataset.kind)")
    text = str(await page.text_content("#result"))
    assert await page.get_attribute("#result", "data-kind") == "ok", text
    return text


async def clean_text(page: Any) -> None:
    """No internal word on screen, and every amount of the layout with its currency."""
    text = await page.inner_text("#roulette")
    for word in ("null", "undefined", "NaN", '{"'):
        assert word not in text, text
    for stake in await page.locator("#roulette .rl-stake").all_text_contents():
        assert stake == "" or stake.endswith(" EUR"), stake


def cell(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


async def reach(page: Any, name: str) -> None:
    """Bring cell ``name`` on screen: the per-pocket bets stand in the layout's place while open,
    so a pocket's cell opens them and a layout cell closes them."""
    if await cell(page, name).count():
        return
    if name.startswith(("neighbours ", "both on ")):
        await show_pockets(page, "neighbours…" if name.startswith("neighbours ") else "both on…")
    else:
        for toggle in await page.get_by_role("button", expanded=True).all():
            await toggle.tap()
    await cell(page, name).wait_for(state="visible")


async def show_pockets(page: Any, toggle: str) -> None:
    """Open a strip's per-pocket bets (``neighbours…``, ``both on…``), kept behind a toggle."""
    await cell(page, toggle).tap()
    await page.get_by_role("button", name=toggle, exact=True, expanded=True).wait_for()


async def open_round(page: Any) -> None:
    await page.locator("#actions button[data-command='open_round']").tap()
    await answered(page)
    await cell(page, "17").wait_for(state="visible")
    await until_js(page, "!document.querySelector('#roulette-grid button').disabled")


async def key(page: Any, names: list[str], chip: str) -> None:
    await cell(page, f"chip {chip}").tap()
    for name in names:
        await reach(page, name)
        await cell(page, name).tap()
        await answered(page)


async def spin_and_settle(table: ConsoleTable, page: Any) -> None:
    table.harness.clock.no_more_bets()
    await until(lambda: table.core.phase == SETTLING, "the wheel gave its result", within=30)
    await page.locator("#actions button[data-command='settle']").tap()
    await answered(page)


async def recalled_bets(table: ConsoleTable) -> list[dict[str, Any]]:
    """The one round's bets, as ``croupier recall --json`` tells them."""
    done = await asyncio.to_thread(subprocess.run, [
        sys.executable, "-m", "controller.table_cli", "recall", "--journal", str(table.harness.config.journal_path),
        "--json", "--all"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    (record,) = json.loads(done.stdout)
    assert record["status"] == "settled", record
    return list(record["bets"])


async def recalled(table: ConsoleTable) -> dict[str, int]:
    """Each bet's kind -> its payout, as ``croupier recall --json`` tells it."""
    return {b["kind"]: b["payout"] for b in await recalled_bets(table)}


async def test_a_european_round_keyed_on_the_layout_pays_as_the_rule_book(chromium: Any,
                                                                         wheel_table: Any) -> None:
    table = await wheel_table("european")
    table.harness.sim.queue_results("19")
    page = await touch_console(chromium, table.url)
    await open_round(page)
    await show_pockets(page, "neighbours…")
    # every cell is named by what it bets; the ones a single-zero table refuses are not there
    for name in ("neighbours 17", "0", "17", "split 17-20", "street 16-18", "corner 17-21", "line 16-21", "dozen 2",
                 "column 1", "red", "voisins", "tiers", "orphelins", "jeu zéro"):
        await reach(page, name)
        assert await cell(page, name).count() == 1, name
    for refused in ("00", "five 0-00-1-2-3", "first four 0-1-2-3", "both balls on one number", "both on 17"):
        assert await cell(page, refused).count() == 0, refused
    await page.evaluate("() => { window.seventeen = document.querySelector('[aria-label=\"17\"]'); }")

    unit = 500  # 5.00 EUR: inside every table minimum
    keyed = ["19", "split 19-22", "street 19-21", "corner 19-23", "line 19-24", "dozen 2", "column 1", "red",
             "voisins"]
    await key(page, keyed, "5.00 EUR")
    # the cell touched shows its stake with the currency; a cell is the same element after updates
    assert (await cell(page, "19").text_content() or "").endswith("5.00 EUR")
    assert (await cell(page, "voisins").text_content() or "").endswith("45.00 EUR")
    assert await page.evaluate("window.seventeen.isConnected && "
                               "window.seventeen === document.querySelector('[aria-label=\"17\"]')")
    await spin_and_settle(table, page)

    paid = await recalled(table)
    # voisins is 9 units: the 0-2-3 trio x2, five splits (19-22 wins 17:1), the 25-29 corner x2
    assert paid == {
        "straight:19": ONE_BALL["straight"] * unit, "split:19-22": ONE_BALL["split"] * unit,
        "street:19-20-21": ONE_BALL["street"] * unit, "corner:19-20-22-23": ONE_BALL["corner"] * unit,
        "six_line:19-20-21-22-23-24": ONE_BALL["six_line"] * unit, "dozen:2": ONE_BALL["dozen"] * unit,
        "column:1": ONE_BALL["column"] * unit, "red": ONE_BALL["even_money"] * unit,
        "voisins": ONE_BALL["split"] * unit,
    }

    # the next window counts down in the table's clock, from the length the last one had; the
    # last numbers show the newest marked, and the hot and cold ones
    await open_round(page)
    await until_js(page, "/^\\d+ s$/.test(document.getElementById('roulette-countdown').textContent)")
    window = await page.evaluate("view.betting")
    assert window["window_s"] > 0 and window["ends"] > window["opened"], window
    # the last numbers, hot and cold are the result boards', shown once, beside the layout
    await until_js(page, "document.querySelector('#boards ol.last-spins li.newest')?.dataset.numbers === '19'")
    assert await page.locator("#boards [data-board^='Hot'] li").evaluate_all("ls => ls.map(l => l.dataset.number)") == ["19"]
    assert await page.locator("#roulette-last, #last-numbers").count() == 0
    boards = await page.inner_text("#boards")
    assert "Last spin\n" in boards or "LAST SPIN\n" in boards, boards  # not "Last 1 spins"
    assert "not enough history yet (1 of 37 spins)" in boards, boards  # no cold numbers never seen
    await shot(page, "console-roulette-european")
    await clean_text(page)


async def test_an_american_round_with_the_five_bet(chromium: Any, wheel_table: Any) -> None:
    table = await wheel_table("american")
    table.harness.sim.queue_results("00")
    page = await touch_console(chromium, table.url)
    await open_round(page)
    await show_pockets(page, "neighbours…")
    for refused in ("voisins", "first four 0-1-2-3", "both on 17"):
        assert await cell(page, refused).count() == 0, refused
    await key(page, ["00", "split 0-00", "street 0-00-2", "five 0-00-1-2-3", "neighbours 00"], "1.00 EUR")
    await key(page, ["high 19-36"], "5.00 EUR")  # outside bets start at 5.00 EUR
    await clean_text(page)
    for size in ((1024, 600), (800, 1280)):
        await page.set_viewport_size({"width": size[0], "height": size[1]})
        await shot(page, f"console-roulette-american-{size[0]}x{size[1]}")
    await spin_and_settle(table, page)
    paid = await recalled(table)
    # neighbours of 00 with 2 each side: five straight-ups, one of them on 00
    assert paid == {"straight:00": 36 * 100, "split:0-00": 18 * 100, "street:0-00-2": 12 * 100,
                    "five": ONE_BALL["five"] * 100, "high": 0, "neighbours:00:2": 36 * 100}


async def test_a_double_ball_round_with_its_own_bets(chromium: Any, wheel_table: Any) -> None:
    table = await wheel_table("double-ball")
    table.harness.sim.queue_results("19")  # ball 1 from the wheel; the dealer keys ball 2
    page = await touch_console(chromium, table.url)
    await open_round(page)
    await show_pockets(page, "both on…")
    await key(page, ["19", "both balls on one number", "both on 19", "both on 20"], "1.00 EUR")
    await key(page, ["red"], "5.00 EUR")
    table.harness.clock.no_more_bets()
    await page.locator("#actions button[data-command='key_result']").tap()
    await page.locator("#number-picker button[data-number='19']").tap()
    await answered(page)
    await until(lambda: table.core.phase == SETTLING, "both balls are in", within=30)
    await page.locator("#actions button[data-command='settle']").tap()
    await answered(page)
    paid = await recalled(table)
    # two balls: a straight pays 17:1 per ball in it; an even-money bet 3:1 with both balls in it;
    # both balls on one number 34:1; both on the chosen number 1300:1
    assert paid == {"straight:19": (1 + 17 * 2) * 100, "red": 4 * 500, "both_any": 35 * 100,
                    "both_on:19": 1301 * 100, "both_on:20": 0}


async def long_press(page: Any, name: str, snapshots: int, *, finger: bool) -> None:
    """Hold a finger (or the mouse button) on cell ``name`` while ``snapshots`` more snapshots
    redraw the page, then lift it."""
    box = await cell(page, name).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    version = await page.evaluate("view.version")
    if finger:
        cdp = await page.context.new_cdp_session(page)
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    else:
        await page.mouse.move(x, y)
        await page.mouse.down()
    await until_js(page, f"view.version >= {version + snapshots}")
    if finger:
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    else:
        await page.mouse.up()


async def test_a_press_held_through_snapshots_places_its_bet(chromium: Any, wheel_table: Any) -> None:
    table = await wheel_table("european")
    page = await touch_console(chromium, table.url)
    await open_round(page)
    await cell(page, "chip 1.00 EUR").tap()
    presses = (("17", 1, True), ("split 17-20", 2, True), ("corner 17-21", 3, True), ("20", 2, False),
               ("line 16-21", 2, False))
    for placed, (name, held, finger) in enumerate(presses, start=1):
        await long_press(page, name, held, finger=finger)
        await answered(page)
        await until_js(page, f"view.boxes.flatMap((b) => b.hands.flatMap((h) => h.bets)).length === {placed}")
    bets = {bet.kind: bet.stake for bet in table.core.adapter.open_bets(table.core.engine)}
    assert bets == {"straight:17": 100, "split:17-20": 100, "corner:17-18-20-21": 100, "straight:20": 100,
                    "six_line:16-17-18-19-20-21": 100}


async def test_the_betting_window_is_measured_in_the_table_clock(tmp_path: Path) -> None:
    harness = GatedWheelHarness(load(write_config(tmp_path)))
    await harness.start()
    try:
        window = harness.core.adapter.view.console_extras(harness.loop)["betting"]
        assert window() is None  # no round: no window
        await harness.cmd("open_round")
        first = window()
        assert first is not None and first["ends"] is None  # nothing measured yet: only the start
        opened = harness.of_kind("command")[-1].ts
        assert first["opened"] == opened
        harness.clock.no_more_bets()
        await harness.loop.until(lambda core: core.phase == SETTLING, timeout=30)
        assert window() is None
        closed = next(e.ts for e in harness.of_kind("device") if e.payload.get("type") == "no_more_bets")
        await harness.cmd("settle")
        await harness.cmd("open_round")
        second = window()
        assert second is not None
        measured = (datetime.fromisoformat(closed) - datetime.fromisoformat(opened)).total_seconds()
        assert second["window_s"] == pytest.approx(measured, abs=0.001)
        ends = datetime.fromisoformat(second["opened"]) + timedelta(seconds=measured)
        assert abs((datetime.fromisoformat(second["ends"]) - ends).total_seconds()) <= 0.001
        assert second["now"] >= second["opened"]
    finally:
        await harness.stop()


async def test_a_bet_on_the_layout_names_its_player(chromium: Any, wheel_table: Any) -> None:
    """The box's seat, or the player card id typed once for the box (kept while the dealer
    moves between boxes), rides with every chip placed for that box."""
    table = await wheel_table("european")
    table.harness.sim.queue_results("19")
    page = await touch_console(chromium, table.url)
    await open_round(page)
    await page.get_by_role("textbox", name="player of box 1: seat or player card id").fill("PC-4471")
    await key(page, ["19"], "5.00 EUR")
    await page.locator("#roulette-box-up").tap()  # box 2: nothing typed, its seat
    assert await page.input_value("#roulette-player") == ""
    await key(page, ["red"], "5.00 EUR")
    await page.locator("#roulette-box-down").tap()  # back to box 1: the card id typed for it
    assert await page.input_value("#roulette-player") == "PC-4471"
    await key(page, ["split 19-22"], "5.00 EUR")
    await spin_and_settle(table, page)
    players = {b["kind"]: (b["box"], b["player"]) for b in await recalled_bets(table)}
    assert players == {"straight:19": (1, "PC-4471"), "red": (2, "seat 2"), "split:19-22": (1, "PC-4471")}
