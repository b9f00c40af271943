"""A serial line is asked for low latency once open (drivers/serial_link.py): a USB-serial
adapter otherwise holds a short frame back for up to its 16 ms latency timer. A pty has no such
setting: it refuses, and the line opens and carries bytes all the same."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import serial

from drivers.serial_link import open_serial
from simulators.pty_port import PtyPort


async def test_an_opened_line_is_asked_for_low_latency(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[bool] = []
    real = serial.Serial.set_low_latency_mode

    def watched(self: Any, on: bool) -> None:  # pyserial's own, run as it is (the pty refuses it)
        asked.append(on)
        real(self, on)

    monkeypatch.setattr(serial.Serial, "set_low_latency_mode", watched)
    port = PtyPort()
    await port.open()
    try:
        reader, writer = await open_serial(port.path, 115200)
        try:
            assert asked == [True]
            port.write(b"#")
            assert await asyncio.wait_for(reader.read(1), 10.0) == b"#"
        finally:
            writer.close()
            await asyncio.gather(writer.wait_closed(), return_exceptions=True)
    finally:
        port.close()
