"""The one seam through which drivers open a serial line (a tty path or any pyserial URL,
e.g. ``socket://host:port`` for a network test rig), as asyncio streams."""

from __future__ import annotations

import asyncio

import serial_asyncio_fast


async def open_serial(url: str, baudrate: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """8N1, no flow control; raises ``serial.SerialException`` (an OSError) when it cannot open."""
    return await serial_asyncio_fast.open_serial_connection(
        url=url, baudrate=baudrate, bytesize=8, parity="N", stopbits=1, xonxoff=False, rtscts=False
    )
