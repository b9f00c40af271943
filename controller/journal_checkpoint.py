"""The journal's WAL checkpoints, off the writer's path.

Left to itself SQLite checkpoints a WAL database inside the commit that takes the WAL past
1000 pages: that commit (a card's, as likely as any) also copies the pages back into the
database file and syncs it, then the next one restarts the WAL and syncs its header, so
every ~200 rows one input waits several milliseconds more than the others (the console's
p99, bench/console_latency.py). The table's writer hands that to this thread instead: it
checkpoints on its own connection, ``PASSIVE`` (it never waits for the writer, nor makes it
wait beyond SQLite's brief WAL-index locks), once ``every`` rows were written since the last,
in the first pause of ``QUIET`` seconds without a row (or after ``PATIENCE`` without one): the
row that made it due is likely a card whose push to the console is still under way, and the
checkpoint's syncs would queue on the same disk before the next card's. A checkpoint that rows
overtook is run again in the next pause: only a WAL copied to its end lets the writer start it
over from its beginning (overwriting it, where growing it costs a journal commit per sync).

Durability is untouched: a row is durable once its commit synced the WAL, before ``append``
returns; a checkpoint only copies rows already durable into the database file. The writer
keeps SQLite's own checkpoint as a backstop, at ``BACKSTOP_PAGES``, should this thread fall
behind: a writer that never pauses overtakes every checkpoint, and its WAL grows until then.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

#: rows between checkpoints (some 5 pages each: the row and its index entries): the WAL grows to
#: about 8 MB before it starts over, and the first commit after that syncs its header too, so
#: one row in ``EVERY`` pays a second sync (SQLite's own 1000 pages made it one in 200)
EVERY = 400
#: a pause in the writing long enough to checkpoint in (s), and the longest wait for one
QUIET = 0.02
PATIENCE = 1.0
#: the writer's own automatic checkpoint, only reached when this thread falls far behind
BACKSTOP_PAGES = 10_000


class Checkpointer:
    """A daemon thread checkpointing one WAL database after every ``every`` rows written
    (``wrote``); ``close`` stops it. ``connect`` opens the thread's own connection."""

    def __init__(self, connect: Callable[[], sqlite3.Connection], every: int = EVERY) -> None:
        self.every = every
        self.checkpoints = 0
        #: set after each checkpoint (tests wait on it)
        self.checkpointed = threading.Event()
        self._connect = connect
        self._rows = 0
        self._last = time.monotonic()  # the last row's time
        self._due = threading.Event()
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._run, name="journal-checkpoint", daemon=True)
        self._thread.start()

    def wrote(self) -> None:
        """One row was committed (called by the writer, under its lock)."""
        self._last = time.monotonic()
        self._rows += 1
        if self._rows >= self.every:
            self._rows = 0
            self._due.set()

    def close(self) -> None:
        """Stop the thread (SQLite checkpoints what is left when the writer's connection closes)."""
        self._closing.set()
        self._due.set()
        self._thread.join()

    def _run(self) -> None:
        db: sqlite3.Connection | None = None  # opened at the first checkpoint
        try:
            while True:
                self._due.wait()
                self._due.clear()
                self._pause()
                if self._closing.is_set():
                    return
                try:
                    db = db or self._connect()
                    started = time.monotonic()
                    _, frames, copied = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                    self.checkpoints += 1
                    self.checkpointed.set()
                    if copied < frames or self._last >= started:  # rows overtook it: again in the
                        self._due.set()  # next pause, so the writer restarts the WAL, not grows it
                except sqlite3.Error as exc:  # the writer's backstop still checkpoints
                    log.warning("journal checkpoint failed: %s", exc)
        finally:
            if db is not None:
                with contextlib.suppress(sqlite3.Error):
                    db.close()

    def _pause(self) -> None:
        """Until no row came for ``QUIET`` seconds, ``PATIENCE`` at most (or the close)."""
        give_up = time.monotonic() + PATIENCE
        while (now := time.monotonic()) < give_up:
            idle = now - self._last
            if idle >= QUIET or self._closing.wait(QUIET - idle):
                return
