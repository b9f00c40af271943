"""CSP/1 over USB through pyusb: vendor interface, one bulk OUT and one bulk IN endpoint,
64-byte packets (a frame may span packets; the codec reassembles).

pyusb blocks, so one reader thread polls the IN endpoint with a short timeout and hands data to
the event loop with ``call_soon_threadsafe``; writes run in ``asyncio.to_thread``. A vanished
device (USBError errno 19, ENODEV, as libusb reports it) surfaces as ``TransportClosed`` and the
session reconnects by finding the VID:PID again (a device not there at open is ``DeviceNotFound``).
``backend`` is pyusb's: None picks the system libusb; the simulator passes its own backend and pyusb's core runs unchanged on top.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import usb.core
import usb.util

from drivers.errors import DeviceBusy, DeviceNotFound, DeviceUnavailable
from drivers.shoe.transport import TransportClosed

DEFAULT_VID = 0x1209
DEFAULT_PID = 0x0001
PACKET = 64
READ_TIMEOUT_MS = 100
WRITE_TIMEOUT_MS = 1000


def parse_vid_pid(text: str) -> tuple[int, int]:
    """``"1209:0001"`` -> (0x1209, 0x0001); ValueError otherwise."""
    vid, sep, pid = text.partition(":")
    if not sep:
        raise ValueError(f"expected VID:PID in hex, got {text!r}")
    v, p = int(vid, 16), int(pid, 16)
    if not (0 <= v <= 0xFFFF and 0 <= p <= 0xFFFF):
        raise ValueError(f"VID:PID out of range: {text!r}")
    return v, p


class UsbTransport:
    def __init__(self, vid: int = DEFAULT_VID, pid: int = DEFAULT_PID, backend: Any = None) -> None:
        self.vid, self.pid, self.backend = vid, pid, backend
        self.name = f"usb:{vid:04x}:{pid:04x}"
        self._dev: usb.core.Device | None = None
        self._ep_out: Any = None
        self._ep_in: Any = None
        self._queue: asyncio.Queue[bytes | BaseException] = asyncio.Queue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    async def open(self) -> None:
        await self.close()
        await asyncio.to_thread(self._open_blocking)
        self._queue = asyncio.Queue()
        self._stop = threading.Event()
        loop = asyncio.get_running_loop()
        self._thread = threading.Thread(
            target=self._read_loop, args=(loop, self._queue, self._stop), name=f"{self.name}-in", daemon=True
        )
        self._thread.start()

    def _open_blocking(self) -> None:
        try:
            dev = usb.core.find(idVendor=self.vid, idProduct=self.pid, backend=self.backend)
        except (usb.core.USBError, usb.core.NoBackendError) as exc:
            raise DeviceUnavailable(f"cannot open {self.name}: {exc}") from exc
        if dev is None:
            raise DeviceNotFound(f"cannot open {self.name}: no such device (is the shoe plugged in?)")
        try:
            dev.set_configuration()
            cfg = dev.get_active_configuration()
            intf = usb.util.find_descriptor(cfg, bInterfaceClass=0xFF)  # the vendor interface
            if intf is None:
                raise DeviceUnavailable(f"cannot open {self.name}: no vendor-specific interface (not a CSP/1 shoe?)")
            usb.util.claim_interface(dev, intf)

            def bulk(direction: int) -> Any:
                return usb.util.find_descriptor(
                    intf,
                    custom_match=lambda e: usb.util.endpoint_direction(e.bEndpointAddress) == direction
                    and usb.util.endpoint_type(e.bmAttributes) == usb.util.ENDPOINT_TYPE_BULK,
                )

            ep_out, ep_in = bulk(usb.util.ENDPOINT_OUT), bulk(usb.util.ENDPOINT_IN)
            if ep_out is None or ep_in is None:
                raise DeviceUnavailable(f"cannot open {self.name}: bulk endpoints missing (not a CSP/1 shoe?)")
        except usb.core.USBError as exc:
            usb.util.dispose_resources(dev)
            if exc.errno == 16:  # EBUSY: another process claimed the interface
                raise DeviceBusy(f"cannot open {self.name}: another process holds the shoe") from exc
            raise DeviceUnavailable(f"cannot open {self.name}: {exc}") from exc
        except DeviceUnavailable:
            usb.util.dispose_resources(dev)
            raise
        self._dev, self._ep_out, self._ep_in = dev, ep_out, ep_in

    def _read_loop(
        self, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[bytes | BaseException], stop: threading.Event
    ) -> None:
        """Reader thread: one IN packet at a time, a short timeout so ``close`` is prompt."""
        dev, ep = self._dev, self._ep_in
        assert dev is not None and ep is not None
        while not stop.is_set():
            try:
                data = dev.read(ep.bEndpointAddress, PACKET, timeout=READ_TIMEOUT_MS)
            except usb.core.USBTimeoutError:
                continue
            except Exception as exc:  # noqa: BLE001 - ENODEV and friends, any backend's: the session reconnects
                if not stop.is_set():
                    _post(loop, queue, TransportClosed(f"{self.name}: {exc}"))
                return
            if len(data):
                _post(loop, queue, bytes(data))

    async def read(self) -> bytes:
        if self._dev is None:
            raise TransportClosed(f"{self.name} is not open")
        item = await self._queue.get()
        if isinstance(item, BaseException):
            raise item
        return item

    async def write(self, data: bytes) -> None:
        dev, ep = self._dev, self._ep_out
        if dev is None:
            raise TransportClosed(f"{self.name} is not open")
        try:
            await asyncio.to_thread(dev.write, ep.bEndpointAddress, data, WRITE_TIMEOUT_MS)
        except usb.core.USBError as exc:
            raise TransportClosed(f"{self.name}: {exc}") from exc

    async def close(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        dev, self._dev = self._dev, None
        if thread is not None:
            await asyncio.to_thread(thread.join, 2 * READ_TIMEOUT_MS / 1000 + 1)
        if dev is not None:
            try:
                usb.util.dispose_resources(dev)
            except usb.core.USBError:
                pass


def _post(loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[bytes | BaseException], item: bytes | BaseException) -> None:
    try:
        loop.call_soon_threadsafe(queue.put_nowait, item)
    except RuntimeError:  # loop closed while the thread was finishing
        pass
