"""The table's devices as its config says, opened through the device registry (``docs/devices.md``):
the game's own devices (the shoe of a card game, the wheel of roulette) and every other device
``[devices.<name>]`` names by URL, into one ``TableDevices`` set. Which game device is opened how
is one line in ``OPENERS``; another device kind needs no line here at all.

For the shoe, the ``[devices.shoe]`` keys become one registry URL: ``transport = "serial"`` with ``port`` is
``serial://<port>`` (or the pyserial URL given as the port), ``"usb"`` is ``usb://<usb>``,
``"simulated"`` is ``sim+pty://shoe`` or ``sim+usb://<usb>``; ``url`` gives one directly.

A simulated shoe runs in this process on a real transport (a pty, or the pyusb backend), so
it goes when the process goes. On a restart it is rebuilt where the physical shoe would
still be: the same seed gives the same shuffles, the shoes loaded since and the cards drawn
from the current one (both known from the replayed journal) are dealt off silently.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import quote

from controller.config import TableConfig
from controller.runtime.wheel import open_wheel
from controller.shoe import Shoe
from controller.table.core import TableCore
from drivers import registry
from drivers.device import Device
from drivers.events import DeviceEvent, DeviceOffline, DeviceOnline
from drivers.shoe import SessionConfig
from simulators.devices import SimulatedDevice
from simulators.shoe import ShoeFirmware

log = logging.getLogger(__name__)

Sink = Callable[[DeviceEvent], None]
Opener = Callable[[TableConfig, TableCore, Sink], Awaitable[Device]]

SHOE = "shoe"
#: the pit feed's MQTT link, as the table's health shows it (``link_alarm``)
FEED_LINK = "feed"


def link_alarm(loop: Any, name: str) -> Callable[[str | None], None]:
    """An ``MqttLink.on_alarm`` callback that makes a loud outage (a dead or misconfigured
    broker, a session taken over) a journaled ``offline`` of ``name``, and its end ``online``:
    the table alerts, its ``state()`` devices and the device-online metric show it."""

    def told(reason: str | None) -> None:
        event = DeviceOnline(device=name, detail="broker link") if reason is None else DeviceOffline(
            device=name, reason=reason)
        loop.device_event(event)

    return told


def _shuffled(decks: int, rng: random.Random) -> Shoe:
    """A new shoe as the simulated firmware shuffles it on ``SHOE`` (70-80 % penetration)."""
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
    return ShoeFirmware(shoe, rng=rng, reshuffle=lambda n: _shuffled(n, rng), shoe_id=core.shoe.shoe_id,
                        cut_sent=core.shoe.cut_seen)


def shoe_url(config: TableConfig) -> str:
    """The registry URL of the configured shoe."""
    dev = config.devices.shoe
    if dev.url:
        return dev.url
    if dev.transport == "simulated":
        if dev.port == "usb":
            return f"sim+usb://{dev.usb}"
        link = config.shoe_link
        return "sim+pty://shoe" + (f"?link={quote(str(link))}" if link is not None else "")
    if dev.transport == "serial":
        assert dev.port is not None  # the config requires it
        return dev.port if "://" in dev.port else f"serial://{dev.port}"
    return f"usb://{dev.usb}"


async def open_shoe(config: TableConfig, core: TableCore, on_event: Callable[[DeviceEvent], None]) -> Device:
    """Build and open the shoe (a simulated one where the journal left it); it runs until
    ``close()``. ``DeviceUnavailable`` (``DeviceNotFound``, ``DeviceBusy``) when its port
    cannot be opened, with the port in the message."""
    dev = config.devices.shoe
    # the cards the journal holds of the shoe in play: a shoe counting no more has none on its way
    journaled = (core.shoe.shoe_id, core.shoe.last_n)
    extras: dict[str, Any] = {"session_config": SessionConfig(gap_timeout=dev.gap_timeout, journaled=journaled),
                              "identity": dev.identity}
    url = shoe_url(config)
    if url.startswith("sim+"):
        extras["firmware"] = simulated_firmware(config, core)
    return await registry.open_device(url, SHOE, sink=on_event, **extras)


#: a game device's name -> what opens it from the config
OPENERS: dict[str, Opener] = {SHOE: open_shoe, "wheel": open_wheel}


def game_devices(core: TableCore) -> list[str]:
    """The devices the game needs: the shoe of a card game, the game's own (roulette's wheel)."""
    names = [SHOE] if core.adapter.uses_shoe else []
    own = core.adapter.device
    if own is not None and own not in names:
        names.append(own)
    return names


class TableDevices:
    """Every device a table opened, by name; closed together."""

    def __init__(self, game: list[str]) -> None:
        #: the names of the game's own devices, in ``game_devices`` order
        self.game = game
        self.opened: dict[str, Device] = {}

    def simulator_panel(self) -> ShoeFirmware | None:
        """The simulated shoe's firmware, for the console's simulator panel (None: a real shoe,
        or no shoe)."""
        shoe = self.opened.get(SHOE)
        return shoe.firmware if isinstance(shoe, SimulatedDevice) else None

    @property
    def firmware(self) -> ShoeFirmware | None:
        """``simulator_panel()``, under the name callers of the shoe device used."""
        return self.simulator_panel()

    def simulated(self, name: str) -> SimulatedDevice | None:
        device = self.opened.get(name)
        return device if isinstance(device, SimulatedDevice) else None

    async def close(self) -> None:
        for name, device in reversed(list(self.opened.items())):
            try:
                await device.close()
            except Exception:  # one device's failure to close must not keep the others open
                log.exception("%s: close failed", name)
        self.opened.clear()


async def open_devices(config: TableConfig, core: TableCore, on_event: Sink) -> TableDevices:
    """Open the game's devices, then every other ``[devices.<name>]``; a device that cannot be
    opened raises (``DeviceUnavailable`` ...) with the ones already open closed again."""
    devices = TableDevices(game_devices(core))
    try:
        for name in devices.game:
            devices.opened[name] = await OPENERS[name](config, core, on_event)
        for name, other in config.devices.others.items():
            if other.enabled:
                devices.opened[name] = await registry.open_device(other.url, other.kind, name=name, sink=on_event)
    except BaseException:
        await devices.close()
        raise
    return devices

