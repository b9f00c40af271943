"""The player's page (controller/studio/page/, docs/studio.md "The player's page") in Chromium with
touch, at a phone held upright, a small tablet and a laptop, against the real studio (PostgreSQL,
mosquitto) and the contract's table stand-in: after a shift's worth of rounds (each player's
history full), a newcomer's round from the page: the countdown of the table's deadline, a refusal
said in words, the bets accepted, "bets closed", the number, what was paid and the balance, all
with the currency; no internal code, JSON, "null" or "undefined" on screen, every control named
and at least 44 px, no sideways scrolling at 390 px. Then a dropped connection: the token joined
once, so the page says the session ended and how to play again."""

from __future__ import annotations

import asyncio
import logging
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from controller.games.roulette.layout import colour
from controller.studio.config import TableSection
from controller.studio.rules import TableRules
from controller.studio.server import StudioServer
from controller.studio.standin import StandInTable
from tests.integration.browser.conftest import chromium, readme_shot, until_js
from tests.integration.studio.conftest import Client, StudioBroker, Table, studio_config, token
from tests.support.waiting import until

__all__ = ["chromium"]  # the fixture, used by name

SIZES = {"390x844": (390, 844), "1024x600": (1024, 600), "1280x800": (1280, 800)}
PLAYERS = {"390x844": "p1", "1024x600": "p2", "1280x800": "p3"}
SHIFT = 20
FUNDS = 50_000
TOUCH_PX = 44

#: what a player reads on the page: no code, JSON, null or undefined; every control named; big enough; no sideways scroll
SCREEN = """() => {
  const shown = (e) => e.offsetParent !== null || getComputedStyle(e).position === 'fixed';
  const controls = [...document.querySelectorAll('button, input, select, [role=timer]')].filter(shown);
  const name = (e) => (e.getAttribute('aria-label') || e.textContent || '').trim();
  const touch = controls.filter((e) => e.tagName === 'BUTTON').map((e) => [e, e.getBoundingClientRect()])
    .filter(([e, r]) => Math.min(r.width, r.height) < TOUCH_PX - 0.5)
    .map(([e, r]) => `${name(e)} ${Math.round(r.width)}x${Math.round(r.height)}`);
  return {
    text: document.body.innerText,
    unnamed: controls.filter((e) => e.tagName === 'BUTTON' && !name(e)).map((e) => e.outerHTML.slice(0, 80)),
    small: touch,
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  };
}""".replace("TOUCH_PX", str(TOUCH_PX))
CODES = re.compile(r"null|undefined|NaN|\[object|[{}]|\"type\"|operator_limit|token_replayed|\blimits\b|already_bet")


def record(number: str) -> dict[str, Any]:
    return {"wheel": "european", "numbers": [number], "colours": [colour(number)], "multipliers": {}, "voids": [],
            "sources": []}


async def play_round(table: Table, round_id: str, number: str, clients: list[Client]) -> None:
    """A round of the shift through the players' API: each player bets, the table seals and records."""
    await table.betting("open", round_id, deadline_s=30)
    for n, client in enumerate(clients):
        await client.next("betting", status="open", round=round_id)
        answer = await client.bet(f"{round_id}-{n}", round_id, ("red", 500), (f"straight:{n + 1}", 100))
        assert answer["type"] == "accepted", answer
    await table.betting("sealing", round_id)
    await table.wait_for("seal", round_id)
    await table.betting("closed", round_id, sealed=True)
    await table.publish_record(round_id, record(number))
    for client in clients:
        await client.next("settled", round=round_id)


async def shift(studio: StudioServer, table: Table) -> None:
    """A shift's worth of rounds for every player, so the pages open on a full history."""
    async with Client(studio.url) as c1, Client(studio.url) as c2, Client(studio.url) as c3:
        clients = [c1, c2, c3]
        for n, client in enumerate(clients):
            assert (await client.join(token(f"p{n + 1}")))["type"] == "joined"
        for i in range(SHIFT):
            await play_round(table, f"rl-eu-{i + 1:06d}", str((i * 7) % 37), clients)


