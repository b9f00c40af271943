"""The dashboard's history answers a wrong question with 400 and a store that cannot answer
with 503, each with a sentence and quickly, never a traceback: a real PostgreSQL stopped, then
frozen (SIGSTOP on its postmaster, resumed after), while 60 pages ask at once."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from controller.backoffice.cluster import Cluster
from controller.backoffice.floor_store import BackofficeFloorStore, Circuit
from controller.backoffice.migrate import migrate
from controller.pit.server import PitServer
from tests.fixtures.mosquitto import MosquittoBroker
from tests.fixtures.postgres import create_database, postgres, postgres_cluster  # noqa: F401
from tests.integration.backoffice.feed import round_record
from tests.integration.backoffice.seed import seed
from tests.integration.backoffice.test_history import pit_accounts, signed_in
from tests.support.waiting import until_awaited

DAY = "2026-12-01"
AT = datetime(2026, 12, 1, 7, 0, tzinfo=UTC)
#: what the slowest of the 60 may take (the store gives up on a frozen database after 3 s)
SLOWEST_S = 5.0


@pytest.fixture
async def history(mosquitto: MosquittoBroker, postgres: Cluster) -> AsyncIterator[tuple[PitServer, httpx.AsyncClient]]:  # noqa: F811
    database = create_database(postgres)
    migrate(database)
    seed(database, [("croupier/bj1/round", round_record("bj1", n, seq=n, at=AT)) for n in range(1, 4)])
    store = BackofficeFloorStore(database, circuit=Circuit(cool_down=0.5))
    try:
        async with PitServer(mosquitto.tcp_url(mosquitto.pit), pit_accounts(), history=store) as pit:
            client = await signed_in(pit)
            try:
                yield pit, client
            finally:
                await client.aclose()
    finally:
        store.close()


@pytest.mark.parametrize(("query", "said"), [
    ("day=2026-12-01&limit=-1", "limit"),
    ("day=2026-12-01&limit=many", "limit"),
    ("day=9999-12-31", "outside"),
    ("day=yesterday", "YYYY-MM-DD or today"),
    ("day=2026-12-01&shift=nope", "no shift"),
])
async def test_a_wrong_question_is_a_400_with_a_sentence(history: tuple[PitServer, httpx.AsyncClient], query: str,
                                                         said: str) -> None:
    _, client = history
    for route in ("rounds",) if "limit" in query else ("rounds", "report", "report.csv"):
        response = await client.get(f"/api/history/{route}?{query}")
        assert response.status_code == 400, (route, query, response.text)
        assert said in response.json()["error"]


async def test_today_is_the_stores_gaming_day(history: tuple[PitServer, httpx.AsyncClient]) -> None:
    _, client = history
    response = await client.get("/api/history/rounds?day=today")
    assert response.status_code == 200 and response.json()["rounds"] == []
    found = (await client.get(f"/api/history/rounds?day={DAY}")).json()
    assert [r["round"] for r in found["rounds"]] == ["bj1-000003", "bj1-000002", "bj1-000001"]


async def _sixty(signed: httpx.AsyncClient) -> tuple[set[int], float, list[str]]:
    client = httpx.AsyncClient(base_url=signed.base_url, cookies=signed.cookies, timeout=30,
                               limits=httpx.Limits(max_connections=16))

    async def one() -> tuple[int, float, str]:
        start = time.monotonic()
        response = await client.get(f"/api/history/rounds?day={DAY}")
        return response.status_code, time.monotonic() - start, response.text

    async with client:
        answers = await asyncio.gather(*(one() for _ in range(60)))  # 16 at a time: the web takes 32 per address
    slowest = max(a[1] for a in answers)
    print(f"history: 60 asks, statuses {sorted({a[0] for a in answers})}, slowest {slowest:.2f} s")
    return {a[0] for a in answers}, slowest, [a[2] for a in answers]


async def test_a_stopped_then_frozen_database_is_a_quick_503(history: tuple[PitServer, httpx.AsyncClient],
                                                           postgres: Cluster) -> None:  # noqa: F811
    _, client = history
    postgres.stop()
    statuses, slowest, texts = await _sixty(client)
    assert statuses == {503} and slowest < SLOWEST_S, (statuses, slowest)
    assert all("History is not available now" in t and "Traceback" not in t for t in texts)
    postgres.start()
    await _answers_again(client)

    frozen = _server_processes(postgres)  # the whole server, as when its machine stalls
    for pid in frozen:
        os.kill(pid, signal.SIGSTOP)
    try:
        statuses, slowest, texts = await _sixty(client)
    finally:
        for pid in frozen:
            os.kill(pid, signal.SIGCONT)
    assert statuses == {503} and slowest < SLOWEST_S, (statuses, slowest)
    await _answers_again(client)


def _server_processes(postgres: Cluster) -> list[int]:  # noqa: F811
    """The postmaster this test session started and its children (the backends of the pool's
    connections among them)."""
    pid = postgres.pid
    assert pid is not None
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [pid, *(int(c) for c in children)]


async def _answers_again(client: httpx.AsyncClient) -> None:
    async def answered() -> bool:
        response = await client.get(f"/api/history/rounds?day={DAY}")
        assert response.status_code in (200, 503), response.text
        return response.status_code == 200

    await until_awaited(answered, "history answers again once the database is back", poll=0.2)
