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
from collections.abc import AsyncIterator
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
from tests.support.waiting import until

FACTOR = 10.0
REPLUGS = 20
OPEN_RACES = 1500  # the tty goes within ~0.2 ms of the open: about 1 in 100 lands mid-open


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
            time.sleep(delay)  # the behaviour under test: the tty goes at a chosen instant of the open
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
        await until(lambda: session.online, "first connect", within=within, clock=clock)
        await session.new_shoe("S1", 6)  # as the table does: cards count from 1
        for i in range(REPLUGS):
            await sim.unplug()
            fw.draw()  # dealt while the cable is out: kept until acknowledged
            await until(lambda: not session.online, f"offline after unplug {i}", within=within, clock=clock)  # EOF at once
            # gaps from none at all to longer than the soak's (0.2-1.5 s), so a reopen lands at
            # any point of the replug; every third time the adapter bounces as it goes in
            await clock.sleep(rng.choice([0.0, 0.01, 0.2, 0.5, 1.5]) * rng.random())
            if i % 3 == 2:
                await sim.replug()
                await clock.sleep(rng.random() * 0.002 * FACTOR)  # the bounce: up to 2 ms, on the injected clock
                await sim.unplug()
            await sim.replug()
            await until(lambda: session.online and count("online") == count("offline") + 1, f"online after replug {i}",
                        within=within + 1.0, clock=clock)
            for _ in range(rng.randrange(1, 4)):
                fw.draw()
            await until(lambda: len(cards()) == len(fw.drawn), f"cards after replug {i}", within=within, clock=clock,
                        describe=lambda: f"drawn {fw.drawn[-4:]}, shoe still holds {fw.pending}, "
                                         f"{session.stats}, last events {events[-5:]}")
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
            await until(lambda: session.online, "first connect", within=2.0, clock=clock)
            await session.new_shoe("S1", 6)
            fw.draw()
            await until(lambda: len(events) > 0 and isinstance(events[-1], CardDrawn), "first card", within=2.0, clock=clock)
            await sim.replug()  # the old tty is left open and silent: the shoe talks on the new one
            fw.draw()
            await until(lambda: not session.online, "offline", within=config.heartbeat_timeout + 0.5, clock=clock)
            reopened = config.heartbeat_timeout + config.reconnect_delay + 1.0
            await until(lambda: session.online, "online on the new tty", within=reopened, clock=clock)
            fw.draw()
            drawn = [(c, n + 1) for n, c in enumerate(fw.drawn)]
            await until(lambda: [(e.card, e.n) for e in events if isinstance(e, CardDrawn)] == drawn,
                        "every card once, in order", within=2.0, clock=clock)
            assert session.stats.connects == 2
            assert not [e for e in events if e.type in ("lost_card", "refused")]
        finally:
            assert dead is not None
            dead.close()
