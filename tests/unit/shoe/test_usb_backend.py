"""pyusb's own core over the simulated backend: find, descriptors, transfers, libusb's errors."""

import errno
import random

import pytest
import usb.core
import usb.util

from controller.shoe import Shoe
from drivers.shoe.codec import Decoder, Frame, Hello, Lock, encode
from simulators.shoe import ShoeFirmware, UsbShoeSim


@pytest.fixture
async def sim():
    fw = ShoeFirmware(Shoe(1, random.Random(0)), rng=random.Random(1))
    s = UsbShoeSim(fw)
    s.device.plug()  # no timers: every frame here is an answer
    yield s
    s.device.unplug()


async def test_find_returns_a_real_device_with_the_vendor_interface(sim):
    dev = usb.core.find(idVendor=0x1209, idProduct=0x0001, backend=sim.backend)
    assert isinstance(dev, usb.core.Device)
    assert usb.core.find(idVendor=0x1209, idProduct=0x0002, backend=sim.backend) is None
    dev.set_configuration()
    intf = dev.get_active_configuration()[(0, 0)]
    assert intf.bInterfaceClass == 0xFF
    eps = [(e.bEndpointAddress, e.bmAttributes, e.wMaxPacketSize) for e in intf]
    assert eps == [(0x01, 0x02, 64), (0x81, 0x02, 64)]
    assert (dev.manufacturer, dev.serial_number) == ("Croupier", "SN42")  # string descriptors on EP0
    assert "ENDPOINT 0x81: Bulk IN" in str(dev)


async def test_transfers_packets_of_64_and_timeouts(sim):
    dev = usb.core.find(idVendor=0x1209, idProduct=0x0001, backend=sim.backend)
    dev.set_configuration()
    sim.firmware.draw()
    first = bytes(dev.read(0x81, 64, timeout=100))
    assert len(first) == 64 and first.startswith(b"#0001;HELLO;CS-1;1.0;SN42*8F1C\r\n")
    rest = bytes(dev.read(0x81, 64, timeout=100))
    assert len(rest) < 64  # the CARD frame spans two packets
    frames = Decoder("shoe").feed(first + rest)
    assert [f.type for f in frames] == ["HELLO", "STATUS", "CARD"]
    assert frames[0] == Frame(1, Hello("CS-1", "1.0", "SN42"))
    with pytest.raises(usb.core.USBTimeoutError) as err:
        dev.read(0x81, 64, timeout=20)
    assert err.value.errno == errno.ETIMEDOUT
    assert dev.write(0x01, encode(9, Lock()), timeout=100) == len(encode(9, Lock()))


async def test_unplug_is_enodev_and_replug_is_a_new_device(sim):
    dev = usb.core.find(idVendor=0x1209, idProduct=0x0001, backend=sim.backend)
    dev.set_configuration()
    sim.device.unplug()
    for call in (lambda: dev.read(0x81, 64, timeout=50), lambda: dev.write(0x01, b"#", timeout=50)):
        with pytest.raises(usb.core.USBError) as err:
            call()
        assert err.value.errno == errno.ENODEV
    assert usb.core.find(idVendor=0x1209, idProduct=0x0001, backend=sim.backend) is None
    usb.util.dispose_resources(dev)  # as the transport does: must not raise
    sim.device.plug()
    with pytest.raises(usb.core.USBError):
        dev.read(0x81, 64, timeout=50)  # the old handle stays dead, as with libusb
    usb.util.dispose_resources(dev)
    again = usb.core.find(idVendor=0x1209, idProduct=0x0001, backend=sim.backend)
    again.set_configuration()
    assert b";HELLO;CS-1" in bytes(again.read(0x81, 64, timeout=100))  # link up: HELLO again
