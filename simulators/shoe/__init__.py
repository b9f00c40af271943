"""The CSP/1 card shoe simulator: one firmware, on a pty (serial) or a pyusb backend (USB)."""

from simulators.shoe.firmware import LineFaults, ShoeFirmware
from simulators.shoe.serial_sim import SerialShoeSim
from simulators.shoe.usb_backend import SimUsbBackend, UsbShoeDevice, UsbShoeSim

__all__ = ["LineFaults", "SerialShoeSim", "ShoeFirmware", "SimUsbBackend", "UsbShoeDevice", "UsbShoeSim"]
