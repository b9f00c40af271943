"""The table view's rounds in Chromium: table order newest first (a corrected round keeps its
place), pages, a search by round id, dealer, player and time, and each outcome written out."""

from __future__ import annotations

from typing import Any

from controller.pit.server import PitServer
from tests.integration.browser.conftest import until_js
from tests.integration.pit.page_text import assert_clean
from tests.integration.pit.test_browser import open_pit
from tests.integration.pit.test_dashboard import settled
from tests.support import outcomes

ROWS = "[...document.querySelectorAll('#rounds tbody tr[data-round]')].map((r) => r.dataset.round)"


def played(n: int) -> dict[str, Any]:
    record = settled(f"rl-{n:04d}", str(n % 37), 1000, 36000 if n % 37 == 17 else 0, dealer="ann" if n % 2 else "bob")
    record["opened"] = f"2026-12-01T10:{n:02d}:00.000Z"
    record["closed"] = f"2026-12-01T10:{n:02d}:40.000Z"
    record["bets"][0]["player"] = f"P{n}"
    record["table"] = "rl"
    record["outcome"] = {**outcomes.roulette(str(n % 37)), "colours": ["black"]}
    return record


async def rows(page: Any) -> list[str]:
    return list(await page.evaluate(ROWS))


async def test_rounds_newest_first_paged_and_searched(chromium: Any, pit: PitServer, tables: Any) -> None:
    rl = await tables("rl")
    rl.state(dealer="ann")
    for n in range(1, 31):
        rl.append("round_closed", played(n), f"rl-{n:04d}")
    corrected = played(2)  # its corrected record comes last, and the round keeps its place
    corrected["bets"][0]["payout"] = corrected["payout_total"] = 2000
    corrected["corrections"] = [{"seq": 40, "reason": "misread", "requested_by": "dealer",
                                 "requested": "2026-12-01T11:00:00.000Z",
                                 "approved_by": "pat", "approved": "2026-12-01T11:01:00.000Z", "approval": 41,
                                 "changes": [{"box": 1, "hand": 1, "kind": "straight:17", "player": "P2", "stake": 1000,
                                              "before": 0, "after": 2000}],
                                 "payout_total_before": 0, "payout_total_after": 2000}]
    rl.append("round_closed", corrected, "rl-0002")
    page = await open_pit(chromium, pit.url + "table/rl", "pat")
    await until_js(page, "document.getElementById('rounds-pages').textContent === 'page 1 of 2 · 30 rounds'")
    first = await rows(page)
    assert first == [f"rl-{n:04d}" for n in range(30, 5, -1)]
    assert await page.get_by_role("button", name="Newer rounds").is_disabled()
    row17 = page.locator("#rounds tr[data-round='rl-0017']")
    assert await row17.locator(".outcome").inner_text() == "numbers 17 black"
    assert await row17.locator(".bets").inner_text() == "box 1 straight 17 P17 10.00 EUR: won, paid 360.00 EUR"
    await assert_clean(page)

    await page.get_by_role("button", name="Older rounds").click()
    await until_js(page, "document.getElementById('rounds-pages').textContent === 'page 2 of 2 · 30 rounds'")
    assert await rows(page) == [f"rl-{n:04d}" for n in range(5, 0, -1)]
    assert "corrected" in await page.locator("#rounds tr[data-round='rl-0002'] .status").inner_text()
    await page.locator("#rounds tr[data-round='rl-0002']").click()
    await until_js(page, "document.getElementById('round-detail').textContent.includes('corrected (correction 40')")
    detail = await page.locator("#round-detail").inner_text()
    assert "paid 0.00 EUR → 20.00 EUR" in detail and "won" in detail

    search = page.get_by_role("searchbox", name="Search rounds by round id, dealer, player or time")
    await search.fill("P7")
    await until_js(page, f"{ROWS}.join() === 'rl-0007'")
    await search.fill("bob rl-001")  # bob deals the even rounds
    await until_js(page, f"{ROWS}.join() === 'rl-0018,rl-0016,rl-0014,rl-0012,rl-0010'")
    minute = await page.evaluate("new Date('2026-12-01T10:21:40.000Z').toLocaleTimeString('en-GB', {hour12: false})")
    await search.fill(minute)  # the time as the page shows it, in the browser's time zone
    await until_js(page, f"{ROWS}.join() === 'rl-0021'")
    await search.fill("nobody")
    await until_js(page, "document.querySelector('#rounds tbody').textContent === 'No round matches.'")
    await assert_clean(page)
