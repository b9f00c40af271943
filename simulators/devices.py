"""Registry builders of the simulated devices (``sim+pty://``, ``sim+usb://``, ``sim+mem://``;
``docs/devices.md``): each runs the device's firmware in this process on a real transport and
puts the real driver in front of it, so the table sees one ``Device`` either way.

A builder takes its settings from the URL (``sim+pty://shoe?seed=1&decks=6``) or, for what a URL
cannot carry, from the registry's extras: ``firmware`` (a ``ShoeFirmware`` already in the state
a journal left it), ``session_config``, ``simulator`` (a ``WheelSimulator`` with test timings).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Protocol

from drivers.base import DeviceBase
from drivers.clock import Clock
from drivers.device import Device, Health
from drivers.device_kit import Command, EventSink
from drivers.errors import DeviceAddressError
from drivers.registry import BuildOptions, DeviceAddress
from drivers.shoe.device import ShoeDevice
from drivers.shoe.session import SessionConfig
from drivers.shoe.transport_serial import SerialTransport
from drivers.shoe.transport_usb import UsbTransport, parse_vid_pid
from drivers.wheel.device import serial_wheel
from simulators.shoe.firmware import LineFaults, ShoeFirmware
from simulators.shoe.memory_sim import MemoryShoeSim
from simulators.shoe.serial_sim import SerialShoeSim
from simulators.shoe.usb_backend import UsbShoeSim
from simulators.wheel import Timings, WheelSimulator


class Simulator(Protocol):
    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class SimulatedDevice(DeviceBase):
    """A simulator and the real driver in front of it, as one ``Device``. ``open`` starts the
    simulator, then builds and opens the driver on the address the simulator got; the driver's
    events come out of this device. ``connect(sink)`` builds that driver."""

    def __init__(self, name: str, simulator: Any, connect: Callable[[EventSink], Device],
                 sink: EventSink | None = None) -> None:
        super().__init__(name, sink=sink)
        self.simulator = simulator
        self._connect = connect
        self._driver: Device | None = None

    @property
    def driver(self) -> Device:
        if self._driver is None:
            raise RuntimeError(f"{self.name}: open() first")
        return self._driver

    @property
    def firmware(self) -> ShoeFirmware | None:
        """The simulated shoe's firmware (the console's simulator panel deals with it)."""
        if isinstance(self.simulator, (SerialShoeSim, UsbShoeSim, MemoryShoeSim)):
            return self.simulator.firmware
        return None

    async def _start(self) -> None:
        await self.simulator.start()
        driver = self._connect(self.emit)
        try:
            await driver.open()
        except BaseException:
            await self.simulator.stop()
            raise
        self._driver = driver

    def commands(self) -> Mapping[str, Command]:
        return {}

    async def command(self, name: str, **arguments: Any) -> None:
        await self.driver.command(name, **arguments)

    def health(self) -> Health:
        return self.driver.health() if self._driver is not None else Health(online=False)

    async def _stop(self) -> None:
        driver, self._driver = self._driver, None
        if driver is not None:
            await driver.close()
        await self.simulator.stop()


# --------------------------------------------------------------------------- the shoe
_SHOE = {"seed": 1, "decks": 6, "serial": "SN42", "identity": None}
_FAULTS = {"drop": 0.0, "corrupt": 0.0, "duplicate": 0.0, "split": 0.0, "fault_seed": 0}


def _firmware(params: dict[str, Any], options: BuildOptions) -> ShoeFirmware:
    firmware = options.extra("firmware", ShoeFirmware)
    if firmware is not None:
        return firmware  # type: ignore[no-any-return]
    if not 1 <= params["decks"] <= 99:
        raise DeviceAddressError(f"decks={params['decks']}: 1 to 99")
    return ShoeFirmware(decks=params["decks"], rng=random.Random(params["seed"]), serial=params["serial"],
                        clock=options.clock)


def _shoe(options: BuildOptions, params: dict[str, Any], transport: Any, sink: EventSink) -> ShoeDevice:
    config = options.extra("session_config", SessionConfig) or SessionConfig()
    identity = params["identity"] or options.extra("identity", str)
    if identity is not None:
        config = replace(config, identity=identity)
    return ShoeDevice(transport, name=options.name, clock=options.clock, config=config, sink=sink)


def pty_shoe(address: DeviceAddress, options: BuildOptions) -> SimulatedDevice:
    """``sim+pty://shoe?seed=1&decks=6&serial=SN42&link=/run/shoe-tty``"""
    params = address.options(**_SHOE, link=None)
    sim = SerialShoeSim(_firmware(params, options), params["link"])
    return SimulatedDevice(options.name, sim, lambda sink: _shoe(options, params, SerialTransport(sim.path), sink),
                           options.sink)


def usb_shoe(address: DeviceAddress, options: BuildOptions) -> SimulatedDevice:
    """``sim+usb://1209:0001?seed=1``: pyusb's core on the simulated backend."""
    params = address.options(**_SHOE)
    try:
        vid, pid = parse_vid_pid(address.target or "1209:0001")
    except ValueError as exc:
        raise DeviceAddressError(f"{address.url}: {exc}") from None
    sim = UsbShoeSim(_firmware(params, options), vid, pid)
    return SimulatedDevice(options.name, sim,
                           lambda sink: _shoe(options, params, UsbTransport(vid, pid, sim.backend), sink), options.sink)


def memory_shoe(address: DeviceAddress, options: BuildOptions) -> SimulatedDevice:
    """``sim+mem://shoe?drop=0.01&corrupt=0.01&duplicate=0.01&split=0.2&fault_seed=3``: the
    in-memory line, damaging both directions with those per-byte (split: per-write) odds."""
    params = address.options(**_SHOE, **_FAULTS)
    faults = {k: params[k] for k in ("drop", "corrupt", "duplicate", "split")}
    seed = params["fault_seed"]
    sim = MemoryShoeSim(
        _firmware(params, options),
        to_host=LineFaults(random.Random(seed), **faults).apply,
        to_shoe=LineFaults(random.Random(seed + 1), **faults).apply,
    )
    return SimulatedDevice(options.name, sim, lambda sink: _shoe(options, params, sim.transport, sink), options.sink)


# --------------------------------------------------------------------------- the wheel
def pty_wheel(address: DeviceAddress, options: BuildOptions) -> SimulatedDevice:
    """``sim+pty://wheel?pockets=37&seed=1&mode=1159&banner=...&identity=...``; on a sped-up
    ``clock`` (``ScaledClock``) the simulator and the driver share it."""
    params = address.options(pockets=37, seed=1, mode=1159, banner="Cammegh SS2 Slingshot II", identity=None)
    clock: Clock = options.clock
    sim = options.extra("simulator", WheelSimulator)
    if sim is None:
        if params["pockets"] not in (37, 38):
            raise DeviceAddressError(f"{address.url}: pockets is 37 or 38")
        timings = options.extra("timings", Timings) or Timings()
        sim = WheelSimulator(clock=clock, rng=random.Random(params["seed"]), pockets=params["pockets"],
                             mode=params["mode"], banner=params["banner"], timings=timings,
                             results=options.extras.get("results", ()))

    def connect(sink: EventSink) -> Device:
        identity = params["identity"] or options.extra("identity", str)
        query = {"identity": identity} if identity is not None else {}
        line = DeviceAddress(f"serial://{sim.path}", address.kind, "serial", sim.path, query)
        return serial_wheel(line, replace(options, sink=sink))

    return SimulatedDevice(options.name, sim, connect, options.sink)
