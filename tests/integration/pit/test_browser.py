"""The pit dashboard in Debian's Chromium (Playwright): two tables live, an alert acknowledged
from the page, a dealer refused a pit command; screenshots at 1280x800 and 1920x1080."""

from __future__ import annotations

from typing import Any

from controller.pit.server import PitServer
from tests.integration.browser.conftest import SIZES, shot, until_js
from tests.integration.pit.conftest import PASSWORDS, until
from tests.integration.pit.page_text import assert_clean


async def open_pit(browser: Any, url: str, user: str, size: str = "1280x800") -> Any:
    width, height = SIZES[size]
    context = await browser.new_context(viewport={"width": width, "height": height})
    page = await context.new_page()
    page.on("pageerror", lambda exc: print(f"[page error] {exc}"))
    await page.goto(url)
    await page.fill("#login input[name=user]", user)
    await page.fill("#login input[name=password]", PASSWORDS[user])
    await page.click("#login button[type=submit]")
    await until_js(page, "document.getElementById('link').textContent === 'live'")
    return page


def tile(page: Any, table: str) -> Any:
    return page.locator(f".tile[data-table='{table}']")


async def test_the_floor_shows_two_tables_live_and_acknowledges_an_alert(chromium: Any, pit: PitServer,
                                                                         tables: Any) -> None:
    rl = await tables("rl-eu")
    bj = await tables("bj-ru6")
    rl.state(dealer="dee", phase="betting")
    bj.state(game="blackjack", preset="ru6", phase="playing", dealer="dee",
             limits={"main": {"min": 500, "max": 500000}}, devices={"shoe": {"online": True, "fault": None}})
    seq = bj.append("alert", {"severity": "error", "code": "shoe.gap", "message": "card 41 never reached the table"})
    bj.state(game="blackjack", preset="ru6", phase="hold", dealer="dee", limits={"main": {"min": 500, "max": 500000}},
             devices={"shoe": {"online": True, "fault": None}},
             alerts_open=[{"seq": seq, "code": "shoe.gap", "message": "card 41 never reached the table", "round": None}])
    page = await open_pit(chromium, pit.url, "pat")
    await tile(page, "rl-eu").wait_for()
    await tile(page, "bj-ru6").wait_for()
    assert "hold" in await tile(page, "bj-ru6").locator(".phase").inner_text()
    # live: a change on the table reaches the page without a reload
    rl.state(dealer="dee", phase="playing")
    await until_js(page, "document.querySelector(\".tile[data-table='rl-eu'] .phase\").textContent.includes('playing')")
    assert "Shoe gap: card 41 never reached the table" in await page.locator("#alerts").inner_text()
    for size in SIZES:
        await page.set_viewport_size(dict(zip(("width", "height"), SIZES[size])))
        await shot(page, f"pit-floor-{size}")
    await page.click(f"#alerts button[data-ack='{seq}']")
    await until_js(page, "document.getElementById('notice').textContent.includes('sent as pat')")
    await until(lambda: bj.commands)
    assert (bj.commands[0].command, bj.commands[0].alert, bj.commands[0].sender) == ("acknowledge_alert", seq, "pat")
    # the table view of a table, with its statistics
    await page.goto(pit.url + "table/rl-eu")
    await page.wait_for_selector("#stats .figure")
    for size in SIZES:
        await page.set_viewport_size(dict(zip(("width", "height"), SIZES[size])))
        await shot(page, f"pit-table-{size}")


async def test_a_dealer_sees_no_pit_command_and_is_refused_one(chromium: Any, pit: PitServer, tables: Any) -> None:
    rl = await tables("rl-eu")
    seq = rl.append("alert", {"severity": "warning", "code": "input.refused", "message": "bet refused"})
    rl.state()
    page = await open_pit(chromium, pit.url + "table/rl-eu", "dee")
    await until_js(page, "document.getElementById('table-alerts').textContent.includes('bet refused')")
    assert await page.locator("button[data-command], button[data-ack]").count() == 0
    assert await page.locator("#commands-head").is_hidden()
    await assert_clean(page)
    # and the dashboard refuses the command a dealer's page might still send
    refused = await page.evaluate("""() => Croupier.api('/api/command', {table: 'rl-eu', command: 'close_after_round'})""")
    assert refused["status"] == 403 and "pit boss" in refused["data"]["message"]
    assert rl.commands == [] and seq
