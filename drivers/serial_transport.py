"""Bytes over a serial line (a tty path or any pyserial URL) through the shared ``open_serial``
seam, opened exclusively (``docs/devices.md``): the transport of the wheel and the serial shoe."""

from __future__ import annotations

import asyncio

from drivers.serial_link import open_serial
from drivers.transport import TransportClosed


class SerialTransport:
    """8N1 at ``baudrate``; a ``BufferedTransport``."""

    def __init__(self, url: str, baudrate: int) -> None:
        self.url = url
        self.name = url
        self.baudrate = baudrate
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        await self.close()
        self._reader, self._writer = await open_serial(self.url, self.baudrate)

    async def read(self) -> bytes:
        if self._reader is None:
            raise TransportClosed(f"{self.url} is not open")
        try:
            data = await self._reader.read(4096)
        except OSError as exc:  # EIO when the far end of a pty or a USB-serial adapter vanished
            raise TransportClosed(f"{self.url}: i/o error: {exc}") from exc
        if not data:
            raise TransportClosed(f"{self.url}: end of file")
        return data

    def write_nowait(self, data: bytes) -> None:
        writer = self._writer
        if writer is None or writer.is_closing():
            raise TransportClosed(f"{self.url} is not open")
        try:
            writer.write(data)
        except (OSError, RuntimeError) as exc:
            raise TransportClosed(f"{self.url}: {exc}") from exc

    async def write(self, data: bytes) -> None:
        self.write_nowait(data)
        assert self._writer is not None
        try:
            await self._writer.drain()
        except (OSError, RuntimeError) as exc:
            raise TransportClosed(f"{self.url}: {exc}") from exc

    async def close(self) -> None:
        """Release the port (its exclusive lock goes with the descriptor); safe to call twice."""
        writer, self._writer, self._reader = self._writer, None, None
        if writer is not None:
            writer.close()
            try:
                await writer.wait_closed()
            except (OSError, RuntimeError):
                pass
