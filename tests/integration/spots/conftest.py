"""Wiring shared by the bet-spot integration tests: a driver session on the controller's link
and simulated spots, both against the real mosquitto fixture."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import TypeVar

import pytest

from drivers.events import DeviceEvent
from drivers.mqtt import MqttLink
from drivers.spots import SpotsSession
from simulators.spots import SpotsSimulator
from tests.fixtures.mosquitto import MosquittoBroker
from tests.support.waiting import until

TABLE = "bj1"
E = TypeVar("E", bound=DeviceEvent)


class Driver:
    """The session's events collected in the background, with waits for tests."""

    def __init__(self, link: MqttLink, session: SpotsSession) -> None:
        self.link = link
        self.session = session
        self.events: list[DeviceEvent] = []
        self._arrived = asyncio.Event()

    async def collect(self) -> None:
        async for event in self.session.events():
            self.events.append(event)
            self._arrived.set()

    def of(self, cls: type[E], /, **fields: object) -> list[E]:
        return [e for e in self.events if isinstance(e, cls) and all(getattr(e, k) == v for k, v in fields.items())]

    async def wait_for(self, predicate: Callable[[], bool], what: str = "the awaited events", timeout: float = 10.0) -> None:
        await until(predicate, what, within=timeout, arrived=self._arrived,
                    describe=lambda: f"last events: {[e.type for e in self.events[-8:]]}")


def make_driver(broker: MosquittoBroker, transport: str = "tcp", spots: range = range(1, 8)) -> Driver:
    url = broker.tcp_url() if transport == "tcp" else broker.unix_url()
    link = MqttLink(url, f"croupier-{TABLE}-spots", backoff_max=0.5)
    return Driver(link, SpotsSession(link, TABLE, spots))


@pytest.fixture
async def driver(mosquitto: MosquittoBroker) -> AsyncIterator[Driver]:
    d = make_driver(mosquitto)
    async with d.link, asyncio.TaskGroup() as tg:
        task = tg.create_task(d.collect())
        await asyncio.wait_for(d.link.wait_connected(), 5)
        yield d
        task.cancel()


@pytest.fixture
async def spots(mosquitto: MosquittoBroker) -> AsyncIterator[SpotsSimulator]:
    sim = SpotsSimulator.with_credentials(mosquitto.tcp_url(), TABLE, 4, lambda n: mosquitto.spot(n).password)
    async with sim:
        yield sim
