"""The device contract: what the table sees of any device (``docs/devices.md``).

As every CAN interface is a ``can.BusABC``, every Croupier device (card shoe, roulette wheel,
bet spots) is one ``Device``: it is opened, yields an async stream of typed events (pydantic
models deriving from ``drivers.events.DeviceEvent``), takes named commands, reports its health,
and closes. The table never calls a device's own methods by name; a simulator and the real
device differ only by the address the registry (``drivers.registry``) builds them from.

A device built with a ``sink`` (``registry.build(url, sink=...)``) calls it synchronously for
each event instead, before it acknowledges what it received: the table journals there, so an
event is durable before the device hears it arrived. ``events()`` is then not used.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from drivers.events import DeviceEvent


@dataclass(frozen=True, slots=True)
class Health:
    """A device's health as its driver knows it, with the driver's clock for "last seen"."""

    online: bool
    #: a fault that needs a person (re-power, clear a jam); None when healthy
    fault: str | None = None
    #: the driver clock's time of the last frame from the device (None: never heard)
    last_seen: float | None = None
    #: the device's identity (serial number) once it said it
    identity: str | None = None


@runtime_checkable
class Device(Protocol):
    """One device behind its driver."""

    #: the device's name on the table ("shoe", "wheel", "spots")
    name: str

    async def open(self) -> None:
        """Open the transport and start the session; raises ``DeviceUnavailable``
        (``DeviceNotFound``, ``DeviceBusy``) when the address cannot be opened at all (a later
        loss is reported as ``offline``/``online`` events and a reconnect, not raised)."""

    def events(self) -> AsyncIterator[DeviceEvent]:
        """The device's events, in the order the device produced them, until closed."""

    async def command(self, name: str, **arguments: Any) -> None:
        """Carry out one named command ("lock", "new_shoe", "start_game", "lamp" ...);
        raises a ``DriverError`` (``UnsupportedCommand`` before sending anything when the name
        or arguments do not fit, ``DeviceTimeout``, ``DeviceUnavailable`` ...) when it fails."""

    def health(self) -> Health:
        """The device's health now."""

    async def close(self) -> None:
        """Stop the session and release the transport; safe to call twice."""
