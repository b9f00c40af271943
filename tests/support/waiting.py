"""The one way a test waits: until a condition holds, woken by an event or a short poll.

A fixed ``sleep`` guesses how long a loaded machine needs; these wait exactly as long as it
takes and fail with what never happened. ``within`` on the wall is a deadline for a hung run,
never a timing under test: a timing under test is a ``within`` on the injected clock
(``clock=``, protocol seconds of a ``ScaledClock``), or a figure of ``bench/``.
"""

from __future__ import annotations

import asyncio
import subprocess
import time
from collections.abc import Awaitable, Callable
from typing import Any, Generic, Protocol, TypeVar

T = TypeVar("T")


class Clock(Protocol):
    """What ``until`` reads a deadline from: ``drivers.clock``'s clocks (a ``ScaledClock``)."""

    def monotonic(self) -> float: ...


#: how often a condition with no event to wait on is checked again (another process writes it)
POLL_S = 0.02


def _detail(describe: Callable[[], str] | None) -> str:
    return f"; {describe()}" if describe is not None else ""


def wait_until(condition: Callable[[], bool], what: str, *, within: float = 30.0,
               process: subprocess.Popen[Any] | None = None,
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
                describe: Callable[[], str] | None = None, clock: Clock | None = None,
                poll: float = POLL_S) -> None:
    """Await until ``condition()`` holds, checked whenever ``arrived`` is set (a sink sets it
    per message) or, with no event, every ``POLL_S``; AssertionError after ``within`` s.

    ``clock``: ``within`` is seconds of that clock (the protocol time of a ``ScaledClock`` the
    code under test runs on), not wall seconds. ``poll``: how often a condition with no event is
    checked (a tight loop that paces a simulated dealer checks more often)."""
    now = (clock or time).monotonic
    deadline = now() + within
    while not condition():
        remaining = deadline - now()
        if remaining <= 0:
            raise AssertionError(f"{what}: not within {within} s{_detail(describe)}")
        if arrived is None:
            await asyncio.sleep(poll)
            continue
        arrived.clear()
        if condition():
            return
        try:
            await asyncio.wait_for(arrived.wait(), 0.2 if clock is not None else min(remaining, 0.2))
        except TimeoutError:
            pass


async def until_awaited(check: Callable[[], Awaitable[bool]], what: str, *, within: float = 30.0,
                        describe: Callable[[], str] | None = None, poll: float = POLL_S) -> None:
    """``until`` for a condition only an await can read (a page's script evaluated through the
    DevTools protocol): checked every ``poll`` s; AssertionError after ``within`` wall seconds."""
    deadline = time.monotonic() + within
    while not await check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {within} s{_detail(describe)}")
        await asyncio.sleep(poll)


class Arrivals(Generic[T]):
    """A sink that keeps what it is given (``seen``) and wakes ``until`` at every arrival."""

    def __init__(self) -> None:
        self.seen: list[T] = []
        self.arrived = asyncio.Event()

    def __call__(self, item: T) -> None:
        self.seen.append(item)
        self.arrived.set()

    async def until(self, condition: Callable[[], bool], what: str = "the awaited arrivals", *,
                    within: float = 15.0) -> None:
        """``until(condition)``, woken per arrival; a failure lists the last few arrivals."""
        await until(condition, what, within=within, arrived=self.arrived, describe=self.describe)

    def describe(self) -> str:
        return f"last arrivals: {[getattr(item, 'type', item) for item in self.seen[-8:]]}"
