"""A simulator's end of a real pseudo-terminal: the driver opens ``path`` like any serial tty.

The simulator keeps the slave side open too, so a driver closing and re-opening the port does not
hang the line up; ``close()`` is the cable being pulled (the driver sees EOF / I/O errors).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pty
import tty
from pathlib import Path


def point_link(link: Path, target: str) -> None:
    """Point the stable ``link`` (like a /dev/serial/by-id name) at ``target``, atomically."""
    tmp = link.with_name(link.name + ".new")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    tmp.symlink_to(target)
    tmp.replace(link)


class PtyPort:
    def __init__(self) -> None:
        self._master, self._slave = pty.openpty()
        tty.setraw(self._master)
        tty.setraw(self._slave)
        self.path = os.ttyname(self._slave)
        self.reader: asyncio.StreamReader | None = None
        self._read_transport: asyncio.ReadTransport | None = None
        self._write_transport: asyncio.WriteTransport | None = None

    async def open(self) -> None:
        """Attach asyncio streams to the master side (call once, inside the running loop)."""
        loop = asyncio.get_running_loop()
        reader = self.reader = asyncio.StreamReader()
        rfile = os.fdopen(os.dup(self._master), "rb", buffering=0)
        wfile = os.fdopen(os.dup(self._master), "wb", buffering=0)
        self._read_transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), rfile
        )
        self._write_transport, _ = await loop.connect_write_pipe(asyncio.Protocol, wfile)

    def write(self, data: bytes) -> None:
        if self._write_transport is None or self._write_transport.is_closing():
            raise ConnectionError("pty port is closed")
        self._write_transport.write(data)

    async def read_line(self) -> bytes:
        """One line up to and including LF (CR-only lines are the caller's business)."""
        assert self.reader is not None, "call open() first"
        return await self.reader.readline()

    def close(self) -> None:
        for transport in (self._read_transport, self._write_transport):
            if transport is not None:
                transport.close()
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
        self._master = self._slave = -1

    async def __aenter__(self) -> PtyPort:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()
