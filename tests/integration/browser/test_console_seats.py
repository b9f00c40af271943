"""The dealer console while a remote player's box decides (docs/console.md, docs/studio.md "Seats"):
the prompt says whose turn it is and counts the seconds down to the table's deadline, the
dealer's decision for that box is refused, and the player's decision moves the round on."""

from __future__ import annotations

import re
from typing import Any

from controller.table import inputs
from controller.table.betting import BettingTime
from tests.integration.browser.conftest import signed_in, until, until_js
from tests.integration.browser.test_console_play import sim_card
from tests.unit.studio.test_seats_core import bets, decide, seat

SHOE = ["TS", "9H", "6D", "8C", "2C", "3D", "4H", "5S"]


async def test_the_console_counts_down_a_remote_players_decision(chromium: Any, console_table: Any) -> None:
    table = await console_table("blackjack", stacked=SHOE, simulator=True)
    loop = table.harness.loop
    table.core.betting.set_time(BettingTime(decision_s=30))
    page = await signed_in(chromium, table.url, "dana")
    loop.submit(inputs.STUDIO, seat(box=1, player="casino-a/anna", name="Anna"), "studio")
    loop.command("open_round")
    await loop.settled()
    round_id = table.core.round_id
    loop.submit(inputs.STUDIO, bets(round_id, box=1, player="casino-a/anna"), "studio")
    loop.command("close_betting")
    await loop.settled()
    for _ in range(3):
        await sim_card(page, table)
    await until(lambda: table.core.seats.turn is not None)
    await until_js(page, "/^Box 1: Anna decides, \\d+ s$/.test(document.getElementById('prompt').textContent)")
    first = int(re.findall(r"\d+", await page.text_content("#prompt") or "")[-1])
    assert 25 <= first <= 30
    await until_js(page, f"Number(document.getElementById('prompt').textContent.match(/(\\d+) s$/)[1]) < {first}")
    loop.command("decide", "dana", box=1, action="hit")  # the dealer does not decide for her
    await loop.settled()
    assert next(iter(loop.journal.latest(inputs.ALERT))).payload["code"] == "table.seat.remote_decides"
    loop.submit(inputs.STUDIO, decide(round_id, "stand", box=1, player="casino-a/anna"), "studio")
    await until_js(page, "!document.getElementById('prompt').textContent.includes('decides')")
    assert table.core.seats.decisions[-1]["cause"] == "player"
