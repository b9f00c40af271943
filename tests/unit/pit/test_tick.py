"""A broadcast tick's message (``PitServer._tiles_message``): built a slice of work at a time,
the feed read between slices, and the same as building it in one piece."""

from __future__ import annotations

import asyncio
import json

import pytest

from controller.auth import Accounts
from controller.pit import server
from controller.pit.floor import floor_totals
from controller.pit.server import PitServer
from tests.unit.pit import feed_messages as msg


async def test_a_ticks_tiles_are_built_a_slice_at_a_time_with_the_feed_read_between(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pit = PitServer("mqtt://127.0.0.1:1", Accounts({}))
    names = [f"t{n:02d}" for n in range(40)]
    for n, table in enumerate(names):
        pit.model.apply(f"croupier/{table}/state", json.dumps(msg.state(table, dealer="ann")).encode(), 1.0 + n)
        pit.model.apply(f"croupier/{table}/ledger", json.dumps(msg.ledger(table, stake_total=100 * n)).encode(), 1.0 + n)
    changed = sorted(pit.model.take_changed())
    monkeypatch.setattr(server, "SLICE_S", 0.0, raising=False)  # every tile a slice of its own
    turns, building = 0, True

    async def feed() -> None:  # what the feed gets of the loop meanwhile
        nonlocal turns
        while building:
            turns += 1
            await asyncio.sleep(0)

    reader = asyncio.create_task(feed())
    text = await pit._tiles_message(changed)
    building = False
    await reader
    assert turns >= len(names)
    sent = json.loads(text)
    assert sent["tiles"] == [json.loads(json.dumps(pit.model.tile(t))) for t in names]
    fresh = floor_totals(pit.model.tables.values(), {}, 0.0, pit.currency)
    assert {**sent["totals"], "updated": None} == {**fresh, "updated": None} and sent["totals"]["updated"] == 40.0


async def test_a_page_opening_on_a_big_floor_gets_it_a_slice_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole floor, a page's first message, is built with the feed read between its tiles
    (it was one piece: 30 ms of the event loop at a thousand tables), and is what it was."""
    pit = PitServer("mqtt://127.0.0.1:1", Accounts({}))
    names = [f"t{n:02d}" for n in range(30)]
    for n, table in enumerate(reversed(names)):
        pit.model.apply(f"croupier/{table}/state", json.dumps(msg.state(table, dealer="ann")).encode(), 1.0 + n)
    pit.model.apply("croupier/t07/alert", json.dumps(msg.alert("t07", 4, "warning", "shoe.slow")).encode(), 50.0)
    monkeypatch.setattr(server, "SLICE_S", 0.0, raising=False)
    turns, building = 0, True

    async def feed() -> None:
        nonlocal turns
        while building:
            turns += 1
            await asyncio.sleep(0)

    reader = asyncio.create_task(feed())
    text = await pit.floor_text("floor")
    building = False
    await reader
    assert turns >= len(names)
    whole = {"type": "floor", "tables": pit.model.floor(), "alerts": pit.floor_alerts(), "broker": False,
             "totals": pit.totals(), "memory": pit.memory.view()}
    assert json.loads(text) == json.loads(json.dumps(whole))
    assert [t["table"] for t in json.loads(text)["tables"]] == names and json.loads(text)["alerts"][0]["seqs"] == [4]
