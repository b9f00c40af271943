"""The one way a test waits: until a condition holds, woken by an event or a short poll.

A fixed ``sleep`` guesses how long a loaded machine needs; these wait exactly as long as it
takes and fail with what never happened. ``within`` is a deadline for a hung run, never a
timing under test (timings are measured on the injected clock or in ``bench/``).
"""

from __future__ import annotations

import asyncio
import subprocess
import time
from collections.abc import Callable

#: how often a condition with no event to wait on is checked again (another process writes it)
POLL_S = 0.02


def _detail(describe: Callable[[], str] | None) -> str:
    return f"; {describe()}" if describe is not None else ""


def wait_until(condition: Callable[[], bool], what: str, *, within: float = 30.0,
               process: subprocess.Popen[bytes] | None = None,
               describe: Callable[[], str] | None = None) -> None:
    """Block until ``condition()`` holds (it reads what another process or thread writes).

    Fails at once if ``process`` exits first, and after ``within`` wall seconds otherwise."""
    deadline = time.monotonic() + within
    while not condition():
        if process is not None and process.poll() is not None:
            raise AssertionError(f"the process exited ({process.returncode}) before {what}{_detail(describe)}")
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {within} s{_detail(describe)}")
        time.sleep(POLL_S)


async def until(condition: Callable[[], bool], what: str, *, within: float = 30.0,
                arrived: asyncio.Event | None = None,
                describe: Callable[[], str] | None = None) -> None:
    """Await until ``condition()`` holds, checked whenever ``arrived`` is set (a sink sets it
    per message) or, with no event, every ``POLL_S``; AssertionError after ``within`` s."""
    deadline = time.monotonic() + within
    while not condition():
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"{what}: not within {within} s{_detail(describe)}")
        if arrived is None:
            await asyncio.sleep(min(POLL_S, remaining))
            continue
        arrived.clear()
        if condition():
            return
        try:
            await asyncio.wait_for(arrived.wait(), min(remaining, 0.2))
        except TimeoutError:
            pass
