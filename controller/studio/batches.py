"""Group commit: calls that arrive while earlier ones are being decided are decided together.

A bet request costs the book a few round trips and commits to PostgreSQL; 2,000 players betting
within seconds made that 2,000 times a few transactions, each waiting on its own commit. Here a
call waits for the others arriving within ``window_s`` (a few milliseconds), or for a free slot
(``at_once`` batches run at a time): everything that arrived meanwhile, up to ``most``, goes into
the next batch, written with one statement per step and committed once. Under load the batches
grow by themselves with the time a batch takes.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Batches(Generic[T, R]):
    """``submit(item)`` answers with ``run(batch)[i]``, ``batch[i]`` being ``item``."""

    def __init__(self, run: Callable[[list[T]], Awaitable[list[R]]], *, at_once: int, most: int,
                 window_s: float = 0.0) -> None:
        self._run = run
        self.at_once = at_once
        self.most = most
        self.window_s = window_s
        self._timer: asyncio.TimerHandle | None = None
        self._waiting: deque[tuple[T, asyncio.Future[R]]] = deque()
        self._running: set[asyncio.Task[None]] = set()
        #: batches run so far and the items in them (for the bench and the tests)
        self.batches = 0
        self.items = 0

    async def submit(self, item: T) -> R:
        future: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._waiting.append((item, future))
        if len(self._waiting) >= self.most or self.window_s <= 0:
            self._start()
        elif self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.window_s, self._start)
        return await future

    def _start(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        while self._waiting and len(self._running) < self.at_once:
            batch = [self._waiting.popleft() for _ in range(min(self.most, len(self._waiting)))]
            task = asyncio.create_task(self._decide(batch), name="studio-batch")
            self._running.add(task)
            task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._running.discard(task)
        self._start()  # those waiting for the slot have waited long enough

    async def _decide(self, batch: list[tuple[T, asyncio.Future[R]]]) -> None:
        self.batches += 1
        self.items += len(batch)
        try:
            answers = await self._run([item for item, _ in batch])
        except Exception as exc:  # noqa: BLE001 -- each caller hears it (the book out of reach: "unavailable")
            for _, future in batch:
                if not future.done():
                    future.set_exception(exc)
            return
        except BaseException:  # cancelled (the studio stops): so are its callers
            for _, future in batch:
                future.cancel()
            raise
        for (_, future), answer in zip(batch, answers, strict=True):
            if not future.done():  # its caller may have gone (the connection closed): the decision stands
                future.set_result(answer)

    async def close(self) -> None:
        """Let the batches being decided finish (their decisions are written either way)."""
        await asyncio.gather(*self._running, return_exceptions=True)
