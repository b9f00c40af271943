"""Bets raced against the real table's journaled close on a loaded machine: many players send at
the betting deadline while two busy processes load both cores. Every bet a player was told was
accepted is in the seal the table journaled (its count and digest recomputed from the book), so
no bet was accepted after the close; everything else was refused ``late``."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest
import websockets

from controller.studio.config import TableSection
from controller.studio.seal import BookBet, digest
from controller.studio.server import StudioServer
from controller.studio.simulation import check
from controller.studio.simulation.table import play, table_config
from tests.integration.studio.conftest import Client, StudioBroker, studio_config, token

PLAYERS = 60
ROUNDS = 2


@pytest.fixture
def loaded() -> Iterator[None]:
    """Two busy processes for the length of the test (ended by their PIDs)."""
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        yield
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


async def at_the_deadline(n: int, client: Client, told: dict[str, list[str]], answers: list[str]) -> None:
    """Each round the studio opens: wait for its deadline, send one bet around it (400 ms before to 100 ms after)."""
    seen: set[str] = set()
    while True:
        push = await client.next("betting", within=120.0, status="open")
        round_id = str(push["round"])
        if round_id in seen:
            continue
        seen.add(round_id)
        deadline = datetime.fromisoformat(str(push["deadline"]).replace("Z", "+00:00"))
        offset = (n % 11 - 8) * 0.05  # from 400 ms before the deadline to 100 ms after it
        await asyncio.sleep(max(0.0, (deadline - datetime.now(UTC)).total_seconds() + offset))
        try:
            answer = await client.bet(f"r{n}-{round_id}", round_id, ("banker", 500))
        except (websockets.ConnectionClosed, TimeoutError, AssertionError):
            answers.append("lost")
            continue
        if answer["type"] == "accepted":
            told.setdefault(round_id, []).extend(str(b["id"]) for b in answer["bets"])  # type: ignore[attr-defined]
            answers.append("accepted")
        else:
            answers.append(str(answer["reason"]))


async def test_no_bet_is_accepted_after_the_journaled_close(tmp_path: Path, broker: StudioBroker, database: str,
                                                           loaded: None) -> None:
    table = table_config("t1", TableSection(game="baccarat", preset="standard"), tmp_path,
                         broker.tcp_url(broker.controller), betting_s=2, grace_s=10, seed=3)
    served = {"game": "baccarat", "preset": "standard", "rules": table.rules,
              "limits": {k: v.model_dump() for k, v in table.limits.items()}}
    config = studio_config(tmp_path, broker, tables={"t1": served}, max_connections=PLAYERS + 16,
                           per_client=PLAYERS + 16)
    told: dict[str, list[str]] = {}
    answers: list[str] = []
    async with StudioServer(config, database) as server:
        assert server.link is not None
        await asyncio.wait_for(server.link.connected.wait(), 20)
        clients = [Client(server.url) for _ in range(PLAYERS)]
        for n, c in enumerate(clients, start=1):
            await server.wallet.fund("casino-a", f"p{n}", "EUR", 100_000)
            await c.__aenter__()
            assert (await c.join(token(f"p{n}"), table="t1"))["type"] == "joined"
        racing = [asyncio.create_task(at_the_deadline(n, c, told, answers)) for n, c in enumerate(clients, start=1)]
        try:
            await play(table, ROUNDS)
        finally:
            for task in racing:
                task.cancel()
            await asyncio.gather(*racing, return_exceptions=True)
            for c in clients:
                await c.__aexit__(None, None, None)
    reading = check.read_journal(table.journal_path)
    assert len(reading.records) == ROUNDS
    with psycopg.connect(database) as conn:
        book = conn.execute("SELECT round, id, player, kind, amount, status FROM studio_bets ORDER BY id").fetchall()
    assert set(answers) <= {"accepted", "late"} and "accepted" in answers
    for round_id, record in reading.records.items():
        rows = [r for r in book if r[0] == round_id]
        assert set(told.get(round_id, [])) == {r[1] for r in rows}  # told accepted: exactly the book's bets
        remote: dict[str, Any] = record["remote"]
        if remote["sealed"]:  # the journaled seal pins every bet accepted: none came after the close
            seal = remote["seal"]
            assert seal["count"] == len(rows) and seal["digest"] == digest([BookBet(*r[1:5]) for r in rows])
            assert all(r[5] == "settled" for r in rows)
        else:  # closed without the seal (the grace ran out on the loaded machine): every remote bet returned
            assert all(r[5] == "refunded" for r in rows)
    assert reading.drop == sum(r[4] for r in book if r[5] == "settled")
