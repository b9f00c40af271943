"""Each fault kind, injected from outside the table as the physical world would (docs/hil.md).

``inject`` returns True once the fault happened (a hostile burst that found the broker down
did not, and is not counted). Every fault undoes itself (replug, power, broker, disk space)
before the next one on the same part of the rig starts; ``undo_all`` is the safety net when the
soak ends early. What blocks (a broker starting, a disk being filled, a checkpoint) runs off the
event loop: the soak's shoe and dealer live on it and must not stall while a fault is set up.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
from pathlib import Path
from typing import Protocol

from controller.feed import Feed
from controller.hil.broker import SoakBroker
from controller.hil.controller import ControllerProcess
from controller.hil.disk import SoakDisk
from controller.hil.mqtt import Presser, hostile_messages, publish
from controller.hil.rig import ShoeRig, WheelRig
from controller.hil.tail import LiveTable
from controller.journal import Journal

WHEEL_FAULT_WAIT = 30.0  # seconds for an injected wheel fault to be used up by a game


class SoakWorld(Protocol):
    """What a fault needs of the soak that runs it (``controller.hil.soak.Soak``): its world
    (broker, disk, rigs, the controller process) and its view of the table; named here so
    the soak imports the faults and not the other way round."""

    table: str
    journal: Path
    broker: SoakBroker
    presser: Presser
    controller: ControllerProcess
    live: LiveTable
    disk: SoakDisk
    shoe: ShoeRig | None
    wheel: WheelRig | None
    restarting: bool
    start_mark: int

    def start_controller(self) -> None: ...


async def inject(soak: SoakWorld, kind: str, rng: random.Random) -> bool:
    """One fault of ``kind``, its durations drawn from ``rng`` (its lane's: the same seed, the
    same durations, whatever the other lanes do)."""
    if kind == "controller_sigkill":
        return await _sigkill(soak, rng)
    if kind == "mosquitto_restart":
        await asyncio.to_thread(soak.broker.stop)
        await asyncio.sleep(rng.uniform(0.3, 2.0))
        await asyncio.to_thread(soak.broker.start)
        return True
    if kind == "mqtt_hostile":
        return await publish(soak.broker.port, hostile_messages(soak.table, rng))
    if kind == "press_out_of_turn":
        return await publish(soak.broker.port, soak.presser.messages(rng))
    if kind == "disk_full":  # a running table's disk fills (a start on a full disk is another story)
        for _ in range(600):
            if soak.controller.running and soak.live.last_started_seq > soak.start_mark:
                break
            await asyncio.sleep(0.05)
        else:
            return False  # no table running to fill the disk under (the run is over)
        await asyncio.to_thread(_truncate_wal, soak.journal)  # so the next row needs new space, as on a disk filling up
        await asyncio.to_thread(soak.disk.fill)
        await asyncio.sleep(rng.uniform(1.0, 3.0))
        soak.disk.free()
        return True
    if soak.shoe is not None:
        shoe = soak.shoe
        if kind == "shoe_line_noise":
            shoe.line_noise(rng.uniform(0.002, 0.02))
            await asyncio.sleep(rng.uniform(0.5, 2.0))
            shoe.line_noise(0.0)
            return True
        if kind in ("usb_unplug", "shoe_power_loss"):
            await shoe.unplug()
            await asyncio.sleep(rng.uniform(0.2, 1.5))
            if kind == "shoe_power_loss":
                shoe.power_loss()
            await shoe.replug()
            return True
    if soak.wheel is not None and kind.startswith("wheel_"):
        soak.wheel.inject(kind, rng)
        deadline = asyncio.get_running_loop().time() + WHEEL_FAULT_WAIT
        while soak.wheel.faults_pending() and asyncio.get_running_loop().time() < deadline:  # used up by a game
            await asyncio.sleep(0.05)
        return True
    raise ValueError(f"fault {kind} does not apply to this table")


async def _sigkill(soak: SoakWorld, rng: random.Random) -> bool:
    """SIGKILL now, wherever the controller is (mid-round, replaying, starting), and start it again."""
    soak.restarting = True
    try:
        if not soak.controller.running:
            return False
        soak.controller.kill()
        await asyncio.sleep(rng.uniform(0.0, 0.5))
        soak.live.poll()
        soak.start_controller()
        return True
    finally:
        soak.restarting = False


async def undo_all(soak: SoakWorld) -> None:
    """Leave the world whole: line clean, shoe plugged, broker up, disk free."""
    if soak.shoe is not None:
        soak.shoe.line_noise(0.0)
        if not soak.shoe.plugged:
            await soak.shoe.replug()
    if not soak.broker.running:
        await asyncio.to_thread(soak.broker.start)
    if soak.disk.available:
        soak.disk.free()


async def catch_up_feed(soak: SoakWorld, timeout: float = 60.0) -> None:
    """What the table's next start would do if the last run's feed closed behind: the same feed,
    from the journal's cursor."""
    with Journal(soak.journal) as journal:
        if journal.cursor("feed") >= journal.last_seq():
            return
        async with Feed.connect(soak.broker.url, journal, soak.table, backoff_max=0.5) as feed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(feed.wait_caught_up(), timeout)


def _truncate_wal(journal: Path) -> None:
    """Checkpoint the table's WAL into its database and truncate it (SQLite's own TRUNCATE
    checkpoint, safe beside the running writer): otherwise rows keep fitting in space the WAL
    already holds (it is reused after each checkpoint) and a filled disk is met much later."""
    with contextlib.closing(sqlite3.connect(journal, timeout=5)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
