"""Issue 9, defect 9 for the wheel: after every (re)connect the wheel's ``*V`` banner is checked
against the configured one or the first one seen; another wheel is a ``fault``
(``identity_mismatch``) and nothing it says is delivered until the right wheel is back
(``recovered``). Real ptys, the simulator behind a stable symlink as /dev/serial/by-id."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from drivers import registry
from drivers.clock import ScaledClock
from simulators.wheel import WheelSimulator
from tests.contract.conftest import Events
from tests.integration.wheel.conftest import FAST

STATES = ("before_game", "place_bets", "ball_in_rim", "no_more_bets", "winning_number", "table_closed", "rotor")


async def test_a_wheel_other_than_the_configured_one_is_a_fault_from_the_start() -> None:
    events = Events()
    device = registry.build("sim+pty://wheel?banner=Wheel%20B&identity=Wheel%20A", sink=events, clock=ScaledClock(4))
    await device.open()
    try:
        await events.until(lambda: bool(events.of("fault")))
        fault = events.of("fault")[0]
        assert fault.reason == "identity_mismatch" and "Wheel B" in fault.detail and "Wheel A" in fault.detail
        assert "Wheel B" in (device.health().fault or "")
        await device.command("poll")  # the line works; what the wheel says is not delivered
        assert not [e for e in events.seen if e.type in STATES]
    finally:
        await device.close()


@asynccontextmanager
async def wheel_a_unplugged(tmp_path: Path) -> AsyncIterator[tuple[WheelSimulator, Any, Events]]:
    """This table's wheel ("Wheel A") behind a stable link, seen by its driver, then unplugged."""
    clock = ScaledClock(4)
    sim = WheelSimulator(clock=clock, rng=random.Random(1), timings=FAST, banner="Wheel A", link=tmp_path / "wheel")
    await sim.start()
    events = Events()
    device = await registry.open_device(f"serial://{sim.path}", "wheel", sink=events, clock=clock)
    try:
        await events.until(lambda: device.health().identity == "Wheel A" and bool(events.of("rotor")))
        sim.unplug()
        await events.until(lambda: bool(events.of("offline")))
        yield sim, device, events
    finally:
        await device.close()
        await sim.stop()


async def test_a_wheel_swapped_while_unplugged_is_caught_at_reconnect(tmp_path: Path) -> None:
    async with wheel_a_unplugged(tmp_path) as (sim, device, events):
        sim.banner = "Wheel B"
        await sim.replug()
        await events.until(lambda: bool(events.of("fault")), "a fault event", within=20)
        assert events.of("fault")[0].reason == "identity_mismatch"
        seen = len(events.seen)

        sim.unplug()
        sim.banner = "Wheel A"
        await sim.replug()
        await events.until(lambda: bool(events.of("recovered")), "a recovered event", within=20)
        assert device.health().fault is None
        await events.until(lambda: any(e.type in STATES for e in events.seen[seen:]))


async def test_a_wheel_that_does_not_answer_the_banner_is_held_until_it_does() -> None:
    """Issue 17, item 10: a silent impostor behind the same port (no ``*V`` answer) had its
    winning number delivered. It is held like a wrong wheel: a fault naming why, no state or
    result delivered, until this table's banner answers."""
    clock = ScaledClock(4)
    sim = WheelSimulator(clock=clock, rng=random.Random(1), timings=FAST, mode=0, banner="Wheel A", results=[17])
    sim.answers_banner = False
    events = Events()
    device = registry.build("sim+pty://wheel?identity=Wheel%20A", sink=events, clock=clock, simulator=sim)
    await device.open()
    try:
        await events.until(lambda: bool(events.of("fault")))
        fault = events.of("fault")[0]
        assert fault.reason == "identity_unproven" and "*V" in fault.detail
        health = device.health()
        assert not health.online and "*V" in (health.fault or "")
        session = device.driver.session  # type: ignore[attr-defined]
        await sim.wait_state(5)  # the impostor's game reached its winning number ...
        await events.until(lambda: session.core.status is not None and session.core.status.state == 5)
        assert not [e for e in events.seen if e.type in STATES or e.type == "online"]  # ... not delivered

        sim.answers_banner = True  # the table's own wheel answers: asked again, it is trusted
        await events.until(lambda: bool(events.of("recovered")))
        assert device.health().online and device.health().fault is None
        assert len(events.of("fault")) == 1  # one fault for the held stretch, not one per question
        await events.until(lambda: any(e.type in STATES for e in events.seen))
    finally:
        await device.close()


async def test_a_silent_wheel_behind_the_same_link_after_a_reconnect_is_held(tmp_path: Path) -> None:
    """The same after a reconnect: this table's wheel first, then, behind the same stable link,
    one that answers no ``*V``. Nothing it says is delivered, online included."""
    async with wheel_a_unplugged(tmp_path) as (sim, device, events):
        seen = len(events.seen)
        sim.answers_banner = False
        await sim.replug()
        await events.until(lambda: bool(events.of("fault")), "a fault event", within=20)
        assert events.of("fault")[0].reason == "identity_unproven"
        session = device.session  # type: ignore[attr-defined]
        await events.until(lambda: session.core.status is not None and session.core.lines > 5)  # it talks ...
        assert [e.type for e in events.seen[seen:]] == ["fault"]  # ... and nothing of it is delivered
        assert not device.health().online
