"""The table's devices as its config says: a real shoe (serial, USB) or the simulated one.

A simulated shoe runs in this process on a real transport (a pty, or the pyusb backend), so
it goes when the process goes. On a restart it is rebuilt where the physical shoe would
still be: the same seed gives the same shuffles, the shoes loaded since and the cards drawn
from the current one (both known from the replayed journal) are dealt off silently.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from controller.config import TableConfig
from controller.shoe import Shoe
from controller.table.core import TableCore
from drivers.shoe import SerialTransport, SessionConfig, ShoeSession, UsbTransport, parse_vid_pid
from simulators.shoe import SerialShoeSim, ShoeFirmware, UsbShoeSim


def _shuffled(decks: int, rng: random.Random) -> Shoe:
    """As the simulator's firmware shuffles a new shoe (70-80 % penetration)."""
    return Shoe.with_penetration(decks, rng, decks * 0.7, decks * 0.8)


def simulated_firmware(config: TableConfig, core: TableCore) -> ShoeFirmware:
    """The simulated shoe in the state the table's journal left it."""
    sim = config.devices.shoe.simulated
    decks = core.adapter.decks(core.rules)
    removed = core.adapter.removed_ranks(core.rules)
    rng = random.Random(sim.seed)
    if sim.stacked is not None:
        shoe = Shoe(decks, rng, sim.cut_after, removed, sim.stacked)
    else:
        shoe = Shoe.with_penetration(decks, rng, decks * 0.7, decks * 0.8, removed)
    for _ in range(core.shoe.number - 1):  # shoes loaded since: the firmware reshuffles from rng
        shoe = _shuffled(decks, rng)
    for _ in range(min(core.shoe.last_n, shoe.remaining)):
        shoe.draw()
    # a CUT frame that already reached the table is not sent again
    return ShoeFirmware(shoe, rng=rng, shoe_id=core.shoe.shoe_id, cut_sent=core.shoe.cut_seen)


@dataclass
class ShoeDevices:
    session: ShoeSession
    simulator: SerialShoeSim | UsbShoeSim | None = None

    @property
    def firmware(self) -> ShoeFirmware | None:
        return self.simulator.firmware if self.simulator is not None else None

    async def stop(self) -> None:
        await self.session.transport.close()
        if self.simulator is not None:
            await self.simulator.stop()


async def open_shoe(config: TableConfig, core: TableCore, on_event: Any) -> ShoeDevices:
    """Build (and start, when simulated) the shoe; the caller runs ``session.run()``."""
    dev = config.devices.shoe
    session_config = SessionConfig(gap_timeout=dev.gap_timeout)
    simulator: SerialShoeSim | UsbShoeSim | None = None
    if dev.transport == "simulated":
        firmware = simulated_firmware(config, core)
        if dev.port == "usb":
            vid, pid = parse_vid_pid(dev.usb)
            usb_sim = UsbShoeSim(firmware, vid, pid)
            await usb_sim.start()
            simulator = usb_sim
            transport: Any = UsbTransport(vid, pid, usb_sim.backend)
        else:
            serial_sim = SerialShoeSim(firmware, config.shoe_link)
            await serial_sim.start()
            simulator = serial_sim
            transport = SerialTransport(serial_sim.path)
    elif dev.transport == "serial":
        assert dev.port is not None
        transport = SerialTransport(dev.port)
    else:
        vid, pid = parse_vid_pid(dev.usb)
        transport = UsbTransport(vid, pid)
    session = ShoeSession(transport, config=session_config, on_event=on_event)
    return ShoeDevices(session, simulator)
