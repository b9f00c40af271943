"""The CSP/1 card shoe as a ``Device`` (``docs/devices.md``): a ``ShoeSession`` over a serial or
USB transport, opened once (an address that cannot be opened raises at ``open``), then
reconnecting on its own for as long as it is open.

Commands: ``lock``, ``unlock``, ``new_shoe(shoe_id, decks)``, ``ping``, ``reset``.
"""

from __future__ import annotations

import dataclasses

from drivers.base import SessionDevice
from drivers.clock import SYSTEM_CLOCK, Clock
from drivers.device import Health
from drivers.device_kit import Command, EventSink
from drivers.errors import DeviceAddressError
from drivers.registry import BuildOptions, DeviceAddress
from drivers.shoe.session import SessionConfig, ShoeSession
from drivers.shoe.transport import Transport
from drivers.shoe.transport_serial import BAUDRATE, SerialTransport
from drivers.shoe.transport_usb import DEFAULT_PID, DEFAULT_VID, UsbTransport, parse_vid_pid


class ShoeDevice(SessionDevice):
    """One shoe behind any ``Transport``."""

    def __init__(self, transport: Transport, *, name: str = "shoe", clock: Clock = SYSTEM_CLOCK,
                 config: SessionConfig | None = None, sink: EventSink | None = None) -> None:
        session = ShoeSession(transport, device=name, clock=clock, config=config, on_event=self.emit)
        # the table takes inputs once open returns: give the shoe the time to say who it is
        super().__init__(name, session, identify_wait=session.config.identify_timeout + 1.0, sink=sink)
        self.address = transport.name
        self.session = session
        self._commands: dict[str, Command] = {
            "lock": self.session.lock,
            "unlock": self.session.unlock,
            "new_shoe": self.session.new_shoe,
            "ping": self.session.ping,
            "reset": self.session.reset,
        }

    def commands(self) -> dict[str, Command]:
        return self._commands

    def health(self) -> Health:
        receiver = self.session.receiver
        fault = None
        if receiver.impostor is not None:
            fault = f"shoe {receiver.impostor} is not this table's shoe {receiver.identity}"
        elif self.session.open_error is not None:
            fault = str(self.session.open_error)
        elif not receiver.proven:
            fault = f"the shoe at {self.address} has not said HELLO: its identity is not proven"
        return Health(online=self.session.online, fault=fault, last_seen=self.session.last_seen,
                      identity=receiver.identity)


# --------------------------------------------------------------------------- registry builders
def _config(address: DeviceAddress, options: BuildOptions, identity: str | None) -> SessionConfig:
    """The session's settings: extra ``session_config``, the identity from the URL or extra ``identity``."""
    config = options.extra("session_config", SessionConfig) or SessionConfig()
    identity = identity or options.extra("identity", str)
    return dataclasses.replace(config, identity=identity) if identity is not None else config


def serial_shoe(address: DeviceAddress, options: BuildOptions) -> ShoeDevice:
    """``serial:///dev/ttyUSB0?baud=115200&identity=SN42`` (or a bare path, or a pyserial URL)."""
    params = address.options(baud=BAUDRATE, identity=None)
    return ShoeDevice(SerialTransport(address.target, params["baud"]), name=options.name, clock=options.clock,
                      config=_config(address, options, params["identity"]), sink=options.sink)


def usb_shoe(address: DeviceAddress, options: BuildOptions) -> ShoeDevice:
    """``usb://1209:0001?identity=SN42``; extra ``backend``: a pyusb backend (None: libusb)."""
    params = address.options(identity=None)
    try:
        vid, pid = parse_vid_pid(address.target or f"{DEFAULT_VID:04x}:{DEFAULT_PID:04x}")
    except ValueError as exc:
        raise DeviceAddressError(f"{address.url}: {exc}") from None
    transport = UsbTransport(vid, pid, options.extras.get("backend"))
    return ShoeDevice(transport, name=options.name, clock=options.clock,
                      config=_config(address, options, params["identity"]), sink=options.sink)
