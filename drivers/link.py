"""The one connect -> run -> lost -> back off -> reconnect loop of every link that reconnects
on its own: the shoe's and the wheel's lines, the MQTT link (spots, pit feed) and the back
office's persistent subscriber (``docs/devices.md``, "Reconnecting").

After aioesphomeapi's ``ReconnectLogic``, the loop (this module) is kept apart from the
connection (what one attempt does, given by the link) and from the policy and its state
(``drivers.reconnect.Reconnect``: the ``LinkState`` enum, capped exponential backoff, the outage
clock). A link gives one coroutine, ``attempt(up)``: connect, call ``up()`` once connected, run
until the link drops and return why (or raise one of the link's expected errors). The runner
counts the attempt, backs off on the injected clock and tries again until it is stopped; an
error nobody expected is logged and retried too, so a library surprise never ends a link for good.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from drivers.clock import SYSTEM_CLOCK, Clock
from drivers.reconnect import Backoff, LinkState, Reconnect

log = logging.getLogger(__name__)

T = TypeVar("T")

#: one attempt: connect, ``up()`` once connected, run until the link drops; why it dropped
Attempt = Callable[[Callable[[], None]], Awaitable[str]]


class LinkRunner:
    """Drives one link's attempts forever (``run``), or as a task (``start``/``stop``)."""

    def __init__(
        self,
        name: str,
        attempt: Attempt,
        *,
        backoff: Backoff | None = None,
        reconnect: Reconnect | None = None,
        clock: Clock = SYSTEM_CLOCK,
        errors: tuple[type[BaseException], ...] = (),
        describe: Callable[[BaseException], str] = str,
        delay: Callable[[str], float] | None = None,
        until_up: bool = False,
    ) -> None:
        """``errors``: what an attempt may raise when the link fails (``describe`` makes each a
        reason); ``delay(reason)``: the link's own wait before the next attempt (it must call
        ``reconnect.failed``), by default the backoff's; ``until_up``: ``run`` returns after the
        first attempt that connected (``retry``)."""
        if reconnect is None:
            if backoff is None:
                raise ValueError("a link runner needs a backoff or a reconnect policy")
            reconnect = Reconnect(backoff, clock)
        self.name = name
        self.reconnect = reconnect
        self.clock = reconnect.clock
        self._attempt = attempt
        self._errors = errors
        self._describe = describe
        self._delay = delay or reconnect.failed
        self._until_up = until_up
        self._task: asyncio.Task[None] | None = None

    # -- what it reports
    @property
    def state(self) -> LinkState:
        return self.reconnect.state

    @property
    def connected(self) -> bool:
        return self.reconnect.state is LinkState.CONNECTED

    def diagnostics(self) -> dict[str, Any]:
        """The link's state for a diagnostics dump (JSON-able, no secrets)."""
        down = self.reconnect.down_for()
        return {"state": self.reconnect.state.value, "connects": self.reconnect.connects,
                "attempts": self.reconnect.attempts, "failures": self.reconnect.failures,
                "last_error": self.reconnect.last_error or None,
                "down_for_s": None if down is None else round(down, 3)}

    # -- the loop
    async def run(self) -> None:
        """Attempt, back off, attempt again; returns only when cancelled (state ``closed``), or
        with ``until_up`` once an attempt connected."""
        try:
            while True:
                self.reconnect.connecting()
                try:
                    reason = await self._attempt(self.reconnect.connected)
                except self._errors as exc:
                    reason = self._describe(exc)
                except Exception as exc:  # a library surprise must not end the link for good
                    reason = repr(exc)
                    log.error("%s: unexpected link failure", self.name, exc_info=exc)
                if self._until_up and self.connected:
                    return
                await self.clock.sleep(self._delay(reason or "disconnected"))
        finally:
            self.reconnect.closed()

    def start(self) -> None:
        """Run as a task (a second call while running does nothing)."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self.run(), name=f"{self.name}-link")

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def stop(self) -> None:
        """Cancel the task and wait for it to end; the link is ``closed``."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.reconnect.closed()


async def retry(name: str, operation: Callable[[], Awaitable[T]], *, backoff: Backoff,
                errors: tuple[type[BaseException], ...], clock: Clock = SYSTEM_CLOCK,
                on_failure: Callable[[BaseException], None] | None = None) -> T:
    """``operation()`` again and again, backing off between tries on the one link loop, until it
    does not raise one of ``errors`` (a write while its database is away); what it returned.
    ``on_failure`` hears each of those errors; any other error is raised at once."""
    outcome: list[T] = []
    unexpected: list[BaseException] = []

    async def attempt(up: Callable[[], None]) -> str:
        try:
            outcome.append(await operation())
        except errors as exc:
            if on_failure is not None:
                on_failure(exc)
            raise
        except Exception as exc:  # noqa: BLE001 - not the link's failure: raised to the caller below
            unexpected.append(exc)
        up()
        return ""

    await LinkRunner(name, attempt, backoff=backoff, clock=clock, errors=errors, until_up=True).run()
    if unexpected:
        raise unexpected[0]
    return outcome[0]
