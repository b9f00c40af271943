"""Two ``croupier studio serve`` processes serve one table, sharing the book in PostgreSQL
(docs/studio.md, "Scaling"): a player may reach either; exactly one seals a round's book and
settles it, both push the result and each player's ``settled`` to their own players. One is
killed with SIGKILL mid-betting: its players join the other with new tokens, every bet a player
was told was accepted is in the seal, and nothing is settled or credited twice."""

from __future__ import annotations

import asyncio
import json
import signal
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiomqtt
import psycopg
import pytest
import websockets

from controller.studio.seal import BookBet, digest
from tests.fixtures.mosquitto import free_port
from tests.integration.studio.conftest import Client, StudioBroker, Table, token
from tests.integration.studio.test_kill import listening, start, write_config
from tests.support.waiting import until, wait_until

PLAYERS = 12  # p1..p6 start on studio A, p7..p12 on studio B
START = 10_000
ON_A = range(1, PLAYERS // 2 + 1)


class Heard:
    """Every message the studios send the table (``croupier/rl-eu/studio``), counted by type and round."""

    def __init__(self) -> None:
        self.count: Counter[tuple[str, str]] = Counter()
        self.last: dict[tuple[str, str], dict[str, Any]] = {}

    async def listen(self, broker: StudioBroker, ready: asyncio.Event) -> None:
        async with aiomqtt.Client("127.0.0.1", broker.port, username=broker.controller.username,
                                  password=broker.controller.password) as client:
            await client.subscribe("croupier/rl-eu/studio", qos=1)
            ready.set()
            async for message in client.messages:
                data = json.loads(bytes(message.payload))  # type: ignore[arg-type]
                key = (str(data["type"]), str(data["round"]))
                self.count[key] += 1
                self.last[key] = data


@pytest.fixture
async def heard(broker: StudioBroker) -> AsyncIterator[Heard]:
    h, ready = Heard(), asyncio.Event()
    task = asyncio.create_task(h.listen(broker, ready))
    await asyncio.wait_for(ready.wait(), 20)
    yield h
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


class Studios:
    """The two processes, each on its own port under its own client id."""

    def __init__(self, tmp_path: Path, broker: StudioBroker, database: str) -> None:
        self.ports = {name: free_port() for name in ("a", "b")}
        self.logs = {name: tmp_path / f"studio-{name}.log" for name in self.ports}
        self.processes = {name: start(write_config(tmp_path, broker, database, port, f"studio-{name}"), self.logs[name])
                          for name, port in self.ports.items()}
        for name, process in self.processes.items():
            wait_until(lambda n=name: listening(self.logs[n]), f"studio {name} listening", process=process,  # type: ignore[misc]
                       describe=self.logs[name].read_text)

    def url(self, name: str) -> str:
        return f"ws://127.0.0.1:{self.ports[name]}/v1/play"

    def kill(self, name: str) -> None:
        self.processes[name].send_signal(signal.SIGKILL)
        self.processes[name].wait()

    def close(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=10)


@pytest.fixture
def studios(tmp_path: Path, broker: StudioBroker, database: str) -> Iterator[Studios]:
    s = Studios(tmp_path, broker, database)
    try:
        with psycopg.connect(database, autocommit=True) as conn:
            for n in range(1, PLAYERS + 1):
                conn.execute("INSERT INTO studio_wallet VALUES ('casino-a', %s, 'EUR', %s)", (f"p{n}", START))
        yield s
    finally:
        s.close()


async def joined(url: str, n: int) -> Client:
    c = await Client(url).__aenter__()
    assert (await c.join(token(f"p{n}")))["type"] == "joined"
    return c


async def bet_until_decided(c: Client, request: str, round_id: str) -> dict[str, object]:
    """The same request until it is decided (``in_progress`` while its first attempt's studio is seen alive)."""
    while True:
        answer = await c.bet(request, round_id, ("red", 500))
        if answer.get("reason") != "in_progress":
            return answer


def book(database: str, round_id: str) -> tuple[list[BookBet], dict[str, int], Counter[str]]:
    """The round's accepted bets, the balances, and the credits per player of the round."""
    with psycopg.connect(database) as conn:
        bets = [BookBet(r[0], r[1], r[2], int(r[3])) for r in conn.execute(
            "SELECT id, player, kind, amount FROM studio_bets WHERE round = %s", (round_id,)).fetchall()]
        balances = {r[0]: int(r[1]) for r in conn.execute("SELECT player, balance FROM studio_wallet").fetchall()}
        credits = Counter(r[0] for r in conn.execute(
            "SELECT player FROM studio_wallet_tx WHERE kind = 'credit' AND ref = %s", (round_id,)).fetchall())
    return bets, balances, credits


async def settled_to_all(clients: dict[int, Client], round_id: str) -> dict[int, dict[str, object]]:
    """Every player's ``result`` then its ``settled`` of the round, on whichever studio it is."""
    out = {}
    for n, c in clients.items():
        result = await c.next("result", round=round_id)
        assert result["outcome"]["numbers"] == ["1"]  # type: ignore[index]
        out[n] = await c.next("settled", round=round_id)
    return out


async def test_two_studios_share_a_table_and_survive_one_killed(broker: StudioBroker, database: str, studios: Studios,
                                                                heard: Heard) -> None:
    clients = {n: await joined(studios.url("a" if n in ON_A else "b"), n) for n in range(1, PLAYERS + 1)}
    async with Table(broker) as table:
        # a round with both: each player's bet on its own studio; one seal, one settlement
        await table.betting("open", "rl-eu-000001", deadline_s=3)
        for c in clients.values():
            await c.next("betting", status="open", round="rl-eu-000001")
        for n, c in clients.items():
            assert (await c.bet(f"r1-{n}", "rl-eu-000001", ("red", 500)))["type"] == "accepted"
        seal = await table.wait_for("seal", "rl-eu-000001")
        assert seal["count"] == PLAYERS
        await table.record("rl-eu-000001", "1")  # red: a red bet of 500 pays 1000
        for message in (await settled_to_all(clients, "rl-eu-000001")).values():
            assert message["paid"] == 1000 and message["balance"] == START + 500

        # the next round: studio A is killed while its players bet
        await table.betting("open", "rl-eu-000002", deadline_s=300)
        for c in clients.values():
            await c.next("betting", status="open", round="rl-eu-000002")
        told: dict[int, dict[str, object]] = {}
        for n in (1, 2, 3, 7, 8, 9):
            told[n] = await c_bet(clients[n], n)
        in_flight = [asyncio.create_task(c_bet(clients[n], n)) for n in (4, 5, 6)]
        await until(lambda: any(t.done() for t in in_flight), "a bet on studio A answered")
        studios.kill("a")
        for n, t in zip((4, 5, 6), in_flight):
            try:
                told[n] = await t
            except (websockets.ConnectionClosed, OSError, TimeoutError, AssertionError):
                pass  # no answer before the kill: the retry below decides it
        for n in ON_A:  # back on studio B, with a new launch token, the same request again
            clients[n] = await joined(studios.url("b"), n)
            again = await bet_until_decided(clients[n], f"r2-{n}", "rl-eu-000002")
            assert again["type"] == "accepted", again
            if n in told and told[n]["type"] == "accepted":
                assert again["bets"] == told[n]["bets"]  # the answer it was given, not a second bet
            told[n] = again
        for n in (10, 11, 12):
            told[n] = await c_bet(clients[n], n)
        assert all(a["type"] == "accepted" for a in told.values())

        await table.betting("sealing", "rl-eu-000002")
        seal = await table.wait_for("seal", "rl-eu-000002")
        bets, _, _ = book(database, "rl-eu-000002")
        assert seal["count"] == PLAYERS == len(bets) and seal["digest"] == digest(bets)
        await table.record("rl-eu-000002", "1")
        for message in (await settled_to_all(clients, "rl-eu-000002")).values():
            assert message["paid"] == 1000 and message["balance"] == START + 1000
        await table.wait_for("settled", "rl-eu-000002")

    _, balances, credits = book(database, "rl-eu-000001")
    assert balances == {f"p{n}": START + 1000 for n in range(1, PLAYERS + 1)}  # two wins of 500, credited once each
    assert credits == {f"p{n}": 1 for n in range(1, PLAYERS + 1)}
    assert book(database, "rl-eu-000002")[2] == credits
    assert heard.count[("settled", "rl-eu-000001")] == 1 == heard.count[("settled", "rl-eu-000002")]
    assert heard.count[("seal", "rl-eu-000001")] == 1  # sealed at its deadline by the first of the two
    with psycopg.connect(database) as conn:
        assert conn.execute("SELECT count(*) FROM studio_requests WHERE status = 'pending'").fetchone() == (0,)
    for c in clients.values():
        await c.__aexit__(None, None, None)


async def c_bet(c: Client, n: int) -> dict[str, object]:
    return await c.bet(f"r2-{n}", "rl-eu-000002", ("red", 500))
