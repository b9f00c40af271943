"""The one device base (``drivers/base.py``) and the one reconnect policy
(``drivers/reconnect.py``) every driver shares: lifecycle as python-can's ``BusABC`` (idempotent
shutdown, ``async with``), backoff and outage timing as aioesphomeapi's ``ReconnectLogic``."""

from __future__ import annotations

import itertools
import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drivers.base import DeviceBase
from drivers.device import Device, Health
from drivers.device_kit import Command
from drivers.errors import DeviceNotFound, UnsupportedCommand
from drivers.events import DeviceEvent, DeviceOnline
from drivers.reconnect import Backoff, LinkState, Reconnect


class Counting(DeviceBase):
    def __init__(self, *, fail: bool = False, **options: object) -> None:
        super().__init__("counting", **options)  # type: ignore[arg-type]
        self.fail = fail
        self.starts = self.stops = 0

    async def _start(self) -> None:
        if self.fail:
            raise DeviceNotFound("cannot open /dev/nothing: no such device")
        self.starts += 1
        self.emit(DeviceOnline(device=self.name))

    async def _stop(self) -> None:
        self.stops += 1

    def health(self) -> Health:
        return Health(online=self.is_open)

    def commands(self) -> dict[str, Command]:
        return {"ping": self._ping}

    async def _ping(self, times: int = 1) -> None:
        pass


async def test_open_once_shutdown_idempotent_and_async_with() -> None:
    seen: list[DeviceEvent] = []
    device = Counting(sink=seen.append)
    assert isinstance(device, Device)
    await device.close()  # never opened: nothing to do
    async with device:
        await device.open()  # a second open while open does nothing
        assert device.is_open and device.starts == 1 and [e.type for e in seen] == ["online"]
    assert not device.is_open and device.stops == 1
    await device.shutdown()
    await device.close()
    assert device.stops == 1
    await device.open()  # closed, it opens again
    assert device.starts == 2
    await device.close()


async def test_a_failed_open_leaves_nothing_to_close() -> None:
    device = Counting(fail=True)
    with pytest.raises(DeviceNotFound):
        await device.open()
    await device.close()
    assert device.stops == 0 and not device.is_open


async def test_commands_are_checked_before_anything_runs_and_events_queue_without_a_sink() -> None:
    device = Counting()
    await device.open()
    try:
        await device.command("ping", times=2)
        with pytest.raises(UnsupportedCommand, match="no command 'pong'"):
            await device.command("pong")
        with pytest.raises(UnsupportedCommand, match="ping"):
            await device.command("ping", loud=True)
        assert device.queue.get_nowait().type == "online"  # what events() yields
    finally:
        await device.close()


class FakeClock:
    """The injected clock: the test moves ``now``; ``sleep`` advances it at once, no wall time passes."""

    def __init__(self) -> None:
        self.now = 100.0

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds


@given(st.floats(0.001, 10), st.floats(1, 4), st.integers(1, 60))
def test_backoff_grows_and_stays_capped(initial: float, factor: float, failures: int) -> None:
    backoff = Backoff(initial, initial * 50, factor)
    assert initial <= backoff.delay(failures) <= backoff.maximum
    assert backoff.delay(failures) <= backoff.delay(failures + 1)


def test_a_backoff_that_cannot_work_is_refused() -> None:
    with pytest.raises(ValueError):
        Backoff(5.0, 1.0)


def test_an_outage_is_warned_after_a_while_then_at_a_steady_rate() -> None:
    clock = FakeClock()
    link = Reconnect(Backoff(0.1, 1.0), clock, warn_after=3.0, warn_every=30.0)
    link.connecting()
    link.connected()
    assert link.state is LinkState.CONNECTED and link.down_for() is None
    down_at = clock.now
    warned_at = []
    while clock.now - down_at < 200:  # attempts at the backoff's pace (at most 1 s apart), 200 s
        link.connecting()
        clock.now += link.failed("refused")
        if link.level() == logging.WARNING:
            warned_at.append(clock.now - down_at)
    assert link.state is LinkState.WAITING and link.failures > 190
    assert 3.0 <= warned_at[0] <= 4.0  # within a few seconds of the outage ...
    assert len(warned_at) == 7 and all(29.0 <= b - a <= 31.0 for a, b in itertools.pairwise(warned_at))  # ... then every 30 s
    link.connected()
    assert link.failures == 0 and link.down_for() is None and not link.alarm()
    link.closed()
    assert link.state is LinkState.CLOSED
