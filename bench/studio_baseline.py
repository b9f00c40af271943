"""The same-run baseline of ``bench/studio.py``: what the bare parts give with the same load.

- a bare WebSocket server (``websockets``, its own process, nothing behind it) with the same N
  connections from the same kind of clients: each sends one bet-sized message at a random moment
  of the betting time and gets an ``accepted``-sized answer (``accept_ms``); then the server pushes
  one result-sized message to every connection (``card_to_page_ms``, and ``push_all_s`` to the last);
  its RSS per connection, and its CPU per bet (the bet, its answer and the push);
- a bare PostgreSQL insert of the same rows: one request row and its bet row per player, each
  its own transaction on a pool of 20 at a random moment of the betting time (``insert_ms``), and
  the settlement's rows of a round as one batched statement each (``settle_rows_s``).
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import websockets
from psycopg_pool import AsyncConnectionPool

BET = json.dumps({"v": 1, "type": "bet", "request": uuid.uuid4().hex, "round": "rl-eu-bench-000001",
                  "bets": [{"kind": "red", "amount": 500}]})
ACCEPTED = json.dumps({"v": 1, "type": "accepted", "request": uuid.uuid4().hex, "round": "rl-eu-bench-000001",
                       "bets": [{"id": f"{uuid.uuid4().hex}:0", "kind": "red", "amount": 500}], "stake": 500,
                       "balance": 99_500, "currency": "EUR"})
RESULT = json.dumps({"v": 1, "type": "result", "table": "rl-eu", "round": "rl-eu-bench-000001", "status": "settled",
                     "outcome": {"wheel": "european", "numbers": ["17"], "colours": ["black"], "multipliers": {},
                                 "voids": []}})
PUSH = "push"


async def _serve(port_file: str) -> None:
    """The bare server: answers a bet with ACCEPTED; ``push`` sends RESULT to every connection."""
    clients: set[Any] = set()

    async def handler(ws: Any) -> None:
        clients.add(ws)
        try:
            async for message in ws:
                if message == PUSH:
                    websockets.broadcast(clients, RESULT)
                else:
                    await ws.send(ACCEPTED)
        finally:
            clients.discard(ws)

    async with websockets.serve(handler, "127.0.0.1", 0, backlog=1024, ping_interval=None) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        Path(port_file).write_text(str(port))
        await asyncio.Future()


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def echo(players: int, betting_s: float, port_file: str) -> dict[str, Any]:
    """The bare WebSocket figures for ``players`` connections (the server in its own process, the
    clients the bench's players' ``Socket``)."""
    from bench.broker_ceiling import cpu_seconds
    from bench.studio_players import CONNECTING, Socket, open_socket, wait_for

    server = subprocess.Popen([sys.executable, __file__, "--serve", port_file])
    try:
        assert await wait_for(lambda: _read(port_file) != "", 20, 0.05), "the echo server did not start"
        url = f"ws://127.0.0.1:{_read(port_file)}"
        before = rss_kb(server.pid)
        gate = asyncio.Semaphore(CONNECTING)
        loop = asyncio.get_running_loop()
        #: per connection, the next message's waiter (its answer, then the result)
        waiting: list[asyncio.Future[float]] = [loop.create_future() for _ in range(players)]

        def on_text(n: int) -> Callable[[str, float], None]:
            def got(_: str, now: float) -> None:
                if not waiting[n].done():
                    waiting[n].set_result(now)
            return got

        async def connect(n: int) -> Socket:
            async with gate:
                return await open_socket(url, on_text(n), 60)

        conns = await asyncio.gather(*(connect(n) for n in range(players)))
        rss = (rss_kb(server.pid) - before) / players
        cpu = cpu_seconds(server.pid)
        rng = random.Random(1)
        accept: list[float] = []

        async def bet(n: int) -> None:
            await asyncio.sleep(rng.uniform(0, betting_s * 0.8))
            started = time.monotonic()
            conns[n].send_text(BET)
            accept.append((await waiting[n] - started) * 1000)
            waiting[n] = loop.create_future()

        await asyncio.gather(*(bet(n) for n in range(players)))
        sent = time.monotonic()
        conns[0].send_text(PUSH)
        page = [(t - sent) * 1000 for t in await asyncio.gather(*waiting)]
        cpu = cpu_seconds(server.pid) - cpu
        for ws in conns:
            ws.close()
        await asyncio.gather(*(ws.closed for ws in conns))
        return {"accept_ms": accept, "card_to_page_ms": page, "push_all_s": max(page) / 1000,
                "rss_per_player_kb": round(rss, 1), "cpu_ms_per_bet": round(cpu * 1000 / players, 3)}
    finally:
        server.kill()
        server.wait()


def _read(path: str) -> str:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return ""


async def postgres(database: str, players: int, betting_s: float) -> dict[str, Any]:
    """The same rows a round writes, bare: one INSERT transaction per player at a random moment of
    the betting time (as the players bet), then the settlement's rows as one batch."""
    with psycopg.connect(database, autocommit=True) as setup:
        setup.execute("CREATE TABLE IF NOT EXISTS bare_requests (request text PRIMARY KEY, player text, bets jsonb, "
                      "status text, answer jsonb)")
        setup.execute("CREATE TABLE IF NOT EXISTS bare_bets (id text PRIMARY KEY, request text, player text, "
                      "kind text, amount bigint, payout bigint)")
    times: list[float] = []
    rng = random.Random(2)
    async with AsyncConnectionPool(database, min_size=20, max_size=20, open=False) as pool:
        async def insert(n: int) -> None:
            await asyncio.sleep(rng.uniform(0, betting_s * 0.8))
            request = uuid.uuid4().hex
            started = time.monotonic()
            async with pool.connection() as conn, conn.transaction():
                await conn.execute("INSERT INTO bare_requests VALUES (%s, %s, %s, 'accepted', %s)",
                                   (request, f"p{n}", BET, ACCEPTED))
                await conn.execute("INSERT INTO bare_bets VALUES (%s, %s, %s, 'red', 500, NULL)",
                                   (f"{request}:0", request, f"p{n}"))
            times.append((time.monotonic() - started) * 1000)

        await asyncio.gather(*(insert(n) for n in range(players)))
        started = time.monotonic()
        async with pool.connection() as conn, conn.transaction():
            await conn.execute("UPDATE bare_bets SET payout = 1000")
            async with conn.cursor() as cur:
                await cur.executemany("INSERT INTO bare_requests VALUES (%s, %s, NULL, 'credit', NULL)",
                                      [(uuid.uuid4().hex, f"p{n}") for n in range(players)])
        settle_s = time.monotonic() - started
    return {"insert_ms": times, "settle_rows_s": round(settle_s, 3)}


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        asyncio.run(_serve(sys.argv[2]))
