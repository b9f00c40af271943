"""Issue 9, defect 9 for the shoe: the identity (the serial number in ``HELLO``) is checked
against the configured one or the first one seen, whenever the shoe says it: on a live pty
(a shoe swapped and powered up behind the cable) and after a USB reconnect. A wrong shoe is a
``fault`` (code 90) and its cards are acknowledged but never delivered; the right shoe back
clears it."""

from __future__ import annotations

import asyncio
from typing import Any

from drivers import registry
from drivers.clock import ScaledClock
from drivers.shoe.session import IDENTITY_FAULT
from tests.contract.conftest import Events


async def test_a_different_shoe_on_the_line_is_a_fault_and_its_cards_are_not_delivered() -> None:
    events = Events()
    device: Any = registry.build("sim+pty://shoe?serial=SN42&identity=SN42", sink=events, clock=ScaledClock(5))
    await device.open()
    try:
        fw = device.firmware
        await events.until(lambda: bool(events.of("shoe_status")))
        fw.serial = "SN99"
        fw.reset()  # another shoe powers up on this line
        await events.until(lambda: bool(events.of("fault")))
        fault = events.of("fault")[0]
        assert fault.code == IDENTITY_FAULT and "SN99" in fault.text and "SN42" in fault.text
        assert "SN99" in (device.health().fault or "")
        fw.draw()
        await asyncio.sleep(0.5)  # its card is acknowledged (it stops resending) but not delivered
        assert not events.of("card") and fw.pending == 0
        assert device.driver.session.stats.refused_frames >= 1

        statuses = len(events.of("shoe_status"))
        fw.serial = "SN42"
        fw.reset()  # the table's own shoe is back
        await events.until(lambda: len(events.of("shoe_status")) > statuses)  # clears the fault
        assert device.health().fault is None
        fw.draw()
        await events.until(lambda: bool(events.of("card")))
    finally:
        await device.close()


async def test_after_a_usb_reconnect_the_first_shoe_seen_is_expected() -> None:
    events = Events()
    device: Any = registry.build("sim+usb://1209:0001?serial=SN42", sink=events, clock=ScaledClock(5))
    await device.open()
    try:
        await events.until(lambda: bool(events.of("hello")))
        assert device.health().identity == "SN42"  # none configured: the first one seen
        await device.simulator.unplug()
        device.firmware.serial = "SN77"
        await device.simulator.replug()
        await events.until(lambda: bool(events.of("fault")), timeout=20)
        assert events.of("fault")[0].code == IDENTITY_FAULT
        assert [e.serial for e in events.of("hello")] == ["SN42", "SN77"]
    finally:
        await device.close()
