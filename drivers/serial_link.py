"""The one seam through which drivers open a serial line (a tty path or any pyserial URL,
e.g. ``socket://host:port`` for a network test rig), as asyncio streams (see ``docs/devices.md``).

Ports are opened exclusively (pyserial's ``exclusive=True``, an ``flock`` on the tty), so a
second process cannot read the same wheel or shoe; what goes wrong at open is translated into
the driver error tree with a message an operator can act on.

That includes a tty that vanishes while it is being opened (a USB-serial adapter pulled, or
bouncing as it is plugged in): pyserial then lets ``termios.error`` out of its open, which is no
``OSError``; left alone it ended the shoe's reconnect loop for good.

A line is asked for low latency once open (Linux's ``ASYNC_LOW_LATENCY``): a USB-serial adapter
(FTDI's) otherwise holds bytes until 64 have come or its latency timer runs out, 16 ms by
default, so a card frame (some 25 bytes) reached the host up to 16 ms late. A line without the
setting (a pty, a network URL) is used as it is.
"""

from __future__ import annotations

import asyncio
import errno
import termios

import serial
import serial_asyncio_fast

from drivers.errors import DeviceBusy, DeviceNotFound, DeviceUnavailable

_MISSING = {errno.ENOENT, errno.ENODEV, errno.ENXIO}
_BUSY = {errno.EWOULDBLOCK, errno.EAGAIN, errno.EBUSY}


def open_error(url: str, exc: OSError) -> DeviceUnavailable:
    """``serial.SerialException`` (or any OSError at open) as the driver error it stands for."""
    code = exc.errno
    text = str(exc)
    if code in _BUSY or "exclusively lock" in text:
        return DeviceBusy(f"cannot open {url}: another process holds the port (stop it first; ports are opened exclusively)")
    if code in _MISSING or "No such file" in text:
        return DeviceNotFound(f"cannot open {url}: no such device (check the cable and the configured port)")
    if code == errno.EACCES:
        return DeviceUnavailable(f"cannot open {url}: permission denied (add the user to the dialout group)")
    return DeviceUnavailable(f"cannot open {url}: {text}")


async def open_serial(url: str, baudrate: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """8N1, no flow control, exclusive; raises ``DeviceUnavailable`` (``DeviceNotFound``,
    ``DeviceBusy``) when the port cannot be opened."""
    try:
        reader, writer = await serial_asyncio_fast.open_serial_connection(
            url=url, baudrate=baudrate, bytesize=8, parity="N", stopbits=1, xonxoff=False, rtscts=False,
            exclusive=True,
        )
    except (serial.SerialException, OSError) as exc:
        raise open_error(url, exc) from exc
    except termios.error as exc:  # the tty hung up between pyserial's open and its tcflush
        raise open_error(url, OSError(*exc.args)) from exc
    except ValueError as exc:  # pyserial: an unknown URL scheme or a bad parameter
        raise DeviceUnavailable(f"cannot open {url}: {exc}") from exc
    low_latency(writer.transport.get_extra_info("serial"))
    return reader, writer


def low_latency(line: object) -> bool:
    """Ask ``line`` (a pyserial port) for low latency; whether it took it (a pty, a URL: no)."""
    setting = getattr(line, "set_low_latency_mode", None)
    if setting is None:
        return False
    try:
        setting(True)
    except (ValueError, OSError):  # pyserial's ValueError: the tty has no serial_struct (ENOTTY)
        return False
    return True
