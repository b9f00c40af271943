"""The shared wait helper: returns as soon as the condition holds, fails saying what did not."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from tests.support.waiting import until, wait_until


def test_wait_until_returns_once_the_condition_holds() -> None:
    calls = iter([False, False, True])
    wait_until(lambda: next(calls), "the third check")


def test_wait_until_fails_naming_what_never_happened() -> None:
    with pytest.raises(AssertionError, match="the door opened: not within 0.05 s; it stayed shut"):
        wait_until(lambda: False, "the door opened", within=0.05, describe=lambda: "it stayed shut")


def test_wait_until_fails_at_once_when_the_process_exits() -> None:
    process = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    process.wait()
    with pytest.raises(AssertionError, match=r"exited \(3\) before the table was up"):
        wait_until(lambda: False, "the table was up", within=60, process=process)


def test_until_wakes_on_the_event() -> None:
    async def scenario() -> None:
        arrived = asyncio.Event()
        seen: list[int] = []

        async def deliver() -> None:
            for n in range(3):
                await asyncio.sleep(0)
                seen.append(n)
                arrived.set()

        task = asyncio.create_task(deliver())
        await until(lambda: len(seen) == 3, "three messages", arrived=arrived, within=5)
        await task

    asyncio.run(scenario())


def test_until_fails_after_its_deadline() -> None:
    with pytest.raises(AssertionError, match="nothing: not within 0.05 s"):
        asyncio.run(until(lambda: False, "nothing", within=0.05))