async def player_page(browser: Any, url: str, size: str) -> Any:
    width, height = SIZES[size]
    context = await browser.new_context(viewport={"width": width, "height": height}, has_touch=True, is_mobile=size == "390x844")
    page = await context.new_page()
    page.on("pageerror", lambda exc: print(f"[page error] {exc}"))
    await page.goto(url)
    return page


async def text(page: Any, selector: str) -> str:
    return str(await page.text_content(selector) or "")


async def screen_is_clean(page: Any, size: str) -> None:
    seen = await page.evaluate(SCREEN)
    assert not CODES.search(seen["text"]), f"{size}: {CODES.search(seen['text'])} on screen:\n{seen['text']}"
    assert seen["unnamed"] == [], f"{size}: controls without a name: {seen['unnamed']}"
    assert seen["small"] == [], f"{size}: touch targets under {TOUCH_PX} px: {seen['small']}"
    assert seen["overflow"] <= 0, f"{size}: the page scrolls sideways by {seen['overflow']} px"


async def test_a_players_round_on_the_page_after_a_shift(chromium: Any, studio: StudioServer, broker: StudioBroker,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="controller")
    caplog.set_level(logging.DEBUG, logger="uvicorn")
    for n in (1, 2, 3):
        await studio.wallet.fund("casino-a", f"p{n}", "EUR", FUNDS)
    base = f"http://127.0.0.1:{studio.port}/play/rl-eu"
    tokens = {size: token(player, limits={"max_round": 2000}) for size, player in PLAYERS.items()}
    async with Table(broker) as table:
        await shift(studio, table)
        pages = {}
        for size in SIZES:  # the token in the fragment, or in the query for the laptop
            where = f"{base}?token={tokens[size]}" if size == "1280x800" else f"{base}#token={tokens[size]}"
            pages[size] = await player_page(chromium, where, size)
        for size, page in pages.items():
            await until_js(page, "document.getElementById('link').textContent === 'live'")
            await until_js(page, f"document.querySelectorAll('#history-list li').length === {SHIFT}")
            assert page.url == base, f"{size}: the token is left in the address bar"
            first = await text(page, "#history-list li:first-child")
            assert f"Round rl-eu-{SHIFT:06d}" in first and "red 5.00 EUR" in first and "balance after" in first, first
            assert re.search(r"paid \d[\d,]*\.\d\d EUR", first), first

        now = f"rl-eu-{SHIFT + 1:06d}"
        await table.betting("open", now, deadline_s=45)
        for page in pages.values():
            await until_js(page, "document.getElementById('phase').dataset.status === 'open'")
            label = await page.get_attribute("#countdown", "aria-label")
            assert label and (m := re.fullmatch(r"betting closes in (\d+) seconds", label)), label
            assert 30 <= int(m.group(1)) <= 45, label  # the table's deadline, counted down
            assert re.fullmatch(r"\d+ s", await text(page, "#countdown"))

        for size, page in pages.items():
            grid = page.locator("#roulette-grid")
            # a newcomer: the 1.00 chip on red, under the table's minimum there: said in words
            await page.locator("#chips button[aria-label='chip 1.00 EUR']").tap()
            await grid.locator("button[aria-label='red']").tap()
            await page.locator("#place").tap()
            await until_js(page, "document.getElementById('notice').dataset.kind === 'refused'")
            assert await text(page, "#notice") == ("One of these bets is outside the table's limits. "
                                                   "Red takes 5.00 EUR to 1,000.00 EUR.")
            # then over the casino's limit on this player (20.00 EUR a round)
            await page.locator("#clear").tap()
            await page.locator("#chips button[aria-label='chip 25.00 EUR']").tap()
            await grid.locator("button[aria-label='black']").tap()
            await page.locator("#place").tap()
            await until_js(page, "document.getElementById('notice').textContent.includes('limit your casino set')")
            # then bets that go through
            await page.locator("#clear").tap()
            await page.locator("#chips button[aria-label='chip 5.00 EUR']").tap()
            await grid.locator("button[aria-label='red']").tap()
            await page.locator("#chips button[aria-label='chip 1.00 EUR']").tap()
            await grid.locator("button[aria-label='17']").tap()
            await grid.locator("button[aria-label='17']").tap()
            assert "total 7.00 EUR" in await text(page, "#slip-text")
            await page.locator("#place").tap()
            await until_js(page, "document.getElementById('notice').dataset.kind === 'ok'")
            assert await text(page, "#notice") == "Your bets are in: 7.00 EUR on this round."
            balance = await text(page, "#balance")
            assert re.fullmatch(r"Balance \d[\d,]*\.\d\d EUR", balance), balance
            assert await page.locator("#roulette-grid button[aria-label='17'] .rl-stake").text_content() == "2.00 EUR"
            await screen_is_clean(page, size)
            if size == "390x844":  # while the round counts down, the layout under the finger
                await page.evaluate("() => window.scrollTo(0, 0)")
                await readme_shot(page, f"player-roulette-betting-{size}")

        await table.betting("sealing", now)
        await table.wait_for("seal", now)
        await table.betting("closed", now, sealed=True)
        for page in pages.values():
            await until_js(page, "document.getElementById('countdown').textContent === 'bets closed'")
            assert await text(page, "#phase") == "No more bets: waiting for the result."
            assert await page.locator("#roulette-grid button[aria-label='red']").is_disabled()

        await table.publish_record(now, record("17"))
        for size, page in pages.items():
            await until_js(page, "document.getElementById('outcome-paid').textContent.includes('Balance')")
            assert await text(page, "#outcome-result") == "17 black"
            paid = await text(page, "#outcome-paid")  # 2.00 on 17 pays 72.00; red loses
            assert paid.startswith("You won: 72.00 EUR paid on a stake of 7.00 EUR. Balance: "), paid
            await until_js(page, f"document.querySelector('#history-list li').textContent.includes('{now}')")
            latest = await text(page, "#history-list li:first-child")
            assert "17 black" in latest and "won" in latest and "paid 72.00 EUR" in latest, latest
            assert await text(page, "#phase") == "Round over: the next one opens soon."
            await screen_is_clean(page, size)
            await page.evaluate("() => window.scrollTo(0, 0)")
            await readme_shot(page, f"player-roulette-{size}")
    for size in SIZES:
        assert tokens[size] not in caplog.text, "a launch token in the studio's log"


