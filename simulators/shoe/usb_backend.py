"""The shoe on USB: a pyusb backend (``usb.backend.IBackend``) in front of the firmware.

``usb.core.find(idVendor=..., idProduct=..., backend=sim.backend)`` returns a real
``usb.core.Device`` and pyusb's own core (descriptors, claiming, endpoint lookup, transfers,
errors) runs unchanged on it. The device is full-speed with one vendor-specific interface: bulk
OUT 0x01 and bulk IN 0x81, 64-byte packets. As with libusb: a vanished device raises
``USBError`` errno 19 (ENODEV) on every call through an old handle, and ``bulk_read`` raises
``USBTimeoutError`` (errno 110) when no packet arrives in time.

Threads: pyusb is called from the driver's reader thread and ``to_thread`` workers; the firmware
lives on the event loop, so host bytes are handed to it with ``call_soon_threadsafe`` and device
bytes wait in a FIFO under a condition variable.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import threading
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import usb.backend
import usb.core

from simulators.shoe.firmware import ShoeFirmware

EP_OUT = 0x01
EP_IN = 0x81
PACKET = 64
SPEED_FULL = 2  # libusb_speed: LIBUSB_SPEED_FULL
LIBUSB_ERROR_NO_DEVICE = -4
LIBUSB_ERROR_TIMEOUT = -7


def _no_device() -> usb.core.USBError:
    return usb.core.USBError("No such device (it may have been disconnected)", LIBUSB_ERROR_NO_DEVICE, errno.ENODEV)


class UsbShoeDevice:
    """The physical device on the simulated bus: plug state, descriptors, IN FIFO."""

    def __init__(self, firmware: ShoeFirmware, vid: int = 0x1209, pid: int = 0x0001, serial: str = "SN42") -> None:
        self.firmware = firmware
        self.vid, self.pid, self.serial = vid, pid, serial
        self.plugged = False
        self.generation = 0  # bumps on every plug-in: handles of an earlier plug-in are dead
        self._fifo = bytearray()
        self._cond = threading.Condition()
        self._loop: asyncio.AbstractEventLoop | None = None

    def plug(self) -> None:
        """Attach to the bus (call on the firmware's event loop): the firmware powers up."""
        self._loop = asyncio.get_running_loop()
        with self._cond:
            self.generation += 1
            self._fifo.clear()
            self.plugged = True
        self.firmware.attach(self._to_host)

    def unplug(self) -> None:
        self.firmware.detach()
        with self._cond:
            self.plugged = False
            self._fifo.clear()
            self._cond.notify_all()

    # firmware side (event loop thread)
    def _to_host(self, data: bytes) -> None:
        with self._cond:
            if self.plugged:
                self._fifo += data
                self._cond.notify_all()

    # host side (any thread)
    def alive(self, generation: int) -> bool:
        return self.plugged and generation == self.generation

    def from_host(self, generation: int, data: bytes) -> None:
        loop = self._loop
        if not self.alive(generation) or loop is None:
            raise _no_device()
        try:
            loop.call_soon_threadsafe(self._feed, generation, data)
        except RuntimeError:
            raise _no_device() from None

    def _feed(self, generation: int, data: bytes) -> None:
        if self.alive(generation):
            self.firmware.feed(data)

    def read_packet(self, generation: int, size: int, timeout_ms: int) -> bytes:
        """One IN packet (at most 64 bytes: a frame may span several), waiting up to the timeout."""
        with self._cond:
            ok = self._cond.wait_for(
                lambda: not self.alive(generation) or bool(self._fifo),
                None if timeout_ms == 0 else timeout_ms / 1000,
            )
            if not self.alive(generation):
                raise _no_device()
            if not ok:
                raise usb.core.USBTimeoutError("Operation timed out", LIBUSB_ERROR_TIMEOUT, errno.ETIMEDOUT)
            n = min(size, PACKET, len(self._fifo))
            data = bytes(self._fifo[:n])
            del self._fifo[:n]
            return data


@dataclass(frozen=True)
class _Presence:
    """What enumeration yields: this device during one plug-in (libusb's ``libusb_device``)."""

    device: UsbShoeDevice
    generation: int


@dataclass
class _Handle:
    device: UsbShoeDevice
    generation: int


class SimUsbBackend(usb.backend.IBackend):  # type: ignore[misc]  # pyusb is untyped
    """A pyusb backend whose bus holds simulated devices."""

    def __init__(self) -> None:
        super().__init__()
        self.devices: list[UsbShoeDevice] = []

    def add(self, device: UsbShoeDevice) -> UsbShoeDevice:
        self.devices.append(device)
        return device

    @staticmethod
    def _check(handle: _Handle) -> UsbShoeDevice:
        if not handle.device.alive(handle.generation):
            raise _no_device()
        return handle.device

    def enumerate_devices(self) -> Any:
        return [_Presence(d, d.generation) for d in self.devices if d.plugged]

    def get_parent(self, dev: _Presence) -> None:
        return None

    def get_device_descriptor(self, presence: _Presence) -> Any:
        dev = presence.device
        return SimpleNamespace(
            bLength=18, bDescriptorType=1, bcdUSB=0x0200, bDeviceClass=0, bDeviceSubClass=0,
            bDeviceProtocol=0, bMaxPacketSize0=64, idVendor=dev.vid, idProduct=dev.pid,
            bcdDevice=0x0100, iManufacturer=1, iProduct=2, iSerialNumber=3, bNumConfigurations=1,
            address=presence.generation % 126 + 1, bus=1, port_number=1, port_numbers=(1,), speed=SPEED_FULL,
        )

    def get_configuration_descriptor(self, dev: _Presence, config: int) -> Any:
        if config != 0:
            raise IndexError(f"Invalid configuration index {config}")
        return SimpleNamespace(
            bLength=9, bDescriptorType=2, wTotalLength=9 + 9 + 7 + 7, bNumInterfaces=1,
            bConfigurationValue=1, iConfiguration=0, bmAttributes=0xC0, bMaxPower=50,
            extra_descriptors=[],
        )

    def get_interface_descriptor(self, dev: _Presence, intf: int, alt: int, config: int) -> Any:
        if config != 0 or intf != 0:
            raise IndexError(f"Invalid interface index {intf}")
        if alt != 0:
            raise IndexError(f"Invalid alternate setting index {alt}")
        return SimpleNamespace(
            bLength=9, bDescriptorType=4, bInterfaceNumber=0, bAlternateSetting=0, bNumEndpoints=2,
            bInterfaceClass=0xFF, bInterfaceSubClass=0, bInterfaceProtocol=0, iInterface=0,
            extra_descriptors=[],
        )

    def get_endpoint_descriptor(self, dev: _Presence, ep: int, intf: int, alt: int, config: int) -> Any:
        self.get_interface_descriptor(dev, intf, alt, config)
        if ep not in (0, 1):
            raise IndexError(f"Invalid endpoint index {ep}")
        return SimpleNamespace(
            bLength=7, bDescriptorType=5, bEndpointAddress=(EP_OUT, EP_IN)[ep], bmAttributes=0x02,
            wMaxPacketSize=PACKET, bInterval=0, bRefresh=0, bSynchAddress=0, extra_descriptors=[],
        )

    def open_device(self, presence: _Presence) -> _Handle:
        if not presence.device.alive(presence.generation):
            raise _no_device()  # unplugged since it was enumerated: re-enumerate (find) first
        return _Handle(presence.device, presence.generation)

    def close_device(self, dev_handle: _Handle) -> None:
        pass

    def set_configuration(self, dev_handle: _Handle, config_value: int) -> None:
        self._check(dev_handle)

    def get_configuration(self, dev_handle: _Handle) -> int:
        self._check(dev_handle)
        return 1

    def set_interface_altsetting(self, dev_handle: _Handle, intf: int, altsetting: int) -> None:
        self._check(dev_handle)

    def claim_interface(self, dev_handle: _Handle, intf: int) -> None:
        self._check(dev_handle)

    def release_interface(self, dev_handle: _Handle, intf: int) -> None:
        self._check(dev_handle)

    def ctrl_transfer(
        self, dev_handle: _Handle, bmRequestType: int, bRequest: int, wValue: int, wIndex: int, data: Any, timeout: int
    ) -> int:
        """Endpoint 0: GET_DESCRIPTOR for strings (so ``dev.serial_number`` works); else STALL."""
        dev = self._check(dev_handle)
        if bmRequestType == 0x80 and bRequest == 0x06 and wValue >> 8 == 0x03:
            index = wValue & 0xFF
            if index == 0:
                payload = bytes([4, 3, 0x09, 0x04])  # LANGID en-US
            else:
                text = {1: "Croupier", 2: "CSP/1 card shoe (simulated)", 3: dev.serial}.get(index)
                if text is None:
                    raise usb.core.USBError("Pipe error", -9, errno.EPIPE)
                raw = text.encode("utf-16-le")
                payload = bytes([2 + len(raw), 3]) + raw
            n = min(len(payload), len(data) * data.itemsize)
            data[:n] = type(data)(data.typecode, payload[:n])
            return int(n)
        raise usb.core.USBError("Pipe error", -9, errno.EPIPE)

    def clear_halt(self, dev_handle: _Handle, ep: int) -> None:
        self._check(dev_handle)

    def reset_device(self, dev_handle: _Handle) -> None:
        self._check(dev_handle)

    def is_kernel_driver_active(self, dev_handle: _Handle, intf: int) -> bool:
        self._check(dev_handle)
        return False

    def detach_kernel_driver(self, dev_handle: _Handle, intf: int) -> None:
        self._check(dev_handle)

    def attach_kernel_driver(self, dev_handle: _Handle, intf: int) -> None:
        self._check(dev_handle)

    def bulk_write(self, dev_handle: _Handle, ep: int, intf: int, data: Any, timeout: int) -> int:
        dev = self._check(dev_handle)
        if ep != EP_OUT:
            raise usb.core.USBError("Pipe error", -9, errno.EPIPE)
        payload = bytes(data)
        dev.from_host(dev_handle.generation, payload)
        return len(payload)

    def bulk_read(self, dev_handle: _Handle, ep: int, intf: int, buff: Any, timeout: int) -> int:
        dev = self._check(dev_handle)
        if ep != EP_IN:
            raise usb.core.USBError("Pipe error", -9, errno.EPIPE)
        data = dev.read_packet(dev_handle.generation, len(buff) * buff.itemsize, timeout)
        buff[: len(data)] = type(buff)(buff.typecode, data)
        return len(data)


class UsbShoeSim:
    """Firmware + device + backend, with the controls a test or the CLI needs."""

    def __init__(
        self, firmware: ShoeFirmware, vid: int = 0x1209, pid: int = 0x0001, backend: SimUsbBackend | None = None
    ) -> None:
        self.firmware = firmware
        self.backend = backend or SimUsbBackend()
        self.device = self.backend.add(UsbShoeDevice(firmware, vid, pid, firmware.serial))
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.device.plug()
        self._task = asyncio.create_task(self.firmware.run(), name="shoe-usb-firmware")

    async def unplug(self) -> None:
        self.device.unplug()

    async def replug(self) -> None:
        self.device.plug()

    async def stop(self) -> None:
        self.device.unplug()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def __aenter__(self) -> UsbShoeSim:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
