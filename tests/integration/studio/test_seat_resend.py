"""A seat taken while the table process is down reaches the table when it comes back, once
(docs/studio.md, "Seats"): the real table (``run_table``, a remote am8 blackjack table), the real
studio, mosquitto. Anna sits before the table ever ran (nobody holds the message for it: the
studio sends it again on the leaf the table publishes when it starts); Ben sits while the table
is stopped after a run (the broker holds the message for the table's session, and the studio
sends its copy too): each seat is journaled at the table exactly once. A seat the studio took
outlives a studio restart while the table is down: the studio's book keeps it until the table
has it, and two processes sharing the book send it without getting in each other's way."""

from __future__ import annotations

import asyncio
import io
from collections import Counter
from pathlib import Path
from typing import Any

from controller.config import load
from controller.process import run_table
from controller.runtime.loop import TableLoop
from controller.studio.server import StudioServer
from controller.table import inputs
from tests.integration.studio.conftest import Client, StudioBroker, studio_config, token
from tests.integration.studio.test_seats_flow import seated_table
from tests.support.waiting import until, until_awaited

#: Anna at box 1 as another player sees her once she closed her page
ANNA_AWAY = {"box": 1, "name": "Player anna", "you": False, "connected": False, "behind_allowed": True}


def seat_entries(loop: TableLoop) -> list[dict[str, Any]]:
    return [e.payload for e in loop.journal.latest(inputs.STUDIO) if e.payload["type"] == "seat"]


async def run_until_seated(config: Path, studios: list[StudioServer], box: int,
                           connected: bool = True) -> list[dict[str, Any]]:
    """Run the table until it has the remote player at ``box`` (``connected`` as the studio last
    told it: as the player sat, or as they closed their page), every studio has nothing left to
    send it, and a message a studio sends after that is journaled (so every copy before it is
    in); then stop it. The seat messages it journaled."""
    journaled: list[dict[str, Any]] = []

    async def on_ready(loop: TableLoop, devices: Any) -> None:
        await loop.until(lambda core: box in core.seats.seats and core.seats.seats[box].connected == connected,
                         timeout=20)
        await until(lambda: not any(s.studio.seats.state["bj1"].unsent.messages for s in studios),
                    "the studio's seats all taken")
        barrier = f"barrier-{box}"  # a decision for no turn: journaled, and changes nothing
        await studios[0].studio.publish("bj1", {"v": 1, "id": barrier, "type": "decide", "round": "none",
                                                "box": box, "hand": 1, "decision": "stand", "player": "x/y",
                                                "request": barrier})
        await loop.until(lambda core: any(e.payload["id"] == barrier for e in loop.journal.latest(inputs.STUDIO)),
                         timeout=20)
        journaled.extend(seat_entries(loop))

    table = asyncio.create_task(run_table(load(config), out=io.StringIO(), prompts=False, on_ready=on_ready,
                                          keyboard=False))
    try:
        while not journaled:
            done, _ = await asyncio.wait({table}, timeout=0.1)
            if done:
                table.result()  # the table's own error, if it stopped on one
                raise AssertionError("the table stopped before the seat came")
    finally:
        table.cancel()
        await asyncio.gather(table, return_exceptions=True)
    return journaled


async def test_a_seat_taken_while_the_table_is_down_is_journaled_once_when_it_is_back(
        tmp_path: Path, broker: StudioBroker, database: str) -> None:
    config = studio_config(tmp_path, broker, tables={"bj1": {"game": "blackjack", "preset": "am8"}})
    table = seated_table(tmp_path, broker)
    async with StudioServer(config, database) as studio:
        assert studio.link is not None
        await asyncio.wait_for(studio.link.connected.wait(), 20)
        async with Client(studio.url) as anna, Client(studio.url) as ben:
            assert (await anna.join(token("anna"), "bj1"))["type"] == "joined"
            assert (await ben.join(token("ben"), "bj1"))["type"] == "joined"
            await anna.send({"v": 1, "type": "sit", "box": 1})
            assert (await anna.next_of("seated", "refused"))["type"] == "seated"
            first = await run_until_seated(table, [studio], 1)
            assert [(s["box"], s["player"]) for s in first] == [(1, "casino-a/anna")]

            await ben.send({"v": 1, "type": "sit", "box": 2})  # the table is stopped
            assert (await ben.next_of("seated", "refused"))["type"] == "seated"
            second = await run_until_seated(table, [studio], 2)
            await ben.next("seats", seats=[
                {"box": 1, "name": "Player anna", "you": False, "connected": True, "behind_allowed": True},
                {"box": 2, "name": "Player ben", "you": True, "connected": True, "behind_allowed": True}])
    assert Counter((s["box"], s["player"]) for s in second) == {(1, "casino-a/anna"): 1, (2, "casino-a/ben"): 1}


async def test_a_seat_taken_while_the_table_is_down_outlives_a_studio_restart_and_is_journaled_once(
        tmp_path: Path, broker: StudioBroker, database: str) -> None:
    """Anna sits while the table has never run (nobody holds the message for it) and closes her
    page; the studio stops, and two processes sharing its book start before the table does: both
    read her seat back and show it (Ben cannot take her box), both send it when the table comes
    up, the table journals it once, and its row is gone from the book."""
    table = seated_table(tmp_path, broker)

    def serve(name: str) -> StudioServer:
        return StudioServer(studio_config(tmp_path, broker, tables={"bj1": {"game": "blackjack", "preset": "am8"}},
                                          client_id=f"studio-{name}"), database)

    async with serve("a") as studio:
        assert studio.link is not None
        await asyncio.wait_for(studio.link.connected.wait(), 20)
        async with Client(studio.url) as ben:
            assert (await ben.join(token("ben"), "bj1"))["type"] == "joined"
            async with Client(studio.url) as anna:
                assert (await anna.join(token("anna"), "bj1"))["type"] == "joined"
                await anna.send({"v": 1, "type": "sit", "box": 1})
                assert (await anna.next_of("seated", "refused"))["type"] == "seated"
            # her page closed: the box's last message tells the table she lost the connection
            await ben.next("seats", seats=[ANNA_AWAY])
    async with serve("a") as again, serve("b") as other:
        for server in (again, other):
            assert server.link is not None
            await asyncio.wait_for(server.link.connected.wait(), 20)
        async with Client(other.url) as ben:
            assert (await ben.join(token("ben"), "bj1"))["type"] == "joined"
            await ben.next("seats", seats=[ANNA_AWAY])
            await ben.send({"v": 1, "type": "sit", "box": 1})
            assert (await ben.next_of("seated", "refused")).get("reason") == "seat_taken"
        seats = await run_until_seated(table, [again, other], 1, connected=False)

        async def forgotten() -> bool:
            async with again.pool.connection() as conn:
                cur = await conn.execute("SELECT count(*) FROM studio_seat_messages")
                return bool(await cur.fetchone() == (0,))

        await until_awaited(forgotten, "the seat's row deleted")
    assert [(s["box"], s["player"], s["connected"]) for s in seats] == [(1, "casino-a/anna", False)]
