"""The one base every ``Device`` implementation derives from, after python-can's ``BusABC``:
it carries the lifecycle (``open``, ``close``, an idempotent ``shutdown``, ``async with``), the
named commands and the event stream, so a driver writes only what is its own (``docs/devices.md``).

A subclass gives ``_start`` (open the transport, start its session: raise ``DeviceUnavailable``
when the address cannot be opened at all), ``_stop`` (release everything ``_start`` took),
``health`` and the table of its commands (``commands``). Events go to the ``sink`` the device
was built with, else into ``self.queue`` for ``events()``.

As with ``BusABC.shutdown``, closing twice, closing a device never opened and closing after a
failed open are all no-ops the second time; a device closed can be opened again.
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Mapping
from typing import Any, Self

from drivers.device import Health
from drivers.device_kit import Command, EventSink, dispatch, queued_events
from drivers.events import DeviceEvent

log = logging.getLogger(__name__)


class DeviceBase(ABC):
    """Lifecycle, commands and events of one device; see the module docstring."""

    def __init__(self, name: str, *, sink: EventSink | None = None) -> None:
        self.name = name
        self.sink = sink
        #: events when the device was built without a sink (``events()`` reads them)
        self.queue: asyncio.Queue[DeviceEvent] = asyncio.Queue()
        self._open = False
        self._closed = asyncio.Event()

    # -- what a subclass gives
    @abstractmethod
    async def _start(self) -> None:
        """Open the transport and start the session."""

    @abstractmethod
    async def _stop(self) -> None:
        """Stop the session and release the transport (only called after ``_start`` succeeded)."""

    @abstractmethod
    def health(self) -> Health:
        """The device's health now."""

    def commands(self) -> Mapping[str, Command]:
        """The named commands this device takes (none by default)."""
        return {}

    # -- the lifecycle
    @property
    def is_open(self) -> bool:
        return self._open

    async def open(self) -> None:
        """Open once (a second call while open does nothing); ``DeviceUnavailable`` when the
        address cannot be opened at all, with nothing left running."""
        if self._open:
            return
        await self._start()
        self._open = True
        self._closed.clear()

    async def shutdown(self) -> None:
        """Stop and release everything; idempotent (``BusABC.shutdown``)."""
        if not self._open:
            return
        self._open = False
        self._closed.set()
        await self._stop()

    async def close(self) -> None:
        """The ``Device`` contract's name for ``shutdown``."""
        await self.shutdown()

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.shutdown()

    # -- events and commands
    def emit(self, event: DeviceEvent) -> None:
        """Deliver one event: to the sink, else to ``events()``."""
        if self.sink is not None:
            self.sink(event)
        else:
            self.queue.put_nowait(event)

    def events(self) -> AsyncIterator[DeviceEvent]:
        return queued_events(self.queue, self._closed, self.sink, self.name)

    async def command(self, name: str, **arguments: Any) -> None:
        await dispatch(self.name, self.commands(), name, arguments)
