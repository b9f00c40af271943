"""A whole roulette table in the test's event loop: config file, journal on disk, the simulated
Cammegh SS2 on a real pty behind the real wheel driver, the table task.

Wheel and driver share a ``ScaledClock`` (protocol time 10x faster) and short game timings, so
a game takes about a second; the vendor's timing rules keep their places relative to each other.
The test plays the dealer and the players; the wheel closes betting, spins and reports.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from controller.config import load
from controller.runtime.recovery import device_sync
from controller.runtime.wheel import open_wheel
from controller.table.core import SETTLING
from drivers.clock import Clock, ScaledClock
from simulators.wheel import Timings, WheelSimulator
from tests.integration.table.conftest import Harness
from tests.support.configs import simulated_wheel, write_table_config

SPEED = 10.0
TIMINGS = Timings(before_game=0.5, place_bets=4.0, ball_in_rim=3.0, no_more_bets=3.0, result=0.5,
                  fault_shutdown=10.0)


def write_config(tmp_path: Path, *, preset: str = "european", rules: str = "", table_id: str = "r1") -> Path:
    return write_table_config(tmp_path, "roulette", table_id=table_id, preset=preset, rules=rules,
                              devices={"wheel": simulated_wheel()})


class WheelHarness(Harness):
    """The blackjack harness's journal, core, loop and listeners, with the wheel instead of a shoe."""

    wheel: Any = None  # the opened wheel Device (simulated: it has ``simulator``)

    async def start(self, timings: Timings = TIMINGS, clock: Clock | None = None) -> None:  # type: ignore[override]
        """The wheel on ``clock`` (default: ``SPEED`` times real time), the loop running, the wheel online."""
        self.core.restarted()  # as the app does: no device is trusted until it reports again
        self.wheel = await open_wheel(self.config, self.core, self.loop.device_event,
                                      clock=clock or ScaledClock(SPEED), timings=timings)
        self.loop.devices["wheel"] = self.wheel
        await self.loop.carry_out(list(device_sync(self.core)))
        self._tasks.append(asyncio.create_task(self.loop.run()))
        await self.loop.until(lambda core: core.devices.get("wheel", {}).get("online", False), timeout=10)

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.wheel is not None:
            await self.wheel.close()
        self.journal.close()

    @property
    def sim(self) -> WheelSimulator:
        assert self.wheel is not None and self.wheel.simulator is not None
        return self.wheel.simulator

    async def bet(self, box: int, kind: str, amount: int, player: str) -> None:
        self.loop.command("bet", f"player:{player}", box=box, kind=kind, amount=amount, player=player)
        await self.loop.settled()

    async def until_phase(self, phase: str, timeout: float = 15.0) -> None:
        await self.loop.until(lambda core: core.phase == phase and core.hold is None, timeout)

    async def spin(self, *bets: tuple[int, str, int, str], result: str | None = None) -> None:
        """Open a round, place (box, kind, amount, player) bets, let the wheel spin ``result``
        and wait until the table asks the dealer to settle."""
        if result is not None:
            self.sim.queue_results(result)
        before = len(self.alerts())
        await self.cmd("open_round")
        for box, kind, amount, player in bets:
            await self.bet(box, kind, amount, player)
        assert not [a for a in self.alerts()[before:] if a["severity"] != "info"], self.alerts()[before:]
        await self.until_phase(SETTLING)

    def device_entries(self, kind: str) -> list[Any]:
        return [e for e in self.of_kind("device") if e.payload.get("type") == kind]


@pytest.fixture
async def wheel_table(tmp_path: Path) -> AsyncIterator[Any]:
    made: list[WheelHarness] = []

    async def make(timings: Timings = TIMINGS, **kwargs: Any) -> WheelHarness:
        h = WheelHarness(load(write_config(tmp_path, **kwargs)))
        await h.start(timings)
        made.append(h)
        return h

    yield make
    for h in made:
        await h.stop()
