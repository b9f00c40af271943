"""Simulated bet spots and the spots driver on the generated floor broker, over TLS, each spot
with its own account: a spot's own press reaches the table; its press on another spot's topic
never leaves the broker, so the driver sees only the genuine one."""

from __future__ import annotations

import asyncio

from drivers.mqtt import MqttLink
from drivers.spots import SpotsSession
from drivers.spots.events import SpotPress
from simulators.spots import SpotsSimulator
from tests.integration.mqtt_security.conftest import FloorBroker
from tests.support.waiting import until


async def test_presses_over_tls_and_an_impersonation_dropped_by_the_acl(floor: FloorBroker) -> None:
    link = MqttLink(floor.url("bj1-controller"), "croupier-bj1-spots", backoff_max=0.5)
    session = SpotsSession(link, "bj1", range(1, 4))
    presses: list[SpotPress] = []
    arrived = asyncio.Event()

    async def collect() -> None:
        async for event in session.events():
            if isinstance(event, SpotPress):
                presses.append(event)
                arrived.set()

    spots = SpotsSimulator("bj1", {n: str(floor.url(f"bj1-spot-{n}")) for n in (1, 2)})
    async with link, asyncio.TaskGroup() as tg:
        task = tg.create_task(collect())
        await asyncio.wait_for(link.wait_connected(), 5)
        async with spots:
            await spots[2].press_on(1, "hit")  # spot 2 pretending to be spot 1
            await spots[2].press("stand")
            await spots[1].press("bet", 500, "main")
            # spot 2's impersonation went out before its own press on the same connection: had
            # the broker let it through, it would be here before that press
            await until(lambda: len(presses) >= 2, "two presses", arrived=arrived, within=10)
        task.cancel()
    assert [(p.spot, p.button) for p in presses] == [(2, "stand"), (1, "bet")]
