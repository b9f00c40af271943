"""The console at the screens it runs on: every control the dealer needs now is on the screen
without scrolling, at 1280x800, 1024x600 and portrait 800x1280 (asserted from element boxes).

The README's pictures are taken after a shift instead (test_console_shift.py)."""

from __future__ import annotations

from typing import Any

from tests.integration.browser.conftest import shot, signed_in, tap
from tests.integration.browser.test_console_play import key_bet, sim_card
from tests.integration.browser.test_console_procedures import deal_to_decision

SCREENS = ("1280x800", "1024x600", "800x1280")
TOUCH_PX = 57  # 15 mm at 96 CSS px per inch

#: every control shown now: buttons and inputs of the controls column, the top bar, banners
OUT_OF_VIEW = """() => {
  const w = window.innerWidth, h = window.innerHeight;
  const shown = [...document.querySelectorAll('#top button, #controls button, #controls input, #controls select')]
    .filter((b) => b.offsetParent !== null);
  return {
    count: shown.length,
    outside: shown.filter((b) => { const r = b.getBoundingClientRect();
      return r.top < 0 || r.left < 0 || r.bottom > h + 0.5 || r.right > w + 0.5; })
      .map((b) => `${b.id || b.dataset.command || b.dataset.value || b.textContent}`),
    small: shown.filter((b) => b.getBoundingClientRect().height < TOUCH_PX).map((b) => b.textContent),
    scrolls: ['controls'].filter((id) => { const e = document.getElementById(id); return e.scrollHeight > e.clientHeight + 1; }),
    page: document.documentElement.scrollHeight - h,
    wide: document.documentElement.scrollWidth - w,
  };
}""".replace("TOUCH_PX", str(TOUCH_PX))


async def fits(page: Any, what: str) -> None:
    seen = await page.evaluate(OUT_OF_VIEW)
    assert seen["count"] > 0, what
    assert seen["outside"] == [], f"{what}: outside the screen: {seen['outside']}"
    assert seen["scrolls"] == [], f"{what}: the controls column scrolls"
    assert seen["page"] <= 0 and seen["wide"] <= 0, f"{what}: the page scrolls ({seen})"
    assert seen["small"] == [], f"{what}: touch targets under {TOUCH_PX} px: {seen['small']}"


async def test_every_control_is_on_screen_at_each_size(chromium: Any, console_table: Any) -> None:
    table = await console_table("blackjack", stacked=["TS", "7H", "9C", "TD", "2C", "3D", "4H", "5S", "6C", "8D"],
                                simulator=True, rules='side_bets = ["perfect_pairs", "21+3"]')
    dealer = await signed_in(chromium, table.url, "dana")
    pages = {size: await signed_in(chromium, table.url, "dana", size=size, touch=True) for size in SCREENS}

    await tap(dealer, "open_round")
    for size, page in pages.items():  # betting, the bet form open: the form's every control
        await tap(page, "bet")
        await page.wait_for_selector("#bet-place")
        await shot(page, f"console-betting-fresh-{size}")
        await fits(page, f"{size} betting")

    await deal_to_decision(dealer, table, opened=True)
    for size, page in pages.items():  # a decision: every option and Void round
        await page.wait_for_selector("#actions button[data-command='decide']")
        await fits(page, f"{size} decision")
        prompt_px = await page.evaluate("parseFloat(getComputedStyle(document.getElementById('prompt')).fontSize)")
        assert prompt_px >= 28, f"{size}: the prompt is {prompt_px} px"  # readable at arm's length
        await shot(page, f"console-blackjack-fresh-{size}")

    await sim_card(dealer, table)  # TD leaves the shoe while box 1 decides: the table holds
    for size, page in pages.items():  # a hold: its ways out (Burn, Void) are on the screen
        await page.wait_for_selector("#hold-banner:not([hidden])")
        await page.wait_for_selector("#actions button[data-command='burn']")
        await fits(page, f"{size} hold")


async def test_the_card_picker_is_on_screen_at_each_size(chromium: Any, console_table: Any) -> None:
    table = await console_table("blackjack", stacked=["TS", "7H", "9C", "TD"], simulator=True)
    dealer = await signed_in(chromium, table.url, "dana")
    pages = {size: await signed_in(chromium, table.url, "dana", size=size, touch=True) for size in SCREENS}
    await tap(dealer, "open_round")
    await key_bet(dealer, 1, 10)
    await tap(dealer, "close_betting")
    await dealer.click("#sim-noread")  # TS leaves the shoe unread: the dealer keys it in
    for size, page in pages.items():
        await tap(page, "key_card")
        await page.wait_for_selector("#card-picker")
        await fits(page, f"{size} key-in")
