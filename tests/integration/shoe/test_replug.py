"""A serial shoe unplugged and replugged on the same stable link (like /dev/serial/by-id), again
and again (the soak's ``usb_unplug``, ``docs/devices.md``).

The defect: a tty that vanished while the driver was opening it (an adapter pulled, or bouncing
as it is plugged in) made pyserial raise ``termios.error``, which is no ``OSError``; it escaped
the open, ended the session's reconnect loop, and the shoe stayed offline for good while it sat
READY and plugged. Now it is ``DeviceUnavailable`` like any other failed open, and the session
tries again.
"""

from __future__ import annotations

import asyncio
import os
import pty
import random
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from drivers.clock import ScaledClock
from drivers.errors import DeviceUnavailable
from drivers.events import DeviceEvent
from drivers.serial_link import open_serial
from drivers.shoe import SerialTransport, SessionConfig, ShoeSession
from drivers.shoe.events import CardDrawn
from simulators.pty_port import point_link
from simulators.shoe import SerialShoeSim, ShoeFirmware

FACTOR = 10.0
REPLUGS = 20
OPEN_RACES = 1500  # the tty goes within ~0.2 ms of the open: about 1 in 100 lands mid-open


async def wait_for(pred: Callable[[], bool], clock: ScaledClock, within: float, what: str) -> None:
    """Wait until ``pred()`` holds, for at most ``within`` protocol seconds."""
    deadline = clock.monotonic() + within
    while not pred():
        if clock.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {within} s")
        await asyncio.sleep(0.005)


@dataclass
class Rig:
    clock: ScaledClock
    fw: ShoeFirmware
    sim: SerialShoeSim
    config: SessionConfig
    session: ShoeSession
    task: asyncio.Task[None]
    events: list[DeviceEvent]


@asynccontextmanager
async def serial_shoe(tmp_path: Path, seed: int) -> AsyncIterator[Rig]:
    """A simulated shoe behind a stable by-id link and a session on it, running; stopped after."""
    clock = ScaledClock(FACTOR)
    fw = ShoeFirmware(clock=clock, rng=random.Random(seed))
    sim = SerialShoeSim(fw, link=tmp_path / "usb-CS1_SN42-if00")
    events: list[DeviceEvent] = []
    config = SessionConfig()
    session = ShoeSession(SerialTransport(sim.path), clock=clock, config=config, on_event=events.append)
    await sim.start()
    task = asyncio.create_task(session.run())
    try:
        yield Rig(clock, fw, sim, config, session, task, events)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await sim.stop()


async def test_a_tty_that_vanishes_while_it_is_being_opened_is_device_unavailable(tmp_path: Path) -> None:
    """An adapter pulled at any moment of the open: it opens, or it is ``DeviceUnavailable``."""
    link = tmp_path / "usb-CS1_SN42-if00"
    rng = random.Random(15)
    outcomes = {"opened": 0, "unavailable": 0}
    for _ in range(OPEN_RACES):
        master, slave = pty.openpty()
        point_link(link, os.ttyname(slave))
        delay = rng.random() * 0.0002

        def pull(delay: float = delay, fds: tuple[int, int] = (master, slave)) -> None:
            time.sleep(delay)
            for fd in fds:
                os.close(fd)

        puller = threading.Thread(target=pull)
        puller.start()
        try:
            _, writer = await open_serial(str(link), 115200)
        except DeviceUnavailable:
            outcomes["unavailable"] += 1
        else:
            outcomes["opened"] += 1
            writer.close()
            await asyncio.gather(writer.wait_closed(), return_exceptions=True)
        finally:
            puller.join()
    assert outcomes["opened"] and outcomes["unavailable"], outcomes  # both sides of the race were run


async def test_a_replugged_serial_shoe_comes_back_online_every_time(tmp_path: Path) -> None:
    rng = random.Random(15)
    async with serial_shoe(tmp_path, 7) as rig:
        fw, sim, session, clock, events = rig.fw, rig.sim, rig.session, rig.clock, rig.events

        def count(kind: str) -> int:
            return sum(e.type == kind for e in events)

        def cards() -> list[tuple[str, int]]:
            return [(e.card, e.n) for e in events if isinstance(e, CardDrawn)]

        # the link is polled every reconnect_delay; once open, the PING is answered at once
        within = rig.config.reconnect_delay + rig.config.heartbeat_timeout
        await wait_for(lambda: session.online, clock, within, "first connect")
        await session.new_shoe("S1", 6)  # as the table does: cards count from 1
        for i in range(REPLUGS):
            await sim.unplug()
            fw.draw()  # dealt while the cable is out: kept until acknowledged
            await wait_for(lambda: not session.online, clock, within, f"offline after unplug {i}")  # EOF at once
            # gaps from none at all to longer than the soak's (0.2-1.5 s), so a reopen lands at
            # any point of the replug; every third time the adapter bounces as it goes in
            await clock.sleep(rng.choice([0.0, 0.01, 0.2, 0.5, 1.5]) * rng.random())
            if i % 3 == 2:
                await sim.replug()
                await asyncio.sleep(rng.random() * 0.002)
                await sim.unplug()
            await sim.replug()
            await wait_for(lambda: session.online and count("online") == count("offline") + 1, clock,
                           within + 1.0, f"online after replug {i}")
            for _ in range(rng.randrange(1, 4)):
                fw.draw()
            await wait_for(lambda: len(cards()) == len(fw.drawn), clock, within, f"cards after replug {i}")
        assert cards() == [(c, n + 1) for n, c in enumerate(fw.drawn)]  # exactly once, in order
        assert count("offline") >= REPLUGS and count("online") == count("offline") + 1
        assert not [e for e in events if e.type in ("lost_card", "refused")]
        assert not rig.task.done(), rig.task  # the reconnect loop never gave up


async def test_a_shoe_that_moved_to_a_new_tty_behind_the_link_is_found_again(tmp_path: Path) -> None:
    """The tty the session holds stays open but goes dead (no EOF, no frame) while the shoe
    answers on a new tty behind the same link: after the heartbeat timeout the session
    reopens the link and is online again; no card is lost or doubled."""
    async with serial_shoe(tmp_path, 8) as rig:
        fw, sim, session, clock, events, config = rig.fw, rig.sim, rig.session, rig.clock, rig.events, rig.config
        dead = sim.port
        try:
            await wait_for(lambda: session.online, clock, 2.0, "first connect")
            await session.new_shoe("S1", 6)
            fw.draw()
            await wait_for(lambda: len(events) > 0 and isinstance(events[-1], CardDrawn), clock, 2.0, "first card")
            await sim.replug()  # the old tty is left open and silent: the shoe talks on the new one
            fw.draw()
            await wait_for(lambda: not session.online, clock, config.heartbeat_timeout + 0.5, "offline")
            reopened = config.heartbeat_timeout + config.reconnect_delay + 1.0
            await wait_for(lambda: session.online, clock, reopened, "online on the new tty")
            fw.draw()
            drawn = [(c, n + 1) for n, c in enumerate(fw.drawn)]
            await wait_for(lambda: [(e.card, e.n) for e in events if isinstance(e, CardDrawn)] == drawn, clock, 2.0,
                           "every card once, in order")
            assert session.stats.connects == 2
            assert not [e for e in events if e.type in ("lost_card", "refused")]
        finally:
            assert dead is not None
            dead.close()
