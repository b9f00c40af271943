"""The table's deadlines as timers: at a deadline the table's close is journaled as a
``close_betting`` input from its source (``timer``, ``timer:seal``), and a seated box's decision
as a ``decide`` (``timer:decision``, ``timer:disconnect``: the game's default), like any other input.

The core asks for a deadline with a ``Deadline`` effect (it has no clock); after every step the
loop re-arms what the core still waits for, so a restart arms the replayed state's deadline
where it was. A close never goes in while the table holds or its journal's disk is full: it
comes once that ends (docs/studio.md, "The table's side").
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Protocol

from controller.commands.models import CloseBetting, Command
from controller.journal import Entry
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.effects import Deadline
from controller.table.seats import DECISION_TIMERS, timeout_order
from drivers.clock import Clock

log = logging.getLogger(__name__)
Key = tuple[str | None, str, int]


class ClosingLoop(Protocol):
    """What the timers need of the table's loop."""

    core: TableCore

    def submit(self, kind: str, payload: Command, source: str) -> Entry: ...


class DeadlineTimers:
    """One timer per (round, source) the core waits for; fired ones remembered until the core
    no longer lists them, so a close journaled but not yet applied is not journaled twice."""

    def __init__(self, loop: ClosingLoop, changed: asyncio.Condition, clock: Clock, wall: Callable[[], float],
                 journal_full: Callable[[], bool]) -> None:
        self._loop = loop
        self._changed = changed
        self._clock = clock
        self._wall = wall
        self._journal_full = journal_full
        self._timers: dict[Key, asyncio.Task[None]] = {}
        self._fired: set[Key] = set()

    def arm(self, deadline: Deadline) -> None:
        """Journal the close at ``deadline.at`` (once per round and source)."""
        key = (deadline.round_id, deadline.source, deadline.key)
        if key in self._timers or key in self._fired:
            return
        task = asyncio.get_running_loop().create_task(self._timer(deadline, key), name=f"deadline {key}")
        self._timers[key] = task
        task.add_done_callback(lambda _: self._timers.pop(key, None))

    def rearm(self) -> None:
        """Arm what the table waits for now (a deadline no longer pending is forgotten)."""
        pending = self._loop.core.deadlines()
        self._fired &= {(d.round_id, d.source, d.key) for d in pending}
        for deadline in pending:
            self.arm(deadline)

    def cancel(self) -> None:
        for task in list(self._timers.values()):
            task.cancel()

    async def _timer(self, deadline: Deadline, key: Key) -> None:
        at = datetime.fromisoformat(deadline.at.replace("Z", "+00:00")).timestamp()
        delay = at - self._wall()
        if delay > 0:
            await self._clock.sleep(delay)
        core = self._loop.core

        def due() -> bool:
            return deadline in core.deadlines()

        async with self._changed:  # not while the table holds: the close comes when it is released
            await self._changed.wait_for(lambda: not due() or (core.hold is None and not self._journal_full()))
        if not due():
            return
        order: Command | None = CloseBetting()
        if deadline.source in DECISION_TIMERS:  # a seated box's turn: the table's own decision
            order = timeout_order(core, deadline)
        if order is None:
            return
        self._fired.add(key)
        try:
            self._loop.submit(inputs.COMMAND, order, deadline.source)
        except inputs.InputRefused as refused:
            self._fired.discard(key)
            log.warning("the %s close of round %s was not journaled: %s", deadline.source, deadline.round_id,
                        refused.message)
