"""The zero-setup demo path: driver and simulated spots through the in-process amqtt broker."""

from __future__ import annotations

import asyncio

from drivers.mqtt import MqttLink
from drivers.spots import SpotPress, SpotsSession
from simulators.broker import EmbeddedBroker
from simulators.spots import SpotsSimulator
from tests.integration.spots.conftest import Driver


async def test_demo_broker_carries_presses_and_lamps() -> None:
    async with EmbeddedBroker() as broker:
        link = MqttLink(broker.url, "demo-spots")
        driver = Driver(link, SpotsSession(link, "demo"))
        async with link, asyncio.TaskGroup() as tg:
            task = tg.create_task(driver.collect())
            await asyncio.wait_for(link.wait_connected(), 5)
            async with SpotsSimulator.with_credentials(broker.url, "demo", 2, lambda n: None) as spots:
                await spots[2].press("bet", 500)
                await spots[2].duplicate_last()
                await driver.wait_for(lambda: bool(driver.of(SpotPress)))
                driver.session.lamp(2, "win", "+500")
                await spots[2].wait_lamp(lambda lamp: lamp["mode"] == "win")
            task.cancel()
        assert [(e.spot, e.amount) for e in driver.of(SpotPress)] == [(2, 500)]
