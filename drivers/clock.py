"""Injectable time for sessions and simulators, so timing rules can be tested fast.

The vendor's exception rules are in seconds (3 s launch-fail grace, 5 s ball-not-sensed grace);
a ``ScaledClock`` shared by a driver and a simulator runs the same protocol ``factor`` times
faster over a real transport, keeping every boundary in the same place relative to the others.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    def monotonic(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class ScaledClock:
    """Protocol time that passes ``factor`` times faster than wall time."""

    def __init__(self, factor: float) -> None:
        if factor <= 0:
            raise ValueError("factor must be positive")
        self.factor = factor
        self._origin = time.monotonic()

    def monotonic(self) -> float:
        return self._origin + (time.monotonic() - self._origin) * self.factor

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(seconds, 0.0) / self.factor)


SYSTEM_CLOCK = SystemClock()
