"""The table view's charts in Chromium: a negative hold is red, never green, and the house win
chart has its axes, with the money's units."""

from __future__ import annotations

from typing import Any

from controller.pit.server import PitServer
from tests.integration.browser.conftest import shot, until_js
from tests.integration.pit.page_text import assert_clean
from tests.integration.pit.test_browser import open_pit
from tests.integration.pit.test_rounds_page import played

GREEN = "#3fb37f"


async def test_a_losing_table_is_red_and_its_win_chart_has_axes(chromium: Any, pit: PitServer, tables: Any) -> None:
    rl = await tables("rl")
    rl.state(dealer="ann")
    for n in (15, 16, 17):  # two losing bets, then 17 paid 360.00 EUR on 10.00 EUR: the house is down 330.00 EUR
        rl.append("round_closed", played(n), f"rl-{n:04d}")
    page = await open_pit(chromium, pit.url + "table/rl", "pat")
    await until_js(page, "document.querySelectorAll('#stats svg.chart').length >= 2")
    await until_js(page, "document.querySelector('#stats .figure .v.hold')?.textContent === '-1100.00 %'")
    assert await page.locator("#stats .figure .v.hold.neg").count() == 1
    bars, win = page.locator("#stats svg.chart").nth(0), page.locator("#stats svg.chart").nth(1)
    actual = bars.locator("rect").first
    assert (await actual.get_attribute("fill")).lower() != GREEN
    assert await win.locator("line.axis").count() == 2
    ticks = await win.locator("text.tick.y").all_text_contents()
    assert ticks == ["-330.00 EUR", "20.00 EUR"]  # lowest and highest (+10, +20, then -330); zero would overprint
    assert await win.locator("text.label.y").text_content() == "house win (EUR, cumulative)"
    assert await win.locator("text.label.x").text_content() == "settled rounds, oldest to newest"
    assert await win.locator("polyline").get_attribute("stroke") != GREEN
    await assert_clean(page)
    await shot(page, "pit-table-charts-1280x800")
