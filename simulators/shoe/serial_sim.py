"""The shoe on a serial line: the firmware behind a real pseudo-terminal.

``link`` (optional) is a stable symlink to the current pty, like udev's /dev/serial/by-id names:
``unplug()`` removes the pty and the link (the driver sees EOF / I/O errors), ``replug()`` makes a
new pty and points the link at it, so a driver configured with the link reconnects by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable
from pathlib import Path

from simulators.pty_port import PtyPort, point_link
from simulators.shoe.firmware import ShoeFirmware


class SerialShoeSim:
    def __init__(self, firmware: ShoeFirmware, link: str | os.PathLike[str] | None = None) -> None:
        self.firmware = firmware
        self.link = Path(link) if link is not None else None
        self.port: PtyPort | None = None
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def path(self) -> str:
        """What the driver opens: the stable link if any, else the pty's own path."""
        if self.link is not None:
            return str(self.link)
        assert self.port is not None, "start() first"
        return self.port.path

    async def start(self) -> None:
        await self.replug()
        self._tasks.append(asyncio.create_task(self.firmware.run(), name="shoe-firmware"))

    async def replug(self) -> None:
        port = PtyPort()
        await port.open()
        self.port = port
        if self.link is not None:
            point_link(self.link, port.path)
        self._tasks.append(asyncio.create_task(self._pump(port), name="shoe-pty-rx"))
        self.firmware.attach(self._writer(port))

    def _writer(self, port: PtyPort) -> Callable[[bytes], None]:
        def write(data: bytes) -> None:
            with contextlib.suppress(ConnectionError, OSError):
                port.write(data)

        return write

    async def _pump(self, port: PtyPort) -> None:
        assert port.reader is not None
        with contextlib.suppress(OSError, ConnectionError):
            while data := await port.reader.read(4096):
                self.firmware.feed(data)

    async def unplug(self) -> None:
        """Cable pulled: the driver's tty reports EOF / I/O errors from now on."""
        self.firmware.detach()
        if self.link is not None:
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()
        port, self.port = self.port, None
        if port is not None:
            port.close()
        for task in [t for t in self._tasks if t.get_name() == "shoe-pty-rx"]:
            task.cancel()
            self._tasks.remove(task)

    async def stop(self) -> None:
        await self.unplug()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()

    async def __aenter__(self) -> SerialShoeSim:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
