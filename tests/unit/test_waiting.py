"""The shared wait helper: returns as soon as the condition holds, fails saying what did not."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from tests.support.waiting import Arrivals, until, wait_until


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


def test_until_reads_its_deadline_on_the_given_clock() -> None:
    class Frozen:
        """No time passes on it: a deadline on it is never reached, whatever the wall says."""

        def monotonic(self) -> float:
            return 0.0

    async def scenario() -> None:
        checks = iter([False] * 5 + [True])
        await until(lambda: next(checks), "the sixth check", within=0.0001, clock=Frozen())

    asyncio.run(scenario())


def test_arrivals_wake_until_and_name_the_last_ones() -> None:
    async def scenario() -> None:
        arrivals: Arrivals[str] = Arrivals()
        asyncio.get_running_loop().call_soon(arrivals, "online")
        await arrivals.until(lambda: arrivals.seen == ["online"], within=5)
        with pytest.raises(AssertionError, match=r"a card: not within 0.05 s; last arrivals: \['online'\]"):
            await arrivals.until(lambda: False, "a card", within=0.05)

    asyncio.run(scenario())


def test_until_awaited_reads_a_condition_only_an_await_can_read() -> None:
    from tests.support.waiting import until_awaited

    async def scenario() -> None:
        reads: list[int] = []

        async def check() -> bool:
            reads.append(1)
            await asyncio.sleep(0)
            return len(reads) >= 3

        await until_awaited(check, "the third read", within=5)
        assert len(reads) == 3
        with pytest.raises(AssertionError, match="never: not within 0.05 s"):
            await until_awaited(lambda: asyncio.sleep(0, result=False), "never", within=0.05)

    asyncio.run(scenario())
