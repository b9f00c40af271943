"""The table's roulette wheel as its config says, opened through the device registry: a real
Cammegh SS2 on a serial port, or the simulated one (simulators/wheel.py) on a real pty behind
the same driver (``docs/devices.md``); and the simulated people of a wheel table in batch mode.

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

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from controller.games.base import Expect, ExpectKind
from controller.games.roulette.layout import wheel
from controller.people.players import DEALER, SeatedPlayer, SimulatedTable
from controller.runtime.loop import TableLoop
from controller.table.core import IDLE, TableCore
from drivers import registry
from drivers.clock import SYSTEM_CLOCK, Clock, ScaledClock
from drivers.device import Device
from drivers.events import DeviceEvent
from simulators.wheel import Timings

if TYPE_CHECKING:  # the config imports the game registry, which imports this module
    from controller.config import TableConfig

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
        pockets = len(wheel(core.rules.wheel).pockets)  # type: ignore[attr-defined]
        return f"sim+pty://wheel?pockets={pockets}&seed={dev.simulated.seed}&mode={dev.simulated.mode}"
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


# --------------------------------------------------------------------------- batch mode
class WheelTable(SimulatedTable):
    """Simulated people at a wheel table: players place the adapter's assorted legal bets, the
    wheel closes betting and gives the result; the dealer keys what the wheel cannot report
    (double ball's second ball, from a seeded RNG) and settles."""

    def __init__(self, loop: TableLoop, players: list[SeatedPlayer], rounds: int, pace: float = 0.0,
                 rng: random.Random | None = None, closed_by_replay: int = 0) -> None:
        super().__init__(loop, None, players, rounds, pace, closed_by_replay)
        self.rng = rng or random.Random(1)

    def _act(self) -> None:
        core = self.loop.core
        if core.phase == IDLE and core.hold is None and not core.devices.get(DEVICE, {}).get("online"):
            return  # the wheel has not reported yet: nothing to open a round on
        super()._act()

    def _playing(self, expect: Expect) -> None:
        core = self.loop.core
        engine: Any = core.engine
        if expect.kind is ExpectKind.RESULT and getattr(engine, "balls", None):
            number = self.rng.choice(sorted(wheel(engine.rules.wheel).pockets))
            self.loop.command("key_result", DEALER, number=number)


def wheel_people(config: TableConfig, loop: TableLoop, devices: Any, players: list[SeatedPlayer], rounds: int,
                 pace: float, closed_by_replay: int) -> WheelTable:
    """Batch mode's simulated people at a wheel table (``controller.runtime.devices.PEOPLE``)."""
    if devices.simulated(DEVICE) is None and config.devices.wheel.transport != "serial":
        raise RuntimeError("--rounds needs a simulated wheel (devices.wheel.transport = \"simulated\")")
    return WheelTable(loop, players, rounds, pace, random.Random(config.devices.wheel.simulated.seed),
                      closed_by_replay)
