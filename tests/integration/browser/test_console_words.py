"""What the dealer reads, through a whole round and the recall: no `null`, `undefined`, `NaN`,
JSON, rule codes or command names; every amount with its currency; cards with suits; "paid" only
for money paid; the sign-in names the table."""

from __future__ import annotations

import re
from typing import Any

from controller.table.core import IDLE, SETTLING
from tests.integration.browser.conftest import result_text, signed_in, tap, until, until_js
from tests.integration.browser.test_console_play import BLACKJACK_SHOE, key_bet, sim_card

FORBIDDEN = re.compile(r"\bnull\b|\bundefined\b|\bNaN\b|\{\"")
#: a rule code (blackjack.card.insurance_open) or a command name (void_round)
CODE = re.compile(r"\b[a-z0-9]+(?:\.[a-z0-9_]+){2,}\b|\b[a-z]+(?:_[a-z]+)+\b")
#: an amount (1,000.00) not followed by its currency
BARE_AMOUNT = re.compile(r"(?<![\d,.])\d{1,3}(?:,\d{3})*\.\d{2}(?! [A-Z]{3})")


async def read_clean(page: Any, where: str) -> str:
    """The page's visible text, failing on anything a dealer must never read."""
    text = str(await page.evaluate("document.body.innerText"))
    for pattern, what in ((FORBIDDEN, "a null, undefined, NaN or JSON"), (CODE, "an internal code"),
                          (BARE_AMOUNT, "an amount without its currency")):
        found = pattern.findall(text)
        assert not found, f"{where}: {what} on screen: {found}\n{text}"
    return text


async def test_every_word_on_the_console_is_the_dealers(chromium: Any, console_table: Any) -> None:
    table = await console_table("blackjack", stacked=BLACKJACK_SHOE, simulator=True,
                                rules='side_bets = ["perfect_pairs"]')
    context = await chromium.new_context(viewport={"width": 1280, "height": 800})
    login = await context.new_page()
    await login.goto(table.url)
    await login.wait_for_selector("#login:not([hidden])")
    await until_js(login, "document.getElementById('login-table').textContent.length > 0")
    said = await read_clean(login, "sign-in")
    assert "t1" in said and "blackjack" in said  # the sign-in names the table
    assert await login.is_hidden("#signout-btn")  # nobody to sign out

    page = await signed_in(chromium, table.url, "dana")
    await read_clean(page, "idle")
    await tap(page, "open_round")
    await result_text(page, "ok")
    assert await page.locator("[data-spot='dealer'] .total").count() == 0  # an empty hand shows no "0"
    await tap(page, "bet")
    said = await read_clean(page, "the bet form")
    assert "Perfect Pairs" in said and "Lucky Lucky" not in said  # only the side bets the table offers
    await key_bet(page, 1, 10, player="card 4711")
    await key_bet(page, 1, 5, kind="perfect_pairs", player="card 4711")
    await read_clean(page, "bets placed")
    await tap(page, "close_betting")
    await result_text(page, "ok")
    for _ in range(3):
        await sim_card(page, table)
    await page.wait_for_selector("#actions button[data-command='decide']")
    prompt = str(await page.text_content("#prompt"))
    assert "10♠ 9♣ vs 7♥" in prompt, prompt  # suits, as the felt shows them
    await read_clean(page, "a decision")
    await page.locator("#actions button[data-command='decide']", has_text="stand").click()
    await result_text(page, "ok")
    await sim_card(page, table)
    await until(lambda: table.core.phase == SETTLING)
    # the settled bets reach the page with the table's next snapshot
    await until_js(page, "document.querySelector(\"[data-box='1'] .bets\")?.textContent.includes('won')")
    said = await read_clean(page, "settled")
    assert "won 10.00 EUR over the stake, 20.00 EUR returned" in said, said  # the win told apart from the stake
    assert "Perfect Pairs · card 4711: 5.00 EUR → lost" in said, said  # "paid" only for money paid
    await tap(page, "settle")
    await result_text(page, "ok")
    await until(lambda: table.core.phase == IDLE)

    await page.click("#recall-btn")
    await page.wait_for_selector("#recall [data-round='t1-000001']")
    said = await read_clean(page, "recall")
    assert "card 4711" in said  # recall shows the player
    assert "10♠ 9♣" in said and "7♥" in said  # the round as text, not JSON
    assert re.search(r"closed \d{4}-\d\d-\d\d \d\d:\d\d:\d\d", said), said  # local 24-hour time
