"""The console on the shared front-end module, in Chromium under its own Content-Security-Policy:
a control the table still offers after an update is the same element (a long press held
through a snapshot registers), a card dealt redraws its own box and leaves the rest of the page
as it was, and money carries thousands separators and the currency."""

from __future__ import annotations

from typing import Any

from tests.integration.browser.conftest import signed_in, until_js
from tests.integration.browser.test_console_play import BLACKJACK_SHOE, bets_closed, sim_card


async def test_an_offered_control_stays_the_same_element_across_snapshots(chromium: Any, console_table: Any) -> None:
    table = await console_table("blackjack", stacked=BLACKJACK_SHOE)
    page = await signed_in(chromium, table.url, "dana")
    await page.locator("#actions button[data-command='open_round']").wait_for()
    version = await page.evaluate("""() => { window.held = document.querySelector("#actions button[data-command='open_round']");
                                             return view.version; }""")
    await until_js(page, f"view.version >= {version + 2}")  # two more snapshots drawn (the 1 s tick)
    assert await page.evaluate("""() => window.held.isConnected
        && document.querySelector("#actions button[data-command='open_round']") === window.held""")


async def test_a_card_dealt_redraws_its_own_box_and_nothing_it_did_not_change(chromium: Any, console_table: Any) -> None:
    table = await console_table("blackjack", stacked=BLACKJACK_SHOE, simulator=True)
    page = await signed_in(chromium, table.url, "dana")
    await bets_closed(page, 1, 2)
    await sim_card(page, table)  # TS to box 1; the next card is box 2's
    await until_js(page, "document.querySelector(\"[data-box='1'] [data-card='TS']\") !== null")
    await page.evaluate("""() => { window.kept = ["[data-box='1'] h3", "[data-box='1'] [data-card='TS']", "#devices h2",
                                                 "#history h2"].map((s) => document.querySelector(s)); }""")
    await sim_card(page, table)  # 7H to box 2
    await until_js(page, "document.querySelector(\"[data-box='2'] [data-card='7H']\") !== null")
    assert await page.evaluate("() => window.kept.map((node) => node !== null && node.isConnected)") == [True] * 4


async def test_money_has_thousands_separators_and_the_currency(chromium: Any, console_table: Any) -> None:
    table = await console_table("blackjack", stacked=BLACKJACK_SHOE)
    page = await signed_in(chromium, table.url, "dana")
    assert await page.evaluate("money(123456789)") == "1,234,567.89 EUR"
    assert await page.evaluate("Croupier.money(150000, {code: 'JPY', digits: 0})") == "150,000 JPY"


async def test_markup_keyed_as_a_player_name_shows_as_text_and_runs_nothing(chromium: Any, console_table: Any) -> None:
    table = await console_table("blackjack", stacked=BLACKJACK_SHOE)
    page = await signed_in(chromium, table.url, "dana")
    payload = '<img src=x onerror="window.__pwned=1"><b id="injected">x</b>'
    loop = table.harness.loop
    loop.command("open_round", "dealer")
    await loop.settled()
    loop.command("bet", "dealer", box=1, amount=1000, player=payload)
    await loop.settled()
    await until_js(page, "document.querySelector(\"[data-box='1']\")?.textContent.includes('injected') === true")
    box = page.locator("[data-box='1']")
    assert payload in await box.inner_text()
    assert await page.locator("#felt img, #felt script, #injected").count() == 0
    assert await page.evaluate("window.__pwned === undefined")


async def test_the_spin_panel_shows_no_null_while_nothing_is_to_show(chromium: Any, console_table: Any) -> None:
    """A spin with no balls and no multipliers yet: no spin panel (its phase is in the top bar and
    the Wheel panel); the DOM's own replaceChildren wrote a left-out part as the text "null"."""
    table = await console_table("roulette")
    page = await signed_in(chromium, table.url, "dana")
    table.harness.loop.command("open_round", "dealer")
    await table.harness.loop.settled()
    await until_js(page, "document.getElementById('phase').textContent === 'betting'")
    assert await page.locator("#spin").is_hidden()
    said = await page.evaluate("document.body.innerText")
    assert "null" not in said and "undefined" not in said
