"""The seat owner's Bet Behind switch is kept in the book's database (docs/studio.md, "Bet Behind"):
a second studio process sharing the book refuses a Bet Behind the owner turned off through the
first, and a studio restarted finds the switch where the owner left it. The table's retained
``betting`` leaf (the seats' truth) is published by the contract's table as a remote table would."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiomqtt

from controller.studio.server import StudioServer
from tests.integration.studio.conftest import Client, StudioBroker, studio_config, token
from tests.support.waiting import until

ANNA = "casino-a/anna"


async def publish_leaf(broker: StudioBroker) -> None:
    """bj1's ``betting`` leaf: a round open, Anna seated at box 3."""
    now = datetime.now(UTC)
    stamp = now.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    leaf: dict[str, Any] = {
        "v": 1, "table": "bj1", "round": "bj1-000001", "ts": stamp, "status": "open", "opened": stamp,
        "deadline": (now + timedelta(minutes=5)).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "seq": 7, "game": "blackjack", "currency": "EUR", "digits": 2, "limits": {"main": [100, 100000]},
        "remote": True, "seats": {"3": {"player": ANNA, "name": "Player anna", "connected": True}},
        "turn": None, "decided": None, "cards": None}
    async with aiomqtt.Client("127.0.0.1", broker.port, username=broker.controller.username,
                              password=broker.controller.password) as client:
        await client.publish("croupier/bj1/betting", json.dumps(leaf), qos=1, retain=True)


def serve(tmp_path: Path, broker: StudioBroker, database: str, name: str) -> StudioServer:
    config = studio_config(tmp_path, broker, tables={"bj1": {"game": "blackjack", "preset": "am8"}},
                           client_id=f"studio-{name}")
    return StudioServer(config, database)


async def seated(client: Client, allowed: bool, connected: bool = True) -> None:
    """The ``seats`` push that shows Anna at box 3 with her switch ``allowed``."""
    await client.next("seats", seats=[{"box": 3, "name": "Player anna", "you": False, "connected": connected,
                                       "behind_allowed": allowed}])


async def behind(client: Client, request: str) -> str:
    await client.send({"v": 1, "type": "behind", "request": request, "round": "bj1-000001", "box": 3, "amount": 500})
    answer = await client.next_of("accepted", "refused")
    return str(answer.get("reason", answer["type"]))


async def test_the_owners_switch_holds_across_studio_processes_and_a_restart(
        tmp_path: Path, broker: StudioBroker, database: str) -> None:
    await publish_leaf(broker)
    async with serve(tmp_path, broker, database, "a") as a, serve(tmp_path, broker, database, "b") as b:
        for server in (a, b):
            await asyncio.wait_for(server.link.connected.wait(), 20)  # type: ignore[union-attr]
        async with Client(a.url) as anna, Client(b.url) as cleo:
            assert (await anna.join(token("anna"), "bj1"))["type"] == "joined"
            await anna.next("seats", seats=[{"box": 3, "name": "Player anna", "you": True, "connected": True,
                                             "behind_allowed": True}])
            assert (await cleo.join(token("cleo"), "bj1"))["type"] == "joined"
            await seated(cleo, True)
            await anna.send({"v": 1, "type": "behind_allowed", "box": 3, "allowed": False})
            await anna.next("seats", seats=[{"box": 3, "name": "Player anna", "you": True, "connected": True,
                                             "behind_allowed": False}])
            assert await behind(cleo, "c1") == "behind_not_allowed"  # through the other process
            await seated(cleo, False)  # and her page now says so
        unsent = a.studio.seats.state["bj1"].unsent  # her page closed: the studio tells the table
        await until(lambda: unsent.messages.get(3, {}).get("connected") is False and not unsent.writing,
                    "Anna's lost connection written")
    async with serve(tmp_path, broker, database, "a") as again:
        await asyncio.wait_for(again.link.connected.wait(), 20)  # type: ignore[union-attr]
        async with Client(again.url) as dan:
            assert (await dan.join(token("dan"), "bj1"))["type"] == "joined"
            await seated(dan, False, connected=False)  # the table has not heard she is away yet
            assert await behind(dan, "d1") == "behind_not_allowed"
            async with Client(again.url) as anna:
                assert (await anna.join(token("anna"), "bj1"))["type"] == "joined"
                await anna.send({"v": 1, "type": "behind_allowed", "box": 3, "allowed": True})
                await seated(dan, True)
