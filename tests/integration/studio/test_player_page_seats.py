"""Seats on the player's page (docs/studio.md, "Seats", "The player's page"), in Chromium with
touch on a phone: the player sits at a box (its own bets appear beside the side bets), switches
Bet Behind on the box off and on, and bets on the box and behind another player's box in one
request (each goes to the table with what it follows); the cards
come as the table deals them, and at the player's turn the legal decisions are buttons with the
table's decision time counted down; a touch sends the decision to the table, and what the table
decided (the player's, or its own when the time ran out) is said in words. The table is the
contract's: its retained ``betting`` leaf carries the seats, the turn, the decision and the cards."""

from __future__ import annotations

import asyncio
import importlib
import json
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiomqtt
import pytest

from controller.studio import protocol
from controller.studio.server import StudioServer
from tests.integration.browser.conftest import chromium, readme_shot, until_js
from tests.integration.studio.conftest import Client, StudioBroker, studio_config, token
from tests.integration.studio.test_player_page import player_page, screen_is_clean, text
from tests.support.waiting import until

__all__ = ["chromium"]  # the fixture, used by name

pytestmark = pytest.mark.skipif(not hasattr(protocol, "Sit"), reason="the studio's seats protocol is not in this tree")

TABLE, ROUND = "bj-1", "bj-1-000001"
ME = "casino-a/p1"


def stamp(seconds: float) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class SeatedTable:
    """The table's side of the contract for seats: its ``betting`` leaf, and what the studio sends it."""

    def __init__(self, client: aiomqtt.Client) -> None:
        self.client = client
        self.heard: list[dict[str, Any]] = []
        self.seq = 0

    async def leaf(self, status: str, **seats: Any) -> None:
        self.seq += 1
        body = {"v": 1, "table": TABLE, "round": ROUND, "status": status, "opened": stamp(0),
                "deadline": stamp(30) if status == "open" else None, "seq": self.seq, "game": "blackjack",
                "currency": "EUR", "digits": 2, "limits": {"main": [100, 500000]}, "remote": True, **seats}
        await self.client.publish(f"croupier/{TABLE}/betting", json.dumps(body), qos=1, retain=True)

    async def listen(self) -> None:
        async for message in self.client.messages:
            self.heard.append(json.loads(bytes(message.payload)))


@pytest.fixture
async def seated(tmp_path: Path, broker: StudioBroker, database: str) -> AsyncIterator[tuple[StudioServer, SeatedTable]]:
    config = studio_config(tmp_path, broker, tables={TABLE: {"game": "blackjack", "preset": "am8"}})
    creds = broker.controller
    async with StudioServer(config, database) as studio, \
            aiomqtt.Client("127.0.0.1", broker.port, username=creds.username, password=creds.password,
                           identifier="seated-table") as client:
        assert studio.link is not None
        await asyncio.wait_for(studio.link.connected.wait(), 20)
        await client.subscribe(f"croupier/{TABLE}/studio", qos=1)
        table = SeatedTable(client)
        listener = asyncio.create_task(table.listen())
        try:
            yield studio, table
        finally:
            listener.cancel()
            await asyncio.gather(listener, return_exceptions=True)


