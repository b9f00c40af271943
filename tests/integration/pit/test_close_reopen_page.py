"""Closing and reopening a table from the pit page (Chromium) while its console follows: a real
blackjack table with its console, its feed on mosquitto. The pit offers Close after round only
while the table is open and Reopen only while it is closed; the tile reads "closed", never
OFFLINE; each command's notice shows the table's answer; the console shows the table closed,
then open again (it is only read here)."""

from __future__ import annotations

import asyncio
from typing import Any

from controller.console import start_console
from controller.pit.server import PitServer
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.browser.conftest import shot, until_js
from tests.integration.browser.conftest import signed_in as console_signed_in
from tests.integration.browser.conftest import test_accounts as console_accounts
from tests.integration.pit.live_table import on_the_floor
from tests.integration.pit.page_text import assert_clean
from tests.integration.pit.test_browser import open_pit
from tests.integration.table_corrections.conftest import burn_table  # noqa: F401  # a real blackjack table

TABLE = "bj-close"
ANSWERED = "document.getElementById('notice').dataset.answer === '{}'"
OFFERED = "[...document.querySelectorAll('#commands button')].map((b) => b.dataset.command).join(',') === '{}'"


async def badge(page: Any) -> str:
    return str(await page.locator("#table-head .presence").inner_text())


async def test_the_pit_closes_and_reopens_a_table_and_its_console_follows(
        chromium: Any, pit: PitServer, mosquitto: MosquittoBroker, burn_table: Any) -> None:  # noqa: F811
    t = await burn_table(stacked=["TS"], table_id=TABLE)
    console = await start_console(t.loop, t.config, console_accounts(), host="127.0.0.1", port=0)
    try:
        async with on_the_floor(t, mosquitto, TABLE):
            dealer = await console_signed_in(chromium, console.url, "dana")
            await until_js(dealer, "document.getElementById('prompt').textContent === 'Open betting'")
            page = await open_pit(chromium, pit.url + f"table/{TABLE}", "pat")
            page.on("dialog", lambda dialog: dialog.accept())
            await until_js(page, OFFERED.format("close_after_round"))
            assert await badge(page) == "open"

            # a command the table refuses: the notice gives the table's reason
            await page.evaluate(f"send({{table: '{TABLE}', command: 'reopen'}})")
            await until_js(page, ANSWERED.format("refused"))
            assert "refused by the table: the table is not closed" in await page.locator("#notice").inner_text()

            await page.get_by_role("button", name="Close after round").click()
            await until_js(page, ANSWERED.format("accepted"))
            assert await page.locator("#notice").inner_text() == "Close after round on bj-close: accepted by the table."
            await until_js(page, OFFERED.format("reopen"))
            await until_js(page, "document.querySelector('#table-head .presence')?.textContent === 'closed'")
            await until_js(dealer, "document.getElementById('prompt').textContent === 'Table closed'")
            assert await dealer.locator("#actions button[data-command='open_round']").count() == 0
            await shot(page, "pit-table-closed-1280x800")
            await assert_clean(page)
            await page.goto(pit.url)  # the floor's tile too
            await until_js(page, f"document.querySelector(\".tile[data-table='{TABLE}'] .presence\")?.textContent === 'closed'")
            await page.goto(pit.url + f"table/{TABLE}")

            await until_js(page, OFFERED.format("reopen"))
            await page.get_by_role("button", name="Reopen").click()
            await until_js(page, ANSWERED.format("accepted"))
            await until_js(page, OFFERED.format("close_after_round"))
            assert await badge(page) == "open"
            await until_js(dealer, "document.getElementById('prompt').textContent === 'Open betting'")
    finally:
        await console.close()


async def test_an_answer_that_comes_before_the_dashboards_reply_still_reaches_the_notice(
        chromium: Any, pit: PitServer, mosquitto: MosquittoBroker, burn_table: Any) -> None:  # noqa: F811
    """A fast table answers over the page's socket before the dashboard's HTTP reply to the send
    has reached the page (the page learns the command's id from that reply): here the reply is
    held until the answer is in, and the notice must still show it."""
    t = await burn_table(stacked=["TS"], table_id=TABLE)
    async with on_the_floor(t, mosquitto, TABLE):
        page = await open_pit(chromium, pit.url + f"table/{TABLE}", "pat")
        answer_in = asyncio.Event()
        page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda frame: answer_in.set() if '"answer"' in str(frame) else None))
        await page.reload()  # the socket again, now watched
        await until_js(page, "document.getElementById('link').textContent === 'live'")
        await until_js(page, OFFERED.format("close_after_round"))

        async def reply_after_the_answer(route: Any) -> None:
            reply = await route.fetch()
            await asyncio.wait_for(answer_in.wait(), 30)
            await route.fulfill(response=reply)

        await page.route("**/api/command", reply_after_the_answer)
        page.on("dialog", lambda dialog: dialog.accept())
        await page.get_by_role("button", name="Close after round").click()
        await until_js(page, ANSWERED.format("accepted"))
        assert await page.locator("#notice").inner_text() == "Close after round on bj-close: accepted by the table."
