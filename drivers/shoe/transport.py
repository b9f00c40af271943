"""The one small interface both CSP/1 transports (serial, USB) satisfy, so one session drives
either. A transport moves bytes only: framing is the codec's job, retries the session's."""

from __future__ import annotations

from typing import Protocol

from drivers.errors import DeviceDisconnected


class TransportClosed(DeviceDisconnected):
    """The link is gone (cable pulled, device vanished, port closed): reconnect."""


class Transport(Protocol):
    #: Where it connects, for events and logs (``/dev/ttyUSB0``, ``usb:1209:0001``).
    name: str

    async def open(self) -> None:
        """Connect; raises ``DeviceUnavailable`` (``DeviceNotFound``, ``DeviceBusy``) when the
        device is not there or is held by another process."""

    async def read(self) -> bytes:
        """Next bytes received (at least one); TransportClosed when the link dropped."""

    async def write(self, data: bytes) -> None:
        """Send bytes; TransportClosed when the link dropped."""

    async def close(self) -> None:
        """Release the link; safe to call twice or after a failure."""
