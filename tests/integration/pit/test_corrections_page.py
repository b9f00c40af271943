"""Corrections from the pit page, end to end (Chromium): a real blackjack table (the stacked shoe
behind its driver, the journal on disk) publishes its feed on mosquitto; the dealer asks for two
corrections; the pit boss sees each with its amounts before and after, rejects one with a reason
and approves the other after a confirmation that names the amounts. The journal keeps the
rejection and its reason, recall shows only the approved correction, and the table's answer is
shown on the page."""

from __future__ import annotations

from typing import Any

from controller.pit.server import PitServer
from controller.table import inputs
from controller.table.recall import recall
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.browser.conftest import shot, until_js
from tests.integration.pit.live_table import on_the_floor
from tests.integration.pit.page_text import assert_clean
from tests.integration.pit.test_browser import open_pit
from tests.integration.table_corrections.conftest import burn_table  # noqa: F401  # the stacked blackjack table
from tests.support.waiting import until

TABLE = "bj-pit"
#: two rounds of box 1 (player A, 10.00 EUR) against the dealer: T-8 loses to 9-T (paid 0), T-8 beats 7-Q (paid 20.00)
ROUNDS = ((["TS", "9H", "8C"], "TD"), (["TS", "7C", "8H"], "QD"))


async def test_the_pit_rejects_one_correction_and_approves_another(chromium: Any, pit: PitServer,
                                                                   mosquitto: MosquittoBroker, burn_table: Any) -> None:  # noqa: F811
    t = await burn_table(stacked=[c for cards, last in ROUNDS for c in [*cards, last]], table_id=TABLE)
    async with on_the_floor(t, mosquitto, TABLE):
        for cards, last in ROUNDS:
            await t.play((1, 1000, "A"))
            await t.deal(*cards)
            await t.cmd("decide", box=1, action="stand", player="A")
            await t.deal(last)
            await t.cmd("settle")
        first, second = f"{TABLE}-000001", f"{TABLE}-000002"
        await t.cmd("correct", round=first, reason="box 1 held 20, not 18",
                    changes=[{"box": 1, "hand": 1, "kind": "main", "player": "A", "payout": 2000}])
        await t.cmd("correct", round=second, reason="dealer had 18, not 17",
                    changes=[{"box": 1, "hand": 1, "kind": "main", "player": "A", "payout": 1000}])
        one, two = (e.seq for e in t.of_kind(inputs.COMMAND) if e.payload.get("command") == "correct")

        page = await open_pit(chromium, pit.url + f"table/{TABLE}", "pat")
        await until_js(page, "document.querySelectorAll('#corrections li[data-correction]').length === 2")
        listed = await page.locator("#corrections").inner_text()
        assert "box 1 main (A): stake 10.00 EUR, paid 0.00 EUR → 20.00 EUR" in listed
        assert "box 1 main (A): stake 10.00 EUR, paid 20.00 EUR → 10.00 EUR" in listed
        assert "dealer had 18, not 17" in listed
        alerts = await page.locator("#table-alerts").inner_text()  # the table's own words give money too
        assert "box 1.1 main 20.00 EUR → 10.00 EUR" in alerts
        await shot(page, "pit-corrections-1280x800")
        await assert_clean(page)

        # rejecting asks for the reason first; nothing is sent without one
        await page.get_by_role("button", name=f"Reject correction {one}").click()
        await until_js(page, "document.getElementById('notice').textContent.startsWith('Give the reason')")
        await page.get_by_role("textbox", name=f"Reason to reject correction {one}").fill("the camera shows 8S")
        await page.get_by_role("button", name=f"Reject correction {one}").click()
        await until_js(page, "document.getElementById('notice').dataset.answer === 'accepted'")
        assert "Reject correction on bj-pit: accepted" in await page.locator("#notice").inner_text()
        await until_js(page, "document.querySelectorAll('#corrections li[data-correction]').length === 1")

        # approving asks for a confirmation naming the amounts
        asked: list[str] = []

        async def confirm(dialog: Any) -> None:
            asked.append(dialog.message)
            await dialog.accept()

        page.on("dialog", confirm)
        await page.get_by_role("button", name=f"Approve correction {two}").click()
        await until_js(page, "document.getElementById('notice').dataset.answer === 'accepted'")
        assert asked and "paid 20.00 EUR → 10.00 EUR" in asked[0] and second in asked[0]
        await until_js(page, "document.getElementById('corrections').textContent === 'None.'")

        # the journal: the rejection with its reason and who gave it; the dealer is told by an alert
        await until(lambda: any(a["code"] == "round.correction_rejected" for a in t.alerts()), what="the rejection alert")
        (rejection,) = [e for e in t.of_kind(inputs.PIT_COMMAND) if e.payload["command"] == "reject_correction"]
        assert rejection.payload["reason"] == "the camera shows 8S" and rejection.source == "pit:pat"
        (told,) = [a for a in t.alerts() if a["code"] == "round.correction_rejected"]
        assert (told["correction"], told["reason"], told["by"]) == (one, "the camera shows 8S", "pat")
        assert t.core.state()["corrections_pending"] == []
    (r1,) = recall(t.config.journal_path, round_id=first)
    (r2,) = recall(t.config.journal_path, round_id=second)
    assert r1["corrections"] == [] and r1["payout_total"] == 0
    assert r2["payout_total"] == 1000 and r2["corrections"][0]["seq"] == two
