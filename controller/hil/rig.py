"""The soak's own devices: a CSP/1 shoe and a Cammegh SS2 wheel in this process, each on a real
pty behind a stable symlink (as udev's /dev/serial/by-id names), which the table opens as
``serial`` devices. They keep running across controller restarts, as hardware does, and they
keep the truth the checker compares the table with: every card drawn, every number spun
(docs/hil.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from dataclasses import dataclass, field
from pathlib import Path

from drivers.shoe.codec import Card, NoRead, decode_frame
from simulators.shoe import ShoeFirmware
from simulators.shoe.deck import shuffler
from simulators.shoe.firmware import LineFaults
from simulators.shoe.serial_sim import SerialShoeSim
from simulators.wheel import Timings, WheelFault, WheelSimulator

#: the wheel's protocol times 15x faster (a spin in about 2 s), with the status every 30 ms so the
#: table's driver still sees every state
SPEED = 15.0
FAST_WHEEL = Timings(**{name: value / SPEED for name, value in vars(Timings()).items()
                        if name != "status_period"}, status_period=0.03)


@dataclass
class DrawnCard:
    """One card that left the soak's shoe: ``n`` within its shoe, ``epoch`` counts shoes loaded."""

    epoch: int
    n: int
    card: str


class ShoeRig:
    """The shoe on a pty behind ``link``: the soak's dealer pulls cards through it."""

    def __init__(self, link: Path, seed: int, decks: int) -> None:
        self.rng = random.Random(seed)
        self.noise_rng = random.Random(seed ^ 0x5EED)
        self.tx_faults = LineFaults(rng=self.noise_rng)
        self.rx_faults = LineFaults(rng=self.noise_rng)
        reshuffle = shuffler(self.rng)
        self.firmware = ShoeFirmware(reshuffle(decks), rng=self.rng, reshuffle=reshuffle,
                                     tx_faults=self.tx_faults, rx_faults=self.rx_faults)
        self.sim = SerialShoeSim(self.firmware, link)
        self.epoch = 1
        self.drawn: list[DrawnCard] = []
        #: (epoch, n) of the cards whose frames a power loss dropped unacknowledged: they never
        #: reach the table, and nobody waits for them
        self.lost_in_power_loss: set[tuple[int, int]] = set()
        self.plugged = False
        self._shoe = self.firmware.shoe

    async def start(self) -> None:
        await self.sim.start()
        self.plugged = True

    async def stop(self) -> None:
        await self.sim.stop()
        self.plugged = False

    def draw(self) -> DrawnCard | None:
        """The dealer pulls one card through the gate (None: locked or empty)."""
        if self.firmware.shoe is not self._shoe:  # the table loaded a new shoe (NEW_SHOE)
            self._shoe = self.firmware.shoe
            self.epoch += 1
        card = self.firmware.draw()
        if card is None:
            return None
        drawn = DrawnCard(self.epoch, self.firmware.shoe.dealt, card)
        self.drawn.append(drawn)
        return drawn

    # -- faults
    def line_noise(self, rate: float) -> None:
        """Corrupt, drop and duplicate bytes both ways at ``rate`` per byte (0 ends it)."""
        for faults in (self.tx_faults, self.rx_faults):
            faults.drop = faults.corrupt = faults.duplicate = rate

    async def unplug(self) -> None:
        await self.sim.unplug()
        self.plugged = False

    async def replug(self) -> None:
        await self.sim.replug()
        self.plugged = True

    def power_loss(self) -> None:
        """Power lost (while unplugged): RAM gone, unacknowledged frames with it; HELLO at power-up."""
        frames = [decode_frame(p.raw) for p in self.firmware._pending]  # what the RAM held, unacknowledged
        self.lost_in_power_loss |= {(self.epoch, f.msg.n) for f in frames if isinstance(f.msg, Card | NoRead)}
        write = self.firmware._write
        self.firmware.detach()
        self.firmware.reset()  # with no link attached nothing is sent now
        if write is not None:
            self.firmware.attach(write)


@dataclass
class Spin:
    spin: int
    number: str


@dataclass
class WheelRig:
    """The wheel on a pty behind ``link``, integration mode 1159; every result spun is logged."""

    link: Path
    seed: int
    pockets: int = 37
    spins: list[Spin] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.sim = WheelSimulator(rng=random.Random(self.seed), pockets=self.pockets, mode=1159,
                                  timings=FAST_WHEEL, link=self.link)
        self._watch: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self.sim.start()
        self._watch = asyncio.create_task(self._log_results(), name="wheel-results")

    async def stop(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
        await self.sim.stop()

    async def _log_results(self) -> None:
        """Record (spin, number) each time the wheel enters state 5 (result)."""
        last = self.sim.state
        while True:
            await asyncio.sleep(0.005)
            state = self.sim.state
            if state == 5 and last != 5 and self.sim.win is not None:
                self.spins.append(Spin(self.sim.spin, self.sim.win))
            last = state

    def faults_pending(self) -> bool:
        """An injected fault no game has reached yet (the simulator keeps them until used)."""
        return bool(self.sim._faults)

    def inject(self, kind: str, rng: random.Random) -> None:
        """One wheel fault for the next game that reaches its state (docs/hil.md)."""
        if kind == "wheel_launch_failure":
            self.sim.inject(WheelFault("launch_fail", state=2, duration=rng.uniform(0.2, 1.0)))
        elif kind == "wheel_miss_spin":
            self.sim.inject(WheelFault("miss_spin", at=rng.uniform(0.0, 0.1)))
        elif kind == "wheel_ball_not_sensed":
            self.sim.inject(WheelFault("ball_not_sensed", at=rng.uniform(0.0, 0.1), duration=rng.uniform(0.2, 1.0)))
        elif kind == "wheel_power_down":
            self.sim.inject(WheelFault("state_6", at=rng.uniform(0.0, 0.1)))
        else:
            raise ValueError(f"not a wheel fault: {kind}")
