"""The table's roulette wheel as its config says: a real Cammegh SS2 on a serial port, or the
simulated one (simulators/wheel.py) on a real pty behind the same driver; the commands the
table gives it; and the simulated people of a wheel table in batch mode.

Every driver event goes to the table as a journaled ``device`` input, unchanged; what it means
(close betting, a ball, a void spin, a fault) is the roulette adapter's ``device_step``. The
driver itself acknowledges a void with ``*R``; the table re-powers the wheel (``*P 1``) when it
reports state 6 and starts each game (``*u 1``) when a round opens, as ``DeviceCommand`` effects
carried out here.

The simulated wheel and its driver share one clock: ``speed`` > 1 runs protocol time faster
(a ``ScaledClock``) with every timing rule in the same place relative to the others. Results
come from ``queue_results`` (tests), then the config's ``results``, then ``Random(seed)``.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.config import TableConfig
from controller.games.base import Expect, ExpectKind
from controller.games.roulette.layout import wheel
from controller.table.core import IDLE, TableCore
from controller.table.loop import TableLoop
from controller.table.players import DEALER, SeatedPlayer, SimulatedTable
from drivers.clock import SYSTEM_CLOCK, Clock, ScaledClock
from drivers.events import DeviceEvent
from drivers.wheel.core import Rules
from drivers.wheel.session import WheelSession
from simulators.wheel import Timings, WheelSimulator

DEVICE = "wheel"


@dataclass
class WheelDevices:
    """The open wheel: its driver session, the simulator behind it (if simulated), the clock
    both run on. Its ``start_game`` / ``power_on`` are what ``DeviceCommand`` effects call."""

    session: WheelSession
    simulator: WheelSimulator | None = None
    clock: Clock = field(default=SYSTEM_CLOCK)

    async def start_game(self) -> None:
        await self._connected()
        await self.session.start_game()

    async def power_on(self) -> None:
        await self._connected()
        await self.session.power(True)

    async def _connected(self, timeout: float = 5.0) -> None:
        """A command right after start (a resumed round) waits for the line to open."""
        await asyncio.wait_for(self.session.connected.wait(), timeout)

    async def stop(self) -> None:
        if self.simulator is not None:
            await self.simulator.stop()


def wheel_clock(config: TableConfig) -> Clock:
    speed = config.devices.wheel.simulated.speed
    return SYSTEM_CLOCK if config.devices.wheel.transport != "simulated" or speed == 1 else ScaledClock(speed)


async def open_wheel(
    config: TableConfig,
    core: TableCore,
    on_event: Callable[[DeviceEvent], None],
    *,
    clock: Clock | None = None,
    timings: Timings | None = None,
) -> WheelDevices:
    """Build (and start, when simulated) the wheel; the caller runs ``session.run()``."""
    dev = config.devices.wheel
    clock = clock or wheel_clock(config)
    simulator: WheelSimulator | None = None
    if dev.transport == "simulated":
        pockets = len(wheel(core.rules.wheel).pockets)  # type: ignore[attr-defined]
        sim = dev.simulated
        simulator = WheelSimulator(clock=clock, rng=random.Random(sim.seed), pockets=pockets, mode=sim.mode,
                                   results=sim.results, timings=timings or Timings())
        await simulator.start()
        url = simulator.path
    else:
        assert dev.port is not None
        url = dev.port
    # line health (a reply, the status heartbeat) is a matter of the host and the line, not of
    # protocol time: on a sped-up clock its timeouts keep their wall-clock length
    speed = getattr(clock, "factor", 1.0)
    session = WheelSession(url, device=DEVICE, clock=clock, emit=on_event, reply_timeout=1.0 * speed,
                           rules=Rules(silence_timeout=Rules.silence_timeout * speed))
    return WheelDevices(session, simulator, clock)


# --------------------------------------------------------------------------- batch mode
class WheelTable(SimulatedTable):
    """Simulated people at a wheel table: players place the adapter's assorted legal bets, the
    wheel closes betting and gives the result; the dealer keys what the wheel cannot report
    (double ball's second ball, from a seeded RNG) and settles."""

    def __init__(self, loop: TableLoop, players: list[SeatedPlayer], rounds: int, pace: float = 0.0,
                 rng: random.Random | None = None) -> None:
        super().__init__(loop, None, players, rounds, pace)
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
