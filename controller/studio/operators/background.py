"""A loop that runs in its own task, sleeps between passes until woken or a poll interval passes,
and stops by cancellation: the retry worker's and the feed publisher's shape."""

from __future__ import annotations

import asyncio
import contextlib


class Background:
    def __init__(self, name: str) -> None:
        self.name = name
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def wake(self) -> None:
        """There is work: the next pass starts now rather than at the next poll."""
        self._wake.set()

    async def nap(self, seconds: float) -> None:
        """Until woken, or ``seconds``."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await self._wake.wait()
        self._wake.clear()

    async def run(self) -> None:
        """The loop itself (a subclass's): passes, with ``nap`` between them."""
        raise NotImplementedError

    def start(self) -> None:
        self._task = asyncio.create_task(self.run(), name=self.name)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
