"""Contract suites: every device kind against every transport its simulator runs on, and against
real hardware on a rig (as python-can's back2back tests): set ``CROUPIER_RIG_SHOE``,
``CROUPIER_RIG_WHEEL`` or ``CROUPIER_RIG_SPOTS`` to the device's registry URL, e.g.
``CROUPIER_RIG_SHOE=serial:///dev/ttyUSB0``. Unset, the rig cases are skipped saying so.

A case that needs the simulator's hands (to deal a card, to choose a result, to press a
button) runs on simulators only; on a rig it is skipped with that reason."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from drivers import registry
from drivers.device import Device
from drivers.events import DeviceEvent
from tests.support.waiting import Arrivals

RIG = "rig"


EXAMPLES = {"shoe": "serial:///dev/ttyUSB0", "wheel": "serial:///dev/ttyUSB1", "spots": "mqtt://user:pass@host:1883/T1"}


def rig_url(kind: str) -> str:
    """The rig's URL for ``kind``, or skip naming the variable to set."""
    variable = f"CROUPIER_RIG_{kind.upper()}"
    url = os.environ.get(variable)
    if not url:
        pytest.skip(f"no {kind} on this rig: set {variable} to its URL (e.g. {EXAMPLES[kind]})")
    return url


def simulator_of(device: Any, why: str) -> Any:
    """The simulator behind a simulated device; skip on a rig (a real device has no hands here)."""
    simulator = getattr(device, "simulator", None)
    if simulator is None:
        pytest.skip(f"real hardware: {why} needs a person at the rig")
    return simulator


class Events(Arrivals[DeviceEvent]):
    """A device's events, collected by its sink; ``until`` is woken by each one (wall time)."""

    def of(self, kind: str) -> list[Any]:
        return [e for e in self.seen if e.type == kind]


@asynccontextmanager
async def online_device(url: str, kind: str, **extras: Any) -> AsyncIterator[tuple[Device, Events]]:
    """The device at ``url`` built through the registry, opened, and online; closed after."""
    events = Events()
    device = registry.build(url, kind, sink=events, **extras)
    await device.open()
    try:
        await events.until(lambda: bool(events.of("online")), "online")
        yield device, events
    finally:
        await device.close()
