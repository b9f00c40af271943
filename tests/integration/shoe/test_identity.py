"""Issue 9, defect 9 for the shoe: the identity (the serial number in ``HELLO``) is checked
against the configured one or the first one seen, whenever the shoe says it: on a live pty
(a shoe swapped and powered up behind the cable) and after a USB reconnect. A wrong shoe is a
``fault`` (code 90) and its cards are acknowledged but never delivered; the right shoe back
clears it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from drivers import registry
from drivers.clock import ScaledClock
from drivers.shoe import codec
from drivers.shoe.session import IDENTITY_FAULT, UNPROVEN_FAULT, Receiver
from simulators.shoe import ShoeFirmware
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
        # its card is acknowledged (it stops resending) but not delivered: the host acknowledges
        # a frame once it has applied or refused it, so the card cannot come after this
        await events.until(lambda: fw.pending == 0, "the impostor's card acknowledged")
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
        await events.until(lambda: bool(events.of("fault")), "a fault event", within=20)
        assert events.of("fault")[0].code == IDENTITY_FAULT
        assert [e.serial for e in events.of("hello")] == ["SN42", "SN77"]
    finally:
        await device.close()


async def test_a_shoe_that_never_says_hello_is_held_and_its_cards_are_not_delivered() -> None:
    """Issue 17, item 10: a shoe that sends no ``HELLO`` had its cards delivered. On a real pty a
    silent impostor is asked (``RESET``), proves nothing, and is held like a wrong shoe: not
    online, a fault (code 91) naming why, no card delivered. Once this table's shoe answers,
    the card it sent meanwhile is delivered (its HELLO answered the host's RESET)."""
    events = Events()
    clock = ScaledClock(5)
    firmware = ShoeFirmware(serial="SN42", clock=clock)
    firmware.says_hello = False
    device: Any = registry.build("sim+pty://shoe?identity=SN42", sink=events, clock=clock, firmware=firmware)
    await device.open()
    try:
        session = device.driver.session
        await events.until(lambda: bool(events.of("fault")))
        fault = events.of("fault")[0]
        assert fault.code == UNPROVEN_FAULT and "HELLO" in fault.text
        assert firmware.applied.count("RESET") >= 1  # it was asked
        card = firmware.draw()
        await events.until(lambda: firmware.pending == 0)  # acknowledged, kept ...
        health = device.health()
        assert not health.online and "HELLO" in (health.fault or "")
        assert not events.of("card") and not events.of("online") and not events.of("shoe_status")  # ... not delivered
        assert session.stats.frames > 2  # the line is alive: the shoe is silent only about who it is

        firmware.says_hello = True  # this table's shoe answers the next RESET
        await events.until(lambda: bool(events.of("card")), "a card event", within=20)
        assert [e.card for e in events.of("card")] == [card]
        await events.until(lambda: device.health().online and device.health().fault is None)
        assert len(events.of("fault")) == 1
    finally:
        await device.close()


async def test_a_hello_said_unasked_does_not_vouch_for_cards_sent_before_it() -> None:
    """A silent shoe's cards, then a HELLO nobody asked for (a shoe swapped in on the same line
    powers up): the cards are dropped with one ``refused``, never delivered."""
    receiver = Receiver(identity="SN42")
    receiver.connected()
    events, replies = receiver.on_frame(codec.Frame(1, codec.Card("AS", 1)), 0.0)
    assert events == [] and replies == [codec.Ack(1)]
    events, _ = receiver.on_frame(codec.Frame(1, codec.Hello("CS-1", "1.0", "SN42")), 0.1)
    assert [e.type for e in events] == ["hello", "refused"]
    events, _ = receiver.on_frame(codec.Frame(2, codec.Card("KH", 2)), 0.2)
    assert not [e for e in events if e.type == "card" and e.card == "AS"]


async def test_a_shoe_silent_about_its_identity_after_a_replug_is_held(tmp_path: Path) -> None:
    """The same after a reconnect: this table's shoe first, then, behind the same stable link, a
    shoe that never says HELLO. Its card is not delivered and the table hears fault 91."""
    events = Events()
    clock = ScaledClock(5)
    link = tmp_path / "usb-CS1_SN42-if00"
    device: Any = registry.build(f"sim+pty://shoe?serial=SN42&link={link}", sink=events, clock=clock)
    await device.open()
    try:
        firmware = device.firmware
        await events.until(lambda: device.health().online and device.health().identity == "SN42")
        await device.simulator.unplug()
        await events.until(lambda: bool(events.of("offline")))
        seen = len(events.seen)
        firmware.says_hello = False
        await device.simulator.replug()
        await events.until(lambda: bool(events.of("fault")), "a fault event", within=20)
        assert events.of("fault")[0].code == UNPROVEN_FAULT
        firmware.draw()
        await events.until(lambda: firmware.pending == 0)
        assert [e.type for e in events.seen[seen:]] == ["fault"]  # no online, no card
        assert not device.health().online
    finally:
        await device.close()
