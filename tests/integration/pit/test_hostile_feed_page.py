"""What a table publishes is shown as text and runs nothing (a table's controller account may
publish its own retained ``state``, ``ledger`` and ``alert``): real Chromium, with the pages'
own Content-Security-Policy in force."""

from __future__ import annotations

import json
from typing import Any

import httpx

from controller.pit.server import PitServer
from drivers.mqtt import MqttLink
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.browser.conftest import until_js
from tests.integration.pit.conftest import PASSWORDS, until

#: markup and script in every form a page could run it in
PAYLOAD = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><b id="injected">x</b>'
#: the same in a field the record contract bounds to 64 characters (a preset, a dealer's name)
SHORT = '<img src=x onerror="window.__pwned=1"><b id="injected">x</b>'
TS = "2026-12-01T10:00:00.000Z"


def hostile_state(table: str) -> dict[str, Any]:
    return {"v": 1, "table": table, "round": f"{table}-000001", "ts": TS, "game": "roulette", "preset": SHORT,
            "phase": "betting", "dealer": SHORT, "closing": False, "limits": {SHORT: {"min": 100, "max": 10000}},
            "shoe": {"id": None, "cards_dealt": None, "cut_card_seen": False, "to_burn": 0}, "hold": None,
            "devices": {"wheel": {"online": False, "fault": PAYLOAD}},
            "alerts_open": [{"seq": 7, "code": PAYLOAD, "message": PAYLOAD, "round": None}],
            "corrections_pending": [], "journal": {"seq": 7, "hash": None}}


async def open_floor(browser: Any, url: str) -> Any:
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    page = await context.new_page()
    await page.goto(url)
    await page.fill("#login input[name=user]", "pat")
    await page.fill("#login input[name=password]", PASSWORDS["pat"])
    await page.click("#login button[type=submit]")
    await until_js(page, "document.getElementById('link').textContent === 'live'")
    return page


async def test_markup_in_the_feed_shows_as_text_and_runs_nothing(chromium: Any, pit: PitServer,
                                                                mosquitto: MosquittoBroker) -> None:
    async with MqttLink(mosquitto.tcp_url(), "hostile-table") as table:
        await table.wait_connected()
        table.publish("croupier/evil/state", json.dumps(hostile_state("evil")).encode(), retain=True)
        table.publish("croupier/evil/prompt", json.dumps({"v": 1, "table": "evil", "round": None, "ts": TS,
                                                          "text": PAYLOAD}).encode(), retain=True)
        table.publish("croupier/evil/ledger", json.dumps({
            "v": 1, "table": "evil", "round": None, "ts": TS, "rounds_settled": 0, "rounds_void": 0,
            "stake_total": 0, "payout_total": 0, "void_stake_total": 0, "seq": 7}).encode(), retain=True)
        table.publish("croupier/evil/alert", json.dumps({"v": 1, "table": "evil", "round": None, "ts": TS, "seq": 7,
                                                         "severity": "error", "code": PAYLOAD,
                                                         "message": PAYLOAD}).encode())
        table.publish("croupier/evil/online", b"1", retain=True)
        await until(lambda: pit.model.tables.get("evil") and pit.model.tables["evil"].prompt)
        page = await open_floor(chromium, pit.url)
        await page.locator(".tile[data-table='evil']").wait_for()
        tile = page.locator(".tile[data-table='evil']")
        await until_js(page, "document.querySelector(\".tile[data-table='evil'] .prompt\").textContent.length > 0")
        shown = await tile.inner_text()
        assert PAYLOAD in await tile.locator(".prompt").inner_text()  # the markup, as text
        assert "<b id=\"injected\">" in shown
        assert await page.locator("#alerts").inner_text() != ""
        # nothing was parsed as markup, nothing ran
        for where in (tile, page.locator("#alerts")):
            assert await where.locator("img, script, #injected").count() == 0
        assert await page.evaluate("window.__pwned === undefined")
        # the table view of the same table
        await page.goto(pit.url + "table/evil")
        await page.locator("#table-head .name").wait_for()
        await until_js(page, "document.getElementById('table-head').textContent.includes('wheel')")
        assert await page.locator("#table-head img, #table-head script, #injected").count() == 0
        assert await page.evaluate("window.__pwned === undefined")


async def test_both_apps_serve_a_strict_content_security_policy(pit: PitServer, console_table: Any) -> None:
    table = await console_table("roulette")
    for url in (pit.url, table.url):
        async with httpx.AsyncClient(base_url=url) as client:
            for path in ("/", "/api/session", "/common/croupier.js"):
                response = await client.get(path)
                csp = response.headers["content-security-policy"]
                assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
                assert "frame-ancestors 'none'" in csp
                assert response.headers["x-frame-options"] == "DENY"
                assert response.headers["x-content-type-options"] == "nosniff"
                assert response.headers["referrer-policy"] == "no-referrer"
            page = (await client.get("/")).text
            assert "/common/croupier.js" in page and "<script>" not in page and "style=" not in page
