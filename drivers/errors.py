"""One exception tree for every driver, so the table catches driver failures by kind and
never a bare ``Exception`` (``docs/devices.md``, "Errors").

::

    DriverError                      any failure a driver reports
     +-- DeviceUnavailable           the device cannot be reached: port missing, busy, unplugged
     |    +-- DeviceNotFound         nothing at that address (no tty, no USB VID:PID)
     |    +-- DeviceBusy             another process holds the port (exclusive open refused)
     +-- DeviceDisconnected          a link that was open went away (the transport closed)
     +-- DeviceTimeout               the device did not answer a command in time
     +-- CommandRefused              the device answered a command with a refusal (NAK, error)
     +-- UnsupportedCommand          a command name (or its arguments) this device does not take
     +-- DeviceIdentityMismatch      after a (re)connect the device is not the one first seen
     +-- ProtocolError               bytes that do not follow the protocol
     |    +-- CodecError             one frame or line that does not decode (each codec's own)
     +-- DeviceAddressError          a device URL or address that names no registered device

Each class keeps the builtin it stands for as a second base where one exists
(``DeviceTimeout`` is a ``TimeoutError``, ``DeviceDisconnected`` a ``ConnectionError``), so
code written against the builtins keeps working. A caller's own mistake in code (subscribing
after the link started, an impossible qos) stays a builtin ``RuntimeError``/``ValueError``: a bug
to fix, not a device failure to handle. A message says what an operator can do:
"cannot open /dev/ttyUSB9: no such device", not "LOCK not acknowledged after 20 tries".
"""

from __future__ import annotations


class DriverError(Exception):
    """Any failure a driver reports."""


class DeviceUnavailable(DriverError, ConnectionError):
    """The device cannot be reached: port missing or busy, cable pulled."""


class DeviceNotFound(DeviceUnavailable):
    """Nothing answers at that address (no such tty, no USB device with that VID:PID)."""


class DeviceBusy(DeviceUnavailable):
    """Another process holds the port; serial ports are opened exclusively."""


class DeviceDisconnected(DriverError, ConnectionError):
    """A link that was open went away."""


class DeviceTimeout(DriverError, TimeoutError):
    """The device did not answer in time."""


class CommandRefused(DriverError):
    """The device answered a command with a refusal."""


class UnsupportedCommand(DriverError, ValueError):
    """A command name, or arguments, that this kind of device does not take."""


class DeviceIdentityMismatch(DriverError):
    """After a (re)connect the device's identity (serial number) is not the one expected."""


class ProtocolError(DriverError, ValueError):
    """Bytes that do not follow the device's protocol."""


class CodecError(ProtocolError):
    """One frame, line or message that does not decode; each codec subclasses it.

    The one convention of every codec (shoe, wheel, spots): ``reason`` is a short stable code or
    phrase (what a counter or a test keys on), ``detail`` says more for a person, ``raw`` holds
    the offending input (trimmed by the codec). A decoder that must not raise (the shoe's
    incremental ``Decoder``, the wheel's ``parse_line``) hands the same error back as a value.
    """

    def __init__(self, reason: str, detail: str = "", *, raw: bytes | str = b"") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail
        self.raw = raw


class DeviceAddressError(DriverError, ValueError):
    """A device URL or address that names no registered device kind."""
