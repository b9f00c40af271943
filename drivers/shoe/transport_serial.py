"""CSP/1 over serial: 115200 8N1 through the shared serial transport (tty path or URL), opened
exclusively (``docs/devices.md``)."""

from __future__ import annotations

from drivers import serial_transport

BAUDRATE = 115200


class SerialTransport(serial_transport.SerialTransport):
    def __init__(self, url: str, baudrate: int = BAUDRATE) -> None:
        super().__init__(url, baudrate)
