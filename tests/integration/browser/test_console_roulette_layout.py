"""The roulette console at the screens it runs on: while betting is open the whole layout
(numbers, outside bets), the chip tray, the box selector and the race track's strip are on the
screen without scrolling at 1280x800, 1024x600 and portrait 800x1280, every touch target at
least ``TOUCH_PX`` on its short side (asserted from element boxes).

The README's pictures are taken after a shift instead (test_console_shift.py)."""

from __future__ import annotations

import json
from typing import Any

from tests.integration.browser.conftest import PASSWORD, shot, signed_in, until_js
from tests.integration.browser.test_console_layout import SCREENS, fits
from tests.integration.browser.test_console_roulette import answered, cell, key, wheel_table
from tests.support.waiting import Arrivals

__all__ = ["wheel_table"]  # the fixture, used by name

TOUCH_PX = 40  # a layout cell's short side: the layout is the whole felt, scaled to the screen

#: the layout's parts a dealer touches while betting: each inside the viewport, each cell large enough
LAYOUT_BOXES = """() => {
  const w = window.innerWidth, h = window.innerHeight;
  const parts = ['#roulette-grid', '#roulette-chips', '.rl-box', '#roulette-racetrack', '#roulette-countdown'];
  const inside = (r) => r.top >= -0.5 && r.left >= -0.5 && r.bottom <= h + 0.5 && r.right <= w + 0.5;
  const shown = (e) => e.offsetParent !== null;
  const buttons = [...document.querySelectorAll('#roulette button')].filter(shown);
  const felt = document.getElementById('felt');
  return {
    missing: parts.filter((s) => !document.querySelector(s) || !shown(document.querySelector(s))),
    outside: [...parts.filter((s) => document.querySelector(s) && !inside(document.querySelector(s).getBoundingClientRect())),
              ...buttons.filter((b) => !inside(b.getBoundingClientRect())).map((b) => b.getAttribute('aria-label'))],
    small: buttons.filter((b) => !b.classList.contains('rl-point')).map((b) => [b, b.getBoundingClientRect()])
      .filter(([b, r]) => Math.min(r.width, r.height) < TOUCH_PX - 0.5)
      .map(([b, r]) => `${b.getAttribute('aria-label')} ${Math.round(r.width)}x${Math.round(r.height)}`),
    covered: buttons.filter((b) => { const r = b.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return !(top && b.contains(top)); }).map((b) => b.getAttribute('aria-label')),
    cells: buttons.length,
    felt_scrolls: felt.scrollHeight > felt.clientHeight + 1 || felt.scrollWidth > felt.clientWidth + 1,
    dims: [felt.scrollHeight, felt.clientHeight, felt.scrollWidth, felt.clientWidth],
  };
}""".replace("TOUCH_PX", str(TOUCH_PX))


async def test_the_roulette_layout_is_on_screen_at_each_size(chromium: Any, wheel_table: Any) -> None:
    table = await wheel_table("european")
    pages = {size: await signed_in(chromium, table.url, "dana", size=size, touch=True) for size in SCREENS}
    dealer = pages["1280x800"]
    await dealer.locator("#actions button[data-command='open_round']").tap()
    await answered(dealer)
    for size, page in pages.items():
        await cell(page, "17").wait_for(state="visible")
        await until_js(page, "!document.querySelector('#roulette-grid button').disabled")
        await shot(page, f"console-roulette-fresh-{size}")
    for size, page in pages.items():
        seen = await page.evaluate(LAYOUT_BOXES)
        assert seen["missing"] == [], f"{size}: not shown: {seen['missing']}"
        assert seen["cells"] > 150, seen
        assert seen["outside"] == [], f"{size}: outside the screen: {seen['outside']}"
        assert not seen["felt_scrolls"], f"{size}: the felt scrolls {seen['dims']}"
        assert seen["covered"] == [], f"{size}: covered: {seen['covered']}"
        assert seen["small"] == [], f"{size}: touch targets under {TOUCH_PX} px: {seen['small']}"
        await fits(page, f"{size} roulette betting")

    for size, page in pages.items():  # the per-pocket neighbours open: the grid makes room, nothing leaves the screen
        await cell(page, "neighbours…").tap()
        await cell(page, "neighbours 17").wait_for(state="visible")
        seen = await page.evaluate(LAYOUT_BOXES)
        assert seen["outside"] == [], f"{size} neighbours open: outside the screen: {seen['outside']}"
        assert not seen["felt_scrolls"], f"{size} neighbours open: the felt scrolls"
        assert seen["covered"] == [], f"{size} neighbours open: covered: {seen['covered']}"


async def framed_console(browser: Any, url: str, frames: Arrivals[dict[str, Any]]) -> Any:
    """A touch console (1280x800) whose every message from the table lands in ``frames``."""
    context = await browser.new_context(viewport={"width": 1280, "height": 800}, has_touch=True)
    page = await context.new_page()
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames(json.loads(payload))))
    await page.goto(url)
    await page.fill("#user", "dana")
    await page.fill("#password", PASSWORD)
    await page.tap("#login-btn")
    await until_js(page, "document.getElementById('link').textContent === 'live'")
    return page


def kinds(frames: Arrivals[dict[str, Any]]) -> list[str]:
    return [f.get("type", "") for f in frames.seen]


async def test_the_layout_is_sent_once_not_in_every_snapshot(chromium: Any, wheel_table: Any) -> None:
    table = await wheel_table("european")
    frames: Arrivals[dict[str, Any]] = Arrivals()
    page = await framed_console(chromium, table.url, frames)
    await page.locator("#actions button[data-command='open_round']").tap()
    await answered(page)
    await cell(page, "17").wait_for(state="visible")
    await page.evaluate("() => { window.seventeen = document.querySelector('[aria-label=\"17\"]'); }")
    await key(page, ["17", "red"], "5.00 EUR")  # bets change the snapshot, not the offer
    before = len(frames.seen)
    await frames.until(lambda: kinds(frames)[before:].count("snapshot") >= 3, "three more snapshots")

    layouts = [f["layout"] for f in frames.seen if f.get("type") == "layout"]
    assert len(layouts) == 1, kinds(frames)
    offer_id = layouts[0]["id"]
    open_snapshots = [f for f in frames.seen if f.get("type") == "snapshot" and f["view"].get("spin")]
    assert len(open_snapshots) >= 3
    for snapshot in open_snapshots:  # each names the offer the page keeps, and carries none of it
        assert snapshot["view"]["spin"]["layout_id"] == offer_id
        assert "layout" not in snapshot["view"]["spin"]
        assert len(json.dumps(snapshot)) < 12_000, len(json.dumps(snapshot))
    # the page draws from the offer it kept: a cell is the same element, its stake shown
    assert await page.evaluate("window.seventeen.isConnected && "
                               "window.seventeen === document.querySelector('[aria-label=\"17\"]')")
    assert (await cell(page, "17").text_content() or "").endswith("5.00 EUR")

    await page.reload()  # a new page (still signed in) has kept nothing: it is sent the offer again
    await cell(page, "17").wait_for(state="visible")
    assert [f["layout"]["id"] for f in frames.seen if f.get("type") == "layout"] == [offer_id, offer_id]
