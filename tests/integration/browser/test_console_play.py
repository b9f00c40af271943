"""Rounds played from the dealer console in Chromium, on real tables with simulated devices."""

from __future__ import annotations

from typing import Any

from controller.table.core import IDLE, SETTLING
from tests.integration.browser.conftest import result_text, shot, signed_in, tap, until, until_js

# ru6 (no hole card): box 1 gets TS, the dealer 7H, box 1 9C (19, stands); the dealer draws TD (17)
BLACKJACK_SHOE = ["TS", "7H", "9C", "TD", "2C", "3D", "4H", "5S", "6C", "8D"]


async def layout_bet(page: Any, box: int, chip: str, name: str, times: int = 1) -> None:
    """Bet ``times`` chips of ``chip`` on the roulette layout's cell ``name`` in ``box``: a roulette
    table keys its bets on its layout, and offers no bet form."""
    assert await page.locator("#actions button[data-command='bet']").count() == 0
    while await page.text_content("#roulette-box") != f"box {box}":
        await page.click("#roulette-box-up")
    await page.get_by_role("button", name=f"chip {chip}", exact=True).click()
    for _ in range(times):
        await page.get_by_role("button", name=name, exact=True).click()
        await result_text(page, "ok")


async def key_bet(page: Any, box: int, major: int, kind: str | None = None, player: str | None = None) -> None:
    """Key ``major`` whole units on ``box`` from the form's chips (largest first), as a dealer does."""
    await tap(page, "bet")
    await page.click(f"#bet-box button[data-value='{box}']")
    if kind is not None:
        await page.click(f"#bet-kind button[data-value='{kind}']")
    if player is not None:
        await page.fill("#bet-player", player)
    digits = await page.evaluate("view.currency.digits")
    left = major * 10**digits
    chips = sorted((int(c) for c in await page.locator("#bet-chips button[data-chip]").evaluate_all(
        "bs => bs.map(b => b.dataset.chip)")), reverse=True)
    for chip in chips:
        while left >= chip:
            await page.click(f"#bet-chips button[data-chip='{chip}']")
            left -= chip
    assert left == 0, f"{major} cannot be made from the chips {chips}"
    await page.click("#bet-place")
    assert "done" in await result_text(page, "ok")


async def bets_closed(page: Any, *boxes: int, opened: bool = False) -> None:
    """Open a round (unless ``opened``), key 10.00 on each of ``boxes``, close betting."""
    if not opened:
        await tap(page, "open_round")
        await result_text(page, "ok")
    for box in boxes:
        await key_bet(page, box, 10)
    await tap(page, "close_betting")
    await result_text(page, "ok")


async def sim_card(page: Any, table: Any) -> None:
    """The simulator panel deals the shoe's next card; wait until the table applied it."""
    n = table.core.shoe.last_n + 1
    await page.click("#sim-next")
    await until(lambda: table.core.shoe.last_n >= n)
    await table.harness.loop.settled()


async def test_a_blackjack_round_played_from_the_console(chromium: Any, console_table: Any, artifacts: Any) -> None:
    table = await console_table("blackjack", stacked=BLACKJACK_SHOE, simulator=True)
    page = await signed_in(chromium, table.url, "dana")
    assert await page.text_content("#prompt") == "Open betting"
    # signing in at the console signs the dealer in at the table (journaled, on every round record)
    await until_js(page, "document.getElementById('dealer').textContent === 'dealer dana'")

    await tap(page, "open_round")
    assert "open round: done" in await result_text(page, "ok")
    await key_bet(page, 1, 10)
    await page.wait_for_selector("[data-box='1'] .money")
    assert "10.00 EUR" in await page.text_content("[data-box='1']")  # 1000 minor units on screen
    await tap(page, "close_betting")
    await result_text(page, "ok")

    for _ in range(3):  # TS to box 1, 7H up, 9C to box 1
        await sim_card(page, table)
    await page.wait_for_selector("[data-box='1'] [data-card='9C']")
    assert await page.text_content("[data-box='1'] .total") == "19"
    assert await page.text_content("[data-spot='dealer'] .total") == "7"
    await shot(page, "console-blackjack-decision-1280x800")

    stand = page.locator("#actions button[data-command='decide']", has_text="stand")
    await stand.click()
    await result_text(page, "ok")
    await page.wait_for_selector("[data-box='1'] [data-state='stood']")  # "stood", not "live"

    await sim_card(page, table)  # the dealer's TD: 17, stands; box 1 wins
    await until(lambda: table.core.phase == SETTLING)
    await tap(page, "settle")
    await result_text(page, "ok")
    await until(lambda: table.core.phase == IDLE)
    await until_js(page, "document.getElementById('prompt').textContent === 'Open betting'")

    (record,) = table.harness.rounds()
    assert record["dealer"] == "dana"
    assert [(b["box"], b["stake"], b["payout"]) for b in record["bets"]] == [(1, 1000, 2000)]
    assert record["outcome"]["boxes"][0]["hands"][0]["cards"] == ["TS", "9C"]
    sources = {e.source for e in table.harness.of_kind("command")}
    assert sources == {"console:dana"}, sources

    await page.click("#signout-btn")  # signing out of the console signs the dealer out at the table
    await until(lambda: table.core.dealer is None)
    await page.wait_for_selector("#login:not([hidden])")


