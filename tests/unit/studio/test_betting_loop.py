"""The loop's betting time on the injected clock: the timer's close is journaled at the deadline
computed from the journaled open, a dealer's early close leaves it nothing to do, and a restart
re-arms a pending deadline (one already past closes at once, once the restart hold is released)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from controller.journal import Journal
from controller.runtime.loop import TableLoop
from controller.runtime.recovery import replay
from controller.table import inputs
from controller.table.betting import CLOSED, OPEN, TIMER, BettingTime, later
from controller.table.core import TableCore
from controller.table.events import parse_event
from drivers.clock import ScaledClock
from tests.support.waiting import until
from tests.unit.table.test_core import new_core

FACTOR = 10.0


class Table:
    """A blackjack core (no shoe device: the gate's effects are skipped) under a running loop
    whose clock runs ``FACTOR`` times faster, and whose wall reads that clock too."""

    def __init__(self, journal: Journal, core: TableCore) -> None:
        self.clock = ScaledClock(FACTOR)
        start_wall, start = time.time(), self.clock.monotonic()
        self.loop = TableLoop(core, journal, clock=self.clock, wall=lambda: start_wall + self.clock.monotonic() - start)
        self.core, self.journal = core, journal
        self.task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Table:
        self.task = asyncio.create_task(self.loop.run())
        return self

    def online(self) -> None:
        self.loop.device_event(parse_event({"type": "online", "device": "shoe", "detail": "test"}))

    async def __aexit__(self, *exc: object) -> None:
        assert self.task is not None
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)

    def closes(self) -> list[str]:
        return [e.source for e in self.journal.entries() if e.kind == inputs.COMMAND
                and e.payload["command"] == "close_betting"]


def timed_core(betting_s: int) -> TableCore:
    core = new_core()
    core.betting.set_time(BettingTime(betting_s=betting_s))
    return core


@pytest.fixture
async def journal(tmp_path: Path) -> AsyncIterator[Journal]:
    with Journal(tmp_path / "table.journal") as opened:
        yield opened


async def test_the_timer_closes_betting_at_the_deadline_of_the_journaled_open(journal: Journal) -> None:
    async with Table(journal, timed_core(5)) as table:
        table.online()
        started = table.clock.monotonic()  # before the open: the deadline counts from the open's journal time
        opened = table.loop.command("open_round")
        table.loop.command("bet", box=1, amount=1000, player="A")
        await until(lambda: table.core.betting.status == CLOSED, "the timer's close", within=150, clock=table.clock)
        assert table.clock.monotonic() - started >= 5 - 0.05
        assert table.closes() == [TIMER]
        close = next(e for e in journal.entries() if e.source == TIMER)
        assert close.ts >= opened.ts and table.core.betting.deadline == later(opened.ts, 5)
        assert table.core.phase == "playing"


async def test_a_dealer_close_before_the_deadline_leaves_the_timer_nothing_to_do(journal: Journal) -> None:
    async with Table(journal, timed_core(2)) as table:
        table.online()
        table.loop.command("open_round")
        table.loop.command("bet", box=1, amount=1000, player="A")
        table.loop.command("close_betting", "dealer")
        await table.loop.settled()
        past = table.clock.monotonic() + 3
        await until(lambda: table.clock.monotonic() >= past, "the deadline passed", within=10, clock=table.clock)
        await table.loop.settled()
        assert table.closes() == ["dealer"]
        assert not [e for e in journal.entries() if e.kind == inputs.ALERT and e.payload["severity"] != "info"]


@pytest.mark.parametrize("held", [True, False])
async def test_a_restart_rearms_a_deadline_already_past_and_closes_once_released(tmp_path: Path, held: bool) -> None:
    path = tmp_path / "table.journal"
    with Journal(path) as journal:
        journal.append(inputs.TABLE_STARTED, {"betting": BettingTime(betting_s=5).dump(), "hold_open_round": True},
                       source="table")
        journal.append(inputs.DEVICE, {"type": "online", "device": "shoe", "detail": "test"}, source="shoe")
        long_ago = "2026-01-01T10:00:00.000Z"
        journal.append(inputs.COMMAND, {"command": "open_round"}, source="dealer", ts=long_ago)
    with Journal(path) as journal:
        core = new_core()
        replay(journal, core)
        assert core.betting.status == OPEN and core.betting.deadline == later(long_ago, 5)
        core.restarted(hold_open_round=held)  # the process holds: the dealer resumes the open round
        async with Table(journal, core) as table:
            if held:
                await table.loop.settled()
                assert table.closes() == []  # not while the table holds
                table.loop.command("resume", "dealer")
            await until(lambda: core.betting.status == CLOSED, "the close at once", within=150, clock=table.clock)
            assert table.closes() == [TIMER]
