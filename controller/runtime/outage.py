"""The table's output writes, and what happens when the journal's disk is full (docs/deployment.md).

Nothing is acted on before it is journaled, so a full disk stops the table: the loop's first
write that fails (``JournalFull``) puts the table on hold (``journal.disk_full``, shown in the
prompt and the pit's state), inputs are refused with a clear error meanwhile, and the writes
that could not be made wait here in order. A retry runs every ``retry_interval`` seconds (on the
injected clock); once space returns the ``journal.disk_full`` alert is written, then what
waited, and the table resumes where it stood. No traceback, no lost output.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from controller.journal import Entry, Journal, JournalFull, utc_now
from controller.table import inputs
from controller.table.effects import Record
from controller.table.holds import ERROR, Hold, alert
from drivers.clock import SYSTEM_CLOCK, Clock

log = logging.getLogger(__name__)
TABLE_SOURCE = "table"
DISK_FULL = "journal.disk_full"


class OutputWriter:
    """Writes the table's output entries; holds the table while the journal cannot be written."""

    def __init__(self, journal: Journal, core: Any, wrote: Callable[[Entry], None], resumed: Callable[[], None],
                 *, clock: Clock = SYSTEM_CLOCK, retry_interval: float = 1.0,
                 flush_inputs: Callable[[], None] = lambda: None) -> None:
        self.journal = journal
        #: journals the inputs that waited for space (device events), after the outputs;
        #: raises ``JournalFull`` if the disk fills again
        self._flush_inputs = flush_inputs
        self.core = core
        self._wrote = wrote  # an entry written: the core and the listeners learn of it
        self._resumed = resumed  # the hold was released: the loop tells its listeners
        self.clock = clock
        self.retry_interval = retry_interval
        self.waiting: list[Record] = []  # outputs not written yet, in order
        self.since = ""
        self.refused = 0  # inputs refused while the disk was full
        self._alerted = False  # the outage's alert is written (once, as soon as space returns)
        self._retry: asyncio.Task[None] | None = None

    @property
    def full(self) -> bool:
        return self.core.outage is not None

    def write(self, kind: str, payload: dict[str, Any], round_id: str | None) -> None:
        """An output entry (an alert, a round record): written now, or in order once space returns."""
        if self.full:
            self.waiting.append(Record(kind, payload, round_id))
            return
        try:
            entry = self.journal.append(kind, payload, source=TABLE_SOURCE, round_id=round_id)
        except JournalFull as exc:
            self.waiting.append(Record(kind, payload, round_id))
            self.disk_full(exc)
            return
        self._wrote(entry)

    def disk_full(self, exc: JournalFull) -> None:
        """A write failed for want of space: hold the table and retry until it succeeds."""
        if not self.full:
            log.error("%s: the table holds and retries every %s s", exc, self.retry_interval)
            self.since = utc_now()
            self._alerted = False
            self.core.holds.set_outage(Hold(DISK_FULL, "the journal's disk is full: free space on it; the table "
                                                       "resumes by itself once it can write again", ("wait",), 0))
            self.core.changed()
            self._resumed()
        if self._retry is None or self._retry.done():
            self._retry = asyncio.get_running_loop().create_task(self._retry_until_written(), name="journal-retry")

    def refuse(self) -> str:
        """The error an input gets while the disk is full (counted for the alert)."""
        self.refused += 1
        return "the journal's disk is full: nothing can be taken until space is freed on it"

    async def _retry_until_written(self) -> None:
        while not await self._flushed():
            pass

    async def _flushed(self) -> bool:
        await self.clock.sleep(self.retry_interval)
        try:
            if not self._alerted:  # the outage's own alert first
                payload = alert(ERROR, DISK_FULL, f"the journal's disk was full from {self.since}: "
                                f"{len(self.waiting)} output(s) written late, {self.refused} input(s) refused",
                                0, since=self.since, refused=self.refused)
                self._wrote(self.journal.append(inputs.ALERT, payload, source=TABLE_SOURCE,
                                                round_id=self.core.round_id))
                self._alerted = True
            while self.waiting:
                record = self.waiting[0]
                self._wrote(self.journal.append(record.kind, record.payload, source=TABLE_SOURCE,
                                                round_id=record.round_id))
                self.waiting.pop(0)
            self._flush_inputs()
        except JournalFull:
            return False
        log.warning("the journal can be written again: the table resumes")
        self.core.holds.set_outage(None)
        self.refused = 0
        self.core.changed()
        self._resumed()
        return True

    def stop(self) -> None:
        if self._retry is not None:
            self._retry.cancel()
