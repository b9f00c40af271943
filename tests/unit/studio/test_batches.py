"""Group commit of the book's bet requests (controller/studio/batches.py): calls that arrive
together are decided in one batch, each caller gets its own answer, a failed batch tells each of
its callers, and a call alone is not held past the window."""

from __future__ import annotations

import asyncio

import pytest

from controller.studio.batches import Batches


class Recorder:
    def __init__(self) -> None:
        self.batches: list[list[int]] = []
        self.release = asyncio.Event()
        self.release.set()

    async def __call__(self, items: list[int]) -> list[int]:
        self.batches.append(list(items))
        await self.release.wait()
        if -1 in items:
            raise ConnectionError("the book is out of reach")
        return [n * 10 for n in items]


async def test_calls_arriving_together_are_one_batch_and_each_gets_its_answer() -> None:
    run = Recorder()
    batches = Batches(run, at_once=1, most=100, window_s=0.05)
    assert await asyncio.gather(*(batches.submit(n) for n in range(20))) == [n * 10 for n in range(20)]
    assert run.batches == [list(range(20))]


async def test_calls_arriving_while_a_batch_runs_make_the_next_one() -> None:
    run = Recorder()
    run.release.clear()
    batches = Batches(run, at_once=1, most=100)
    first = asyncio.ensure_future(batches.submit(0))
    while not run.batches:
        await asyncio.sleep(0)
    rest = [asyncio.ensure_future(batches.submit(n)) for n in range(1, 6)]
    await asyncio.sleep(0)
    run.release.set()
    assert await first == 0 and await asyncio.gather(*rest) == [10, 20, 30, 40, 50]
    assert run.batches == [[0], [1, 2, 3, 4, 5]]


async def test_a_batch_is_at_most_most_and_a_full_one_does_not_wait_for_the_window() -> None:
    run = Recorder()
    batches = Batches(run, at_once=2, most=3, window_s=60.0)
    answers = await asyncio.wait_for(asyncio.gather(*(batches.submit(n) for n in range(6))), 5)
    assert answers == [n * 10 for n in range(6)] and run.batches == [[0, 1, 2], [3, 4, 5]]


async def test_a_failed_batch_tells_each_of_its_callers() -> None:
    batches = Batches(Recorder(), at_once=1, most=100, window_s=0.01)
    results = await asyncio.gather(batches.submit(1), batches.submit(-1), return_exceptions=True)
    assert [type(r) for r in results] == [ConnectionError, ConnectionError]
    assert await batches.submit(2) == 20  # the next batch goes on


@pytest.mark.parametrize("window_s", [0.0, 0.01])
async def test_a_call_alone_is_decided_at_once_or_after_the_window(window_s: float) -> None:
    run = Recorder()
    batches = Batches(run, at_once=1, most=100, window_s=window_s)
    loop = asyncio.get_running_loop()
    began = loop.time()
    assert await batches.submit(7) == 70
    assert loop.time() - began < 5  # not held: a window is milliseconds
    assert run.batches == [[7]]
