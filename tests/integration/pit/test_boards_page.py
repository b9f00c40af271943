"""Result boards drawn by each game's script (controller/games/<game>/static/boards.js, through
controller/web/static/boards.js; Chromium): a baccarat shoe worked by
hand on the pit's table view (a tie first, ties stacked on one big-road cell, a naturals
column), and a roulette table's last spins on its console."""

from __future__ import annotations

from typing import Any

from controller.console import start_console
from controller.pit.server import PitServer
from tests.integration.browser.conftest import shot, until_js
from tests.integration.browser.conftest import signed_in as console_signed_in
from tests.integration.browser.conftest import test_accounts as console_accounts
from tests.integration.pit.page_text import assert_clean
from tests.integration.pit.test_browser import open_pit
from tests.integration.pit.test_dashboard import settled
from tests.integration.table_roulette.conftest import wheel_table  # noqa: F401  # the simulated wheel's table
from tests.unit.boards.test_baccarat_records import dealt

#: the shoe, coup by coup (cards dealt Player, Banker, Player, Banker, ...)
SHOE = [
    "TS TH 8D 8C",  # tie (a natural 8-8) before any win
    "4S 9H 4D TC",  # Banker natural 9, Player pair
    "2S 9H 3D TC",  # Banker natural 9
    "TS TH 8D 8C",  # tie
    "TS TH 8D 8C",  # tie: two ties stacked on the second Banker cell
    "2S 3H 5D 3C",  # Player 7 against 6, Banker pair
    "9S 8H TD 3C",  # Player natural 9
    "7S 6H QD 2C",  # Banker natural 8
]
#: worked by hand: the big road's cells (col, row, winner, ties); the leading tie counts on the first cell
BIG_ROAD = ["0,0,banker,1", "0,1,banker,2", "1,0,player,0", "1,1,player,0", "2,0,banker,0"]
#: the bead plate: one bead per coup, down each column of six
BEADS = ["0,0,tie", "0,1,banker", "0,2,banker", "0,3,tie", "0,4,tie", "0,5,player", "1,0,player", "1,1,banker"]
CELLS = "[...document.querySelectorAll('#boards [data-board=\"{}\"] {}')].map((g) => [{}].join())"


def coup(n: int, cards: str) -> dict[str, Any]:
    record = settled(f"bac-{n:04d}", "0", 1000, 0)
    record.update(table="bac", game="baccarat", shoe="shoe-1", shoe_round=n,
                  outcome={**dealt(cards).record(), "burned": []})
    record["bets"][0]["kind"] = "banker"
    return record


async def test_the_pit_draws_a_hand_worked_baccarat_shoe(chromium: Any, pit: PitServer, tables: Any) -> None:
    bac = await tables("bac")
    bac.state(game="baccarat", preset="standard", limits={"banker": {"min": 100, "max": 100000}})
    for n, cards in enumerate(SHOE, 1):
        bac.append("round_closed", coup(n, cards), f"bac-{n:04d}")
    page = await open_pit(chromium, pit.url + "table/bac", "pat")
    road = CELLS.format("Big road", ".road-cell", "g.dataset.col, g.dataset.row, g.dataset.winner, g.dataset.ties")
    await until_js(page, f"{road}.length === 5", timeout=60_000)
    assert await page.evaluate(road) == BIG_ROAD
    naturals = CELLS.format("Big road", ".road-cell", "g.dataset.natural")
    assert await page.evaluate(naturals) == ["1", "1", "0", "1", "1"]  # the naturals column keeps its marks
    assert await page.locator("#boards [data-board='Big road'] .tie-count").all_text_contents() == ["2"]
    beads = CELLS.format("Bead plate", ".bead", "g.dataset.col, g.dataset.row, g.dataset.winner")
    assert await page.evaluate(beads) == BEADS
    # big eye boy, by hand: the second Player (column 1, row 1) finds column 0 deeper than one cell: red; the
    # Banker of column 2 finds columns 1 and 0 of one length: red again, so one column of two reds.
    # The small road compares two columns back and starts at column 2's second cell: nothing yet.
    big_eye = CELLS.format("Big eye boy", ".derived-cell", "g.dataset.col, g.dataset.row, g.dataset.colour")
    assert await page.evaluate(big_eye) == ["0,0,red", "0,1,red"]
    assert await page.locator("#boards [data-board='Small road'] .derived-cell").count() == 0
    counts = await page.locator("#boards .board-counts").inner_text()
    assert counts == "8 hands · banker 3 · player 2 · tie 3 · naturals 7 · banker pairs 1 · player pairs 1"
    assert await page.get_by_role("img", name="Big road: 5 wins in 3 columns, 1 tie before the first win").count() == 1
    await assert_clean(page)
    await shot(page, "pit-table-baccarat-boards-1280x800")


async def test_the_console_shows_the_last_spins_and_hot_numbers(chromium: Any, wheel_table: Any) -> None:  # noqa: F811
    t = await wheel_table()
    for result in ("17", "0", "32", "17"):
        await t.spin((1, "red", 1000, "P1"), result=result)
        await t.cmd("settle")
    console = await start_console(t.loop, t.config, console_accounts(), host="127.0.0.1", port=0)
    try:
        page = await console_signed_in(chromium, console.url, "dana")
        spins = "[...document.querySelectorAll('#boards .last-spins li')].map((li) => li.dataset.numbers)"
        await until_js(page, f"{spins}.length === 4")
        assert await page.evaluate(spins) == ["17", "32", "0", "17"]  # newest first
        assert await page.locator("#boards .last-spins li.newest").inner_text() == "17\nnewest"
        hot = await page.locator("#boards [data-board^='Hot'] li").first.inner_text()
        assert hot.split() == ["17", "2×"]
        await shot(page, "console-roulette-boards-1280x800")
    finally:
        await console.close()