async def test_a_roulette_spin_played_from_the_console(chromium: Any, console_table: Any) -> None:
    table = await console_table("roulette")
    table.harness.sim.queue_results("19")
    page = await signed_in(chromium, table.url, "dana")
    await tap(page, "open_round")
    await result_text(page, "ok")
    await layout_bet(page, 2, "5.00 EUR", "red", times=2)  # red is 5.00..2000.00 in the european preset's limits
    assert "10.00 EUR" in await page.text_content("[data-box='2']")
    await until(lambda: table.core.phase == SETTLING, timeout=30)  # the wheel closes betting and spins
    await until_js(page, "document.getElementById('prompt').textContent.includes('19 red')")
    await tap(page, "settle")
    await result_text(page, "ok")
    await page.wait_for_selector("#boards ol.last-spins li")
    assert await page.get_attribute("#boards ol.last-spins li.newest", "data-numbers") == "19"
    (record,) = table.harness.rounds()
    assert record["outcome"]["numbers"] == ["19"]
    # two chips on one spot make one bet
    assert [(b["box"], b["kind"], b["stake"], b["payout"]) for b in record["bets"]] == [(2, "red", 1000, 2000)]


async def test_a_double_tap_is_applied_once(chromium: Any, console_table: Any) -> None:
    table = await console_table("blackjack", stacked=BLACKJACK_SHOE)
    page = await signed_in(chromium, table.url, "dana")
    # every answer the page gets, by cseq: the duplicate's own answer (a replay) may come late
    await page.evaluate("""() => { window.answers = []; const shown = showResult;
                                   showResult = (a) => { answers.push(a); shown(a); }; }""")
    # the same message twice (a double tap, or a replay after a reconnect): one input journaled
    await page.evaluate("""() => { const n = send('open_round'); const m = inFlight.get(n);
                                   socket.send(m); }""")
    await result_text(page, "ok")
    await table.harness.loop.settled()
    opens = [e for e in table.harness.of_kind("command") if e.payload["command"] == "open_round"]
    assert len(opens) == 1
    # an action that is no longer offered (the round is open now) is refused at the edge
    n = await page.evaluate("() => { view.round = null; return send('open_round'); }")
    await until_js(page, f"answers.some(a => a.cseq === {n})", timeout=10_000)
    answer = await page.evaluate(f"answers.find(a => a.cseq === {n})")
    assert not answer["ok"] and "look again" in answer["message"], answer
    assert len([e for e in table.harness.of_kind("command") if e.payload["command"] == "open_round"]) == 1


async def test_double_ball_the_dealer_keys_the_second_ball(chromium: Any, console_table: Any) -> None:
    table = await console_table("roulette", preset="double-ball")
    table.harness.sim.queue_results("19")  # the wheel reports ball 1 only
    page = await signed_in(chromium, table.url, "dana")
    await tap(page, "open_round")
    await result_text(page, "ok")
    await layout_bet(page, 1, "5.00 EUR", "red")
    await tap(page, "key_result", within="#actions")  # offered once the wheel's ball 1 is in
    picker = page.locator("#number-picker")
    await picker.wait_for()
    assert await picker.locator("button").count() == 37
    await picker.locator("button[data-number='21']").click()
    await result_text(page, "ok")
    await until(lambda: table.core.phase == SETTLING)
    await until_js(page, "document.getElementById('prompt').textContent.includes('21 red')")
    await tap(page, "settle")
    await result_text(page, "ok")
    (record,) = table.harness.rounds()
    assert record["outcome"]["numbers"] == ["19", "21"] and record["outcome"]["sources"] == ["wheel", "dealer"]
