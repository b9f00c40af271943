"""The table's roulette wheel as its config says, opened through the device registry: a real
Cammegh SS2 on a serial port, or the simulated one (simulators/wheel.py) on a real pty behind
the same driver (``docs/devices.md``).

Every driver event goes to the table as a journaled ``device`` input, unchanged; what it means
(close betting, a ball, a void spin, a fault) is the roulette adapter's ``device_step``. The
driver itself acknowledges a void with ``*R``; the table re-powers the wheel (``power_on``) when
it reports state 6 and starts each game (``start_game``) when a round opens, as ``DeviceCommand``
effects: ``await device.command(name)``.

The simulated wheel and its driver share one clock: ``speed`` > 1 runs protocol time faster
(a ``ScaledClock``) with every timing rule in the same place relative to the others. Results
come from ``queue_results`` (tests), then the config's ``results``, then ``Random(seed)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.config import TableConfig
from controller.table import registry as games
from controller.table.core import TableCore
from drivers import registry
from drivers.clock import SYSTEM_CLOCK, Clock, ScaledClock
from drivers.device import Device
from drivers.events import DeviceEvent
from simulators.wheel import Timings

DEVICE = "wheel"


def wheel_clock(config: TableConfig) -> Clock:
    speed = config.devices.wheel.simulated.speed
    return SYSTEM_CLOCK if config.devices.wheel.transport != "simulated" or speed == 1 else ScaledClock(speed)


def wheel_url(config: TableConfig, core: TableCore) -> str:
    """The registry URL of the configured wheel (a simulated one has the table's pockets)."""
    dev = config.devices.wheel
    if dev.url:
        return dev.url
    if dev.transport == "simulated":
        declared = games.game(core.adapter.game)  # the game says how its simulated wheel is set
        options = declared.device_options(core.rules) if declared.device_options is not None else {}
        given = "".join(f"{key}={value}&" for key, value in options.items())
        return f"sim+pty://wheel?{given}seed={dev.simulated.seed}&mode={dev.simulated.mode}"
    assert dev.port is not None  # the config requires it
    return dev.port if "://" in dev.port else f"serial://{dev.port}"


async def open_wheel(
    config: TableConfig,
    core: TableCore,
    on_event: Callable[[DeviceEvent], None],
    *,
    clock: Clock | None = None,
    timings: Timings | None = None,
) -> Device:
    """Build and open the wheel; it runs until ``close()``. A simulated one exposes its
    ``simulator``; ``DeviceUnavailable`` when a real wheel's port cannot be opened."""
    extras: dict[str, Any] = {"results": config.devices.wheel.simulated.results, "identity": config.devices.wheel.identity}
    if timings is not None:
        extras["timings"] = timings
    return await registry.open_device(wheel_url(config, core), DEVICE, sink=on_event,
                                      clock=clock or wheel_clock(config), **extras)

