"""The Cammegh SS2 roulette wheel as a ``Device`` (``docs/devices.md``): a ``WheelSession`` on a
serial line, opened once (an address that cannot be opened raises at ``open``), then reconnecting
with backoff for as long as it is open.

Commands: ``start_game``, ``power_on``, ``power_off``, ``repower``, ``restart``, ``poll``,
``self_test``, ``set_mode(mode)``. ``repower`` returns at once: the wheel's spin-down takes its
time, and the outcome is an event (``recovered``, or a ``command_timeout`` warning). A command
given while the line is (re)connecting waits ``connect_timeout`` seconds for it (a resumed round
starts its game right after the table starts).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from drivers.base import SessionDevice
from drivers.device import Health
from drivers.device_kit import Command, EventSink, stop_task
from drivers.errors import DriverError
from drivers.registry import BuildOptions, DeviceAddress
from drivers.serial_transport import SerialTransport
from drivers.wheel.core import Rules
from drivers.wheel.session import BAUDRATE, WheelNotConnected, WheelSession

log = logging.getLogger(__name__)


class WheelDevice(SessionDevice):
    """One wheel behind its ``WheelSession`` (built by the caller with its clock and rules; its
    events go through this device: give the session ``emit=device.emit``, or let ``serial_wheel``)."""

    def __init__(self, session: WheelSession, *, sink: EventSink | None = None, connect_timeout: float = 5.0) -> None:
        speed = float(getattr(session.clock, "factor", 1.0))  # protocol seconds per wall second
        # the table takes inputs once open returns: give the wheel the time to say who it is
        super().__init__(session.device, session, identify_wait=session.reply_timeout / speed + 1.0, sink=sink)
        self.session = session
        self.address = session.url
        self.connect_timeout = connect_timeout
        self._repower: asyncio.Task[None] | None = None
        self._commands: dict[str, Command] = {
            "start_game": self._connected(session.start_game),
            "power_on": self._connected(lambda: session.power(True)),
            "power_off": self._connected(lambda: session.power(False)),
            "repower": self._connected(self._start_repower),
            "restart": self._connected(session.restart),
            "poll": self._connected(session.poll),
            "self_test": self._connected(session.self_test),
            "set_mode": self._connected(session.set_mode),
        }

    def commands(self) -> dict[str, Command]:
        return self._commands

    def _connected(self, command: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[None]]:
        """``command`` once the line is open (its signature kept, for ``dispatch`` to check)."""

        @functools.wraps(command)
        async def call(*args: Any, **kwargs: Any) -> None:
            try:
                await asyncio.wait_for(self.session.connected.wait(), self.connect_timeout)
            except TimeoutError:
                error = self.session.open_error
                if error is not None:
                    raise type(error)(str(error)) from None
                raise WheelNotConnected(f"{self.name} at {self.address} is not connected") from None
            await command(*args, **kwargs)

        return call

    async def _start_repower(self) -> None:
        if self._repower is None or self._repower.done():
            self._repower = asyncio.create_task(self._repower_run(), name=f"{self.name}-repower")

    async def _repower_run(self) -> None:
        try:
            await self.session.repower()
        except DriverError as exc:  # the session has reported it (a command_timeout warning)
            log.warning("%s: re-power failed: %s", self.name, exc)

    def health(self) -> Health:
        session = self.session
        fault = None
        if session.impostor is not None:
            fault = f"wheel {session.impostor!r} is not this table's wheel {session.identity!r}"
        elif session.unproven is not None:
            fault = session.unproven
        elif session.open_error is not None:
            fault = str(session.open_error)
        elif session.core.needs_repower:
            fault = "the wheel needs re-powering (*P 1)"
        proven = session.impostor is None and session.unproven is None
        return Health(online=session.connected.is_set() and proven, fault=fault, last_seen=session.core.last_rx,
                      identity=session.identity)

    async def _stop(self) -> None:
        await stop_task(self._repower)
        await super()._stop()


# --------------------------------------------------------------------------- registry builder
def serial_wheel(address: DeviceAddress, options: BuildOptions) -> WheelDevice:
    """``serial:///dev/ttyUSB0?identity=BANNER`` (or a bare path, or a pyserial URL). Baud is
    the SS2's 9600. On a sped-up clock (a ``ScaledClock`` shared with a simulator) the line-health
    timeouts keep their wall-clock length: they are a matter of the host and the line."""
    params = address.options(identity=None, mode=-1, reply_timeout=1.0)
    speed = float(getattr(options.clock, "factor", 1.0))
    session = WheelSession(
        SerialTransport(address.target, BAUDRATE), device=options.name, clock=options.clock,
        mode=None if params["mode"] < 0 else params["mode"], identity=params["identity"] or options.extra("identity", str),
        reply_timeout=params["reply_timeout"] * speed, rules=Rules(silence_timeout=Rules.silence_timeout * speed),
    )
    device = WheelDevice(session, sink=options.sink)
    session.emit_to(device.emit)
    return device
