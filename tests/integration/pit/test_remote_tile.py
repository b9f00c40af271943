"""A remote table in Chromium (docs/studio.md): its tile and the floor's totals show the remote
players' drop and win beside the felt's, in the table's currency, from the table's real feed."""

from __future__ import annotations

from typing import Any

from controller.pit.server import PitServer
from tests.integration.browser.conftest import until_js
from tests.integration.pit.page_text import assert_clean
from tests.integration.pit.test_browser import open_pit, tile
from tests.integration.pit.test_dashboard import settled


def remote_settled(round_id: str, seq: int, stake: int, paid: int, refunded: int = 0) -> dict[str, Any]:
    return {"round": round_id, "id": f"s{seq}", "count": 3, "stake": stake, "paid": paid, "refunded": refunded,
            "drop": stake - refunded, "win": stake - paid, "cause": seq}


async def test_the_remote_drop_and_win_beside_the_felts(chromium: Any, pit: PitServer, tables: Any) -> None:
    rl = await tables("rl")
    bj = await tables("bj")
    rl.state()
    bj.state(game="blackjack", preset="ru6", phase="idle")
    rl.append("round_closed", settled("rl-1", "17", 1000, 0), "rl-1")
    rl.append("remote_settled", remote_settled("rl-1", 3, 6000, 1000), "rl-1")
    rl.append("remote_settled", remote_settled("rl-1", 5, 6000, 2000), "rl-1")  # re-settled: replaces the first
    page = await open_pit(chromium, pit.url, "pat")
    await until_js(page, "document.querySelector('.tile .remote') !== null", timeout=60_000)
    assert await tile(page, "rl").locator(".remote").inner_text() == "drop 60.00 EUR · win 40.00 EUR"
    assert await tile(page, "bj").locator(".remote").count() == 0  # no remote bets: no line
    shown = await page.locator("#totals").inner_text()
    assert "remote drop" in shown and "60.00 EUR" in shown and "40.00 EUR" in shown
    assert "10.00 EUR" in shown  # the felt's drop, apart
    await assert_clean(page)
