"""Wiring for the pit tests: a real mosquitto, table feeds publishing from journals on disk, and
the dashboard under the broker's ``pit`` account, with a pit boss and a dealer account."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from controller.auth import Account, Accounts, hash_password
from controller.feed import Feed, PitCommand
from controller.journal import Journal
from controller.pit.server import PitServer
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.browser.conftest import (
    chromium,  # noqa: F401  # Debian's Chromium, for the browser tests
    console_table,  # noqa: F401  # a console beside the pit
)
from tests.support.waiting import POLL_S
from tests.support.waiting import until as shared_until
from tests.unit.pit.feed_messages import state_body

PASSWORDS = {"pat": "pit-pass-1", "dee": "dealer-pass-1"}


@pytest.fixture(scope="session")
def hashes() -> dict[str, str]:
    return {user: hash_password(pw) for user, pw in PASSWORDS.items()}


def accounts(hashes: dict[str, str], clock: Callable[[], float] = time.monotonic, ttl: float = 3600.0) -> Accounts:
    return Accounts({"pat": Account("pat", "pit_boss", hashes["pat"]), "dee": Account("dee", "dealer", hashes["dee"])},
                    ttl=ttl, clock=clock)


class TableFeed:
    """One table's journal and feed, with the commands the feed hands on."""

    def __init__(self, broker: MosquittoBroker, path: Path, table: str) -> None:
        self.table = table
        self.journal = Journal(path / f"{table}.sqlite")
        self.commands: list[PitCommand] = []
        self.feed = Feed.connect(broker.tcp_url(), self.journal, table, self.commands.append, backoff_max=0.5)

    def state(self, **body: Any) -> None:
        self.feed.set_state(state_body(**{"round": "r1", **body}))

    def append(self, kind: str, payload: dict[str, Any], round_id: str | None = None) -> int:
        entry = self.journal.append(kind, payload, source="table", round_id=round_id)
        self.feed.notify()
        return entry.seq


@pytest.fixture
async def tables(mosquitto: MosquittoBroker, tmp_path: Path) -> AsyncIterator[Callable[[str], Any]]:
    started: list[TableFeed] = []

    async def start(table: str) -> TableFeed:
        t = TableFeed(mosquitto, tmp_path, table)
        await t.feed.start()
        started.append(t)
        return t

    yield start
    for t in started:
        await t.feed.close(drain_timeout=0.5)
        t.journal.close()


@pytest.fixture
async def pit(mosquitto: MosquittoBroker, hashes: dict[str, str]) -> AsyncIterator[PitServer]:
    async with PitServer(mosquitto.tcp_url(mosquitto.pit), accounts(hashes), tick=0.05) as server:
        await asyncio.wait_for(server.link.wait_connected(), 5)
        yield server


@contextlib.asynccontextmanager
async def signed_in(pit: PitServer, user: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=pit.url) as client:
        response = await client.post("/api/login", json={"user": user, "password": PASSWORDS[user]})
        assert response.status_code == 200, response.text
        client.headers["X-CSRF-Token"] = response.json()["csrf"]  # as the page sends it
        yield client


async def until(predicate: Callable[[], Any], timeout: float = 10.0, poll: float = POLL_S,
                what: str = "the pit's awaited state") -> Any:
    """The shared ``until``, returning the truthy value ``predicate`` gave (a tile, a row)."""
    held: list[Any] = []

    def holds() -> bool:
        held[:] = [predicate()]
        return bool(held[0])

    await shared_until(holds, what, within=timeout, poll=poll)
    return held[0]
