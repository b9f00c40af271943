"""A full disk holds the table, refuses inputs with a clear error and resumes when space returns.

The journal is a real SQLite file filled for real: ``PRAGMA max_page_count`` caps the database at
the pages it has, so the next write fails with SQLITE_FULL exactly as on a full disk; raising the
cap is the space coming back. Retries run on a clock the test steps by hand (one retry per tick).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from controller.games.blackjack.rules import blackjack_rules
from controller.journal import Journal, JournalFull
from controller.runtime.loop import TableLoop
from controller.runtime.outage import DISK_FULL
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.inputs import InputRefused
from controller.table.registry import adapter_for
from drivers.events import DeviceOnline
from drivers.shoe.events import CardDrawn as ShoeCard
from tests.support.waiting import until


class SteppedClock:
    """``sleep`` returns only when the test says ``tick``: each retry happens when asked for."""

    def __init__(self) -> None:
        self.permits: asyncio.Queue[None] = asyncio.Queue()
        self.slept = 0

    def monotonic(self) -> float:
        return float(self.slept)

    async def sleep(self, seconds: float) -> None:
        await self.permits.get()
        self.slept += 1

    async def tick(self, loop: TableLoop) -> None:
        """One retry: it runs whole in the step its ``sleep`` returns in (no await between), so
        once the permit is taken the attempt is over; then the loop applies what it let through."""
        slept = self.slept
        self.permits.put_nowait(None)
        await until(lambda: self.slept > slept, "the retry took its turn", within=10)
        await loop.settled()


def cap(journal: Journal, extra_pages: int = 0) -> None:
    """The database may grow by ``extra_pages`` pages from now on (0: it is full)."""
    pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    journal._db.execute(f"PRAGMA max_page_count = {pages + extra_pages}")


def fill(journal: Journal) -> None:
    """Write notes, 3 kB down to a few bytes, until the capped database takes not even the
    smallest: then every write fails."""
    for size in (3000, 1000, 300, 100, 30, 10, 0):
        with pytest.raises(JournalFull):
            for _ in range(10_000):
                journal.append("note", {"pad": "x" * size}, source="test")


@pytest.fixture
async def table(tmp_path) -> Any:
    journal = Journal(tmp_path / "t.journal")
    core = TableCore("t1", adapter_for("blackjack"), blackjack_rules("ru6"), "ru6")
    loop = TableLoop(core, journal)
    clock = SteppedClock()
    loop.writer.clock = clock
    task = asyncio.create_task(loop.run())
    loop.device_event(DeviceOnline(device="shoe", detail="test"))
    await loop.settled()
    yield loop, journal, clock
    task.cancel()
    loop.writer.stop()
    await asyncio.gather(task, return_exceptions=True)
    journal.close()


async def test_a_full_disk_holds_refuses_inputs_and_resumes_when_space_returns(table):
    loop, journal, clock = table
    core = loop.core
    loop.command("open_round", "dealer")
    await loop.settled()
    before = journal.last_seq()
    cap(journal)
    fill(journal)

    with pytest.raises(InputRefused) as refused:
        loop.command("bet", "dealer", box=1, amount=1000, player="A")
    assert refused.value.code == DISK_FULL and "disk is full" in refused.value.message
    await loop.settled()
    assert core.prompt().startswith("HOLD journal.disk_full: the journal's disk is full")
    assert core.state()["phase"] == "hold" and core.state()["hold"]["code"] == DISK_FULL
    with pytest.raises(InputRefused, match="disk is full"):  # refused at once while holding
        loop.command("close_betting", "dealer")
    loop.device_event(DeviceOnline(device="shoe", detail="again"))  # a driver's callback never raises

    await clock.tick(loop)  # still full: still holding, nothing written
    assert core.outage is not None and journal.last_seq() > before

    cap(journal, 200)  # space returns
    await clock.tick(loop)
    assert core.outage is None and core.prompt() == "Place your bets, then close betting"
    written = [e for e in journal.entries(after=before) if e.kind == inputs.ALERT]
    assert [a.payload["code"] for a in written] == [DISK_FULL]
    assert written[0].payload["refused"] == 2 and written[0].payload["severity"] == "error"
    # the device's event was not refused: it waited and is journaled right after the alert
    after = [(e.kind, e.payload.get("detail")) for e in journal.entries(after=written[0].seq)]
    assert after[0] == (inputs.DEVICE, "again")
    assert written[0].seq in core.alerts_open  # the pit sees it until acknowledged

    loop.command("bet", "dealer", box=1, amount=1000, player="A")  # play goes on
    await loop.settled()
    assert [s.stake for s in core.adapter.open_bets(core.engine)] == [1000]


async def test_outputs_that_could_not_be_written_wait_in_order_and_are_written_once(table):
    loop, journal, clock = table
    cap(journal)
    fill(journal)
    big = {"severity": "info", "code": "test.big", "message": "m" * 3000, "cause": 0, "hold": False}
    loop.writer.write(inputs.ALERT, {**big, "n": 1}, None)
    loop.writer.write(inputs.ALERT, {**big, "n": 2}, None)  # behind the first, even if it would fit
    assert loop.core.outage is not None and len(loop.writer.waiting) == 2
    await clock.tick(loop)
    assert len(loop.writer.waiting) == 2  # still full

    cap(journal, 200)
    await clock.tick(loop)
    alerts = [e.payload for e in journal.entries() if e.kind == inputs.ALERT]
    assert [(a["code"], a.get("n")) for a in alerts] == [(DISK_FULL, None), ("test.big", 1), ("test.big", 2)]
    assert loop.writer.waiting == [] and loop.core.outage is None


async def test_device_events_during_a_full_disk_wait_in_order_and_are_applied(table):
    """A winning number really spun, a card really drawn, cannot be refused: they wait."""
    loop, journal, clock = table
    core = loop.core
    loop.command("open_round", "dealer")
    loop.command("bet", "dealer", box=1, amount=1000, player="A")
    loop.command("close_betting", "dealer")
    await loop.settled()
    cap(journal)
    fill(journal)
    with pytest.raises(InputRefused):
        loop.command("void_round", "dealer")  # the first failed write: the table holds
    await loop.settled()
    assert core.outage is not None
    for n, card in enumerate(("TS", "7H", "9C"), start=1):  # the initial deal, out of the shoe meanwhile
        loop.device_event(ShoeCard(device="shoe", n=n, card=card))
    await clock.tick(loop)  # still full
    assert core.shoe.last_n == 0
    cap(journal, 200)
    await clock.tick(loop)
    await loop.settled()
    assert core.outage is None and core.shoe.last_n == 3  # all three applied, in order
    cards = [e.payload["card"] for e in journal.entries() if e.kind == inputs.DEVICE and "card" in e.payload]
    assert cards == ["TS", "7H", "9C"]