async def test_a_dropped_connection_ends_the_session_in_words(chromium: Any, tmp_path: Path, broker: StudioBroker,
                                                              database: str) -> None:
    config = studio_config(tmp_path, broker)
    first = StudioServer(config, database)
    await first.start()
    port = first.port
    try:
        page = await player_page(chromium, f"http://127.0.0.1:{port}/play/rl-eu#token={token('p1')}", "390x844")
        await until_js(page, "document.getElementById('link').textContent === 'live'")
    finally:
        await first.stop()
    await until_js(page, "document.getElementById('link').textContent.startsWith('connection lost')")
    assert await text(page, "#phase") == "Connection lost: reconnecting…"
    again = StudioServer(config.model_copy(update={"studio": config.studio.model_copy(update={"port": port})}), database)
    async with again:  # the same studio back: the token joined once, so the session is over
        await until_js(page, "!document.getElementById('ended').hidden")
        assert await text(page, "#ended") == ("This session has ended. To play again, open the game from your "
                                              "casino's site.")
        assert await text(page, "#link") == "session ended"
        await screen_is_clean(page, "390x844 ended")


async def test_a_page_without_a_game_link_says_how_to_get_one(chromium: Any, studio: StudioServer) -> None:
    page = await player_page(chromium, f"http://127.0.0.1:{studio.port}/play/rl-eu", "1024x600")
    await until_js(page, "!document.getElementById('ended').hidden")
    assert await text(page, "#ended") == ("This page was opened without a game link. To play again, open the game "
                                          "from your casino's site.")
    response = await page.request.get(f"http://127.0.0.1:{studio.port}/play/rl-eu")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert response.headers["cache-control"] == "no-store"
    assert (await page.request.get(f"http://127.0.0.1:{studio.port}/play/nowhere")).status == 404
    assert (await page.request.get(f"http://127.0.0.1:{studio.port}/play/nowhere/table.json")).status == 404
    for asset in ("static/play.js", "static/words.js", "static/seats.js", "roulette/felt.js", "common/croupier.js"):
        answer = await page.request.get(f"http://127.0.0.1:{studio.port}/page/{asset}")
        assert answer.ok and "script-src 'self'" in answer.headers["content-security-policy"], asset


