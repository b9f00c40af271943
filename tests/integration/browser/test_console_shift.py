"""The console through a shift: each of the demo's tables (roulette, blackjack ru6, baccarat)
plays 60 rounds or more first (``tests/support/shift.py``: the simulated players and dealer
through the real table, journal, devices and console server), so every board has history. Then
every state a dealer meets is looked at on a touchscreen at 1280x800, 1024x600 and 800x1280, from
element boxes (``tests/support/screen.py``): no page scroll, every control and box whole on the
screen and not under another element, numbers at least 40 px, touch targets at least 48 px, no
text cut off. The README's console pictures (docs/images/console-*.png) are taken here, from
the shift, and the page's words are checked at its end (``read_clean``).

One shift per table is shared by its states and sizes (module-scoped fixtures)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from controller.table.core import BETTING, IDLE, SETTLING
from tests.integration.browser.conftest import CHROMIUM, CHROMIUM_ARGS, long_press, readme_shot, shot, signed_in, until, until_js
from tests.integration.browser.conftest import test_accounts as accounts
from tests.integration.browser.test_console_words import read_clean
from tests.support.screen import screen_problems
from tests.support.shift import ShiftTable, shift_table

pytestmark = pytest.mark.asyncio(loop_scope="module")

SCREENS = ("1280x800", "1024x600", "800x1280")
#: the roulette layout's numbers and outside bets (not its line spots)
NUMBERS = "#roulette-grid .rl-cell:not(.rl-point)"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (scripts/system-deps)")
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        launched = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield launched
        finally:
            await launched.close()


async def shift(game: str, where: Path) -> AsyncIterator[ShiftTable]:
    table = await shift_table(game, where, accounts(), rounds=60)
    try:
        yield table
    finally:
        await table.stop()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def roulette(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[ShiftTable]:
    async for table in shift("roulette", tmp_path_factory.mktemp("roulette-shift")):
        yield table


async def screens(browser: Any, table: ShiftTable) -> dict[str, Any]:
    return {size: await signed_in(browser, table.url, "dana", size=size, touch=True) for size in SCREENS}


async def look(pages: dict[str, Any], state: str, *, numbers: str = "", must: tuple[str, ...] = (),
               lists: tuple[str, ...] = (), readme: bool = False) -> None:
    """Every screen of ``state`` checked; a screenshot of each (the README's when ``readme``)."""
    found: list[str] = []
    for size, page in pages.items():
        await page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        name = f"console-{state}-{size}"
        await (readme_shot(page, name) if readme else shot(page, f"shift-{name}"))
        found += [f"{size} {state}: {p}" for p in await screen_problems(page, numbers=numbers, must=must, lists=lists)]
    assert found == [], "\n".join(found)


async def test_the_roulette_console_after_a_shift(browser: Any, roulette: ShiftTable) -> None:
    table = roulette
    assert table.core.closed_rounds >= 60
    pages = await screens(browser, table)
    dealer = pages["1280x800"]
    table.harness.clock.hold_bets()
    table.loop.command("open_round", "test-dealer")
    await until(lambda: table.core.phase == BETTING, timeout=20)
    for box, kind, amount in ((1, "straight:17", 500), (3, "red", 1000), (5, "dozen:2", 1000)):
        table.loop.command("bet", f"player:P{box}", box=box, kind=kind, amount=amount, player=f"P{box}")
    for page in pages.values():
        await until_js(page, "!!document.querySelector('#roulette-grid button') && "
                             "!document.querySelector('#roulette-grid button').disabled")
    await dealer.locator("#roulette-racetrack [aria-label='tiers']").tap()
    await until(lambda: any(s.kind == "tiers" for s in table.core.adapter.open_bets(table.core.engine)))
    for page in pages.values():
        await until_js(page, "document.querySelector('#boxes').textContent.includes('tiers')")
    # the shift's windows were short (the wheel at 100x): past the last one's length the
    # countdown says the wheel closes any moment, never "0 s" while bets are still taken
    await until_js(dealer, "document.getElementById('roulette-countdown').textContent === 'last bets'")
    await look(pages, "roulette", numbers=NUMBERS, readme=True,
               must=("#roulette-grid", "#roulette-chips", ".rl-box", "#roulette-racetrack", "#roulette-countdown",
                     "#boxes"))
    # a held press on the race track of the small panel lands on the race track (it sat under the
    # footer's Wheel panel once the boards had history)
    small = pages["1024x600"]
    await long_press(small, "#roulette-racetrack [aria-label='voisins']", 1500)
    await until(lambda: any(s.kind == "voisins" for s in table.core.adapter.open_bets(table.core.engine)))
    for page in pages.values():
        await page.locator("#roulette-racetrack-toggle").tap()
        await page.locator("[aria-label='neighbours 17']").wait_for(state="visible")
    await look(pages, "roulette-neighbours", numbers=NUMBERS, must=("#roulette-racetrack-cells",))
    await dealer.locator("[aria-label='neighbours 17']").tap()  # 2 each side: five chips
    await until_js(dealer, "document.querySelector('#boxes').textContent.includes('17 and 2 neighbours each side')")
    for page in pages.values():
        await page.locator("#roulette-racetrack-toggle").tap()

    table.harness.wheel.simulator.queue_results("16")  # tiers wins on its 13-16 split: one chip of six
    table.harness.clock.no_more_bets()
    await until(lambda: table.core.phase == SETTLING, timeout=20)
    for page in pages.values():
        await until_js(page, "!!document.querySelector(\"#actions button[data-command='settle']\")")
    await look(pages, "roulette-settle", must=("#boxes",))
    said = await read_clean(dealer, "the roulette settle")
    # 6.00 EUR on tiers, 1.00 EUR of it on 13-16 paid 17:1: 18.00 EUR back, 12.00 EUR more than the stake
    assert "tiers · seat 1: 6.00 EUR → won 12.00 EUR over the stake, 18.00 EUR returned" in said, said
    table.loop.command("settle", "test-dealer")
    await until(lambda: table.core.phase == IDLE)
    for page in pages.values():
        await until_js(page, "!document.getElementById('recall-btn').hidden")
        await page.locator("#recall-btn").tap()
        await page.locator("#recall .recall-round").first.wait_for()
    await look(pages, "roulette-recall", lists=("#recall-list",), must=("#recall-list", "#recall-close"))
    await read_clean(dealer, "the roulette recall after a shift")
    for page in pages.values():
        await page.locator("#recall-close").tap()
    await read_clean(dealer, "the roulette console after a shift")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def blackjack(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[ShiftTable]:
    async for table in shift("blackjack", tmp_path_factory.mktemp("blackjack-shift")):
        yield table


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def baccarat(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[ShiftTable]:
    async for table in shift("baccarat", tmp_path_factory.mktemp("baccarat-shift")):
        yield table


def expects(kind: str, box: int | None = None) -> Any:
    """``reached`` for ``step_until``: the engine expects ``kind`` (for ``box``)."""
    def reached(core: Any) -> bool:
        if core.engine is None or core.hold is not None:
            return False
        expect = core.engine.expects()
        return bool(expect.kind.value == kind and (box is None or expect.box == box))
    return reached


async def drawn(pages: dict[str, Any], table: ShiftTable) -> None:
    """Every page has drawn a snapshot taken after the table's latest step."""
    await table.loop.settled()
    version = table.server.hub.version
    for page in pages.values():
        await until_js(page, f"view !== null && view.version > {version}")


async def bets_on_the_felt(table: ShiftTable) -> None:
    table.loop.command("open_round", "test-dealer")
    await until(lambda: table.core.phase == BETTING)
    for p in table.players():
        for kind, amount in table.core.adapter.simulated_bets(table.core.rules, p.box, p.stake, table.core.rounds):
            table.loop.command("bet", f"player:{p.player}", box=p.box, amount=amount, kind=kind, player=p.player)
    await table.loop.settled()


async def recall_and_correct(pages: dict[str, Any], table: ShiftTable, state: str) -> None:
    """Recall open on every screen, a correction asked from the dealer's: the answer is shown in the recall."""
    await until(lambda: table.core.phase == IDLE)
    for page in pages.values():
        await until_js(page, "!document.getElementById('recall-btn').hidden")
        await page.locator("#recall-btn").tap()
        await page.locator("#recall .recall-round").first.wait_for()
    dealer = pages["1280x800"]
    newest = dealer.locator("#recall .recall-round").first
    first = table.core.records[str(await newest.get_attribute("data-round"))]["bets"][0]
    corrected = first["stake"] if first["payout"] != first["stake"] else 0  # what its bet can always return
    await newest.locator("input[inputmode='decimal']").first.fill(f"{corrected / 100:.2f}")
    await newest.locator("input.reason").first.fill("paid short at the table")
    await newest.locator("tr button").first.tap()
    await until_js(dealer, "document.getElementById('recall-result').dataset.kind === 'ok'")
    assert await dealer.locator("#recall-result").is_visible()
    await look(pages, f"{state}-recall", lists=("#recall-list",), must=("#recall-list", "#recall-close", "#recall-result"))
    await read_clean(dealer, f"the {state} recall after a shift")
    for page in pages.values():
        await page.locator("#recall-close").tap()


async def test_the_blackjack_console_after_a_shift(browser: Any, blackjack: ShiftTable) -> None:
    table = blackjack
    assert table.core.closed_rounds >= 60
    shoe = table.harness.firmware.shoe
    assert 0 < shoe.cut_after - shoe.dealt <= 45, (shoe.dealt, shoe.cut_after)  # near the cut card
    pages = await screens(browser, table)
    await bets_on_the_felt(table)
    for page in pages.values():
        await until_js(page, "document.querySelectorAll('#boxes .spot').length === 3")
        await page.locator("#actions button[data-command='bet']").tap()
        await page.locator("#bet-place").wait_for()
    await look(pages, "betting", readme=True, must=("#bet-place", "#bet-chips", "#boxes"))
    # one bet kind offered: the form shows no choice of kind, and no "null" in its place
    said = await read_clean(pages["1280x800"], "the bet form")
    assert "null" not in said

    table.loop.command("close_betting", "test-dealer")
    last = max(p.box for p in table.players())
    await table.step_until(expects("card", last))
    await drawn(pages, table)
    await look(pages, "blackjack-card-due", must=(f"[data-box='{last}'].expected",))

    await table.step_until(expects("decision"))
    await drawn(pages, table)
    await look(pages, "blackjack", readme=True, must=(".spot.expected",))

    table.harness.firmware.draw()  # a card nobody asked for: the table holds
    await until(lambda: table.core.hold is not None)
    await drawn(pages, table)
    for page in pages.values():
        await page.locator("#hold-banner").wait_for()
    await look(pages, "hold", readme=True, must=("#hold-banner",))
    said = str(await pages["1280x800"].text_content("#hold-banner")) + str(await pages["1280x800"].text_content("#prompt"))
    assert said.count(table.core.hold.message.split(": ", 1)[-1]) == 1, said  # the hold says its sentence once
    table.loop.command("burn", "test-dealer")
    await until(lambda: table.core.hold is None)

    await table.step_until(lambda core: core.phase == SETTLING)
    table.harness.firmware.draw()  # another card nobody asked for: a second hold, a second alert
    await until(lambda: table.core.hold is not None)
    table.loop.command("burn", "test-dealer")
    await until(lambda: table.core.hold is None and table.core.phase == SETTLING)
    await drawn(pages, table)
    boxes = tuple(f"[data-box='{p.box}']" for p in table.players())
    await until_js(pages["1280x800"], "document.querySelectorAll('#alert-list .alert').length >= 2")
    await look(pages, "blackjack-settle", must=(*boxes, "#alerts"))
    table.loop.command("settle", "test-dealer")
    await recall_and_correct(pages, table, "blackjack")
    await read_clean(pages["1280x800"], "the blackjack console after a shift")


async def test_the_baccarat_console_after_a_shift(browser: Any, baccarat: ShiftTable) -> None:
    table = baccarat
    assert table.core.closed_rounds >= 60
    pages = await screens(browser, table)
    for page in pages.values():  # every road drawn
        await until_js(page, "document.querySelectorAll('#boards figure[data-board]').length === 5")
        for board in ("big_eye_boy", "small_road", "cockroach_pig"):
            assert await page.locator(f"#boards svg[aria-label^='{board}'], #boards svg.board-grid").count() >= 5
        await until_js(page, "document.querySelectorAll('#boards .derived-cell').length > 10")
    await bets_on_the_felt(table)
    await look(pages, "baccarat-betting", must=("#boxes",))
    table.loop.command("close_betting", "test-dealer")
    dealt = table.core.shoe.last_n
    await table.step_until(lambda core: core.shoe.last_n >= dealt + 2)  # two cards out, the next one due
    await drawn(pages, table)
    await look(pages, "baccarat-card-due")
    await table.step_until(lambda core: core.phase == SETTLING)
    await drawn(pages, table)
    await look(pages, "baccarat-settle", must=("#boxes", "#house"))
    table.loop.command("settle", "test-dealer")
    await recall_and_correct(pages, table, "baccarat")
    await read_clean(pages["1280x800"], "the baccarat console after a shift")

    # a new shoe: the boards start again, and say so in words (no "null", "1 hands")
    table.loop.command("new_shoe", "test-dealer")
    await table.step_until(lambda core: core.phase == IDLE and not core.shoe.needs_new and core.shoe.burn_left == 0)
    await drawn(pages, table)
    await read_clean(pages["1280x800"], "the baccarat boards on a new shoe")
    await table.step_until(lambda core: core.phase == SETTLING)
    table.loop.command("settle", "test-dealer")
    await until(lambda: table.core.phase == IDLE)
    await drawn(pages, table)
    said = await read_clean(pages["1280x800"], "the baccarat boards after one hand")
    assert "1 hands" not in said and "1 hand" in said, said
