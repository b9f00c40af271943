"""The shoe's ``Device`` contract, on a pty, on pyusb's core over the simulated backend, on the
in-memory line (clean, and damaging bytes both ways: drops, corruption, duplicates, splits),
and on a rig's real shoe (``CROUPIER_RIG_SHOE``)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from drivers import registry
from drivers.clock import ScaledClock
from drivers.device import Device
from drivers.errors import DeviceNotFound, DriverError, UnsupportedCommand
from tests.contract.conftest import RIG, Events, online_device, rig_url, simulator_of
from tests.support.waiting import until

FACTOR = 5.0  # protocol time 5x faster: resends every 50 ms, STATUS every 200 ms
SHOES = {
    "pty": "sim+pty://shoe?seed=3",
    "usb": "sim+usb://1209:0001?seed=3",
    "memory": "sim+mem://shoe?seed=3",
    "memory-faulty": "sim+mem://shoe?seed=3&drop=0.002&corrupt=0.002&duplicate=0.002&split=0.3&fault_seed=5",
    RIG: None,
}


@pytest.fixture(params=list(SHOES))
async def shoe(request: pytest.FixtureRequest) -> AsyncIterator[tuple[Device, Events]]:
    extras = {"clock": ScaledClock(FACTOR)} if request.param != RIG else {}
    async with online_device(SHOES[request.param] or rig_url("shoe"), "shoe", **extras) as opened:
        yield opened


def firmware(device: Any, why: str) -> Any:
    return simulator_of(device, why).firmware


async def test_is_a_device_online_after_open(shoe: tuple[Device, Events]) -> None:
    device, events = shoe
    assert isinstance(device, Device)
    assert device.name == "shoe"
    await events.until(lambda: bool(events.of("shoe_status")))  # a PING on connect: STATUS at once
    health = device.health()
    assert health.online and health.fault is None and health.last_seen is not None


async def test_gate_commands_are_acknowledged_and_applied(shoe: tuple[Device, Events]) -> None:
    device, _ = shoe
    await device.command("lock")
    fw = getattr(getattr(device, "simulator", None), "firmware", None)
    if fw is not None:
        assert fw.locked and fw.draw() is None  # nothing leaves a locked shoe
    await device.command("unlock")
    if fw is not None:
        assert not fw.locked


async def test_cards_arrive_once_each_in_order(shoe: tuple[Device, Events]) -> None:
    device, events = shoe
    fw = firmware(device, "dealing")
    drawn = [fw.draw() for _ in range(20)]
    await events.until(lambda: len(events.of("card")) >= 20, "20 cards")
    # resends still on the line must not deliver twice: once every card is acknowledged, the
    # answer to a command comes behind any resend already written (the line is FIFO)
    await events.until(lambda: fw.pending == 0, "every card acknowledged")
    await device.command("unlock")
    assert [(e.card, e.n) for e in events.of("card")] == [(c, n) for n, c in enumerate(drawn, 1)]
    assert not events.of("lost_card") and not events.of("refused")


async def test_new_shoe_restarts_the_count(shoe: tuple[Device, Events]) -> None:
    device, events = shoe
    fw = firmware(device, "dealing")
    fw.draw()
    await events.until(lambda: len(events.of("card")) == 1)
    await device.command("new_shoe", shoe_id="S2", decks=1)
    assert fw.shoe_id == "S2" and fw.shoe.remaining == 52
    card = fw.draw()
    await events.until(lambda: len(events.of("card")) == 2)
    assert (events.of("card")[-1].card, events.of("card")[-1].n) == (card, 1)


async def test_reset_says_hello_with_the_identity(shoe: tuple[Device, Events]) -> None:
    device, events = shoe
    for _ in range(5):  # HELLO is not resent: on a damaged line it may be lost, so ask again
        await device.command("reset")
        try:
            await events.until(lambda: bool(events.of("hello")), "hello", within=3)
            break
        except AssertionError:
            continue
    serial = events.of("hello")[-1].serial
    assert serial and device.health().identity == serial


async def test_a_command_that_does_not_fit_is_refused_before_anything_is_sent(shoe: tuple[Device, Events]) -> None:
    device, _ = shoe
    fw = getattr(getattr(device, "simulator", None), "firmware", None)
    before = list(fw.applied) if fw is not None else []
    with pytest.raises(UnsupportedCommand, match="has no command 'explode'.*lock"):
        await device.command("explode")
    with pytest.raises(UnsupportedCommand, match="new_shoe"):
        await device.command("new_shoe", decks=6)  # no shoe_id
    with pytest.raises(UnsupportedCommand):
        await device.command("lock", force=True)
    if fw is not None:
        assert fw.applied == before


async def test_events_stream_without_a_sink_ends_at_close() -> None:
    device = registry.build(SHOES["pty"] or "", "shoe")
    await device.open()
    seen: list[str] = []

    async def read() -> None:
        async for event in device.events():
            seen.append(event.type)

    reader = asyncio.create_task(read())
    try:
        await until(lambda: "online" in seen, "online from the event stream", within=10)
    finally:
        await device.close()
        await device.close()  # twice is safe
    await asyncio.wait_for(reader, 5)  # the stream ended with the device
    assert seen[0] == "online"


def test_every_failure_is_a_driver_error() -> None:
    assert issubclass(DeviceNotFound, DriverError) and issubclass(UnsupportedCommand, DriverError)
