"""The pit's alerts in Chromium: each with its time, repeats of a warning grouped into one line,
acknowledge-all for warnings (paced under the table's rate limit), and a flash and a sound for a
new error, whose sound can be muted."""

from __future__ import annotations

import re
from typing import Any

from controller.pit.server import PitServer
from tests.integration.browser.conftest import until_js
from tests.integration.pit.page_text import assert_clean
from tests.integration.pit.test_browser import open_pit
from tests.support.waiting import until

CLOCK = re.compile(r"^\d\d:\d\d:\d\d$")
GROUP = re.compile(r"^5× \d\d:\d\d:\d\d(–\d\d:\d\d:\d\d)?$")


def body(page: Any, key: str) -> str:
    return f"Number(document.body.dataset.{key} || 0)"


async def test_alerts_are_grouped_acknowledged_together_and_a_new_error_flashes(
        chromium: Any, pit: PitServer, tables: Any) -> None:
    rl = await tables("rl")
    bj = await tables("bj")
    rl.state(dealer="dee")
    bj.state(game="blackjack", preset="ru6", phase="playing")
    slips = [rl.append("alert", {"severity": "warning", "code": "input.refused", "message": f"bet {n} refused: limits"})
             for n in range(5)]
    other = rl.append("alert", {"severity": "warning", "code": "spot.refused", "message": "press out of turn"})
    page = await open_pit(chromium, pit.url, "pat")
    group = page.locator("#alerts li.warning", has_text="Input refused")
    await until_js(page, "document.querySelectorAll('#alerts li.warning').length === 2")
    assert await group.count() == 1  # five slips, one line
    assert GROUP.match(await group.locator(".when").inner_text())
    assert "bet 4 refused" in await group.inner_text()  # the latest message
    assert CLOCK.match(await page.locator("#alerts li.warning", has_text="Spot refused").locator(".when").inner_text())
    await assert_clean(page)

    # a new error: a flash and a sound; muted, a flash only
    assert await page.evaluate(body(page, "flashes")) == 0
    err = bj.append("alert", {"severity": "error", "code": "shoe.gap", "message": "card 41 never reached the table"})
    bj.state(game="blackjack", preset="ru6", phase="hold",
             alerts_open=[{"seq": err, "code": "shoe.gap", "message": "card 41 never reached the table", "round": None}])
    await until_js(page, f"{body(page, 'flashes')} === 1 && {body(page, 'chimes')} === 1")
    await page.get_by_role("button", name="Alert sound on: mute it").click()
    assert await page.get_by_role("button", name="Alert sound muted: unmute it").get_attribute("aria-pressed") == "true"
    err2 = bj.append("alert", {"severity": "error", "code": "shoe.jam", "message": "the shoe jammed"})
    bj.state(game="blackjack", preset="ru6", phase="hold",
             alerts_open=[{"seq": s, "code": c, "message": m, "round": None}
                          for s, c, m in ((err, "shoe.gap", "card 41"), (err2, "shoe.jam", "the shoe jammed"))])
    await until_js(page, f"{body(page, 'flashes')} === 2")
    assert await page.evaluate(body(page, "chimes")) == 1

    # acknowledge every warning at once: one command per alert, to its table only
    await page.get_by_role("button", name="Acknowledge all warnings").click()
    await until(lambda: len(rl.commands) == 6, "six acknowledgements reach the table")
    assert sorted(c.alert for c in rl.commands) == sorted([*slips, other])
    assert {(c.command, c.sender) for c in rl.commands} == {("acknowledge_alert", "pat")} and bj.commands == []
    for seq in [*slips, other]:  # the table says so, and the lines go
        rl.append("alert", {"severity": "info", "code": "pit.alert_acknowledged", "message": f"alert {seq} acknowledged",
                            "alert": seq, "by": "pat"})
    await until_js(page, "document.querySelectorAll('#alerts li.warning').length === 0")
    assert await page.locator("#alerts li.error").count() == 2
