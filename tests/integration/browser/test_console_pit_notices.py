"""The dealer is told what the pit did (a correction approved, the table closed and reopened, a
round voided), and what the page said before is cleared; a correction names every changed field
(an empty payout is never sent as 0)."""

from __future__ import annotations

from typing import Any

from controller.table import inputs
from controller.table.core import IDLE, SETTLING
from tests.integration.browser.conftest import result_text, signed_in, tap, until, until_js
from tests.integration.browser.test_console_play import BLACKJACK_SHOE, key_bet, sim_card
from tests.integration.browser.test_console_procedures import deal_to_decision


async def notice(page: Any, words: str) -> str:
    await until_js(page, f"!document.getElementById('notice').hidden && "
                         f"document.getElementById('notice-text').textContent.includes({words!r})")
    return str(await page.text_content("#notice-text"))


async def play_a_round(page: Any, table: Any) -> None:
    """10.00 on box 1, 19 against the dealer's 17: box 1 is paid 20.00."""
    await deal_to_decision(page, table)
    await page.locator("#actions button[data-command='decide']", has_text="stand").click()
    await result_text(page, "ok")
    await sim_card(page, table)
    await until(lambda: table.core.phase == SETTLING)
    await tap(page, "settle")
    await result_text(page, "ok")
    await until(lambda: table.core.phase == IDLE)


async def test_the_dealer_is_told_what_the_pit_did(chromium: Any, console_table: Any) -> None:
    table = await console_table("blackjack", stacked=BLACKJACK_SHOE, simulator=True)
    dealer = await signed_in(chromium, table.url, "dana")
    pit = await signed_in(chromium, table.url, "petra")
    await play_a_round(dealer, table)

    # a correction from the recall: an empty payout field cannot be sent (it never becomes 0)
    await dealer.click("#recall-btn")
    settled = dealer.locator("#recall [data-round='t1-000001']")
    await settled.wait_for()
    fix = settled.locator("tr button").first
    assert await fix.is_disabled()
    field = settled.locator("tr input").first
    await field.fill("abc")
    assert await fix.is_disabled()
    before = len(table.harness.of_kind("command"))
    await field.fill("25")
    assert await fix.is_disabled()  # the reason is asked in the page, by its own named field
    await settled.get_by_label("reason for correcting box 1.1 main").fill("paid short")
    await fix.click()
    await until_js(dealer, "document.getElementById('recall-result').dataset.kind === 'ok'")
    assert await dealer.locator("#recall-result").is_visible()  # the answer shows in the recall, not under it
    (asked,) = table.harness.of_kind("command")[before:]
    assert asked.payload["reason"] == "paid short"
    assert asked.payload["changes"] == [{"box": 1, "hand": 1, "kind": "main", "payout": 2500, "player": "seat 1"}]
    (pending,) = table.core.book.pending()

    await pit.evaluate(f"() => send('approve_correction', {{correction: {pending['correction']}}})")
    await result_text(pit, "ok")
    said = await notice(dealer, "approved")
    assert "20.00 EUR -> 25.00 EUR" in said, said
    assert await dealer.text_content("#result") == ""  # the stale "done" of the correction is gone

    # a second correction, rejected before the dealer read the approval: both are told
    await field.fill("22")  # within what the bet can return (at most 25.00 EUR)
    await settled.get_by_label("reason for correcting box 1.1 main").fill("paid short again")
    await fix.click()
    await until(lambda: len(table.core.book.pending()) == 1)
    (second,) = table.core.book.pending()
    await pit.evaluate(f"() => send('reject_correction', {{correction: {second['correction']}, reason: 'no'}})")
    said = await notice(dealer, "rejected")
    assert "20.00 EUR -> 25.00 EUR" in said, said
    await dealer.click("#recall-close")
    await dealer.click("#notice-ok")
    await until_js(dealer, "document.getElementById('notice').hidden")

    await pit.evaluate("() => send('close_after_round', {})")
    await notice(dealer, "closes the table after this round")
    await pit.evaluate("() => send('reopen', {})")
    await notice(dealer, "reopened")

    await tap(dealer, "open_round")
    await result_text(dealer, "ok")
    await key_bet(dealer, 1, 10)
    table.harness.loop.submit(inputs.PIT_COMMAND, {"v": 1, "id": "pit-void-1", "sender": "petra", "command": "void_round",
                                                   "round": table.core.round_id, "reason": "dispute at box 1"}, "pit")
    said = await notice(dealer, "void")
    assert "petra" in said and "10.00 EUR" in said, said  # what was returned, in money
    assert await dealer.text_content("#result") == ""  # the bet's "done" was of the voided round
