"""When the feed's cursors are saved in the table's journal.

A save is a durable commit (an fsync) on the table's own journal, so the feed's cursor is saved
at most every ``interval``, and each save rides on the table's next row (``Journal.defer_cursor``:
the same commit, no fsync of its own); if no row comes within ``CURSOR_RIDE`` it is saved alone,
and on close at once. A cursor saved late only means entries sent again after a crash, each
with its ``seq``: delivery stays at-least-once.
"""

from __future__ import annotations

import time
from typing import Any

from controller.journal import Journal

#: seconds a cursor waits to be saved with the table's next row before it is saved alone
CURSOR_RIDE = 0.1


class CursorSaver:
    def __init__(self, journal: Journal, interval: float) -> None:
        self.journal = journal
        self.interval = interval
        self._saved_at = float("-inf")  # the first save may happen at once
        self._deferred_at = 0.0  # when a cursor began to wait for the table's next row

    def due_in(self) -> float:
        """Seconds until the feed's cursor may be saved again."""
        return self._saved_at + self.interval - time.monotonic()

    def ride_left(self) -> float:
        """Seconds a deferred cursor may still wait for the table's next row."""
        return self._deferred_at + CURSOR_RIDE - time.monotonic()

    def save(self, name: str, seq: int, state: dict[str, Any] | None = None, *, now: bool = False,
             timed: bool = False) -> None:
        """Save ``name`` at ``seq`` (``now``: in a commit of its own); ``timed``: it counts for
        ``due_in``."""
        if timed:
            self._saved_at = time.monotonic()
        if now:
            self.journal.set_cursor(name, seq, state)
            return
        if not self.journal.cursors_waiting():
            self._deferred_at = time.monotonic()
        self.journal.defer_cursor(name, seq, state)

    def flush(self, force: bool = False) -> None:
        """Save alone what waited ``CURSOR_RIDE`` for a row that did not come (all, if ``force``)."""
        if self.journal.cursors_waiting() and (force or self.ride_left() <= 0):
            self.journal.flush_cursors()

    def waiting(self) -> bool:
        return self.journal.cursors_waiting()