async def test_a_seated_players_turn_on_a_phone(chromium: Any, seated: tuple[StudioServer, SeatedTable]) -> None:
    studio, table = seated
    await studio.wallet.fund("casino-a", "p1", "EUR", 2_000)  # 20.00: the round's bets, not a double of them
    await table.leaf("open", seats={}, turn=None, decided=None, cards=None)
    page = await player_page(chromium, f"http://127.0.0.1:{studio.port}/play/{TABLE}#token={token('p1')}", "390x844")
    await until_js(page, "document.getElementById('link').textContent === 'live'")
    await page.locator("#seat-boxes button[aria-label='Sit at box 3']").wait_for(state="visible")
    spots = "(bs) => bs.map((b) => b.getAttribute('aria-label'))"
    await page.locator("#box-up").tap()
    await page.locator("#box-up").tap()
    assert "main, box 3" not in await page.locator("#spots button").evaluate_all(spots)
    await page.locator("#seat-boxes button[aria-label='Sit at box 3']").tap()
    await page.locator("#seat-boxes button[aria-label='Leave box 3']").wait_for(state="visible")
    assert await text(page, "#notice") == "You sit at box 3: bet on it while betting is open."
    await until(lambda: any(m.get("type") == "seat" and m.get("box") == 3 for m in table.heard), "the seat at the table")
    await until_js(page, "[...document.querySelectorAll('#spots button')]"
                         ".some((b) => b.getAttribute('aria-label') === 'main, box 3')")
    await screen_is_clean(page, "seated 390x844")
    # another player sits at box 5: the page offers a Bet Behind there, with what it follows
    async with Client(studio.url) as other:
        assert (await other.join(token("p2"), TABLE))["type"] == "joined"
        await other.send({"v": 1, "type": "sit", "box": 5})
        await other.next("seated")
        # the owner's switch on the player's own box
        switch = page.locator("#behind-allowed button[aria-label='let others bet behind box 3']")
        assert await switch.get_attribute("aria-pressed") == "true"
        await switch.tap()
        await until_js(page, "document.querySelector('#behind-allowed button').getAttribute('aria-pressed') === 'false'")
        assert await text(page, "#behind-allowed button") == "Bet Behind on box 3: not allowed"
        await switch.tap()
        await until_js(page, "document.querySelector('#behind-allowed button').getAttribute('aria-pressed') === 'true'")

        # one request: the seated box's own bet and a Bet Behind box 5, each sent to the table's engine
        await page.locator("#chips button[aria-label='chip 10.00 EUR']").tap()
        await page.locator("#spots button[aria-label='main, box 3']").tap()
        await page.locator("#box-up").tap()
        await page.locator("#box-up").tap()
        behind = page.locator("#spots button[aria-label='bet behind, box 5, follows double and split']")
        await behind.wait_for(state="visible")
        await page.locator("#behind-presets button[aria-label='Bet Behind: follow a split']").tap()
        await page.locator("#chips button[aria-label='chip 5.00 EUR']").tap()
        await page.locator("#spots button[aria-label='bet behind, box 5, follows double']").tap()
        assert "total 15.00 EUR" in await text(page, "#slip-text")
        await screen_is_clean(page, "bet behind 390x844")
        await page.locator("#place").tap()
        await until_js(page, "document.getElementById('notice').dataset.kind === 'ok'")
        assert await text(page, "#notice") == "Your bets are in: 15.00 EUR on this round."
        await until(lambda: sum(m.get("type") == "bets" for m in table.heard) == 2, "the felt bets at the table")
        placed = {m["box"]: (m["player"], m["bets"]) for m in table.heard if m.get("type") == "bets"}
        assert placed == {3: (ME, [{"kind": "main", "amount": 1000}]), 5: (ME, [{"kind": "behind+double", "amount": 500}])}
        await page.locator("#box-down").tap()
        await page.locator("#box-down").tap()

    sitting = {"3": {"player": ME, "name": "Player p1", "connected": True}}
    cards = {"dealer": {"cards": ["9S"]}, "boxes": [{"box": 3, "hands": [{"cards": ["TC", "6D"]}]}]}
    turn = {"round": ROUND, "box": 3, "hand": 1, "player": ME, "name": "Player p1",
            "decisions": ["hit", "stand", "double"], "deadline": stamp(15), "decision_ms": 15_000}
    await table.leaf("closed", seats=sitting, turn=turn, decided=None, cards=cards)
    await page.locator("#decisions button", has_text="Hit").wait_for(state="visible")
    assert await text(page, "#turn-who") == "Your turn: box 3, hand 1"
    assert await text(page, "#phase") == "Your turn at box 3: decide."
    assert await text(page, "#cards") == "dealer 9♠ · box 3 10♣ 6♦"
    label = await page.get_attribute("#turn-timer", "aria-label")
    assert label and (m := re.fullmatch(r"your time to decide ends in (\d+) seconds", label)), label
    assert 8 <= int(m.group(1)) <= 15, label  # the table's deadline
    assert await page.locator("#decisions button").all_text_contents() == ["Hit", "Stand", "Double"]
    await screen_is_clean(page, "turn 390x844")
    # the seats under the round's status, which stays on top while the page scrolls
    await page.evaluate("() => window.scrollTo(0, document.getElementById('seat').getBoundingClientRect().top"
                        " + window.scrollY - document.getElementById('status').offsetHeight)")
    covering = await page.evaluate("() => { const r = document.getElementById('status').getBoundingClientRect();"
                                   " const top = document.elementFromPoint(r.right - 20, r.top + r.height / 2);"
                                   " return top.closest('#status') !== null; }")
    assert covering, "the round's status is not on top of the page it stays over"
    await readme_shot(page, "player-blackjack-turn-390x844")

    # a decision the balance does not cover is refused, in words (where the studio checks it)
    if hasattr(importlib.import_module("controller.studio.seats"), "affordable"):
        await page.locator("#decisions button", has_text="Double").tap()
        await until_js(page, "document.getElementById('notice').dataset.kind === 'refused'")
        assert await text(page, "#notice") == ("There is not enough money in your account for that decision: "
                                               "choose another.")
        await until_js(page, "!document.querySelector('#decisions button').disabled")
    await page.locator("#decisions button", has_text="Hit").tap()
    await until(lambda: any(m.get("type") == "decide" for m in table.heard), "the decision at the table")
    decide = next(m for m in table.heard if m.get("type") == "decide")
    assert (decide["round"], decide["box"], decide["hand"], decide["decision"], decide["player"]) == (
        ROUND, 3, 1, "hit", ME)
    decided = {"round": ROUND, "box": 3, "hand": 1, "decision": "hit", "cause": "player",
               "request": decide["request"]}
    cards["boxes"][0]["hands"][0]["cards"].append("5H")  # type: ignore[index]
    await table.leaf("closed", seats=sitting, turn=None, decided=decided, cards=cards)
    await until_js(page, "document.getElementById('turn').hidden")
    assert await text(page, "#notice") == "Box 3, hand 1: hit."

    # the next decision: the time runs out, the table stands and returns the box's bets (policy refund)
    late = {**turn, "decisions": ["hit", "stand"], "deadline": stamp(3), "decision_ms": 3000}
    await table.leaf("closed", seats=sitting, turn=late, decided=decided, cards=cards)
    await page.locator("#decisions button", has_text="Stand").wait_for(state="visible")
    await until_js(page, "document.getElementById('turn-timer').textContent === 'deciding now'", timeout=10_000)
    timed_out = {"round": ROUND, "box": 3, "hand": 1, "decision": "stand", "cause": "timeout", "refunded": True}
    await table.leaf("closed", seats=sitting, turn=None, decided=timed_out, cards=cards)
    await until_js(page, "document.getElementById('notice').textContent.includes('time ran out')")
    assert await text(page, "#notice") == ("Box 3, hand 1: the time ran out, the table chose stand for you. "
                                           "The bets on box 3 are returned.")
    await screen_is_clean(page, "timed out 390x844")
