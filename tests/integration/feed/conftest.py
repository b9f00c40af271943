"""Wiring for the pit-feed tests: a journal on disk, a feed on its own link, and a pit client
that keeps its session (clean_session=False) and reconnects, so it sees everything the broker
accepted even across a broker restart. All against the real mosquitto fixture."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiomqtt
import pytest

from controller.feed import Feed, PitCommand
from controller.journal import Journal
from tests.fixtures.mosquitto import Credentials, MosquittoBroker
from tests.support.waiting import until

TABLE = "bj1"
NODELAY = ((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),)


class Pit:
    """Everything under ``croupier/<table>/`` as (topic leaf, decoded JSON, retained), in arrival order."""

    def __init__(self, broker: MosquittoBroker, client_id: str = "pit-watch", who: Credentials | None = None) -> None:
        self.broker = broker
        self.client_id = client_id
        self.who = who or broker.pit
        self.messages: list[tuple[str, Any, bool]] = []
        self._seen: dict[str, set[int]] = {}
        self._complete: dict[str, int] = {}  # per topic leaf: every seq up to this one has arrived
        self.connections = 0
        self._arrived = asyncio.Event()
        self._subscribed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            try:
                async with aiomqtt.Client(
                    "127.0.0.1", self.broker.port, username=self.who.username, password=self.who.password,
                    identifier=self.client_id, clean_session=False, socket_options=NODELAY,
                ) as client:
                    self.connections += 1
                    await client.subscribe(f"croupier/{TABLE}/#", qos=1)
                    self._subscribed.set()
                    async for m in client.messages:
                        leaf = str(m.topic).removeprefix(f"croupier/{TABLE}/")
                        body = m.payload if isinstance(m.payload, bytes) else str(m.payload).encode()
                        try:
                            data: Any = json.loads(body)
                        except ValueError:
                            data = body
                        self.messages.append((leaf, data, bool(m.retain)))
                        self._count(leaf, data)
                        self._arrived.set()
            except aiomqtt.MqttError:
                # a reconnecting client's pace while the broker is away (the outage under test):
                # nothing to wait on until the broker is back, which only a new attempt finds
                await asyncio.sleep(0.1)

    async def __aenter__(self) -> Pit:
        self._task = asyncio.create_task(self._run())
        await asyncio.wait_for(self._subscribed.wait(), 5)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass

    def _count(self, leaf: str, data: Any) -> None:
        if isinstance(data, dict) and isinstance(data.get("seq"), int):
            seen = self._seen.setdefault(leaf, set())
            seen.add(data["seq"])
            complete = self._complete.get(leaf, 0)
            while complete + 1 in seen:
                complete += 1
            self._complete[leaf] = complete

    def complete(self, leaf: str = "event") -> int:
        """The highest seq with every seq from 1 up to it received."""
        return self._complete.get(leaf, 0)

    def on(self, leaf: str) -> list[Any]:
        return [data for topic, data, _ in self.messages if topic == leaf]

    def seqs(self, leaf: str = "event") -> list[int]:
        return [m["seq"] for m in self.on(leaf)]

    async def wait_for(self, predicate: Callable[[], bool], timeout: float = 10.0,
                       what: str = "the awaited pit messages") -> None:
        """The shared ``until``, woken per message; a failure lists the last few messages."""
        await until(predicate, what, within=timeout, arrived=self._arrived, describe=self.describe)

    def describe(self) -> str:
        return f"last messages: {[leaf for leaf, _, _ in self.messages[-8:]]}"

    async def wait_seqs(self, last: int, leaf: str = "event", timeout: float = 10.0) -> None:
        await self.wait_for(lambda: self.complete(leaf) >= last, timeout)


def first_occurrences(seqs: list[int]) -> list[int]:
    seen: set[int] = set()
    out = []
    for s in seqs:
        if s not in seen:
            seen.add(s)
            out.append(s)
    return out


def round_record(round_id: str, status: str, stake: int, payout: int) -> dict[str, Any]:
    bets = [{"box": 1, "hand": 1, "kind": "main", "player": "p1", "stake": stake, "payout": payout}]
    return {
        "v": 1, "table": TABLE, "round": round_id, "game": "blackjack",
        "opened": "2026-11-29T16:00:00.000Z", "closed": "2026-11-29T16:01:00.000Z", "status": status,
        "outcome": {"dealer": ["TS", "7H"], "boxes": {"1": [["AS", "KD"]]}},
        "bets": bets, "stake_total": stake, "payout_total": payout, "corrections": [],
    }


class Commands:
    """A stand-in for the table's command queue."""

    def __init__(self) -> None:
        self.received: list[PitCommand] = []
        self.arrived = asyncio.Event()

    def __call__(self, command: PitCommand) -> None:
        self.received.append(command)
        self.arrived.set()


def make_feed(broker: MosquittoBroker, journal: Journal, on_command: Callable[[PitCommand], Any] | None = None,
              **options: Any) -> Feed:
    options.setdefault("backoff_max", 0.5)
    return Feed.connect(broker.tcp_url(), journal, TABLE, on_command, **options)


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    return tmp_path / "journal.sqlite"


@pytest.fixture
def journal(journal_path: Path) -> Journal:
    with Journal(journal_path) as j:
        yield j


@pytest.fixture
async def pit(mosquitto: MosquittoBroker) -> AsyncIterator[Pit]:
    async with Pit(mosquitto) as p:
        yield p
