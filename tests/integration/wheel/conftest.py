"""A driver and a simulated wheel on one real pseudo-terminal, sharing one fast clock."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from drivers.clock import ScaledClock
from drivers.events import DeviceEvent
from drivers.wheel.session import WheelSession
from simulators.wheel import Timings, WheelSimulator
from tests.support.waiting import until

FACTOR = 4.0
"""Protocol time runs 4x faster than wall time: 0.1 s poll = 25 ms, the 3 s grace = 0.75 s."""

FAST = Timings(
    before_game=0.5,
    place_bets=1.0,
    ball_in_rim=4.0,
    no_more_bets=6.5,
    result=0.5,
    reply_delay=0.02,
    power_up=0.2,
    spin_down=1.0,
    self_test=1.0,
    fault_shutdown=1.0,
    ball_lost_stop=6.0,
)


@dataclass
class Rig:
    sim: WheelSimulator
    session: WheelSession
    clock: ScaledClock
    log: list[DeviceEvent] = field(default_factory=list)
    _seen: int = 0
    _new: asyncio.Event = field(default_factory=asyncio.Event)

    def record(self, event: DeviceEvent) -> None:
        self.log.append(event)
        self._new.set()

    async def next(self, accept: Callable[[DeviceEvent], bool] | str, timeout: float = 30.0) -> DeviceEvent:
        """The next event (after the last one returned) matching ``accept``, within protocol ``timeout``."""
        match = (lambda e: e.type == accept) if isinstance(accept, str) else accept
        found: list[DeviceEvent] = []

        def scan() -> bool:
            while self._seen < len(self.log):
                event = self.log[self._seen]
                self._seen += 1
                if match(event):
                    found.append(event)
                    return True
            return False

        await until(scan, f"the next {accept if isinstance(accept, str) else 'matching'} event", within=timeout,
                    arrived=self._new, clock=self.clock,
                    describe=lambda: f"last events: {[e.type for e in self.log[-8:]]}")
        return found[0]

    def of_type(self, kind: str) -> list[DeviceEvent]:
        return [e for e in self.log if e.type == kind]

    async def idle(self, seconds: float) -> None:
        """The rig left alone for ``seconds`` of protocol time: the silence is what is under test."""
        await self.clock.sleep(seconds)


@pytest.fixture
def make_rig() -> Callable[..., RigFactory]:
    return RigFactory


class RigFactory:
    """``async with make_rig(mode=0, results=[...]) as rig``: simulator + driver, both torn down."""

    def __init__(
        self, *, mode: int = 0, results=(), timings: Timings = FAST, pockets: int = 37, seed: int = 7,
        spin: int = 1, clock: ScaledClock | None = None, **session_kw,
    ) -> None:
        self.clock = clock or ScaledClock(FACTOR)
        self.sim = WheelSimulator(
            clock=self.clock, rng=random.Random(seed), mode=mode, results=results, timings=timings, pockets=pockets,
            spin=spin,
        )
        self.session_kw = {"poll_interval": 0.1, **session_kw}

    async def __aenter__(self) -> Rig:
        await self.sim.start()
        rig = Rig(self.sim, None, self.clock)  # type: ignore[arg-type]
        rig.session = WheelSession(self.sim.path, clock=self.clock, emit=rig.record, **self.session_kw)
        await rig.session.__aenter__()
        self.rig = rig
        return rig

    async def __aexit__(self, *exc: object) -> None:
        await self.rig.session.__aexit__(*exc)
        await self.sim.stop()

