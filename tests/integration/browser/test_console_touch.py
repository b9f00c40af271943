"""Presses on a touchscreen: short and long, every one reaches the table, and the button
under the finger stays the same element while the table pushes updates."""

from __future__ import annotations

import re
from typing import Any

from controller.console.words import local_clock
from tests.integration.browser.conftest import long_press, signed_in, until
from tests.integration.browser.test_console_play import BLACKJACK_SHOE, sim_card
from tests.integration.browser.test_console_procedures import deal_to_decision

#: from a quick tap to a press held across the page's once-a-second updates
HELD_MS = (100, 300, 600, 1000, 1500)


async def test_long_presses_on_the_action_buttons_all_register(chromium: Any, console_table: Any) -> None:
    table = await console_table("blackjack", stacked=BLACKJACK_SHOE)
    page = await signed_in(chromium, table.url, "dana", touch=True)
    hub = table.server.hub

    def given(name: str) -> int:
        return len([e for e in table.harness.of_kind("command") if e.payload["command"] == name])

    def push() -> None:  # the table changed: a snapshot reaches the page while the finger is down
        hub.on_state(table.core)

    for held in HELD_MS:
        opened = given("open_round")
        assert await long_press(page, "#actions button[data-command='open_round']", held, update=push), held
        await until(lambda: table.core.engine is not None)
        assert given("open_round") == opened + 1, f"a {held} ms press on Open betting was lost"
        assert await long_press(page, "#actions button[data-command='void_round']", held, update=push), held
        await page.wait_for_selector("#confirm-dialog:not([hidden])")
        await long_press(page, "#confirm-dialog button[data-answer='yes']", held)
        await until(lambda: table.core.engine is None)
        assert given("void_round") == opened + 1, f"a {held} ms press on Void round was lost"
        await page.wait_for_selector("#actions button[data-command='open_round']")


async def test_a_long_press_on_acknowledge_registers_across_updates(chromium: Any, console_table: Any) -> None:
    table = await console_table("blackjack", stacked=BLACKJACK_SHOE, simulator=True)
    dealer = await signed_in(chromium, table.url, "dana")
    await deal_to_decision(dealer, table)
    await sim_card(dealer, table)  # TD leaves the shoe while box 1 decides: the table holds, an error alert opens
    assert table.core.alerts_open
    (seq,) = list(table.core.alerts_open)
    shown = dealer.locator(f"#alert-list [data-alert='{seq}'] time")
    await shown.wait_for()
    assert await shown.inner_text() == local_clock(table.core.alert_book.raised[seq])  # when it was raised, 24 h
    assert re.fullmatch(r"\d\d:\d\d:\d\d", await shown.inner_text())
    said = await dealer.locator(f"#alert-list [data-alert='{seq}']").inner_text()
    assert "10♦" in said and "TD" not in said  # the card as the felt shows it
    pit = await signed_in(chromium, table.url, "petra", touch=True)
    button = f"#alert-list [data-alert='{seq}'] button"
    assert await long_press(pit, button, 1500, update=lambda: table.server.hub.on_state(table.core))
    await until(lambda: seq not in table.core.alerts_open)