async def test_a_baccarat_coup_on_a_phone(chromium: Any, tmp_path: Path, broker: StudioBroker, database: str) -> None:
    config = studio_config(tmp_path, broker, tables={"bc-1": {"game": "baccarat", "preset": "standard"}})
    rules = TableRules(TableSection(game="baccarat", preset="standard"))
    coup = {"player": {"cards": ["2S", "3C"], "total": 5}, "banker": {"cards": ["4H", "5D"], "total": 9},
            "winner": "banker", "natural": True, "void": None}
    async with StudioServer(config, database) as studio, \
            StandInTable(broker.tcp_url(broker.controller), "bc-1", rules, {}, seed=1) as table:
        assert studio.link is not None
        await asyncio.wait_for(studio.link.connected.wait(), 20)
        await studio.wallet.fund("casino-a", "p1", "EUR", FUNDS)
        page = await player_page(chromium, f"http://127.0.0.1:{studio.port}/play/bc-1#token={token('p1')}", "390x844")
        await until_js(page, "document.getElementById('link').textContent === 'live'")
        assert await page.locator("#spots button").evaluate_all("(bs) => bs.map((b) => b.getAttribute('aria-label'))") == [
            "player", "banker", "tie"]
        await table.betting("open", "bc-1-000001", datetime.now(UTC) + timedelta(seconds=45))
        await until_js(page, "document.getElementById('phase').dataset.status === 'open'")
        await page.locator("#chips button[aria-label='chip 5.00 EUR']").tap()
        for _ in range(2):
            await page.locator("#spots button[aria-label='banker']").tap()
        await page.locator("#place").tap()
        await until_js(page, "document.getElementById('notice').dataset.kind === 'ok'")
        assert await text(page, "#spots button[aria-label='banker'] .spot-stake") == "10.00 EUR"
        await screen_is_clean(page, "baccarat 390x844 betting")
        await table.betting("sealing", "bc-1-000001")
        await until(lambda: "bc-1-000001" in table.seals, "the studio's seal of the coup", within=20)
        await until_js(page, "document.getElementById('countdown').textContent === 'bets closed'")
        await table.betting("closed", "bc-1-000001", sealed=True)
        await table.publish_record("bc-1-000001", coup)
        await until_js(page, "document.getElementById('outcome-paid').textContent.includes('Balance')")
        assert await text(page, "#outcome-result") == "Banker wins, 9 to 5: banker 4♥ 5♦, player 2♠ 3♣"
        paid = await text(page, "#outcome-paid")  # banker pays 1:1 less 5 %
        assert paid == f"You won: 19.50 EUR paid on a stake of 10.00 EUR. Balance: {money(FUNDS - 1000 + 1950)}.", paid
        await until_js(page, "document.querySelectorAll('#history-list li').length === 1")
        await screen_is_clean(page, "baccarat 390x844")
        await readme_shot(page, "player-baccarat-390x844")


def money(minor: int) -> str:
    return f"{minor // 100:,}.{minor % 100:02d} EUR"
