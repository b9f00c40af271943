"""The floor's totals and tiles in Chromium: drop, win and hold against the theoretical edge,
rounds in the last hour, tables open and closed, a clock and each tile's last update; a table's
pace against its target; the limits in one line, hold written out whole."""

from __future__ import annotations

import re
from typing import Any

from controller.pit.server import PitServer
from tests.integration.browser.conftest import until_js
from tests.integration.pit.page_text import assert_clean
from tests.integration.pit.test_browser import open_pit, tile
from tests.integration.pit.test_dashboard import settled

LIMITS = {kind: {"min": 100, "max": 250000} for kind in ("straight", "split", "street", "corner", "dozen", "red")}
CLOCK = re.compile(r"^\d\d:\d\d:\d\d$")


async def test_the_floor_totals_and_a_table_below_its_pace(chromium: Any, pit: PitServer, tables: Any) -> None:
    rl = await tables("rl")
    bj = await tables("bj")
    rl.state(dealer="dee", limits=LIMITS, pace={"rounds_per_hour": 52.4, "target": 60, "window_s": 3600})
    bj.state(game="blackjack", preset="ru6", phase="idle", closing=True, round=None)
    rl.append("round_closed", settled("rl-1", "17", 1000, 36000), "rl-1")
    rl.append("round_closed", settled("rl-2", "3", 4000, 0), "rl-2")
    page = await open_pit(chromium, pit.url, "pat")
    totals = "document.getElementById('totals').textContent"
    # by hand: drop 10.00 + 40.00 = 50.00 EUR, paid 360.00 EUR: win -310.00 EUR, hold -620.00 %; edge 1/37
    await until_js(page, f"{totals}.includes('-310.00 EUR') && {totals}.includes('2.70 %')", timeout=60_000)
    shown = await page.locator("#totals").inner_text()
    assert "50.00 EUR" in shown and "-620.00 %" in shown
    assert "1 open · 1 closed" in shown
    assert await page.locator("#totals .figure .v.neg").count() == 2  # the negative win and hold are red
    assert CLOCK.match(await page.locator("#clock").inner_text())
    assert CLOCK.match(await tile(page, "rl").locator(".updated").inner_text())

    rl_tile = tile(page, "rl")
    assert await rl_tile.locator(".pace").inner_text() == "pace 52/h of 60/h · below target"
    limits = await rl_tile.locator("dd").nth(2).inner_text()
    assert limits == "1.00 EUR–2,500.00 EUR (6 bets)"  # one line a tile: the lowest min, the highest max
    assert await tile(page, "bj").locator(".presence").inner_text() == "closed"
    assert await tile(page, "bj").locator(".pace").count() == 0  # no pace known: nothing shown
    await assert_clean(page)
    await page.goto(pit.url + "table/rl")  # the table's view gives its pace too
    await until_js(page, "document.querySelector('#table-head .pace') !== null")
    assert await page.locator("#table-head .pace").inner_text() == "pace 52/h of 60/h · below target"
    await assert_clean(page)
