"""Card shoe driver (CSP/1): codec, serial and USB transports, session, events."""

from drivers.shoe.session import CommandFailed, SessionConfig, SessionStats, ShoeSession
from drivers.shoe.transport import Transport, TransportClosed
from drivers.shoe.transport_serial import SerialTransport
from drivers.shoe.transport_usb import DEFAULT_PID, DEFAULT_VID, UsbTransport, parse_vid_pid

__all__ = [
    "DEFAULT_PID",
    "DEFAULT_VID",
    "CommandFailed",
    "SerialTransport",
    "SessionConfig",
    "SessionStats",
    "ShoeSession",
    "Transport",
    "TransportClosed",
    "UsbTransport",
    "parse_vid_pid",
]
