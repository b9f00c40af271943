"""The one small interface every byte link satisfies (a serial line, the shoe's USB pipe, an
in-memory test line), so a session drives any of them and the device never opens a port itself.
A transport moves bytes only: framing is the codec's job, retries and reconnects the session's."""

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


class BufferedTransport(Transport, Protocol):
    """A transport that also takes bytes without waiting (a line protocol answering from a
    synchronous rule, as the wheel's ``*R`` after a miss-spin)."""

    def write_nowait(self, data: bytes) -> None:
        """Queue bytes to send; TransportClosed when the link is not open."""
