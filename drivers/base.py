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
import contextlib
import logging
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Mapping
from typing import Any, Protocol, Self

from drivers.device import Health
from drivers.device_kit import Command, EventSink, dispatch, queued_events, stop_task
from drivers.events import DeviceEvent
from drivers.link import LinkRunner
from drivers.transport import Transport

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

    def link_state(self) -> dict[str, Any] | None:
        """The device's link for a diagnostics dump (``LinkRunner.diagnostics``: state, last
        error, reconnects); None for a device without a link of its own."""
        return None

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


class LinkedSession(Protocol):
    """A device's conversation over one transport that reconnects on its own (its loop is the
    shared ``drivers.link.LinkRunner``): the shoe's and the wheel's sessions."""

    @property
    def transport(self) -> Transport: ...

    #: set once the device on the current link said who it is (or was reported unproven)
    identified: asyncio.Event
    #: the link's connect -> run -> lost -> back off cycle, and its state
    link: LinkRunner

    async def run(self, *, opened: bool = False) -> None:
        """The link's cycle until cancelled; ``opened``: the transport is already open."""


class SessionDevice(DeviceBase):
    """A device that is one ``LinkedSession``: opened once (an address that cannot be opened
    raises at ``open``), then reconnecting on its own for as long as it is open.

    ``open`` returns once the device said who it is, or after ``identify_wait`` seconds: the
    table takes inputs from then on."""

    def __init__(self, name: str, session: LinkedSession, *, identify_wait: float,
                 sink: EventSink | None = None) -> None:
        super().__init__(name, sink=sink)
        self._session = session
        self._identify_wait = identify_wait
        self._task: asyncio.Task[None] | None = None

    async def _start(self) -> None:
        """Open the transport (``DeviceNotFound``, ``DeviceBusy`` ... when it cannot be), then
        run the session: from here on a lost link is ``offline`` and a reconnect."""
        await self._session.transport.open()
        self._task = asyncio.create_task(self._session.run(opened=True), name=f"{self.name}-session")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._session.identified.wait(), self._identify_wait)

    async def _stop(self) -> None:
        task, self._task = self._task, None
        await stop_task(task)
        await self._session.transport.close()

    def link_state(self) -> dict[str, Any] | None:
        return self._session.link.diagnostics()
