"""The shoe on an in-memory line: no pty, no threads, and a hook on each direction that damages
the bytes (after pymodbus's ``NullModem.set_manipulator``), for fast fault tests of the driver.

A manipulator takes the bytes of one write and returns the pieces actually delivered: none
(dropped), one (maybe corrupted or duplicated) or several (split, delivered as separate reads).
``LineFaults.apply`` is one. ``transport`` is what the driver opens, a CSP/1 ``Transport``;
Bytes the shoe sends while no host has the line open wait for it (up to ``BACKLOG``), as in a
USB FIFO, so the ``HELLO`` of a shoe plugged in first is read. ``unplug()`` is the cable pulled
(the driver reads ``TransportClosed``, and a new ``open`` is ``DeviceNotFound`` until ``replug()``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from drivers.errors import DeviceNotFound
from drivers.shoe.transport import TransportClosed
from simulators.shoe.firmware import ShoeFirmware

Manipulator = Callable[[bytes], list[bytes]]
BACKLOG = 65536  # bytes the line keeps while no host reads it (a USB FIFO's worth, and more)


def _intact(data: bytes) -> list[bytes]:
    return [data]


class MemoryTransport:
    """The host's end of the line (``drivers.shoe.transport.Transport``)."""

    def __init__(self, line: MemoryShoeSim) -> None:
        self._line = line
        self.name = "mem:shoe"
        self._queue: asyncio.Queue[bytes | None] | None = None

    async def open(self) -> None:
        if not self._line.plugged:
            raise DeviceNotFound(f"cannot open {self.name}: no such device (unplugged)")
        self._queue = asyncio.Queue()
        self._line.connect(self._queue)

    async def read(self) -> bytes:
        queue = self._queue
        if queue is None:
            raise TransportClosed(f"{self.name} is not open")
        data = await queue.get()
        if data is None:
            self._queue = None
            raise TransportClosed(f"{self.name}: unplugged")
        return data

    async def write(self, data: bytes) -> None:
        if self._queue is None or not self._line.plugged:
            raise TransportClosed(f"{self.name} is not open")
        self._line.to_device(data)

    async def close(self) -> None:
        if self._queue is not None:
            self._line.disconnect(self._queue)
        self._queue = None


class MemoryShoeSim:
    def __init__(self, firmware: ShoeFirmware, to_host: Manipulator | None = None,
                 to_shoe: Manipulator | None = None) -> None:
        self.firmware = firmware
        self.plugged = False
        self.transport = MemoryTransport(self)
        self._to_host = to_host or _intact
        self._to_shoe = to_shoe or _intact
        self._host: asyncio.Queue[bytes | None] | None = None
        self._backlog = bytearray()
        self._task: asyncio.Task[None] | None = None

    def set_manipulator(self, to_host: Manipulator | None = None, to_shoe: Manipulator | None = None) -> None:
        """Damage from now on what the shoe sends (``to_host``) and what it receives (``to_shoe``)."""
        self._to_host = to_host or _intact
        self._to_shoe = to_shoe or _intact

    # host side
    def connect(self, queue: asyncio.Queue[bytes | None]) -> None:
        self._host = queue
        if self._backlog:  # what the shoe said before the host listened (its HELLO), as a FIFO keeps it
            self._from_shoe(bytes(self._backlog))
            self._backlog.clear()

    def disconnect(self, queue: asyncio.Queue[bytes | None]) -> None:
        if self._host is queue:
            self._host = None

    def to_device(self, data: bytes) -> None:
        for piece in self._to_shoe(data):
            self.firmware.feed(piece)

    # shoe side
    def _from_shoe(self, data: bytes) -> None:
        host = self._host
        if host is None:
            self._backlog += data[: BACKLOG - len(self._backlog)]
            return
        for piece in self._to_host(data):
            host.put_nowait(piece)

    async def start(self) -> None:
        self.replug()
        self._task = asyncio.create_task(self.firmware.run(), name="shoe-firmware")

    def replug(self) -> None:
        self.plugged = True
        self.firmware.attach(self._from_shoe)

    async def unplug(self) -> None:
        self.firmware.detach()
        self.plugged = False
        self._backlog.clear()
        if self._host is not None:
            self._host.put_nowait(None)
            self._host = None

    async def stop(self) -> None:
        await self.unplug()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
